"""The file.* operations: their parameters, manuals and handlers, over the session's workspace
(``files`` says which paths and sizes it takes)."""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import shutil
from pathlib import Path
from typing import Any

from django.core.files.storage import FileSystemStorage

from agents.operations.files import (
    MAX_FILE_BYTES,
    check_room,
    existing_file,
    file_exists,
    move_in,
    overwrite_risk,
    safe_name,
    stat,
    storage_for,
    store_bytes,
    workspace_root,
)
from agents.operations.uploads import CHUNK_BYTES, existing_staged, staged_path, upload_limit_bytes
from agents.sap import Call, ErrorDoc, Example, Operation, Param, format_block
from protocol.errors import ProtocolError, already_exists

ENCODINGS = ("utf-8", "base64")

PATH = Param(
    "string",
    "a path relative to the session's workspace, e.g. reports/q1.md",
    required=True,
    min_length=1,
    max_length=1024,
)
OUTSIDE = ErrorDoc("PATH_OUTSIDE_WORKSPACE", "The path leads outside the workspace.", "Use a relative path inside it.")
NOT_FOUND = ErrorDoc("RESOURCE_NOT_FOUND", "No file at that path.", "List the workspace with file.list.")
TOO_BIG = ErrorDoc("LIMIT_EXCEEDED", "The file or the workspace would be too large.", "Write less, or delete files.")
EXISTS = ErrorDoc("RESOURCE_ALREADY_EXISTS", "A file is there already.", "Set overwrite (needs approval) or append.")


def _decode(content: str, encoding: str) -> bytes:
    if encoding == "base64":
        try:
            return base64.b64decode(content, validate=True)
        except ValueError:
            raise ProtocolError(
                "VALIDATION_FAILED", "content is not valid base64", details={"invalid": {"content": "expected base64"}}
            ) from None
    return content.encode("utf-8")


def _read(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    storage, name = existing_file(call.context.session_id, params["path"])
    with storage.open(name, "rb") as handle:
        handle.seek(params["offset"])
        data = handle.read(params["length"]) if params.get("length") else handle.read(MAX_FILE_BYTES)
    size = storage.size(name)
    if params["encoding"] == "base64":
        content = base64.b64encode(data).decode()
    else:
        try:
            content = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"{name!r} is not UTF-8 text (or the range cuts a character)",
                details={"invalid": {"encoding": "the file is binary"}},
                suggestion=['read it with "encoding": "base64"'],
            ) from None
    return {
        "path": name,
        "encoding": params["encoding"],
        "content": content,
        "size": size,
        "offset": params["offset"],
        "length": len(data),
        "truncated": params["offset"] + len(data) < size,
    }


def _write(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    session_id = call.context.session_id
    name = safe_name(session_id, params["path"])
    storage = storage_for(session_id)
    exists = storage.exists(name)
    if exists and Path(storage.path(name)).is_dir():
        raise already_exists("FOLDER", None, f"{name!r} is a folder")
    if exists and not (params["append"] or params["overwrite"]):
        raise file_exists(name, "write to another path", 'set "append": true')
    replacing = storage.size(name) if exists else 0
    if params.get("staged") is not None:
        return _move_staged(call, params, storage, name, exists=exists)
    data = _decode(_content_of(params), params["encoding"])
    if exists and params["append"]:
        with storage.open(name, "rb") as handle:
            data = handle.read() + data
    check_room(session_id, len(data), replacing=replacing)
    store_bytes(storage, name, data)
    return {
        "status": "success",
        **stat(storage, name),
        "sha256": hashlib.sha256(data).hexdigest(),
        "created": not exists,
    }


def _content_of(params: dict[str, Any]) -> str:
    content = params.get("content")
    if content is None:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "file.write needs content (or staged, the token of an upload)",
            details={"missing": ["content"]},
            suggestion=['send {"path": …, "content": …}'],
        )
    return str(content)


def _move_staged(
    call: Call, params: dict[str, Any], storage: FileSystemStorage, name: str, *, exists: bool
) -> dict[str, Any]:
    """The upload ``staged`` names, moved into the workspace as ``name`` (the caller's checks passed)."""
    if params.get("content") is not None or params["append"]:
        raise ProtocolError(
            "VALIDATION_FAILED",
            "an upload (staged) is written whole: no content, no append",
            details={"invalid": {"staged": "given with content or append"}},
        )
    source = existing_staged(params["staged"])
    size = source.stat().st_size
    replacing = storage.size(name) if exists else 0
    check_room(call.context.session_id, size, replacing=replacing, limit=upload_limit_bytes())
    digest = _sha256_of(source)
    move_in(storage, name, source)
    return {"status": "success", **stat(storage, name), "sha256": digest, "created": not exists}


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def _release_staged(params: dict[str, Any]) -> None:
    if isinstance(params.get("staged"), str):
        staged_path(params["staged"]).unlink(missing_ok=True)


def _recorded_write(body: dict[str, Any]) -> dict[str, Any]:
    """The record of a write: the file's name, and of its content only the size and sha256."""
    kept = {key: value for key, value in body.items() if key != "content"}
    content = body.get("content")
    if isinstance(content, str):
        try:
            data = _decode(content, str(body.get("encoding", "utf-8")))
        except ProtocolError:
            data = content.encode("utf-8", "surrogatepass")
        kept["content"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return kept


def _list(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    root = workspace_root(call.context.session_id)
    storage = storage_for(call.context.session_id)
    candidates = root.rglob("*") if params["recursive"] else root.glob("*")
    entries: list[str | dict[str, Any]] = []
    for path in sorted(candidates):
        if not path.is_file() or path.is_symlink():
            continue
        name = path.relative_to(root).as_posix()
        if fnmatch.fnmatch(path.name, params["pattern"]) or fnmatch.fnmatch(name, params["pattern"]):
            entries.append(name if params["format"] == "bare" else stat(storage, name))
    return {"pattern": params["pattern"], "count": len(entries), "files": entries}


def _copy_or_move(call: Call, params: dict[str, Any], *, move: bool) -> dict[str, Any]:
    """A file copied or moved on disk, never read into memory (an upload may be as large as the
    upload limit); a copy must fit that limit and the quota, a move takes no room."""
    session_id = call.context.session_id
    storage, source = existing_file(session_id, params["source"])
    destination = safe_name(session_id, params["destination"])
    exists = storage.exists(destination)
    if exists and Path(storage.path(destination)).is_dir():
        raise already_exists("FOLDER", None, f"{destination!r} is a folder")
    if exists and not params["overwrite"]:
        raise file_exists(destination, "choose another destination")
    if destination != source:
        source_path = Path(storage.path(source))
        if move:
            move_in(storage, destination, source_path)
        else:
            replacing = storage.size(destination) if exists else 0
            check_room(session_id, source_path.stat().st_size, replacing=replacing, limit=upload_limit_bytes())
            Path(storage.path(destination)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source_path, storage.path(destination))
    return {"status": "success", "source": source, **stat(storage, destination)}


def _delete(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    if not params["confirm"]:
        raise ProtocolError(
            "VALIDATION_FAILED",
            'file.delete needs "confirm": true',
            details={"violations": {"confirm": "must be true"}},
        )
    storage, name = existing_file(call.context.session_id, params["path"])
    storage.delete(name)
    return {"status": "success", "deleted": name}


def _stat_op(call: Call, params: dict[str, Any]) -> dict[str, Any]:
    return stat(*existing_file(call.context.session_id, params["path"]))


def _stat_example(path: str, size: int) -> dict[str, Any]:
    """What ``stat`` says of a file, in a manual's example."""
    return {"path": path, "size": size, "modified": "2024-01-15T10:30:00+00:00"}


def _example(kind: str, name: str, body: dict[str, Any], result: dict[str, Any]) -> tuple[Example]:
    return (Example(format_block(kind, name, body, "1"), format_block("result", name, result, "1")),)


OPERATIONS = (
    Operation(
        "file.read",
        "query",
        "Read a file of the workspace, whole or a byte range.",
        _read,
        {
            "path": PATH,
            "encoding": Param("string", default="utf-8", enum=ENCODINGS),
            "offset": Param("integer", "first byte", default=0, minimum=0, maximum=2**40),
            "length": Param("integer", "bytes to read", minimum=1, maximum=MAX_FILE_BYTES),
        },
        examples=_example(
            "query",
            "file.read",
            {"path": "report.txt", "encoding": "utf-8"},
            {
                "path": "report.txt",
                "encoding": "utf-8",
                "content": "…",
                "size": 1,
                "offset": 0,
                "length": 1,
                "truncated": False,
            },
        ),
        errors=(OUTSIDE, NOT_FOUND),
    ),
    Operation(
        "file.write",
        "action",
        "Write text (or base64 bytes) to a workspace file. Overwriting needs approval. "
        "The session's log records the file's size and sha256, not its content.",
        _write,
        {
            "path": PATH,
            "content": Param(
                "string", "the file's text (or base64 bytes); required unless staged", max_length=MAX_FILE_BYTES * 2
            ),
            "encoding": Param("string", default="utf-8", enum=ENCODINGS),
            "append": Param("boolean", default=False),
            "overwrite": Param("boolean", default=False),
            "staged": Param(
                "string",
                "instead of content: the token of an upload the server staged "
                "(POST /api/sessions/<id>/files/ sends it)",
                max_length=32,
            ),
        },
        examples=_example(
            "action",
            "file.write",
            {"path": "notes/log.txt", "content": "started", "append": True},
            {"status": "success", **_stat_example("notes/log.txt", 7), "sha256": "…", "created": True},
        ),
        errors=(OUTSIDE, EXISTS, TOO_BIG),
        side_effects=True,
        risk=overwrite_risk("path"),
        recorded=_recorded_write,
        release=_release_staged,
    ),
    Operation(
        "file.list",
        "query",
        "List workspace files matching a glob pattern.",
        _list,
        {
            "pattern": Param("string", default="*", max_length=200),
            "recursive": Param("boolean", default=False),
            "format": Param("string", default="bare", enum=("bare", "detailed")),
        },
        examples=_example(
            "query",
            "file.list",
            {"pattern": "*.docx", "format": "bare"},
            {"pattern": "*.docx", "count": 1, "files": ["brief.docx"]},
        ),
    ),
    Operation(
        "file.copy",
        "action",
        "Copy a workspace file. Replacing an existing file needs approval.",
        lambda call, params: _copy_or_move(call, params, move=False),
        {"source": PATH, "destination": PATH, "overwrite": Param("boolean", default=False)},
        examples=_example(
            "action",
            "file.copy",
            {"source": "a.txt", "destination": "b.txt"},
            {"status": "success", "source": "a.txt", **_stat_example("b.txt", 1)},
        ),
        errors=(OUTSIDE, NOT_FOUND, EXISTS, TOO_BIG),
        side_effects=True,
        risk=overwrite_risk("destination"),
    ),
    Operation(
        "file.move",
        "action",
        "Move or rename a workspace file. Replacing an existing file needs approval.",
        lambda call, params: _copy_or_move(call, params, move=True),
        {"source": PATH, "destination": PATH, "overwrite": Param("boolean", default=False)},
        errors=(OUTSIDE, NOT_FOUND, EXISTS),
        side_effects=True,
        risk=overwrite_risk("destination"),
    ),
    Operation(
        "file.delete",
        "action",
        "Delete a workspace file. Irreversible: a human approves it first.",
        _delete,
        {"path": PATH, "confirm": Param("boolean", "must be true", required=True)},
        examples=_example(
            "action", "file.delete", {"path": "temp.txt", "confirm": True}, {"status": "success", "deleted": "temp.txt"}
        ),
        errors=(OUTSIDE, NOT_FOUND),
        side_effects=True,
        irreversible=True,
    ),
    Operation(
        "file.stat",
        "query",
        "Size and modification time of a workspace file.",
        _stat_op,
        {"path": PATH},
        errors=(OUTSIDE, NOT_FOUND),
    ),
)
