"""The parts of a question an answer must carry: the rows it keeps ("among the 4-cylinder ones",
"whose grade improved"), its years, the groups it sets against each other ("men versus women"), a
change over time ("has it moved?"), a second question asked in the same sentence; and whether a
request carries them. Plain Python.

A reviewer's reading, not the question model's: it does not decide the filter, it asks whether the
answer's filters speak of what the words said (their column, value or number).
"""

from __future__ import annotations

import re
from typing import Any

from agents.analysis.condition_words import condition_words
from agents.analysis.filters import CLAUSE_END, COUNT_WORDS
from agents.analysis.phrases import COMPARE
from agents.analysis.value_words import value_mentions
from agents.analysis.words import STOP, blanked, mentions, split_name, stem, words_of

PARTS = ("measures", "group", "outcome", "time", "entity", "weight", "second", "label", "within", "controls")
YEAR = re.compile(r"(?<![\d.,])(?:1[5-9]|20|21)\d\d(?![\d.,]\d)")
AMONG = re.compile(r"among(?:st)?", re.I)
# Words that keep some of the rows; "where" and "whose" only inside a sentence, after a noun
KEEPING = re.compile(
    r"\b(?:among(?:st)?|only|exclud\w*|except(?:ing)?|without|for (?:the|those) [\w -]+? ones)\b"
    r"|(?<=\w )(?<!\bto )(?<!\bfrom )(?<!\bis )(?<!\bare )(?<!\bwas )\b(?:where|whose)\b",
    re.I,
)
NOT_KEEPING = re.compile(r"\b(?:the|not|if) only\s*$|\bonly\s+(?:one|two|three|\d)\b", re.I)
COLON = re.compile(r":")
SET_AGAINST = re.compile(r"\b(?:versus|vs\.?|compared (?:with|to)|against)(?!\w)", re.I)
NO_FIGURE = re.compile(r"\bn/a\b|\bover the 0 rows\b|^\W*No .{1,80} has a value\b", re.I)  # a lead with no value
# Words that ask how something changed over time; not "grows the tallest plants", not "a growth rate"
CHANGED = re.compile(
    r"\b(?:ris(?:e|en|es|ing)|rose|increas(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|declin(?:e|ed|es|ing)|fell"
    r"|fall(?:en|ing|s)?|dropp?(?:ed|ing|s)?|(?:went|go(?:ne|ing|es)?) (?:up|down)|up or down|mov(?:e|ed|ing)"
    r"|direction|trend\w*|chang(?:e|ed|es|ing)|improv(?:e|ed|es|ing))\b",
    re.I,
)
FALL_INTO = re.compile(r"\bfalls? (?:in|into|under|within)\b", re.I)  # "the states that fall in each region"
# Words that say "the groups" or "the numbers" without naming any: "among the five ratings"
GENERIC = {
    stem(word)
    for word in ("group", "level", "rating", "category", "kind", "type", "class", "value", "attribute", "measure",
                 "variable", "indicator", "characteristic", "number", "numeric", "column", "feature", "field")
}  # fmt: skip
FILLER = {"ones", "one", "rows", "row", "those", "these", "records", "cases", "entries", "data", "only", "just",
          "them", "they", "look", "looking", "consider", "considering", "please", "same", "other", "others", "people",
          "thing", "things", "it"} | set(COUNT_WORDS) | STOP  # fmt: skip


def change_asked(question: str, columns: list[str]) -> str | None:
    """The words that ask how something changed over time, column names left out ("the mean
    progression" names a column, not a change)."""
    unnamed = blanked(question, mentions(question, columns))
    change = CHANGED.search(unnamed)
    return change.group(0) if change and not FALL_INTO.search(unnamed) else None


def years(text: str) -> set[str]:
    return set(YEAR.findall(text))


def as_list(value: Any) -> list[str]:
    return [v for v in value if v] if isinstance(value, list) else [value] if value else []


def columns_in(condition: dict[str, Any]) -> set[str]:
    nested = [*condition.get("and", []), *condition.get("or", [])]
    own = {condition["column"]} if "column" in condition else set()
    return own.union(*(columns_in(c) for c in nested))


def used_columns(request: dict[str, Any]) -> set[str]:
    """Every column the answer took a part for, filters included."""
    used = {c for part in PARTS for c in as_list(request.get(part))}
    for condition in request.get("filters") or []:
        used |= columns_in(condition)
    return used


def reading(request: dict[str, Any]) -> str:
    """The request in words: "the mean of price by city, where cylinders is 4"."""
    statistic, kind = request.get("statistic") or "mean", request.get("kind", "")
    measures = " and ".join(as_list(request.get("measures")))
    group, time = request.get("group"), request.get("time")
    if kind == "association":
        words = f"how {measures or 'each number'} goes with {request.get('outcome')}"
    elif kind == "share":
        words = f"each {group}'s share of " + (request.get("weight") or "the rows")
    elif kind == "rank_differences":
        words = f"which of {measures or 'the numbers'} differs most by {group}"
    elif kind in ("trend", "growth"):
        words = f"the {statistic} of {measures} over {time}" + (f" per {request['entity']}" if kind == "growth" else "")
    else:
        words = f"the {statistic} of {measures or 'the rows'}" + (f" by {group}" if group else "")
    filters = request.get("filters") or []
    return words + (", where " + " and ".join(condition_words(f) for f in filters) if filters else ", over every row")


def years_unanswered(question: str, request: dict[str, Any], times: set[str], lead: str) -> list[str]:
    """The years the question says that the answer neither keeps (a filter of a time, a threshold) nor
    names (in its lead, in a column's name: "earnings in 1978" are re78); a year kept as the value of
    another column ("earnings_1974 is 1978") is not the year the question meant."""
    filters = request.get("filters") or []
    timed = [c for c in filters if {leaf.get("column") for leaf in leaves(c)} <= times]
    others = [leaf for c in filters if c not in timed for leaf in leaves(c)]
    as_values = {y for leaf in others if leaf.get("op") == "=" for y in years(str(leaf.get("value")))}
    answered = {y for c in timed for y in years(str(c))} | (years(lead) - as_values)
    answered |= {y for leaf in others if leaf.get("op") != "=" for y in years(str(leaf.get("value")))}
    used = used_columns(request)
    return sorted(y for y in years(question) - answered if not any(y[2:] in c for c in used))


def kept_phrases(question: str) -> list[tuple[str, str]]:
    """(keeping word, the rest of its clause) for each phrase that keeps some rows; a parenthesis is
    read whole ("among the ratings (rate_marriage, 1 = very poor to 5 = very good)")."""
    masked = re.sub(r"\([^)]*\)", lambda m: "(" + "x" * (len(m.group(0)) - 2) + ")", question)
    phrases: list[tuple[str, str]] = []
    for match in KEEPING.finditer(masked):
        if match.group(0).lower() == "only" and NOT_KEEPING.search(masked[: match.end() + 6]):
            continue
        ends = [m.start() for m in (CLAUSE_END.search(masked, match.end()), COLON.search(masked, match.end())) if m]
        rest = question[match.end() : min(ends, default=len(question))].strip()
        if rest and not any(rest in r for _, r in phrases):
            phrases.append((match.group(0), rest))
    return phrases


def leaves(condition: dict[str, Any]) -> list[dict[str, Any]]:
    nested = [*condition.get("and", []), *condition.get("or", [])]
    return [c for n in nested for c in leaves(n)] if nested else [condition]


def _number_said(value: str, phrase: str) -> bool:
    try:
        number = float(value)
    except ValueError:
        return value[:4].isdigit() and value[:4] in phrase  # a date bound: "2017-01-01" said as 2017
    said = [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", phrase)]
    return any(abs(s - number) < 1e-9 or abs(s * 1000 - number) < 1e-9 for s in said)  # "$2 million" as 2000


def _filtered(rest: str, condition: dict[str, Any], content: list[str]) -> bool:
    """Whether a filter speaks of the phrase: its value, its number or its column said there."""
    column, value = condition["column"], condition.get("value")
    values = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    if value_mentions(rest, {column: values}) or any(_number_said(v, rest) for v in values):
        return True
    squashed = column.lower().replace("_", "")
    return bool(mentions(rest, [column])) or any(len(w) >= 4 and w in squashed for w in content)  # "degree": nodegree


def answered(cue: str, rest: str, request: dict[str, Any], columns: list[str]) -> bool:
    """Whether the request keeps what the phrase keeps: a filter speaks of it, the phrase says nothing
    that keeps rows ("without it"), or "among ..." names only what the answer groups by ("among the
    regions", "among the five marriage ratings (rate_marriage, ...)") or no column of the table."""
    content = [w.stem for w in words_of(rest.replace("'", " ")) if w.text not in FILLER and w.stem not in GENERIC]
    content = [w for w in content if not w.isdigit()]
    numbers = bool(re.search(r"\d", rest))
    if any(_filtered(rest, c, content) for f in request.get("filters") or [] for c in leaves(f)):
        return True
    if not content and not numbers:
        return True
    grouped = [c for part in ("group", "entity", "time") for c in as_list(request.get(part))]
    if COMPARE.search(rest) and mentions(rest, grouped):
        return True  # "without (individual_deductible 1 vs 0)": the groups compared, not rows kept
    if not AMONG.fullmatch(cue):
        return False
    if not numbers and not any(m.score == 1 for m in mentions(rest, columns)):
        return True  # "among the released men": the rows the table holds, as far as its columns tell
    grouped_words = {stem(w) for name in [*grouped, request.get("table", "")] for w in split_name(name)}
    return bool(mentions(rest, grouped)) or (not numbers and all(w in grouped_words for w in content))


def set_against(question: str, request: dict[str, Any]) -> list[str]:
    """The filters that keep one value the question sets against another ("men versus women" read
    as the women only): a comparison read as a filter."""
    found = []
    for leaf in [leaf for condition in request.get("filters") or [] for leaf in leaves(condition)]:
        if leaf.get("op") != "=" or not isinstance(leaf.get("value"), str):
            continue
        for _, value, offset in value_mentions(question, {leaf["column"]: [leaf["value"]]}):
            near = question[max(0, offset - 25) : offset + len(value) + 25]
            if SET_AGAINST.search(near):
                found.append(f"{leaf['column']} is {value}")
    return found


# "..., and does it rise with age?": a second question joined to the first in one sentence
SECOND_QUESTION = re.compile(
    r"^(?P<first>[^?]{12,}?),\s*and\s+(?P<second>(?:does|do|did|is|are|was|were|has|have|how|which|what|when|where"
    r"|who|can|could|will|would)\s[^?]{6,}\?)\s*(?P<rest>.*)$",
    re.I,
)
# what a second question may ask of the first's answer without asking anything new
ITS_FIGURE = {"percentage", "percent", "share", "much", "many", "big", "large", "value", "figure", "number",
              "that", "this", "those", "these", "their", "them", "there"}  # fmt: skip


def two_questions(text: str) -> tuple[str, str | None]:
    """The first question of a sentence that asks two ("is it higher for men or women, and does it rise
    with age?"), with what follows it, and the second question, which its answer does not cover; a
    second one that only asks the first's figure ("and what percentage is that?") is no second."""
    found = SECOND_QUESTION.match(" ".join(text.split()))
    if found is None:
        return text, None
    said_first = {stem(w) for w in re.findall(r"[a-z]+", found["first"].lower())}
    asked = re.findall(r"[a-z]+", found["second"].lower())[1:]  # past the word that asks (does, what)
    new = [w for w in asked if len(w) > 3 and w not in STOP and w not in ITS_FIGURE]
    if all(stem(w) in said_first for w in new):
        return text, None
    first = f"{found['first']}?" + (f" {found['rest']}" if found["rest"] else "")
    return first, found["second"]
