"""A question (and every later refinement) read into a structured analysis request. Plain Python.

The request says what kind of question it is, which columns play which part (measures, outcome,
grouping, time, entity, weight), the statistic, the direction and the row filters. The kinds are
the questions analysts ask of a table: compare groups, rank which measures differ most, association,
trend, share, growth, one statistic (median, percentile, total, ...), each within any filters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agents.analysis.filters import Found, excluded_at, number_filters, value_filters
from agents.analysis.words import PERIODIC, Mention, mentions, split_name, stem, value_mentions

KINDS = ("compare", "rank_differences", "association", "trend", "share", "growth", "statistic")
MAX_GROUPS = 50
CODED_MAX = 12  # a number column with this few distinct whole values may be a coded category

ASSOCIATION = re.compile(
    r"\b(?:associat\w*|correlat\w*|relat(?:ed|ion|ionship|es?)|linked|link\b|predict(?:s|ed|or|ors|ive)?\b"
    r"|connect\w*|covar\w*|go(?:es)? together|moves? together|depend\w*|driv(?:es?|ers?|ing)|explain\w*"
    r"|influenc\w*|affect\w*|hand in hand|go(?:es)? with|moves? (?:most )?(?:closely )?with|closely|in step with"
    r"|goes? (?:up|down) with|rises? with|falls? with|comes? with|come along with|tied to|in line with|track\w*)\b",
    re.I,
)
DIFFER = re.compile(
    r"\b(?:differ\w*|distinguish\w*|separat\w*|discriminat\w*|contrast\w*|vary most|varies most|gap)\b", re.I
)
MANY_MEASURES = re.compile(
    r"\b(?:which|what|top|most)\b[^.?]{0,40}\b(?<!most )(?<!more )(?<!less )(?<!least )(?<!highly )"
    r"(?:measure(?:ment)?s?|variables?|features?|columns?|metrics?|"
    r"characteristics?|attributes?|indicators?|predictors?|factors?|properties|property|fields?|traits?|dimensions?)\b",
    re.I,
)
GROWTH = re.compile(
    r"\b(?:grew|grow(?:n|s|ing|th)?|expan\w*|shr[ai]nk\w*|shrunk|improv\w*|(?:increase|rise|rose|gain|jump|"
    r"climb|fall|fell|drop|decline|declined|decrease|lost|lose|loses|cut|cuts|reduced?|shed)[ds]? (?:\w+ ){0,3}"
    r"(?:the )?(?:most|least|fastest|the least)|"
    r"(?:biggest|largest|greatest|highest|smallest|most) (?:increase|rise|gain|growth|jump|decline|drop|fall|"
    r"decrease|change)|percent(?:age)? change|% change)\b",
    re.I,
)
# Words that ask for a course over time; "annual flow" or "per month" alone describe a measure instead.
TIME_WORDS = re.compile(
    r"\b(?:trend\w*|over (?:the )?(?:time|years?|months?|period|decades?|quarters?|days?|weeks?|seasons?)|"
    r"(?:each|every|by|from year to year) (?:year|month|quarter|day|week|decade)s?|"
    r"year[- ](?:on|over)[- ]year|through(?:out)? the (?:years|period)|year by year|"
    r"(?:average|mean|total|sum|median)s?\s+(?:\w+\s+){0,3}(?:per|each|by|every) (?:year|month|quarter|week|day)|"
    r"(?:yearly|monthly|annual|quarterly|weekly) (?:average|mean|total|sum|median)s?|by (?:yearly|monthly|annual)|"
    r"direction|trajectory|getting \w+er|used to|crept|creep\w*|"
    r"time series|over the course|across (?:the )?years|as time)\b",
    re.I,
)
CHANGE_WORDS = re.compile(
    r"\b(?:ris(?:e|en|es|ing)|rose|increas\w*|decreas\w*|declin\w*|fell|fall(?:en|ing|s)?|dropp?\w*|went (?:up|down)"
    r"|go(?:ne|ing|es)? (?:up|down)|grew(?! in| under| with| at| on| without)"
    r"|grow(?:n|ing|s|th)?(?! in| under| with| at| on| without)"
    r"|climb\w*|chang\w*|evolv\w*|develop\w*|shr[aiu]nk\w*|progress\w*|up or down|upward|downward)\b",
    re.I,
)
SHARE = re.compile(
    r"\b(?:share|slice|portion|proportion|percent(?:age)?s?\b(?! terms| change)|fraction|how common|most common"
    r"|least common"
    r"|most frequent|commonest"
    r"|breakdown|break down|distribution of|what part|composition|mix|make up|makes up|account for|accounts for|split"
    r"|how (?:are|is) [\w ]+ (?:split|divided|distributed)|how many .* each|counts? (?:of|per|by) each|frequenc\w*)",
    re.I,
)
HIGH = re.compile(
    r"\b(?:highest|largest|biggest|greatest|most|top|best|maximum|max|more|higher|larger|bigger|greater|"
    r"tallest|heaviest|oldest|longest|widest|fastest|richest|hottest|wettest|priciest|costliest|most expensive)\b",
    re.I,
)
LOW = re.compile(
    r"\b(?:lowest|smallest|least|fewest|bottom|worst|minimum|min|less|lower|smaller|fewer|shortest|lightest|"
    r"youngest|narrowest|slowest|poorest|coldest|driest|cheapest|least expensive)\b",
    re.I,
)
PERCENTILE = re.compile(
    r"\b(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[- ]?(?:percentile|centile|pctl?)\b|\bp(\d{1,2})\b", re.I
)
STATISTIC_WORDS = [
    (re.compile(r"\bmedian|middle value|50th percentile\b", re.I), "median"),
    (re.compile(r"\b(?:upper|third|top) quartile\b", re.I), "p75"),
    (re.compile(r"\b(?:lower|first|bottom) quartile\b", re.I), "p25"),
    (re.compile(r"\b(?:top|upper|highest) decile\b", re.I), "p90"),
    (re.compile(r"\b(?:bottom|lower|lowest|first) decile\b", re.I), "p10"),
    (re.compile(r"\bstandard deviation|\bstd\b|\bs\.?d\.?\b|\bspread\b|\bvariability\b|\bdispersion\b|\bvolatil", re.I),
     "sd"),
    (re.compile(r"\btotal\b|\bsum\b|\baltogether\b|\bcombined\b|\bin all\b|\bcumulative\b", re.I), "sum"),
    (re.compile(r"\bhow many\b|\bnumber of\b|\bcount (?:of|the)\b|\bcount\b(?= (?:rows|records|observations))",
                re.I), "count"),
    (re.compile(r"\bmaximum\b|\bmax\b|\blargest value\b|\bhighest value\b|\bpeak\b", re.I), "max"),
    (re.compile(r"\bminimum\b|\bmin\b|\bsmallest value\b|\blowest value\b", re.I), "min"),
    (re.compile(r"\baverage\b|\bmean\b|\btypical\b|\bavg\b", re.I), "mean"),
]  # fmt: skip
INSTEAD = re.compile(r"\b(?:instead of|rather than|in place of|not)\s+(?:the\s+|a\s+|an\s+)?\w+(?:\s+deviation)?", re.I)
GROUP_BEFORE = re.compile(
    r"\b(?:by|per|for each|for every|across|between(?: the)?|among(?: the)?|in each|of each|within each|each|"
    r"grouped by|split by|broken down by|break(?:down| down) by|for the different|which|what|versus|vs\.?)\s+"
    r"(?:the\s+|different\s+|two\s+|three\s+|their\s+|its\s+)*$",
    re.I,
)
OUTCOME_WORDS = re.compile(r"\b(?:the )?(?:outcome|target|result|response|label|dependent variable|class)\b", re.I)
OUTCOME_NAMES = re.compile(r"^(?:outcome|target|label|class|y|result|response|survived|default|churn\w*)$", re.I)
IDENTIFIER = re.compile(r"(?:^|_|[a-z])(?:id|ID|Id|idx|index|key|uuid)$|^(?:row|record)_?(?:no|num|number)$")
# A number column that is a timeline: "year", "model_year", "Season"; not "steps_per_day" or "Year_Built".
TIMELINE_ENDS = {"year", "years", "yr", "decade", "season", "period"}
TIMELINE_ONLY = {"month", "months", "quarter", "quarters", "week", "weeks", "day", "days"}


def is_timeline(name: str) -> bool:
    """A number column that is a timeline: "year", "model_year", "FiscalYear"; not "steps_per_day" or "Year_Built"."""
    words = split_name(name)
    return bool(words) and (words[-1] in TIMELINE_ENDS or words in ([w] for w in TIMELINE_ONLY)) and "per" not in words


@dataclass
class Request:
    """What the analyst is asked: one kind, the columns in their parts, the statistic, the filters."""

    kind: str
    table: str
    measures: list[str] = field(default_factory=list)
    group: str | None = None
    outcome: str | None = None
    time: str | None = None
    entity: str | None = None
    weight: str | None = None
    statistic: str = "mean"
    percentile: float = 50
    direction: str = "high"
    period: str = "auto"
    sd: str = "sample"
    filters: list[dict[str, Any]] = field(default_factory=list)
    pair: bool = False
    cycle: str | None = None  # "the warmest month of the year": groups are a date column's months
    missing: list[str] = field(default_factory=list)  # what the question needs and the table lacks

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Schema:
    """A table's columns as the question model reads them."""

    table: str
    columns: list[dict[str, Any]]  # name, type, distinct, min, max, values (few-valued columns)
    rows: int = 0

    def names(self, *kinds: str) -> list[str]:
        return [c["name"] for c in self.columns if c["type"] in kinds]

    @property
    def numbers(self) -> list[str]:
        """Number columns that measure something: an identifier (traveller_id, RowID) measures nothing."""
        return [n for n in self.names("number") if not IDENTIFIER.search(n)]

    @property
    def categories(self) -> list[str]:
        """Text and yes/no columns with few values, and number columns that code a few categories."""
        return [
            c["name"]
            for c in self.columns
            if (c["type"] in ("string", "boolean") and 1 <= (c.get("distinct") or 0) <= min(MAX_GROUPS, self._unique()))
            or (c["type"] == "number" and _coded(c))
        ]

    def _unique(self) -> int:
        """A text column with a value for every row names the rows (students, states): it groups nothing."""
        return self.rows - 1 if self.rows > 2 else MAX_GROUPS

    @property
    def times(self) -> list[str]:
        dates = self.names("date")
        years = [c["name"] for c in self.columns if c["type"] == "number" and is_timeline(c["name"])]
        return dates + years

    def ranges(self) -> dict[str, tuple[float, float]]:
        return {
            c["name"]: (float(c["min"]), float(c["max"]))
            for c in self.columns
            if c["type"] == "number" and isinstance(c.get("min"), int | float) and isinstance(c.get("max"), int | float)
        }

    def values(self) -> dict[str, list[str]]:
        return {c["name"]: [str(v) for v in c.get("values") or []] for c in self.columns if c["type"] == "string"}


def _coded(column: dict[str, Any]) -> bool:
    """A number column that codes categories: 0/1, or a few whole values under a name that says so
    (region, sex, EducationLevel, PartyID); a few whole values alone (qty, rooms) still measure."""
    values = column.get("values") or []
    if not (2 <= (column.get("distinct") or 0) <= CODED_MAX and all(float(v).is_integer() for v in values)):
        return False
    named = column.get("coded") or CODE_NAMES.search(column["name"])
    return {float(v) for v in values} == {0.0, 1.0} or bool(named)


CODE_NAMES = re.compile(
    r"code|level|class|type|group|region|sex|gender|status|categor|flag|tier|zone|segment|cluster|cohort|bracket"
    r"|party|band|quintile|decile|kind|origin|species|area_id|district",
    re.I,
)


def statistic_of(text: str, *, besides: tuple[str, ...] = ()) -> tuple[str, float] | None:
    """The statistic the words ask for, the one said last winning (a refinement overrides the goal),
    leaving out ``besides`` ("the total number of units" asks a total, not a count)."""
    said: list[tuple[int, str, float]] = []
    text = INSTEAD.sub(" ", text)
    for match in PERCENTILE.finditer(text):
        said.append((match.start(), "percentile", float(match.group(1) or match.group(2))))
    for pattern, name in STATISTIC_WORDS:
        for match in pattern.finditer(text):
            if re.fullmatch(r"p\d+", name):
                said.append((match.start(), "percentile", float(name[1:])))
            elif name not in besides:
                said.append((match.start(), name, 50))
    if not said:
        return None
    _, name, percentile = max(said)
    return name, percentile


def direction_of(text: str) -> str:
    """Highest or lowest, the word said last winning."""
    high = [m.start() for m in HIGH.finditer(text)]
    low = [m.start() for m in LOW.finditer(text)]
    return "low" if low and (not high or max(low) > max(high)) else "high"


def kind_of(text: str, schema: Schema, named_numbers: int, named_any: int, filtered: bool = False) -> str:
    """The kind of question, from its words (column names blanked) and what the table has to answer it with."""
    if MANY_MEASURES.search(text) and DIFFER.search(text):
        return "rank_differences"
    if ASSOCIATION.search(text) and (named_any >= 1 or OUTCOME_WORDS.search(text)):
        return "association"
    if SHARE.search(text) and (not named_numbers or SHARE_OF_TOTAL.search(text)):
        return "share"
    moved = GROWTH.search(text) or (MOVE.search(text) and (MOST.search(text) or STEEP.search(text)))
    if moved and schema.times and named_numbers and (MOST.search(text) or STEEP.search(text)) and ENTITY.search(text):
        return "growth"
    which_most = WHICH.search(text) and (HIGH.search(text) or LOW.search(text)) and not CHANGE_WORDS.search(text)
    changing = CHANGE_WORDS.search(text) and not DIFFER.search(text)
    course = changing or (TIME_WORDS.search(text) and not (filtered and not changing))
    if schema.times and not which_most and course:
        return "trend"
    if SHARE.search(text):
        return "share"
    if MANY_MEASURES.search(text) and MOST.search(text):
        return "rank_differences"
    if DIFFER.search(text) and not named_numbers and (MOST.search(text) or re.search(r"\bwhat\b", text, re.I)):
        return "rank_differences"
    return "compare"


SHARE_OF_TOTAL = re.compile(
    r"\b(?:share|slice|portion|proportion|percent(?:age)?|fraction|part) of (?:the )?(?:total|overall|all|combined)\b"
    r"|\baccounts? for\b|\bmakes? up\b|\bcontribut\w*",
    re.I,
)
WHICH = re.compile(
    r"\b(?:which|rank|who (?:has|had|is|was|are|were|gets?|got|earns?|spends?|sells?|sold)"
    r"|what \w+ (?:has|had|have|is|was|brings?|shows?|gets?|got|makes?|made))\b",
    re.I,
)
CYCLE = re.compile(
    r"\b(?:which|what)(?:'s|\u2019s| is| was)?\s+(?:\w+\s+){0,2}(month|weekday|day of the week|quarter|season)\b", re.I
)
CYCLES = {"month": "month_of_year", "season": "quarter_of_year", "quarter": "quarter_of_year", "weekday": "weekday",
          "day of the week": "weekday"}  # fmt: skip
MOVE = re.compile(
    r"\b(?:grew|grow\w*|rose|ris\w+|climb\w*|gain\w*|increas\w*|jump\w*|improv\w*|fell|fall\w*|drop\w*|declin\w*"
    r"|decreas\w*|lost|los[es]\w*|cut\w*|shr[aiu]nk\w*|(?:come|came|went|go|gone) (?:down|up)|chang\w*)\b",
    re.I,
)
STEEP = re.compile(r"\b(?:steepest|sharpest|biggest|largest|greatest|strongest|fastest)\b", re.I)
ENTITY = re.compile(
    r"\b(?:which|where|who|whose|in which|what \w+)\b"
    r"|\b(?:fastest|slowest|most|least|best|worst)[- ](?:growing|shrinking|rising|falling|improving|declining)\b",
    re.I,
)
COMPARE = re.compile(r"\b(?:compare|compared|comparing|versus|vs\.?|differ\w*|between)\b", re.I)
MOST = re.compile(
    r"\b(?:most|least|fastest|slowest|largest|biggest|greatest|highest|lowest|smallest|strongest|weakest|best|worst"
    r"|top|rank\w*)\b",
    re.I,
)


def _asks_which(text: str) -> bool:
    return bool(WHICH.search(text))


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


WHO = re.compile(r"\s*(?:where|with|that|who|whose|which|having)\b", re.I)


def read_question(text: str, schema: Schema) -> Request:
    """The structured request for ``text`` (a goal, with any later refinements appended)."""
    text = " ".join((text or "").split())
    said_values = value_mentions(text, schema.values())
    value_found = value_filters(text, said_values)
    number_found = number_filters(
        text, schema.numbers, ranges=schema.ranges(), times=schema.times, dates=schema.names("date")
    )
    every = _named_apart_from_statistics(
        text,
        [
            m
            for m in mentions(text, [c["name"] for c in schema.columns])
            if not _names_the_table(text, m, schema)
            and not (m.column in schema.times and PERIODIC.fullmatch(text[m.start : m.end]))
        ],
        schema,
    )
    schema = _levels_said(text, schema, every)
    request = Request(kind="compare", table=schema.table)
    # "leaf count" or "median_rent_eur" name a column, not a statistic
    unnamed = _without(text, [m for m in every if m.score == 1])
    request.direction = direction_of(text)
    if POPULATION_SD.search(text):
        request.sd = "population"
    # "smoker = 1 / 0", "sex 1 vs 2": values of a coded category set side by side are its groups
    compared = [f for f in number_found if f.column in schema.categories and f.condition.get("op") == "="]
    compared = compared if COMPARE.search(text) else []
    listed = [f for f in _coded_values(text, schema, every) if f.condition.get("op") == "in" or "and" in f.condition]
    compared += listed if COMPARE.search(text) else []  # "individual_deductible 1 vs 0"
    number_found = [f for f in number_found if f not in compared]
    filter_spans = [(f.start, f.end) for f in number_found + value_found]
    free = [m for m in every if not any(s <= m.start < e for s, e in filter_spans)]
    # Columns named in full come before those named in part ("the baskets data ... average items").
    ranked = sorted(free, key=lambda m: m.score < 1)
    numbers = [m.column for m in ranked if m.column in schema.numbers and m.column not in schema.times]
    # A coded category is a grouping when said as one ("by region", "sex 1 vs 2"), else a measure like any other.
    grouped = {m.column for m in _group_mentions(text, schema, free)} | {f.column for f in compared}
    binary_columns = {c["name"] for c in schema.columns if {_spoken_value(v) for v in c.get("values") or []} in YES_NO}
    plain = [n for n in numbers if n not in grouped and n not in binary_columns]
    filtered = any(f.column not in schema.times for f in number_found + value_found)
    # The question's own words, its filters said apart: "five or more" asks no "more".
    unnamed, text = _without(unnamed, filter_spans), _without(text, filter_spans)
    request.kind = kind_of(unnamed, schema, len(plain), len(free), filtered)
    statistic = statistic_of(unnamed)
    if statistic and statistic[0] == "count" and _counts_a_measure(text, free, schema):
        statistic = statistic_of(unnamed, besides=("count",))
    if statistic:
        request.statistic, request.percentile = statistic
    binary = _binary_filters(text, schema, free) + [
        f for f in _coded_values(text, schema, free) if f.column not in {c.column for c in compared}
    ]
    number_found += binary
    free = [m for m in free if m.column not in {f.column for f in binary}]
    grouping = _group_mentions(text, schema, free)
    request.group = grouping[0].column if grouping else (compared[0].column if compared else None)
    several = [f for f in value_found if f.condition.get("op") == "in"]
    if several and request.group in (None, several[0].column):
        request.group = several[0].column  # "versicolor and virginica" compares those groups
    request.filters = [f.condition for f in number_found + value_found]
    request.measures = [n for n in numbers if n != request.group] or [
        c for c in _filtered_measures(number_found) if c in schema.numbers
    ]
    filtered = {f.column for f in value_found if f.condition.get("op") in ("=", "!=")}
    _assign(request, text, schema, [m for m in free if m.column not in filtered])
    if request.kind == "statistic" and not statistic and MOST.search(unnamed):
        request.statistic = "max" if request.direction == "high" else "min"  # "the highest BMI in the data"
    return request


POPULATION_SD = re.compile(r"\bpopulation (?:standard deviation|sd|variance)|\bdivid\w* by n\b", re.I)
COUNT_OF = re.compile(r"\b(?:number of|how many|count of)\s+(?:\w+\s+){0,1}$", re.I)


STATISTIC_ONLY = re.compile(r"(?:total|sum|mean|average|count|median|max|min|number)s?", re.I)


LEVELS = re.compile(r"\b(?:levels?|ratings?|groups?|codes?|coded|categor\w*|classes|grades|tiers|bands|scale)\b", re.I)


def _levels_said(text: str, schema: Schema, named: list[Mention]) -> Schema:
    """ "the five marriage ratings (rate_marriage)", "levels of religious": a few whole values called
    levels are categories, whatever the column's name."""
    called = {m.column for m in named if LEVELS.search(text[max(0, m.start - 40) : m.end + 40])}
    if not called:
        return schema
    columns = [{**c, "coded": True} if c["name"] in called else c for c in schema.columns]
    return Schema(schema.table, columns, schema.rows)


def _named_apart_from_statistics(text: str, found: list[Mention], schema: Schema) -> list[Mention]:
    """ "in total" names total_eur only when no other measure is named: otherwise it is the statistic."""
    said = [m for m in found if not STATISTIC_ONLY.fullmatch(text[m.start : m.end])]
    numbers = {m.column for m in said if m.score == 1 and m.column in schema.numbers}
    return [m for m in found if m in said or not numbers]


def _without(text: str, spans: list[Mention] | list[tuple[int, int]]) -> str:
    """The text with some spans (column names, filters) blanked out, every offset kept."""
    for span in spans:
        start, end = (span.start, span.end) if isinstance(span, Mention) else span
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _counts_a_measure(text: str, free: list[Mention], schema: Schema) -> bool:
    """ "The number of unemployed" names the unemployed column's values, not a count of rows."""
    return any(m.column in schema.numbers and COUNT_OF.search(text[: m.start]) for m in free)


POSITIVE = ("1", "yes", "true", "y")
NONE_OF = re.compile(r"\b(?:without(?: any)?|with no|no|zero|free of)\s+$", re.I)
YES_NO = ({"0", "1"}, {"yes", "no"}, {"true", "false"}, {"y", "n"})
NEGATED = re.compile(
    r"(?:\bnon[- ]?|\b(?:not|no|without|don't|doesn't|didn't|do not|does not|never)\s+(?:\w+\s+){0,2})$", re.I
)


def _binary_filters(text: str, schema: Schema, free: list[Mention]) -> list[Found]:
    """ "smokers", "non-smokers", "flats without a balcony": a yes/no column named as who the rows are
    keeps the rows of that answer, unless the question compares by it."""
    found = []
    for mention in free:
        column = next(c for c in schema.columns if c["name"] == mention.column)
        values = [_spoken_value(v) for v in column.get("values") or []]
        if column["type"] == "number" and column.get("min") == 0 and NONE_OF.search(text[: mention.start]):
            found.append(Found({"column": mention.column, "op": "=", "value": 0}, mention.start, mention.end,
                               mention.column))  # fmt: skip
            continue  # "people without any physical limitation", "with no chronic diseases"
        if set(values) not in YES_NO:
            continue
        compared = COMPARE.search(text) or _asks_which(text) or HIGH.search(text) or LOW.search(text)
        if GROUP_BEFORE.search(text[: mention.start][-60:]) or compared:
            continue
        negated = bool(NEGATED.search(text[max(0, mention.start - 40) : mention.start]))
        raw = [v for v in column.get("values") or [] if (_spoken_value(v) in POSITIVE) != negated]
        condition = {"column": mention.column, "op": "=", "value": raw[0]}
        found.append(Found(condition, mention.start, mention.end, mention.column))
    return found


def _spoken_value(value: Any) -> str:
    """1.0, 1, True and "Yes" as a person says them: "1", "1", "true", "yes"."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).lower()


def _coded_values(text: str, schema: Schema, free: list[Mention]) -> list[Found]:
    """ "PartyID 0 and 6", "region = 2 or 3": codes of a coded column listed after its name (as the
    question names it, or as the table spells it)."""
    found = []
    for column in schema.columns:
        name = column["name"]
        if name not in schema.categories or column["type"] != "number":
            continue
        said = [(m.start, m.end) for m in free if m.column == name]
        said += [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I)]
        for start, end in said:
            listed = CODES.match(text[end:])
            known = {_spoken_value(v): v for v in column.get("values") or []}
            codes = [known[c] for c in re.findall(r"\d+", listed.group(1)) if c in known] if listed else []
            if listed and codes:
                found.append(
                    Found(_codes_condition(name, codes, excluded_at(text, start)), start, end + listed.end(), name)
                )
                break
    return found


def _codes_condition(column: str, codes: list[Any], excluded: bool) -> dict[str, Any]:
    if len(codes) == 1:
        return {"column": column, "op": "!=" if excluded else "=", "value": codes[0]}
    if excluded:
        return {"and": [{"column": column, "op": "!=", "value": c} for c in codes]}
    return {"column": column, "op": "in", "value": codes}


CODES = re.compile(
    r"\s*(?:=|==|is|of|coded(?: as)?)?\s*(\d+(?:\s*(?:,|and|or|/|&|vs\.?|versus)\s*\d+)*)\b(?!\s*(?:to|-)\s*\d)"
)


def _names_the_table(text: str, mention: Mention, schema: Schema) -> bool:
    """ "Analyse the baskets CSV data": words that name the table, not a column (basket_value)."""
    said = {stem(w) for w in re.findall(r"[A-Za-z]+", text[mention.start : mention.end])}
    of_the_table = said <= {stem(w) for w in split_name(schema.table)}
    return mention.score < 1 and of_the_table and bool(TABLE_WORDS.match(text[mention.end :]))


TABLE_WORDS = re.compile(r"\W*(?:\w+\W+)?(?:csv|data|dataset|file|table|spreadsheet|sheet)\b", re.I)


def _filtered_measures(found: list[Found]) -> list[str]:
    """ "The average price of the cars priced above 10": the measure was named only in its filter."""
    return list(dict.fromkeys(f.column for f in found))


def _assign(request: Request, text: str, schema: Schema, free: list[Mention]) -> None:
    """Fill the parts each kind needs, from what the question named or the table's likeliest columns."""
    if request.kind == "association":
        _association(request, text, schema, free)
    elif request.kind == "rank_differences":
        request.group = request.group or _first_category(schema, free)
        # "homeowners differ from renters": one side named, both sides compared
        request.filters = [f for f in request.filters if not (f.get("column") == request.group and f.get("op") == "=")]
        request.measures = [m for m in request.measures if m != request.group]
    elif request.kind in ("trend", "growth"):
        dates = set(schema.names("date"))
        ordered = sorted(free, key=lambda m: (-m.score, m.column not in dates))  # a date column over "Year Built"
        named_times = [m.column for m in ordered if m.column in schema.times]
        request.time = named_times[0] if named_times else (schema.times[0] if schema.times else None)
        request.measures = [m for m in request.measures if m != request.time]
        if request.kind == "growth":
            request.entity = request.group or _first_category(schema, free, besides=request.time)
            # "relative to where it started in 2012": the start, not a filter to one year
            request.filters = [
                f for f in request.filters if not (f.get("column") == request.time and f.get("op") == "=")
            ]
        request.period = _period_of(text)
    elif request.kind == "share":
        named = [m.column for m in free if m.column in schema.categories]
        request.group = request.group or (named[0] if named else _first_category(schema, free))
        request.filters = [f for f in request.filters if f.get("column") != request.group]  # the shares are all of it
        # "the biggest slice of net revenue": a measure named in a share question is what is shared
        plain = [m for m in request.measures if m not in schema.categories and m != request.group]
        request.weight = plain[0] if plain else None
    else:
        coded = [m for m in request.measures if m in schema.categories]
        if request.group is None and coded and len(coded) < len(request.measures):
            request.group = coded[0]  # "progression for sex 1 or 2": a coded category groups the measure
            request.measures = [m for m in request.measures if m != coded[0]]
        named = [m.column for m in free if m.column in schema.categories and m.column not in request.measures]
        asks = _asks_which(text) or HIGH.search(text) or LOW.search(text) or COMPARE.search(text)
        if request.group is None and named and asks:
            request.group = named[0]  # "the region with the lowest murder rate", "priciest district"
        cycle = CYCLE.search(text)
        if request.group is None and cycle and not any(m.column in schema.categories for m in free):
            word = cycle.group(1).lower().split()[0]
            held = [c for c in schema.categories if word in split_name(c)]  # a calendar_month column
            if held or schema.names("date"):
                request.group = held[0] if held else schema.names("date")[0]
                request.cycle = None if held else CYCLES[cycle.group(1).lower()]
        if request.group is None and _asks_which(text) and (MOST.search(text) or HIGH.search(text) or LOW.search(text)):
            request.group = _first_category(schema, free)
        request.kind = "compare" if request.group else "statistic"
        _reconsider(request, text, schema)
    for part in ("group", "time", "entity", "outcome"):
        if request.kind in _NEEDS.get(part, ()) and getattr(request, part) is None:
            request.missing.append(part)
    if not request.measures and request.kind not in ("share", "association", "rank_differences"):
        request.missing.append("measure")


def _reconsider(request: Request, text: str, schema: Schema) -> None:
    """Two questions that name no statistic: "which region has the most orders?" (no measure: a count of
    rows, the share) and "do heavier cars use more fuel?" (two measures, no grouping: how they relate)."""
    if request.kind == "compare" and not request.measures and MOST.search(text):
        request.kind = "share"
    elif (
        request.kind == "statistic"
        and len(request.measures) >= 2
        and not request.filters
        and statistic_of(text) is None
    ):
        request.kind, request.pair = "association", True
        request.measures, request.outcome = [request.measures[0]], request.measures[1]


_NEEDS = {
    "group": ("compare", "rank_differences", "share"),
    "time": ("trend", "growth"),
    "entity": ("growth",),
    "outcome": ("association",),
}


def _association(request: Request, text: str, schema: Schema, free: list[Mention]) -> None:
    """Which columns go with which: the outcome is the column named last ("... associated with Y"); two
    columns named are a pair; more are the candidates to rank; none, every number column is."""
    ranked = sorted(free, key=lambda m: m.score < 1)  # "HDL cholesterol" is hdl, not total_cholesterol
    full = {m.column for m in ranked if m.score == 1}
    two_valued = {c["name"] for c in schema.columns if (c.get("distinct") or 0) == 2}
    named = [m for m in ranked if m.column in schema.numbers or m.column in two_valued]
    named = [m for m in named if m.column in full or not _beside_a_full_name(m, ranked)]
    named = [m for m in named if not _set_aside(text, m)]
    # "voting for Dole rather than Clinton": a two-valued column whose values are named is a column named
    valued = [f["column"] for f in request.filters if f.get("op") in ("in", "=") and f.get("column") in two_valued]
    columns = list(dict.fromkeys([m.column for m in sorted(named, key=lambda m: m.start)] + valued))
    if PASSIVE.search(text) and len(columns) >= 2:
        columns = [*columns[1:], columns[0]]  # "spending driven by age or income": the first named is the outcome
    ranking = bool(MANY_MEASURES.search(text)) or re.search(r"\bwhich\b|\bwhat\b", text, re.I) is not None
    if len(columns) == 2 and not (ranking and MANY_MEASURES.search(text)):
        request.pair = True
        request.measures, request.outcome = [columns[0]], columns[1]
        return
    request.outcome = columns[-1] if columns else _outcome_column(schema)
    request.measures = columns[:-1] if len(columns) > 2 else []
    aside = [m.column for m in free if _set_aside(text, m)]
    if aside and not request.measures:
        request.measures = [n for n in schema.numbers if n not in aside and n != request.outcome]


def _beside_a_full_name(mention: Mention, named: list[Mention]) -> bool:
    """ "HDL cholesterol": the word after hdl is part of its phrase, not total_cholesterol."""
    return any(m.score == 1 and m is not mention and abs(m.end - mention.start) <= 2 for m in named)


PASSIVE = re.compile(r"\b(?:driven|explained|predicted|influenced|affected|determined|shaped)\s+(?:\w+\s+)?by\b", re.I)
SET_ASIDE = re.compile(
    r"\b(?:leav\w*|set\w*|putt?\w*|apart from|aside from|other than|besides|except|excluding|ignoring|not counting)"
    r"\s+(?:the\s+)?$",
    re.I,
)


def _set_aside(text: str, mention: Mention) -> bool:
    """ "Leaving the murder rate aside", "other than income": a column the question rules out."""
    before, after = text[max(0, mention.start - 30) : mention.start], text[mention.end : mention.end + 8]
    return bool(SET_ASIDE.search(before)) and (not before.lower().rstrip().endswith(("leaving", "setting", "putting"))
                                               or after.lower().lstrip().startswith("aside"))  # fmt: skip


def _outcome_column(schema: Schema) -> str | None:
    names = [c["name"] for c in schema.columns]
    chosen = [n for n in names if OUTCOME_NAMES.match(n)]
    return chosen[0] if chosen else (names[-1] if names else None)


def _first_category(schema: Schema, free: list[Mention], *, besides: str | None = None) -> str | None:
    """The grouping a question implies but does not name: a named category, else the table's first
    text column with a handful of values."""
    distinct = {c["name"]: c.get("distinct") or 0 for c in schema.columns}
    named = [m.column for m in free if m.column in schema.categories and m.column != besides]
    if named:
        full = {m.column for m in free if m.score == 1}
        # "students taught with PSI": the yes/no PSI named in full, not the students' names
        return min(named, key=lambda n: (distinct[n] > 2, n not in full))
    text_columns = [
        c["name"]
        for c in schema.columns
        if c["type"] in ("string", "boolean") and 2 <= (c.get("distinct") or 0) <= MAX_GROUPS and c["name"] != besides
    ]
    return text_columns[0] if text_columns else None


def _period_of(text: str) -> str:
    for period in ("year", "quarter", "month", "week", "day"):
        if re.search(rf"\b(?:{period}(?:s|ly)?|{'annual' if period == 'year' else period}\w*)\b", text, re.I):
            return period
    return "auto"
