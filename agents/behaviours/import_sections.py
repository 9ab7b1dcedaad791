"""The "Data as read" section: how each attached file was read, at a glance and open to correction.

Rows in the file against rows loaded, and why any differ; the separator, decimal mark, thousands
separator and encoding, said as guessed when the file did not state them; each column's type and role,
how many of its values were read as missing and why. The guesses also go into the report's
assumptions (each a node a person may correct) and what is missing into its uncertainties.
"""

from __future__ import annotations

from typing import Any

from agents.behaviours.analysing import Analysis, rows_read
from agents.tabular.dialect import separator_words

CORRECT_ME = "Correct me in words and I will read it again and redo what depended on it: "
ROLE_LIMIT = 60  # columns listed one by one; a wider table says how many more


def _missing_words(facts: dict[str, Any]) -> str:
    said = [f"{n} {'empty' if marker == 'empty' else repr(marker)}" for marker, n in facts["missing_markers"].items()]
    stray = facts["stray_values"]
    if stray:
        listed = ", ".join(f"{n} {word!r}" for word, n in stray.items())
        said.append(f"{sum(stray.values())} not of its type ({listed})")
    return ", ".join(said)


def _read_as(imported: dict[str, Any]) -> str:
    dialect = imported["dialect"]
    thousands = {"": "none", " ": "a space"}.get(dialect["thousands"], repr(dialect["thousands"]))
    decimal = "a comma (',')" if dialect["decimal"] == "," else "a point ('.')"
    return (
        f"Read as: separator {separator_words(dialect['separator'])}, decimal mark {decimal}, "
        f"thousands separator {thousands}, encoding {dialect['encoding']}."
    )


def _rows_line(table: str, imported: dict[str, Any] | None, rows: int) -> str:
    if imported is None:
        return f"**Table {table}: {rows:,} rows.**"
    return f"**{rows_read(imported['path'], table, imported['rows_in_file'], imported['rows_loaded'])}.**"


def table_read(analysis: Analysis, table: str) -> tuple[list[str], float]:
    """The lines about one table, and how sure the reading is."""
    schema, imported = analysis.schema(table), analysis.imports.get(table)
    lines = [_rows_line(table, imported, schema.rows)]
    confidence = 0.9
    if imported is not None:
        lines.append(_read_as(imported))
    lines += ["", "| column | type | role | missing | why missing |", "|---|---|---|---|---|"]
    described = {c["name"]: c for c in analysis.describe(table)["columns"]}
    facts = (imported or {}).get("columns", {})
    for column in schema.columns[:ROLE_LIMIT]:
        name = column["name"]
        kind = {"string": "text", "boolean": "yes/no"}.get(column["type"], column["type"])
        role = f"{column['role']} ({column['role_why']})"
        why = _missing_words(facts[name]) if name in facts else ""
        lines.append(f"| {name} | {kind} | {role} | {described[name]['null_count']:,} | {why} |")
    if len(schema.columns) > ROLE_LIMIT:
        lines.append(f"\n{len(schema.columns) - ROLE_LIMIT} more columns are in the profile below.")
    if imported is not None:
        guessed = imported["guessed"]
        lines += ["", "Guessed: " + "; ".join(guessed) + "." if guessed else "Nothing was guessed: the file is plain."]
        if imported["rows_rejected"]:
            confidence = 0.6
            shown = "; ".join(f"line {r['line']}: {r['reason']}" for r in imported["rejected"][:5])
            lines.append(f"Not loaded: {imported['rows_rejected']:,} line(s) ({shown}).")
        if guessed:
            confidence = min(confidence, 0.75)
    return lines, confidence


def data_as_read(analysis: Analysis, tables: list[str]) -> dict[str, Any]:
    """The section, for the tables the report covers."""
    lines: list[str] = []
    sure = []
    for table in tables:
        said, confidence = table_read(analysis, table)
        lines += [*said, ""]
        sure.append(confidence)
        _note(analysis, table)
    lines.append(CORRECT_ME + _examples(analysis, tables))
    return {"id": "data-as-read", "title": "Data as read", "body": "\n".join(lines), "confidence": min(sure)}


def _examples(analysis: Analysis, tables: list[str]) -> str:
    """Corrections a person might make here, said with this data's own columns."""
    columns = [c for t in tables for c in analysis.schema(t).columns]
    said = ["“the separator is ;”", "“the decimal mark is a comma”"]
    text = next((c["name"] for c in columns if c["type"] == "string" and c["role"] != "category"), None)
    said += [f"“{text} is a number”"] if text else []
    for role, words in (("measure", "an identifier"), ("identifier", "a measure")):
        named = next((c["name"] for c in columns if c["role"] == role), None)
        said += [f"“{named} is {words}”"] if named else []
    return ", ".join(said) + "."


def _note(analysis: Analysis, table: str) -> None:
    """The reading's guesses as assumptions, its gaps as uncertainties."""
    imported = analysis.imports.get(table)
    where = imported["path"] if imported else f"table {table}"
    if imported is not None:
        analysis.assumptions += [f"{where}: {guess}" for guess in imported["guessed"]]
        if imported["rows_rejected"]:
            analysis.uncertainties.append(
                {
                    "aspect": f"{imported['rows_rejected']} rows of {where} were not loaded",
                    "reason": "; ".join(f"line {r['line']}: {r['reason']}" for r in imported["rejected"][:3]),
                    "suggestion": "fix those lines and attach the file again, or name the separator",
                }
            )
    for column in analysis.schema(table).columns:
        if column["role"] in ("identifier", "constant") and column["type"] == "number":
            analysis.assumptions.append(
                f"{column['name']} in {table} is {'an identifier' if column['role'] == 'identifier' else 'a constant'}"
                f" ({column['role_why']}), so never a measure or an outcome"
            )
