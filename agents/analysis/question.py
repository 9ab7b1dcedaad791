"""A question (and every later refinement) read into a structured analysis request. Plain Python.

The request says what kind of question it is, which columns play which part (measures, outcome,
grouping, time, entity, weight), the statistic, the direction and the row filters. The kinds are
the questions analysts ask of a table: compare groups, rank which measures differ most, association,
trend, share, growth, one statistic (median, percentile, total, ...), each within any filters.
"""

from __future__ import annotations

import re

from agents.analysis.asked_kinds import another_kind
from agents.analysis.association import alternatives
from agents.analysis.calendar_filters import months_said
from agents.analysis.columns_said import columns_named, without_errand
from agents.analysis.filters import Found, number_filters, value_filters
from agents.analysis.kind_parts import assign_parts, superlative, which_group
from agents.analysis.phrases import (
    AMOUNT,
    AMOUNT_MOVED,
    ASSOCIATION,
    CHANGE_WORDS,
    COMPARE,
    COUNT_OF,
    DIFFER,
    DIRECTION_ASKED,
    EITHER,
    ENTITY,
    ETC,
    EXTREME,
    GROUP_BEFORE,
    GROWTH,
    MANY_MEASURES,
    MOST,
    MOST_OF,
    MOVE,
    ONE_EXTREME,
    OUTCOME_WORDS,
    PERFORMED,
    POPULATION_SD,
    SHARE,
    SHARE_OF_TOTAL,
    SPAN_ENDS,
    STATISTIC_ONLY,
    STEEP,
    SUPERLATIVE,
    TIME_WORDS,
    UNIT_PER,
    WHICH,
    WHO,
    across_groups,
)
from agents.analysis.request import Request, Said
from agents.analysis.roles import binary_filters, coded_values, levels_said, yes_no_columns
from agents.analysis.rows_named import measures_apart
from agents.analysis.schema import CODED_MAX, DURATION, Schema
from agents.analysis.statistic_phrases import HIGH, LOW, asks_percentile, direction_of, judged_direction, statistic_of
from agents.analysis.value_words import value_mentions
from agents.analysis.words import Mention, blanked, split_name

# a time column said as what a measure runs over: "average mpg per model year", "over the model years"
OVER_TIME = re.compile(r"\b(?:per|over|across|through(?:out)?)\s+(?:the\s+|all\s+the\s+|each\s+)?$", re.I)


A_CHANGE = re.compile(r"\s+changes?\b(?!\s+(?:from|between|over|since|in\b))", re.I)
PER_DAY = re.compile(r"\b(?:per|a|each|every) day\b", re.I)


def kind_of(
    text: str,
    schema: Schema,
    named_numbers: int,
    named_any: int,
    filtered: bool = False,
    *,
    in_full: int = 0,
    over_time: bool = False,
) -> str:
    """The kind of question, from its words (column names blanked) and what the table has to answer it with;
    ``in_full`` of the ``named_numbers`` are named by their whole name ("at birth" only brushes birth_order);
    ``over_time``: a time column said as what the measure runs over ("per model year", "over the years")."""
    if MANY_MEASURES.search(text) and (DIFFER.search(text) or across_groups(text)):
        return "rank_differences"
    # "track the yearly average of X": one column followed over time is a course, not a pair
    tracked = named_any == 1 and schema.times and TIME_WORDS.search(text)
    if ASSOCIATION.search(text) and (named_any >= 1 or OUTCOME_WORDS.search(text)) and not tracked:
        return "association"
    shares = SHARE.search(text) and not asks_percentile(text)  # "the top 10% of earners": where they begin
    if shares and (not named_numbers or SHARE_OF_TOTAL.search(text)):
        return "share"
    if ONE_EXTREME.search(text):
        return "compare"  # the rows' one extreme: "statistic" once no grouping is found
    if schema.times and SPAN_ENDS.search(text) and PERFORMED.search(text):
        return "growth"  # "which stock did worst, first month to last": the change between the ends
    moved = GROWTH.search(text) or (MOVE.search(text) and (MOST.search(text) or STEEP.search(text)))
    if moved and schema.times and named_numbers and (MOST.search(text) or STEEP.search(text)) and ENTITY.search(text):
        return "growth"
    which_most = ((WHICH.search(text) and (HIGH.search(text) or LOW.search(text))) or EXTREME.search(text)) and not (
        CHANGE_WORDS.search(text)
    )  # "what was the highest weekly price": one extreme, not a course
    changing = CHANGE_WORDS.search(text) and not DIFFER.search(text) and not AMOUNT_MOVED.search(text)
    course = changing or TREND_SAID.search(text) or (TIME_WORDS.search(text) and not (filtered and not changing))
    course = course or (over_time and named_numbers > 0)
    if schema.times and not which_most and course:
        return "trend"
    if shares:
        return "share"
    if MANY_MEASURES.search(text) and MOST.search(text):
        return "rank_differences"
    if DIFFER.search(text) and not in_full and (MOST.search(text) or re.search(r"\bwhat\b", text, re.I)):
        return "rank_differences"
    return "compare"


def _group_mentions(text: str, schema: Schema, found: list[Mention]) -> list[Mention]:
    """Mentions of grouping columns that the words before them mark as a grouping ("by region")."""
    few = {
        c["name"]
        for c in schema.columns
        if c["type"] == "number" and 2 <= (c.get("distinct") or 0) <= CODED_MAX and c["name"] not in schema.times
    }
    categories = set(schema.categories) | few  # "by rooms": a few whole values said as groups are groups
    return [
        m
        for m in found
        if m.column in categories
        and GROUP_BEFORE.search(text[: m.start][-60:])
        and not WHO.match(text[m.end :])  # "among councils where ...": the rows, not a grouping
    ]


TREND_SAID = re.compile(
    r"\btrend\w*|\b(?:month|year|week|day|quarter)[- ]by[- ](?:month|year|week|day|quarter)\b|\bwhich direction\b", re.I
)
SPEED_NAME = re.compile(r"speed|velocity|wind|per_|_per|kmh|mph|knots", re.I)  # speed_m_s is a speed, not a time
UNIT_OF = re.compile(r"\s*(?:of|in|from)?\s*(?:the\s+)?")
SLOW = re.compile(r"\bslow(?:est|er)?\b", re.I)
FAST = re.compile(r"\b(?:fast(?:est|er)?|quick(?:est|er)?)\b", re.I)


def read_question(text: str, schema: Schema) -> Request:
    """The structured request for ``text`` (a goal, with any later refinements appended)."""
    text = asked = without_errand(" ".join((text or "").split()), schema)
    said_values = value_mentions(text, schema.values())
    every = measures_apart(text, columns_named(text, schema), schema)
    # "how much rain fell": an amount of rain, the precipitation column, not the rainy days
    amounts = [(m.start, m.end) for m in every if m.column in schema.numbers and AMOUNT.search(text[: m.start])]
    # "the largest population of any municipality": the Municipality column names the rows, the word is
    # no filter to a Kind column's value "municipality"
    # ("Town GX" of the town column stays its own value)
    rows_named = [(m.start, m.end, m.column) for m in every if m.score == 1 and m.column in schema.row_names]
    # "higher or lower evaluations": a direction asked, never the value "lower" of a Division column
    directions = [m.span() for m in DIRECTION_ASKED.finditer(text)]
    said_values = [
        v
        for v in said_values
        if not any(s <= v[2] < e for s, e in amounts + directions)
        and not any(s <= v[2] < e and column != v[0] for s, e, column in rows_named)
    ]
    # "older workers" of a table called workers: its rows, never the Occupation value "worker"
    table_words = set(split_name(schema.table))
    said_values = [v for v in said_values if _word_at(text, v[2]) not in table_words]
    value_found = value_filters(text, said_values)
    # "a weekend or a weekday": values of day_type listed name day_type, never the weekday column one spells
    values_listed = [f for f in value_found if f.condition.get("op") == "in"]
    spelt = [m for m in every if any(f.start <= m.start < f.end and f.column != m.column for f in values_listed)]
    if spelt:
        named_by_values = [Mention(f.column, f.start, f.end, 1.0, True) for f in values_listed]
        every = sorted([m for m in every if m not in spelt] + named_by_values, key=lambda m: m.start)
    levels = {c["name"]: c["values"] for c in schema.columns if c["type"] == "number" and c.get("values")}
    number_found = number_filters(
        text, schema.numbers, ranges=schema.ranges(), times=schema.times, dates=schema.names("date"), levels=levels
    )
    taken = [range(f.start, f.end) for f in number_found + value_found]
    number_found += months_said(text, schema.years_spanned(), taken)
    schema = levels_said(text, schema, every)
    request = Request(kind="compare", table=schema.table)
    # "leaf count" or "median_rent_eur" name a column, not a statistic; nor does "max wind" (max_wind_knots)
    unnamed = blanked(text, [m for m in every if m.score == 1 or _names_its_statistic(text, m)])
    # "the savings change" of a table of changes: the word names what the column holds, no change asked
    changes = [
        (m.end, m.end + c.end()) for m in every if m.column in schema.measures and (c := A_CHANGE.match(text[m.end :]))
    ]
    unnamed = blanked(unnamed, changes)
    request.direction = direction_of(text)
    if POPULATION_SD.search(text):
        request.sd = "population"
    compared = _compared(text, schema, number_found, every)
    number_found = [f for f in number_found if f not in compared]
    filter_spans = [(f.start, f.end) for f in number_found + value_found]
    # a filter takes the words of its own column; another measure said inside its span ("between 1971 and
    # 1990 (mean mpg per year)") is still free
    free = [
        m
        for m in every
        if not any(f.start <= m.start < f.end and (f.column == m.column or m.column not in schema.measures)
                   for f in number_found + value_found)
        and not any(f.column == m.column and UNIT_OF.fullmatch(text[f.end : m.start]) for f in number_found)
    ]  # fmt: skip  # "more than 10 mm of rain": the rain is the filter's, no measure asked
    free = [m for m in free if not _things_counted(text, m)]  # "most of these bills": the bills counted
    # Columns named in full come before those named in part ("the baskets data ... average items").
    ranked = sorted(free, key=lambda m: m.score < 1)
    numbers = list(
        dict.fromkeys(m.column for m in ranked if m.column in schema.numbers and m.column not in schema.times)
    )
    # "at the 1 mg dose": a column kept at one value measures nothing, when another is named
    held = {f.column for f in number_found if f.condition.get("op") == "="}
    numbers = [n for n in numbers if n not in held] or numbers
    # "on the really hot days, 85 F or hotter, how many deaths": a column the filters bound comes after the others
    bounded = {f.column for f in number_found}
    numbers = sorted(numbers, key=lambda n: n in bounded)
    # A coded category is a grouping when said as one ("by region", "sex 1 vs 2"), else a measure like any other.
    grouped = {m.column for m in _group_mentions(text, schema, free)} | {f.column for f in compared}
    binary_columns = yes_no_columns(schema)
    plain = [n for n in numbers if n not in grouped and n not in binary_columns]
    filtered = any(f.column not in schema.times for f in number_found + value_found)
    # The question's own words, its filters said apart: "five or more" asks no "more".
    unnamed, text = blanked(unnamed, filter_spans), blanked(text, filter_spans)
    in_full = len({m.column for m in free if m.score == 1} & set(plain))
    implied = int(schema.sole_measure is not None)
    # "lynx trapped per year" of a table of years: each row's own count (a unit), no course over the years
    over_time = any(
        m.column in schema.times
        and OVER_TIME.search(text[: m.start])
        and not (UNIT_PER.search(text[: m.start]) and schema.one_a_row(m.column))
        for m in free
    )
    if schema.daily:  # "births per day" of a table of days: each row's own count, no course over time
        unnamed = PER_DAY.sub(lambda m: " " * len(m.group()), unnamed)
    request.kind = kind_of(
        unnamed, schema, len(plain) or implied, len(free), filtered, in_full=in_full, over_time=over_time
    )
    if (
        request.kind == "association"
        and which_group(text, schema, free)
        and any(p.search(text) for p in (MOST, HIGH, SUPERLATIVE))
    ):
        request.kind = "compare"  # "which tumour grade comes with the biggest tumours": groups ranked
    listed = alternatives(text, sorted((m for m in free if m.column in plain), key=lambda m: m.start))
    if request.kind == "compare" and len(listed) >= 2 and DIFFER.search(unnamed) and MOST.search(unnamed):
        request.kind = "rank_differences"  # "the biggest gap: pay, years since the PhD or years of service?"
        numbers = listed
    statistic = statistic_of(unnamed)
    if statistic and statistic[0] == "count" and _counts_a_measure(text, free, schema):
        statistic = statistic_of(unnamed, besides=("count",))
    if statistic:
        request.statistic, request.percentile = statistic
    yes_no = binary_filters(text, schema, free)
    binary = yes_no + [f for f in coded_values(text, schema, free) if f.column not in {c.column for c in compared}]
    number_found += binary
    free = [m for m in free if m.column not in {f.column for f in binary}]
    grouping = _group_mentions(text, schema, free)
    request.group = grouping[0].column if grouping else (compared[0].column if compared else None)
    several = [f for f in value_found if f.condition.get("op") == "in"]
    # "versicolor and virginica" compares those groups, "men or women" chooses between them; "the mean
    # in June, July and August" keeps them
    comparing = any(p.search(asked) for p in (COMPARE, WHICH, HIGH, LOW, MOST, EITHER))
    if several and request.group in (None, several[0].column) and comparing:
        request.group = several[0].column
    # "across carnivores, herbivores etc": values listed as examples of the groups keep every group
    examples = [f for f in several if ETC.match(asked[f.end :])]
    if examples and request.group in (None, examples[0].column):
        request.group = examples[0].column
    kept = [f.condition for f in number_found + value_found if f not in examples]
    request.filters = [c for i, c in enumerate(kept) if c not in kept[:i]]  # "in summer (Jun-Aug)": once
    if not comparing and any(f.get("column") == request.group and f.get("op") == "=" for f in request.filters):
        request.group = None  # "the moderate ones (by magnitude class)": one of its groups, no comparison
    # "scored ECOG 0", "whose grade improved": a few-valued measure a value filters, or a yes/no column said
    # as who the rows are, is no measure (a coded category filtered so, "sex 1 or sex 2", is the
    # comparison's grouping instead)
    coded_away = {f.column for f in binary if f.column not in schema.categories} | {f.column for f in yes_no}
    request.measures = [n for n in numbers if n != request.group and n not in coded_away] or [
        c for c in _filtered_measures(number_found) if c in schema.measures
    ]  # a period ("over 2001-2017") is never the measure
    valued = {f.column for f in value_found if f.condition.get("op") in ("=", "!=")}
    assign_parts(request, text, schema, [m for m in free if m.column not in valued], asked=asked)
    extreme_said = superlative(text)
    extreme_of_means = statistic and statistic[0] == "mean" and EXTREME.search(unnamed)  # "the highest weekly average"
    plain_extreme = request.kind == "statistic" and (not statistic or extreme_of_means)
    extreme = plain_extreme and (MOST.search(unnamed) or extreme_said)
    if extreme:
        request.statistic = "max" if request.direction == "high" else "min"  # "the highest BMI", "the coldest day"
    # the kind's own words, read before any filter took them ("no price recorded", "the priciest")
    another_kind(request, blanked(asked, [m for m in every if m.exact and m.score == 1]), asked, schema, every)
    by_size = request.kind in ("compare", "statistic", "top", "which_row", "two_factor")  # a rate's speed is its own
    speed = SLOW.search(asked) or FAST.search(asked)
    timed = request.measures and DURATION.search(request.measures[0]) and not SPEED_NAME.search(request.measures[0])
    if by_size and timed and speed:
        request.direction = "high" if SLOW.search(asked) else "low"  # "the slowest reaction time": the longest
        if extreme and request.statistic in ("max", "min"):
            request.statistic = "max" if request.direction == "high" else "min"
    if request.kind in ("compare", "statistic", "top", "which_row", "two_factor") and request.measures:
        request.direction = judged_direction(asked, request.direction, request.measures[0])
    request.said = Said(every, [(f.start, f.end, f.column) for f in [*number_found, *value_found, *compared]])
    return request


def _compared(text: str, schema: Schema, number_found: list[Found], every: list[Mention]) -> list[Found]:
    """ "smoker = 1 / 0", "sex 1 vs 2": values of a coded category set side by side are its groups."""
    if not COMPARE.search(text):
        return []
    compared = [f for f in number_found if f.column in schema.categories and f.condition.get("op") == "="]
    listed = [f for f in coded_values(text, schema, every) if f.condition.get("op") == "in" or "and" in f.condition]
    return compared + listed  # "individual_deductible 1 vs 0"


def _names_its_statistic(text: str, mention: Mention) -> bool:
    """Whether a column named in part was named by a statistic word of its own name ("the median max wind")."""
    words = re.findall(r"\w+", text[mention.start : mention.end].lower())
    return any(STATISTIC_ONLY.fullmatch(w) and w in split_name(mention.column.lower()) for w in words)


def _counts_a_measure(text: str, free: list[Mention], schema: Schema) -> bool:
    """ "The number of unemployed" names the unemployed column's values, not a count of rows; so does "the
    most deaths recorded in a single month - how many?" (the largest value of deaths)."""
    return any(
        m.column in schema.numbers and (COUNT_OF.search(text[: m.start]) or EXTREME_COUNT.search(text[: m.start]))
        for m in free
    )


EXTREME_COUNT = re.compile(r"\b(?:the )?(?:most|fewest|highest|lowest|largest|smallest)\s+$", re.I)


def _filtered_measures(found: list[Found]) -> list[str]:
    """ "The average price of the cars priced above 10": the measure was named only in its filter."""
    return list(dict.fromkeys(f.column for f in found))


def _things_counted(text: str, mention: Mention) -> bool:
    """ "Where do most of these bills come from" counts the bills (rows): an amount's column (bill, fare)
    said in the plural after "most of the" names the things, not the amount shared."""
    said = text[mention.start : mention.end]
    plural = said.lower().endswith("s") and not mention.column.lower().endswith("s")
    return plural and bool(MOST_OF.search(text[: mention.start]))


def _word_at(text: str, offset: int) -> str:
    word = re.match(r"\w+", text[offset:])
    return word.group().lower() if word else ""
