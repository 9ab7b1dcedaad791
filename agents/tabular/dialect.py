"""How a CSV file is written: its encoding, separator, quote, decimal mark and thousands separator,
and where its table starts. Plain Python (the standard library's ``csv.Sniffer`` and ``csv`` reader).

What the file does not say is guessed from its lines, and every guess is kept in words so the import
can say it and a person can correct it ("the separator is ;").
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from agents.tabular.column_types import sign_of, unsigned

SEPARATORS = ",;\t|"
SEPARATOR_WORDS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
SAMPLE_LINES = 200
MAX_TITLE_LINES = 5
COMMA_DECIMAL = re.compile(r"^[+-]?\d+,\d+$")
DOT_DECIMAL = re.compile(r"^[+-]?\d+\.\d+$")
GROUPED_BY_COMMA = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
GROUPED_BY_DOT = re.compile(r"^[+-]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$")
GROUPED_BY_SPACE = re.compile(r"^[+-]?\d{1,3}(?:[ \u00a0\u202f']\d{3})+(?:[.,]\d+)?$")
THREE_AFTER = re.compile(r"^[+-]?\d{1,3}[.,]\d{3}$")  # "1,234" or "1.234": a decimal or a thousand


@dataclass
class Dialect:
    """How the file is written; ``guessed`` says in words what the file did not state."""

    encoding: str = "utf-8"
    separator: str = ","
    quote: str = '"'
    decimal: str = "."
    thousands: str = ""
    guessed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, str]:
        return {
            "encoding": self.encoding,
            "separator": self.separator,
            "quote": self.quote,
            "decimal": self.decimal,
            "thousands": self.thousands,
        }


class DialectError(ValueError):
    """The file cannot be read as text in the encoding it was said to have."""


def decode(raw: bytes, encoding: str | None) -> tuple[str, str, str | None]:
    """The text, the encoding it was read in, and the guess in words (None when it was told or certain).
    A byte-order mark decides; else UTF-8 when the bytes are UTF-8, else Windows-1252 (Excel's export on
    Windows), else Latin-1, which reads any bytes."""
    if encoding:
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise DialectError(f"the file is not {encoding}: {exc}") from None
        return text.removeprefix("\ufeff"), encoding, None
    for mark, name in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if raw.startswith(mark):
            return raw[len(mark) :].decode(name, "replace"), f"{name} with a byte-order mark", None
    try:
        return raw.decode("utf-8"), "utf-8", None
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252"), "cp1252", "the encoding is Windows-1252 (cp1252): the file is not UTF-8"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1", "the encoding is Latin-1: the file is neither UTF-8 nor Windows-1252"


def records(text: str, separator: str, quote: str = '"') -> Any:
    """The csv module's reader over ``text`` (its ``line_num`` says where it is)."""
    return csv.reader(io.StringIO(text, newline=""), delimiter=separator, quotechar=quote)


def _sample(text: str) -> list[str]:
    return [line for line in text.splitlines()[:SAMPLE_LINES] if line.strip()]


def _consistency(lines: list[str], separator: str, quote: str) -> tuple[float, int]:
    """The share of the sample's lines (past a possible title) with the commonest number of fields,
    and that number: a file's separator splits every line alike, into more than one field."""
    try:
        counts = [len(r) for r in records("\n".join(lines), separator, quote)]
    except csv.Error:
        return 0.0, 0
    body = counts[MAX_TITLE_LINES:] or counts
    fields, seen = Counter(body).most_common(1)[0]
    return (seen / len(body) if fields > 1 else 0.0), fields


def sniff_separator(text: str) -> tuple[str, str]:
    """The separator and quote: ``csv.Sniffer``'s guess when it splits the lines as evenly as the best
    of the usual separators, else that best one (more fields win a tie)."""
    lines = _sample(text)
    if not lines:
        return ",", '"'
    scored = {s: _consistency(lines, s, '"') for s in SEPARATORS}
    best = max(SEPARATORS, key=lambda s: scored[s])
    try:
        sniffed = csv.Sniffer().sniff("\n".join(lines[:50]), delimiters=SEPARATORS)
    except csv.Error:
        return best, '"'
    quote = sniffed.quotechar if sniffed.quotechar in ("'", '"') else '"'
    own = _consistency(lines, sniffed.delimiter, quote)
    if sniffed.delimiter in SEPARATORS and own >= scored[best]:
        return sniffed.delimiter, quote
    return best, '"'


def number_marks(values: list[str], separator: str) -> tuple[str, str]:
    """The decimal mark and the thousands separator the values use: a comma decimal wins when more
    values read unambiguously so ("3,5", "12,75") than as dot decimals; a thousands separator when some
    value groups its digits by threes ("1,234,500", "1.234,5", "1 234")."""
    values = [unsigned(v, sign_of([v])) for v in values]  # "$1,234", "4.98%": the marks of the number inside
    # With a comma separator an unquoted decimal comma would split its field: a quoted "1,234" is a thousand.
    unambiguous = (v for v in values if COMMA_DECIMAL.match(v) and not THREE_AFTER.match(v))
    commas = 0 if separator == "," else sum(1 for _ in unambiguous)
    dots = sum(1 for v in values if DOT_DECIMAL.match(v) and not THREE_AFTER.match(v))
    decimal = "," if commas > dots else "."
    grouped, mark = (GROUPED_BY_DOT, ".") if decimal == "," else (GROUPED_BY_COMMA, ",")
    if any(grouped.match(v) for v in values):
        return decimal, mark
    if any(GROUPED_BY_SPACE.match(v) for v in values):
        return decimal, " "
    return decimal, ""


def title_lines(rows: list[list[str]], fields: int) -> int:
    """How many lines above the header are a title ("Sales report 2024", then the table): lines with
    at most one filled field when the table has several."""
    skipped = 0
    for row in rows[:MAX_TITLE_LINES]:
        if fields > 1 and sum(1 for v in row if v.strip()) <= 1:
            skipped += 1
        else:
            break
    return skipped


def separator_words(separator: str) -> str:
    return f"{SEPARATOR_WORDS.get(separator, repr(separator))} ({separator!r})"
