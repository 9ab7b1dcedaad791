"""What each column of a table is for: an identifier, a time, a category (also one coded in numbers),
yes/no, a measure, a weight, free text or a constant. Plain Python.

Decided from the column's name, type and profile (distinct values, minimum, maximum) as an analyst
would at a glance, with the reason in words; a role a person named wins. Identifiers and constants
are never a measure or an outcome.
"""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.roles import YES_NO, spoken_value
from agents.analysis.schema import CODED_MAX, IDENTIFIER, MAX_GROUPS, coded, is_timeline
from agents.analysis.words import UNITS, split_name

ROLES = ("identifier", "time", "category", "yes/no", "measure", "weight", "text", "constant")
SUBJECT_WORDS = {
    "id", "subject", "subjects", "participant", "patient", "respondent", "individual", "person", "case", "serial",
    "record", "obs", "observation", "pid", "sid", "uid",
}  # fmt: skip
# Words and units that say a column measures something: whole numbers repeated evenly under such a name
# ("flipper_length_mm", "body_mass_g") are a balanced sample's measurements, not the keys of a panel.
MEASURE_WORDS = {
    "length", "width", "height", "depth", "weight", "mass", "size", "price", "cost", "amount", "income", "salary",
    "wage", "revenue", "sales", "score", "temp", "temperature", "age", "duration", "distance", "speed", "volume",
    "area", "pressure", "total", "wait", "delay", "days", "hours", "minutes", "seconds", "weeks",
} | (UNITS - {"no", "nr", "num"})  # fmt: skip
WEIGHT_NAME = re.compile(
    r"^(?:w(?:gh?)?t|weights|[pfa]weight|(?:sampl(?:e|ing)|survey|design|case|person|household|final|pop(?:ulation)?)"
    r"_?(?:weight|wgt|wt))$",
    re.I,
)


def _numbered(column: dict[str, Any]) -> bool:
    """Whole numbers from 0 or 1 up, every one of them there: how subjects or rows are numbered."""
    low, high, distinct = column.get("min"), column.get("max"), column.get("distinct") or 0
    if not (isinstance(low, int | float) and isinstance(high, int | float)) or low not in (0, 1):
        return False
    return float(high).is_integer() and high - low + 1 == distinct


def _spread(column: dict[str, Any]) -> bool:
    """Whole numbers too far apart to name a few hundred things (prices, populations): a measure."""
    high = column.get("max")
    return not isinstance(high, int | float) or high > 100 * max(column.get("distinct") or 1, 100)


def role_of(column: dict[str, Any], rows: int) -> tuple[str, str]:
    """The column's role and why, from ``name``, ``type``, ``distinct``, ``min``, ``max``, for columns
    with few values ``values``, and when the import said so ``numbered_evenly`` (1, 2, ... k, each about
    as often: subjects measured again and again, not a count) or ``repeated_evenly`` (any whole numbers
    so: counties or firms of a panel, numbered with gaps)."""
    name, kind, distinct = column["name"], column["type"], column.get("distinct") or 0
    words = split_name(name)
    values = {spoken_value(v) for v in column.get("values") or []}
    if rows > 1 and distinct <= 1:
        return "constant", "the same value in every row"
    if kind == "boolean" or (values and values in YES_NO and distinct == 2):
        return "yes/no", "two values, yes and no"
    if kind == "date":
        return "time", "dates"
    if kind == "number" and is_timeline(name):
        return "time", f"a number named {name!r}"
    if kind == "number" and coded(column):  # PartyID 0..6, region_code: codes, whatever the name ends in
        return "category", f"{distinct} whole-number codes"
    rate = "per" in words  # "Beer Tax ($ per case)": a rate per thing measures, whatever the thing is
    if kind == "number" and not rate and (IDENTIFIER.search(name) or (words and words[-1] in SUBJECT_WORDS)):
        return "identifier", f"its name, {name!r}, names things rather than measuring them"
    measured = bool(MEASURE_WORDS.intersection(words))
    repeated = distinct > CODED_MAX and rows >= 2 * distinct and column.get("numbered_evenly") and not measured
    if kind == "number" and _numbered(column) and (distinct == rows or repeated):
        span = f"{spoken_value(column.get('min'))} to {spoken_value(column.get('max'))}"
        return "identifier", f"whole numbers {span}, each of them there: numbers that name rows or subjects"
    if (
        kind == "number"
        and distinct > CODED_MAX
        and column.get("repeated_evenly")
        and not (_spread(column) or measured)
    ):
        return "identifier", "whole numbers, each in about as many rows: the keys of things measured again and again"
    if kind == "string" and rows > 2 and distinct >= rows:
        return "identifier", "a different value in every row"
    if kind == "number" and WEIGHT_NAME.match(name):
        return "weight", f"its name, {name!r}, says it weighs the rows"
    if kind == "string":
        return (
            ("category", f"{distinct} values") if distinct <= MAX_GROUPS else ("text", f"{distinct} different values")
        )
    return "measure", "numbers"


def roles_of(columns: list[dict[str, Any]], rows: int, told: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Each column's role and why; a role a person named (``told``) wins."""
    return {c["name"]: (told[c["name"]], "you said so") if c["name"] in told else role_of(c, rows) for c in columns}
