"""Which columns an association question relates: the candidates and the outcome, read from the order,
the words and the choices of the question. Plain Python."""

from __future__ import annotations

import re
from itertools import pairwise

from agents.analysis.phrases import EITHER, LISTED, MANY_MEASURES, OUTCOME_NAMES, PASSIVE, SET_ASIDE, UNITS_OF
from agents.analysis.request import Request
from agents.analysis.schema import NOT_MEASURES, Schema
from agents.analysis.words import Mention, split_name, stem

RANK_NAME = re.compile(r"(?:\w+_)?(?:rank|ranking|position|place|placing|standing)", re.I)


def read_association(request: Request, text: str, schema: Schema, free: list[Mention]) -> None:
    """Which columns go with which: the outcome is the column named last ("... associated with Y"); two
    columns named are a pair; more are the candidates to rank; none, every number column is."""
    ranked = sorted(free, key=lambda m: m.score < 1)  # "HDL cholesterol" is hdl, not total_cholesterol
    full = {m.column for m in ranked if m.score == 1}
    two_valued = {c["name"] for c in schema.columns if (c.get("distinct") or 0) == 2}
    named = [m for m in ranked if m.column in schema.numbers or m.column in two_valued]
    named = [m for m in named if m.column in full or not _beside_a_full_name(m, ranked)]
    named = [m for m in named if m.score == 1 or not _said_again(text, m, full)]
    named = [m for m in named if not UNITS_OF.search(text[: m.start])]  # "across all the state-years"
    named = [m for m in named if not _set_aside(text, m)]
    # "voting for Dole rather than Clinton": a two-valued column whose values are named is a column named
    valued = [f["column"] for f in request.filters if f.get("op") in ("in", "=") and f.get("column") in two_valued]
    columns = list(dict.fromkeys([m.column for m in sorted(named, key=lambda m: m.start)] + valued))
    choice = alternatives(text, sorted(named, key=lambda m: m.start))
    outside = [c for c in columns if c not in choice]
    if choice and outside:  # "Salary: is it A or B that tracks it?": the choice is ranked, the other is the outcome
        request.measures, request.outcome = choice, outside[-1]
        return
    if PASSIVE.search(text) and len(columns) >= 2:
        columns = [*columns[1:], columns[0]]  # "spending driven by age or income": the first named is the outcome
    ranking = bool(MANY_MEASURES.search(text)) or re.search(r"\bwhich\b|\bwhat\b", text, re.I) is not None
    family = _family(text, schema, named) if ranking else []
    if family and len(columns) == 2:  # "of the three Google Trends series, which one": the trend_* columns
        request.measures, request.outcome = family, next(c for c in columns if c not in family)
        return
    if len(columns) == 2 and not (ranking and MANY_MEASURES.search(text)):
        request.pair = True
        request.measures, request.outcome = [columns[0]], columns[1]
        return
    request.outcome = columns[-1] if columns else _outcome_column(schema)
    request.measures = columns[:-1] if len(columns) > 2 else []
    aside = [m.column for m in free if _set_aside(text, m)]
    if aside and not request.measures:
        request.measures = [n for n in schema.numbers if n not in aside and n != request.outcome]
    ranks = [n for n in schema.numbers if RANK_NAME.fullmatch(n) and n != request.outcome]
    if ranks and not request.measures:  # "which event's result goes most with the final score": never its rank
        request.measures = [n for n in schema.measures if n not in ranks and n != request.outcome]


def alternatives(text: str, named: list[Mention]) -> list[str]:
    """The columns of the longest list the question offers as a choice ("weight, horsepower or the model
    year"): two or more named one after the other, with an "or" between two of them."""
    best: list[str] = []
    run: list[Mention] = named[:1]
    for before, mention in pairwise(named):
        between = text[before.end : mention.start]
        run = [*run, mention] if LISTED.fullmatch(between) else [mention]
        joins = [text[a.end : b.start] for a, b in pairwise(run)]
        # "age, looks, or class size": the "or" may come before an item that names no column
        offered = any(EITHER.search(j) for j in joins) or OR_NEXT.match(text[run[-1].end :])
        if offered and len(run) > len(best):
            best = [m.column for m in run]
    return list(dict.fromkeys(best)) if len(set(best)) >= 2 else []


OR_NEXT = re.compile(r"\s*,?\s*or\b", re.I)


def _family(text: str, schema: Schema, named: list[Mention]) -> list[str]:
    """The number columns one word names in part together ("the Trends series": trend_unemploy,
    trend_filing, trend_job), when that word is said in the plural or as "the three ...": the candidates."""
    for mention in named:
        said = re.findall(r"[A-Za-z]+", text[mention.start : mention.end])
        if mention.score == 1 or len(said) != 1 or not re.search(r"s\b", said[0]):
            continue
        word = stem(said[0])
        family = [c for c in schema.numbers if word in {stem(w) for w in split_name(c)}]
        if len(family) >= 2 and mention.column in family:
            return family
    return []


def _said_again(text: str, mention: Mention, full: set[str]) -> bool:
    """ "Do heavier animals sleep less? ... body weight and total sleep": a word of a column named in full
    elsewhere (sleep of sleep_total) names that column again, not sleep_rem, which it names in part."""
    said = {stem(w) for w in re.findall(r"[A-Za-z]+", text[mention.start : mention.end])}
    return any(said <= {stem(w) for w in split_name(column)} for column in full if column != mention.column)


def _beside_a_full_name(mention: Mention, named: list[Mention]) -> bool:
    """ "HDL cholesterol": the word after hdl is part of its phrase, not total_cholesterol."""
    return any(m.score == 1 and m is not mention and abs(m.end - mention.start) <= 2 for m in named)


def _set_aside(text: str, mention: Mention) -> bool:
    """ "Leaving the murder rate aside", "other than income": a column the question rules out."""
    before, after = text[max(0, mention.start - 30) : mention.start], text[mention.end : mention.end + 8]
    return bool(SET_ASIDE.search(before)) and (not before.lower().rstrip().endswith(("leaving", "setting", "putting"))
                                               or after.lower().lstrip().startswith("aside"))  # fmt: skip


def _outcome_column(schema: Schema) -> str | None:
    names = [c["name"] for c in schema.columns if c.get("role") not in NOT_MEASURES]
    chosen = [n for n in names if OUTCOME_NAMES.match(n)]
    return chosen[0] if chosen else (names[-1] if names else None)
