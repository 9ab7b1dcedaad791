"""CHAP messages checked: the envelope (its payload's fields are ``payloads.PAYLOADS``), validated with
the kernel's rules, and which kind of sender may post each payload type.

A bad message is refused with ``INVALID_MESSAGE``, one class of problem at a time (missing
fields, then wrong types, then constraints), each named by its path (``payload.goal``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from protocol import strict_json
from protocol.errors import ProtocolError
from protocol.params import Param
from protocol.validation import validate_params
from sessions.chap.payloads import ID_PATTERN, PAYLOADS
from sessions.chap.traits import TRAITS

CHAP_VERSION = "1.0"
PAYLOAD_TYPES = tuple(PAYLOADS)
SENDER_TYPES = ("human", "agent", "system")
# Which kind of sender may post each payload type is one of its traits; message_post refuses the rest
# with SENDER_NOT_ALLOWED, and docs/chap.md lists the table.
SENDERS = {kind: TRAITS[kind].senders for kind in PAYLOAD_TYPES}


def payload_types_of(sender_type: str) -> tuple[str, ...]:
    """The payload types this kind of sender may post, in schema order."""
    return tuple(kind for kind in PAYLOAD_TYPES if sender_type in SENDERS[kind])


def check_sender_may_post(sender_type: str, payload_type: str) -> None:
    """ProtocolError(SENDER_NOT_ALLOWED) unless the table lets this kind of sender post this payload type."""
    allowed = SENDERS[payload_type]
    if sender_type in allowed:
        return
    raise ProtocolError(
        "SENDER_NOT_ALLOWED",
        f"{sender_type} senders may not post {payload_type} messages",
        details={
            "payload_type": payload_type,
            "sender_type": sender_type,
            "allowed_senders": sorted(allowed),
            "allowed_payload_types": list(payload_types_of(sender_type)),
        },
        suggestion=[
            f"{payload_type} is posted by: {', '.join(sorted(allowed))}",
            "see docs/chap.md, 'Who may post what'",
        ],
    )


ENVELOPE: dict[str, Param] = {
    "chap_version": Param("string", required=True, enum=(CHAP_VERSION,)),
    "session_id": Param("string", required=True, max_length=64),
    "message_id": Param("string", required=True, max_length=128, pattern=ID_PATTERN),
    "in_reply_to": Param("string", nullable=True, max_length=128, pattern=ID_PATTERN),
    "timestamp": Param("date", required=True),
    "sender": Param(
        "object",
        required=True,
        properties={
            "type": Param("string", required=True, enum=SENDER_TYPES),
            "id": Param("string", required=True, max_length=150, min_length=1),
        },
    ),
    "context_checksum": Param("string", required=True, pattern=r"[0-9a-f]{16}"),
    "payload_type": Param("string", required=True, enum=PAYLOAD_TYPES),
    "payload": Param("object", required=True),
}


# A NUL character as json.dumps writes it: \u0000 after an even number of backslashes.
NUL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")


def validate_envelope(envelope: object) -> dict[str, Any]:
    """The envelope with defaults filled in (payload included) and its numbers canonical (the form
    hashed, stored and read back alike: strict_json.canonical), or ProtocolError(INVALID_MESSAGE)."""
    if not isinstance(envelope, dict):
        raise ProtocolError(
            "INVALID_MESSAGE", "a CHAP message is a JSON object", details={"invalid": {"": "expected object"}}
        )
    try:  # what a socket or REST parser refuses, refused on the one write path too (forms, runtimes, SAP)
        canonical: dict[str, Any] = strict_json.canonical(envelope)  # numbers as every database reads them back
    except strict_json.JsonRefused as refused:
        raise ProtocolError(
            "INVALID_MESSAGE",
            f"a message must be strict JSON: {refused}" + (f" (at {refused.path})" if refused.path else ""),
            details={"invalid": {refused.path: refused.reason}},
            suggestion=["send numbers as finite numbers, text as valid Unicode, and nest less deeply"],
        ) from None
    if NUL_ESCAPE.search(json.dumps(canonical)):
        # No store keeps NUL in text (PostgreSQL's jsonb refuses it), so no message may carry one.
        raise ProtocolError(
            "INVALID_MESSAGE",
            "a message may not contain NUL characters (\\u0000)",
            details={"invalid": {"": "contains \\u0000"}},
            suggestion=["remove the NUL characters, or send binary data base64-encoded"],
        )
    checked = _validated(ENVELOPE, canonical, prefix="")
    checked["payload"] = validate_payload(checked["payload_type"], checked["payload"])
    return checked


def validate_payload(payload_type: str, payload: object) -> dict[str, Any]:
    """One payload with its defaults filled in, or ProtocolError(INVALID_MESSAGE) naming fields as ``payload.…``."""
    if not isinstance(payload, dict):
        raise ProtocolError(
            "INVALID_MESSAGE", "payload must be a JSON object", details={"invalid": {"payload": "expected object"}}
        )
    return _validated(PAYLOADS[payload_type], payload, prefix="payload.")


def _validated(params: dict[str, Param], body: dict[str, Any], *, prefix: str) -> dict[str, Any]:
    try:
        return validate_params(params, body)
    except ProtocolError as error:
        details = {key: _prefixed(value, prefix) for key, value in error.details.items()}
        raise ProtocolError(
            "INVALID_MESSAGE",
            f"{prefix.rstrip('.') or 'envelope'}: {error.message}",
            details=details,
            suggestion=error.suggestion or ["see docs/chap.md for the message schemas"],
        ) from None


def _prefixed(value: object, prefix: str) -> object:
    if isinstance(value, list):
        return [f"{prefix}{item}" for item in value]
    if isinstance(value, dict):
        return {f"{prefix}{key}": item for key, item in value.items()}
    return value
