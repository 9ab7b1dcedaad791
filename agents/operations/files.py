"""The session's workspace: where its files live, and which paths and sizes it takes.

Every path is relative to the workspace. A path is refused (PATH_OUTSIDE_WORKSPACE) when it is
absolute, holds a NUL byte or a backslash, has a ``..`` segment in any spelling (percent-encoded,
full-width), or resolves — through a symlink — to a place outside the workspace. The file.*
operations (``file_operations``) and the dataset CSV import and export go through these checks.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage

from agents.operations.context import SapContext, SessionId
from protocol.errors import ProtocolError, already_exists, not_found

# A file written or read through a SAP body; uploads (``uploads``) may be larger, up to their own limit.
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_NAME_BYTES = 255


def workspace_root(session_id: SessionId) -> Path:
    root = Path(settings.DATA_DIR) / "workspaces" / str(session_id)
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def storage_for(session_id: SessionId) -> FileSystemStorage:
    return FileSystemStorage(location=workspace_root(session_id))


def _outside(path: str, why: str) -> ProtocolError:
    return ProtocolError(
        "PATH_OUTSIDE_WORKSPACE",
        f"{path!r} is not a path inside the session's workspace: {why}",
        details={"path": path, "reason": why},
        suggestion=["use a relative path such as reports/summary.md"],
    )


def safe_name(session_id: SessionId, path: str) -> str:
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


def _used_bytes(session_id: SessionId) -> int:
    return sum(f.stat().st_size for f in workspace_root(session_id).rglob("*") if f.is_file() and not f.is_symlink())


def check_room(session_id: SessionId, adding: int, replacing: int = 0, *, limit: int | None = None) -> None:
    """LIMIT_EXCEEDED when a file of ``adding`` bytes is past ``limit`` (MAX_FILE_BYTES unless given)
    or would take the workspace past its quota."""
    limit = MAX_FILE_BYTES if limit is None else limit
    if adding > limit:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"files are limited to {limit} bytes",
            details={"limit": limit, "size": adding},
        )
    used = _used_bytes(session_id) - replacing
    quota = settings.WORKSPACE_QUOTA_BYTES
    if used + adding > quota:
        raise ProtocolError(
            "LIMIT_EXCEEDED",
            f"the workspace quota of {quota} bytes would be exceeded",
            details={"limit": quota, "used": used, "adding": adding},
            suggestion=["delete files you no longer need"],
        )


def store_bytes(storage: FileSystemStorage, name: str, data: bytes) -> None:
    if storage.exists(name):
        storage.delete(name)
    saved = storage.save(name, ContentFile(data))
    if saved != name:  # the storage chose another name: never leave a stray copy
        storage.delete(saved)
        raise ProtocolError("INTERNAL_ERROR", f"could not write {name!r}")


def move_in(storage: FileSystemStorage, name: str, source: Path) -> None:
    """Move the file at ``source`` to ``name`` (replacing it): a rename, so no byte is copied."""
    target = Path(storage.path(name))
    target.parent.mkdir(parents=True, exist_ok=True)
    source.replace(target)


def stat(storage: FileSystemStorage, name: str) -> dict[str, Any]:
    return {"path": name, "size": storage.size(name), "modified": storage.get_modified_time(name).isoformat()}


def existing_file(session_id: SessionId, path: str) -> tuple[FileSystemStorage, str]:
    """The storage and safe name of a file that must exist (not a folder), or the right error."""
    name = safe_name(session_id, path)
    storage = storage_for(session_id)
    if not storage.exists(name) or Path(storage.path(name)).is_dir():
        raise not_found(
            "FILE",
            path,
            f"no file {path!r} in the workspace",
            suggestion=['send @@query:file.list with {"recursive": true} to see what is there'],
        )
    return storage, name


def overwrite_risk(field: str) -> Callable[[dict[str, Any], SapContext], str | None]:
    """The ``risk`` rule of a call that replaces a file only when told to: it needs approval when
    ``overwrite`` is set and the file named by ``params[field]`` is there (an append replaces nothing)."""

    def risk(params: dict[str, Any], context: SapContext) -> str | None:
        if params.get("overwrite") and not params.get("append"):
            session_id = context.session_id
            if storage_for(session_id).exists(safe_name(session_id, params[field])):
                return f"overwrites the existing file {params[field]!r}"
        return None

    return risk


def file_exists(name: str, *instead: str) -> ProtocolError:
    """The refusal of a call that would replace ``name`` without ``overwrite``; ``instead`` are the
    other ways out this call offers."""
    return already_exists(
        "FILE",
        name,
        f"file {name!r} exists already",
        suggestion=[*instead, 'set "overwrite": true (needs approval)'],
    )
