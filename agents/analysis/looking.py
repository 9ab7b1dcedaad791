"""Questions that look at the rows themselves, read over a question's first reading: the top N, which
row (and when), outliers, a distribution's shape, what is missing. Plain Python.

Each is asked in words of its own ("the five densest", "when was it lowest", "anything unusual",
"is it skewed", "how many are blank"); the first reading has already found the measure, the filters
and the groups, and this says which of them the new kind keeps and which column names the rows.
"""

from __future__ import annotations

import re

from agents.analysis.comparisons import NUMBER_WORDS
from agents.analysis.groupings import cycle_said
from agents.analysis.phrases import ANY, EXTREME, MOST, SUPERLATIVE, WHO_DID
from agents.analysis.request import Request
from agents.analysis.schema import CODED_MAX, Schema
from agents.analysis.statistic_phrases import HIGH, LOW, statistic_of
from agents.analysis.words import AMOUNT_NAME, Mention, split_name, stem

MAX_LISTED = 100  # the longest list stats.top gives
DISTANCE = r"m\b|metres?|meters?|km\b|miles?|yards?"  # "the quickest 100 m": an event, not a count
COUNTED = r"(\d{1,3}|" + "|".join(w for w in NUMBER_WORDS if NUMBER_WORDS[w] >= 2) + r")"
MISSING = re.compile(
    r"(?<!non-)(?<!non )(?<!not )\bmissing\b"
    r"|\bgaps in (?:it|them|the data|the table|the file|each|every|this|that)\b|\b(?:most|any|many) gaps\b"
    r"|\bblanks?\b|\bempty\b|\bnulls?\b|\bnan\b|\bincomplete\b|\bdata quality\b"
    r"|\b(?:not|never|wasn't|weren't|isn't|aren't) (?:been )?(?:recorded|reported|known|given|filled|entered|listed)"
    r"|\bno\s+(?:[\w-]+\s+){0,4}(?:recorded|reported|given|listed|entered|known)\b|\b(?:unrecorded|unreported)\b"
    r"|\b(?:no|without (?:a|an|any))\s+(?:[\w-]+\s+){0,3}?(?:value|reading|measurement|figure|entry|score|result)\b"
    r"|\black(?:s|ing)? (?:a |an |any )?(?:[\w-]+ ){0,3}?(?:value|figure|entry|entries|reading|data)?\b"
    r"|\bwithout (?:a |an |any )(?:[\w-]+ ){0,3}(?:value|figure|entry|reading)s?\b"
    r"|\b(?:didn't|don't|never|couldn't|not) (?:give|answer|report|state|provide|say|tell)\b"
    r"|\bno answers?\b|\bunanswered\b|\b(?:declined|refused) to\b|\bno values?\b|\bunknown\b|\bno data\b"
    r"|\bno\s+(?:[\w-]+\s+){0,3}(?:figures?|entry|entries|readings?|data|numbers?|records?)\b",
    re.I,
)
NA_SAID = re.compile(r"\bNAs?\b|\bN/A\b")  # R's NA, said in capitals
OUTLIERS = re.compile(
    r"\boutl[iy]\w*|\bunusual\w*|\banomal\w*|\babnormal\w*|\bstands? out|\bstand-?outs?\b|\batypical\b"
    r"|\bodd(?:ball)?s?\b|\bweird\w*|\bsuspicious\w*|\bimplausibl\w*|\bextreme values?\b|\bout of line\b",
    re.I,
)
DISTRIBUTION = re.compile(
    r"\bdistribut\w*|\bskew\w*|\bshape\b|\bsymmetric\w*|\basymmetr\w*|\blopsided\b|\bbell[- ]?(?:shaped|curve)"
    r"|\blong(?:er)? (?:right |left )?tail|\bhistogram\b|\bbimodal\b",
    re.I,
)
SPREAD_STATISTIC = re.compile(r"\bstandard deviation|\bsd\b|\bvariance\b|\biqr\b|\binterquartile|\brange\b", re.I)
SPREAD = re.compile(r"\bspread (?:out|of)\b", re.I)  # the shape, unless a statistic of it is named
TOP_N = re.compile(
    rf"\b(?:top|bottom|first|last|best|worst|[a-z]+est)[- ]{COUNTED}\b(?!\s*(?:%|percent|per cent|{DISTANCE}))"
    rf"|(?<!of the )(?<!of )(?<!only the )(?<!among the )(?<!only )\b{COUNTED}\s+"
    r"(?:[\w()-]+\s+){0,4}?(?:\w+est|most|least|top|bottom|best|worst)\b"
    rf"|\b(?:which|what|list|name|rank)\s+(?:the\s+)?{COUNTED}\b(?!\s*(?:%|percent))",
    re.I,
)
WHEN = re.compile(  # at the question's start, or its clause's: "Before 2000, in which year ..."
    r"(?:^|[,;:]\s)\W*(?:when\b|(?:in|on|during|at)\s+(?:what|which)\s+(?:year|month|day|date|week|quarter|hour|time)\b"
    r"|(?:what|which)\s+(?:year|month|day|date|week|quarter|hour)\b)",
    re.I,
)
SINGLE = re.compile(
    r"\b(?:single|one|individual|ever|of all time|on record|at (?:its|their) (?:lowest|highest|peak))\b", re.I
)
ASKED = re.compile(r"\b(?:which|what|who|whose)\s+(?:[\w-]+\s+){0,2}$", re.I)  # "which stone", "what patient"
WITHIN = re.compile(r"\b(?:within|for its|for their|in its|in their|compared to (?:its|their) own)\b", re.I)


WHO = re.compile(rf"^\W*who\b|\bwho\s+{WHO_DID}\b", re.I)
PERIOD_SAID = re.compile(r"\b(?:month|day|week|year|quarter|date|when)s?\b", re.I)
PERIOD_ASKED = re.compile(
    r"\b(?:find|name|show|give)\s+(?:me\s+)?the\s+(?:single\s+)?(?:month|year|day|week|quarter|date)\b", re.I
)
FIND_THE = re.compile(
    r"\b(?:find|name|list|show)\s+(?:me\s+)?the\s+(?:\w+\s+){0,3}$|\b(?:[a-z]{2,}est|most\s+\w+|least\s+\w+)\s+$"
    r"|\b(?:peak|record|worst|top)\s+$",
    re.I,
)  # "find the character", "the oldest character", "the peak year"


def rows_asked(text: str, schema: Schema) -> bool:
    """Whether the question asks for rows by their name: "who is the tallest", or the rows' own noun, the
    table's ("which characters are heaviest" of star_wars_characters, "find the storm with ...")."""
    if WHO.search(text):
        return True
    nouns = {stem(word) for word in split_name(schema.table)[-1:]}
    return any(
        stem(m.group()) in nouns and (ASKED.search(text[: m.start()]) or FIND_THE.search(text[: m.start()]))
        for m in re.finditer(r"[A-Za-z]+", text)
    )


def how_many(text: str) -> int | None:
    """The N of "the five densest", "top 10", "which three"."""
    for found in TOP_N.finditer(text):
        said = next(group for group in found.groups() if group)
        n = int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]
        if n <= MAX_LISTED:  # "the S&P 500 closed at its lowest": a name's number, no list of 500
            return n
    return None


SUPERLATIVE_EST = re.compile(
    r"\b(?!(?:intere|te|fore|we|hone|mode|reque|sugge|conte|prote|harve|inve|dige|re|gue|che|ne|pe|que|ve|ze|cre"
    r"|arre|manife|conque|southwe|northwe|midwe|atte|inque)st\b)[a-z]{2,}est\b",
    re.I,
)  # "densest", "lightest": any superlative, not "interest" or "harvest"


PEAKED = re.compile(r"\bpeak(?:ed|s|ing)?\b|\b(?:topped|bottomed) out\b|\brecord (?:high|low)\b", re.I)


def ranks(text: str) -> bool:
    return any(p.search(text) for p in (HIGH, LOW, MOST, EXTREME, SUPERLATIVE, SUPERLATIVE_EST, PEAKED))


COMBINED = ("mean", "median", "sum", "count", "min", "max")  # how a top list may combine a label's rows
PLURAL = re.compile(r"[^su]s$", re.I)  # "sites", "years"; never "status" nor "class"


def distinct_of(schema: Schema, column: str | None) -> int:
    return next((c.get("distinct") or 0 for c in schema.columns if c["name"] == column), 0)


def label_of(schema: Schema, named: list[Mention], *, besides: list[str]) -> str | None:
    """The column that names the rows: one the question names (a name, an identifier, a date one a row),
    else the table's names, else its identifier, else its date or year."""
    identifiers = [c["name"] for c in schema.columns if c.get("role") == "identifier"]
    distinct = {c["name"]: c.get("distinct") or 0 for c in schema.columns}
    # a name each row has its own (a pigeon's band) before one many rows share (its breeder); a person
    # names a car by its name, not its number, when the names mostly tell the rows apart
    names = [c for c in schema.row_names if distinct[c] >= 0.5 * schema.rows]
    numbered = [c for c in identifiers if c not in schema.names("string")]
    candidates = sorted(
        [*schema.row_names, *identifiers],
        key=lambda c: (bool(names) and c in numbered, distinct[c] < 0.9 * schema.rows),
    )
    times = list(dict.fromkeys([*schema.names("date"), *schema.times]))
    said = [
        m.column
        for m in named
        if m.column in candidates and m.column not in besides and not (names and m.column in numbered and m.score < 1)
    ]  # "which car": its name; "which car id": its number
    # "which quarter stands out": a date or year said, one a row, names the rows before a row number
    dated = [m.column for m in named if m.column in times and schema.one_a_row(m.column)]
    choices = said or [c for c in [*dated, *candidates, *times] if c not in besides]
    return choices[0] if choices else None


def _group_combined(request: Request, text: str) -> str:
    """How a ranked group's rows combine: as said ("the most energy in total"), else an amount's added
    up ("which 3 stations delivered the most energy"), else the request's statistic (a count's a sum)."""
    asked = statistic_of(text)
    if asked and asked[0] in COMBINED and asked[0] != "count":  # "by number of spaces" is no count
        return asked[0]
    if not asked and request.measures and AMOUNT_NAME.search(request.measures[0]):
        return "sum"
    return request.statistic if request.statistic != "count" else "sum"


def _repeated_identifiers(schema: Schema) -> list[str]:
    """Numbered things many rows share (a charging station of its sessions): each number a group."""
    return [
        c["name"]
        for c in schema.columns
        if c.get("role") == "identifier" and 1 < (c.get("distinct") or 0) < 0.9 * schema.rows
    ]


def _rows_label(schema: Schema, named: list[Mention], *, besides: list[str]) -> str | None:
    """What names a top list's rows: ``label_of``, else the grouping of the most values ("the 3 longest
    javelin throws, who threw them": the athlete of each of two meetings' results)."""
    varied = sorted(set(schema.categories) - set(besides), key=lambda c: -distinct_of(schema, c))
    return label_of(schema, named, besides=besides) or next(iter(varied), None)


def as_top(request: Request, schema: Schema, named: list[Mention], n: int, text: str, said: str) -> None:
    """ "The five densest elements" lists rows; "which 5 sub-categories bring in the most" ranks groups,
    each group's rows combined by the question's statistic (``text`` has the columns named blanked out,
    ``said`` is as it was said); "which three makers have the most models", of no measure, counts rows."""
    counted = request.kind == "share"  # the first reading counted rows: no measure was named
    request.kind, request.n = "top", n
    kept = {f.get("column") for f in request.filters if f.get("op") == "="}
    kept_one = request.group in kept
    names = _rows_label(schema, [m for m in named if m.score == 1], besides=request.measures)
    # "which five countries", "who are the three heaviest"
    named_rows = names is not None and (any(m.column == names for m in named) or rows_asked(text, schema))
    # "the three best years", "rank the study sites", "which 3 stations" (a number each station's many
    # rows share): the groups, times or repeated identifiers said as the things ranked
    rankable = {*schema.times, *schema.categories, *_repeated_identifiers(schema)}
    listed = [
        m.column
        for m in named
        if m.column in rankable
        and m.column not in request.measures
        and m.column not in kept
        and PLURAL.search(said[m.start : m.end])
    ]  # "sport fishers only" keeps one of them
    if listed and not kept_one:
        request.group, named_rows = listed[0], False
    if request.group and request.group not in request.measures and not kept_one and not named_rows:
        request.label, request.combine = request.group, _group_combined(request, text)
    else:
        request.label = _rows_label(schema, named, besides=request.measures)
        asked = statistic_of(text)
        # "the 3 slowest subjects on average": each one's rows combined
        if asked and distinct_of(schema, request.label) < 0.9 * schema.rows:
            request.combine = asked[0] if asked[0] in COMBINED else "mean"
    request.group = None
    _one_measure(request, schema)
    if counted and not request.measures and request.label in [*schema.categories, *schema.names("string")]:
        request.kind, request.group, request.label, request.missing = "share", request.label, None, []
        return
    _added_up(request, schema, text)


def _added_up(request: Request, schema: Schema, text: str) -> None:
    """ "The three best-selling models by revenue": an amount (line_total_usd) over a label each row
    does not own alone ranks each label's rows added up, not its largest row."""
    if not request.label or request.combine or not request.measures or statistic_of(text):
        return
    if distinct_of(schema, request.label) < 0.9 * schema.rows and AMOUNT_NAME.search(request.measures[0]):
        request.combine = "sum"


ON_AVERAGE = re.compile(r"\bon (?:the )?average\b|\bon a typical\b", re.I)


def as_which_row(request: Request, schema: Schema, named: list[Mention], text: str) -> bool:
    """ "When was employment lowest", "which stone is the heaviest": the one row, named by its date or
    its name. Only when each row is its own date or name (or the question says "single"): "which year
    had the most sales" over many sales a year stays a comparison of the years."""
    single = SINGLE.search(text)  # "the most pork ever": one month on record, not the calendar month's mean
    if request.kind not in ("statistic", "compare") or (request.cycle and not single) or ANY.search(text):
        return False  # "the largest population of any town": the figure, not which
    if ON_AVERAGE.search(text) and not single:
        return False  # "the fewest births on average": groups' means compared, never one row
    time_asked = any(
        m.column in schema.times and (ASKED.search(text[: m.start]) or FIND_THE.search(text[: m.start])) for m in named
    ) or bool(PERIOD_ASKED.search(text))  # "find the month with the smallest output"
    if WHEN.search(text) or time_asked:
        times = [m.column for m in named if m.column in schema.times] or schema.names("date") or schema.times
        label = times[0] if times else None
    else:  # "which stone is the heaviest": the rows' own name asked for
        label = label_of(schema, [m for m in named if m.score == 1], besides=request.measures)
        asked_by_name = any(m.column == label and ASKED.search(text[: m.start]) for m in named)
        label = label if asked_by_name or rows_asked(text, schema) else None
    group_said = any(m.column == request.group for m in named)
    if request.group is not None and request.group != label and group_said:
        return False  # "which month of the year": the months compared
    distinct = {c["name"]: c.get("distinct") or 0 for c in schema.columns}
    unique = label is not None and distinct.get(label, 0) >= 0.9 * schema.rows
    if label is None or not (unique or single or request.filters):
        return False
    request.kind, request.n, request.label, request.group, request.cycle = "which_row", 1, label, None, None
    _one_measure(request, schema)
    return True


def as_outliers(request: Request, schema: Schema, named: list[Mention], text: str) -> None:
    """ "Any unusual heights?": Tukey's fences on the measure, within each group when the words say so."""
    said_after = [m for m in named if m.column == request.group]
    # "within each region", "for its class": the grouping said after the words; "in its flavor score" is none
    within = next(
        (request.group for w in WITHIN.finditer(text) for m in said_after if 0 <= m.start - w.end() <= 12), None
    )
    request.kind, request.within, request.group, request.cycle = "outliers", within, None, None
    request.label = label_of(schema, named, besides=[*request.measures, *([within] if within else [])])
    if schema.names("date") and PERIOD_SAID.search(text):  # "the most anomalous month": named by its date
        request.label = schema.names("date")[0]
    request.measures = request.measures or measure_beside(schema, named)
    _one_measure(request, schema)


def measure_beside(schema: Schema, named: list[Mention]) -> list[str]:
    """ "The time to platelet recovery": a column of no numbers named where a number is needed stands for
    the one measure that shares its first word (days_to_platelets beside platelets_recovered)."""
    words = {stem(split_name(m.column)[0]) for m in named if m.column not in schema.measures and split_name(m.column)}
    beside = [c for c in schema.measures if words & {stem(w) for w in split_name(c)}]
    return beside if len(beside) == 1 else []


def as_distribution(request: Request, schema: Schema) -> None:
    request.kind, request.group = "distribution", None
    _one_measure(request, schema)


TABLE_NOUN = re.compile(r"^\W*(?:table|data(?:set)?|file|sheet|spreadsheet|list)\b", re.I)


# "have no membership year", "don't list a hub height": the column's value is absent, when 0 is none of its values
ABSENT_BEFORE = re.compile(
    r"\b(?:(?:have|has|had|with|show|shows|showing|give|gives)\s+no|without\s+(?:an?|any))\s+(?:[\w-]+\s+){0,2}$",
    re.I,
)
NOT_STATED_BEFORE = re.compile(
    r"\b(?:do|does|did)(?:n't|n\u2019t| not)\s+(?:list|give|record|report|show|state|include|have)"
    r"(?:\s+an?|\s+any|\s+the|\s+its|\s+their)?\s+(?:[\w-]+\s+){0,2}$",
    re.I,
)
COLUMN_ASKED = re.compile(r"\b(?:which|what)\s+(?:column|field|variable)s?\b", re.I)


def absent_said(text: str, schema: Schema, named: list[Mention]) -> bool:
    """Whether the question counts rows where a column it names has no value: "don't list a hub height",
    or "no UN membership year" of a column that is never 0 (a year, a date, a name, a height)."""
    ranges = schema.ranges()
    for mention in named:
        before = text[: mention.start]
        if NOT_STATED_BEFORE.search(before):
            return True
        low, _ = ranges.get(mention.column, (None, None))
        never_zero = mention.column not in schema.numbers or (low is not None and low > 0)
        if ABSENT_BEFORE.search(before) and never_zero:
            return True
    return False


def as_missing(request: Request, schema: Schema, named: list[Mention], text: str) -> None:
    """ "How many values are missing in each column" looks at them all; "how many rows lack a density"
    at the columns named, whatever filter the first reading made of their words ("no density": 0). A
    column's word that names the table ("the storm table") names no column."""
    said = list(
        dict.fromkeys(
            m.column
            for m in named
            if (m.score == 1 or m.column in request.measures) and not TABLE_NOUN.search(text[m.end :])
        )
    )
    things = {c["name"] for c in schema.columns if c.get("role") == "identifier"} | set(schema.row_names)
    if len(said) > 1:  # "how many storms have no diameter": the storms are the rows counted
        said = [c for c in said if c not in things] or said
    if COLUMN_ASKED.search(text):  # "which column has the most gaps, and how many months": every column
        said = []
    request.kind, request.group, request.missing = "missing", None, []
    request.measures = said
    request.filters = [f for f in request.filters if f.get("column") not in said]


def _one_measure(request: Request, schema: Schema) -> None:
    request.measures = [m for m in request.measures if m != request.label][:1]
    if not request.measures and schema.sole_measure:
        request.measures = [schema.sole_measure]
    request.missing = [] if request.measures else ["measure"]


COMBINATION = re.compile(
    r"\bcombinations?\b|\bcombo\w*|\bpair(?:ing)?s? of\b|\bpairings?\b|\btogether\b|\binteract\w*|\bmix of\b"
    r"|\bcross(?:ed|ing)? (?:\w+ ){0,3}?with\b|\bwhich (?:pair|cell)\b"
    r"|\bboth\b|\bwhich\b.{1,40}\b(?:at|in|on|with|for|and) which\b"  # "which variety at which site"
    # "which region and season (Dec-Feb winter, ...) had the lowest": the names may be blanked out
    r"|\bwhich\s+(?:\w+\s+)?(?:and|&)\s+(?:\w+)?(?:\s*\([^)]{0,60}\))?\s+(?:had|has|have|was|were|got|saw|showed?)\b"
    r"|(?<!month)(?<!year)(?<!week)(?<!day)(?<!quarter)-by-"  # "the school-by-grade groups", not "month-by-month"
    r"|\w\s*-and-\s*(?:\w+\s+){0,2}?(?:groups?|combinations?|cells?|subgroups?|categor\w*)\b"  # "age-and-sex groups"
    r"|\b(?:by|across|per|for each|broken down by|split by)\s+(?:[\w-]+\s+){0,3}?(?:and|&)\s",  # "by sex and thal"
    re.I,
)
MIX_DIFFERS = re.compile(  # "is the mix of boys and girls different between the schools"
    r"\b(?:mix|make-?up|composition|balance|proportions?|breakdown) of\b.{0,60}"
    r"\b(?:differ\w*|vary|varies|same|change\w*|depend\w*)\b",
    re.I,
)
RELATED = re.compile(
    r"\b(?:associat\w*|relat(?:ed|ion|ionship|es?)|linked|link\b|connect\w*|depend\w*|independen\w*|tied to"
    r"|go(?:es)? (?:together|hand in hand)|vary|varies|varied|cross-?tab\w*)\b",
    re.I,
)


def categories_named(request: Request, schema: Schema, named: list[Mention]) -> list[str]:
    """The category columns the question names (or names by their values), in the order said; a number
    of a few values counts ("the supplement and dose combination": 0.5, 1 and 2 mg)."""
    few = {c["name"] for c in schema.columns if c["type"] == "number" and 2 <= (c.get("distinct") or 0) <= CODED_MAX}
    categories = set(schema.categories) | few
    valued = [f["column"] for f in request.filters if f.get("op") in ("=", "in") and f.get("column") in categories]
    ordered = sorted(named, key=lambda m: m.start)
    full = [m for m in ordered if m.column in categories and m.score == 1]
    # "party identification" names partyid in part; "works overtime" only brushes RemoteWork beside Overtime
    partial = [m for m in ordered if m.column in categories and m.score < 1 and not _beside(m, full)]
    said = [m.column for m in (full if len(full) >= 2 else sorted([*full, *partial], key=lambda m: m.start))]
    return list(dict.fromkeys([*said, *valued]))


def _beside(mention: Mention, others: list[Mention]) -> bool:
    return any(abs(mention.start - o.end) <= 1 or abs(o.start - mention.end) <= 1 for o in others)


def as_crosstab(request: Request, schema: Schema, named: list[Mention], text: str) -> bool:
    """ "Is the type of chest pain related to heart disease?": two categories, each value of one set
    against each of the other; a test of independence, never a correlation with a code."""
    split = _split_by_a_threshold(request, schema)
    named_categories = categories_named(request, schema, named)
    categories = _with_a_cycle(request, [*named_categories, *split], schema, text)
    if len(categories) < 2:
        return False
    request.kind, request.group, request.second, request.measures, request.outcome = (
        "crosstab",
        *categories[:2],
        [],
        None,
    )
    if split and request.second == split[0]:  # "whether it rained (any rain)": rain hours above 0, yes or no
        kept = next(f for f in request.filters if f.get("column") == split[0])
        request.above, request.filters = kept["value"], [f for f in request.filters if f is not kept]
    # "leaving out 'Other'": a value left out stays out; values that only named the columns go
    request.filters = [f for f in request.filters if f.get("column") not in categories[:2] or f.get("op") == "!="]
    request.missing = []
    return True


def as_two_factor(request: Request, schema: Schema, named: list[Mention], text: str) -> bool:
    """ "Which combination of cut and colour fetches the highest price?": the measure over every pair; a
    grouping held at one value ("for conventional avocados") is no factor."""
    held = {f.get("column") for f in request.filters if f.get("op") == "="}
    categories = [c for c in categories_named(request, schema, named) if c not in held]
    if len(categories) >= 2:
        request.measures = [m for m in request.measures if m not in categories[:2]]
    else:
        categories = _with_a_cycle(request, [c for c in categories if c not in request.measures], schema, text)
    times = [m.column for m in named if m.column in schema.times and m.score == 1 and m.column not in categories]
    categories += times[: max(0, 2 - len(categories))]  # "across continents and years": years are a factor
    if len(categories) < 2:
        return False
    request.kind, request.group, request.second = "two_factor", *categories[:2]
    request.filters = [f for f in request.filters if f.get("column") not in categories[:2] or f.get("op") != "in"]
    _one_measure(request, schema)
    return True


def _split_by_a_threshold(request: Request, schema: Schema) -> list[str]:
    """The one measure a filter splits in two ("any rain": rain hours above 0; "no rain": at its least),
    which a cross-tab may read as yes/no beside a category."""
    ranges = schema.ranges()
    split = [
        f["column"]
        for f in request.filters
        if f.get("column") in schema.measures
        and isinstance(f.get("value"), int | float)
        and (f.get("op") == ">" or (f.get("op") in ("=", "<=") and f["value"] == ranges.get(f["column"], (None,))[0]))
    ]
    return split[:1] if len(split) == 1 else []


def _with_a_cycle(request: Request, categories: list[str], schema: Schema, text: str) -> list[str]:
    """One grouping named and a cycle said ("is rain more common in some seasons"): the date's place in
    the cycle is the first grouping (the one a call reads as its cycle)."""
    cycle = cycle_said(text, schema)
    if len(categories) != 1 or cycle is None or cycle[0] in categories:
        return categories
    request.cycle = cycle[1]
    return [cycle[0], *categories]
