"""The analyst's outliers in words, and the rows kept once a person leaves them out. Plain Python: it
reads the ``outliers`` of a stats.describe column (agents/operations/stats/engine.py ``far_values``).

A question about outliers is one short sentence a person can answer at a glance (which columns, how
many values, the farthest few, leave them out?); the bounds, the rule and how to answer column by
column are its folded details, so the question reads the same wherever it is listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.analysis.prose import spoken, two_decimals

OUTLIER_SDS = 3
MAX_LISTED_VALUES = 5
MAX_NAMED_COLUMNS = 3


@dataclass(frozen=True)
class Pending:
    """A column's outliers that nobody has decided on yet: ``far`` is the column's ``outliers``."""

    table: str
    column: str
    far: dict[str, Any]
    mean: float | None

    @property
    def target(self) -> str:
        return f"{self.table}.{self.column}"


def listed(values: list[Any]) -> str:
    """ "400.0 and 450.0", "1.0, 2.0, 3.0, 4.0, 5.0 and 2 more": the figures as the tables show them."""
    shown = [two_decimals(v) for v in values[:MAX_LISTED_VALUES]]
    more = f" and {len(values) - MAX_LISTED_VALUES} more" if len(values) > MAX_LISTED_VALUES else ""
    return (", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else "".join(shown)) + more


def targets_words(targets: list[str]) -> str:
    """``table.column`` targets as a sentence names them: "mean area and mean radius", with the
    table only when they span several ("price in orders and amount in refunds")."""
    pairs = sorted(target.partition(".")[::2] for target in targets)
    several = len({table for table, _ in pairs}) > 1
    said = [spoken(column) + (f" in {table}" if several else "") for table, column in pairs]
    return ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else "".join(said)


def bounds_words(low: float | None, high: float | None) -> str:
    """ "outside 2.5 to 30.1", or "above 30.1" when the column cannot go below its lower bound."""
    if low is None:
        return f"above {two_decimals(high)}"
    return f"outside {two_decimals(low)} to {two_decimals(high)}"


def rule_words(within: str | None) -> str:
    """What an outlier is, for the statistics table's note and the writer's method."""
    centre = f"the mean of its {spoken(within)} group" if within else "its column's mean"
    return f"a value more than {OUTLIER_SDS} SDs from {centre}, among the rows kept (checked from 8 values on)"


def kept_rows(column: str, far: dict[str, Any]) -> dict[str, Any]:
    """The filter that keeps every row but the outliers of ``column`` (missing values stay)."""
    missing = {"column": column, "op": "is_null", "value": True}
    within = far.get("within")
    if not within:
        return {"or": [{"and": _inside(column, far)}, missing], "outliers_of": column}
    groups = [
        {"and": [{"column": within, "op": "=", "value": g["group"]}, *(_inside(column, g) if g["checked"] else [])]}
        for g in far["groups"]
    ]
    no_group = {"column": within, "op": "is_null", "value": True}
    return {"or": [*groups, no_group, missing], "outliers_of": column}


def _inside(column: str, bounds: dict[str, Any]) -> list[dict[str, Any]]:
    limits = ((">=", bounds["low"]), ("<=", bounds["high"]))
    return [{"column": column, "op": op, "value": value} for op, value in limits if value is not None]


def left_out_words(column: str, far: dict[str, Any], remaining: int) -> str:
    """The statistics note on one column whose outliers a person left out."""
    if far.get("within"):
        where = "far from the mean of their " + spoken(far["within"]) + " group"
    else:
        where = f"where {column} lies {bounds_words(far['low'], far['high'])}"
    return f"Left out: the rows {where} ({listed(far['values'])}); {remaining} rows remain."


def _farthest(far: dict[str, Any]) -> str:
    said = [
        two_decimals(f["value"]) + (f" in {f['group']}" if f.get("group") is not None else "")
        for f in far.get("farthest") or []
    ]
    return ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else "".join(said)


def question(pending: list[Pending]) -> tuple[str, str]:
    """One short question about every undecided outlier, and its folded details (Markdown)."""
    several_tables = len({p.table for p in pending}) > 1
    named = []
    for p in pending[:MAX_NAMED_COLUMNS]:
        count = len(p.far["values"])
        where = f" in {p.table}" if several_tables else ""
        named.append(f"{count} value{'s' if count > 1 else ''} of {spoken(p.column)}{where} ({_farthest(p.far)})")
    rest = pending[MAX_NAMED_COLUMNS:]
    if rest:
        values = sum(len(p.far["values"]) for p in rest)
        named.append(f"{values} more in {len(rest)} other column{'s' if len(rest) > 1 else ''}")
    joined = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
    groups = {p.far.get("within") for p in pending}
    rest_of = f"the rest of their {spoken(groups.pop())} group" if groups != {None} and len(groups) == 1 else "the rest"
    text = f"Far from {rest_of}: {joined}. Leave them out of the figures?"
    return text, _details(pending)


def _details(pending: list[Pending]) -> str:
    lines = []
    for p in pending:
        far = p.far
        if far.get("within"):
            groups = "; ".join(
                f"{g['group']}: {bounds_words(g['low'], g['high'])}" for g in far["groups"] if g["outliers"]
            )
            rule = f"more than {OUTLIER_SDS} SDs from the mean of its {spoken(far['within'])} group ({groups})"
        else:
            rule = f"{bounds_words(far['low'], far['high'])} (its mean {two_decimals(p.mean)} ± {OUTLIER_SDS} SDs)"
        count = len(far["values"])
        values = f"{count} value{'s' if count > 1 else ''}"
        lines.append(f"- {p.column} in {p.table}: {values} {rule}: {listed(far['values'])}.")
    if len(pending) > 1:
        example = pending[0].column
        lines.append(
            f"\nYes leaves them all out; no keeps them all; or say it column by column, "
            f"e.g. “leave out {example}, keep the others”."
        )
    else:
        lines.append("\nYes leaves them out; no keeps them.")
    return "\n".join(lines)
