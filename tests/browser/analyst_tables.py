"""Small tables shaped like well-known public ones, for the kinds of question the retail table cannot
ask: a daily air-quality series (R's ``airquality``: which day, which outliers), a few elements'
melting points (which element), looms by wool and
tension (``warpbreaks``: a best combination that interacts), chicks weighed every other day on four
feeds (``ChickWeight``: a rate per group) and cholesterol against exercise by age group (the textbook
Simpson's paradox: negative within every age group, positive pooled).
"""

import datetime
import random

OZONE_SPIKES = {"2024-05-25": 168, "2024-07-08": 135, "2024-08-30": 122}  # days of stagnant air


def air_quality_rows() -> list[dict]:
    """A reading a day from May to September: ozone follows the temperature, three days spike."""
    rng = random.Random(1973)
    rows, day = [], datetime.date(2024, 5, 1)
    while day <= datetime.date(2024, 9, 30):
        summer = 1 - abs((day - datetime.date(2024, 7, 20)).days) / 90
        temp = round(66 + 20 * summer + rng.gauss(0, 4))
        wind = round(max(2.0, 11 - 3 * summer + rng.gauss(0, 2.5)), 1)
        ozone = OZONE_SPIKES.get(day.isoformat(), max(4, round(1.1 * temp - 45 - 1.5 * wind + rng.gauss(0, 9))))
        rows.append({"date": day.isoformat(), "ozone": ozone, "temp": temp, "wind": wind})
        day += datetime.timedelta(days=1)
    return rows


MELTING_POINTS = {  # kelvin, as the periodic table gives them
    "Hydrogen": 14.01, "Lithium": 453.65, "Beryllium": 1560, "Boron": 2349, "Carbon": 3823, "Nitrogen": 63.15,
    "Oxygen": 54.36, "Sodium": 370.87, "Magnesium": 923, "Aluminium": 933.47, "Silicon": 1687, "Iron": 1811,
    "Copper": 1357.77, "Silver": 1234.93, "Gold": 1337.33, "Lead": 600.61, "Tungsten": 3695, "Mercury": 234.32,
}  # fmt: skip
DENSITIES = {  # g/cm3
    "Hydrogen": 0.00008988, "Lithium": 0.534, "Beryllium": 1.85, "Boron": 2.34, "Carbon": 2.267, "Nitrogen": 0.0012506,
    "Oxygen": 0.001429, "Sodium": 0.968, "Magnesium": 1.738, "Aluminium": 2.7, "Silicon": 2.3296, "Iron": 7.874,
    "Copper": 8.96, "Silver": 10.49, "Gold": 19.3, "Lead": 11.34, "Tungsten": 19.25, "Mercury": 13.534,
}  # fmt: skip


def element_rows() -> list[dict]:
    """A row an element, named: the row asked for is named by its element, not by a date."""
    return [
        {"element": name, "density": DENSITIES[name], "melting_point": kelvin}
        for name, kelvin in MELTING_POINTS.items()
    ]


LOOM_MEANS = {
    ("A", "L"): 44.6,
    ("A", "M"): 24.0,
    ("A", "H"): 24.6,
    ("B", "L"): 28.2,
    ("B", "M"): 28.8,
    ("B", "H"): 18.8,
}


def loom_rows() -> list[dict]:
    """Nine looms per wool and tension, warp breaks around R's warpbreaks cell means: wool A breaks far
    more at low tension only (an interaction)."""
    rng = random.Random(1958)
    return [
        {"wool": wool, "tension": tension, "breaks": max(5, round(mean + rng.gauss(0, 6)))}
        for (wool, tension), mean in LOOM_MEANS.items()
        for _ in range(9)
    ]


FEED_GAIN = {"corn": 6.5, "soy": 8.9, "fish": 11.4, "insect": 9.7}  # grams a day


def chick_rows() -> list[dict]:
    """Five chicks per feed, weighed every other day from hatching (40 g) to day 20."""
    rng = random.Random(1990)
    rows = []
    for number, (feed, gain) in enumerate((feed, gain) for feed, gain in FEED_GAIN.items() for _ in range(5)):
        own = gain * rng.uniform(0.85, 1.15)
        for day in range(0, 21, 2):
            weight = round(40 + own * day + rng.gauss(0, 1.5 + day / 2), 1)
            rows.append({"chick": f"C{number + 1:02d}", "feed": feed, "day": day, "weight": weight})
    return rows


AGE_GROUPS = {"20s": (2.0, 160.0), "30s": (4.0, 185.0), "40s": (6.0, 210.0), "50s": (8.0, 235.0), "60s": (10.0, 260.0)}


def exercise_rows() -> list[dict]:
    """Thirty people per age group: the older exercise more and have more cholesterol, and within each
    age group an hour more of exercise a week goes with 3 mg/dL less cholesterol."""
    rng = random.Random(1951)
    rows = []
    for group, (hours, level) in AGE_GROUPS.items():
        for _ in range(30):
            exercise = round(max(0.0, hours + rng.gauss(0, 1.5)), 1)
            cholesterol = round(level - 3.0 * (exercise - hours) + rng.gauss(0, 4))
            rows.append({"age_group": group, "exercise": exercise, "cholesterol": cholesterol})
    return rows
