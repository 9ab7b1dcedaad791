"""The Markdown tables in a report's section, each known by a digest of its text: a redo and the
written report repeat the column profiles and descriptive statistics word for word, and the thread
shows such a table once per session (``ContextGraph`` notes where each was first shown)."""

from __future__ import annotations

import hashlib
import re

_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")  # the |---|:--:| line under a table's header


def markdown_tables(text: str) -> list[str]:
    """Each table of ``text`` as written: a run of lines that start with ``|``, the second a rule."""
    tables: list[str] = []
    run: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            run.append(line)
            continue
        if len(run) >= 2 and _RULE.match(run[1]):
            tables.append("\n".join(run))
        run = []
    return tables


def table_digest(table: str) -> str:
    return hashlib.blake2b(table.encode(), digest_size=12).hexdigest()
