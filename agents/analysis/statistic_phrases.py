"""The words that say which statistic a question asks (a median, a total, the 90th percentile) and in
which direction (the highest, the lowest, the best of a measure that is worse the higher it is). Plain Python."""

from __future__ import annotations

import re

HIGH = re.compile(
    r"\b(?:highest|largest|biggest|greatest|most|top|best|maximum|max|more|higher|larger|bigger|greater|tallest|"
    r"heaviest|oldest|longest|widest|fastest|quickest|richest|hottest|wettest|priciest|costliest|most expensive|"
    r"busiest|fullest|most crowded)\b",
    re.I,
)


LOW = re.compile(
    r"\b(?:lowest|smallest|least|fewest|bottom|worst|minimum|min|less|lower|smaller|fewer|shortest|lightest|"
    r"youngest|narrowest|slowest|poorest|coldest|driest|weakest|cheapest|least expensive|quietest|calmest|emptiest)\b",
    re.I,
)


PERCENTILE = re.compile(
    r"\b(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[- ]?(?:percentile|centile|pctl?)\b|\bp(\d{1,2})\b", re.I
)
# "the top 10% of earners", "the bottom 5 percent": where that share of the rows begins, a percentile
TOP_PERCENT = re.compile(
    r"\b(?:(top|highest|upper|richest)|(bottom|lowest|poorest))\s+(\d{1,2}(?:\.\d+)?)\s*(?:%|percent\b)", re.I
)


def asks_percentile(text: str) -> bool:
    return bool(PERCENTILE.search(text) or TOP_PERCENT.search(text))


STATISTIC_WORDS = [
    (re.compile(r"\bmedian|middle value|50th percentile\b", re.I), "median"),
    (re.compile(r"\b(?:upper|third|top) quartile\b|\b(?:top|highest) (?:quarter|25 ?%)", re.I), "p75"),
    (re.compile(r"\b(?:lower|first|bottom) quartile\b|\b(?:bottom|lowest) (?:quarter|25 ?%)", re.I), "p25"),
    (re.compile(r"\b(?:top|upper|highest) decile\b", re.I), "p90"),
    (re.compile(r"\b(?:bottom|lower|lowest|first) decile\b", re.I), "p10"),
    (re.compile(r"\bstandard deviation|\bstd\b|\bs\.?d\.?\b|\bspread\b|\bvariability\b|\bdispersion\b|\bvolatil", re.I),
     "sd"),
    (re.compile(r"\btotal\b|\bsum(?:med)?\b|\baltogether\b|\bcombined\b|\bin all\b|\bcumulative\b"
                r"|\badd(?:ed|ing)? up\b", re.I), "sum"),
    (re.compile(r"\bhow many\b|\bnumber of\b|\bcount (?:of|the)\b|\bcount\b(?= (?:rows|records|observations))",
                re.I), "count"),
    (re.compile(r"\bmaximum\b|\bmax\b|\blargest value\b|\bhighest value\b|\bpeak\b", re.I), "max"),
    (re.compile(r"\bminimum\b|\bmin\b|\bsmallest value\b|\blowest value\b", re.I), "min"),
    (re.compile(r"\baverage\b|\bmean\b|\btypical\b|\bavg\b", re.I), "mean"),
]  # fmt: skip


INSTEAD = re.compile(r"\b(?:instead of|rather than|in place of|not)\s+(?:the\s+|a\s+|an\s+)?\w+(?:\s+deviation)?", re.I)


def statistic_of(text: str, *, besides: tuple[str, ...] = ()) -> tuple[str, float] | None:
    """The statistic the words ask for, the one said last winning (a refinement overrides the goal),
    leaving out ``besides`` ("the total number of units" asks a total, not a count)."""
    said: list[tuple[int, str, float]] = []
    text = INSTEAD.sub(" ", text)
    for match in PERCENTILE.finditer(text):
        said.append((match.start(), "percentile", float(match.group(1) or match.group(2))))
    for match in TOP_PERCENT.finditer(text):
        share = float(match.group(3))
        said.append((match.start(), "percentile", 100 - share if match.group(1) else share))
    for pattern, name in STATISTIC_WORDS:
        for match in pattern.finditer(text):
            if re.fullmatch(r"p\d+", name):
                said.append((match.start(), "percentile", float(name[1:])))
            elif name not in besides:
                said.append((match.start(), name, 50))
    if not said:
        return None
    _, name, percentile = max(said)
    return name, percentile


def direction_of(text: str) -> str:
    """Highest or lowest, the word said last winning."""
    high = [m.start() for m in HIGH.finditer(text)]
    low = [m.start() for m in LOW.finditer(text)]
    return "low" if low and (not high or max(low) > max(high)) else "high"


# a judgement of a measure that is worse the higher it is (emissions, deaths, delays, cost): the best is
# the lowest, the worst the highest
GOOD = re.compile(r"\b(?:best|better|cleanest|cleaner|greenest|greener|safest|safer|healthiest|healthier)\b", re.I)
BAD = re.compile(r"\b(?:worst|worse|dirtiest|dirtier|most polluting)\b", re.I)
BAD_WHEN_HIGH = re.compile(
    r"co2|carbon|emission|pollut|waste|death|mortality|fatalit|error|defect|delay|crime|unemploy|poverty|risk", re.I
)


def judged_direction(text: str, direction: str, measure: str) -> str:
    """The direction a judgement asks of ``measure``: "the cleanest grid" is the lowest gCO2 per kWh."""
    good, bad = [m.start() for m in GOOD.finditer(text)], [m.start() for m in BAD.finditer(text)]
    if not BAD_WHEN_HIGH.search(measure) or not (good or bad):
        return direction
    return "low" if good and (not bad or max(good) > max(bad)) else "high"
