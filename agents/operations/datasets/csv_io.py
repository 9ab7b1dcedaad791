"""CSV files of the workspace in and out of a session's tables."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from agents.operations.datasets.columnar import in_chunks, write_copy
from agents.operations.datasets.csv_stream import StreamedCopy, streamed_read
from agents.operations.datasets.import_pace import Pace, Progress, loading, reading
from agents.operations.datasets.rows import insert_rows, stored_as_json
from agents.operations.datasets.store import TYPES, create_table, open_store, require_table, table_columns, table_source
from agents.operations.files import check_room, existing_file, file_exists, safe_name, storage_for, store_bytes
from agents.sap import Call
from agents.tabular.reading import ReadError, ReadOptions, ReadTable, read_table
from protocol.errors import ProtocolError, already_exists


def _options(params: dict[str, Any]) -> ReadOptions:
    return ReadOptions(
        separator=params.get("delimiter"),
        encoding=params.get("encoding"),
        decimal=params.get("decimal"),
        thousands=params.get("thousands"),
        header=params["header"],
        types=params.get("types") or {},
    )


def _read_error(error: ReadError) -> ProtocolError:
    if error.too_long:
        limit = csv.field_size_limit()
        return ProtocolError(
            "LIMIT_EXCEEDED",
            f"a field on line {error.line} is longer than {limit:,} characters",
            details={"line": error.line, "limit_chars": limit},
            suggestion=["keep long texts in workspace files and put their paths in the table"],
        )
    where = {"line": error.line} if error.line else {}
    return ProtocolError(
        "VALIDATION_FAILED",
        str(error),
        details={**where, "invalid": {"path": str(error)}},
        suggestion=["name the separator or the encoding if the guess was wrong"],
    )


def _check_types(types: dict[str, Any], names: list[str]) -> None:
    bad = {name: kind for name, kind in types.items() if name not in names or kind not in TYPES}
    if bad:
        raise ProtocolError(
            "VALIDATION_FAILED",
            f"types names columns the file does not have, or types other than {', '.join(TYPES)}",
            details={"invalid": {f"types.{name}": str(kind) for name, kind in bad.items()}, "columns": names},
            suggestion=[f"types such as {{{names[0]!r}: 'number'}}" if names else "name a column of the file"],
        )


def import_csv(call: Call, params: dict[str, Any]) -> Progress[dict[str, Any]]:
    """The file read as a careful analyst reads it (agents/tabular/), loaded into a new table; with
    ``replace``, over a table that was imported from the same file (a re-import after a correction).
    A big file is streamed (``csv_stream``): its head read carefully, the whole by DuckDB, saying how
    far it is as it goes (``import_pace``)."""
    session_id = call.context.session_id
    storage, name = existing_file(session_id, params["path"])
    path, pace = Path(storage.path(name)), Pace()
    try:
        streamed = yield from reading(
            lambda: streamed_read(path, lambda head: read_table(head, _options(params)), params["header"]),
            lambda found: found[1].discard() if found else None,
            path=name,
            size=path.stat().st_size,
            pace=pace,
        )
        if streamed is None:
            with storage.open(name, "rb") as handle:
                read = read_table(handle.read(), _options(params))
        else:
            read = streamed[0]
    except ReadError as error:
        raise _read_error(error) from None
    staged = streamed[1] if streamed else None
    try:
        result = yield from _load(session_id, params, name, read, staged, pace)
    finally:
        if staged is not None:
            staged.discard()
    return result


def _load(
    session_id: Any, params: dict[str, Any], name: str, read: ReadTable, staged: StreamedCopy | None, pace: Pace
) -> Progress[dict[str, Any]]:
    """The read file into the SQL store and the statistics' copy."""
    _check_types(params.get("types") or {}, [c.name for c in read.columns])
    columns = [{"name": c.name, "type": c.type, "nullable": True} for c in read.columns]
    table = params["table"]
    with open_store(session_id) as store, store.atomic():
        if table in store.tables():
            if not params["replace"] or table_source(store, table) != name:
                raise already_exists(
                    "TABLE",
                    table,
                    f"table {table!r} already exists"
                    + (f" and is not a copy of {name!r}" if params["replace"] else ""),
                    suggestion=["import into another table name", f"such as '{table}_v2'"],
                )
            store.execute(f"DROP TABLE {store.qualified(table)}")
        create_table(store, table, columns, source=name)
        declared = table_columns(store, table)
        if staged is None:
            insert_rows(store, table, declared, read.rows())
        else:
            done = 0
            for chunk in staged.chunks():
                insert_rows(store, table, declared, chunk)
                done += len(chunk)
                if pace.due(done / staged.rows):
                    yield loading(path=name, table=table, done=done, total=staged.rows)
    if staged:
        staged.install(store.hex, table)
    else:
        write_copy(store.hex, table, columns, in_chunks(read.rows()))  # the statistics' copy, ready at once
    loaded = staged.rows if staged else read.rows_loaded
    return {
        "status": "success",
        "table": table,
        "path": name,
        "columns": [{**column, **c.facts()} for column, c in zip(columns, read.columns, strict=True)],
        "rows_in_file": staged.rows if staged else read.rows_in_file,
        "rows_loaded": loaded,
        "rows_rejected": len(read.rejected),
        "rejected": read.rejected[:50],
        "dialect": read.dialect.as_dict(),
        "guessed": read.notes(),
        **({"streamed": {"facts_from_first_rows": read.rows_loaded}} if staged else {}),
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
