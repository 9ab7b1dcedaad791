"""The answers a model gives in words: a forecast with its interval and its caveat, the steepest rate per
group, an association once other columns are accounted for. Plain Python.
"""

from __future__ import annotations

from typing import Any

from agents.analysis.prose import figure, p_value, spoken
from agents.analysis.request import Request
from agents.analysis.verdicts import UNSURE_CAP


def forecast(request: Request, result: dict[str, Any]) -> list[str]:
    """ "If the straight-line trend continues, US CO2 per person will be about 20.41 in 2020"."""
    measure = spoken(result["measure"])
    ahead = result.get("forecast")
    if ahead is None:
        return [f"I could not forecast {measure} to {result['to']}: {result.get('why')}."]
    low, high = ahead["interval95"]
    first, last = ahead["history"]
    lead = (
        f"**If the straight-line trend continues, {measure} will be about {figure(ahead['value'])} in "
        f"{result['to']}** (95% prediction interval {figure(low)} to {figure(high)}; a line through the "
        f"{result['statistic']} of each {result['period'] if result['period'] != 'value' else spoken(result['time'])} "
        f"from {first} to {last})"
    )
    lines = [lead + "."]
    lines.append(f"- The line changes by {figure(ahead['slope_per_period'])} a period (R squared "
                 f"{figure(ahead['r_squared'])}, {ahead['periods_used']} periods).")  # fmt: skip
    if result.get("holt") is not None:
        lines.append(
            f"- Holt's exponential smoothing, which weighs recent periods more, gives {figure(result['holt'])}."
        )
    if result.get("long_horizon"):
        lines.append(
            "- The horizon is long against the history: treat this as a rough extrapolation, not a prediction."
        )
    return lines


def rate(request: Request, result: dict[str, Any]) -> list[str]:
    """The group whose measure changes fastest (or slowest) per unit of time, with its slope."""
    measure, per = spoken(result["measure"]), spoken(result["per"])
    groups, word = _rates_ranked(request, result)
    if not groups:
        return [f"No {spoken(result['group_by'])} has enough points for a rate of {measure}."]
    first = groups[0]
    low, high = first["ci95"]
    lead = (
        f"**{first['group']}** changes {word}: **{figure(first['slope'])} {measure} per {per}** "
        f"(95% CI {figure(low)} to {figure(high)}, n = {first['n']})"
    )
    if len(groups) > 1:
        lead += f", against {figure(groups[1]['slope'])} for {groups[1]['group']}"
    lines = [lead + "."]
    if rate_certainty(request, result) < 1:
        lines.append(f"- Its interval holds {groups[1]['group']}'s rate too: which is {word} could be chance.")
    lines += [
        f"- {g['group']}: {figure(g['slope'])} per {per} (R squared {figure(g['r_squared'])})" for g in groups[:12]
    ]
    return lines


def _rates_ranked(request: Request, result: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """The groups in the order the question asks for them (the fastest, the slowest, the steepest fall
    first), and the word for the first."""
    groups = [g for g in result["groups"] if g["slope"] is not None]
    if request.direction in ("low", "fall"):
        groups.reverse()  # the slowest, or the steepest fall ("declined fastest"), first
    word = {"high": "fastest", "low": "slowest", "fall": "fastest (falling)"}.get(request.direction, "fastest")
    if groups and groups[0]["slope"] < 0 and request.direction == "high" and groups[-1]["slope"] < 0:
        groups.reverse()  # every group falls: the steepest fall is the fastest
        word = "fastest (falling)"
    return groups, word


def rate_certainty(request: Request, result: dict[str, Any]) -> float:
    """Less sure when the first group's interval holds the runner-up's rate: the order could be chance."""
    groups, _ = _rates_ranked(request, result)
    if len(groups) < 2 or None in (groups[0].get("ci95") or [None]):
        return 1.0
    low, high = groups[0]["ci95"]
    return UNSURE_CAP if low <= groups[1]["slope"] <= high else 1.0


def adjusted(request: Request, result: dict[str, Any]) -> list[str]:
    """The adjusted coefficient's direction and size first; the unadjusted one, and a sign that turns, after."""
    variable, outcome = spoken(result["variable"]), spoken(result["outcome"])
    controls = (
        ", ".join(f"each {spoken(c)} on its own" if c in request.fixed else spoken(c) for c in result["controls"])
        or "nothing"
    )  # "each year on its own": a year held fixed, not a line through the years
    fit, raw = result.get("adjusted"), result.get("unadjusted")
    if fit is None:
        return [f"I could not fit {outcome} on {variable} with {controls}: the model did not converge."]
    direction = "positively" if fit["coefficient"] > 0 else "negatively"
    unit = (
        "in the log-odds of " + outcome + f" = {result.get('outcome_coded_1')}"
        if "outcome_coded_1" in result
        else outcome
    )
    low, high = fit["ci95"]
    lead = (
        f"**After accounting for {controls}, {variable} is {direction} associated with {outcome}: "
        f"{figure(fit['coefficient'])} {unit} per unit of {variable}** (95% CI {figure(low)} to {figure(high)}, "
        f"{p_value(fit['p_value'])}; {result['model']}, n = {result['n']})"
    )
    lines = [lead + "."]
    if raw:
        lines.append(f"- Without accounting for {controls}: {figure(raw['coefficient'])} ({p_value(raw['p_value'])}).")
    if result.get("sign_reversed"):
        lines.append(f"- The sign turns once {controls} is accounted for: the pooled figure mixes groups that differ "
                     "(Simpson's paradox).")  # fmt: skip
    return lines
