"""Words that name a column's words but not the column: the rows themselves ("hitters" beside a Hits
column, "the type of pizza" beside pizzas_sold, "over every episode") and the direction asked
("the longest delay" beside an air_time column). Plain Python."""

from __future__ import annotations

import re

from agents.analysis.phrases import MOST
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import HIGH, LOW
from agents.analysis.words import Mention, split_name, stem

ROWS_OVER = re.compile(r"\b(?:over|across|for|in) (?:every|each|all(?: the)?)\s+$", re.I)
THINGS_OF = re.compile(r"\b(?:(?:type|kind|sort|variety|brand|make)s? of|per|each|every)\s+$", re.I)


def measures_apart(text: str, found: list[Mention], schema: Schema) -> list[Mention]:
    """``found`` without the measures that a question names only as its rows or as a direction, when it
    names another measure as one."""
    plain = [m for m in found if m.column in schema.measures and m.column not in schema.categories]
    found = _set_apart(found, [m for m in plain if _names_rows(text, m)], plain)
    named = [m for m in found if m.column in schema.measures and m.score == 1]
    directions = [m for m in found if m.column in schema.measures and m not in named and _names_a_direction(text, m)]
    return _set_apart(found, directions, named + directions)


def _set_apart(found: list[Mention], apart: list[Mention], among: list[Mention]) -> list[Mention]:
    """``found`` without ``apart``, when ``among`` (the measures they were taken from) keeps another."""
    return [m for m in found if m not in apart] if apart and len(among) > len(apart) else found


def _names_rows(text: str, mention: Mention) -> bool:
    """ "Where are hitters paid better", "which type of pizza", "the price per pizza", "summed over every
    episode": the hitters, pizzas and episodes are the rows (people named after what they do, the things
    of a kind, counted or gone over)."""
    before = text[: mention.start]
    return (
        _agent_noun(text[mention.start : mention.end], mention.column)
        or (mention.score < 1 and THINGS_OF.search(before) is not None)
        or ROWS_OVER.search(before) is not None
    )


def _names_a_direction(text: str, mention: Mention) -> bool:
    """ "The longest average departure delay": "longest" is the direction asked, not air_time."""
    return any(p.fullmatch(text[mention.start : mention.end]) for p in (HIGH, LOW, MOST))


def _agent_noun(said: str, column: str) -> bool:
    """ "hitters" of Hits, "runners" of runs: one word ending in -er(s) whose stem is a word of the column's
    name that has no such ending."""
    word = said.lower()
    if " " in word or not word.removesuffix("s").endswith("er"):
        return False
    return any(stem(part) == stem(word) and not part.removesuffix("s").endswith("er") for part in split_name(column))
