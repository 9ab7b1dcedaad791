"""The answers about the rows themselves in words: the list, the row and when, the outliers, the shape,
the gaps. Each lead names the answer with its figure; the lines under it the rest. Plain Python.
"""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.prose import figure, plural, spoken
from agents.analysis.request import Request
from agents.operations.stats.charts import percentage

LISTED = 10
PERIOD_START = re.compile(r"(\d{4})-(\d{2})-01(?:[T ]00:00(?::00)?)?")


def _measure(request: Request) -> str:
    return combined(request, spoken(request.measures[0]) if request.measures else "the measure")


def combined(request: Request, measure: str) -> str:
    """ "total kwh total", "mean price": the measure as each label's rows were combined."""
    return f"{request.combine if request.combine != 'sum' else 'total'} {measure}" if request.combine else measure


def _named(request: Request, label: Any) -> str:
    """A row's label as the question's period says it: "2013 Q1" for the quarter starting 2013-01-01 (a
    quarter's first day means nothing to a reader); any other label as the file writes it."""
    first_day = PERIOD_START.fullmatch(str(label))
    if first_day is None or request.period != "quarter" or int(first_day.group(2)) % 3 != 1:
        return str(label)
    return f"{first_day.group(1)} Q{(int(first_day.group(2)) + 2) // 3}"


def _word(request: Request) -> str:
    return "highest" if request.direction == "high" else "lowest"


def top(request: Request, result: dict[str, Any]) -> list[str]:
    """ "The 5 highest density: Osmium (22.59), Iridium (22.56), ..." with a tie at the cut said."""
    listed = result["listed"]
    if not listed:
        return [f"No row has a value of {_measure(request)}."]
    named = ", ".join(f"{_named(request, row['label'])} ({figure(row['value'])})" for row in listed)
    things = plural(spoken(result["label"]), len(listed))
    lead = f"**The {len(listed)} {things} with the {_word(request)} {_measure(request)}: {named}**"
    lines = [lead + "."]
    if result["tied_at_the_cut"]:
        lines.append(
            f"- The next one ties with {_named(request, listed[-1]['label'])} at {figure(listed[-1]['value'])}."
        )
    if result["ranked"] > len(listed):
        lines.append(f"- Ranked {result['ranked']} {plural(spoken(result['label']), result['ranked'])} in all.")
    return lines


def which_row(request: Request, result: dict[str, Any]) -> list[str]:
    """ "2010-02-01 had the lowest total nonfarm: 129726"."""
    listed = result["listed"]
    if not listed:
        return [f"No row has a value of {_measure(request)}."]
    first = listed[0]
    named = _named(request, first["label"])
    lead = f"**{named}** had the {_word(request)} {_measure(request)}: **{figure(first['value'])}**"
    lines = [lead + f" ({spoken(result['label'])}, of {result['ranked']} rows)."]
    if result["tied_at_the_cut"]:
        lines.append("- Another row ties with it.")
    return lines


def outliers(request: Request, result: dict[str, Any]) -> list[str]:
    """How many values lie beyond Tukey's fences, the most extreme named first."""
    measure, listed, count = _measure(request), result["listed"], result["count"]
    within = f" within its {spoken(result['within'])}" if result["within"] else ""
    fences = result["fences"]
    bounds = f" (outside {figure(fences[0]['low'])} to {figure(fences[0]['high'])})" if len(fences) == 1 else ""
    if not count:
        return [f"**No value of {measure} is an outlier**{within} by Tukey's rule{bounds}."]
    first = listed[0]
    name = _named(request, first["label"]) if first["label"] is not None else "one row"
    plural = "values are outliers" if count > 1 else "value is an outlier"
    lead = (
        f"**{count} {measure} {plural}**{within} by Tukey's rule{bounds}; the most extreme is **{name}** "
        f"at **{figure(first['value'])}**"
    )
    lines = [lead + (f" ({first['group']})." if first["group"] is not None else ".")]
    flagged = sum(row["mad_flags"] for row in listed)
    lines.append(f"- The median-absolute-deviation rule, which extreme values move less, flags {flagged} of them.")
    lines += [
        f"- {'a row' if row['label'] is None else _named(request, row['label'])}: {figure(row['value'])} "
        f"({row['side']}" + (f", {row['group']}" if row["group"] is not None else "") + ")"
        for row in listed[:LISTED]
    ]
    return lines


def distribution(request: Request, result: dict[str, Any]) -> list[str]:
    """ "Price is right-skewed (skewness 1.6): median 2401 against a mean of 3932"."""
    measure = _measure(request)
    if not result.get("shape"):
        return [f"{measure.capitalize()} has too few values to describe ({result['n']})."]
    p = result["percentiles"]
    lead = (
        f"**{measure.capitalize()} is {result['shape']}** (skewness {figure(result['skewness'])}): median "
        f"**{figure(p['p50'])}** against a mean of {figure(result['mean'])}"
    )
    lines = [lead + "."]
    lines.append(
        f"- Half the values lie between {figure(p['p25'])} and {figure(p['p75'])}; 90% between {figure(p['p5'])} "
        f"and {figure(p['p95'])}; the range is {figure(p['p0'])} to {figure(p['p100'])}."
    )
    if result.get("peaks") and result["peaks"] > 1:
        lines.append(f"- Its histogram has {result['peaks']} humps: the rows may mix groups that differ.")
    lines.append(f"- n = {result['n']}, SD {figure(result['sd'])}, missing {result['missing']}.")
    return lines


def missing(request: Request, result: dict[str, Any]) -> list[str]:
    """The column with most gaps (or the one asked about) with its count, then the rest."""
    columns, rows = result["columns"], result["rows"]
    first = columns[0]
    share = f"{percentage(first['percent'])}%" if first["percent"] is not None else "n/a"
    if len(columns) == 1:
        lead = f"**{spoken(first['column'])} is missing in {first['missing']} of {rows} rows** ({share})"
    elif not first["missing"]:
        lead = f"**No column has a missing value** in the {rows} rows"
    else:
        lead = f"**{spoken(first['column'])} has the most missing values: {first['missing']} of {rows} rows** ({share})"
    lines = [lead + "."]
    lines += [f"- {spoken(c['column'])}: {c['missing']} missing" for c in columns[1:LISTED] if c["missing"]]
    codes = [f"{spoken(c['column'])} ({', '.join(c['suspicious_codes'])})" for c in columns if c["suspicious_codes"]]
    if codes:
        lines.append(f"- Codes that may stand for unknown: {'; '.join(codes)}.")
    lines.append(f"- {result['complete_rows']} of {rows} rows are complete; {result['duplicated_rows']} duplicated.")
    if result["constant_columns"]:
        lines.append(f"- Constant columns: {', '.join(spoken(c) for c in result['constant_columns'])}.")
    return lines
