"""The kinds asked in words of their own over a question's first reading ("significant", "the five
largest", "if the trend continues"): which kind, and the parts each keeps. Plain Python.
"""

from __future__ import annotations

import re

from agents.analysis import looking, modelled
from agents.analysis.filters import value_filters
from agents.analysis.groupings import cycle_said, first_category
from agents.analysis.kind_words import PAIRED_SAID, THE_OTHERS, asked_of, ranked_kind
from agents.analysis.request import Request
from agents.analysis.roles import yes_no_columns
from agents.analysis.schema import Schema
from agents.analysis.value_words import value_mentions
from agents.analysis.words import Mention, split_name

FEW_LEVELS = 6
WHICH_PERIOD = re.compile(r"\b(?:which|what)\s+(year|quarter|month|week|day)\b", re.I)


def another_kind(request: Request, text: str, said: str, schema: Schema, every: list[Mention]) -> None:
    """A kind asked in words of its own over the first reading: "significant", "the five largest"..."""
    asked = asked_of(
        request,
        text,
        said,
        group_named=any(m.column == request.group for m in every),
        measure_named=any(m.column in schema.measures and m.column not in schema.categories for m in every),
        absent=looking.absent_said(said, schema, every),
        yes_no_side=_yes_no_beside_a_number(request, schema),
    )
    if asked == "significance":
        _as_test(request, schema, every, said)
    elif asked == "missing":
        looking.as_missing(request, schema, every, said)
    elif asked == "outliers":
        looking.as_outliers(request, schema, every, text)
        _dated_rows(request, schema, said)
    elif asked == "distribution":
        looking.as_distribution(request, schema)
    elif asked in ("top", "which_row"):
        _as_ranked(request, asked, text, said, schema, every)
    elif asked == "forecast":
        modelled.as_forecast(request, said, schema, every)
    elif asked == "rate":
        modelled.as_rate(request, said, schema, every)
    elif asked == "adjusted":
        modelled.as_adjusted(request, text, schema, every)
    elif asked == "crosstab":
        looking.as_crosstab(request, schema, every, said)
    elif asked == "two_factor" and not looking.as_two_factor(request, schema, every, said):
        ranked = ranked_kind(request, text, said)  # "rank them by height and name the three shortest"
        if ranked:
            _as_ranked(request, ranked, text, said, schema, every)


def _yes_no_beside_a_number(request: Request, schema: Schema) -> bool:
    """An association of a yes/no column with a number ("do manager vehicles come from farther away"): a
    test between the yes and the no; two yes/no columns ("is GVHD related to death") stay a cross-tab."""
    sides, binary = _association_sides(request), yes_no_columns(schema)
    return any(c in binary for c in sides) and any(c in schema.numbers and c not in binary for c in sides)


def _association_sides(request: Request) -> list[str]:
    return [c for c in [*request.measures, request.outcome] if c]


def _as_ranked(request: Request, asked: str, text: str, said: str, schema: Schema, every: list[Mention]) -> None:
    if asked == "top":
        looking.as_top(request, schema, every, looking.how_many(text) or request.n, text, said)
    else:  # "in which year": the time's own word, which the blanked text lost
        looking.as_which_row(request, schema, every, said)
    _dated_rows(request, schema, said)


def _dated_rows(request: Request, schema: Schema, said: str) -> None:
    """Rows named by their date, asked by their period ("which quarter stands out"): each said as one."""
    asked = WHICH_PERIOD.search(said)
    if asked and request.label in schema.names("date") and request.period == "auto":
        request.period = asked.group(1).lower()


def _as_test(request: Request, schema: Schema, every: list[Mention], text: str) -> None:
    """ "Is the gap significant?": the comparison's measure between its groups, tested. A yes/no column
    named where no measure is ("more smokers in the north?") is tested as a share between the groups."""
    binary = yes_no_columns(schema)
    named = list(dict.fromkeys(m.column for m in every if m.column in schema.categories))
    sides = [f["column"] for f in request.filters if f.get("op") in ("=", "in") and "column" in f]
    # "from 240 mm to 330 mm": the columns the numbers tell apart, else the measures named
    measured = _numbered(text, schema) or list(dict.fromkeys(m.column for m in every if m.column in schema.measures))
    first, request.kind, request.missing = request.kind, "significance", []
    if _split_from_the_others(request, schema, text, measured):
        return
    if first == "association":  # "do manager vehicles come from farther away": the yes/no side groups the other
        paired = _association_sides(request)
        request.group = next((c for c in paired if c in binary), request.group)
        request.measures, request.outcome = [c for c in paired if c not in binary], None
    # "from pre to post"; "did the dax return significantly more than the ftse": two measures of the same rows
    few = [m for m in measured if 2 <= _distinct(schema, m) <= FEW_LEVELS]  # "do the three doses differ"
    if len(measured) >= 2 and not named and not sides and not set(measured[:2]) & set(few):
        request.measures, request.second, request.group = measured[:1], measured[1], None
        return
    # "each man with himself": paired by the text column that names him, never the groups' own
    named_rows = [c for c in schema.names("string") if c != request.group] if PAIRED_SAID.search(text) else []
    request.subject = next((c["name"] for c in schema.columns if c.get("role") == "identifier"), None) or next(
        iter(named_rows), None
    )
    yes_no = [n for n in named if n in binary and n != request.group]
    if yes_no and (first == "share" or not request.measures):
        request.measures = yes_no[:1]
    _share_of_a_value(request, schema, measured, first)
    if request.group is None and len(measured) >= 2 and few and not named:
        request.group, request.measures = few[0], [m for m in measured if m != few[0]]
    cycle = cycle_said(text, schema)
    if request.group is None and cycle and not named:  # "between the four seasons": of the table's date
        request.group, request.cycle = cycle
    if request.group is None or request.group in request.measures:
        others = [n for n in [*named, *sides] if n not in request.measures]
        request.group = (
            others[0] if others else first_category(schema, every, besides=next(iter(request.measures), None))
        )
    if cycle is None or request.group != cycle[0]:
        request.cycle = None
    _sides_said(request, schema, text)
    request.measures = [m for m in request.measures if m != request.group][:1]
    if not request.measures and schema.sole_measure:
        request.measures = [schema.sole_measure]
    # "mature cows vs the 2 year olds": one side named, both sides tested
    request.filters = [f for f in request.filters if f.get("column") not in request.measures
                       and not (f.get("column") == request.group and f.get("op") == "=")]  # fmt: skip
    request.missing = [part for part, value in (("measure", request.measures), ("group", request.group)) if not value]


def _split_from_the_others(request: Request, schema: Schema, text: str, measured: list[str]) -> bool:
    """ "Between quarters where production fell (below zero) and the other quarters": the rows a threshold
    keeps against the rest are the two groups, the other measure said is tested between them."""
    splits = [
        f
        for f in request.filters
        if f.get("column") in schema.measures
        and f.get("op") in ("<", "<=", ">", ">=")
        and isinstance(f.get("value"), int | float)
    ]
    tested = [m for m in measured if m not in {f["column"] for f in splits}]
    if len(splits) != 1 or not tested or not THE_OTHERS.search(text):
        return False
    split = splits[0]
    request.measures, request.group, request.above, request.second = tested[:1], split["column"], split["value"], None
    request.filters = [f for f in request.filters if f is not split]
    return True


def _sides_said(request: Request, schema: Schema, text: str) -> None:
    """ "Different at R&D sites than at manufacturing sites": two or more of the groups' values said are
    the sides tested, even where the first reading (each group's share) let them go."""
    if request.group is None or any(f.get("column") == request.group for f in request.filters):
        return
    said = value_mentions(text, {request.group: schema.values().get(request.group, [])})
    listed = [f.condition for f in value_filters(text, said) if f.condition.get("op") == "in"]
    request.filters += listed


def _share_of_a_value(request: Request, schema: Schema, measured: list[str], first: str) -> None:
    """ "The carbon share of mountain-bike lines versus road-bike lines": where no measure is named, one
    value of a grouping kept by the question (frame = Carbon) is the share each group's rows are tested
    for, between the groups another grouping's values name (bike_type)."""
    if measured and first != "share":
        return
    kept = [f for f in request.filters if f.get("op") == "=" and f.get("column") in schema.categories]
    sides = [f for f in request.filters if f.get("op") == "in" and f.get("column") in schema.categories]
    if len(kept) != 1 or kept[0]["column"] == request.group or not (sides or request.group):
        return  # a share of one value needs groups to set side by side
    request.measures, request.share_of = [kept[0]["column"]], str(kept[0]["value"])
    request.filters = [f for f in request.filters if f is not kept[0]]
    if sides and request.group in (None, kept[0]["column"]):
        request.group = sides[0]["column"]


def _distinct(schema: Schema, column: str) -> int:
    return next((c.get("distinct") or 0 for c in schema.columns if c["name"] == column), 0)


def _numbered(text: str, schema: Schema) -> list[str]:
    """Sibling columns told apart by a number, each said by it ("from 240 mm to 330 mm" of efficiency_240mm
    and efficiency_330mm), in the order said."""
    said = []
    for column in schema.measures:
        numbers = [part for part in split_name(column) if part.isdigit()]
        found = [m.start() for n in numbers for m in re.finditer(rf"(?<![\d.]){n}(?![\d.])", text)]
        if found:
            said.append((min(found), column))
    return [column for _, column in sorted(said)] if len(said) >= 2 else []
