"""Which columns a question names: its words matched to the columns' names, less the words that name
the table, a period or the errand around the question ("Analyse the attached chick weights CSV: ..."),
and a per-count measure said by its unit ("the rate per 100,000 population"). Plain Python."""

from __future__ import annotations

import re

from agents.analysis.measured_when import by_moment
from agents.analysis.phrases import ROW_NOUNS, STATISTIC_ONLY, TABLE_WORDS
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import LOW, statistic_of
from agents.analysis.words import (
    AMOUNT_NAME,
    PER_COUNT,
    PERIODIC,
    UNITS,
    Mention,
    Named,
    concepts_of,
    mentions,
    split_name,
    stem,
)

ERRAND = re.compile(
    r"^\W*(?:please\s+)?(?:analy[sz]e|look at|use|using|with|take|open|read|check|explore)\s+(?:the|this|my|our)\s+"
    r"[^:.?!]{0,60}?\b(?:csv|file|data(?:set)?|table|spreadsheet|export|upload)s?\b\s*[:.,;\u2013\u2014-]",
    re.I,
)


# a thing named by letters and a number ("I-94", "COVID-19", "F-150"): a name, no number to filter by
DESIGNATION = re.compile(r"\b[A-Z]{1,5}-\d+\b")


def without_designations(text: str, schema: Schema) -> str:
    """The question without the names of things ("on I-94") that are no value of the table: their numbers
    are no threshold, no count of rows to list."""
    values = {v.lower() for listed in schema.values().values() for v in listed}
    return DESIGNATION.sub(lambda m: m.group() if m.group().lower() in values else " " * len(m.group()), text)


def without_errand(text: str, schema: Schema) -> str:
    """The question without its errand ("Analyse the attached chick weights CSV: how fast ...?") when the
    question names columns of its own: the file's name says what the file is, not what is asked."""
    text = without_designations(text, schema)
    errand = ERRAND.search(text)
    if errand is None or not columns_named(text[errand.end() :], schema):
        return text
    return " " * errand.end() + text[errand.end() :]


# "the order lines", "the records": the rows themselves, never a part of a column's name (line_total_usd)
PER_COUNT_SAID = re.compile(r"\bper\s+(?:\d{1,3}(?:,\d{3})+|\d+k?)(?![\d,])(\s+\w+)?", re.I)


def _per_count_named(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """ "The TB rate per 100,000 population": a table's one per-count column (cases_per_100k) is the measure,
    and the people the count is per (population) are no column of their own."""
    said = PER_COUNT_SAID.search(text)
    per_count = [c for c in schema.measures if PER_COUNT.search(c)]
    if said is None or len(per_count) != 1 or any(m.column == per_count[0] for m in found):
        return found
    unit = range(said.start(), said.end())
    kept = [m for m in found if m.start not in unit]
    return [*kept, Mention(per_count[0], said.start(), said.end(), 1.0, False)]


MONEY_SAID = re.compile(
    r"\b(?:revenue|dollars?|euros?|spent|spend(?:s|ing)?|takings|turnover|money|(?:total|in) sales|prices?|priced)\b",
    re.I,
)
CURRENCY = re.compile(r"(?:^|_|\b)(?:usd|eur|gbp|dollars?|euros?)(?:$|_|\b)|\$", re.I)


def _money_named(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """ "The shops that spent the most in total dollars": money said in words names the table's amount in
    a currency (line_total_usd), when no column of money is named: of several, the amount over a price."""
    said = MONEY_SAID.search(text)
    money = [c for c in schema.measures if CURRENCY.search(c)]
    if said is None or not money or any(m.column in money or m.start <= said.start() < m.end for m in found):
        return found  # a money column named, or the word names a column of its own (price)
    amounts = [c for c in money if AMOUNT_NAME.search(c)] if len(money) > 1 else money
    if len(amounts) != 1:
        return found
    unit = range(said.start(), said.end())
    kept = [m for m in found if m.start not in unit]
    return [*kept, Mention(amounts[0], said.start(), said.end(), 1.0, False)]


DISTANCE_SAID = re.compile(r"\b(\d{2,5}) ?(?:m|metres?|meters?|km|k|mi|miles?|yards?)\b(?!/)", re.I)  # not "100 m/s"
DISTANCE_UNITS = {"m", "metres", "meters", "km", "k", "mi", "miles", "yards"}


def _distance_named(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """ "The slowest 1500 m", "the quickest 100 metres": an event said by its distance names the one
    measure whose name carries that number (run_1500m_s, sprint_100m_s), whatever its other words."""
    events = list(DISTANCE_SAID.finditer(text))
    distances = {said.group(1) for said in events}
    for said in events:
        carrying = [c for c in schema.measures if said.group(1) in split_name(c)]
        if len(carrying) == 1:
            found = _added(found, carrying[0], said.start(), said.end())
    # "the quickest 100 metres run" names no run_400m_s by its "run": another event's distance
    return [m for m in found if not distances or not _other_distance(m.column, distances)]


def _other_distance(column: str, distances: set[str]) -> bool:
    """Whether the column is another event's (run_400m_s); pm25's number is no distance."""
    words = split_name(column)
    numbers = [w for w, after in zip(words, [*words[1:], ""], strict=True) if w.isdigit() and after in DISTANCE_UNITS]
    return bool(numbers) and not distances & set(numbers)


def _unit_named(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """ "Sunshine on an average day (kWh/m2)": a unit said names the one measure whose name ends in it
    (ghi_kwh_m2), when the words before it named none of the table's columns for that."""
    said = [(m.group().lower(), m.start(), m.end()) for m in re.finditer(r"[A-Za-z]+|\d+", text)]
    tokens = [t for t, _, _ in said]
    carriers: dict[str, tuple[int, int]] = {}
    for column in schema.measures:
        unit = [w for w in split_name(column) if w in UNITS or w.isdigit()]
        if len(unit) < 2 and not (unit and len(unit[0]) >= 3):
            continue
        for i in range(len(tokens) - len(unit) + 1):
            if tokens[i : i + len(unit)] == unit:
                carriers[column] = (said[i][1], said[i + len(unit) - 1][2])
    if len(carriers) != 1:
        return found
    ((column, (start, end)),) = carriers.items()
    return _added(found, column, start, end)


def _added(found: list[Mention], column: str, start: int, end: int) -> list[Mention]:
    """``found`` with the column said at ``start``..``end`` (not word for word), unless it is named already
    or the words there name another column."""
    if any(m.column == column or m.start <= start < m.end for m in found):
        return found
    return [*found, Mention(column, start, end, 1.0, False)]


EXTREME_WORD = re.compile(r"\b\w+est\b|\b(?:highest|lowest|maximum|minimum|peak|record)\b", re.I)
SIBLING_STATISTICS = {"mean": "mean", "avg": "mean", "max": "max", "min": "min", "median": "median"}


def _sibling_by_statistic(text: str, schema: Schema, mention: Mention) -> Mention:
    """ "The hottest temperature reached", "the coldest average daily temperature": of sibling columns
    told apart by a statistic word (temp_mean_c, temp_max_c, temp_min_c), the one the question's
    statistic or superlative asks, when its words named none of them over the others."""
    if mention.score == 1 and not mention.exact:
        return mention
    words = split_name(mention.column)
    told = [i for i, w in enumerate(words) if w in SIBLING_STATISTICS]
    if len(told) != 1:
        return mention
    siblings = {
        SIBLING_STATISTICS[w]: c
        for c in schema.measures
        for w in split_name(c)
        if w in SIBLING_STATISTICS and [x for x in split_name(c) if x != w] == words[: told[0]] + words[told[0] + 1 :]
    }
    asked = statistic_of(text)
    wanted = asked[0] if asked and asked[0] in siblings else None
    if wanted is None and EXTREME_WORD.search(text):
        wanted = "min" if LOW.search(text) else "max"
    chosen = siblings.get(wanted or "", mention.column)
    return Mention(chosen, mention.start, mention.end, mention.score, mention.exact)


# "the line value", "the order amount": a row noun said with what each row is worth names that column
VALUED = re.compile(r"\s+(?:value|amount|total|worth|revenue|sum)s?\b", re.I)


def columns_named(text: str, schema: Schema) -> list[Mention]:
    """The columns the question names, leaving out words that name the table or a period ("monthly")."""
    found = [
        m
        for m in mentions(text, [c["name"] for c in schema.columns])
        if not _names_the_table(text, m, schema)
        and not (m.column in schema.times and PERIODIC.fullmatch(text[m.start : m.end]))
        and not (m.score < 1 and ROW_NOUNS.fullmatch(text[m.start : m.end]) and not VALUED.match(text[m.end :]))
    ]
    found = _distance_named(text, schema, _money_named(text, schema, _per_count_named(text, schema, found)))
    found = [_sibling_by_statistic(text, schema, m) for m in _unit_named(text, schema, found)]
    found = by_moment(text, schema, _explained_in_brackets(text, found))
    found = [m for m in found if not _judges_a_named_column(text, m, found, schema.numbers)]
    return _named_apart_from_statistics(text, sorted(found, key=lambda m: m.start), schema)


def _judges_a_named_column(text: str, mention: Mention, found: list[Mention], numbers: list[str]) -> bool:
    """ "Were the nights getting colder? ... the daily minimum temperature": a word that brushes a column
    only by its concept (colder, of temperature) judges the column named in full that carries the same
    concept (tmin_c), never another (tmax_c)."""
    said = text[mention.start : mention.end]
    if mention.exact or " " in said.strip() or mention.column not in numbers:
        return False
    brushed = concepts_of(stem(said.lower()))
    return any(
        other.score == 1 and other.column != mention.column and brushed & set().union(*Named.of(other.column).concepts)
        for other in found
        if other is not mention
        and other.column in numbers
        and (other.exact or " " in text[other.start : other.end].strip())
    )


BRACKETED = re.compile(r"\s*\(([^()]{1,80})\)")


def _explained_in_brackets(text: str, found: list[Mention]) -> list[Mention]:
    """ "Heavier smokers (more cigarettes a day)": another column said in brackets right after a column's
    words says what those words meant; the bracketed one stands for both."""
    meant = []
    for mention in found:
        bracket = BRACKETED.match(text, mention.end)
        inside = bracket and [m for m in found if bracket.start(1) <= m.start < bracket.end(1)]
        if not inside or any(m.column == mention.column for m in inside):
            meant.append(mention)
    return meant


def _named_apart_from_statistics(text: str, found: list[Mention], schema: Schema) -> list[Mention]:
    """ "in total" names total_eur only when no other measure is named: otherwise it is the statistic."""
    said = [m for m in found if not STATISTIC_ONLY.fullmatch(text[m.start : m.end])]
    numbers = {m.column for m in said if m.score == 1 and m.column in schema.numbers}
    return [m for m in found if m in said or not numbers]


def _names_the_table(text: str, mention: Mention, schema: Schema) -> bool:
    """ "Analyse the baskets CSV data", "the number of charging sessions" (of ev_charging): words that name
    the table or its rows counted, not a column (basket_value, charge_hours)."""
    said = {stem(w) for w in re.findall(r"[A-Za-z]+", text[mention.start : mention.end])}
    of_the_table = said <= {stem(w) for w in split_name(schema.table)}
    named = bool(TABLE_WORDS.match(text[mention.end :])) or bool(COUNTED_BEFORE.search(text[: mention.start]))
    return mention.score < 1 and of_the_table and named


COUNTED_BEFORE = re.compile(r"\b(?:how many|number of|count of|most|fewest|fewer|more)\s+$", re.I)
