"""Builds a second held-out question set: other public data, other analysts' words.

    /work/main/.venv/bin/python bench/eval/holdout2/make.py

The analyst has by now been tuned on bench/eval/questions/ and bench/eval/holdout/, so neither predicts
how it does on questions it has never seen. This set stands in for such a hidden set: the same kinds,
fields and rules for ``answer`` and ``figure`` as holdout/make.py (both take them from
bench/eval/rules.py, so the sets are scored alike), over data neither set uses, with the questions written
afresh in many voices. Scored by ``python bench/agents_eval.py --questions-only --set holdout2``.

The data: public sets shipped with statsmodels (cpunish, committee, scotland, spector, stackloss,
strikes, engel, ccard, heart, co2, sunspots, interest_inflation, danish_data, china_smoking, cancer)
and scikit-learn (linnerud, digits), and four tables generated with a fixed seed with headers in mixed
styles (snake_case, CamelCase, ``Title (unit)``, abbreviations), ISO dates and year columns, text
categories, 0/1 and yes/no columns, coded categories and some missing values.

The checks are holdout/make.py's (the rules' strict ones, and two the questions ask for): no "which"
answer within 1.5% of its runner-up; a filter's figure far from the unfiltered, the turned-round and
every group's figure; no row at a strict threshold; no negated filter over missing values; "typical"
only where mean and median agree within 1%; growth only where every entity has its first and last
period; shares only of columns without missing values.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import rules
from bench.eval.rules import (
    compare,
    direction,
    growth,
    most_associated,
    rank_differences,
    share,
    statistic,
    subset,
    trend,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 20240517


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _sm_file(name: str, file: str) -> pd.DataFrame:
    """The CSV a statsmodels dataset ships, with the name column its loader leaves out."""
    import statsmodels.datasets

    return pd.read_csv(Path(statsmodels.datasets.__file__).parent / name / file)


def _execution_states() -> pd.DataFrame:
    """US states with executions in 1996 (statsmodels ``cpunish``)."""
    data = _sm_file("cpunish", "cpunish.csv")
    return pd.DataFrame(
        {
            "State": data["STATE"].str.replace("_", " "),
            "Executions": data["EXECUTIONS"].astype(int),
            "Median Income ($)": data["INCOME"].astype(int),
            "Poverty Rate (%)": data["PERPOVERTY"],
            "Black Population (%)": data["PERBLACK"],
            "Violent Crimes per 100k": data["VC100k96"].astype(int),
            "Southern": np.where(data["SOUTH"] == 1, "yes", "no"),
            "College Degree (%)": (data["DEGREE"] * 100).round(1),
        }
    )


def _house_committees() -> pd.DataFrame:
    """Committees of the US House, bills referred in the first 100 days of the 103rd and 104th
    Congresses (statsmodels ``committee``)."""
    data = _sm_file("committee", "committee.csv")
    return pd.DataFrame(
        {
            "CommitteeName": data["COMMITTEE"].str.replace("_", " "),
            "Members": data["SIZE"].astype(int),
            "Subcommittees": data["SUBS"].astype(int),
            "StaffSize": data["STAFF"].astype(int),
            "HighPrestige": data["PRESTIGE"].astype(int),
            "Bills103rd": data["BILLS103"].astype(int),
            "Bills104th": data["BILLS104"].astype(int),
        }
    )


def _scottish_devolution() -> pd.DataFrame:
    """The 1997 vote on tax powers for a Scottish parliament, by council (statsmodels ``scotland``)."""
    data = _sm_file("scotland", "scotvote.csv")
    return pd.DataFrame(
        {
            "council": data["COUNCILDIST"].str.replace("_", " "),
            "yes_vote_pct": data["YES"],
            "council_tax_gbp": data["COUTAX"].astype(int),
            "female_unemp_claims_pct": data["UNEMPF"],
            "std_mortality_ratio": data["MOR"].astype(int),
            "labour_participation_pct": data["ACT"],
            "gdp_gbp": data["GDP"].astype(int),
            "pct_aged_5_15": data["AGE"],
        }
    )


def _psi_course() -> pd.DataFrame:
    """Students in an intermediate economics course, with or without a new teaching method (personalised
    system of instruction) (statsmodels ``spector``)."""
    data = rules.statsmodels_data("spector")
    return pd.DataFrame(
        {
            "Student": [f"S{i:02d}" for i in range(1, len(data) + 1)],
            "GPA": data["GPA"],
            "TUCE Score": data["TUCE"].astype(int),
            "PSI Method": np.where(data["PSI"] == 1, "yes", "no"),
            "Grade Improved": data["GRADE"].astype(int),
        }
    )


def _ammonia_plant() -> pd.DataFrame:
    """21 days of an ammonia oxidation plant (statsmodels ``stackloss``, Brownlee 1965)."""
    data = rules.statsmodels_data("stackloss")
    return pd.DataFrame(
        {
            "Day": np.arange(1, len(data) + 1),
            "Air Flow": data["AIRFLOW"].astype(int),
            "Cooling Water Temp (C)": data["WATERTEMP"].astype(int),
            "Acid Concentration": data["ACIDCONC"].astype(int),
            "Stack Loss": data["STACKLOSS"].astype(int),
        }
    )


def _strike_durations() -> pd.DataFrame:
    """62 US manufacturing strikes, 1968-1976 (statsmodels ``strikes``, Kennan 1985)."""
    data = rules.statsmodels_data("strikes")
    return pd.DataFrame({"duration_days": data["duration"].astype(int), "unanticipated_iprod": data["iprod"]})


def _household_food() -> pd.DataFrame:
    """Engel's 235 Belgian working-class households (statsmodels ``engel``): income and food spending."""
    data = rules.statsmodels_data("engel")
    return pd.DataFrame(
        {
            "hh_id": np.arange(1, len(data) + 1),
            "hh_income": data["income"].round(2),
            "food_exp": data["foodexp"].round(2),
        }
    )


def _card_spending() -> pd.DataFrame:
    """Credit card holders' average monthly spending (statsmodels ``ccard``, Greene)."""
    data = rules.statsmodels_data("ccard")
    return pd.DataFrame(
        {
            "AvgMonthlySpend": data["AVGEXP"].round(2),
            "Age": data["AGE"].astype(int),
            "Income10k": data["INCOME"].round(4),
            "Homeowner": np.where(data["OWNRENT"] == 1, "owner", "renter"),
        }
    )


def _heart_transplants() -> pd.DataFrame:
    """Stanford heart transplant patients (statsmodels ``heart``): days survived after surgery; status
    'died' where the death was observed, 'alive at follow-up' where the record was censored."""
    data = rules.statsmodels_data("heart")
    return pd.DataFrame(
        {
            "age_at_surgery": data["age"].round(1),
            "survival_days": data["survival"].astype(int),
            "status": np.where(data["censors"] == 1, "died", "alive at follow-up"),
        }
    )


def _mauna_loa() -> pd.DataFrame:
    """Weekly atmospheric CO2 at Mauna Loa, 1958-2001 (statsmodels ``co2``), with the weeks it misses."""
    data = rules.statsmodels_data("co2")
    return pd.DataFrame(
        {
            "week_ending": data.index.strftime("%Y-%m-%d"),
            "month": data.index.strftime("%b"),
            "co2_ppm": data["co2"].to_numpy(),
        }
    )


def _sunspots() -> pd.DataFrame:
    """Yearly sunspot numbers, 1700-2008 (statsmodels ``sunspots``)."""
    data = rules.statsmodels_data("sunspots")
    return pd.DataFrame({"Year": data["YEAR"].astype(int), "Sunspot Number": data["SUNACTIVITY"]})


def _german_rates() -> pd.DataFrame:
    """West German quarterly inflation and long-term interest rate, 1972-1998 (``interest_inflation``)."""
    data = rules.statsmodels_data("interest_inflation")
    start = {1: "01", 2: "04", 3: "07", 4: "10"}
    quarters = zip(data["year"], data["quarter"], strict=True)
    return pd.DataFrame(
        {
            "QuarterStart": [f"{int(year)}-{start[int(quarter)]}-01" for year, quarter in quarters],
            "InflationPct": (data["Dp"] * 400).round(3),  # the quarterly log change, annualised, in percent
            "LongRatePct": (data["R"] * 100).round(2),
        }
    )


def _danish_money() -> pd.DataFrame:
    """Danish money demand, quarterly 1974-1987 (statsmodels ``danish_data``, Johansen-Juselius)."""
    data = rules.statsmodels_data("danish_data")
    return pd.DataFrame(
        {
            "quarter": data.index.strftime("%Y-%m-%d"),
            "log_real_money": data["lrm"].round(5),
            "log_real_income": data["lry"].round(5),
            "log_prices": data["lpy"].round(5),
            "bond_rate": data["ibo"].round(5),
            "deposit_rate": data["ide"].round(5),
        }
    )


def _china_smoking() -> pd.DataFrame:
    """Lung cancer and smoking in eight Chinese cities (statsmodels ``china_smoking``), one row per city
    and cell of its 2x2 table."""
    data = rules.statsmodels_data("china_smoking")
    rows = []
    for city, counts in data.iterrows():
        for smoker in ("yes", "no"):
            for cancer in ("yes", "no"):
                rows.append(
                    {
                        "City": city.replace("Nanjng", "Nanjing"),  # the source's misspelling
                        "Smoker": smoker,
                        "Lung Cancer": cancer,
                        "Persons": int(counts[f"smoking_{smoker}_cancer_{cancer}"]),
                    }
                )
    return pd.DataFrame(rows)


def _county_cancer() -> pd.DataFrame:
    """Breast cancer cases and population of 301 US counties (statsmodels ``cancer``)."""
    data = rules.statsmodels_data("cancer")
    return pd.DataFrame(
        {
            "county_no": np.arange(1, len(data) + 1),
            "bc_cases": data["cancer"].astype(int),
            "population": data["population"].astype(int),
        }
    )


def _linnerud() -> pd.DataFrame:
    """Twenty middle-aged men at a fitness club (scikit-learn ``linnerud``): three exercises and three
    body measurements."""
    from sklearn.datasets import load_linnerud

    data = load_linnerud(as_frame=True).frame
    return pd.DataFrame(
        {
            "Chin-ups": data["Chins"].astype(int),
            "Sit-ups": data["Situps"].astype(int),
            "Jumps": data["Jumps"].astype(int),
            "Weight (lb)": data["Weight"].astype(int),
            "Waist (in)": data["Waist"].astype(int),
            "Pulse (bpm)": data["Pulse"].astype(int),
        }
    )


def _digits() -> pd.DataFrame:
    """Handwritten 5s and 6s (scikit-learn ``digits``): 8x8 pixel intensities 0-16 (``px_r5_c2`` is
    row 5, column 2), the pixels not blank in every image of the two."""
    from sklearn.datasets import load_digits

    data = load_digits(as_frame=True).frame
    data = data[data["target"].isin([5, 6])].reset_index(drop=True)
    pixels = [c for c in data.columns if c.startswith("pixel_") and data[c].nunique() > 1]
    frame = data[pixels].astype(int).rename(columns=lambda c: "px_r{}_c{}".format(*c.split("_")[1:]))
    frame.insert(0, "digit", np.where(data["target"] == 5, "five", "six"))
    return frame


# ---------------------------------------------------------------------------------------------------
# The generated datasets

STATIONS = {  # mean temperature (C), seasonal swing, rain days share, mean humidity, elevation (m)
    "Harbour": (12.5, 7.0, 0.42, 78, 5),
    "Airport": (11.8, 8.5, 0.36, 71, 48),
    "Hilltop": (7.9, 8.0, 0.48, 82, 610),
    "Valley": (13.4, 10.5, 0.28, 64, 120),
}


def _weather_readings(rng: np.random.Generator) -> pd.DataFrame:
    """Four weather stations, a reading every fifth day 2018-2023, warming 0.25 C a year; some
    humidity and wind readings lost."""
    days = pd.date_range("2018-01-02", "2023-12-30", freq="5D")
    rows = []
    for station, (mean, swing, wet, humidity, _elevation) in STATIONS.items():
        for day in days:
            season = -np.cos(2 * np.pi * (day.day_of_year - 15) / 365.25)
            years = (day - days[0]).days / 365.25
            avg = mean + swing * season + 0.25 * years + rng.normal(0, 2.2)
            rains = rng.random() < wet * (1.15 - 0.3 * season)
            humid = humidity + 9 * rains - 4 * season
            precip = round(float(rng.gamma(1.6, 4.5)), 1) if rains else 0.0
            rows.append(
                {
                    "obs_date": day.strftime("%Y-%m-%d"),
                    "station": station,
                    "avg_temp_c": round(avg, 1),
                    "max_temp_c": round(avg + rng.uniform(3, 8), 1),
                    "precip_mm": precip,
                    "rel_humidity_pct": round(float(np.clip(humid + rng.normal(0, 6), 20, 100))),
                    "wind_kph": round(float(rng.gamma(3.0, 4.0 if station != "Hilltop" else 6.5)), 1),
                    "rain_day": "yes" if precip > 0 else "no",
                }
            )
    frame = pd.DataFrame(rows)
    frame.loc[rng.choice(len(frame), size=37, replace=False), "rel_humidity_pct"] = np.nan
    frame.loc[rng.choice(len(frame), size=22, replace=False), "wind_kph"] = np.nan
    return frame


DEPARTMENTS = {  # share of staff, salary base (USD), overtime share
    "Engineering": (0.31, 98_000, 0.34),
    "Sales": (0.22, 71_000, 0.46),
    "Support": (0.19, 52_000, 0.28),
    "Finance": (0.12, 83_000, 0.22),
    "Operations": (0.16, 61_000, 0.52),
}


def _staff_survey(rng: np.random.Generator) -> pd.DataFrame:
    """A company's staff survey: overtime workers are less satisfied and take more sick days; job levels
    1 (junior) to 4 (principal) are coded; some satisfaction scores and training hours missing."""
    n = 560
    names = list(DEPARTMENTS)
    department = rng.choice(names, size=n, p=[DEPARTMENTS[d][0] for d in names])
    level = rng.choice([1, 2, 3, 4], size=n, p=[0.38, 0.32, 0.2, 0.1])
    tenure = np.round(np.clip(rng.gamma(2.0, 2.2, size=n) + 2.2 * (level - 1), 0.1, 35), 1)
    hire_year = np.clip(2024 - np.floor(tenure).astype(int), 1990, 2024)
    overtime = rng.random(n) < np.array([DEPARTMENTS[d][2] for d in department])
    remote = (rng.random(n) < np.where(department == "Engineering", 0.55, 0.25)).astype(int)
    female = rng.random(n) < np.select([department == "Engineering", department == "Finance"], [0.3, 0.55], 0.5)
    base = np.array([DEPARTMENTS[d][1] for d in department])
    salary = base * (1 + 0.28 * (level - 1)) * (1 + 0.012 * tenure) * rng.lognormal(0, 0.09, size=n)
    mood = 7.2 - 1.9 * overtime + 0.4 * remote + 0.2 * (level - 2)
    satisfaction = np.clip(np.round(mood + rng.normal(0, 1.3, size=n)), 1, 10)
    absence = rng.poisson(3.0 + 3.2 * overtime + 0.8 * (department == "Support"))
    training = np.round(rng.gamma(3.0, 8.0, size=n) * np.where(level == 1, 1.4, 1.0))
    frame = pd.DataFrame(
        {
            "EmployeeID": [f"E{1000 + i}" for i in range(n)],
            "Department": department,
            "JobLevel": level,
            "Gender": np.where(female, "F", "M"),
            "HireYear": hire_year,
            "Tenure (yrs)": tenure,
            "Annual Salary (USD)": np.round(salary, -2).astype(int),
            "RemoteWork": remote,
            "Overtime": np.where(overtime, "Yes", "No"),
            "SatisfactionScore": satisfaction,
            "Training Hours": training,
            "AbsenceDays": absence,
        }
    )
    frame.loc[rng.choice(n, size=44, replace=False), "SatisfactionScore"] = np.nan
    frame.loc[rng.choice(n, size=25, replace=False), "Training Hours"] = np.nan
    frame["SatisfactionScore"] = frame["SatisfactionScore"].astype("Int64")
    frame["Training Hours"] = frame["Training Hours"].astype("Int64")
    return frame


HOSPITALS = {  # beds 2014, admissions 2014 and growth a year, stay (days) and its change a year, readmissions (%)
    "St Mary's": (420, 21_500, 0.012, 5.6, -0.09, 11.8),
    "Riverside General": (610, 30_800, 0.021, 6.1, -0.05, 13.4),
    "Northgate": (250, 11_900, 0.055, 4.9, -0.03, 10.2),
    "Lakeview": (330, 16_400, -0.018, 5.3, -0.11, 12.6),
    "Eastfield Community": (180, 8_700, 0.032, 4.4, -0.02, 9.1),
    "Kings Cross Infirmary": (520, 26_000, 0.004, 6.8, -0.14, 14.9),
}


def _hospital_panel(rng: np.random.Generator) -> pd.DataFrame:
    """Six (invented) hospitals a year, 2014-2023: Northgate grows fastest, Lakeview shrinks, stays get
    shorter everywhere; 2020 admissions dip."""
    rows = []
    for name, (beds, admissions, growth_rate, stay, stay_change, readmit) in HOSPITALS.items():
        for index, year in enumerate(range(2014, 2024)):
            covid = 0.86 if year == 2020 else 1.0
            admitted = admissions * (1 + growth_rate) ** index * covid * rng.normal(1, 0.015)
            rows.append(
                {
                    "Hospital": name,
                    "FiscalYear": year,
                    "Beds": int(np.rint(beds * (1 + growth_rate / 2) ** index)),
                    "Admissions": int(np.rint(admitted)),
                    "Avg Length of Stay (days)": round(stay + stay_change * index + rng.normal(0, 0.08), 2),
                    "Readmission Rate (%)": round(readmit - 0.15 * index + rng.normal(0, 0.35), 1),
                    "NurseFTE": round(beds * 1.9 * (1 + growth_rate / 2) ** index * rng.normal(1, 0.02), 1),
                    "pct_female_staff": round(float(rng.normal(74, 3)), 1),
                }
            )
    return pd.DataFrame(rows)


# population (k) in 2012 and its growth a year, unemployment (%) and its change a year, house price (k),
# broadband coverage (%)
PROVINCES = {
    "Alderney Vale": (1840, 0.004, 7.8, -0.21, 212, 61),
    "Brightwater": (960, 0.019, 6.1, -0.12, 268, 70),
    "Cedar Coast": (2410, 0.011, 9.4, -0.35, 305, 66),
    "Dunmore": (530, -0.009, 11.2, -0.05, 131, 48),
    "Eastmarch": (1290, 0.007, 8.3, -0.27, 178, 57),
    "Fenwick Hills": (720, 0.026, 5.2, -0.08, 241, 73),
    "Glenholm": (410, -0.004, 10.1, 0.06, 119, 44),
}


def _province_stats(rng: np.random.Generator) -> pd.DataFrame:
    """Seven (invented) provinces a year, 2012-2022: Fenwick Hills grows fastest, Dunmore shrinks,
    unemployment falls most in Cedar Coast; broadband spreads fastest where it started lowest."""
    rows = []
    for name, (population, pop_growth, unemployment, change, price, broadband) in PROVINCES.items():
        for index, year in enumerate(range(2012, 2023)):
            covid = 1.6 if year == 2020 else (0.7 if year == 2021 else 0.0)
            rows.append(
                {
                    "province": name,
                    "year": year,
                    "Population (thousands)": round(population * (1 + pop_growth) ** index * rng.normal(1, 0.002), 1),
                    "Unemployment Rate (%)": round(unemployment + change * index + covid + rng.normal(0, 0.25), 1),
                    "MedianHousePrice_k": round(price * (1.045 + pop_growth) ** index * rng.normal(1, 0.02), 1),
                    "broadband_pct": round(100 - (100 - broadband) * 0.93**index + rng.normal(0, 0.8), 1),
                    "pct_over_65": round(17 + 0.25 * index - 120 * pop_growth + rng.normal(0, 0.3), 1),
                }
            )
    return pd.DataFrame(rows)


STORES = {"Old Town": 0.33, "Campus": 0.27, "Station": 0.24, "Riverside": 0.16}
ITEMS = {  # category: (share of orders, price EUR, sized)
    "Coffee": (0.46, 3.4, True),
    "Tea": (0.14, 2.9, True),
    "Pastry": (0.22, 2.6, False),
    "Sandwich": (0.13, 6.2, False),
    "Merch": (0.05, 14.5, False),
}


def _cafe_orders(rng: np.random.Generator) -> pd.DataFrame:
    """A café chain's order lines 2022-2024: prices up about 6% a year, loyalty members buy more; drink
    sizes S/M/L are left empty for food and merchandise."""
    n = 1900
    stores = list(STORES)
    items = list(ITEMS)
    day = rng.integers(0, 3 * 365, size=n)
    date = pd.Timestamp("2022-01-01") + pd.to_timedelta(day, unit="D")
    store = rng.choice(stores, size=n, p=list(STORES.values()))
    category = rng.choice(items, size=n, p=[ITEMS[i][0] for i in items])
    sized = np.array([ITEMS[i][2] for i in category])
    size = np.where(sized, rng.choice(["S", "M", "L"], size=n, p=[0.3, 0.45, 0.25]), None)
    size_factor = np.select([size == "S", size == "L"], [0.85, 1.2], 1.0)
    loyalty = rng.random(n) < np.where(store == "Campus", 0.55, 0.35)
    qty = 1 + rng.poisson(np.where(loyalty, 0.9, 0.35))
    price = np.array([ITEMS[i][1] for i in category]) * size_factor * 1.06 ** (day / 365) * rng.normal(1, 0.03, size=n)
    payment = rng.choice(["card", "app", "cash"], size=n, p=[0.5, 0.3, 0.2])
    frame = pd.DataFrame(
        {
            "order_date": date.strftime("%Y-%m-%d"),
            "store": store,
            "item_category": category,
            "size_code": size,
            "qty": qty,
            "unit_price_eur": np.round(price, 2),
            "total_eur": np.round(price * qty, 2),
            "loyalty_member": np.where(loyalty, "yes", "no"),
            "payment_method": payment,
        }
    ).sort_values("order_date", kind="stable", ignore_index=True)
    return frame


def build_datasets() -> list[str]:
    rng = np.random.default_rng(SEED)
    frames = {
        "execution_states": _execution_states(),
        "house_committees": _house_committees(),
        "scottish_devolution": _scottish_devolution(),
        "psi_course": _psi_course(),
        "ammonia_plant": _ammonia_plant(),
        "strike_durations": _strike_durations(),
        "household_food": _household_food(),
        "card_spending": _card_spending(),
        "heart_transplants": _heart_transplants(),
        "mauna_loa_co2": _mauna_loa(),
        "sunspots": _sunspots(),
        "german_rates": _german_rates(),
        "danish_money": _danish_money(),
        "china_smoking": _china_smoking(),
        "county_cancer": _county_cancer(),
        "fitness_club": _linnerud(),
        "digits_five_six": _digits(),
        "weather_readings": _weather_readings(rng),
        "staff_survey": _staff_survey(rng),
        "hospital_panel": _hospital_panel(rng),
        "province_stats": _province_stats(rng),
        "cafe_orders": _cafe_orders(rng),
    }
    return rules.write_datasets(frames, DATASETS)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare
    ("h2-compare-card-owners", "card_spending", "compare",
     "Do homeowners or renters spend more on their credit card in a typical month? Compare the mean "
     "AvgMonthlySpend of the two.",
     compare("Homeowner", "AvgMonthlySpend")),
    ("h2-compare-staff-pay", "staff_survey", "compare",
     "which dept pays best on average?",
     compare("Department", "Annual_Salary__USD_")),
    ("h2-compare-weather-coldest", "weather_readings", "compare",
     "Coldest station? Going by the mean of the daily average temperatures.",
     compare("station", "avg_temp_c", high=False)),
    ("h2-compare-hospital-readmissions", "hospital_panel", "compare",
     "Which hospital has the best readmission record over the decade, meaning the lowest average "
     "readmission rate?",
     compare("Hospital", "Readmission_Rate____", high=False)),
    ("h2-compare-cafe-ticket", "cafe_orders", "compare",
     "At which of our cafés is the average order line worth the most (mean total_eur)?",
     compare("store", "total_eur")),
    ("h2-compare-cafe-size-price", "cafe_orders", "compare",
     "Looking at drinks by cup size (S, M, L), which size has the highest average unit price?",
     compare("size_code", "unit_price_eur")),
    ("h2-compare-executions-poverty", "execution_states", "compare",
     "Is poverty more widespread in the Southern states or in the others? I'd like the mean poverty rate "
     "for each side and which is higher.",
     compare("Southern", "Poverty_Rate____")),
    ("h2-compare-heart-age", "heart_transplants", "compare",
     "Were the transplant patients who died older at the time of surgery than those still alive at "
     "follow-up? Which status group has the higher mean age?",
     compare("status", "age_at_surgery")),
    ("h2-compare-staff-training-level", "staff_survey", "compare",
     "Training hours by job level (1 = junior ... 4 = principal): which level averages the most?",
     compare("JobLevel", "Training_Hours")),
    ("h2-compare-province-jobless", "province_stats", "compare",
     "Which province has suffered the highest jobless rate, averaged across 2012-2022?",
     compare("province", "Unemployment_Rate____")),
    # rank_differences
    ("h2-rank-executions-south", "execution_states", "rank_differences",
     "What most sets the Southern states apart from the non-Southern ones in this table? Rank the "
     "indicators by how strongly they differ.",
     rank_differences("Southern")),
    ("h2-rank-committees-prestige", "house_committees", "rank_differences",
     "Prestige committees vs the rest: on which characteristic is the gap biggest, relative to the spread?",
     rank_differences("HighPrestige")),
    ("h2-rank-card-owners", "card_spending", "rank_differences",
     "How do card holders who own their home differ from renters? Which variable separates the two groups "
     "best?",
     rank_differences("Homeowner")),
    ("h2-rank-psi", "psi_course", "rank_differences",
     "Which measure differs most between students taught with the PSI method and those taught without it?",
     rank_differences("PSI_Method")),
    ("h2-rank-digits", "digits_five_six", "rank_differences",
     "Which single pixel best distinguishes a handwritten five from a six, i.e. shows the largest "
     "standardised difference between the two digits?",
     rank_differences("digit")),
    ("h2-rank-weather-stations", "weather_readings", "rank_differences",
     "Of all the weather variables, which one varies most between the four stations?",
     rank_differences("station")),
    ("h2-rank-staff-overtime", "staff_survey", "rank_differences",
     "what's the biggest difference between people who work overtime and people who don't",
     rank_differences("Overtime")),
    ("h2-rank-cafe-loyalty", "cafe_orders", "rank_differences",
     "In what respect do loyalty-card members' orders differ most from non-members' orders?",
     rank_differences("loyalty_member")),
    ("h2-rank-heart-status", "heart_transplants", "rank_differences",
     "Which variable differs most between the patients who died and those alive at follow-up?",
     rank_differences("status")),
    # association
    ("h2-assoc-ammonia-stackloss", "ammonia_plant", "association",
     "Which operating variable tracks stack loss most closely?",
     most_associated("Stack_Loss")),
    ("h2-assoc-fitness-weight", "fitness_club", "association",
     "What is body weight most strongly correlated with in this data?",
     most_associated("Weight__lb_")),
    ("h2-assoc-fitness-waist-exercise", "fitness_club", "association",
     "Of the three exercises (chin-ups, sit-ups, jumps), which one is most closely linked to waist size, "
     "and what's the correlation?",
     most_associated("Waist__in_", among=("Chin_ups", "Sit_ups", "Jumps"))),
    ("h2-assoc-committees-bills", "house_committees", "association",
     "Which committee attribute best predicts the number of bills referred in the 104th Congress?",
     most_associated("Bills104th")),
    ("h2-assoc-card-spend", "card_spending", "association",
     "Is average monthly card spending driven more by age or by income? Which correlates more strongly "
     "with it?",
     most_associated("AvgMonthlySpend")),
    ("h2-assoc-staff-overtime", "staff_survey", "association",
     "Which numeric variable is most associated with whether someone works overtime?",
     most_associated("Overtime")),
    ("h2-assoc-executions-crime", "execution_states", "association",
     "What correlates best with the violent crime rate across these states?",
     most_associated("Violent_Crimes_per_100k")),
    ("h2-assoc-food-income", "household_food", "association",
     "As household income goes up, does spending on food go up or down? How strong is the correlation?",
     direction("hh_income", "food_exp")),
    ("h2-assoc-strikes", "strike_durations", "association",
     "Is there a positive or a negative relationship between unanticipated industrial production and how "
     "long strikes last?",
     direction("unanticipated_iprod", "duration_days")),
    ("h2-assoc-danish-money-bond", "danish_money", "association",
     "Pearson correlation between the bond rate and log real money: sign and size?",
     direction("bond_rate", "log_real_money")),
    ("h2-assoc-scotland-tax", "scottish_devolution", "association",
     "Did councils that collect more council tax tend to vote yes more or less? Give the direction of "
     "the correlation.",
     direction("council_tax_gbp", "yes_vote_pct")),
    # trend
    ("h2-trend-co2", "mauna_loa_co2", "trend",
     "How has the CO2 concentration at Mauna Loa changed over time? Use annual averages.",
     trend("week_ending", "co2_ppm")),
    ("h2-trend-german-long-rate", "german_rates", "trend",
     "Direction of the German long-term interest rate from 1972 to 1998, by yearly average?",
     trend("QuarterStart", "LongRatePct")),
    ("h2-trend-german-inflation", "german_rates", "trend",
     "Has inflation been trending up or down over the years covered?",
     trend("QuarterStart", "InflationPct")),
    ("h2-trend-danish-bond", "danish_money", "trend",
     "What happened to the Danish bond rate between 1974 and 1987? Average it per year.",
     trend("quarter", "bond_rate")),
    ("h2-trend-weather-temp", "weather_readings", "trend",
     "Is it getting warmer? Show the yearly mean of avg_temp_c across all stations.",
     trend("obs_date", "avg_temp_c")),
    ("h2-trend-weather-rain-total", "weather_readings", "trend",
     "Total rainfall per year, summed over all four stations: going up or down?",
     trend("obs_date", "precip_mm", stat="sum")),
    ("h2-trend-hospital-admissions", "hospital_panel", "trend",
     "How have total admissions across the six hospitals developed from 2014 to 2023?",
     trend("FiscalYear", "Admissions", stat="sum")),
    ("h2-trend-hospital-stay", "hospital_panel", "trend",
     "Are patients staying in hospital for shorter or longer periods than they used to? Look at the "
     "average length of stay each year.",
     trend("FiscalYear", "Avg_Length_of_Stay__days_")),
    ("h2-trend-cafe-prices", "cafe_orders", "trend",
     "Have our unit prices crept up? Average unit price per year, please.",
     trend("order_date", "unit_price_eur")),
    ("h2-trend-province-broadband", "province_stats", "trend",
     "Broadband coverage over time — what's the trend in the mean broadband_pct per year?",
     trend("year", "broadband_pct")),
    # share
    ("h2-share-executions-state", "execution_states", "share",
     "Which state accounts for the largest share of all the executions in 1996, and what percent is that?",
     share("State", of="Executions")),
    ("h2-share-committees-bills", "house_committees", "share",
     "What fraction of the 104th Congress bill referrals went to each committee? Which got the most?",
     share("CommitteeName", of="Bills104th")),
    ("h2-share-china-city", "china_smoking", "share",
     "Which city contributes the most people to the study, as a percentage of everyone counted?",
     share("City", of="Persons")),
    ("h2-share-heart-status", "heart_transplants", "share",
     "What proportion of the transplant patients died during follow-up, versus were still alive?",
     share("status")),
    ("h2-share-staff-department", "staff_survey", "share",
     "Headcount breakdown by department — which is biggest and what % of staff does it have?",
     share("Department")),
    ("h2-share-staff-level", "staff_survey", "share",
     "What's the most common job level, and what share of employees is at it?",
     share("JobLevel")),
    ("h2-share-cafe-payment", "cafe_orders", "share",
     "How do customers pay? Split of orders by payment method.",
     share("payment_method")),
    ("h2-share-cafe-revenue-category", "cafe_orders", "share",
     "Which item category makes up the largest part of total sales in euros?",
     share("item_category", of="total_eur")),
    ("h2-share-weather-rain", "weather_readings", "share",
     "Which station accounts for the biggest share of all the precipitation measured?",
     share("station", of="precip_mm")),
    ("h2-share-hospital-admissions", "hospital_panel", "share",
     "Of all admissions in the table, what percentage were at each hospital? Which has the largest slice?",
     share("Hospital", of="Admissions")),
    # growth
    ("h2-growth-hospital-admissions", "hospital_panel", "growth",
     "Which hospital grew its admissions the most in percentage terms from 2014 to 2023?",
     growth("Hospital", "FiscalYear", "Admissions")),
    ("h2-growth-hospital-admissions-decline", "hospital_panel", "growth",
     "Which hospital saw the steepest percentage fall in admissions between the first and last year?",
     growth("Hospital", "FiscalYear", "Admissions", high=False)),
    ("h2-growth-hospital-readmissions", "hospital_panel", "growth",
     "Where did the readmission rate improve the most, i.e. drop by the largest percentage from 2014 to 2023?",
     growth("Hospital", "FiscalYear", "Readmission_Rate____", high=False)),
    ("h2-growth-hospital-stay", "hospital_panel", "growth",
     "Which hospital cut its average length of stay by the biggest relative amount over the period?",
     growth("Hospital", "FiscalYear", "Avg_Length_of_Stay__days_", high=False)),
    ("h2-growth-province-population", "province_stats", "growth",
     "fastest growing province by population, 2012 to 2022, in %?",
     growth("province", "year", "Population__thousands_")),
    ("h2-growth-province-shrinking", "province_stats", "growth",
     "Which province lost the largest percentage of its population between 2012 and 2022?",
     growth("province", "year", "Population__thousands_", high=False)),
    ("h2-growth-province-unemployment", "province_stats", "growth",
     "In which province did the unemployment rate come down the most, relative to where it started in 2012?",
     growth("province", "year", "Unemployment_Rate____", high=False)),
    ("h2-growth-province-house-prices", "province_stats", "growth",
     "Where have median house prices climbed the most in percent since 2012?",
     growth("province", "year", "MedianHousePrice_k")),
    ("h2-growth-province-broadband", "province_stats", "growth",
     "Which province made the biggest percentage gain in broadband coverage from the first year to the last?",
     growth("province", "year", "broadband_pct")),
    # statistic
    ("h2-stat-sunspots-max", "sunspots", "statistic",
     "What is the highest yearly sunspot number in the record?",
     statistic("Sunspot_Number", "max")),
    ("h2-stat-cancer-total", "county_cancer", "statistic",
     "How many breast cancer cases are there across all 301 counties combined?",
     statistic("bc_cases", "sum")),
    ("h2-stat-strikes-p90", "strike_durations", "statistic",
     "90th percentile of strike duration in days?",
     statistic("duration_days", "p90")),
    ("h2-stat-food-sd", "household_food", "statistic",
     "How much does food expenditure vary from household to household? Standard deviation, please.",
     statistic("food_exp", "sd")),
    ("h2-stat-co2-count", "mauna_loa_co2", "statistic",
     "For how many weeks do we actually have a CO2 measurement (non-missing co2_ppm)?",
     statistic("co2_ppm", "count")),
    ("h2-stat-heart-median-survival", "heart_transplants", "statistic",
     "What was the median survival time after surgery, in days?",
     statistic("survival_days", "median")),
    ("h2-stat-scotland-typical-tax", "scottish_devolution", "statistic",
     "What's the typical council tax figure for a Scottish council here? The midpoint value is fine.",
     statistic("council_tax_gbp", "median", close_to="mean")),
    ("h2-stat-staff-median-salary", "staff_survey", "statistic",
     "Median annual salary across all employees?",
     statistic("Annual_Salary__USD_", "median")),
    ("h2-stat-weather-windiest-sd", "weather_readings", "statistic",
     "At which station is the wind speed most variable (highest standard deviation of wind_kph)?",
     statistic("wind_kph", "sd", group="station")),
    ("h2-stat-cafe-units-category", "cafe_orders", "statistic",
     "Which item category sold the most units in total (sum of qty)?",
     statistic("qty", "sum", group="item_category")),
    ("h2-stat-hospital-fewest-admissions", "hospital_panel", "statistic",
     "Which hospital handled the fewest admissions in total over the ten years?",
     statistic("Admissions", "sum", group="Hospital", high=False)),
    ("h2-stat-german-peak-rate", "german_rates", "statistic",
     "What was the peak long-term interest rate in the series?",
     statistic("LongRatePct", "max")),
    # filter
    ("h2-filter-executions-south-crime", "execution_states", "filter",
     "Mean violent crime rate for the Southern states only?",
     subset("Violent_Crimes_per_100k", "Southern == 'yes'")),
    ("h2-filter-committees-subs", "house_committees", "filter",
     "For committees with five or more subcommittees, what's the average staff size?",
     subset("StaffSize", "Subcommittees >= 5")),
    ("h2-filter-scotland-low-participation", "scottish_devolution", "filter",
     "Among councils where labour force participation is below 75%, what was the average yes vote?",
     subset("yes_vote_pct", "labour_participation_pct < 75")),
    ("h2-filter-card-high-income", "card_spending", "filter",
     "What is the median monthly spend of card holders with an Income10k of 5 or more (i.e. $50k+)?",
     subset("AvgMonthlySpend", "Income10k >= 5", stat="median")),
    ("h2-filter-heart-over-50", "heart_transplants", "filter",
     "How many days did patients aged 50 or over at surgery survive, on average?",
     subset("survival_days", "age_at_surgery >= 50")),
    ("h2-filter-food-rich", "household_food", "filter",
     "What's the average food spending of households whose income exceeds 1500?",
     subset("food_exp", "hh_income > 1500")),
    ("h2-filter-cancer-big-counties", "county_cancer", "filter",
     "Total breast cancer cases in counties with a population above 50,000?",
     subset("bc_cases", "population > 50000", stat="sum")),
    ("h2-filter-co2-1990s", "mauna_loa_co2", "filter",
     "What was the mean CO2 level during the 1990s (1990 through 1999)?",
     subset("co2_ppm", "week_ending >= '1990-01-01' and week_ending <= '1999-12-31'")),
    ("h2-filter-sunspots-20th-century", "sunspots", "filter",
     "Average sunspot number in the twentieth century, i.e. the years 1900-1999?",
     subset("Sunspot_Number", "Year >= 1900 and Year <= 1999")),
    ("h2-filter-german-pre-1980", "german_rates", "filter",
     "Before 1980, what did the long-term rate average?",
     subset("LongRatePct", "QuarterStart < '1980-01-01'")),
    ("h2-filter-weather-summer-2023", "weather_readings", "filter",
     "Mean max_temp_c over June, July and August 2023?",
     subset("max_temp_c", "obs_date >= '2023-06-01' and obs_date <= '2023-08-31'")),
    ("h2-filter-staff-high-earners", "staff_survey", "filter",
     "How many employees earn more than $150,000 a year?",
     subset("Annual_Salary__USD_", "Annual_Salary__USD_ > 150000", stat="count")),
    ("h2-filter-cafe-campus-members", "cafe_orders", "filter",
     "For loyalty members ordering at the Campus store, what is the mean order total?",
     subset("total_eur", "loyalty_member == 'yes' and store == 'Campus'")),
    ("h2-filter-province-excluding", "province_stats", "filter",
     "Leaving Dunmore and Glenholm out of it, what's the average unemployment rate of the other provinces?",
     subset("Unemployment_Rate____", "province not in ['Dunmore', 'Glenholm']")),
    ("h2-filter-fitness-waist", "fitness_club", "filter",
     "How many sit-ups do men with a waist of 36 inches or more manage on average?",
     subset("Sit_ups", "Waist__in_ >= 36")),
    ("h2-filter-ammonia-airflow", "ammonia_plant", "filter",
     "On days with air flow of at least 62, what was the mean stack loss?",
     subset("Stack_Loss", "Air_Flow >= 62")),
    ("h2-filter-psi-improvers", "psi_course", "filter",
     "What's the average GPA of the students who were in the PSI programme and whose grade improved?",
     subset("GPA", "PSI_Method == 'yes' and Grade_Improved == 1")),
    ("h2-filter-strikes-negative-shock", "strike_durations", "filter",
     "When unanticipated industrial production was negative, how long did strikes last on average?",
     subset("duration_days", "unanticipated_iprod < 0")),
    ("h2-filter-danish-deposit-late", "danish_money", "filter",
     "Mean deposit rate from 1983 onward?",
     subset("deposit_rate", "quarter >= '1983-01-01'")),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: ids unique, every kind at least six times, every dataset asked about, answers
    from the data, and a few answers known from the sources."""
    rules.check_kinds(entries, per_kind=6, at_least=60)
    assert len(names) >= 8 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    by_id = {e["id"]: e for e in entries}
    assert by_id["h2-share-executions-state"]["answer"] == "Texas"  # 37 of the 74 executions
    assert by_id["h2-share-executions-state"]["figure"] == 50
    assert by_id["h2-stat-sunspots-max"]["figure"] == 190.2  # 1957
    assert by_id["h2-trend-co2"]["answer"] == "rose"
    assert by_id["h2-assoc-food-income"]["answer"] == "positive"  # Engel's law: food spending rises, slower


def main() -> None:
    names = build_datasets()
    frames = {name: rules.read_back(DATASETS, name) for name in names}
    for dataset, column, value in (  # the strict thresholds the questions use: no row sits on one
        ("scottish_devolution", "labour_participation_pct", 75),
        ("household_food", "hh_income", 1500),
        ("county_cancer", "population", 50000),
        ("staff_survey", "Annual_Salary__USD_", 150000),
        ("strike_durations", "unanticipated_iprod", 0),
    ):
        rules.unambiguous_bounds(frames[dataset], column, value)
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
