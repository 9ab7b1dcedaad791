"""A question about the columns of a wide table as things ("which of these stocks multiplied the most"):
the analyst stacks them as rows with dataset.unpivot and answers on the stacked table, saying so.

The code under the answer reads the file as the import did and stacks it with pandas' melt, as the
server stacked it, before the operation's own lines.
"""

from __future__ import annotations

from typing import Any, Protocol

from agents.analysis.schema import Schema
from agents.analysis.wide_tables import Stack, stack_for
from agents.behaviours import answering

CONFIDENCE_CAP = 0.6  # the table was read otherwise than it is laid out: an answer to check
SHOWN = 6  # stacked columns named in the sentence that says so


class Stacker(answering.Asker, Protocol):
    """What stacking needs of the analysis besides answering's."""

    settings: dict[str, Any]
    stacks: dict[str, tuple[str, dict[str, Any]]]

    def schema(self, table: str) -> Schema: ...
    def source(self, table: str) -> str: ...
    def cite_stack(self, body: dict[str, Any], words: str) -> None: ...


def findings(analysis: Stacker, question: str, schema: Schema) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The Findings section answered on the wide table's columns stacked, when the question asks about
    them as things; else None."""
    stack = stack_for(question, schema)
    if stack is None:
        return None
    body = {"table": schema.table, "columns": stack.columns, "keep": stack.keep, "name": stack.name,
            "value": stack.value, "into": f"{schema.table}_by_{stack.name}"[:64], "replace": True}  # fmt: skip
    made = analysis.ask("dataset.unpivot", body, kind="action")
    said = stacked_words(stack, made["rows"])
    analysis.cite_stack(body, said)
    analysis.stacks[made["table"]] = (schema.table, body)
    rows = analysis.settings["rows"].get(schema.table, [])
    source = analysis.source(schema.table)
    section, request = answering.findings(analysis, question, analysis.schema(made["table"]), source, rows)
    lead, _, rest = section["body"].partition("\n")
    section = {**section, "body": f"{lead}\n\n{said}\n{rest}", "confidence": min(section["confidence"], CONFIDENCE_CAP)}
    return section, request | {"stacked": {"table": schema.table, "columns": stack.columns, "words": said}}


def stacked_words(stack: Stack, rows: int) -> str:
    """ "The file has one column per stock (AAPL, AMD, ... 20 in all): I stacked them as rows ..." """
    more = f", … {len(stack.columns)} in all" if len(stack.columns) > SHOWN else ""
    shown = ", ".join(stack.columns[:SHOWN]) + more
    return (
        f"The file has one column per {stack.name} ({shown}): I stacked them as rows, one per "
        f"{stack.keep[0]} and {stack.name} ({rows:,} rows), and answered on those."
    )
