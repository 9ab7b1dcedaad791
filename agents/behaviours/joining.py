"""A question that needs two tables: the analyst joins them with dataset.join and answers on the join.

The server finds the key and writes the SQL; the answer says in words which key joined the tables and
how many rows matched, and is less sure when many did not. Tables that share no key are said to, and
not answered from one of them.
"""

from __future__ import annotations

from typing import Any, Protocol

from agents.analysis import prose
from agents.analysis.join_code import joined_reproduction
from agents.analysis.schema import Schema
from agents.analysis.two_tables import Pair, join_name, pair_to_join, without_joins
from agents.behaviours import answering
from agents.runtime import TaskFailure
from agents.sap import format_block

EXAMPLE_KEYS = 3
NO_KEY_CONFIDENCE = 0.2


class Joiner(answering.Asker, Protocol):
    """What joining needs of the analysis besides answering's: the tables' schemas, sources, evidence."""

    settings: dict[str, Any]

    def schema(self, table: str) -> Schema: ...
    def source(self, table: str) -> str: ...
    def cite_join(self, body: dict[str, Any], words: str) -> None: ...


def findings(analysis: Joiner, question: str, tables: list[str]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The Findings section answered on two tables joined, when the question needs both; else None."""
    pair = pair_to_join(question, [analysis.schema(t) for t in without_joins(tables)])
    if pair is None:
        return None
    body = {"left": pair.left, "right": pair.right, "into": join_name(pair.left, pair.right), "replace": True}
    try:
        joined = analysis.ask("dataset.join", body, kind="action")
    except TaskFailure as failure:
        if failure.error.code != "VALIDATION_FAILED":
            raise
        if not pair.by_name:
            return None  # a value said in passing is weak evidence of a second table: the one table answers
        return no_shared_key(pair), {"kind": "join", "missing": ["key"], "tables": [pair.left, pair.right]}
    analysis.cite_join(body, f"{pair.left} and {pair.right} joined on {', '.join(joined['on'])}")
    table = joined["table"]
    rows = analysis.settings["rows"].get(pair.left, [])
    schema = analysis.schema(table)
    section, request = answering.findings(analysis, question, schema, analysis.source(table), rows)
    said = join_words(joined)
    lead, _, rest = section["body"].partition("\n")
    files = (analysis.file_reading(pair.left), analysis.file_reading(pair.right))
    section = {
        **section,
        "body": f"{lead}\n\n{said}\n{_with_join_code(rest, body, joined, files, question, schema, rows)}",
        "confidence": min(section["confidence"], confidence_cap(joined)),
    }
    return section, request | {"joined": {"tables": [pair.left, pair.right], "on": joined["on"], "words": said}}


def _with_join_code(
    text: str,
    body: dict[str, Any],
    joined: dict[str, Any],
    files: tuple[dict[str, Any] | None, dict[str, Any] | None],
    question: str,
    schema: Schema,
    rows: list[dict[str, Any]],
) -> str:
    """The folded note on how the answer was computed, with the join's own SAP call and the pandas code
    that reads both files, joins them and recomputes the answer."""
    head, folded, tail = text.rpartition("</details>")
    if not folded:
        return text  # no answer was computed: nothing to reproduce
    operation, call = answering.operation_for(answering.request_for(question, schema, rows), schema)
    left, right = files
    script = joined_reproduction(operation, call, (left, right), joined) if left and right else None
    lines = [
        "- The tables were joined first (SAP):",
        "",
        "```",
        format_block("action", "dataset.join", body, "j").strip(),
    ]
    lines += ["```", ""]
    if script:
        lines += ["- To reproduce it in pandas, beside the files:", "", "```python", script.rstrip(), "```", ""]
    return head + "\n".join(lines) + folded + tail


def join_words(joined: dict[str, Any]) -> str:
    """ "I joined countries and populations on `iso3`: 4 of 5 rows of countries matched; ..." """
    left, right = joined["left"], joined["right"]
    key = ", ".join(f"`{name}`" for name in joined["on"])
    parts = [
        f"I joined {left['table']} and {right['table']} on {key}: "
        f"{left['matched']:,} of {left['rows']:,} rows of {left['table']} matched"
    ]
    for side, other in ((left, right), (right, left)):
        if side["unmatched"]:
            parts.append(
                f"{_rows(side['unmatched'])} of {side['table']} had no match in {other['table']}"
                + _examples(side["unmatched_keys"])
            )
    said = "; ".join(parts) + f". The answer is computed on the {joined['rows']:,} joined rows."
    if not right["key_unique"]:
        said += f" The key repeats in {right['table']}, so a row of {left['table']} may count more than once."
    return said


def _rows(count: int) -> str:
    return f"{count:,} row" + ("" if count == 1 else "s")


def _examples(keys: list[Any]) -> str:
    shown = [", ".join(map(str, k)) if isinstance(k, list) else str(k) for k in keys[:EXAMPLE_KEYS]]
    return f" (such as {', '.join(shown)})" if shown else ""


def confidence_cap(joined: dict[str, Any]) -> float:
    """How sure an answer on the join can be: less when many rows of either table found no match (the
    answer leaves them out), or when the key repeats on the right (rows of the left counted twice)."""
    left, right = joined["left"], joined["right"]
    share = min(left["matched"] / (left["rows"] or 1), right["matched"] / (right["rows"] or 1))
    cap = 1.0 if share >= 0.9 else 0.6 if share >= 0.5 else 0.4
    return min(cap, 1.0 if right["key_unique"] else 0.6)


def no_shared_key(pair: Pair) -> dict[str, Any]:
    """Two tables the question needs that share no key: said so, never answered from one of them."""
    named = "; ".join(f"{', '.join(prose.spoken(c) for c in pair.named[t])} from {t}" for t in (pair.left, pair.right))
    body = [
        f"I could not answer this: it needs {named}, and {pair.left} and {pair.right} share no key to join "
        "them on (no column has the same name and type in both with values in common). An answer from one "
        "table alone would answer another question.",
        "- Give the key column the same name in both files, or attach a file that links them, and I will "
        "join them and answer.",
    ]
    return {"id": "findings", "title": "Findings", "body": "\n".join(body), "confidence": NO_KEY_CONFIDENCE}
