"""When a question has several readings, the analyst asks which one is meant, with each reading as a
concrete option the person picks in one click. Plain Python.

The readings on offer are the request as read and the requests one named choice apart: another
grouping column when the question names none, or the measure the question named but the reading
left out. Each option is a question written so that the question model reads it back exactly into
its request (``sentence``); an option that does not read back is never offered, so picking one always
answers what its words say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from agents.analysis.phrases import PERFORMED
from agents.analysis.prose import spoken, statistic_words
from agents.analysis.reading import UNSURE, Reading
from agents.analysis.request import Request
from agents.analysis.schema import Schema
from agents.analysis.words import mentions, split_name

MAX_OPTIONS = 3
# a judgement that names no measure: "did best", "the nicer weather", "the winner", "performed worst"
JUDGED = re.compile(
    r"\bfared?\s+(?:the\s+)?(?:best|worst|well|badly|better|worse)\b"
    r"|\b(?:nicer|nicest|better|best|worse|worst)\s+(?:weather|conditions?|results?|performance|overall|record)\b"
    r"|\bwinners?\b|\bcame out (?:on )?top\b",
    re.I,
)
OPTION_ID = "reading-"  # how a reading's option is told from the options of other questions
SAID_KINDS = ("compare", "statistic", "trend", "share")  # kinds whose request a sentence says in full
SENTENCE_END = re.compile(r"(?<=[.:;!?])\s+")


def asked_words(goal: str) -> str:
    """The sentences of a goal that ask (“Which has the highest mean basket value?” of “Analyse the
    attached orders CSV: Which has …?”), so the person is asked about the question, not the errand;
    the whole goal when none ends in a question mark."""
    said = " ".join(goal.split())
    asking = [part for part in SENTENCE_END.split(said) if part.endswith("?")]
    return " ".join(asking) or said


def sentence(request: Request) -> str | None:
    """A question that says ``request`` in words the question model reads back (None: no such words)."""
    if request.filters or request.kind not in SAID_KINDS or len(request.measures) > 1:
        return None
    measure = spoken(request.measures[0]) if request.measures else ""
    statistic = statistic_words(request).removesuffix(" of")
    extreme = "highest" if request.direction == "high" else "lowest"
    if request.kind == "compare" and request.group and measure:
        return f"Which {spoken(request.group)} has the {extreme} {statistic} {measure}?"
    if request.kind == "statistic" and measure:
        return f"What is the {statistic} {measure}?"
    if request.kind == "trend" and measure and request.time:
        return f"How did the {statistic} {measure} change over {spoken(request.time)}?"
    if request.kind == "share" and request.group:
        of = f"the total {spoken(request.weight)}" if request.weight else "the rows"
        return f"What share of {of} does each {spoken(request.group)} have?"
    return None


def alternatives(request: Request, reading: Reading, schema: Schema) -> list[Request]:
    """The requests one named choice away from ``request`` that its doubts make as likely."""
    if reading.certainty > UNSURE:
        return []
    others: list[Request] = []
    if request.kind in ("compare", "share") and "group" in reading.guessed:
        others += [replace(request, group=c) for c in schema.categories if c != request.group]
    if request.kind == "share" and "measure" in reading.guessed:
        others += [replace(request, kind="compare", measures=[m], statistic="mean") for m in schema.measures]
    unused = [c for c in reading.unused_columns if c in schema.numbers and c not in request.measures]
    if request.kind in ("compare", "statistic", "trend"):
        others += [replace(request, measures=[c]) for c in unused]
    return others


def options(request: Request, reading: Reading, schema: Schema, read: Callable[[str], Request]) -> list[dict[str, str]]:
    """Two or three readings to choose from (none when the reading is sure or nothing else is likely):
    each ``{"id", "label"}``, the label a question that reads back into its request."""
    return _offered([request, *alternatives(request, reading, schema)], read)


def measure_options(
    request: Request, text: str, schema: Schema, read: Callable[[str], Request]
) -> list[dict[str, str]]:
    """A comparison that names no measure, of a table with several ("which station has the nicer
    weather?"): the likeliest measures to compare the groups on, each a reading to choose, rather than no
    answer."""
    if request.missing != ["measure"] or request.kind != "compare" or not request.group or not judged(text):
        return []  # "the happiest customers" of a table with no such column: said so, not offered another
    return _offered([replace(request, measures=[m], missing=[]) for m in likely_measures(text, schema)], read)


def judged(text: str) -> bool:
    return bool(PERFORMED.search(text) or JUDGED.search(text))


def likely_measures(text: str, schema: Schema) -> list[str]:
    """The measures a question may mean: those its words brush first, then the table's, one of each family
    of siblings (temp_mean_c, not temp_max_c and temp_min_c beside it)."""
    brushed = [m.column for m in mentions(text, schema.measures)]
    chosen: list[str] = []
    for measure in dict.fromkeys([*brushed, *schema.measures]):
        family = split_name(measure)[:1]
        if not any(split_name(other)[:1] == family for other in chosen):
            chosen.append(measure)
    return chosen


def _offered(candidates: list[Request], read: Callable[[str], Request]) -> list[dict[str, str]]:
    offered: list[str] = []
    for candidate in candidates:
        words = sentence(candidate)
        if words is not None and _same(read(words), candidate) and words not in offered:
            offered.append(words)
    offered = offered[:MAX_OPTIONS]
    if len(offered) < 2:
        return []
    return [{"id": f"{OPTION_ID}{index}", "label": words} for index, words in enumerate(offered, start=1)]


def _same(read_back: Request, meant: Request) -> bool:
    keys = ("kind", "measures", "group", "time", "weight", "statistic", "direction", "filters")
    return all(getattr(read_back, key) == getattr(meant, key) for key in keys)
