"""CSV files of the workspace in and out of a session's tables."""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any

from agents.operations.datasets.rows import insert_rows, is_date, stored_as_json
from agents.operations.datasets.store import create_table, open_store, require_table, table_columns
from agents.operations.files import check_room, existing_file, file_exists, safe_name, storage_for, store_bytes
from agents.sap import Call
from protocol.errors import ProtocolError, already_exists


def infer_type(values: list[str]) -> str:
    present = [v for v in values if v != ""]
    if not present:
        return "string"
    if all(v.lower() in ("true", "false", "yes", "no") for v in present):
        return "boolean"
    try:
        if all(math.isfinite(float(v)) for v in present):
            return "number"
    except ValueError:
        pass
    if all(is_date(v) for v in present):
        return "date"
    return "string"


def convert_text(kind: str, text: str) -> str | float | bool | None:
    if text == "":
        return None
    if kind == "number":
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if kind == "boolean":
        return text.lower() in ("true", "yes")
    return text


def read_records(text: str, delimiter: str) -> list[list[str]]:
    """The rows of ``text``, or ProtocolError naming the line the csv module could not read. A field may
    hold Python's default 131,072 characters (the limit is process-wide, so it stays as it is): a
    longer text belongs in a workspace file, not a cell."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return list(reader)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            limit = csv.field_size_limit()
            raise ProtocolError(
                "LIMIT_EXCEEDED",
                f"a field on line {reader.line_num} is longer than {limit:,} characters",
                details={"line": reader.line_num, "limit_chars": limit},
                suggestion=["keep long texts in workspace files and put their paths in the table"],
            ) from None
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"line {reader.line_num} is not CSV: {exc}",
            details={"line": reader.line_num, "invalid": {"path": str(exc)}},
        ) from None


def import_csv(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    session_id = call.context.session_id
    storage, name = existing_file(session_id, params["path"])
    with storage.open(name, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode(params["encoding"])
    except (UnicodeDecodeError, LookupError) as exc:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"the file is not {params['encoding']}: {exc}",
            details={"invalid": {"encoding": params["encoding"]}},
        ) from None
    records = read_records(text.lstrip("\ufeff"), params["delimiter"])
    if not records:
        raise ProtocolError("VALIDATION_FAILED", "the file is empty", details={"invalid": {"path": "empty"}})
    header = records[0] if params["header"] else [f"column_{i + 1}" for i in range(len(records[0]))]
    body = records[1:] if params["header"] else records
    names: list[str] = []
    for index, title in enumerate(header):
        clean = re.sub(r"[^A-Za-z0-9_]", "_", title.strip()) or f"column_{index + 1}"
        clean = f"c_{clean}" if clean[0].isdigit() else clean
        while clean.lower() in (name.lower() for name in names):  # SQLite's column names ignore case
            clean += "_"
        names.append(clean)
    good, rejected = [], []
    for offset, record in enumerate(body, start=2 if params["header"] else 1):
        if len(record) != len(names):
            rejected.append({"line": offset, "reason": f"{len(record)} fields, expected {len(names)}"})
        else:
            good.append(record)
    kinds = [infer_type([row[i] for row in good]) for i in range(len(names))]
    columns = [{"name": n, "type": k, "nullable": True} for n, k in zip(names, kinds, strict=True)]
    table = params["table"]
    with open_store(session_id) as store, store.atomic():
        if table in store.tables():
            raise already_exists(
                "TABLE",
                table,
                f"table {table!r} already exists",
                suggestion=["import into another table name", f"such as '{table}_v2'"],
            )
        create_table(store, table, columns)
        insert_rows(
            store,
            table,
            table_columns(store, table),
            [[convert_text(k, v) for k, v in zip(kinds, row, strict=True)] for row in good],
        )
    return {
        "status": "success",
        "table": table,
        "columns": columns,
        "rows_loaded": len(good),
        "rows_rejected": len(rejected),
        "rejected": rejected[:50],
    }


def export_csv(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    session_id = call.context.session_id
    name = safe_name(session_id, params["path"])
    storage = storage_for(session_id)
    exists = storage.exists(name)
    if exists and not params["overwrite"]:
        raise file_exists(name, "choose another path")
    with open_store(session_id) as store:
        columns = require_table(store, params["table"])
        rows = store.execute(f"SELECT * FROM {store.qualified(params['table'])}", fetch=True)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([c["name"] for c in columns])
    for row in rows:
        writer.writerow(["" if v is None else stored_as_json(c, v) for c, v in zip(columns, row, strict=True)])
    data = out.getvalue().encode("utf-8")
    check_room(session_id, len(data), replacing=storage.size(name) if exists else 0)
    store_bytes(storage, name, data)
    return {"status": "success", "table": params["table"], "path": name, "rows": len(rows)}
