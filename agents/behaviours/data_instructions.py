"""What a person says about how a file was read and what its columns are (plain Python): "the
separator is ;", "decimal commas", "Price is a number", "Subject is an identifier".

Each becomes a setting the analyst carries from report to report:

- ``reading``: ``{table: {"separator": ";", "decimal": ",", "thousands": "", "types": {column: type}}}``,
  how to import the table's file again;
- ``roles``: ``{table: {column: role}}``, the roles a person named (agents/analysis/column_roles.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

from agents.analysis.column_roles import ROLES

SEPARATORS = {"semicolon": ";", "comma": ",", "tab": "\t", "pipe": "|", "vertical bar": "|", "bar": "|"}
MARK_WORDS = r"semicolons?|commas?|tabs?|pipes?|vertical bars?|bars?|[;,|]"
SEPARATOR = re.compile(
    rf"\b(?:separator|delimiter|separated|delimited|split)\b\W*(?:(?:is|are|by|with|on|should be|must be)\s+)*"
    rf"(?:an?\s+|the\s+)?({MARK_WORDS})(?!\w)"
    rf"|\b({MARK_WORDS})[- ](?:separated|delimited)\b",
    re.I,
)
DECIMAL = re.compile(
    r"\bdecimal(?:\s+(?:mark|point|separator|sign))?s?\s+(?:(?:is|are|should be)\s+)?(?:an?\s+|the\s+)?"
    r"(commas?|points?|dots?|periods?|[.,])(?!\w)|\b(comma|point|dot)\s+decimals?\b|\bdecimal\s+(commas?)\b",
    re.I,
)
THOUSANDS = re.compile(
    r"\bthousands?(?:\s+(?:separator|mark)s?)?\s+(?:(?:is|are|should be)\s+)?(?:an?\s+|the\s+)?"
    r"(commas?|points?|dots?|periods?|spaces?|none|nothing|[.,])(?!\w)",
    re.I,
)
TYPE_WORDS = {
    "number": "number", "numbers": "number", "numeric": "number", "a number": "number", "numerical": "number",
    "text": "string", "a text": "string", "string": "string", "a string": "string", "date": "date", "a date": "date",
    "dates": "date", "yes/no": "boolean", "boolean": "boolean", "a boolean": "boolean",
}  # fmt: skip
ROLE_WORDS = {
    "identifier": "identifier", "identifiers": "identifier", "id": "identifier", "ids": "identifier",
    "category": "category", "categories": "category", "categorical": "category", "group": "category",
    "grouping": "category", "groups": "category", "factor": "category", "measure": "measure",
    "outcome": "measure", "measurement": "measure", "weight": "weight", "weights": "weight", "time": "time",
    "yes/no": "yes/no", "text": "text", "constant": "constant", "label": "identifier",
}  # fmt: skip
IS = r"\s+(?:is|are|should be|must be|means|as)\s+(?:(?:an?|the|just|only|really)\s+)*"


class Named(Protocol):
    """A column as instructions name it (instructions.Column)."""

    @property
    def table(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def type(self) -> str: ...


def _mark(word: str) -> str:
    word = word.lower().rstrip("s") if len(word) > 1 else word
    return SEPARATORS.get(
        word, {"point": ".", "dot": ".", "period": ".", "space": " ", "none": "", "nothing": ""}.get(word, word)
    )


def _tables(clause: str, columns: Sequence[Named], settings: dict[str, Any]) -> list[str]:
    """The tables read from a file that a clause about the file means: those it names, else every one."""
    tables = sorted({c.table for c in columns} & set(settings["reading"]))
    named = [t for t in tables if re.search(rf"(?<!\w){re.escape(t).replace('_', '[ _]')}(?!\w)", clause, re.I)]
    return named or tables


def file_options(clause: str, columns: Sequence[Named], settings: dict[str, Any]) -> list[str]:
    """The separator, decimal mark and thousands separator a clause names, set on its tables."""
    done = []
    for pattern, key, words in (
        (SEPARATOR, "separator", "separator"),
        (DECIMAL, "decimal", "decimal mark"),
        (THOUSANDS, "thousands", "thousands separator"),
    ):
        found = pattern.search(clause)
        if not found:
            continue
        mark = _mark(next(g for g in found.groups() if g))
        if key == "decimal" and mark not in (".", ","):
            continue
        shown = {"\t": "tab", "": "none", " ": "a space"}.get(mark, repr(mark))
        for table in _tables(clause, columns, settings):
            reading = settings["reading"][table]
            if reading.get(key) == mark:
                done.append(f"kept the {words} {shown} for the file of {table}, as before")
                continue
            reading[key] = mark
            if key == "separator":  # the numbers' marks are sniffed again, unless the clause names them too
                for sniffed in ("decimal", "thousands"):
                    reading.pop(sniffed, None)
            if key == "decimal" and reading.get("thousands") == mark:  # one mark cannot be both
                reading["thousands"] = "." if mark == "," else ""
            done.append(f"read the file of {table} again with the {words} {shown}")
    return done


def _said_columns(clause: str, columns: Sequence[Named]) -> list[tuple[Named, str]]:
    """The columns a clause names, each with what the clause says it is."""
    found = []
    for column in columns:
        spoken = re.escape(column.name).replace("_", "[ _]")
        match = re.search(rf"(?<![\w]){spoken}(?![\w])({IS}|\s+)([\w/]+(?:\s+\w+)?)", clause, re.I)
        if match:
            found.append((column, match.group(2).lower()))
    return found


def column_facts(clause: str, columns: Sequence[Named], settings: dict[str, Any]) -> list[str]:
    """ "Price is a number" (a type: the file is read again), "Subject is an identifier" (a role)."""
    done = []
    for column, said in _said_columns(clause, columns):
        words = said.split()
        kind = TYPE_WORDS.get(said) or TYPE_WORDS.get(words[0])
        role = ROLE_WORDS.get(words[0]) or (ROLE_WORDS.get(words[-1]) if len(words) > 1 else None)
        if kind and kind != column.type and not (kind == "number" and role == "measure"):
            types = settings["reading"].setdefault(column.table, {}).setdefault("types", {})
            types[column.name] = kind
            shown = "yes/no" if kind == "boolean" else "text" if kind == "string" else kind
            done.append(f"read {column.name} in {column.table} as {shown} again from the file")
        elif role in ROLES:
            settings["roles"].setdefault(column.table, {})[column.name] = role
            done.append(f"took {column.name} in {column.table} as {_role_words(role)} from now on")
    return done


def _role_words(role: str) -> str:
    return {"identifier": "an identifier, never a measure", "yes/no": "a yes/no column"}.get(role, f"a {role}")
