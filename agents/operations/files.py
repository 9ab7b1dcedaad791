"""file.* operations in the session's workspace, through Django's storage API.

Every path is relative to the workspace. A path is refused (PATH_OUTSIDE_WORKSPACE) when it is
absolute, holds a NUL byte or a backslash, has a ``..`` segment in any spelling (percent-encoded,
full-width), or resolves — through a symlink — to a place outside the workspace.
"""

from __future__ import annotations

import base64
import fnmatch
import posixpath
import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage

from agents.sap import ErrorDoc, Example, Operation, Param, format_block
from protocol.errors import ProtocolError

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_NAME_BYTES = 255
QUOTA_BYTES = 200 * 1024 * 1024
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


def workspace_root(session_id) -> Path:
    root = Path(settings.DATA_DIR) / "workspaces" / str(session_id)
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def storage_for(session_id) -> FileSystemStorage:
    return FileSystemStorage(location=workspace_root(session_id))


def _outside(path: str, why: str) -> ProtocolError:
    return ProtocolError(
        "PATH_OUTSIDE_WORKSPACE",
        f"{path!r} is not a path inside the session's workspace: {why}",
        details={"path": path, "reason": why},
        suggestion=["use a relative path such as reports/summary.md"],
    )


def safe_name(session_id, path: str) -> str:
    """The normalised workspace-relative name for ``path``, or PATH_OUTSIDE_WORKSPACE."""
    if "\x00" in path:
        raise _outside(path, "it contains a NUL byte")
    if "\\" in path:
        raise _outside(path, "it contains a backslash")
    spellings = {path, unquote(path), unicodedata.normalize("NFKC", path), unicodedata.normalize("NFKC", unquote(path))}
    for spelling in spellings:
        if spelling.startswith("/") or re.match(r"^[A-Za-z]:", spelling) or spelling.startswith("~"):
            raise _outside(path, "it is absolute")
        if ".." in spelling.split("/"):
            raise _outside(path, "it climbs out with ..")
    name = posixpath.normpath(path)
    if name in (".", ""):
        raise _outside(path, "it names the workspace itself")
    root = workspace_root(session_id)
    real = Path(root, name).resolve()
    if real != root and root not in real.parents:
        raise _outside(path, "it leads outside through a link")
    _check_segments(root, name)
    return name


def _check_segments(root: Path, name: str) -> None:
    """Names the file system can hold: each part at most 255 bytes, and no file used as a folder."""
    parts = name.split("/")
    for part in parts:
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"a file or folder name is at most {MAX_NAME_BYTES} bytes",
                details={"invalid": {"path": f"a part of {len(part.encode('utf-8', 'surrogatepass'))} bytes"}},
                suggestion=["use a shorter name"],
            )
    for depth in range(1, len(parts)):
        folder = "/".join(parts[:depth])
        if Path(root, folder).is_file():
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"{folder!r} is a file, so nothing can be put under it",
                details={"invalid": {"path": f"{folder!r} is a file"}},
                suggestion=[f"write next to it, e.g. {folder}_files/{parts[-1]}"],
            )


def _missing(path: str) -> ProtocolError:
    return ProtocolError(
        "RESOURCE_NOT_FOUND",
        f"no file {path!r} in the workspace",
        details={"resource_type": "FILE", "resource_name": path},
        suggestion=['send @@query:file.list with {"recursive": true} to see what is there'],
    )


def _used_bytes(session_id) -> int:
    return sum(f.stat().st_size for f in workspace_root(session_id).rglob("*") if f.is_file() and not f.is_symlink())


def check_room(session_id, adding: int, replacing: int = 0) -> None:
    if adding > MAX_FILE_BYTES:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"files are limited to {MAX_FILE_BYTES} bytes",
            details={"limit": MAX_FILE_BYTES, "size": adding},
        )
    used = _used_bytes(session_id) - replacing
    if used + adding > QUOTA_BYTES:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"the workspace quota of {QUOTA_BYTES} bytes would be exceeded",
            details={"limit": QUOTA_BYTES, "used": used, "adding": adding},
            suggestion=["delete files you no longer need"],
        )


def _decode(content: str, encoding: str) -> bytes:
    if encoding == "base64":
        try:
            return base64.b64decode(content, validate=True)
        except ValueError:
            raise ProtocolError(
                "VALIDATION_FAILED", "content is not valid base64", details={"invalid": {"content": "expected base64"}}
            ) from None
    return content.encode("utf-8")


def store_bytes(storage: FileSystemStorage, name: str, data: bytes) -> None:
    if storage.exists(name):
        storage.delete(name)
    saved = storage.save(name, ContentFile(data))
    if saved != name:  # the storage chose another name: never leave a stray copy
        storage.delete(saved)
        raise ProtocolError("INTERNAL_ERROR", f"could not write {name!r}")


def _stat(storage: FileSystemStorage, name: str) -> dict:
    return {"path": name, "size": storage.size(name), "modified": storage.get_modified_time(name).isoformat()}


def existing_file(session_id, path: str) -> tuple[FileSystemStorage, str]:
    """The storage and safe name of a file that must exist (not a folder), or the right error."""
    name = safe_name(session_id, path)
    storage = storage_for(session_id)
    if not storage.exists(name) or Path(storage.path(name)).is_dir():
        raise _missing(path)
    return storage, name


def _read(call, params):
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


def overwrite_risk(field: str):
    """The ``risk`` rule of a call that replaces a file only when told to: it needs approval when
    ``overwrite`` is set and the file named by ``params[field]`` is there (an append replaces nothing)."""

    def risk(params, context) -> str | None:
        if params.get("overwrite") and not params.get("append"):
            session_id = context.session_id
            if storage_for(session_id).exists(safe_name(session_id, params[field])):
                return f"overwrites the existing file {params[field]!r}"
        return None

    return risk


def file_exists(name: str, *instead: str) -> ProtocolError:
    """The refusal of a call that would replace ``name`` without ``overwrite``; ``instead`` are the
    other ways out this call offers."""
    return ProtocolError(
        "RESOURCE_ALREADY_EXISTS",
        f"file {name!r} exists already",
        details={"resource_type": "FILE", "resource_name": name},
        suggestion=[*instead, 'set "overwrite": true (needs approval)'],
    )


def _write(call, params):
    session_id = call.context.session_id
    name = safe_name(session_id, params["path"])
    storage = storage_for(session_id)
    data = _decode(params["content"], params["encoding"])
    exists = storage.exists(name)
    if exists and Path(storage.path(name)).is_dir():
        raise ProtocolError("RESOURCE_ALREADY_EXISTS", f"{name!r} is a folder", details={"resource_type": "FOLDER"})
    if exists and not (params["append"] or params["overwrite"]):
        raise file_exists(name, "write to another path", 'set "append": true')
    if exists and params["append"]:
        with storage.open(name, "rb") as handle:
            data = handle.read() + data
    check_room(session_id, len(data), replacing=storage.size(name) if exists else 0)
    store_bytes(storage, name, data)
    return {"status": "success", **_stat(storage, name), "created": not exists}


def _list(call, params):
    root = workspace_root(call.context.session_id)
    storage = storage_for(call.context.session_id)
    candidates = root.rglob("*") if params["recursive"] else root.glob("*")
    entries = []
    for path in sorted(candidates):
        if not path.is_file() or path.is_symlink():
            continue
        name = path.relative_to(root).as_posix()
        if fnmatch.fnmatch(path.name, params["pattern"]) or fnmatch.fnmatch(name, params["pattern"]):
            entries.append(name if params["format"] == "bare" else _stat(storage, name))
    return {"pattern": params["pattern"], "count": len(entries), "files": entries}


def _copy_or_move(call, params, *, move: bool):
    session_id = call.context.session_id
    storage, source = existing_file(session_id, params["source"])
    destination = safe_name(session_id, params["destination"])
    exists = storage.exists(destination)
    if exists and not params["overwrite"]:
        raise file_exists(destination, "choose another destination")
    with storage.open(source, "rb") as handle:
        data = handle.read()
    if not move:
        check_room(session_id, len(data), replacing=storage.size(destination) if exists else 0)
    store_bytes(storage, destination, data)
    if move:
        storage.delete(source)
    return {"status": "success", "source": source, **_stat(storage, destination)}


def _delete(call, params):
    if not params["confirm"]:
        raise ProtocolError(
            "VALIDATION_FAILED",
            'file.delete needs "confirm": true',
            details={"violations": {"confirm": "must be true"}},
        )
    storage, name = existing_file(call.context.session_id, params["path"])
    storage.delete(name)
    return {"status": "success", "deleted": name}


def _stat_op(call, params):
    return _stat(*existing_file(call.context.session_id, params["path"]))


def _example(kind, name, body, result):
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
        "Write text (or base64 bytes) to a workspace file. Overwriting needs approval.",
        _write,
        {
            "path": PATH,
            "content": Param("string", required=True, max_length=MAX_FILE_BYTES * 2),
            "encoding": Param("string", default="utf-8", enum=ENCODINGS),
            "append": Param("boolean", default=False),
            "overwrite": Param("boolean", default=False),
        },
        examples=_example(
            "action",
            "file.write",
            {"path": "notes/log.txt", "content": "started", "append": True},
            {
                "status": "success",
                "path": "notes/log.txt",
                "size": 7,
                "modified": "2024-01-15T10:30:00+00:00",
                "created": True,
            },
        ),
        errors=(OUTSIDE, EXISTS, TOO_BIG),
        side_effects=True,
        risk=overwrite_risk("path"),
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
            {
                "status": "success",
                "source": "a.txt",
                "path": "b.txt",
                "size": 1,
                "modified": "2024-01-15T10:30:00+00:00",
            },
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
