"""What every stats.* operation's manual shares: its parameters, its errors, and how one is declared.

The operations themselves are declared beside what they answer (``operations`` for the summaries,
comparisons, associations and courses over time; ``inference_operations`` for tests of chance).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.operations.datasets.operations import FILTER_DEPTH, FILTER_DOC, NOT_FOUND
from agents.operations.stats import engine, timeline
from agents.sap import Call, ErrorDoc, Example, Operation, Param, format_block

COLUMN = Param("string", "a column of the table", required=True, min_length=1, max_length=64, refers_to="column")
OPTIONAL_COLUMN = Param("string", "a column of the table", min_length=1, max_length=64, refers_to="column")
FILTERS = Param("object", "only the rows that match: " + FILTER_DOC, max_depth=FILTER_DEPTH)
STATISTIC = Param("string", "what to compute per group or period", default="mean", enum=engine.STATISTICS)
BUCKET = Param("string", "how to bucket a date column", default="auto", enum=("auto", *timeline.PERIODS))
RATE_PERIOD = Param(
    "string",
    "on a date: per day over the rows, or per longer period over each period's mean",
    default="day",
    enum=timeline.PERIODS,
)
CYCLE = Param(
    "string",
    "read the grouping date column as its month of the year, weekday, quarter or season (Dec-Feb winter, ...)",
    enum=tuple(timeline.SEASONAL),
)
PERCENTILE = Param("number", "the percentile when statistic is percentile", default=50, minimum=0, maximum=100)
COLUMNS = Param(
    "array",
    "column names (all number columns when left out)",
    items=Param("string", refers_to="column"),
    max_items=2000,
)
NOT_A_NUMBER = ErrorDoc("VALIDATION_FAILED", "A measure is not a number column, or a column is unknown.",
                        "Pick from details.number_columns or describe the table.")  # fmt: skip
ERRORS = (
    NOT_FOUND,
    NOT_A_NUMBER,
    ErrorDoc(
        "LIMIT_EXCEEDED", "Too many rows to read, or the memory or answer size cap reached.", "Filter the rows first."
    ),
    ErrorDoc("TIMEOUT", "The operation ran past the request's time budget and was stopped.", "Filter the rows first."),
    ErrorDoc("RATE_LIMITED", "The caller runs too many heavy operations.", "Wait details.retry_after_s and resend."),
)


def period(description: str, *, required: bool = False) -> Param:
    """A period named as results write them; one the rows lack is an error that lists theirs."""
    return Param("string", description + ', as results write periods: "2000", "2000Q1", "2000-03"',
                 required=required, min_length=1, max_length=32)  # fmt: skip


def query(
    name: str,
    summary: str,
    handler: Callable[[Call, dict[str, Any]], dict[str, Any]],
    params: dict[str, Param],
    request: dict[str, Any],
    response: dict[str, Any],
) -> Operation:
    """A stats.* query: it reads and never writes, fails in the same ways as the others, runs held to the
    request's budget (heavy: pandas), and its manual shows one ``request`` and its ``response``."""
    example = Example(format_block("query", name, request, "s1"), format_block("result", name, response, "s1"))
    return Operation(name, "query", summary, handler, params, examples=(example,), errors=ERRORS, heavy=True)
