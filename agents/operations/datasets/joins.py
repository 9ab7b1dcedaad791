"""dataset.join: two of the session's tables joined on a key into a new table, with what matched.

The server writes the SQL from names it has checked against the tables' own columns, so no caller
(an agent, the analyst) ever writes a join as SQL text. Before anything is written it counts what the
join would make, and refuses a many-to-many join past the row bound rather than filling the quota.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents.operations.datasets.rows import check_quota, stored_as_json
from agents.operations.datasets.store import Store, create_table, open_store, require_table, row_count, table_source
from agents.operations.datasets.wall import quote_identifier
from agents.sap import Call
from protocol.errors import ProtocolError, already_exists

MAX_JOIN_ROWS = 1_000_000
MAX_KEY_COLUMNS = 4
EXAMPLE_KEYS = 5
ID_LIKE = re.compile(r"(^|_)(id|key|code|iso\d?|uuid|no|number)$|id$", re.IGNORECASE)
TABLE_PATTERN = r"^[a-zA-Z_][a-zA-Z0-9_]*$"


@dataclass(frozen=True)
class Side:
    """One table of the join: its name, columns by name, and its alias in the SQL."""

    table: str
    columns: dict[str, dict[str, Any]]
    alias: str

    def key(self, on: list[str]) -> list[str]:
        return [f"{self.alias}.{quote_identifier(name)}" for name in on]


def _sides(store: Store, params: dict[str, Any]) -> tuple[Side, Side]:
    left, right = params["left"], params["right"]
    return (
        Side(left, {c["name"]: c for c in require_table(store, left)}, "l"),
        Side(right, {c["name"]: c for c in require_table(store, right)}, "r"),
    )


def _matches(left: Side, right: Side, on: list[str]) -> str:
    return " AND ".join(f"{a} = {b}" for a, b in zip(left.key(on), right.key(on), strict=True))


def _one(store: Store, sql: str) -> int:
    return int(store.execute(sql, fetch=True)[0][0] or 0)


# -- the key ------------------------------------------------------------------------------------


def shared_columns(left: Side, right: Side) -> list[str]:
    """Columns of the same name and type in both tables (yes/no columns overlap by chance, so never)."""
    return [
        name
        for name, column in left.columns.items()
        if name in right.columns and column["type"] == right.columns[name]["type"] and column["type"] != "boolean"
    ]


def _checked_key(left: Side, right: Side, on: list[str]) -> list[str]:
    """The named key, when each column is in both tables with the same type."""
    for index, name in enumerate(on):
        missing = [side.table for side in (left, right) if name not in side.columns]
        if missing or left.columns[name]["type"] != right.columns[name]["type"]:
            why = (
                f"no column {name!r} in {' or '.join(repr(t) for t in missing)}"
                if missing
                else f"{name!r} is {left.columns[name]['type']} in {left.table!r} "
                f"but {right.columns[name]['type']} in {right.table!r}"
            )
            shared = shared_columns(left, right)
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"on[{index}]: {why}",
                details={
                    "invalid": {f"on[{index}]": why},
                    "shared_columns": shared,
                    "columns": {left.table: sorted(left.columns), right.table: sorted(right.columns)},
                },
                suggestion=[
                    *([f"join on a column both tables have: {', '.join(shared)}"] if shared else []),
                    "leave on out and the server looks for a shared key",
                ],
            )
    if len(set(on)) != len(on):
        raise ProtocolError("VALIDATION_FAILED", "on names a column twice", details={"invalid": {"on": on}})
    return on


def _candidate(store: Store, left: Side, right: Side, name: str) -> dict[str, Any]:
    """How well one shared column would serve as the key: the values of each side found on the other."""
    q = quote_identifier(name)
    counts = {}
    for side in (left, right):
        counts[side.alias] = store.execute(
            f"SELECT COUNT(DISTINCT {q}), COUNT({q}) FROM {store.qualified(side.table)}", fetch=True
        )[0]
    overlap = _one(
        store,
        f"SELECT COUNT(DISTINCT l.{q}) FROM {store.qualified(left.table)} AS l "
        f"WHERE EXISTS (SELECT 1 FROM {store.qualified(right.table)} AS r WHERE r.{q} = l.{q})",
    )
    fewer = min(counts["l"][0], counts["r"][0]) or 1
    unique = any(distinct == present and present for distinct, present in counts.values())
    return {
        "column": name,
        "shared_values": overlap,
        "share": round(overlap / fewer, 4),
        "unique_on_a_side": unique,
        "id_like": bool(ID_LIKE.search(name)),
    }


def found_key(store: Store, left: Side, right: Side) -> tuple[list[str], dict[str, Any]]:
    """The shared column whose values overlap, preferring one unique on a side, then an id-like name,
    then the larger share of values found on both sides; and why it was chosen."""
    candidates = [_candidate(store, left, right, name) for name in shared_columns(left, right)]
    overlapping = [c for c in candidates if c["shared_values"]]
    if not overlapping:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{left.table!r} and {right.table!r} share no column of the same name and type whose values overlap",
            details={
                "candidates": candidates,
                "columns": {left.table: sorted(left.columns), right.table: sorted(right.columns)},
            },
            suggestion=["name the key with on, when its column has the same name and type in both tables"],
        )
    best = max(overlapping, key=lambda c: (c["unique_on_a_side"], c["id_like"], c["share"], c["shared_values"]))
    why = (
        f"{best['column']!r} is in both tables with the same type; {best['shared_values']} of its values are in both"
        + ("; it is unique on one side" if best["unique_on_a_side"] else "")
    )
    return [best["column"]], {"found": True, "why": why, "candidates": candidates}


# -- what the join would make --------------------------------------------------------------------


def _side_report(store: Store, side: Side, other: Side, on: list[str]) -> dict[str, Any]:
    """One side's rows, how many find a row on the other side, a few keys that do not, and whether the key
    is unique there."""
    this, that = store.qualified(side.table), store.qualified(other.table)
    a = side.alias
    found = f"EXISTS (SELECT 1 FROM {that} AS {other.alias} WHERE {_matches(side, other, on)})"
    rows = row_count(store, side.table)
    matched = _one(store, f"SELECT COUNT(*) FROM {this} AS {a} WHERE {found}")
    keys = ", ".join(side.key(on))
    present = " AND ".join(f"{k} IS NOT NULL" for k in side.key(on))
    examples = store.execute(
        f"SELECT DISTINCT {keys} FROM {this} AS {a} WHERE {present} AND NOT {found} ORDER BY {keys} "
        f"LIMIT {EXAMPLE_KEYS}",
        fetch=True,
    )
    repeated = _one(
        store,
        f"SELECT COUNT(*) FROM (SELECT {keys} FROM {this} AS {a} WHERE {present} GROUP BY {keys} "
        "HAVING COUNT(*) > 1) AS repeated",
    )
    columns = [side.columns[name] for name in on]
    return {
        "table": side.table,
        "rows": rows,
        "matched": matched,
        "unmatched": rows - matched,
        "unmatched_keys": [_key_value(columns, row) for row in examples],
        "key_unique": repeated == 0,
        "repeated_keys": repeated,
    }


def _key_value(columns: list[dict[str, Any]], row: tuple[Any, ...]) -> Any:
    values = [stored_as_json(c, v) for c, v in zip(columns, row, strict=True)]
    return values[0] if len(values) == 1 else values


def _result_rows(store: Store, left: Side, right: Side, on: list[str], unmatched_left: int, how: str) -> int:
    """The rows the join makes, counted per key (the sum of each key's rows on one side times the other's)
    rather than by making them."""
    keys = ", ".join(quote_identifier(name) for name in on)
    per_key = "SELECT {keys}, COUNT(*) AS n FROM {table} GROUP BY {keys}"
    matched = _one(
        store,
        f"SELECT SUM(l.n * r.n) FROM ({per_key.format(keys=keys, table=store.qualified(left.table))}) AS l "
        f"JOIN ({per_key.format(keys=keys, table=store.qualified(right.table))}) AS r ON {_matches(left, right, on)}",
    )
    return matched + (unmatched_left if how == "left" else 0)


def _too_many(rows: int, bound: int, left: dict[str, Any], right: dict[str, Any]) -> ProtocolError:
    many_to_many = not left["key_unique"] and not right["key_unique"]
    cause = (
        "the key repeats on both sides (a many-to-many join), so each repeated key pairs every row of one side "
        "with every row of the other"
        if many_to_many
        else "the tables are that large"
    )
    return ProtocolError(
        "LIMIT_EXCEEDED",
        f"the join would make {rows:,} rows, more than the bound of {bound:,}: {cause}",
        details={
            "limit": bound,
            "result_rows": rows,
            "many_to_many": many_to_many,
            "repeated_keys": {left["table"]: left["repeated_keys"], right["table"]: right["repeated_keys"]},
        },
        suggestion=[
            "join on more columns, so the key is unique on one side",
            "aggregate one table first (dataset.query with group_by) and join the result",
            f"raise max_rows (at most {MAX_JOIN_ROWS:,}) if so many rows are meant",
        ],
    )


# -- the new table ------------------------------------------------------------------------------


def _output_columns(left: Side, right: Side, on: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """(the SQL that selects it, the column): every column of the left table, then the right table's
    columns but its key, renamed ``<name>_<right table>`` when the left has the name already."""
    chosen = [(f"l.{quote_identifier(name)}", {**column, "nullable": True}) for name, column in left.columns.items()]
    taken = {name.lower() for name in left.columns}
    for name, column in right.columns.items():
        if name in on:
            continue
        new, number = name, 1
        while new.lower() in taken or len(new) > 64:
            new = f"{name}_{right.table}" if number == 1 else f"{name[:56]}_{number}"
            number += 1
        taken.add(new.lower())
        chosen.append((f"r.{quote_identifier(name)}", {**column, "name": new, "nullable": True}))
    return chosen


def _made_by_a_join(store: Store, table: str) -> bool:
    return (table_source(store, table) or "").startswith("dataset.join of ")


def _write(store: Store, params: dict[str, Any], left: Side, right: Side, on: list[str]) -> list[dict[str, Any]]:
    """The new table, filled by one INSERT ... SELECT the server wrote; its columns."""
    into = params["into"]
    output = _output_columns(left, right, on)
    columns = [column for _, column in output]
    join = "LEFT JOIN" if params["how"] == "left" else "JOIN"
    with store.atomic():
        if into in store.tables():
            if not (params["replace"] and _made_by_a_join(store, into)):
                raise already_exists(
                    "TABLE",
                    into,
                    f"table {into!r} already exists"
                    + (" and was not made by dataset.join" if params["replace"] else ""),
                    suggestion=["name another table with into", f"such as '{into}_v2'"],
                )
            store.execute(f"DROP TABLE {store.qualified(into)}")
        create_table(store, into, columns, source=f"dataset.join of {left.table} and {right.table}")
        names = ", ".join(quote_identifier(c["name"]) for c in columns)
        store.execute(
            f"INSERT INTO {store.qualified(into)} ({names}) SELECT {', '.join(sql for sql, _ in output)} "
            f"FROM {store.qualified(left.table)} AS l {join} {store.qualified(right.table)} AS r "
            f"ON {_matches(left, right, on)}"
        )
        check_quota(store)
    return columns


def join_tables(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    params = {**params, "into": params.get("into") or f"{params['left']}_{params['right']}"[:64]}
    if params["into"] in (params["left"], params["right"]):
        raise ProtocolError(
            "VALIDATION_FAILED",
            "into must name a new table, not one of the tables joined",
            details={"invalid": {"into": params["into"]}},
            suggestion=[f"such as '{params['left']}_{params['right']}'"],
        )
    with open_store(call.context.session_id) as store:
        left, right = _sides(store, params)
        if params.get("on"):
            on, key = _checked_key(left, right, params["on"]), {"found": False, "why": "named by the caller"}
        else:
            on, key = found_key(store, left, right)
        left_report, right_report = _side_report(store, left, right, on), _side_report(store, right, left, on)
        rows = _result_rows(store, left, right, on, left_report["unmatched"], params["how"])
        if rows > params["max_rows"]:
            raise _too_many(rows, params["max_rows"], left_report, right_report)
        columns = _write(store, params, left, right, on)
        made = row_count(store, params["into"])
    return {
        "status": "success",
        "table": params["into"],
        "on": on,
        "how": params["how"],
        "key": key,
        "left": left_report,
        "right": right_report,
        "rows": made,
        "columns": columns,
    }
