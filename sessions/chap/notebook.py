"""The session's analyses as a Jupyter notebook: each answer's question and lead as a Markdown cell,
then the code that reproduces its figures, in the order they were answered (nbformat, version 4)."""

from __future__ import annotations

import re
from typing import Any

import nbformat
from nbformat import v4

CODE = re.compile(r"```python\n(.+?)```", re.S)


def notebook(messages: list[tuple[int, dict[str, Any]]], *, title: str) -> str:
    """The notebook's JSON: a title cell, then one heading, lead and code cell per answer that carries code."""
    cells = [v4.new_markdown_cell(f"# {title}\n\nThe code under each answer of this CHAP session, run beside "
                                  "its attached file reproduces the answer's figures.")]  # fmt: skip
    for _, envelope in messages:
        if envelope.get("payload_type") != "collaborative_response":
            continue
        for section in envelope["payload"].get("content", {}).get("sections") or []:
            found = CODE.search(section.get("body") or "")
            if section.get("id") != "findings" or found is None:
                continue
            asked = re.search(r"\*You asked: “(.+?)”\*", section["body"])
            lead = section["body"].split("\n", 1)[0]
            heading = asked.group(1) if asked else f"Answer by {envelope['sender']['id']}"
            cells.append(v4.new_markdown_cell(f"## {heading}\n\n{lead}\n\n*{envelope['sender']['id']}, "
                                              f"message {envelope['message_id']}*"))  # fmt: skip
            cells.append(v4.new_code_cell(found.group(1).rstrip()))
    book = v4.new_notebook(cells=cells, metadata={"language_info": {"name": "python"}})
    nbformat.validate(book)
    return str(nbformat.writes(book))
