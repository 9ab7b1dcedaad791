"""Structured queries compiled to SQL, and raw SQL checked before the database sees it.

The check is the first, friendly line: it names what is wrong and what to do. The wall is the
store (the session's own file or role), which runs the text as given.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Protocol

import sqlglot
from sqlglot import expressions as exp
from sqlglot.errors import OptimizeError
from sqlglot.optimizer.scope import Scope, traverse_scope

from agents.operations.datasets.store import Store
from agents.operations.datasets.wall import ALLOWED_FUNCTIONS, CATALOGUE_PREFIXES, COLUMN_NAME, quote_identifier
from protocol.errors import ProtocolError

AGGREGATES = ("count", "sum", "avg", "min", "max")
OPS = ("=", "!=", "<", "<=", ">", ">=", "in", "like", "is_null")
MAX_FILTER_LEVELS = 8


class QueryTarget(Protocol):
    """Where a structured query runs: the SQL store, or a table's columnar copy (``columnar``)."""

    mark: str

    def qualified(self, table: str) -> str: ...


def compile_query(
    store: QueryTarget, table: str, columns: list[dict[str, Any]], params: dict[str, Any]
) -> tuple[str, list[Any], list[str]]:
    """A structured query as parameterised SQL over quoted identifiers; returns (sql, params, names).

    Every name is checked against the table's columns first (SQLite would read a double-quoted
    name that is no column as a string, and no name should reach SQL unchecked anyway).
    """
    allowed = _Columns(table, {c["name"] for c in columns})
    select, names = _select(allowed, params.get("select") or [c["name"] for c in columns])
    values: list[Any] = []
    sql = f"SELECT {', '.join(select)} FROM {store.qualified(table)}"
    if params.get("filters"):
        sql += " WHERE " + _condition(store.mark, allowed, params["filters"], "filters", values)
    if params.get("group_by"):
        sql += " GROUP BY " + ", ".join(
            allowed.quoted(name, f"group_by[{i}]") for i, name in enumerate(params["group_by"])
        )
    orders = _orders(allowed, params.get("order_by") or [], names)
    if orders:
        sql += " ORDER BY " + ", ".join(orders)
    return sql, values, names


def compile_filter(
    target: QueryTarget, table: str, columns: list[dict[str, Any]], filters: dict[str, Any] | None
) -> tuple[str, list[Any]]:
    """A structured filter alone, as a parameterised condition (empty without one): (sql, params)."""
    values: list[Any] = []
    if not filters:
        return "", values
    allowed = _Columns(table, {c["name"] for c in columns})
    return _condition(target.mark, allowed, filters, "filters", values), values


def _invalid(where: str, message: str, why: str) -> ProtocolError:
    return ProtocolError("VALIDATION_FAILED", message, details={"invalid": {where: why}})


def _bindable(value: Any, where: str) -> Any:
    """A filter value the database can bind: SQLite's integers are 64-bit, and a larger one was an
    internal error there."""
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"{where} is an integer past 64 bits",
            details={"invalid": {where: "integer past 64 bits"}},
            suggestion=[f"write it as a number with an exponent, such as {float(value):.6e}"],
        )
    return value


def _violation(where: str, message: str, value: Any) -> ProtocolError:
    return ProtocolError("VALIDATION_FAILED", message, details={"violations": {where: value}})


@dataclass(frozen=True)
class _Columns:
    """The table's column names, the only names a structured query may use."""

    table: str
    names: set[str]

    def quoted(self, name: str, where: str) -> str:
        if name not in self.names:
            close = difflib.get_close_matches(name, sorted(self.names), n=1)
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"{where}: no column {name!r} in {self.table!r}",
                details={"invalid": {where: f"unknown column {name!r}"}, "columns": sorted(self.names)},
                suggestion=[f"did you mean {close[0]!r}?"] if close else [],
            )
        return quote_identifier(name)


def _select(allowed: _Columns, items: list[Any]) -> tuple[list[str], list[str]]:
    """The SELECT list, and the names of the result's columns (a column's own, or an aggregate's alias)."""
    select, names = [], []
    for index, item in enumerate(items):
        if item == "*":
            select.append("*")
        elif isinstance(item, str):
            select.append(allowed.quoted(item, f"select[{index}]"))
            names.append(item)
        else:
            expression, alias = _aggregate(allowed, item, f"select[{index}]")
            select.append(expression)
            names.append(alias)
    return select, names


def _aggregate(allowed: _Columns, item: Any, where: str) -> tuple[str, str]:
    """``{fn, column, as}`` as ``FN("column") AS "alias"``, and the alias."""
    if not isinstance(item, dict):
        raise _invalid(
            where,
            f"{where} must be a column name or {{fn, column, as}}",
            f"expected string or object, got {type(item).__name__}",
        )
    fn = item.get("fn")
    if fn not in AGGREGATES:
        raise _violation(f"{where}.fn", f"{where}.fn must be one of {list(AGGREGATES)}", fn)
    counts_rows = item.get("column", "*") == "*" and fn == "count"
    target = "*" if counts_rows else allowed.quoted(item.get("column", ""), f"{where}.column")
    alias = item.get("as") or f"{fn}_{item.get('column', 'all')}".replace("*", "all")
    if not re.fullmatch(COLUMN_NAME, alias):
        raise _violation(f"{where}.as", f"{where}.as must be an identifier", alias)
    return f"{fn.upper()}({target}) AS {quote_identifier(alias)}", alias


def _condition(mark: str, allowed: _Columns, node: Any, where: str, values: list[Any], depth: int = 0) -> str:
    """A filter as SQL with ``mark`` placeholders, its values appended to ``values`` in order."""
    if depth > MAX_FILTER_LEVELS:
        raise _violation(where, f"filters nest too deep (at most {MAX_FILTER_LEVELS} levels)", "too deep")
    if not isinstance(node, dict):
        raise _invalid(where, f"{where} must be an object", "expected object")
    for joiner in ("and", "or"):
        if joiner in node:
            parts = node[joiner]
            if not isinstance(parts, list) or not parts:
                raise _invalid(f"{where}.{joiner}", f"{where}.{joiner} must be a non-empty list", "expected array")
            inner = f" {joiner.upper()} ".join(
                _condition(mark, allowed, p, f"{where}.{joiner}[{i}]", values, depth + 1) for i, p in enumerate(parts)
            )
            return f"({inner})"
    return _comparison(mark, allowed, node, where, values)


def _comparison(mark: str, allowed: _Columns, node: dict[str, Any], where: str, values: list[Any]) -> str:
    """One ``{column, op, value}`` condition."""
    op = node.get("op", "=")
    if op not in OPS:
        raise _violation(f"{where}.op", f"{where}.op must be one of {list(OPS)}", op)
    target = allowed.quoted(str(node.get("column")), f"{where}.column")
    value = node.get("value")
    if op == "is_null":
        return f"{target} IS {'' if value is not False else 'NOT '}NULL"
    if op == "in":
        if not isinstance(value, list) or not value or len(value) > 1000:
            raise _invalid(f"{where}.value", f"{where}.value must be a list of 1 to 1000 values", "expected array")
        values.extend(_bindable(item, f"{where}.value[{i}]") for i, item in enumerate(value))
        return f"{target} IN ({', '.join([mark] * len(value))})"
    if isinstance(value, dict | list):
        raise _invalid(f"{where}.value", f"{where}.value must be a plain value", "expected scalar")
    values.append(_bindable(value, f"{where}.value"))
    return f"{target} {'LIKE' if op == 'like' else op} {mark}"


def _orders(allowed: _Columns, order_by: list[Any], names: list[str]) -> list[str]:
    """ORDER BY terms: a column of the table, or the alias of an aggregate the query selects."""
    orders = []
    for index, order in enumerate(order_by):
        if not isinstance(order, dict):
            raise _invalid(f"order_by[{index}]", f"order_by[{index}] must be {{column, direction}}", "expected object")
        name = order.get("column", "")
        is_alias = name in names and name not in allowed.names
        quoted = quote_identifier(name) if is_alias else allowed.quoted(name, f"order_by[{index}].column")
        orders.append(f"{quoted} {'DESC' if order.get('direction') == 'desc' else 'ASC'}")
    return orders


def checked_sql(store: Store, text: str) -> str:
    """``text`` if it reads as one SELECT of this session's tables with allowed functions.

    The first, friendly line: it names what is wrong and what to do. The wall is the database (the
    session's own file or role), which runs the text as given.
    """
    dialect = "postgres" if store.postgres else "sqlite"
    try:
        statements = [s for s in sqlglot.parse(text, read=dialect) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"sql does not parse: {str(exc).splitlines()[0]}",
            details={"invalid": {"sql": "unparseable"}},
        ) from None
    if len(statements) != 1 or not isinstance(statements[0], exp.Select | exp.Union):
        raise ProtocolError(
            "PERMISSION_DENIED",
            "sql must be exactly one SELECT statement",
            details={"permission": "dataset.query", "statements": len(statements)},
            suggestion=["use the structured query fields for anything else"],
        )
    tree = statements[0]
    writes = [
        node
        for node in tree.walk()
        if isinstance(
            node, exp.Into | exp.Insert | exp.Update | exp.Delete | exp.Create | exp.Drop | exp.Command | exp.Lock
        )
    ]
    unknown = sorted({node.name.lower() for node in tree.find_all(exp.Anonymous)} - ALLOWED_FUNCTIONS)
    if writes or unknown:
        raise ProtocolError(
            "PERMISSION_DENIED",
            "sql may only read data, with the functions of the allow-list",
            details={"permission": "dataset.query", "refused": unknown or "a write"},
            suggestion=[f"allowed functions: {', '.join(sorted(ALLOWED_FUNCTIONS))}"],
        )
    _check_names(tree, set(store.tables()))
    return text


def _check_names(tree: exp.Expression, mine: set[str]) -> None:
    """Every table is one of ``mine`` or a WITH query in scope, and no name or type is the catalogue's."""
    for cast in tree.find_all(exp.DataType):
        if _is_catalogue(cast):
            raise ProtocolError(
                "PERMISSION_DENIED",
                f"sql may not cast to the catalogue's types ({cast.sql(dialect='postgres')!r})",
                details={"permission": "dataset.query", "catalogue": cast.sql(dialect="postgres")},
                suggestion=["cast to text, numeric, boolean or date"],
            )
    for node in _relations(tree):
        if _is_catalogue(node):
            raise ProtocolError(
                "PERMISSION_DENIED",
                f"sql may not read the database's catalogue ({node.sql()!r})",
                details={"permission": "dataset.query", "catalogue": node.sql(), "tables": sorted(mine)},
                suggestion=[
                    "list the tables with dataset.list-tables",
                    "read a table's columns with dataset.describe-table",
                ],
            )
        if node.db or node.catalog or node.name not in mine:
            raise ProtocolError(
                "PERMISSION_DENIED",
                f"sql may read only this session's tables, not {node.sql()!r}",
                details={"permission": "dataset.query", "table": node.sql(), "tables": sorted(mine)},
                suggestion=["list them with dataset.list-tables"],
            )


def _relations(tree: exp.Expression) -> list[exp.Table]:
    """Every table the statement names, except those that name a WITH query in their own scope: a
    WITH query is seen only inside the statement that defines it (and its subqueries), so one name
    defined in one subquery says nothing about the same name elsewhere."""
    try:
        scopes = traverse_scope(tree)
    except OptimizeError as exc:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"sql could not be read: {str(exc).splitlines()[0]}",
            details={"invalid": {"sql": "unresolvable"}},
        ) from None
    with_queries = {
        id(table)
        for scope in scopes
        for table in scope.tables
        if not table.db and isinstance(source := scope.sources.get(table.alias_or_name), Scope) and source.is_cte
    }
    return [node for node in tree.find_all(exp.Table) if id(node) not in with_queries]


def _is_catalogue(node: exp.Table | exp.DataType) -> bool:
    """A relation or a type of the database's own catalogue (``pg_class``, ``information_schema.tables``,
    ``sqlite_master``), or a cast that names catalogue objects (``5::regnamespace``): each would list
    what other sessions hold. The database lets every role read its catalogue, so the check refuses it."""
    if isinstance(node, exp.DataType):
        spelled = node.sql(dialect="postgres").lower().replace('"', "")
        return "." in spelled or spelled.startswith("reg")
    return any(part.lower().startswith(CATALOGUE_PREFIXES) for part in (node.catalog, node.db, node.name))
