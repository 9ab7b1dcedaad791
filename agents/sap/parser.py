"""Streaming SAP parser: text and ``@@type:name#id`` / JSON / ``@@end`` blocks, fed in pieces.

The output depends only on the concatenated input, never on how it was split: text between
blocks is emitted as one segment when the next block starts (or at ``close()``), and every
decision is taken on whole lines.

Why a line that starts with ``@@`` is the only thing that matters: JSON strings cannot hold a
raw newline, so inside a valid body no line can start with ``@@``. A body is therefore closed
by the first ``@@end`` line, and a header line seen before it means the block was left open.

Speed: chunks without ``@`` cannot start or finish anything, so ``feed`` appends them to the
current run and returns at once; that fast path is what keeps token-sized chunks cheap.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from itertools import islice
from typing import TypeAlias

from agents.sap.blocks import BLOCK_TYPES, ID_RE, NAME_RE, Block, ParseError, Text, suggest_name
from protocol import strict_json

Item: TypeAlias = Text | Block | ParseError

MAX_BODY_BYTES = 1024 * 1024
MAX_DEPTH = strict_json.MAX_DEPTH
MAX_HEADER_LENGTH = 512

_TEXT, _BODY, _SKIP = 0, 1, 2
_HEADER_RE = re.compile(r"@@([A-Za-z][A-Za-z0-9_-]*):([^#\s]*)(?:#(\S*))?")
# A line that starts like a header is treated as one (and reported if malformed). The type
# token is bounded so that the decision never needs more than the first few characters.
_CANDIDATE_RE = re.compile(r"@@(?:[A-Za-z][A-Za-z0-9_-]{0,31}:|(?:query|action|describe|result|error|event)\b)", re.I)


class StreamParser:
    """Feed text with ``feed``; each call returns the items completed by that chunk.

    Items are ``Text``, ``Block`` and ``ParseError``. After a parse error the parser skips to
    the next ``@@end`` or header line, so nothing after the error is lost.
    """

    __slots__ = (
        "_carry", "_decoder", "_header", "_lines_done", "_pieces", "_run_starts_line", "_size", "_sized",
        "_state", "max_body", "max_depth", "max_header",
    )  # fmt: skip

    def __init__(
        self,
        *,
        max_body_bytes: int = MAX_BODY_BYTES,
        max_depth: int = MAX_DEPTH,
        max_header_length: int = MAX_HEADER_LENGTH,
    ):
        self.max_body = max_body_bytes
        self.max_depth = max_depth
        self.max_header = max_header_length
        self._state = _TEXT
        self._pieces: list[str] = []  # the current run: text, body or skipped lines
        # Characters in the body run, summed lazily over pieces[:_sized]: the fast path only appends.
        # Characters bound bytes from below; the exact byte count is checked when the block ends.
        self._size = 0
        self._sized = 0
        self._carry = ""  # an unfinished line that starts with "@" at a line start
        self._run_starts_line = True  # whether the current run begins at a line start
        self._lines_done = 0  # newlines in everything consumed before the current run
        self._header: tuple[str, str, str | None, int] | None = None
        self._decoder: codecs.IncrementalDecoder | None = None

    # -- input -------------------------------------------------------------------------------

    def feed(self, chunk: str) -> Sequence[Item]:
        if self._carry:
            return self._feed_after_carry(chunk)
        if "@" in chunk:
            return self._process(chunk, final=False)
        self._pieces.append(chunk)
        return ()

    def _feed_after_carry(self, chunk: str) -> Sequence[Item]:
        if "\n" not in chunk and len(self._carry) < self.max_header:
            # Still inside a line that starts with "@": nothing can be decided before its end.
            self._carry += chunk
            return ()
        data = self._carry + chunk
        self._carry = ""
        return self._process(data, final=False)

    def feed_bytes(self, chunk: bytes) -> Sequence[Item]:
        """Bytes split anywhere, even inside a UTF-8 character; invalid bytes become U+FFFD."""
        if self._decoder is None:
            self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        return self.feed(self._decoder.decode(chunk))

    def close(self) -> list[Item]:
        out: list[Item] = []
        if self._decoder is not None:
            tail = self._decoder.decode(b"", final=True)
            if tail:
                out.extend(self.feed(tail))
        data, self._carry = self._carry, ""
        out.extend(self._process(data, final=True))
        if self._state == _BODY:
            out.append(self._unterminated("has no @@end"))
        elif self._state == _TEXT and (text := "".join(self._pieces)):
            out.append(Text(text))
        self._pieces = []
        self._state = _TEXT
        return out

    # -- the line machine --------------------------------------------------------------------

    def _at_line_start(self) -> bool:
        for piece in reversed(self._pieces):  # the fast path may have appended empty chunks
            if piece:
                return piece[-1] == "\n"
        return self._run_starts_line

    def _process(self, data: str, *, final: bool) -> list[Item]:
        out: list[Item] = []
        if self._state == _BODY and self._body_size() > self.max_body:
            self._body_too_large(out)
        pos, end = 0, len(data)
        while pos < end:
            at_line_start = data[pos - 1] == "\n" if pos else self._at_line_start()
            if at_line_start and data[pos] == "@":
                start = pos
            else:
                found = data.find("\n@", pos)
                if found < 0:
                    self._append(data[pos:], out)
                    return out
                start = found + 1
                self._append(data[pos:start], out)
            newline = data.find("\n", start)
            if newline < 0:
                line = data[start:]
                if not final:
                    self._hold_unfinished_line(line, out)
                    return out
                newline = end
            self._line(data[start : newline + 1], out)
            pos = newline + 1
        return out

    def _hold_unfinished_line(self, line: str, out: list[Item]) -> None:
        """Keep a line that starts with "@" until its end decides what it is, within a bound."""
        if len(line) <= self.max_header + 8:
            self._carry = line
        elif self._state != _TEXT and line.rstrip(" \t\r") == "@@end":
            # Only whitespace after @@end so far: still a closing line, and nothing of it is kept.
            self._carry = "@@end "
        else:
            # Long enough to decide on its start; the rest of the line follows as content.
            self._line(line, out)

    def _append(self, text: str, out: list[Item]) -> None:
        if not text:
            return
        self._pieces.append(text)
        if self._state == _BODY and self._body_size() > self.max_body:
            self._body_too_large(out)

    def _body_size(self) -> int:
        pieces = self._pieces
        if self._sized < len(pieces):
            self._size += sum(map(len, islice(pieces, self._sized, None)))
            self._sized = len(pieces)
        return self._size

    def _line(self, line: str, out: list[Item]) -> None:
        """One whole line that starts with "@" at a line start (with its newline, if any)."""
        stripped = line.rstrip(" \t\r\n")
        if stripped == "@@end":
            if self._state == _BODY:
                self._finish_block(out)
                self._end_run(line)
                return
            if self._state == _SKIP:
                self._end_run(line)
                return
        elif _CANDIDATE_RE.match(stripped):
            if self._state == _BODY:
                out.append(self._unterminated("was not closed by @@end before the next header"))
                self._take_run()
            elif self._state == _TEXT and (text := self._take_run()):
                out.append(Text(text))
            elif self._state == _SKIP:
                self._take_run()
            self._start_block(stripped, line, out)
            return
        self._append(line, out)

    def _start_block(self, stripped: str, line: str, out: list[Item]) -> None:
        number = self._lines_done + 1
        self._lines_done += line.count("\n")
        self._pieces = []
        self._size = self._sized = 0
        self._run_starts_line = line.endswith("\n")
        error = self._header_error(stripped, number)
        if error is not None:
            out.append(error)
            self._state = _SKIP
            return
        match = _HEADER_RE.fullmatch(stripped)
        assert match is not None, "_header_error refuses every header the pattern does not match"
        self._header = (match.group(1), match.group(2), match.group(3), number)
        self._state = _BODY

    def _header_error(self, stripped: str, number: int) -> ParseError | None:
        if len(stripped) > self.max_header:
            return ParseError(
                "HEADER_TOO_LONG",
                f"header line is longer than {self.max_header} characters",
                number,
                details={"limit": self.max_header},
            )
        match = _HEADER_RE.fullmatch(stripped)
        if match is None:
            return ParseError(
                "INVALID_HEADER",
                "a header must read @@<type>:<domain.action>#<id>",
                number,
                details={"header": stripped},
                suggestion=("write the header as @@query:file.read#1",),
            )
        block_type, name, block_id = match.groups()
        if block_type not in BLOCK_TYPES:
            lowered = block_type.lower()
            hint = f"use {lowered!r}" if lowered in BLOCK_TYPES else "use one of " + ", ".join(sorted(BLOCK_TYPES))
            return ParseError(
                "UNKNOWN_TYPE",
                f"unknown block type {block_type!r}",
                number,
                details={"type": block_type, "allowed": sorted(BLOCK_TYPES)},
                suggestion=(hint,),
            )
        if not NAME_RE.fullmatch(name):
            better = suggest_name(name)
            return ParseError(
                "INVALID_NAME",
                f"operation name {name!r} must be domain.action in lowercase, words joined by hyphens",
                number,
                details={"name": name, **({"did_you_mean": better} if better else {})},
                suggestion=(f"use {better!r}",) if better else ("name operations like dataset.create-table",),
            )
        if block_id is not None and not ID_RE.fullmatch(block_id):
            return ParseError(
                "INVALID_ID",
                "a block id is 1 to 128 characters of A-Z a-z 0-9 _ . : -",
                number,
                details={"id": block_id},
            )
        return None

    def _finish_block(self, out: list[Item]) -> None:
        block_type, name, block_id, number = self._open_header()
        raw = self._take_run()
        body_text = raw.strip()
        if not body_text:
            out.append(Block(block_type, name, block_id, {}, number))
            return
        if len(body_text) * 4 > self.max_body and len(body_text.encode("utf-8", "surrogatepass")) > self.max_body:
            out.append(self._too_large_error(number))
            return
        try:
            body = strict_json.loads(body_text, max_depth=self.max_depth)
        except strict_json.JsonRefused as refused:
            if refused.reason == "depth":
                out.append(self._depth_error(number))
            elif refused.position is None:  # NaN, a lone surrogate: the message says what to send
                out.append(ParseError("INVALID_JSON", f"block {name!r} body: {refused}", number))
            else:
                offset = len(raw) - len(raw.lstrip())
                line = number + raw.count("\n", 0, offset + refused.position) + 1
                out.append(
                    ParseError(
                        "INVALID_JSON",
                        f"block {name!r} body is {refused}",
                        line,
                        details={"position": refused.position},
                        suggestion=("the body must be one JSON object; use {} for no parameters",),
                    )
                )
            return
        if not isinstance(body, dict):
            out.append(
                ParseError(
                    "BODY_NOT_OBJECT",
                    f"block {name!r} body must be a JSON object, got {type(body).__name__}",
                    number,
                    suggestion=('wrap the value in an object, e.g. {"value": ...}',),
                )
            )
            return
        out.append(Block(block_type, name, block_id, body, number))

    def _unterminated(self, what: str) -> ParseError:
        _, name, _, opened = self._open_header()
        return ParseError(
            "UNTERMINATED_BLOCK",
            f"block {name!r} opened on line {opened} {what}",
            opened,
            suggestion=("end every block with a line holding only @@end",),
        )

    def _depth_error(self, number: int) -> ParseError:
        return ParseError(
            "DEPTH_EXCEEDED",
            f"block body nests deeper than {self.max_depth} levels",
            number,
            details={"limit": self.max_depth},
        )

    def _too_large_error(self, number: int) -> ParseError:
        return ParseError(
            "BODY_TOO_LARGE",
            f"block body is larger than {self.max_body} bytes",
            number,
            details={"limit": self.max_body},
            suggestion=("split the data over several requests, or write it to a file first",),
        )

    def _body_too_large(self, out: list[Item]) -> None:
        out.append(self._too_large_error(self._open_header()[3]))
        self._take_run()
        self._state = _SKIP

    def _open_header(self) -> tuple[str, str, str | None, int]:
        """The header of the block being read: set whenever the state is _BODY."""
        assert self._header is not None, "a block body is read only after its header"
        return self._header

    def _take_run(self) -> str:
        """The current run as one string, counted into the line numbers and cleared."""
        run = "".join(self._pieces)
        self._lines_done += run.count("\n")
        self._pieces = []
        self._size = self._sized = 0
        return run

    def _end_run(self, closing_line: str) -> None:
        """After a closing @@end line: count what was consumed and start a fresh text run."""
        self._take_run()
        self._lines_done += closing_line.count("\n")
        self._state = _TEXT
        self._run_starts_line = closing_line.endswith("\n")


def parse(text: str, **limits: int) -> list[Item]:
    """Parse a whole text at once: the same items a stream would yield."""
    parser = StreamParser(**limits)
    return [*parser.feed(text), *parser.close()]
