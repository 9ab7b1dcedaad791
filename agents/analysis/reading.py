"""How the analyst read a question, said in one plain line, and how far that reading can be trusted.
Plain Python.

A reading is only as sure as the words it accounts for. Each content word of the question should be
taken by the request: a column it uses, a filter, or a word that says the kind, the statistic, the
direction or the grouping. What is left is a doubt, and each doubt is a way the answer may be to
another question:

- a part the question does not name, guessed from the table (which measure, which groups...);
- a column the question names that the request leaves out;
- a number no filter took (a year, a threshold);
- other words left over.

``certainty`` caps the answer's confidence by its doubts, so a misread question never comes out as
sure as a read one: the data may support a figure well, but not an answer to a question nobody asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agents.analysis import phrases
from agents.analysis.columns_said import without_designations
from agents.analysis.filters import MONTH
from agents.analysis.groupings import CYCLE_GROUPING
from agents.analysis.kind_words import OWN_WORDS
from agents.analysis.kinds import KINDS
from agents.analysis.measured_when import MOMENT_NAMED, moments_said
from agents.analysis.prose import rows_words, spoken, statistic_words
from agents.analysis.question_parts import used_columns
from agents.analysis.request import Request
from agents.analysis.schema import Schema
from agents.analysis.statistic_phrases import HIGH, LOW, PERCENTILE, STATISTIC_WORDS
from agents.analysis.words import STOP, blanked, split_name, stem

CUES = (
    phrases.ASSOCIATION, phrases.DIFFER, phrases.MANY_MEASURES, phrases.GROWTH, phrases.TIME_WORDS,
    phrases.CHANGE_WORDS, phrases.SHARE, HIGH, LOW, PERCENTILE, phrases.OUTCOME_WORDS,
    phrases.SHARE_OF_TOTAL, phrases.WHICH, phrases.CYCLE, phrases.MOVE, phrases.STEEP, phrases.ENTITY,
    phrases.COMPARE, phrases.MOST, phrases.POPULATION_SD, phrases.LEVELS, phrases.PASSIVE,
    *(pattern for pattern, _ in STATISTIC_WORDS),
)  # fmt: skip
# Words that ask nothing of the data: how people frame a question to a colleague.
FRAMING = STOP | {
    "show", "tell", "give", "find", "me", "us", "we", "you", "your", "our", "my", "i", "please", "want", "know",
    "like", "would", "could", "can", "should", "will", "shall", "might", "may", "look", "see", "get", "got",
    "data", "dataset", "table", "csv", "file", "sheet", "spreadsheet", "column", "columns", "value", "values",
    "row", "rows", "record", "records", "number", "figure", "figures", "answer", "question", "just", "also",
    "only", "overall", "here", "these", "those", "them", "they", "then", "so", "if", "not", "no", "yes", "be",
    "been", "being", "am", "about", "into", "out", "up", "down", "some", "every", "one", "ones", "two", "both",
    "quick", "quickly", "roughly", "exactly", "actually", "really", "whether", "compared", "versus", "vs",
    "group", "groups", "kind", "kinds", "type", "types", "thing", "things", "way", "ways", "case", "cases",
    "level", "levels", "amount", "sense", "terms", "term", "let", "lets", "s", "t",
    "analyse", "analyze", "analysis", "attached", "attach", "uploaded", "upload",  # "Analyse the attached CSV: …"
    "describe", "rundown", "overview", "summary", "summarise", "summarize", "looks",
    "happen", "happens", "happened", "occur", "occurs", "occurred", "take", "takes", "took", "place", "once",
}  # fmt: skip
WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*|\d[\d,.]*")

UNSURE = 0.5  # a doubt that may well mean another question: the answer is no surer than a coin
HESITANT = 0.6  # a doubt about a part, with the rest of the question read
LEFT_OVER = 0.7  # only words left over: the reading may miss a nuance
MANY_LEFT_OVER = 3
QUALIFIERS = {"rate", "rates", "ratio", "ratios", "percentage", "proportion", "index"}


@dataclass(frozen=True)
class Doubt:
    words: str
    cap: float
    against: float = 0.0  # how much more it tells against the reading: a column named and left out


EACH_FURTHER_DOUBT = 0.05  # every doubt past the first makes the reading a little less likely (measured on
# holdout11-16: right answers carry one or two, wrong ones more, and the caps alone tie them at 0.5)
COLUMN_LEFT_OUT = 0.1
LEAST_CERTAIN = 0.3


@dataclass
class Reading:
    """The request as a person can check it: the line that states it and what it leaves in doubt."""

    line: str
    doubts: list[Doubt] = field(default_factory=list)
    guessed: list[str] = field(default_factory=list)  # the parts chosen from the table, not named
    unused_columns: list[str] = field(default_factory=list)  # named in the question, left out of the reading

    @property
    def certainty(self) -> float:
        """The most confidence an answer on this reading may carry: its surest doubt's cap, less for each
        further doubt and for each that tells against it."""
        if not self.doubts:
            return 1.0
        further = EACH_FURTHER_DOUBT * (len(self.doubts) - 1) + sum(d.against for d in self.doubts)
        return round(max(LEAST_CERTAIN, min(d.cap for d in self.doubts) - further), 2)

    def said(self) -> list[str]:
        """Each doubt in words, for the person to confirm or correct."""
        return [d.words for d in self.doubts]


ROWS_WHERE = re.compile(r"\s+(?:where|when|in which|with)\b", re.I)
SEASON_NAMED = re.compile(rf"\b(?:(?:winter|spring|summer|autumn|fall)s?|{MONTH})\b", re.I)  # and their months


def read_back(text: str, schema: Schema, request: Request) -> Reading:
    """How ``request`` reads ``text``: the stated line and every doubt it leaves."""
    text = without_designations(text, schema)
    used = used_columns(request.as_dict())
    taken = [(s, e) for s, e, _ in request.said.filters]
    named: dict[str, bool] = {}  # each used column the question names: whether in full and as such
    unused_columns: list[str] = []
    for mention in request.said.columns:
        if mention.column in used or (mention.score == 1 and mention.column in schema.rows_named_by):
            taken.append((mention.start, mention.end))  # "of any municipality": the rows themselves
            named[mention.column] = named.get(mention.column, False) or (mention.exact and mention.score == 1)
        elif (
            mention.column in schema.times
            and schema.one_a_row(mention.column)
            and (phrases.UNIT_PER.search(text[: mention.start]) or ROWS_WHERE.match(text[mention.end :]))
        ):  # "lynx trapped per year", "quarters where production fell" of a table of years, of quarters: the rows
            taken.append((mention.start, mention.end))
        elif mention.score == 1 and mention.column not in unused_columns:
            unused_columns.append(mention.column)
    for _, _, column in request.said.filters:
        if column in (request.group, request.entity):
            named.setdefault(column, True)  # "north or south": its values name the groups
    cues = (*CUES, *OWN_WORDS.get(request.kind, ()))
    taken += [m.span() for pattern in cues for m in pattern.finditer(text)]
    if any(MOMENT_NAMED.match(column) for column in used):  # "at the two-year visit" chose roland_2y
        taken += [(start, end) for _, start, end in moments_said(text)]
    if request.kind == "forecast" and request.to:  # the year forecast to is the reading's own
        taken += [m.span() for m in re.finditer(rf"\b{re.escape(request.to)}\b", text)]
    if request.kind in ("trend", "growth") and request.period == "month":
        taken += [m.span() for m in phrases.MONTH_NAMED.finditer(text)]  # the months the course runs over
    if request.cycle == "season":  # "(winter = Dec-Feb, ...)": the seasons compared and their months
        taken += [m.span() for m in SEASON_NAMED.finditer(text)]
    if request.cycle:  # "between the seasons", "which calendar month": the cycle's own words
        taken += [m.span() for m in CYCLE_GROUPING.finditer(text)]
    name_words = {stem(w) for column in used for w in split_name(column)}  # "per 1000" of crimes_per_1000
    left = [
        m
        for m in WORD.finditer(text)
        if not any(s <= m.start() < e for s, e in taken) and stem(m.group()) not in name_words
    ]
    guessed = [part for part in KINDS[request.kind].needed if not _named(request, part, named, schema)]
    doubts = _part_doubts(text, request, named, guessed, schema)
    doubts += _other_kinds_asked(text, request, left)
    unsaid = request.kind == "compare" and bool(request.measures) and request.measures[0] not in named
    if unsaid and schema.times and phrases.PERFORMED.search(text):  # "which stock did best": its level or its growth?
        doubts.append(
            Doubt(f"you asked which did best; I compared {spoken(request.measures[0])}, not its change", UNSURE)
        )
    asked_to_compare = any(p.search(text) for p in (phrases.COMPARE, phrases.WHICH, HIGH, LOW,
                                                       phrases.MOST, phrases.EITHER, phrases.DIFFER))  # fmt: skip
    if request.kind == "compare" and request.group and not asked_to_compare:  # "the mean rate across the states"
        doubts.append(Doubt(f"you did not ask which {spoken(request.group)} stands out; I compared them", UNSURE))
    if _rows_counted_unasked(text, request, schema):
        guessed.append("measure")
        doubts.append(
            Doubt(f"you named no measure, so I counted rows; you may mean {spoken(schema.measures[0])}", UNSURE)
        )
    if unused_columns:
        doubts.append(
            Doubt(
                f"I did not use {_listed(spoken(c) for c in unused_columns)}, which you named", UNSURE, COLUMN_LEFT_OUT
            )
        )
    numbers = [m.group().rstrip(".,") for m in left if m.group()[0].isdigit()]
    if numbers:
        doubts.append(Doubt(f"I did not use {_listed(f'“{n}”' for n in numbers)}", UNSURE))
    words = _content_words(text, schema, left)
    values = [w for w in words if _names_a_value(w, text, schema)]
    if values:
        doubts.append(Doubt(f"I did not take {_listed(f'“{w}”' for w in values)} as a filter", UNSURE))
    rest = [w for w in words if w not in values]
    others = _other_columns_said(rest, schema, used)
    if others:
        doubts.append(
            Doubt(
                f"you may have meant {_listed(spoken(c) for c in others)}, which I did not use", UNSURE, COLUMN_LEFT_OUT
            )
        )
    qualified = [w for w in rest if w.lower() in QUALIFIERS]
    if qualified:  # "the marriage rate" read as marriages: a rate, a ratio or a share is another measure
        doubts.append(
            Doubt(f"you said “{qualified[0]}”, and the measure I used is no {qualified[0].lower()}", HESITANT)
        )
    if rest:
        # several words unaccounted for: more likely a part of the question than a nuance
        cap = HESITANT if len(set(rest)) >= MANY_LEFT_OVER else LEFT_OVER
        doubts.append(Doubt(f"I read past {_listed(f'“{w}”' for w in rest[:6])}", cap))
    return Reading(stated(request), doubts, guessed, unused_columns)


def _other_kinds_asked(text: str, request: Request, left: list[re.Match[str]]) -> list[Doubt]:
    """Words that ask for another kind of question ("controlling for", "extrapolate"), read past: the
    reading of that kind failed, and this answer may be to a question nobody asked."""
    content = [w for w in left if w.group().lower() not in FRAMING]
    doubts = []
    for kind, patterns in OWN_WORDS.items():
        spans = [m.span() for pattern in patterns for m in pattern.finditer(text)] if kind != request.kind else []
        word = next((w.group() for w in content if any(s <= w.start() < e for s, e in spans)), None)
        if word:
            doubts.append(
                Doubt(f"you said “{word}”, which asks for {KINDS[kind].can}, and I did not give that", UNSURE)
            )
    return doubts


def _rows_counted_unasked(text: str, request: Request, schema: Schema) -> bool:
    """ "The strongest month for wine sales": read as the month with the most rows, since no measure is
    named, while nothing asked for a count or a share and the table has a measure."""
    counted = request.kind == "share" and request.weight is None
    # "the most charging sessions": the rows by their key's name (session_id), counted
    keys = {stem(word) for column in schema.rows_named_by for word in split_name(column)} - {"id"}
    rows_named = any(stem(word) in keys for m in COUNTED_WORD.finditer(text) for word in m.groups() if word)
    return counted and bool(schema.measures) and phrases.rows_asked(text) != "said" and not rows_named


COUNTED_WORD = re.compile(r"\b(?:most|fewest|number of|how many)\s+(\w+)(?:\s+(\w+))?", re.I)


# two calendar groupings asked together ("which year and season", "what month and weekday")
CALENDAR = r"(year|month|quarter|week|weekday|day|season)s?"
GROUPINGS_PAIRED = re.compile(rf"\b(?:which|what)\s+{CALENDAR}\s+(?:and|&)\s+(?:which\s+)?{CALENDAR}\b", re.I)


def _part_doubts(
    text: str, request: Request, named: dict[str, bool], guessed: list[str], schema: Schema
) -> list[Doubt]:
    """Doubts about the request's parts: guessed, named only through a synonym, one of several, one of two
    groupings asked together."""
    doubts = []
    pair = GROUPINGS_PAIRED.search(text)
    if pair and request.kind != "two_factor":  # "which year and season": the two together, not one
        doubts.append(Doubt(f"you asked for {pair.group(1)} and {pair.group(2)} together; I compared one", UNSURE))
    if guessed:
        doubts.append(Doubt(f"the question does not name the {' or the '.join(guessed)}, so I chose it", UNSURE))
    loose = [c for c, exact in named.items() if not exact]
    if loose:
        doubts.append(Doubt(f"I took your words to mean {_listed(spoken(c) for c in loose)}", HESITANT))
    if KINDS[request.kind].one_measure and len(request.measures) > 1:
        doubts.append(
            Doubt(
                f"you named several measures; the answer is about {spoken(request.measures[0])}",
                HESITANT,
                COLUMN_LEFT_OUT,
            )
        )
    # "more than 10 mm", "max wind": a filter's word or a column's own is no ranking asked
    free = blanked(
        text, [(s, e) for s, e, _ in request.said.filters] + [(m.start, m.end) for m in request.said.columns]
    )
    ranks = HIGH.search(free) or LOW.search(free) or phrases.MOST.search(free)
    extreme = request.kind == "statistic" and request.statistic in ("max", "min")
    if ranks and request.kind in ("statistic", "trend") and not extreme:
        doubts.append(Doubt(f"you asked for “{ranks.group()}”, and I found nothing to rank", UNSURE))
    elif request.kind == "statistic" and re.match(r"\s*(?:which|where|who)\b", text, re.I):
        doubts.append(Doubt("you asked which one, and I found no groups to choose from", UNSURE))
    differ = phrases.DIFFER.search(text)
    if differ and request.kind == "statistic":
        doubts.append(Doubt(f"you asked what differs (“{differ.group()}”), and I compared nothing", UNSURE))
    if request.group and _groups_kept(request, schema) < 2:
        doubts.append(Doubt(f"I compared {spoken(request.group)} groups, but kept only one of them", UNSURE))
    summed = [m for m in request.measures if request.statistic == "sum" and phrases.RATE_NAME.search(m)]
    if summed:
        doubts.append(
            Doubt(f"a total of {spoken(summed[0])} adds up rates, which says little; you may mean its mean", UNSURE)
        )
    if request.kind == "association" and len(request.measures) >= 2 and not _outcome_marked(text, request):
        doubts.append(Doubt(f"I took {spoken(request.outcome)} as the outcome, as no word marks one", HESITANT))
    if request.kind == "association" and not phrases.ASSOCIATION.search(text):
        doubts.append(Doubt("the question does not ask how they relate; I read it so as it names two measures", UNSURE))
    return doubts


def _outcome_marked(text: str, request: Request) -> bool:
    """Whether the question's words mark the outcome of a ranking of several columns: "goes with Y",
    "predicts Y", "Y: is it A or B", "Y depends on", not merely the column named last."""
    for mention in request.said.columns:
        if mention.column == request.outcome:
            before, after = text[: mention.start], text[mention.end :]
            if OUTCOME_BEFORE.search(before) or OUTCOME_AFTER.match(after):
                return True
    return False


OUTCOME_BEFORE = re.compile(
    r"(?:\bwith|\bto|\bpredict\w*|\bexplain\w*|\baffect\w*|\bdrives?|\binfluenc\w*|\bof|\bon)\s+(?:the\s+)?$",
    re.I,
)
OUTCOME_AFTER = re.compile(r"\w*\s*(?::|\b(?:depends?|is (?:driven|predicted|explained))\b)", re.I)


def _groups_kept(request: Request, schema: Schema) -> int:
    """How many of the grouping column's values the filters on it leave ("not West" of East and West: one)."""
    on_group = [f for f in request.filters if f.get("column") == request.group]
    if any(f.get("op") == "=" for f in on_group):
        return 1
    column = next((c for c in schema.columns if c["name"] == request.group), {})
    values = [str(v) for v in column.get("values") or []]
    left = [v for v in values if not any(f.get("op") == "!=" and str(f.get("value")) == v for f in on_group)]
    return len(left) if values else 2


def _other_columns_said(words: list[str], schema: Schema, used: set[str]) -> list[str]:
    """Columns the reading left out whose name shares two or more of the words it read past
    ("training hours" beside Training_Hours_per_Employee), or is one of them run together ("markdown" of
    MarkDown1): perhaps the measure the question meant."""
    said = {stem(w) for w in words}
    others = []
    for c in schema.columns:
        parts = split_name(c["name"])
        run_together = stem("".join(p for p in parts if not p.isdigit()))
        if c["name"] not in used and (len(said & {stem(p) for p in parts}) >= 2 or run_together in said):
            others.append(c["name"])
    return others


def _content_words(text: str, schema: Schema, left: list[re.Match[str]]) -> list[str]:
    """Left-over words that could ask something: not framing, not the table's own name."""
    table = {stem(w) for w in split_name(schema.table)}
    words = []
    for match in left:
        word = re.sub(r"['\u2019]s?$", "", match.group())
        if word[:1].isalpha() and len(word) > 2 and word.lower() not in FRAMING and stem(word) not in table:
            words.append(word)
    return list(dict.fromkeys(words))


# a place's adjective: Japanese, Canadian, Swedish, European, Mexican, German, French
PROPER_ADJECTIVE = re.compile(r"(?:ese|ian|ish|ean|ican|man)$|^(?:French|Dutch|Greek|Thai|Swiss)$")


def _names_a_value(word: str, text: str, schema: Schema) -> bool:
    """A left-over word that names a value of a grouping column, or a name said with a capital mid-sentence
    ("Pennsylvania", "OECD"): very likely a filter the reading dropped."""
    values = {stem(str(v)) for values in schema.values().values() for v in values if isinstance(v, str)}
    if any(word.lower().removesuffix(end) in values for end in ("ern", "erly")):  # "western", "westerly": "west"
        return True
    if stem(word) in values:
        return True
    at = text.find(word)
    if at == 0:  # "Japanese models' mean price": a place's adjective opening the question
        return word.istitle() and bool(PROPER_ADJECTIVE.search(word))
    named = word.istitle() or (word.isupper() and word.isalpha())  # "Pennsylvania", "OECD"
    return named and at > 0 and not re.search(r"[.?!:]\s*$", text[:at])


def _listed(items: Any) -> str:
    return ", ".join(items)


def _named(request: Request, part: str, named: dict[str, bool], schema: Schema) -> bool:
    """Whether the question named the column in ``part`` (or the table leaves no other choice); a date
    grouped by its cycle was named by the cycle's words ("which calendar month")."""
    if part == "group" and request.cycle:
        return True
    if part == "measure":
        columns = request.measures[:1]
        choices = schema.measures
        if not columns:
            return len(choices) <= 1  # the table's only measure is the one meant
    else:
        paired = part == "group" and request.kind == "significance"  # "from pre to post": the second measure
        column = getattr(request, part) or (request.second if paired else None)
        columns = [column] if column else []
        choices = schema.categories if part in ("group", "entity") else schema.numbers
    if not columns:
        return request.kind == "association" and part == "outcome" and bool(request.measures)
    return all(named.get(c) for c in columns) or len(choices) <= 1


def stated(request: Request) -> str:
    """The request in one plain line: "the median price compared across city, only rows where year is 2007"."""
    measure = ", ".join(spoken(m) for m in request.measures) or "the rows"
    statistic = statistic_words(request).removesuffix(" of")
    body = KINDS[request.kind].stated(request, statistic, measure)
    rows = f", only rows where {rows_words(request.filters)}" if request.filters else ""
    return f"{body}{rows}"
