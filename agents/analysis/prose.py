"""The answer in words: a lead sentence that names the answer with its figure and effect size, then
the figures behind it. Plain Python: it reads the request and the stats.* result, nothing else.
"""

from __future__ import annotations

import math
import re
from typing import Any

from agents.analysis.condition_words import condition_words
from agents.analysis.looking import how_many
from agents.analysis.request import Request
from agents.operations.stats.charts import label, percentage

STATISTIC_WORDS = {"mean": "mean", "median": "median", "sum": "total", "count": "count of", "min": "minimum",
                   "max": "maximum", "sd": "standard deviation of"}  # fmt: skip
WORST = re.compile(r"\b(?:worst|weakest|poorest|bottom)\b", re.I)
DECLINE = re.compile(
    r"\b(?:shr[ai]nk\w*|shrunk|declin\w*|fell|fall\w*|drop\w*|decreas\w*|lost|los[es]\w*|least|cut\w*|reduc\w*|shed"
    r"|(?:come|came|went|go|gone|going) down)\b",
    re.I,
)
RARE = re.compile(r"\b(?:least common|rarest|least frequent|fewest|smallest share)\b", re.I)


def figure(value: Any) -> str:
    """A figure with four significant digits (0.08800, 5.552, 1180), never in e-notation."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    if isinstance(value, int) or (float(value).is_integer() and abs(value) < 1e15):
        return str(int(value))
    digits = max(0, 3 - math.floor(math.log10(abs(value))))
    return f"{value:.{digits}f}"


def plural(words: str, count: int = 2) -> str:
    """A spoken name for more than one: "years", "customer ids", "countries", "sexes"."""
    if count == 1 or not words or (words.endswith("s") and not words.endswith(("ss", "us"))):
        return words
    if words.endswith("y") and words[-2:-1] not in "aeiou":
        return words[:-1] + "ies"
    return words + ("es" if words.endswith(("s", "x", "z", "ch", "sh")) else "s")


def two_decimals(value: Any) -> str:
    """A figure as the tables show it: the operation's value rounded to two decimals."""
    return "n/a" if value is None else str(round(float(value), 2))


def p_value(p: float | None) -> str:
    return "p n/a" if p is None else "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def spoken(name: str | None) -> str:
    """A column as a sentence names it, as its chart does: ``petal_length_cm`` is "petal length cm"."""
    return label(name or "")


def measure_words(said: str, column: str) -> str:
    """The statistic of a column in words: "median mean radius", but the mean of ``mean_radius`` is
    "mean radius", never "mean mean radius"."""
    name = spoken(column)
    return name if name.split(" ", 1)[0] == said else f"{said} {name}"


def statistic_words(request: Request) -> str:
    if request.statistic == "percentile":
        return f"{request.percentile:g}th percentile of"
    if request.statistic == "sd":
        return f"{request.sd} standard deviation of"
    return STATISTIC_WORDS[request.statistic]


def rows_words(filters: list[dict[str, Any]]) -> str:
    return " and ".join(condition_words(f) for f in filters)


def strength(r: float) -> str:
    size = abs(r)
    return (
        "very strongly"
        if size >= 0.9
        else "strongly"
        if size >= 0.7
        else "moderately"
        if size >= 0.4
        else ("weakly" if size >= 0.2 else "barely")
    )


def effect_words(effect: str, size: float | None) -> str:
    if size is None:
        return "too few rows to test"
    if effect in ("cohens_d", "cohens_dz"):
        label = (
            "large"
            if abs(size) >= 0.8
            else "medium"
            if abs(size) >= 0.5
            else "small"
            if abs(size) >= 0.2
            else "negligible"
        )
        name = "Cohen's d" if effect == "cohens_d" else "Cohen's d_z (the mean difference over its SD)"
        return f"{name} = {figure(size)}, a {label} difference"
    label = "large" if size >= 0.14 else "medium" if size >= 0.06 else "small" if size >= 0.01 else "negligible"
    return f"eta squared = {figure(size)}, a {label} share of the variance between the groups"


# a measure whose zero is no absence (a temperature in Celsius or Fahrenheit, a calendar year): its
# ratios mean nothing
INTERVAL_SCALE = re.compile(r"temp|celsius|fahrenheit|(?:^|_)(?:deg_?)?[cf]$|(?:^|_)year", re.I)


def compare(request: Request, result: dict[str, Any]) -> list[str]:
    """Which group is highest (or lowest), its figure, by how much, and whether the gap is more than noise."""
    measure, group = spoken(request.measures[0]), spoken(request.group)
    ranked = [g for g in result["groups"] if g["value"] is not None]
    if request.direction == "low":
        ranked.reverse()
    if not ranked:
        return [f"No {group} has a value of {measure}."]
    first = ranked[0]
    word = "highest" if request.direction == "high" else "lowest"
    said = measure_words(statistic_words(request), request.measures[0])
    lead = f"**{first['group']}** has the {word} {said}: **{figure(first['value'])}** (n = {first['n']})"
    if len(ranked) == 1:
        return [lead + f", the only {group} with a value."]
    second, last = ranked[1], ranked[-1]
    gap = abs(first["value"] - second["value"])
    lead += (
        f", {figure(gap)} {'more' if word == 'highest' else 'less'} than {second['group']} ({figure(second['value'])})"
    )
    if len(ranked) > 2:
        lead += f"; the {'lowest' if word == 'highest' else 'highest'} is {last['group']} at {figure(last['value'])}"
    lines = [lead + "."]
    scaled = not INTERVAL_SCALE.search(request.measures[0])  # 20 °C is not twice 10 °C: no true zero
    if result.get("ratio") and first["value"] and last["value"] and scaled:
        lines.append(
            f"- {ranked[0]['group']} is {figure(first['value'] / last['value'])} times {last['group']} "
            f"({figure(result['difference'])} apart from highest to lowest)."
        )
    test = result.get("test")
    if test:
        tested = "means" if request.statistic != "mean" else "the groups"
        symbol = "F" if test["effect"] == "eta_squared" else "t"
        if test["statistic"] is None:
            lines.append(
                "- No test: the values do not vary within the groups, so there is no spread to weigh the gap against."
            )
        else:
            lines.append(
                f"- {test['name']} on {tested}: {symbol} = {figure(test['statistic'])}, {p_value(test['p_value'])}; "
                f"{effect_words(test['effect'], test['effect_size'])}."
            )
    lines += [f"- {g['group']}: {figure(g['value'])} (n = {g['n']})" for g in ranked[:12]]
    return lines


def statistic(request: Request, result: dict[str, Any]) -> list[str]:
    """One statistic of one measure, over the rows the filters keep."""
    column = result["columns"][0]
    value = _statistic_value(request, column)
    where = f" over the {column['n']} rows where {rows_words(request.filters)}" if request.filters else ""
    lead = f"The {measure_words(statistic_words(request), column['column'])} is **{figure(value)}**{where}"
    whole = result.get("table_rows") or result["rows"]
    kept = f"the filters keep {result['rows']} of the table's {whole} rows" if where else f"n = {column['n']}"
    lines = [f"{lead} ({kept})."]
    lines.append(
        f"- For reference: mean {figure(column['mean'])}, median {figure(column['percentiles'].get('p50'))}, "
        f"{result['sd']} SD {figure(column['sd'])}, minimum {figure(column['min'])}, maximum {figure(column['max'])}, "
        f"total {figure(column['sum'])}; {column['missing']} rows have no value."
    )
    return lines


def _statistic_value(request: Request, column: dict[str, Any]) -> Any:
    if request.statistic == "percentile":
        return column["percentiles"].get(f"p{request.percentile:g}")
    if request.statistic == "median":
        return column["percentiles"].get("p50")
    return column["n"] if request.statistic == "count" else column[request.statistic]


def association(request: Request, result: dict[str, Any]) -> list[str]:
    """How strongly a pair goes together, or which variable goes most with the outcome."""
    ranked = result["variables"]
    outcome = spoken(result["outcome"])
    if not ranked:
        return [f"No variable could be set against {outcome}: too few rows with both values."]
    top = ranked[0]
    if result["method"] == "eta":
        lead = (
            f"**{spoken(top['variable'])}** is the variable most associated with {outcome}: "
            f"eta = {figure(top['eta'])} (eta squared {figure(top['eta_squared'])} of its variance lies between the "
            f"{outcome} groups)."
        )
        return [lead, *_runners_up(ranked, "eta")]
    r = top["pearson_r"]
    sign = "positively" if r > 0 else "negatively"
    coded = f" (coded 1 for {result['outcome_coded_1']})" if result.get("outcome_coded_1") is not None else ""
    detail = f"n = {top['n']}, {_interval(top)}{p_value(top['p_value'])}"
    if request.pair:
        lead = (
            f"{spoken(top['variable'])} and {outcome} are {strength(r)} {sign} related: "
            f"Pearson r = **{figure(r)}** ({detail})."
        )
    else:
        lead = (
            f"**{spoken(top['variable'])}** is the variable most associated with {outcome}{coded}: "
            f"Pearson r = **{figure(r)}**, {strength(r)} {sign} related ({detail})."
        )
    lines = [
        lead,
        f"- Spearman's rank correlation: rho = {figure(top['spearman_rho'])}{_sampled(result)}.",
        f"- On average, each 1 more {spoken(top['variable'])} goes with {figure(top['slope'])} "
        f"{'more' if top['slope'] >= 0 else 'less'} {outcome} (least-squares line).",
        "- Association is not causation: the data shows the two move together, not why.",
    ]
    return lines + ([] if request.pair else _runners_up(ranked, "pearson_r"))


def _sampled(result: dict[str, Any]) -> str:
    """A big table's rank correlation is a sample's (``stats.in_engine``): said, with its size."""
    drawn = result.get("sample")
    if not drawn:
        return ""
    return f" (on a random sample of about {drawn['rows']:,} of the {drawn['of']:,} rows; r and the line use every row)"


def _interval(row: dict[str, Any]) -> str:
    ci = row.get("ci95")
    return f"95% CI {figure(ci[0])} to {figure(ci[1])}, " if ci else ""


def _runners_up(ranked: list[dict[str, Any]], key: str) -> list[str]:
    others = ranked[1:6]
    if not others:
        return []
    return ["- Next: " + "; ".join(f"{spoken(v['variable'])} {figure(v[key])}" for v in others) + "."]


def rank_differences(request: Request, result: dict[str, Any]) -> list[str]:
    """The measures that differ most between the groups, top one first, with its effect size."""
    ranked, groups = result["measures"], result["groups"]
    if not ranked:
        return [f"No measure could be compared between the {spoken(result['group_by'])} groups."]
    top = ranked[0]
    between = " and ".join(groups) if len(groups) == 2 else f"the {len(groups)} {spoken(result['group_by'])} groups"
    means = ", ".join(f"{g} {figure(v)}" for g, v in top["means"].items())
    if top["effect"] == "cohens_d":
        size = f"|Cohen's d| = **{figure(abs(top['effect_size']))}**"
    else:
        size = f"eta squared = **{figure(top['effect_size'])}**"
    lead = f"The measure that differs most between {between} is **{spoken(top['measure'])}**: {size} (means: {means})."
    lines = [lead]
    for row in ranked[1:5]:
        row_means = ", ".join(f"{g} {figure(v)}" for g, v in row["means"].items())
        lines.append(f"- {spoken(row['measure'])}: {figure(abs(row['effect_size']))} (means: {row_means})")
    lines.append(
        "- The effect size is the gap between the group means in pooled standard deviations (Cohen's d)"
        if top["effect"] == "cohens_d"
        else "- Eta squared is the share of a measure's variance that lies between the groups"
    )
    return lines


def trend(request: Request, result: dict[str, Any]) -> list[str]:
    """Where the measure started and ended, in words, and the slope of its straight-line trend."""
    points = result["points"]
    said, measure = measure_words(statistic_words(request), result["measure"]), spoken(result["measure"])
    if len(points) < 2:
        return [f"There is only {len(points)} period with a value of {measure}: no trend to read."]
    first, last = points[0], points[-1]
    change, percent = result["change"], result.get("percent_change")
    went = "rose" if change > 0 else "fell" if change < 0 else "stayed the same"
    lead = (
        f"The {said} **{went}** from {figure(first['value'])} in {first['period']} to "
        f"**{figure(last['value'])}** in {last['period']} ({'+' if change >= 0 else ''}{figure(change)}"
        + (f", {'+' if percent >= 0 else ''}{percentage(percent)}%" if percent is not None else "")
        + ")."
    )
    lines = [lead]
    if result.get("slope_per_period") is not None:
        period = result["period"] if result["period"] != "value" else "step"
        fit = (
            f"r² = {figure(result['r_squared'])}, {p_value(result['p_value'])}"
            if result.get("r_squared") is not None
            else "two points only"
        )
        lines.append(f"- Straight-line trend: {figure(result['slope_per_period'])} per {period} ({fit}).")
    peak = max(points, key=lambda p: p["value"])
    low = min(points, key=lambda p: p["value"])
    lines.append(
        f"- Highest in {peak['period']} ({figure(peak['value'])}), lowest in {low['period']} ({figure(low['value'])})."
    )
    return lines


def share(request: Request, result: dict[str, Any], text: str) -> list[str]:
    """The most (or least) common category and its share, then the rest."""
    rows = result["categories"]
    if not rows:
        return [f"{spoken(result['column'])} has no values."]
    if not result["weight"] and len(rows) > 1 and all((r["amount"] or 0) <= 1 for r in rows):
        return [
            f"Every {spoken(result['column'])} appears once ({figure(result['total'])} rows), so a share of the rows "
            "ranks nothing: I could not tell which measure to share out. Name it (“the share of the total ...”)."
        ]
    chosen = rows[-1] if RARE.search(text) else rows[0]
    which = "least" if chosen is rows[-1] and len(rows) > 1 and RARE.search(text) else "most"
    group = spoken(result["column"])
    if result["weight"]:
        lead = (
            f"**{chosen['value']}** has the {'smallest' if which == 'least' else 'largest'} share of the total "
            f"{spoken(result['weight'])}: **{percentage(chosen['percent'])}%** ({figure(chosen['amount'])} of "
            f"{figure(result['total'])})."
        )
    elif which == "most" and (how_many(text) or 0) > 1 and len(rows) > 1:  # "which three makers have the most"
        first, *others = rows[: how_many(text)]
        listed = ", ".join(f"{r['value']} ({figure(r['amount'])}, {percentage(r['percent'])}%)" for r in others)
        lead = (
            f"The {len(others) + 1} {group} values with the most rows: **{first['value']}** "
            f"(**{figure(first['amount'])}**, {percentage(first['percent'])}%), then {listed}, of "
            f"{figure(result['total'])} rows."
        )
    else:
        lead = (
            f"**{chosen['value']}** is the {which} common {group}: **{percentage(chosen['percent'])}%** of the rows "
            f"({figure(chosen['amount'])} of {figure(result['total'])})."
        )
    return [lead, *(f"- {r['value']}: {percentage(r['percent'])}% ({figure(r['amount'])})" for r in rows[:15])]


def growth(request: Request, result: dict[str, Any], text: str) -> list[str]:
    """The entity that grew most (or shrank most) from its first to its last moment."""
    by = "change" if result.get("change_by") == "absolute" else "percent_change"
    rows = [r for r in result["entities"] if r[by] is not None]
    if not rows:
        return [f"No {spoken(result['entity'])} has a value of {spoken(result['measure'])} at two moments."]
    declining = _bottom_asked(text)
    chosen = rows[-1] if declining else rows[0]
    change = chosen[by]
    verb = (
        ("fell most" if change < 0 else "grew least (every one grew)")
        if declining
        else "grew most"
        if change >= 0
        else "fell least (every one fell)"
    )
    measure = spoken(result["measure"])
    other = "percent_change" if by == "change" else "change"
    lead = (
        f"**{chosen['entity']}** {verb}: {measure} went from {figure(chosen['first'])} in {chosen['first_time']} "
        f"to {figure(chosen['last'])} in {chosen['last_time']}, **{_moved(chosen, by)}** ({_moved(chosen, other)})."
    )
    ordered = list(reversed(rows)) if declining else rows
    return [lead, *(f"- {r['entity']}: {_moved(r, by)} ({figure(r['first'])} to {figure(r['last'])})"
                    for r in ordered[:12])]  # fmt: skip


RISE = re.compile(r"\b(?:gr[eo]w\w*|ris\w*|rose|increas\w*|gain\w*|climb\w*|jump\w*|(?:went|go|goes|gone) up)\b", re.I)
LEAST_AFTER = re.compile(r"\W+(?:\w+\W+){0,2}?(?:the )?(?:least|less)\b", re.I)


def _bottom_asked(text: str) -> bool:
    """Whether the lowest change is asked: "fell most", "the worst performer", "grew least"; the first
    movement said decides ("grew the most (or dropped least)" asks the top). "Improved" says no way: a
    rate of readmissions improves as it falls."""
    if WORST.search(text):
        return True
    moves = sorted([(m.start(), m.end(), False) for m in RISE.finditer(text)] + [
        (m.start(), m.end(), True) for m in DECLINE.finditer(text) if m.group().lower() != "least"])  # fmt: skip
    if not moves:
        return bool(DECLINE.search(text))
    _, end, falling = moves[0]
    return falling != bool(LEAST_AFTER.match(text[end:]))


def _moved(row: dict[str, Any], by: str) -> str:
    """A change as the question counts it: "+12.5%" in percent, "+1,250" in the measure's units."""
    value = row[by]
    if value is None:
        return "no percentage: it started at 0"
    sign = "+" if value >= 0 else ""
    return f"{sign}{percentage(value)}%" if by == "percent_change" else f"{sign}{figure(value)}"
