"""The kinds asked in words of their own over a question's first reading ("significant", "the five
largest", "if the trend continues"): which kind, and the parts each keeps. Plain Python.
"""

from __future__ import annotations

from agents.analysis import looking, modelled
from agents.analysis.groupings import first_category
from agents.analysis.kinds import asked_of
from agents.analysis.request import Request
from agents.analysis.roles import yes_no_columns
from agents.analysis.schema import Schema
from agents.analysis.words import Mention


def another_kind(request: Request, text: str, said: str, schema: Schema, every: list[Mention]) -> None:
    """A kind asked in words of its own over the first reading: "significant", "the five largest"..."""
    asked = asked_of(
        request,
        text,
        said,
        group_named=any(m.column == request.group for m in every),
        measure_named=any(m.column in schema.measures for m in every),
    )
    if asked == "significance":
        _as_test(request, schema, every)
    elif asked == "missing":
        looking.as_missing(request, schema, every)
    elif asked == "outliers":
        looking.as_outliers(request, schema, every, text)
    elif asked == "distribution":
        looking.as_distribution(request, schema)
    elif asked == "top":
        looking.as_top(request, schema, every, looking.how_many(text) or request.n, text)
    elif asked == "which_row":
        looking.as_which_row(request, schema, every, text)
    elif asked == "forecast":
        modelled.as_forecast(request, said, schema, every)
    elif asked == "rate":
        modelled.as_rate(request, said, schema, every)
    elif asked == "adjusted":
        modelled.as_adjusted(request, text, schema, every)
    elif asked == "crosstab":
        looking.as_crosstab(request, schema, every)
    elif asked == "two_factor":
        looking.as_two_factor(request, schema, every)


def _as_test(request: Request, schema: Schema, every: list[Mention]) -> None:
    """ "Is the gap significant?": the comparison's measure between its groups, tested. A yes/no column
    named where no measure is ("more smokers in the north?") is tested as a share between the groups."""
    binary = yes_no_columns(schema)
    named = list(dict.fromkeys(m.column for m in every if m.column in schema.categories))
    sides = [f["column"] for f in request.filters if f.get("op") in ("=", "in") and "column" in f]
    measured = list(dict.fromkeys(m.column for m in every if m.column in schema.measures))
    request.kind, request.missing = "significance", []
    if len(measured) >= 2 and not named and not sides:  # "from pre to post": two measures of the same rows
        request.measures, request.second, request.group = measured[:1], measured[1], None
        return
    request.subject = next((c["name"] for c in schema.columns if c.get("role") == "identifier"), None)
    yes_no = [n for n in named if n in binary and n != request.group]
    if yes_no and (request.kind == "share" or not request.measures):
        request.measures = yes_no[:1]
    if request.group is None or request.group in request.measures:
        others = [n for n in [*named, *sides] if n not in request.measures]
        request.group = (
            others[0] if others else first_category(schema, every, besides=next(iter(request.measures), None))
        )
    request.measures = [m for m in request.measures if m != request.group][:1]
    if not request.measures and schema.sole_measure:
        request.measures = [schema.sole_measure]
    # "mature cows vs the 2 year olds": one side named, both sides tested
    request.filters = [f for f in request.filters if f.get("column") not in request.measures
                       and not (f.get("column") == request.group and f.get("op") == "=")]  # fmt: skip
    request.missing = [part for part, value in (("measure", request.measures), ("group", request.group)) if not value]
