"""A CSV file read into typed columns, every line accounted for. Plain Python.

The dialect is sniffed (dialect.py) unless told, the columns typed (column_types.py), and the result
says how many rows the file has and how many were loaded, and why any differ: blank lines skipped, a
title above the header, empty columns at the right (Excel's habit), a line with too many fields.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from typing import Any

from agents.tabular.column_types import TypedColumn, missing_marker, type_column
from agents.tabular.dialect import (
    Dialect,
    decode,
    number_marks,
    records,
    separator_words,
    sniff_separator,
    title_lines,
)


@dataclass(frozen=True)
class ReadOptions:
    """What a caller (or a person's correction) says about the file; None leaves it to the sniffing."""

    separator: str | None = None
    encoding: str | None = None
    decimal: str | None = None
    thousands: str | None = None
    header: bool = True
    types: dict[str, str] = field(default_factory=dict)  # column name -> type a person named


@dataclass
class ReadTable:
    dialect: Dialect
    columns: list[TypedColumn]
    rows_in_file: int
    blank_lines: int = 0
    title: list[str] = field(default_factory=list)  # the lines above the header that were a title
    dropped_columns: int = 0
    rejected: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rows_loaded(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    def rows(self) -> list[list[Any]]:
        return [list(row) for row in zip(*(c.values for c in self.columns), strict=True)]

    def notes(self) -> list[str]:
        """Everything the reading guessed or did to the file's lines, in words."""
        said = list(self.dialect.guessed)
        if self.title:
            said.append(f"skipped {len(self.title)} title line(s) above the header: {' / '.join(self.title)[:200]}")
        if self.dropped_columns:
            said.append(f"left out {self.dropped_columns} empty column(s) with no name at the right")
        if self.blank_lines:
            said.append(f"skipped {self.blank_lines} blank line(s)")
        said += [c.guessed for c in self.columns if c.guessed]
        return said


class ReadError(ValueError):
    """The file cannot be read as a table: empty, not text in the encoding named, or not CSV at ``line``."""

    def __init__(self, message: str, line: int | None = None, *, too_long: bool = False):
        super().__init__(message)
        self.line, self.too_long = line, too_long


def clean_names(titles: list[str]) -> list[str]:
    """Column names the tables accept: letters, digits and underscores, each once whatever its case
    (SQLite's column names ignore case, so ``Region`` beside ``region`` becomes ``Region_``)."""
    names: list[str] = []
    for index, title in enumerate(titles):
        clean = re.sub(r"[^A-Za-z0-9_]", "_", title.strip()) or f"column_{index + 1}"
        clean = f"c_{clean}" if clean[0].isdigit() else clean
        while clean.lower() in (name.lower() for name in names):
            clean += "_"
        names.append(clean)
    return names


def _dialect(text: str, options: ReadOptions, encoding: str, encoding_guess: str | None) -> Dialect:
    dialect = Dialect(encoding=encoding)
    if encoding_guess:
        dialect.guessed.append(encoding_guess)
    if options.separator:
        dialect.separator = options.separator
    else:
        dialect.separator, dialect.quote = sniff_separator(text)
        if dialect.separator != ",":
            dialect.guessed.append(f"the separator is {separator_words(dialect.separator)}")
    return dialect


def _marks(dialect: Dialect, body: list[list[str]], options: ReadOptions) -> None:
    cells = [v.strip() for row in body[:2000] for v in row if missing_marker(v) is None]
    decimal, thousands = number_marks(cells, dialect.separator)
    dialect.decimal = options.decimal or decimal
    dialect.thousands = options.thousands if options.thousands is not None else thousands
    if options.decimal is None and decimal != ".":
        dialect.guessed.append(f"the decimal mark is a comma ({decimal!r}): numbers such as 3,5 are read as 3.5")
    if options.thousands is None and thousands:
        example = {",": "1,234,500", ".": "1.234.500", " ": "1 234 500"}[thousands]
        dialect.guessed.append(f"{example} is read as one number: {thousands!r} separates thousands")


def _records(text: str, dialect: Dialect) -> list[tuple[int, list[str]]]:
    """Each record with the line it ends on (a quoted field may span lines)."""
    reader = records(text, dialect.separator, dialect.quote)
    numbered = []
    try:
        for row in reader:
            numbered.append((reader.line_num, row))
    except csv.Error as exc:
        too_long = "field larger than field limit" in str(exc)
        raise ReadError(f"line {reader.line_num} is not CSV: {exc}", reader.line_num, too_long=too_long) from None
    return numbered


def read_table(raw: bytes, options: ReadOptions) -> ReadTable:
    """The file's table, typed; ReadError when there is none."""
    try:
        text, encoding, guess = decode(raw, options.encoding)
    except ValueError as exc:
        raise ReadError(str(exc)) from None
    dialect = _dialect(text, options, encoding, guess)
    numbered = _records(text, dialect)
    filled = [(line, row) for line, row in numbered if any(v.strip() for v in row)]
    if not filled:
        raise ReadError("the file is empty")
    widths = [len(row) for _, row in filled]
    title = title_lines([row for _, row in filled], max(set(widths), key=widths.count)) if options.header else 0
    header = filled[title][1] if options.header else [f"column_{i + 1}" for i in range(len(filled[0][1]))]
    first = filled[title][0] if options.header else 0
    width = len(header)
    while width > 1 and not header[width - 1].strip():
        width -= 1  # Excel's empty columns at the right: no name, and (checked below) no value
    table = ReadTable(dialect, [], rows_in_file=sum(1 for line, _ in filled if line > first))
    table.title = [" ".join(v for v in row if v.strip()) for _, row in filled[:title]]
    body: list[list[str]] = []
    for line, row in numbered:
        if line <= first:
            continue
        if not any(v.strip() for v in row):
            table.blank_lines += 1
        elif len(row) < width or any(v.strip() for v in row[width:]):
            table.rejected.append({"line": line, "reason": f"{len(row)} fields, expected {width}"})
        else:
            body.append(row[:width])
    table.dropped_columns = len(header) - width
    _marks(dialect, body, options)
    day_first = dialect.separator != "," or dialect.decimal == ","
    names = clean_names(header[:width])
    table.columns = [
        type_column(
            name,
            title.strip(),
            [row[index] for row in body],
            decimal=dialect.decimal,
            thousands=dialect.thousands,
            day_first=day_first,
            told=options.types.get(name),
        )
        for index, (name, title) in enumerate(zip(names, header[:width], strict=True))
    ]
    return table
