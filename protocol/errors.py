"""The one error model of the workbench, shared by SAP, CHAP and the HTTP/WebSocket edges.

Every error a caller can see has a code from ``CATALOGUE``; the code fixes its category and
whether retrying the same request can succeed. ``docs/errors.md`` is generated from this table.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from protocol.logs import current_request_id, log_context


class Category(StrEnum):
    VALIDATION = "validation"
    RESOURCE = "resource"
    PERMISSION = "permission"
    CONFLICT = "conflict"
    LIMIT = "limit"
    INTERNAL = "internal"
    PROTOCOL = "protocol"


@dataclass(frozen=True, slots=True)
class CodeInfo:
    category: Category
    retryable: bool
    description: str


CATALOGUE: dict[str, CodeInfo] = {
    # protocol: the text could not be read as SAP
    "INVALID_HEADER": CodeInfo(Category.PROTOCOL, False, "A line starting with @@ is not a valid block header."),
    "UNKNOWN_TYPE": CodeInfo(Category.PROTOCOL, False, "The block type is not one of the six SAP types."),
    "INVALID_NAME": CodeInfo(Category.PROTOCOL, False, "The operation name does not follow domain.action."),
    "INVALID_ID": CodeInfo(Category.PROTOCOL, False, "The block id has characters outside [A-Za-z0-9_.:-]."),
    "HEADER_TOO_LONG": CodeInfo(Category.PROTOCOL, False, "The header line is longer than the parser accepts."),
    "INVALID_JSON": CodeInfo(Category.PROTOCOL, False, "The block body is not valid JSON."),
    "BODY_NOT_OBJECT": CodeInfo(Category.PROTOCOL, False, "The block body is JSON but not an object."),
    "BODY_TOO_LARGE": CodeInfo(Category.LIMIT, False, "The block body is larger than the parser accepts."),
    "DEPTH_EXCEEDED": CodeInfo(Category.LIMIT, False, "The block body nests deeper than the parser accepts."),
    "UNTERMINATED_BLOCK": CodeInfo(Category.PROTOCOL, False, "A block was not closed by @@end before the next one."),
    "NOT_A_REQUEST": CodeInfo(Category.PROTOCOL, False, "Only query, action and describe blocks can be executed."),
    "INVALID_FRAME": CodeInfo(Category.PROTOCOL, False, "A frame is not valid JSON or has an unknown type."),
    "INVALID_REQUEST": CodeInfo(
        Category.PROTOCOL, False, "The HTTP request could not be read (body, media type, method)."
    ),
    # validation: readable, but the request is wrong
    "VALIDATION_FAILED": CodeInfo(Category.VALIDATION, False, "Parameters are missing, mistyped or out of range."),
    "INVALID_MESSAGE": CodeInfo(Category.VALIDATION, False, "A CHAP message does not follow its schema."),
    # resource
    "OPERATION_NOT_FOUND": CodeInfo(Category.RESOURCE, False, "No operation has this name."),
    "RESOURCE_NOT_FOUND": CodeInfo(Category.RESOURCE, False, "The named file, table, session or message is absent."),
    "RESOURCE_ALREADY_EXISTS": CodeInfo(Category.RESOURCE, False, "Something with this name exists already."),
    # permission
    "UNAUTHENTICATED": CodeInfo(Category.PERMISSION, False, "Sign in, or send Authorization: Bearer <agent token>."),
    "PERMISSION_DENIED": CodeInfo(Category.PERMISSION, False, "The caller lacks the permission the operation needs."),
    "SENDER_NOT_ALLOWED": CodeInfo(
        Category.PERMISSION, False, "This kind of sender may not post this payload type (docs/chap.md)."
    ),
    "APPROVAL_DENIED": CodeInfo(Category.PERMISSION, False, "A human rejected the request that needed approval."),
    "PATH_OUTSIDE_WORKSPACE": CodeInfo(Category.PERMISSION, False, "A path leads outside the session's workspace."),
    # conflict
    "CONTEXT_CONFLICT": CodeInfo(Category.CONFLICT, False, "The message was written against a superseded context."),
    "CONTEXT_UNKNOWN": CodeInfo(Category.CONFLICT, False, "The context checksum names no version of this session."),
    "ALREADY_DECIDED": CodeInfo(
        Category.CONFLICT, False, "The approval, the answer or the plan's decision was given already."
    ),
    "INVALID_STATE": CodeInfo(Category.CONFLICT, False, "The task or session is in a state that does not allow this."),
    "ROLE_MISMATCH": CodeInfo(
        Category.CONFLICT, False, "The agent does not take the role the task needs; confirm to assign it anyway."
    ),
    "DUPLICATE_MESSAGE_ID": CodeInfo(Category.CONFLICT, False, "The message_id was used for different content."),
    # limit
    "LIMIT_EXCEEDED": CodeInfo(Category.LIMIT, False, "A size, row or quota limit was reached."),
    "MESSAGE_TOO_LARGE": CodeInfo(Category.LIMIT, False, "The frame or message is larger than accepted."),
    "RATE_LIMITED": CodeInfo(Category.LIMIT, True, "Too many requests; wait and send again."),
    "TIMEOUT": CodeInfo(Category.LIMIT, True, "The operation ran past its time limit."),
    "UPSTREAM_ERROR": CodeInfo(Category.INTERNAL, True, "A server the workbench relies on (an LLM) failed."),
    # internal
    "INTERNAL_ERROR": CodeInfo(Category.INTERNAL, True, "The server failed; the request id is in its log."),
}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_request_id() -> str:
    return f"req_{uuid.uuid4().hex[:16]}"


def request_id_here() -> str:
    """The id of the HTTP request being answered (the one its log lines carry), else a new one."""
    return current_request_id() or new_request_id()


@dataclass
class ProtocolError(Exception):
    """A structured error; raise it from an operation, or return it as data."""

    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)
    suggestion: list[str] = field(default_factory=list)
    retryable: bool | None = None
    request_id: str | None = None
    timestamp: str = field(default_factory=_now)

    def __post_init__(self) -> None:
        if self.code not in CATALOGUE:
            raise ValueError(f"unknown error code {self.code!r}; add it to protocol.errors.CATALOGUE")
        if self.retryable is None:
            self.retryable = CATALOGUE[self.code].retryable

    @property
    def category(self) -> Category:
        return CATALOGUE[self.code].category

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "category": str(self.category),
            "details": self.details,
            "suggestion": self.suggestion,
            "retryable": self.retryable,
            "timestamp": self.timestamp,
            "request_id": self.request_id or new_request_id(),
        }

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def not_found(
    resource_type: str, name: str | None, message: str, *, suggestion: Iterable[str] = (), **more: Any
) -> ProtocolError:
    """RESOURCE_NOT_FOUND: what kind of thing was asked for and, when the request named it, which one;
    ``more`` adds what would help (what there is instead)."""
    return _about_resource("RESOURCE_NOT_FOUND", resource_type, name, message, suggestion, more)


def already_exists(
    resource_type: str, name: str | None, message: str, *, suggestion: Iterable[str] = (), **more: Any
) -> ProtocolError:
    """RESOURCE_ALREADY_EXISTS, with the same details as ``not_found``."""
    return _about_resource("RESOURCE_ALREADY_EXISTS", resource_type, name, message, suggestion, more)


def _about_resource(
    code: str, resource_type: str, name: str | None, message: str, suggestion: Iterable[str], more: dict[str, Any]
) -> ProtocolError:
    """The one shape of the resource errors, so that a client reads ``resource_type`` and ``resource_name``
    the same way whatever was missing or in the way."""
    details: dict[str, Any] = {"resource_type": resource_type}
    if name is not None:
        details["resource_name"] = name
    return ProtocolError(code, message, details={**details, **more}, suggestion=list(suggestion))


def internal_error(logger: logging.Logger, what: str) -> ProtocolError:
    """INTERNAL_ERROR for the exception being handled (call it in an ``except`` block): the traceback
    goes to the log under the request id the caller is given, and nothing else of it leaves."""
    request_id = request_id_here()
    with log_context(request=request_id):
        logger.exception("%s failed (request %s)", what, request_id)
    return ProtocolError(
        "INTERNAL_ERROR", "the server failed", details={"request_id": request_id}, request_id=request_id
    )


_CATALOGUE_PREAMBLE = """# Error catalogue

Every error the workbench returns (SAP blocks, CHAP acknowledgements, WebSocket frames, REST responses)
has this shape: `code, message, category, details, suggestion (list), retryable, timestamp, request_id`.
The code fixes the category and whether the same request may succeed when retried.
Generated from `protocol/errors.py` by `python -m agents.sap errors > docs/errors.md`;
a test keeps them equal.
"""


# What is refused because of who asks: (what, code and REST status, details), for docs/errors.md.
_ACCESS_REFUSALS = (
    (
        "a payload type the sender's kind may not post (an agent's `human_feedback`, `clarification_answer`, "
        '`task_proposal`; a client\'s `task_event`…; docs/chap.md, "Who may post what")',
        "`SENDER_NOT_ALLOWED` (403)",
        "`payload_type`, `sender_type`, `allowed_senders`, `allowed_payload_types`",
    ),
    (
        "an agent renaming a session, changing its state or archiving it",
        "`PERMISSION_DENIED` (403)",
        "`permission: session.manage`",
    ),
    ("an agent making a checkpoint", "`SENDER_NOT_ALLOWED` (403)", "`payload_type: checkpoint`"),
    ("removing or inviting members, unless the owner", "`PERMISSION_DENIED` (403)", "`permission: session.members`"),
    ("a viewer posting", "`PERMISSION_DENIED` (403)", "`permission: session.post`"),
)
# What is refused because of what was sent: (what, where, code and REST status), for docs/errors.md.
_INPUT_REFUSALS = (
    (
        "JSON that is not strict: `NaN`, `Infinity`, `1e999`, an integer of more than 4,300 digits",
        "frames, REST bodies",
        "`INVALID_FRAME`, `INVALID_REQUEST` (400)",
    ),
    ("a lone UTF-16 surrogate (`\\ud800`)", "frames, REST bodies", "`INVALID_FRAME`, `INVALID_REQUEST` (400)"),
    ("nesting past 64 levels", "frames, REST bodies", "`INVALID_FRAME`, `INVALID_REQUEST` (400)"),
    ("the same in a SAP block body", "SAP", "`INVALID_JSON`, `DEPTH_EXCEEDED`"),
    ("the same in a message built by the server", "`message_post`", "`INVALID_MESSAGE` (400)"),
    (
        "a message whose `in_reply_to` names no message of the session",
        "`message_post`",
        "`RESOURCE_NOT_FOUND` (404, `details.field`)",
    ),
    ("a frame over 1 MiB", "sockets", "`MESSAGE_TOO_LARGE`; over 4 MiB Daphne closes with 1009"),
    ("a body over 2.5 MB", "REST, forms", "`MESSAGE_TOO_LARGE` (413)"),
    (
        "an upload past `WORKBENCH_MAX_UPLOAD_MB`",
        "REST files, the new-session form",
        "`LIMIT_EXCEEDED` (413), before the body when `Content-Length` says so",
    ),
    ("a `resume` past the session's last message", "sockets", "`INVALID_FRAME` (`details.head_seq`)"),
    ("a frame whose handling fails on the server", "sockets", "`INTERNAL_ERROR`; the socket stays open"),
    ("a column parameter naming no column of its table, or a wildcard (`*`)", "SAP", "`VALIDATION_FAILED`"),
    ("a filter nested past 8 and/or levels", "SAP", "`VALIDATION_FAILED`"),
    ("a table wider than the database holds (PostgreSQL 1,600 columns)", "SAP", "`LIMIT_EXCEEDED`"),
    ("a heavy operation past its time, memory or answer size (docs/sap.md)", "SAP", "`TIMEOUT`, `LIMIT_EXCEEDED`"),
    ("more heavy operations than a caller may run at once or a minute", "SAP", "`RATE_LIMITED`"),
)
_SOCKET_REFUSALS = """
Sockets are refused before accept with close code 4403 (no session, not a member, a bad, revoked or
disabled agent's token), and an open one is closed with 4403 as soon as that becomes true: a token
revoked, an agent disabled, a member or agent taken out of the session. A cookie-authenticated socket
from another origin is refused with HTTP 403 before the handshake (docs/transport.md).
"""


def catalogue_markdown() -> str:
    """The catalogue as a Markdown page: docs/errors.md."""
    rows = [_CATALOGUE_PREAMBLE, "| code | category | retryable | meaning |", "| --- | --- | --- | --- |"]
    for code, info in CATALOGUE.items():
        rows.append(f"| `{code}` | {info.category} | {'yes' if info.retryable else 'no'} | {info.description} |")
    rows += [
        "",
        "## Refused for who is asking",
        "",
        "| refused | code (REST status) | details |",
        "| --- | --- | --- |",
    ]
    rows += [f"| {what} | {code} | {details} |" for what, code, details in _ACCESS_REFUSALS]
    rows += [
        "",
        "## Refused for what was sent",
        "",
        "Each gets a structured error and the connection stays usable (docs/transport.md).",
        "",
        "| refused | where | code (REST status) |",
        "| --- | --- | --- |",
    ]
    rows += [f"| {what} | {where} | {code} |" for what, where, code in _INPUT_REFUSALS]
    return "\n".join([*rows, _SOCKET_REFUSALS])
