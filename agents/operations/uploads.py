"""Uploads on their way into a workspace (the new-session form, REST's files route, staffing).

An upload's bytes go to a file under DATA_DIR/uploads as they arrive, counted against the one limit
(``WORKBENCH_MAX_UPLOAD_MB``), so memory stays flat whatever the file's size and an upload past the
limit stops at the first chunk past it. ``file.write`` with ``staged`` then moves the file into the
workspace (a rename, same disk): the caller's own write, with its rights, approvals and audit record,
which names the file, its size and its sha256, never its bytes.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from protocol.errors import ProtocolError, not_found

CHUNK_BYTES = 1024 * 1024
_TOKEN = re.compile(r"[0-9a-f]{32}")


def upload_limit_bytes() -> int:
    return int(settings.MAX_UPLOAD_BYTES)


def too_large(size: int | None = None) -> ProtocolError:
    """LIMIT_EXCEEDED for an upload past the limit; ``size`` when it is known (a declared length)."""
    limit = upload_limit_bytes()
    megabytes = limit // (1024 * 1024)
    return ProtocolError(
        "LIMIT_EXCEEDED",
        f"uploads are limited to {megabytes} MB ({limit} bytes)",
        details={"limit_bytes": limit, "limit_mb": megabytes, **({"size_bytes": size} if size is not None else {})},
        suggestion=[
            f"upload a file of at most {megabytes} MB, e.g. split it or compress it",
            "an administrator can raise WORKBENCH_MAX_UPLOAD_MB",
        ],
    )


def refuse_declared(length: int | None) -> None:
    """Refuse, before reading a byte, a body whose declared length is past the limit."""
    if length is not None and length > upload_limit_bytes():
        raise too_large(length)


def staging_root() -> Path:
    root = Path(settings.DATA_DIR) / "uploads"
    root.mkdir(parents=True, exist_ok=True)
    return root


@dataclass(frozen=True)
class StagedUpload:
    """An upload on disk, waiting to move into a workspace; ``token`` names it to ``file.write``."""

    token: str
    size: int


class Staging:
    """One upload being written to disk; ``budget`` is what the request's uploads may still take."""

    def __init__(self, budget: int | None = None) -> None:
        self.token = secrets.token_hex(16)
        self.budget = upload_limit_bytes() if budget is None else budget
        self.size = 0
        self._file = staged_path(self.token).open("xb")

    def write(self, chunk: bytes) -> None:
        """Append ``chunk``; LIMIT_EXCEEDED (the staged bytes gone) as soon as the upload passes the limit."""
        self.size += len(chunk)
        if self.size > self.budget:
            self.discard()
            raise too_large()
        self._file.write(chunk)

    def finish(self) -> StagedUpload:
        self._file.close()
        return StagedUpload(self.token, self.size)

    def discard(self) -> None:
        self._file.close()
        staged_path(self.token).unlink(missing_ok=True)


def stage(chunks: Iterable[bytes]) -> StagedUpload:
    staging = Staging()
    try:
        for chunk in chunks:
            staging.write(chunk)
    except BaseException:
        staging.discard()
        raise
    return staging.finish()


def discard_staged(upload: StagedUpload) -> None:
    """Drop ``upload`` from the staging area, if it is still there."""
    staged_path(upload.token).unlink(missing_ok=True)


def staged_path(token: str) -> Path:
    """The staged file ``token`` names (it may not exist); a token that is not one of ours is refused."""
    if not _TOKEN.fullmatch(token):
        raise ProtocolError(
            "VALIDATION_FAILED",
            "staged names an upload the server staged",
            details={"invalid": {"staged": "not an upload token"}},
            suggestion=["upload the file with POST /api/sessions/<id>/files/?path=…"],
        )
    return staging_root() / token


def existing_staged(token: str) -> Path:
    path = staged_path(token)
    if not path.is_file():
        raise not_found(
            "UPLOAD",
            token,
            "that upload is no longer staged (it was moved into a workspace or discarded)",
            suggestion=["upload the file again"],
        )
    return path
