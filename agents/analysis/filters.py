"""Row filters read from a person's words, in every phrasing and both directions.

"above 5", "5 or more", "at least 5", "older than 50", "between 2 and 4", "only setosa", and each of
them after "excluding", "without", "except" or "not", which turns the condition round (excluding the
rows above 100 keeps the rows at or below 100, and the rows with no value). The conditions are the
structured filters ``dataset.query`` and the ``stats.*`` operations take. ``agents.analysis.comparisons``
reads the comparisons; here each finds the column it is about. Plain Python.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from typing import Any

from agents.analysis.comparisons import NUMBER_WORDS, comparisons
from agents.analysis.words import PERIODIC, UNITS, mentions, split_name

EXCLUDE = re.compile(
    r"\b(?:exclud\w*|except(?:ing)?|without|leav\w* out|leaving(?= .{1,40}\b(?:out|aside)\b)|remov\w*|not counting"
    r"|drop(?:ping)? (?:the |those |all )?(?:rows|records|ones|entries|cases|outliers)|drop\w* out|ignor\w*|omit\w*"
    r"|apart from"
    r"|aside from|filter\w* out|rule out|take out|other than|minus|but not|throw out|disregard\w*|outside(?: of)?)\b",
    re.I,
)
ROWS_BEFORE = re.compile(r"\b(?:rows?|records?|entries|entry|cases?|ones|those|observations?|data)\s*$", re.I)
RELATIVE = re.compile(r"\b(?:where|whose|which|that|who|when)\b", re.I)  # a new condition begins
EXCLUDED_JUST_BEFORE = re.compile(rf"(?:{EXCLUDE.pattern})\s*$", re.I)  # "except where price is 100 or more"
NOT = re.compile(r"\b(?:not|non|isn't|aren't|wasn't|weren't|never)\s*-?\s*(?:\w+\s+){0,4}$", re.I)
YEAR = re.compile(r"^(?:1[5-9]|20|21)\d\d$")
# a unit spelt out, as column names shorten it: "over 250 seconds" is of duration_s
SPELT_UNITS = {"second": ("s", "sec", "secs"), "minute": ("min", "mins"), "hour": ("h", "hr", "hrs"),
               "kilometre": ("km",), "kilometer": ("km",), "kilogram": ("kg",), "metre": ("m",), "meter": ("m",),
               "mile": ("mi", "miles"), "pound": ("lb", "lbs"), "gram": ("g",)}  # fmt: skip
UNIT_AFTER = re.compile(r"^\s*\u00b0?\s*([A-Za-z%€$£]+)")  # "27 °C" says c, as mean_temp_c does
CLAUSE_END = re.compile(
    r"[.;?!]|:\s|,\s*(?:and|but|then)?\s*(?=\w)|\b(?:and|but)\s+(?=(?:only|exclud|without|except))", re.I
)
PEOPLE_BEFORE = re.compile(
    r"\b(?:patients|people|persons|participants|subjects|respondents|adults|men|women|customers|employees|players"
    r"|members|residents|recipients|children|students|workers|those|anyone)\s+(?:aged\s+)?$",
    re.I,
)
RANKED_BEFORE = re.compile(r"\b(?:top|bottom|first|last|best|worst|leading)\s*$", re.I)
INVERSE = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "=": "!=", "!=": "="}


@dataclass(frozen=True)
class Found:
    condition: dict[str, Any]
    start: int
    end: int
    column: str


def _clause_start(text: str, position: int) -> int:
    starts = [m.end() for m in CLAUSE_END.finditer(text, 0, position)]
    return starts[-1] if starts else 0


def _clause_end(text: str, position: int) -> int:
    found = CLAUSE_END.search(text, position)
    return found.start() if found else len(text)


def excluded_at(text: str, start: int) -> bool:
    """Whether an exclusion word or a "not" rules the condition that starts at ``start``."""
    clause = _clause_start(text, start)
    # "without a net where it is 28 or more": a new condition; "exclude the rows where ...": the same one
    relative = [
        m.end()
        for m in RELATIVE.finditer(text, clause, start)
        if not ROWS_BEFORE.search(text[: m.start()]) and not EXCLUDED_JUST_BEFORE.search(text[clause : m.start()])
    ]
    clause = relative[-1] if relative else clause
    ruled_out = any(m.start() < start for m in EXCLUDE.finditer(text, clause, _clause_end(text, start)))
    return ruled_out or bool(NOT.search(text[clause:start]))  # "leaving X and Y out" rules out both


@dataclass(frozen=True)
class Columns:
    """The number columns a comparison may be about, their ranges, and which hold time."""

    numbers: list[str]
    ranges: dict[str, tuple[float, float]]
    times: list[str]
    dates: list[str]

    def named_by(self, value: Any, near: str = "") -> bool:
        """Whether a year is a word of a column's name ("1978" of earnings_1978) said with its other words
        (``near``: the text around it): it names, not filters; "In 1988, ..." keeps that year's rows."""
        if not _is_year(value):
            return False  # "two-room": the 2 of a size_m2 column is a unit, not the rooms
        holding = [column for column in [*self.numbers, *self.dates] if str(value) in split_name(column)]
        return bool(mentions(near.replace(str(value), " "), holding))  # its other words said near it

    def plausible(self, column: str, value: float | tuple[float, float]) -> bool:
        """Whether a threshold falls within (or near) the column's values: "fewer than 2,500" is no year."""
        if column not in self.ranges:
            return column in self.dates and _is_year(value)
        low, high = self.ranges[column]
        margin = (high - low) / 20  # a threshold beyond every value would keep all rows or none
        values = value if isinstance(value, tuple) else (value,)
        return all(isinstance(v, int | float) and low - margin <= v <= high + margin for v in values)


def _holds_years(span: tuple[float, float] | None) -> bool:
    """A column whose values all look like years ("Year Built")."""
    return span is not None and 1000 <= span[0] <= span[1] <= 2200


def _is_year(value: float | tuple[float, float]) -> bool:
    values = value if isinstance(value, tuple) else (value,)
    return all(isinstance(v, int) and YEAR.match(str(v)) for v in values)


def _far_time(between: str, column: str, columns: Columns) -> bool:
    return column in columns.times and len(re.findall(r"\w+", between)) > FAR_WORDS


FAR_WORDS = 5


def _subject(
    text: str, start: int, end: int, columns: Columns, adjective: str | None, value: Any, timely: bool
) -> tuple[str, int, int] | None:
    """The number column a comparison is about and the span that says it all: by its adjective ("older
    than"), just after its number ("6 or more cylinders", "1400 kg"), named before it, later in its
    clause, or the one time column a year can be about ("between 1947 and 1962")."""
    numbers = columns.numbers
    candidates: list[tuple[str, int, int]] = []
    if adjective:
        candidates += [(m.column, start, end) for m in mentions(adjective, numbers)[:1]]
    after = mentions(text[end : end + 40], numbers)
    if after and re.fullmatch(r"[ \t(]*(?:\w+[ \t-]+)?", text[end : end + after[0].start]):
        candidates.append((after[0].column, start, end + after[0].end))
    clause = _clause_start(text, start)
    before = [
        m
        for m in mentions(text[clause:start], numbers)
        if not PERIODIC.fullmatch(text[clause + m.start : clause + m.end])
    ]
    # a time column named far before its years ("in which quarter of the year ... over 1970-2016") keeps
    # its own words: the span is the years alone
    candidates += [
        (m.column, start if _far_time(text[clause + m.end : start], m.column, columns) else clause + m.start, end)
        for m in reversed(before)
    ]
    unit = UNIT_AFTER.match(text[end:])
    rest = text[end : _clause_end(text, end)]
    if unit:  # "more than 50 TWh from nuclear": of the columns in TWh, the one the clause names
        said_after = {m.column for m in mentions(rest, numbers)}
        written = {unit.group(1).lower(), *SPELT_UNITS.get(unit.group(1).lower().removesuffix("s"), ())}
        carrying = [n for n in numbers if written & set(split_name(n))]
        candidates += [(n, start, end + unit.end()) for n in sorted(carrying, key=lambda n: n not in said_after)]
    candidates += [(m.column, start, end) for m in mentions(text[start:end], numbers)[:1]]  # "90 degrees or more"
    candidates += [
        (m.column, start, end + m.end) for m in mentions(rest, numbers)
    ]  # "fewer than 20% of pupils are low income"
    ages = [n for n in numbers if split_name(n)[:1] == ["age"]]
    if PEOPLE_BEFORE.search(text[:start]) and ages:  # "patients over 40": their age, before any other
        candidates.insert(0, (ages[0], start, end))
    touching = [m for m in before if not text[clause + m.end : start].strip()]
    if touching:  # "aged 60 or more smoke": the word right before the number names it, not "smoke" after
        candidates.insert(0, (touching[-1].column, clause + touching[-1].start, end))
    plausible = [c for c in candidates if columns.plausible(c[0], value)]
    times = [t for t in columns.times if columns.plausible(t, value)]
    if timely and _is_year(value):  # "in 1980", "built before 1920": a time column, the one named first
        named_times = [c for c in plausible if c[0] in columns.times or _holds_years(columns.ranges.get(c[0]))]
        if named_times or times:
            return named_times[0] if named_times else (times[0], start, end)
        if columns.times:  # "for 2030", past the table's years: still a year, never a sales figure of 2030
            return columns.times[0], start, end
    if plausible:
        return plausible[0]
    if times:
        return times[0], start, end  # "between 1947 and 1962": the years of the time column
    unknown = [c for c in candidates if c[0] not in columns.ranges and c[0] not in columns.dates]
    return unknown[0] if unknown else None  # a threshold no column's values reach filters nothing


def kept_where(column: str, op: str, value: Any, *, excluded: bool) -> dict[str, Any]:
    if op == "between":
        low, high = value
        kept = {"and": [{"column": column, "op": ">=", "value": low}, {"column": column, "op": "<=", "value": high}]}
        if not excluded:
            return kept
        return {"or": [{"column": column, "op": "<", "value": low}, {"column": column, "op": ">", "value": high},
                       {"column": column, "op": "is_null", "value": True}]}  # fmt: skip
    if not excluded:
        return {"column": column, "op": op, "value": value}
    # The rows a person leaves out are those that match; rows with no value there are not among them.
    return {
        "or": [
            {"column": column, "op": INVERSE[op], "value": value},
            {"column": column, "op": "is_null", "value": True},
        ]
    }


def number_filters(
    text: str,
    numbers: list[str],
    *,
    ranges: dict[str, tuple[float, float]] | None = None,
    times: list[str] | tuple[str, ...] = (),
    dates: list[str] | tuple[str, ...] = (),
    fallback: str | None = None,
    levels: dict[str, list[Any]] | None = None,
) -> list[Found]:
    """The comparisons of number (and date) columns the text states, each turned round when it is excluded;
    a level of a few-valued column (``levels``) said with its unit ("at 2 mg") keeps its rows."""
    columns = Columns([*numbers, *dates], ranges or {}, list(times), list(dates))
    found = []
    for start, end, op, value, adjective, timely in comparisons(text):
        if columns.named_by(value, text[max(0, start - 30) : end + 30]):
            continue  # "1978 earnings" names earnings_1978: the number keeps no rows
        subject = _subject(text, start, end, columns, adjective, value, timely) or (
            (fallback, start, end) if fallback else None
        )
        if subject is None:
            continue
        column, begin, finish = subject
        excluded = excluded_at(text, begin)
        if column in columns.dates:
            condition = _year_condition(column, op, value, excluded=excluded)
            edge = YEAR_EDGE.search(text[max(0, start - 30) : start])
            if edge and op == "=" and _is_year(value):  # "at the end of 2022": its last month, not the whole year
                first, last = ("12-01", "12-31") if edge.group(1).lower() in ("end", "close") else ("01-01", "01-31")
                condition = kept_where(column, "between", (f"{value}-{first}", f"{value}-{last}"), excluded=excluded)
        else:
            condition = kept_where(column, op, value, excluded=excluded)
        found.append(Found(condition, begin, finish, column))
    found += _counted(text, columns, [range(f.start, f.end) for f in found])
    found += _with_unit(text, levels or {}, [range(f.start, f.end) for f in found])
    found += _month_span(text, columns, [range(f.start, f.end) for f in found])
    found += _month_of_a_year(text, columns, [range(f.start, f.end) for f in found])
    return found


YEAR_EDGE = re.compile(r"\b(?:at|by|towards?|near) the (end|close|start|beginning)(?: of)?\s*$", re.I)
MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)"
)
MONTH_SPAN = re.compile(rf"\b{MONTH}\s*(?:-|\u2013|to|through|until|and)\s*{MONTH}\b", re.I)


def _month_span(text: str, columns: Columns, taken: list[range]) -> list[Found]:
    """ "Between June and November", "the August-October peak": a span of a month column numbered 1 to 12."""
    months = [
        c for c in columns.numbers if "month" in split_name(c.lower()) and columns.ranges.get(c, (0, 99))[1] <= 12
    ]
    found = []
    for match in MONTH_SPAN.finditer(text):
        if len(months) != 1 or any(match.start() in span for span in taken):
            continue
        first, last = (MONTH_NAMES.index(match.group(i)[:3].lower()) + 1 for i in (1, 2))
        if first < last:
            between = re.search(r"\b(?:between|from)\s*$", text[: match.start()], re.I)
            begin = between.start() if between else match.start()
            condition = kept_where(months[0], "between", (first, last), excluded=excluded_at(text, match.start()))
            found.append(Found(condition, begin, match.end(), months[0]))
    return found


MONTH_OF_A_YEAR = re.compile(
    rf"\b(since|from|starting(?: in| from)?|after|before|until|till|through|by|up to|in|during)\s+{MONTH}"
    r"\s+((?:1[5-9]|20)\d\d)\b",
    re.I,
)
MONTHS_OF_A_YEAR = re.compile(rf"\b(?:from |between )?{MONTH}\s*(?:-|\u2013|to|through|until|and)\s*{MONTH}"
                              r",?\s+((?:1[5-9]|20)\d\d)\b", re.I)  # fmt: skip
MONTH_YEAR_OPS = {"since": ">=", "from": ">=", "starting": ">=", "after": ">", "before": "<", "until": "<=",
                  "till": "<=", "through": "<=", "by": "<=", "up": "<=", "in": "=", "during": "="}  # fmt: skip


def _months_of_a_year(text: str, columns: Columns, taken: list[range]) -> list[Found]:
    """ "From January to September 2015": the table's one date column from the first month's first day
    to the last month's last."""
    found = []
    for match in MONTHS_OF_A_YEAR.finditer(text):
        if len(columns.dates) != 1 or any(match.start() in span or match.start(3) in span for span in taken):
            continue
        year = int(match.group(3))
        start, end = (MONTH_NAMES.index(match.group(i)[:3].lower()) + 1 for i in (1, 2))
        if start < end:
            days = (f"{year}-{start:02d}-01", f"{year}-{end:02d}-{calendar.monthrange(year, end)[1]:02d}")
            condition = kept_where(columns.dates[0], "between", days, excluded=excluded_at(text, match.start()))
            found.append(Found(condition, match.start(), match.end(), columns.dates[0]))
    return found


def _month_of_a_year(text: str, columns: Columns, taken: list[range]) -> list[Found]:
    """ "Since January 2017", "before March 2020": a month of a year, said of the table's one date column."""
    found = _months_of_a_year(text, columns, taken)
    taken = [*taken, *(range(f.start, f.end) for f in found)]
    for match in MONTH_OF_A_YEAR.finditer(text):
        if len(columns.dates) != 1 or any(match.start() in span or match.start(3) in span for span in taken):
            continue
        month, year = MONTH_NAMES.index(match.group(2)[:3].lower()) + 1, int(match.group(3))
        first = f"{year}-{month:02d}-01"
        last = f"{year}-{month:02d}-{calendar.monthrange(year, month)[1]:02d}"
        op = MONTH_YEAR_OPS[match.group(1).split()[0].lower()]
        value: Any = (first, last) if op == "=" else last if op in (">", "<=") else first
        condition = kept_where(
            columns.dates[0], "between" if op == "=" else op, value, excluded=excluded_at(text, match.start())
        )
        found.append(Found(condition, match.start(), match.end(), columns.dates[0]))
    return found


# the units a number is said in ("2 mg"); not the words that number a thing or a share ("no", "pct", "in")
UNIT_WORDS = {u for u in UNITS if 2 <= len(u) <= 4} - {"no", "nr", "num", "amt", "pct", "pc", "in", "bn", "mn"}
WITH_UNIT = re.compile(r"(?<![\d,.])(\d+(?:\.\d+)?)\s*([a-z]{2,4})\b", re.I)


def _with_unit(text: str, levels: dict[str, list[Any]], taken: list[range]) -> list[Found]:
    """ "At 2 mg/day", "the 0.5 mg dose": a number said with the unit of a few-valued column (dose_mg),
    and one of its values, keeps the rows at that level."""
    found = []
    for match in WITH_UNIT.finditer(text):
        unit, value = match.group(2).lower(), float(match.group(1))
        if unit not in UNIT_WORDS or any(match.start() in span for span in taken):
            continue
        columns = [c for c, values in levels.items() if unit in split_name(c) and value in values]
        if len(columns) == 1:
            level = int(value) if value.is_integer() else value
            condition = kept_where(columns[0], "=", level, excluded=excluded_at(text, match.start()))
            found.append(Found(condition, match.start(), match.end(), columns[0]))
    return found


COUNT_WORDS = {"no": 0} | {word: n for word, n in NUMBER_WORDS.items() if n <= 10}
# never the end of a bigger number ("100,000 population") nor a unit ("per 1000 people")
COUNTED = re.compile(r"(?<![\d,.])(?<!\bper )\b(" + "|".join(COUNT_WORDS) + r"|\d+)[- ](?=[A-Za-z])", re.I)


KINDS_OF = re.compile(r"\s+(?:codes?|levels?|groups?|categories|category|values?|kinds?|types?|classes)\b", re.I)


EVERY = re.compile(r"\b(?:all|these|those|the|each of the|every one of the)\s+$", re.I)


def _counted(text: str, columns: Columns, taken: list[range]) -> list[Found]:
    """ "Two-room flats", "zero TVNewsDays": a number said right before a number column is its value."""
    found = []
    for match in COUNTED.finditer(text):
        if any(match.start() in span for span in taken) or EVERY.search(text[: match.start()]):
            continue  # "across all 301 counties" counts them, it keeps none
        if RANKED_BEFORE.search(text[: match.start()]):
            continue  # "the top 3 solar producers" lists three, it keeps no solar of 3
        said = match.group(1).lower()
        value = COUNT_WORDS[said] if said in COUNT_WORDS else int(said)
        named = mentions(text[match.end() : match.end() + 30], columns.numbers)
        if not named or named[0].start != 0 or named[0].score < 1 or not columns.plausible(named[0].column, value):
            continue
        if KINDS_OF.match(text[match.end() + named[0].end :]):
            continue  # "the seven EducationLevel codes" counts the codes, it keeps none of them
        column = named[0].column
        if str(value) in split_name(column):
            continue  # "7-day viewers" names viewers_7day, it keeps no rows with 7
        if columns.named_by(value, text[max(0, match.start() - 30) : match.end() + 30]):
            continue  # "1975 family income" names Family_Income_1975, it keeps no income of 1975
        condition = kept_where(column, "=", value, excluded=excluded_at(text, match.start()))
        found.append(Found(condition, match.start(), match.end() + named[0].end, column))
    return found


def _year_condition(column: str, op: str, value: Any, *, excluded: bool) -> dict[str, Any]:
    """A year said of a date column: "since 2021" is from its first day, "up to 2022" to its last."""
    if op == "between":
        low, high = value
        return kept_where(column, "between", (f"{low}-01-01", f"{high}-12-31"), excluded=excluded)
    if op in ("=", "!="):
        return kept_where(column, "between", (f"{value}-01-01", f"{value}-12-31"), excluded=(op == "!=") != excluded)
    day = f"{value}-12-31" if op in (">", "<=") else f"{value}-01-01"
    return kept_where(column, op, day, excluded=excluded)


def value_filters(text: str, said: list[tuple[str, str, int]]) -> list[Found]:
    """Values of few-valued columns the text keeps ("only setosa") or leaves out ("excluding setosa")."""
    found = []
    by_column: dict[str, list[tuple[str, int]]] = {}
    for column, value, offset in said:
        by_column.setdefault(column, []).append((value, offset))
    for column, values in by_column.items():
        kept = [(v, o) for v, o in values if not excluded_at(text, o)]
        dropped = [(v, o) for v, o in values if excluded_at(text, o)]
        for value, offset in dropped:
            found.append(Found({"column": column, "op": "!=", "value": value}, offset, offset + len(value), column))
        if len(kept) == 1:
            value, offset = kept[0]
            found.append(Found({"column": column, "op": "=", "value": value}, offset, offset + len(value), column))
        elif kept:
            several: dict[str, Any] = {"column": column, "op": "in", "value": [v for v, _ in kept]}
            found.append(Found(several, kept[0][1], kept[-1][1] + len(kept[-1][0]), column))
    return found
