"""What a SAP stream is made of: text, blocks and parse errors; and how a block is written."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import orjson

PRETTY_UP_TO = 2048
REQUEST_TYPES = frozenset({"query", "action", "describe"})
RESPONSE_TYPES = frozenset({"result", "error", "event"})
BLOCK_TYPES = REQUEST_TYPES | RESPONSE_TYPES

_SEGMENT = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*"
NAME_RE = re.compile(rf"{_SEGMENT}(?:\.{_SEGMENT})+")
ID_RE = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
_VERBS = {
    "read", "write", "create", "delete", "drop", "list", "get", "set", "query", "run", "copy", "move",
    "update", "insert", "describe", "export", "import", "execute", "check", "find", "search", "stat",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Text:
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "text", "text": self.text}


@dataclass(frozen=True, slots=True)
class Block:
    type: str
    name: str
    id: str | None = None
    body: dict[str, Any] = field(default_factory=dict)
    line: int = 0

    @property
    def is_request(self) -> bool:
        return self.type in REQUEST_TYPES

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "block", "type": self.type, "name": self.name, "id": self.id, "body": self.body}


@dataclass(frozen=True, slots=True)
class ParseError:
    code: str
    message: str
    line: int
    details: dict[str, Any] = field(default_factory=dict)
    suggestion: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "error", "code": self.code, "message": self.message, "line": self.line}


def format_block(block_type: str, name: str, body: dict[str, Any] | None = None, block_id: str | None = None) -> str:
    """SAP text for one block; the parser reads it back to the same block.

    JSON escapes every newline inside strings, so no body line can look like a header or like
    ``@@end``. Small bodies are indented for people reading streams; large ones (query results)
    stay on one line.
    """
    header = f"@@{block_type}:{name}" + (f"#{block_id}" if block_id else "")
    text = _dumps(body or {}, indent=False)
    if len(text) <= PRETTY_UP_TO:
        text = _dumps(body or {}, indent=True)
    return f"{header}\n{text}\n@@end\n"


def _dumps(body: dict[str, Any], *, indent: bool) -> str:
    """orjson writes query results many times faster; what it refuses (a lone surrogate, an integer
    past 64 bits) the standard library writes."""
    try:
        return orjson.dumps(body, default=_json_default, option=orjson.OPT_INDENT_2 if indent else 0).decode()
    except orjson.JSONEncodeError:
        separators = None if indent else (",", ":")
        return json.dumps(
            body, ensure_ascii=False, indent=2 if indent else None, separators=separators, default=_json_default
        )


def _json_default(value: object) -> str | float:
    """Dates as ISO 8601 and decimals as numbers: what databases hand back in query results."""
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def suggest_name(name: str) -> str | None:
    """A valid ``domain.action`` spelling close to ``name``: read_file → file.read."""
    segments = [seg for seg in name.split(".") if seg]
    words_per_segment = [_words(seg) for seg in segments]
    words_per_segment = [words for words in words_per_segment if words]
    if not words_per_segment:
        return None
    if len(words_per_segment) == 1:
        words = words_per_segment[0]
        if len(words) < 2:
            return None
        words_per_segment = [[words[-1]], words[:-1]] if words[0] in _VERBS else [[words[0]], words[1:]]
    candidate = ".".join("-".join(words) for words in words_per_segment)
    return candidate if NAME_RE.fullmatch(candidate) else None


def _words(segment: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", segment)
    return [word.lower() for word in re.split(r"[^A-Za-z0-9]+", spaced) if word]
