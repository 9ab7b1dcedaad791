"""Questions a model answers, read over a question's first reading: a forecast ("if the trend continues,
what in 2030?"), a rate per group ("how fast does weight grow per day on each feed?") and an adjusted
association ("is X still linked to Y after accounting for Z?"). Plain Python.
"""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.groupings import cycle_said
from agents.analysis.periods import period_of
from agents.analysis.phrases import FLOW_NAME, RATE_NAME
from agents.analysis.request import Request
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import statistic_of
from agents.analysis.words import Mention, split_name

FORECAST = re.compile(
    r"\bforecast\w*|\bpredict(?:ion)?s?\b(?= (?:for|in|by|of)\b)|\bproject(?:ed|ion|ions|s)?\b(?! manager)"
    r"|\bextrapolat\w*|\bprojecting\b"
    r"|\bif (?:the|this|that|its|their) (?:[\w-]+ )?(?:trend|line|pattern|growth|rate|decline)"
    r"(?: (?:continues|holds|persists|carries on|goes on|keeps (?:up|going)))?\b"
    r"|\b(?:trend|line)\s+(?:[\w-]+\s+){0,2}?(?:continues?|continued|holds?|held|carries on"
    r"|carried on|persists?|persisted|goes on|went on|keeps? (?:up|going))"
    r"|\b(?:straight|linear)[- ](?:trend|line)\b|\btrend ?line\b|\b(?:should|would|could) we expect\b"
    r"|\bwhere would\b|\bwill (?:\w+ ){0,3}(?:be|reach|hit)\b"
    r"|\bfit (?:a |the )?(?:straight )?line\b|\bread (?:it )?off\b",
    re.I,
)
YEAR = re.compile(r"(?<![\d.,])(1[6-9]\d\d|2[01]\d\d)(?![\d.,]\d)")
RATE_UNIT = re.compile(
    r"\bper[- ](?:[a-z]+ )?(?:day|week|month|year|hour|decade|extra|additional|unit|each|added)\b"
    r"|\b(?:a|each|every) (?:day|week|month|year|hour|decade)\b(?! of (?:the )?week)|\byearly\b|\bover the years\b"
    r"|\bfrom (day|week|month|year|decade) to \1\b",  # "fell fastest from year to year"
    re.I,
)
FIRST_TO_LAST = re.compile(  # a change between two ends, not a slope
    r"\bpercent\w*|\brelative\b|\bproportional\w*|\bfirst\b.{0,40}\blast\b"
    r"|\bfrom (?:1[5-9]|20)\d\d to (?:1[5-9]|20)\d\d\b",
    re.I,
)
SLOPE = re.compile(r"\bslopes?\b|\bsteep\w*|\blinear trend\b|\bline of best fit\b", re.I)  # a rate, said as such
SPEED = re.compile(
    r"\bfast\w*|\bquick\w*|\bslow\w*|\bsteep\w*|\brapid\w*|\bhow much\b|\bby how many\b|\brate\b|\bslopes?\b"
    r"|\bby the most\b|\bthe most \w+ (?:per|a|each)\b",
    re.I,
)
CHANGING = re.compile(
    r"\b(?:gr[eo]w\w*|ris(?:e|es|ing|en)|rose|gain\w*|increas\w*|declin\w*|decreas\w*|climb\w*|chang\w*|improv\w*"
    r"|wors\w*|drop\w*|cut\w*|fall\w*|fell|shr[iu]nk\w*|(?:go|goes|went|gone|going) (?:up|down)|slopes?|rate of"
    r"|add(?:ed|s|ing)|expand\w*|warm(?:s|ed|ing)?(?: up)?|cool(?:s|ed|ing)? (?:down|off)|heat(?:s|ed|ing)? up"
    r"|(?:got|gets?|getting|became|becomes?|grew) (?:more|less|\w+er)\b)\b",
    re.I,
)  # "slowest month for sales" ranks months; "grew slowest" asks a rate
FALLING = re.compile(
    r"\b(?:declin\w*|decreas\w*|fell|fall\w*|drop\w*|shr[aiu]nk\w*|cut\w*|los[te]\w*|down|sl[iu]d\w*|slipp?\w*)\b", re.I
)
SLOWLY = re.compile(
    r"\bslow\w*|\bleast (?:quickly|fast|steep\w*|affected)\b|\blowest (?:[\w-]+ )?slope\b|\bflatt?e\w*|\bgentlest\b",
    re.I,
)
AS_X = re.compile(r"\bas (?:the |its |their )?$", re.I)  # "as the dose goes up": the rate is per dose
PER_X = re.compile(r"\bper\s+(?:[\w-]+\s+){0,3}$", re.I)  # "per extra ring", "per extra kilo of weight"
# "pressure climbs with age": the rate is per year of age
WITH_X = re.compile(
    r"\b(?:climb|ris|rose|gr[eo]w|increas|declin|decreas|fall|fell|drop|go(?:es)? up|go(?:es)? down|chang)\w*"
    r"\s+(?:steadily\s+|faster\s+|more\s+)?with\s+(?:the\s+|its\s+|their\s+)?$",
    re.I,
)
ADJUSTED = re.compile(
    r"\b(?:after|when|once|while|if)\s+(?:you\s+|we\s+)?(?:account\w*|adjust\w*|control\w*|correct\w*|allow\w*)\s+for\b"
    r"|\b(?:controlling|adjusting|accounting|correcting|allowing)\s+for\b|\badjusted for\b"
    r"|\bholding\s+(?:[\w-]+\s+){0,6}?(?:constant|fixed|equal|steady)\b|\bnet of\b"
    r"|\bwith\s+(?:[\w-]+\s+){0,6}?(?:held|kept)\s+(?:constant|fixed|equal)\b"
    r"|\b(?:tak(?:e|es|ing)|took)\s+(?:[\w'\u2019-]+\s+){0,4}?into account\b|\bwithin (?:each|every|the same)\b"
    r"|\bstill\b(?=.{0,60}\b(?:after|once|within)\b)",
    re.I,
)


WHOSE = re.compile(r"\bwhose\b|\bwho\b", re.I)
EACH_OF = re.compile(r"\b(?:for each|in each|per|by|each|every|across)\s+(?:the\s+)?(?:\w+\s+)?$", re.I)
MOVES_WITH = re.compile(
    r"\b(?:up|down|rise|rises|fall|falls|chang(?:e|es|ed)|increase|increases|decrease|decreases)\s+"
    r"(?:or\s+(?:up|down|fall|falls)\s+)?(?:with|over|as|per|for each|for every)\b",
    re.I,
)  # "how does systolic pressure change per year of age": the first named is the outcome


def target_year(text: str, schema: Schema, time: str | None, filters: list[dict[str, Any]]) -> int | None:
    """The year a forecast is asked for: the latest year the question names past the table's last, or
    past the years its filters or a range it says fit the line on ("had the 1913-1950 trend carried on, … in
    1955")."""
    column = next((c for c in schema.columns if c["name"] == time), None)
    if column is None:
        return None
    ends = [c["value"] for c in _conditions(filters) if c.get("column") == time and c.get("op") in ("<", "<=")]
    ends += [int(last) for _, last in WINDOW.findall(text)]  # "using 2015-2017, project 2018": in the table too
    last = column.get("max")
    lasts = [int(str(end)[:4]) for end in [last, *ends] if end is not None and str(end)[:4].isdigit()]
    last_year = min(lasts) if last is not None and lasts else None  # "in 2026", past the last year, fits on all
    years = [int(y) for y in YEAR.findall(text)]
    later = [y for y in years if last_year is None or y > last_year]
    return max(later) if later else None


def as_forecast(request: Request, text: str, schema: Schema, named: list[Mention]) -> bool:
    """ "If the trend continues, what will US CO2 per person be in 2020?": the series per year (a date
    column's years), a straight line through it, its value in 2020. The target is no filter."""
    named_times = [m.column for m in named if m.column in schema.times]
    numbered = [t for t in schema.times if t not in schema.names("date")]  # a year column before a date's years
    candidates = named_times or [*numbered, *schema.names("date")]
    reaching = [t for t in candidates if target_year(text, schema, t, request.filters)]
    time = reaching[0] if reaching else None
    target = target_year(text, schema, time, request.filters)
    if time is None or target is None:
        return False
    request.kind, request.time, request.to, request.group, request.entity = "forecast", time, str(target), None, None
    request.period = "year" if time in schema.names("date") else "auto"
    request.filters = [f for f in request.filters if not _names_year(f, target)]
    if not any(c.get("column") == time for c in _conditions(request.filters)):
        request.filters += _window(text, schema, time, target)
    request.measures = _measure(request, schema, named, besides={time})
    request.outcome = None
    flows = request.measures and FLOW_NAME.search(request.measures[0]) and not RATE_NAME.search(request.measures[0])
    if request.statistic == "count" and request.measures:  # "how many people would it have employed"
        request.statistic = "sum" if flows else "mean"
    said = statistic_of(text, besides=("count",))  # "what total volume per year": total_volume took "total"
    if flows and said is not None and said[0] == "sum":
        request.statistic = "sum"
    request.missing = [] if request.measures else ["measure"]
    return True


def _measure(request: Request, schema: Schema, named: list[Mention], besides: set[str]) -> list[str]:
    """The measure of the first reading; when it took none, the fullest name said, an association's
    outcome, or the table's only measure ("its chum catch", read first as a filter's column)."""
    said = [m.column for m in sorted(named, key=lambda m: -m.score) if m.column in schema.measures]
    outcome = [request.outcome] if request.outcome else []
    sole = [schema.sole_measure] if schema.sole_measure else []
    return [m for m in [*request.measures, *said, *outcome, *sole] if m not in besides][:1]


def _conditions(filters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each simple condition of the filters, the parts of an "and" among them."""
    return [part for f in filters for part in (_conditions(f["and"]) if "and" in f else [f])]


def _names_year(condition: dict[str, Any], year: int) -> bool:
    return str(year) in str(condition)


WINDOW = re.compile(r"\b((?:1[89]|20)\d\d)\s*(?:-|\u2013|to|through|until|and)\s*((?:1[89]|20)\d\d)\b")


def _window(text: str, schema: Schema, time: str, target: int) -> list[dict[str, Any]]:
    """ "If the 2000-2018 path continues, where will it be in 2021?": the years the line is fitted on,
    said before the year asked for (a range that ran on to the target was dropped with it)."""
    said = [(int(a), int(b)) for a, b in WINDOW.findall(text) if int(a) < int(b) < target]
    if not said:
        return []
    first, last = said[0]
    if time in schema.names("date"):
        return [{"and": [{"column": time, "op": ">=", "value": f"{first}-01-01"},
                         {"column": time, "op": "<=", "value": f"{last}-12-31"}]}]  # fmt: skip
    return [{"and": [{"column": time, "op": ">=", "value": first}, {"column": time, "op": "<=", "value": last}]}]


def as_rate(request: Request, text: str, schema: Schema, named: list[Mention]) -> bool:
    """ "How fast do chicks gain weight per day on each diet?": each group's slope of the measure on a
    time (or on the number the rate is per: "per extra ring"), steepest first."""
    per = [  # "per extra ring", "as the dose goes up"; not the "per person" of co2_per_person
        m.column
        for m in named
        if m.column in schema.numbers
        and _rate_is_per(text, text[m.start : m.end])
        and "per" not in split_name(m.column)
    ]
    times = [m.column for m in named if m.column in schema.times] or schema.times
    x = per[0] if per else times[0] if times else None
    listed = [f["column"] for f in request.filters if f.get("op") == "in" and isinstance(f.get("value"), list)]
    # "which nation": a text column said, of many values as countries are, still groups the rates
    said = [m.column for m in named if m.column in schema.categories or m.column in schema.names("string")]
    names = [m.column for m in named if m.column in {c["name"] for c in schema.columns if c.get("role") == "identifier"}
             or m.column in schema.row_names]  # fmt: skip
    grouped = [g for g in (request.group, request.entity) if g in said]
    # a grouping said before one the first reading supposed
    candidates = [*grouped, *listed, *said, request.group, request.entity, *names]
    each = [m.column for m in named if m.column in said and EACH_OF.search(text[: m.start])]  # "for each region"
    if WHOSE.search(text) and not each:  # "whose reaction time got worse fastest": each named thing, said or not
        things = [c["name"] for c in schema.columns if c.get("role") == "identifier"] + schema.row_names
        candidates = [*listed, *names, *things, *candidates, *schema.categories]
    candidates = [*each, *candidates]
    group = next((g for g in candidates if g and g != x), None)
    cycle = cycle_said(text, schema) if not each and not grouped else None
    request.cycle = None
    if cycle:  # "which season warmed fastest": each season of the date, over the date
        group, request.cycle = cycle
    if x is None or group is None:
        return False
    request.kind, request.time, request.group, request.entity = "rate", x, group, None
    request.period = period_of(text) if x in schema.names("date") else "auto"  # "the yearly average price"
    request.direction = "low" if SLOWLY.search(text) else "fall" if FALLING.search(text) else request.direction
    request.measures = _measure(request, schema, named, besides={x, group})
    request.filters = [f for f in request.filters if not (f.get("column") == group and f.get("op") == "=")]
    request.missing = [] if request.measures else ["measure"]
    return True


def _rate_is_per(text: str, said: str) -> bool:
    """Whether a column, said so anywhere in ``text`` ("age"), is what a rate is per: "per year of age",
    "as the dose goes up", "climbs with age"."""
    return any(
        pattern.search(text[: found.start()])
        for found in re.finditer(rf"(?<!\w){re.escape(said)}(?!\w)", text)
        for pattern in (PER_X, AS_X, WITH_X)
    )


# "the regression slope on size", "the coefficient of weight", "the effect of dew point": the fit's variable;
# "the effect on PM2.5", "its impact on sales": the outcome
SLOPE_ON = re.compile(
    r"\b(?:(?:slope|coefficient)\s+(?:on|of)|(?:effect|impact|influence)\s+of)\s+(?:the\s+|an?\s+)?(?:[\w,-]+\s+){0,2}$",
    re.I,
)
AS_A_NUMBER = re.compile(r"\bas an? (?:number|numeric\w*|continuous\w*|linear\w*)|\blinear(?:ly)?\b|\btrend\b", re.I)
# "holding the year fixed", "within each year", "year fixed effects": each value its own intercept;
# "accounting for model year" adjusts for it as a number, the line through the years
HELD_FIXED = re.compile(
    r"\b(?:hold\w*|held|keep\w*|kept)\s+(?:[\w'-]+\s+){0,3}?(?:fixed|constant|steady)\b|\bfixed[- ]effects?\b"
    r"|\b(?:within|for) (?:each|every|the same)\b|\b(?:on its own|separately)\b|\bdummies\b",
    re.I,
)
EFFECT_ON = re.compile(r"\b(?:effects?|impacts?|influences?)\s+on\s+(?:the\s+)?(?:[\w,-]+\s+){0,2}$", re.I)


def as_adjusted(request: Request, text: str, schema: Schema, named: list[Mention]) -> bool:
    """ "Holding whole weight constant, is shucked weight still related to rings?": the columns the cue
    names are the controls; of the others, the first named is the variable and the last the outcome."""
    cue = ADJUSTED.search(text)
    if cue is None:
        return False
    keys = {c["name"] for c in schema.columns if c.get("role") == "identifier"}  # "each country's": no control
    columns = [m for m in sorted(named, key=lambda m: m.start) if not _bettered(m, named) and m.column not in keys]
    inside = [m for m in columns if cue.start() <= m.start < cue.end()]  # "holding whole weight constant"
    after = [m for m in columns if m.start >= cue.end() and not _clause_end(text, cue.end(), m.start)]
    controls = list(dict.fromkeys(m.column for m in inside + after[:1]))
    cycle = cycle_said(re.split(r"[,;:?]", text[cue.start() :], maxsplit=1)[0], schema)
    if cycle:  # "taking season into account": the date read as its season, a control (the cycled ``group``)
        controls.append(cycle[0])
    others = [
        m for m in columns if m.column not in controls and (m.column in schema.numbers or _yes_no(schema, m.column))
    ]
    full = [m for m in others if m.score == 1]  # "heavier" brushes a weight column; "viscera weight" names one
    rest = list(dict.fromkeys(m.column for m in (full if len({m.column for m in full}) >= 2 else others)))
    if not controls or len(rest) < 2:
        return False
    variable, outcome = (rest[-1], rest[0]) if MOVES_WITH.search(text) else (rest[0], rest[-1])
    on = [m.column for m in columns if m.column in rest and SLOPE_ON.search(text[: m.start])]  # "the slope on size"
    if on and on[0] != variable:
        variable, outcome = on[0], variable
    onto = [m.column for m in columns if m.column in rest and EFFECT_ON.search(text[: m.start])]
    if onto and onto[0] != outcome:
        variable, outcome = outcome, onto[0]
    if outcome in schema.times and variable not in schema.times:
        variable, outcome = (
            outcome,
            variable,
        )  # "wind energy rising by year": time is what it rises over, never an outcome
    request.kind, request.measures, request.outcome = "adjusted", [variable], outcome
    request.controls, request.weight = controls, None
    request.group, request.cycle = cycle or (None, None)
    fixed = HELD_FIXED.search(text) and not AS_A_NUMBER.search(text)  # "(as a number)": the line after all
    request.fixed = [c for c in controls if c in schema.times and fixed]
    request.filters = [f for f in request.filters if f.get("column") not in controls]
    request.missing = []
    return True


def _bettered(mention: Mention, named: list[Mention]) -> bool:
    """ "whole weight" names whole_weight, not shucked_weight too: a mention a fuller one overlaps."""
    return any(o.score > mention.score and o.start < mention.end and mention.start < o.end for o in named)


def _clause_end(text: str, start: int, end: int) -> bool:
    return bool(re.search(r"[,;:?]", text[start:end]))


def _yes_no(schema: Schema, column: str) -> bool:
    found = next((c for c in schema.columns if c["name"] == column), {})
    return (found.get("distinct") or 0) == 2
