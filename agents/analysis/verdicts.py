"""The answer to "is it more than chance?" in words: the verdict first, with the figures it rests on,
then the test chosen and why, its check, the effect size and the pairs that differ. Plain Python.
"""

from __future__ import annotations

from typing import Any

from agents.analysis.prose import effect_words, figure, p_value, spoken
from agents.analysis.request import Request
from agents.operations.stats.charts import percentage

UNSURE_CAP = 0.5  # the test and its rank-based check disagree: the verdict hangs on an assumption


def significance(request: Request, result: dict[str, Any]) -> list[str]:
    """Whether the groups differ more than chance would make them, at the 5% level."""
    measure = spoken(request.measures[0])
    groups = spoken(result.get("group_by") or request.group)  # "season of date" where a date is read as its season
    between = f"and {spoken(request.second)}" if result.get("versus") else f"between the {groups} groups"
    test = result.get("test")
    if test is None or result.get("significant") is None:
        return [f"I could not test whether {measure} differs {between}: {result.get('why')}."]
    several = len(result["groups"]) > 2
    subject = "the differences between the groups are" if several else "the difference is"
    said = f"{subject} {'' if result['significant'] else 'not '}statistically significant"
    lead = f"**{'Yes' if result['significant'] else 'No'}, {said}**"
    lead += f" at the 5% level: {_figures(result, measure)}; {test['name']}, {p_value(test['p_value'])}"
    lead += "" if result["significant"] else ", so it could well be chance"
    lines = [lead + ".", f"- Why this test: {result['why']}."]
    check = result.get("check")
    if check:
        agrees = (check["p_value"] is not None) and ((check["p_value"] < result["alpha"]) == result["significant"])
        lines.append(
            f"- Check: the {check['name']} gives {p_value(check['p_value'])}, "
            + ("the same verdict." if agrees else "a different verdict: the answer hangs on the data being normal.")
        )
    effect = result.get("effect")
    if effect:
        interval = effect.get("ci95")
        span = f" (95% CI {figure(interval[0])} to {figure(interval[1])})" if interval else ""
        lines.append(f"- Effect size: {effect_words(effect['name'], effect['size'])}{span}.")
    pairs = result.get("pairs") or []
    if several:
        named = ", ".join(f"{p['higher']} over {p['lower']} ({p_value(p['p_value'])})" for p in pairs[:8])
        lines.append(f"- Pairs that differ (Tukey's HSD): {named or 'none at the 5% level'}.")
    lines += [f"- {_group_line(g)}" for g in result["groups"][:12]]
    return lines


def _figures(result: dict[str, Any], measure: str) -> str:
    """The figures the verdict is about: the two groups and their gap, or the highest and lowest group."""
    groups, difference = result["groups"], result.get("difference")
    if "share_of" in result:
        shares = " against ".join(f"{percentage(g['percent'])}% of {g['group']}" for g in groups[:2])
        coded_yes = str(result["share_of"]) in ("1", "1.0")  # a yes/no coded 1/0: "have any chd"
        said = f"{shares} have {measure}" + ("" if coded_yes else f" {result['share_of']}")
        if difference and len(groups) == 2:
            low, high = difference["ci95"]
            said += f", {figure(difference['value'])} points apart (95% CI {figure(low)} to {figure(high)})"
        return said
    if difference and result.get("pairs_tested"):
        low, high = difference["ci95"]
        named = spoken if result.get("versus") else str
        top, bottom = named(groups[0]["group"]), named(groups[-1]["group"])
        of = "" if result.get("versus") else f" {measure}"
        return (
            f"the mean{of} is {figure(groups[0]['mean'])} for {top} and {figure(groups[-1]['mean'])} for {bottom}; "
            f"pair by pair, {top} is {figure(difference['value'])} higher on average over the "
            f"{result['pairs_tested']} pairs (95% CI {figure(low)} to {figure(high)})"
        )
    if difference:
        low, high = difference["ci95"]
        top, bottom = groups[0], groups[-1]
        return (
            f"the mean {measure} is {figure(top['mean'])} for {top['group']} and {figure(bottom['mean'])} for "
            f"{bottom['group']}, {figure(difference['value'])} apart (95% CI {figure(low)} to {figure(high)})"
        )
    top, bottom = groups[0], groups[-1]
    return (
        f"the mean {measure} runs from {figure(top['mean'])} ({top['group']}) down to {figure(bottom['mean'])} "
        f"({bottom['group']}) across {len(groups)} groups"
    )


def _group_line(group: dict[str, Any]) -> str:
    if "percent" in group:
        return f"{group['group']}: {percentage(group['percent'])}% (n = {group['n']})"
    sd = f", SD {figure(group['sd'])}" if group.get("sd") is not None else ""
    return f"{group['group']}: mean {figure(group['mean'])}{sd}, median {figure(group['median'])} (n = {group['n']})"


def certainty(request: Request, result: dict[str, Any]) -> float:
    """How far the verdict can be trusted beyond its rows: less when the rank-based check disagrees."""
    check, significant = result.get("check"), result.get("significant")
    if significant is None:
        return 0.2
    if check and check["p_value"] is not None and (check["p_value"] < result["alpha"]) != significant:
        return UNSURE_CAP
    return 1.0


def _strength(v: float | None) -> str:
    if v is None:
        return "no"
    return "a strong" if v >= 0.5 else "a moderate" if v >= 0.3 else "a weak" if v >= 0.1 else "a negligible"


def _valued(column: str, value: Any) -> str:
    """A value that says nothing alone ("1", "no") with its column's name: "stage 1", "hepatomegaly no"."""
    bare = str(value).lower() in ("yes", "no", "true", "false") or str(value).replace(".", "", 1).isdigit()
    return f"{column} {value}" if bare else str(value)


def crosstab(request: Request, result: dict[str, Any]) -> list[str]:
    """Whether two categories are related: the test's verdict first, with Cramér's V and the pair most
    over-represented."""
    first, second = spoken(result["group_by"]), spoken(result["and_by"])
    test, v = result.get("test"), result.get("cramers_v")
    if test is None:
        return [f"I could not test whether {first} and {second} are related: {result.get('why')}."]
    if result["associated"]:
        over = result["over_represented"]
        lead = (
            f"**{first.capitalize()} and {second} are associated** (chi-square test, {p_value(test['p_value'])}; "
            f"Cramér's V = **{figure(v)}**, {_strength(v)} association): {_valued(second, over['column'])} is most "
            f"over-represented among {_valued(first, over['row'])}, {figure(over['observed_over_expected'])} times "
            "what independence would give"
        )
    else:
        lead = (
            f"**{first.capitalize()} and {second} look independent**: the chi-square test finds no association "
            f"beyond chance ({p_value(test['p_value'])}; Cramér's V = **{figure(v)}**)"
        )
    lines = [lead + ".", f"- Test: {test['name']}, chi-square = {figure(test['statistic'])}, {test['dof']} df, "
             f"n = {result['n']}."]  # fmt: skip
    if result.get("sparse"):
        lines.append("- Over a fifth of the cells expect fewer than 5 rows: the test is rough here.")
    for row in result["cells"][:12]:
        shares = ", ".join(f"{column} {percentage(p)}%" for column, p in row["percent"].items() if p is not None)
        lines.append(f"- {row['row']}: {shares}")
    return lines


def two_factor(request: Request, result: dict[str, Any]) -> list[str]:
    """The best (or worst) combination of two groupings, the runner-up, and whether they interact."""
    cells = [c for c in result["cells"] if c["value"] is not None]  # the asked end first
    if not cells:
        return [f"No combination of {spoken(result['first'])} and {spoken(result['second'])} has a value."]
    best, word = cells[0], "highest" if request.direction == "high" else "lowest"
    said = f"{result['statistic']} {spoken(result['measure'])}"
    lead = f"**{best['first']} with {best['second']}** has the {word} {said}: **{figure(best['value'])}**"
    lead += f" (n = {best['n']})"
    if len(cells) > 1:
        lead += f", ahead of {cells[1]['first']} with {cells[1]['second']} ({figure(cells[1]['value'])})"
    lines = [lead + "."]
    anova = result.get("anova")
    if anova:
        p = anova["p_values"]
        lines.append(
            f"- {anova['name']}: {spoken(result['first'])} {p_value(p['first'])}, {spoken(result['second'])} "
            f"{p_value(p['second'])}, interaction {p_value(p['interaction'])}"
            + (": the effect of one depends on the other." if anova["interaction"] else ".")
        )
    lines += [f"- {c['first']} / {c['second']}: {figure(c['value'])} (n = {c['n']})" for c in cells[:12]]
    return lines
