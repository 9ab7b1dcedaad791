"""The parts each kind of question needs, filled from what the question named or the table's likeliest
columns: the grouping, the time and entity of a growth, what a share is of, and the second look at a
question that named no statistic. Plain Python; question.py reads the question, this fills its parts.
"""

from __future__ import annotations

import re

from agents.analysis.association import read_association
from agents.analysis.groupings import CYCLE_GROUPING, cycle_said, first_category
from agents.analysis.looking import ON_AVERAGE
from agents.analysis.periods import period_of, periods_spanned, years_said
from agents.analysis.phrases import (
    ABSOLUTE,
    ANY,
    COMPARE,
    FLOW_NAME,
    MOST,
    OTHER_SIDE,
    RATE_NAME,
    SHARE_OF_TOTAL,
    SUPERLATIVE,
    WHICH_BEFORE,
    WHICH_OF,
    asks_which,
    rows_asked,
)
from agents.analysis.request import Request
from agents.analysis.roles import yes_no_columns
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import HIGH, LOW, statistic_of
from agents.analysis.words import Mention, blanked
from agents.operations.stats.timeline import CYCLE_WORDS

THE_REST = re.compile(
    r"\b(?:versus|vs\.?|against|compared (?:to|with)|from) (?:the )?(?:rest|others|everyone else|all the others"
    r"|remainder)\b",
    re.I,
)
HOW_LONG = re.compile(
    r"\bhow long\b|\bduration\b|\blength of time\b|\bhow many (?:hours|days|weeks|months|years)\b",
    re.I,
)


def which_group(text: str, schema: Schema, free: list[Mention]) -> bool:
    """Whether "which" or "what" is said right before a grouping column's name ("which tumour grade",
    "what kind of weather")."""
    categories = set(schema.categories)
    return any(m.column in categories and WHICH_BEFORE.search(text[: m.start]) for m in free)


def assign_parts(request: Request, text: str, schema: Schema, free: list[Mention], *, asked: str = "") -> None:
    """Fill the parts each kind needs, from what the question named or the table's likeliest columns
    (``text`` has its filters blanked, ``asked`` is as it was said)."""
    if request.kind == "association":
        read_association(request, text, schema, free)
        # "is GVHD related to death": a yes/no outcome said by its name is named, never held at yes ("at
        # Pasteur only" still keeps its school)
        said_yes = {request.outcome, *request.measures} & yes_no_columns(schema)
        request.filters = [f for f in request.filters if not (f.get("column") in said_yes and f.get("op") == "=")]
    elif request.kind == "rank_differences":
        # "homeowners differ from renters": the side a value names is the grouping, unless a column is
        # named ("the men who were rearrested from those who weren't" splits by arrested, among men)
        sides = [f["column"] for f in request.filters if f.get("op") == "=" and f.get("column") in schema.categories]
        if request.group is None:
            a_column_named = any(m.column in schema.categories for m in free)
            # "households eligible for the programme versus the rest": that side against everyone else
            against_the_rest = bool(sides) and bool(THE_REST.search(text))
            request.group = (
                sides[0] if sides and (against_the_rest or not a_column_named) else first_category(schema, free)
            )
        # "homeowners differ from renters": one side named, both sides compared
        request.filters = [f for f in request.filters if not (f.get("column") == request.group and f.get("op") == "=")]
        request.measures = [m for m in request.measures if m != request.group]
    elif request.kind in ("trend", "growth"):
        dates = set(schema.names("date"))
        ordered = sorted(free, key=lambda m: (-m.score, m.column not in dates))  # a date column over "Year Built"
        named_times = [m.column for m in ordered if m.column in schema.times]
        request.time = named_times[0] if named_times else (schema.times[0] if schema.times else None)
        request.measures = [m for m in request.measures if m != request.time]
        keys = [c["name"] for c in schema.columns if c.get("role") == "identifier" and c["type"] == "number"]
        if request.kind == "trend" and not request.measures and request.statistic == "count" and keys:
            request.measures = keys[:1]  # "the number of sessions per month": the rows counted by their key
        request.filters = periods_spanned(request.filters, request.time)
        if request.kind == "growth":
            # "which calendar month grew most": each month of the year; "which quarter saw the largest rise" of a
            # quarterly table is one of its quarters
            cycle = cycle_said(text, schema) if CYCLE_GROUPING.search(asked or text) else None
            request.entity = (
                request.group
                or _named_entity(schema, free, besides=request.time)
                or (cycle[0] if cycle and cycle[1] else None)
                or first_category(schema, free, besides=request.time)
            )
            if cycle and cycle[1] and request.entity == cycle[0]:
                request.cycle = cycle[1]
            # "relative to where it started in 2012": the start, not a filter to one year
            request.filters = [
                f for f in request.filters if not (f.get("column") == request.time and f.get("op") == "=")
            ]
        # "for each day of the week": the weekday column's words, no week to tell the course in
        request.period = period_of(blanked(text, [m for m in free if m.column not in schema.times]))
        if (
            request.period == "auto"
            and request.time in schema.names("date")
            and years_said(request.filters, request.time)
        ):
            request.period = "year"  # "each fund's average price in 2014 and in 2022": each year's mean
        if request.kind == "growth" and request.cycle:
            request.period = "year"  # "each calendar month in 1949 against the same month in 1960": by year
        request.change = "absolute" if ABSOLUTE.search(text) else "percent"
        flows = request.measures and FLOW_NAME.search(request.measures[0]) and not RATE_NAME.search(request.measures[0])
        said = statistic_of(text, besides=("count",))  # "Total units sold": the total, though total_volume took it
        if request.period != "auto" and flows and (said is None or said[0] == "sum"):
            request.statistic = "sum"  # "January's revenue", "pizzas sold each month": the month's total
    elif request.kind == "share":
        # "which manufacturer": a text column named in full groups the shares, of however many values
        named = [
            m.column
            for m in free
            if m.column in schema.categories or (m.score == 1 and m.column in schema.names("string"))
        ]
        # "what fraction of the lines are for carbon frames": the shares of the frames, carbon's among them
        valued = [f["column"] for f in request.filters if f.get("op") == "=" and f.get("column") in schema.categories]
        implied = valued[0] if len(valued) == 1 else first_category(schema, free)
        request.group = request.group or (named[0] if named else implied)
        request.filters = [f for f in request.filters if f.get("column") != request.group]  # the shares are all of it
        # "the biggest slice of net revenue": a measure named in a share question is what is shared; a
        # word of one ("Senate appointments" beside "Days in Senate") is not, and "of total wine sales"
        # shares the table's only measure
        summed = SHARE_OF_TOTAL.search(text) or request.statistic == "sum"  # "of all the viewing summed up"
        full = {m.column for m in free if m.score == 1} if not summed else set(request.measures)
        plain = [m for m in request.measures if m not in schema.categories and m != request.group and m in full]
        plain.sort(key=lambda m: bool(LEVEL_NAME.search(m)))  # "the AC ratings added up": watts, not volts
        sole = schema.sole_measure if SHARE_OF_TOTAL.search(text) else None
        request.weight = plain[0] if plain else sole
        percents = [m for m in plain if PERCENT_NAME.search(m)]
        if percents and not summed:
            # "which car park runs the fullest, as a percent": percentages do not add up to a total to share
            request.kind, request.measures, request.weight = "compare", percents[:1], None
    else:
        coded = [m for m in request.measures if m in schema.categories]
        if request.group is None and coded and len(coded) < len(request.measures):
            request.group = coded[0]  # "progression for sex 1 or 2": a coded category groups the measure
            request.measures = [m for m in request.measures if m != coded[0]]
        sole = schema.sole_measure
        if request.group is None and coded == request.measures and sole and OTHER_SIDE.search(text):
            request.group, request.measures = (
                coded[0],
                [sole],
            )  # "got aid: did they stay out longer than those who didn't"
        named = [
            m.column
            for m in free
            if m.column in schema.categories and m.column not in request.measures and not ANY.search(text[: m.start])
        ]  # "the best highway mpg of any model": one extreme over them all, no grouping
        asks = any(p.search(text) for p in (HIGH, LOW, COMPARE, SUPERLATIVE, OTHER_SIDE)) or asks_which(text)
        asks = asks or which_group(text, schema, free)
        if request.group is None and named and asks:
            request.group = named[0]  # "the region with the lowest murder rate", "priciest district"
        timeline = [m.column for m in free if m.column in schema.times and WHICH_OF.search(text[: m.start])]
        if request.group is None and timeline:
            request.group = timeline[0]  # "in which of the three years was the median highest"
        cycle = cycle_said(text, schema)
        if cycle and cycle[1] and _its_own_rows(text, schema, cycle[0], cycle[1]):
            cycle = None
        # "in which quarter of the year" of a date column called quarter: its place in the year, not each date
        the_date_in_its_cycle = cycle and request.group == cycle[0] and CYCLE_GROUPING.search(text)
        if (
            (request.group is None or the_date_in_its_cycle)
            and cycle
            and not any(m.column in schema.categories for m in free)
        ):
            request.group, request.cycle = cycle
        if request.group is None and asks_which(text) and (MOST.search(text) or HIGH.search(text) or LOW.search(text)):
            request.group = first_category(schema, free)
        request.kind = "compare" if request.group else "statistic"
        _reconsider(request, text, schema, free)
    for part in ("group", "time", "entity", "outcome"):
        if request.kind in _NEEDS.get(part, ()) and getattr(request, part) is None:
            request.missing.append(part)
    if not request.measures and request.kind not in ("share", "association", "rank_differences"):
        implied = schema.sole_measure or (schema.lasting if HOW_LONG.search(text) else None)
        if implied is None:
            request.missing.append("measure")
        else:
            request.measures = [implied]


def _reconsider(request: Request, text: str, schema: Schema, free: list[Mention]) -> None:
    """Two questions that name no statistic: "which region has the most orders?" (no measure: a count of
    rows, the share) and "do heavier cars use more fuel?" (two measures, no grouping: how they relate)."""
    if request.kind == "compare" and not request.measures and MOST.search(text):
        if schema.sole_measure and rows_asked(text) is None:
            request.measures = [schema.sole_measure]  # "which feed is the best": of the table's one measure
        else:
            request.kind = "share"
    elif (
        request.kind == "statistic"
        and len(request.measures) >= 2
        and not request.filters
        and statistic_of(text) is None
        and not MOST.search(text)  # "the lowest starting wage any of the restaurants pays": one extreme
        and not superlative(text)  # "hottest temperature reached, in Celsius": one extreme of one measure
    ):
        request.kind, request.pair = "association", True
        # "do better-looking instructors get higher evaluations": the one said first goes with the other
        first_said = {m.column: m.start for m in reversed(free)}
        said_first, other = sorted(request.measures[:2], key=lambda c: first_said.get(c, len(text)))
        request.measures, request.outcome = [said_first], other


def superlative(text: str) -> bool:
    """ "The hottest", "the lowest": one extreme asked."""
    return any(m.group().lower().endswith("est") for p in (HIGH, LOW) for m in p.finditer(text))


# a level, which adding up across rows means nothing for: a voltage, a temperature, a percentage, a score
PERCENT_NAME = re.compile(r"(?:^|_)(?:pct|percent\w*|share|ratio|rate)(?:_|$)", re.I)
LEVEL_NAME = re.compile(r"(?:^|_)(?:v|volts?|voltage|temp\w*|pct|percent\w*|ratio|rate|index|score|age)(?:_|$)", re.I)


_NEEDS = {
    "group": ("compare", "rank_differences", "share"),
    "time": ("trend", "growth"),
    "entity": ("growth",),
    "outcome": ("association",),
}


def _its_own_rows(text: str, schema: Schema, date: str, cycle: str) -> bool:
    """ "In which month did the Nasdaq hit its lowest close" of a table of months: one of its rows, not a
    place in the year, unless the place is said ("calendar month") or the rows averaged ("on average")."""
    return schema.grain(date) == CYCLE_WORDS[cycle] and not CYCLE_GROUPING.search(text) and not ON_AVERAGE.search(text)


def _named_entity(schema: Schema, free: list[Mention], *, besides: str | None) -> str | None:
    """ "Which country grew most": the column the question names for the things that grow, however many
    there are (countries, numbered counties): a text column or an identifier, named in full."""
    kinds = {c["name"]: (c["type"], c.get("role")) for c in schema.columns}
    named = [
        m.column
        for m in free
        if m.score == 1
        and m.column != besides
        and (kinds[m.column][0] == "string" or kinds[m.column][1] == "identifier")
    ]
    return named[0] if named else None
