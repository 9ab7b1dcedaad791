"""What dataset SQL may name and call: the wall's rules, kept once for the store and the compiler.

The store enforces them (SQLite's authorizer; PostgreSQL's reader role), and the compiler checks
a raw query against the same lists first, for a friendly error.
"""

from __future__ import annotations

import sqlite3

COLUMN_NAME = r"^[a-zA-Z_][a-zA-Z0-9_]*$"
# How the databases' own catalogues are named; no session table takes such a name, and dataset SQL
# may name none (PostgreSQL reads an unqualified pg_class as its catalogue's, whatever the path says).
CATALOGUE_PREFIXES = ("pg_", "information_schema", "sqlite_")
# The functions a raw query may call, by the database's own names; everything else is refused
# (by the SQLite authorizer itself, and on both databases by the friendly check first).
ALLOWED_FUNCTIONS = frozenset(
    [
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "total",
        "group_concat",
        "string_agg",
        "stddev",
        "stddev_samp",
        "stddev_pop",
        "variance",
        "var_samp",
        "var_pop",
        "percentile_cont",
        "percentile_disc",
        "mode",
        "corr",
        "covar_samp",
        "covar_pop",
        "bool_and",
        "bool_or",
        "every",
        "abs",
        "round",
        "lower",
        "upper",
        "length",
        "char_length",
        "substr",
        "substring",
        "trim",
        "ltrim",
        "rtrim",
        "replace",
        "coalesce",
        "ifnull",
        "nullif",
        "iif",
        "instr",
        "position",
        "like",
        "glob",
        "typeof",
        "sign",
        "floor",
        "ceil",
        "ceiling",
        "sqrt",
        "power",
        "pow",
        "exp",
        "ln",
        "log",
        "log10",
        "mod",
        "date",
        "time",
        "datetime",
        "julianday",
        "strftime",
        "unixepoch",
        "date_trunc",
        "date_part",
        "extract",
        "to_char",
        "age",
        "concat",
        "concat_ws",
        "left",
        "right",
        "lpad",
        "rpad",
        "greatest",
        "least",
        "row_number",
        "rank",
        "dense_rank",
        "percent_rank",
        "cume_dist",
        "ntile",
        "lag",
        "lead",
        "first_value",
        "last_value",
        "nth_value",
    ]
)


def quote_identifier(name: str) -> str:
    """SQL's own identifier quoting (an embedded quote doubled): the same rule in SQLite and PostgreSQL."""
    return '"' + name.replace('"', '""') + '"'


def sqlite_authorizer(
    action: int, first: str | None, second: str | None, database: str | None, _trigger: str | None
) -> int:
    """Only SELECT, reads in this session's own file (its tables and common table expressions; not
    its catalogue) and the allowed functions: the database, not the parser, refuses ATTACH, PRAGMA,
    writes and everything else."""
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
        return sqlite3.SQLITE_OK
    if (
        action == sqlite3.SQLITE_READ
        and database in ("main", None)
        and first is not None
        and not first.lower().startswith("sqlite_")
    ):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and second is not None and second.lower() in ALLOWED_FUNCTIONS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY
