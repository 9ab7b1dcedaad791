"""What a person's words name in a table: columns (by name, inflection or synonym) and values.

"the tallest plants" names ``height_cm``, "fuel use" a litres-per-100-km column, "females" the value
``female``: words are lower-cased, stemmed and mapped to a few concepts, and column names are read
the same way (``PetalLength``, ``petal_length_cm`` and "petal length" are one thing). Plain Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from agents.analysis.concepts import CONCEPTS, FUSED

WORD_CONCEPTS: dict[str, set[str]] = {}
# Words too vague to name a quantity through a synonym ("high" is more often a direction than a height).
WEAK = {"high", "light", "small", "large", "time", "rate", "volume"}
DEGREES = {"lighter", "lightest"}  # the forms of a weak word that name its measure
UNITS = {"cm", "mm", "m", "kg", "g", "lb", "lbs", "usd", "eur", "gbp", "pct", "percent", "pc", "in", "ft", "s",
         "ms", "min", "h", "hr", "hrs", "km", "kmh", "kph", "mph", "c", "f", "k", "num", "no", "nr", "amt", "ppm",
         "ppb", "mg", "ml", "oz", "gal", "kwh", "gwh", "thousands", "thousand", "bn", "mn", "klb", "mwh", "twh",
         "hpa", "kpa"}  # fmt: skip
STOP = {"the", "a", "an", "of", "in", "on", "for", "and", "or", "to", "by", "is", "are", "was", "were", "what",
        "which", "how", "per", "each", "with", "than", "that", "this", "do", "does", "did", "has", "have", "be",
        "it", "its", "their", "there", "as", "at", "from", "between", "among", "all", "any", "most", "least",
        "more", "less", "much", "many", "who", "whose", "where", "when", "over", "under", "above", "below"}  # fmt: skip
STATISTIC_WORDS = {"total", "mean", "avg", "average", "sum", "max", "min", "median", "count"}
YEAR_WORD = re.compile(r"(?:1[89]|20)\d\d")
PER_COUNT = re.compile(r"per_?(?:\d|capita|person|head|thousand|million)", re.I)
# A column that adds up over rows: a group's total is what "the best-selling models by revenue" ranks.
AMOUNT_NAME = re.compile(r"total|amount|revenue|sales|spend|paid|quantity|qty|units", re.I)
FUEL_NAME = re.compile(r"l.?(?:per.?)?100.?km|mpg|litre|liter|fuel|consumption", re.I)


# "the mean annual flow", "daily steps": an adjective of a measure, never the year or day column itself
PERIODIC = re.compile(r"daily|weekly|monthly|quarterly|yearly|annual|annually|hourly", re.I)
LEMMAS = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annual": "year",
          "annually": "year", "quarterly": "quarter", "hourly": "hour", "men": "man", "women": "woman",
          "people": "person", "children": "child", "teeth": "tooth", "feet": "foot", "aged": "age",
          "mice": "mouse", "geese": "goose", "wives": "wife", "leaves": "leaf", "halves": "half"}  # fmt: skip


BRITISH = re.compile(r"^(colo|flavo|favo|behavio|harbo|labo|neighbo|hono|humo|odo|vigo|armo)ur(\w*)$")


def stem(word: str) -> str:
    """A crude English stem: plurals, comparatives and superlatives, -ing and -ed folded away; applied
    until it holds, so that "smokers" and "smoker" meet."""
    word = BRITISH.sub(r"\1r\2", word.lower().removesuffix("'s").removesuffix("\u2019s"))  # colour meets color
    stemmed = _stem_once(LEMMAS.get(word, word))
    while (again := _stem_once(stemmed, plural=False)) != stemmed:  # "breeders" and "breeder" meet at "bre"
        stemmed = again  # relapse -> relaps stays: an s left bare is the word's own
    return stemmed


def _stem_once(word: str, *, plural: bool = True) -> str:
    if word.endswith("ness") and len(word) >= 8:
        return word[:-4]  # "religiousness" and "religious" meet
    for suffix, replacement in (
        ("iest", "y"), ("ier", "y"), ("ies", "y"), ("est", ""), ("ches", "ch"), ("shes", "sh"),
        ("sses", "ss"), ("xes", "x"), ("ing", ""), ("ied", "y"), ("ed", ""), ("er", ""), ("s", ""),
    ):  # fmt: skip
        bare_s = suffix == "s" and (not plural or word.endswith("us"))  # status, focus: no plural
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss") and not bare_s:
            base = word[: -len(suffix)] + replacement
            if (
                suffix in ("est", "er", "ing", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] in "bdgmnprt"
            ):
                base = base[:-1]  # biggest -> big, taller stays tall
            if suffix in ("est", "er") and base + "e" in _E_WORDS:
                base += "e"  # widest -> wide, larger -> large
            return base
    if word.endswith("e") and len(word) > 4 and not word.endswith("ee"):
        return word[:-1]  # "smoke" and "smoker" meet at "smok", "price" and "priced" at "pric"
    return word


_E_WORDS = {"wide", "large", "late", "close", "fine", "rare", "safe", "sure", "pure", "wise", "lose", "price",
            "rate", "score", "size", "time", "volume", "use", "value", "type", "age", "range", "grade"}  # fmt: skip


WORD = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+(?:\.\d+)?")


def split_name(name: str) -> list[str]:
    """A column name as words: ``petalLength_cm2`` is petal, length, cm, 2; ``TVNewsDays`` tv, news, days."""
    return [w.lower() for w in WORD.findall(name)]


for _concept, _words in CONCEPTS.items():
    for _word in _words:
        WORD_CONCEPTS.setdefault(_word.rstrip("_"), set()).add(_concept)
        WORD_CONCEPTS.setdefault(stem(_word.rstrip("_")), set()).add(_concept)


def concepts_of(word: str) -> set[str]:
    return WORD_CONCEPTS.get(word, set()) | WORD_CONCEPTS.get(stem(word), set())


@dataclass(frozen=True)
class Word:
    text: str
    stem: str
    start: int  # character offsets in the question
    end: int
    concepts: frozenset[str] = frozenset()


WEEKDAY_NAME = re.compile(r"\bdays? (?:of )?(?:the )?week\b")
RANGE_BETWEEN = re.compile(r"\s*(?:-|\u2013|to)\s*")  # "0-60", "18 to 24"
# a name said as a phrase: "the day of the week" is the weekday column
PHRASED = {
    re.compile(r"\bdays? of (?:the )?week\b", re.I): "weekday",
    re.compile(r"\bJ ?& ?J\b"): "jnj",  # Johnson & Johnson's ticker
    re.compile(r"\bP&G\b"): "pg",
    re.compile(r"\bpopulation densit(?:y|ies)\b", re.I): "density",  # one column, not population and density
    re.compile(r"\blast(?:ed|ing)\b", re.I): "duration",  # "the eruptions lasting over 250 s"; not "the last year"
    re.compile(r"\bS ?& ?P(?: ?500)?\b", re.I): "sp",  # the Standard & Poor's 500 index (sp500, sp_500)
    # "where the maker is from", "where they come from": their origin
    re.compile(r"\bwhere (?:the |a |an |its |their )?(?:\w+ )?(?:is|are|was|were|comes?|came) from\b", re.I): "origin",
    re.compile(
        r"\bwhere (?:the |a |an |its |their )?(?:\w+ )?(?:is|are|was|were) (?:made|built|produced|manufactured)\b", re.I
    ): "origin",
}


def words_of(text: str) -> list[Word]:
    """The words of a text, a CamelCase name as its words ("IncomeBracket" is income, bracket), and a
    phrase that says one word as that word ("day of the week": weekday)."""
    phrased = [(m.start(), m.end(), word) for pattern, word in PHRASED.items() for m in pattern.finditer(text)]
    found = [Word(word, stem(word), start, end, frozenset(concepts_of(word))) for start, end, word in phrased]
    for match in re.finditer(r"[A-Z]{2,}(?=[A-Z][a-z])|[A-Z]?[a-z][a-z']*|[A-Z]+|\d+(?:\.\d+)?", text):
        if any(start <= match.start() < end for start, end, _ in phrased):
            continue
        raw = match.group(0)
        if "." in raw and match.start() and text[match.start() - 1].isalpha():
            raw = raw.replace(".", "")  # "PM2.5" is the pm25 column's name, no number
        found.append(Word(raw.lower(), stem(raw), match.start(), match.end(), frozenset(concepts_of(raw.lower()))))
    return sorted(found, key=lambda w: w.start)


@dataclass
class Named:
    """A column as its name reads: its content words (stemmed) and the concepts they carry."""

    name: str
    stems: list[str] = field(default_factory=list)
    concepts: list[set[str]] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)  # words that name it better when said, never needed

    @classmethod
    def of(cls, name: str) -> Named:
        words = [part for word in split_name(name) for part in FUSED.get(word, (word,))]
        words = WEEKDAY_NAME.sub("weekday", " ".join(words)).split()  # day_of_week, as "the day of the week" is said
        # "min" is minutes at a name's end (wait_min), the minimum before another unit (temp_min_c)
        kept = {i for i, w in enumerate(words) if w == "min" and i + 1 < len(words) and words[i + 1] in UNITS}
        parts = [
            p
            for i, p in enumerate(words)
            if (p not in UNITS or i in kept)
            and p not in STOP
            and (not p.isdigit() or YEAR_WORD.fullmatch(p))
            and len(p) > 1
        ] or words  # earnings_1974 and earnings_1978 differ by their years
        if words[0] in UNITS and concepts_of(words[0]) and all(p in STATISTIC_WORDS for p in parts):
            parts.append(words[0])  # kwh_total: its unit leads and is what it measures (total_twh's follows)
        named = cls(name, [stem(p) for p in parts], [concepts_of(p) for p in parts])
        if PER_COUNT.search(name) and "rate" not in named.stems:  # marriages_per_1000 is the marriage rate
            named.optional.append("rate")
        # efficiency_240mm beside efficiency_180mm: its number, when said, names it over its neighbours
        named.optional += [p for p in split_name(name) if p.isdigit() and p not in named.stems]
        if FUEL_NAME.search(name):
            named.concepts = [c | {"fuel"} for c in named.concepts]
        return named


@dataclass(frozen=True)
class Mention:
    column: str
    start: int  # character offsets of the words that named it
    end: int
    score: float  # the share of the name's words the text said, 1.0 for all of them
    exact: bool  # every word said as such, not through a synonym


def _matches(word: Word, stem_: str, concepts: set[str], own: frozenset[str]) -> tuple[bool, bool]:
    """(matched, exactly): the same stem, or a shared concept; or a form of the name, when the word is no
    word of any column's name (``own``): "readmission" never names admissions beside readmission_rate."""
    if word.stem == stem_ or word.text == stem_:
        return True, True
    if word.stem in STOP:
        return False, False
    again = len(word.text) >= 8 and word.text.startswith("re") and stem(word.text[2:]) == stem_
    shortened = _contracted(stem_, word) or _cut_short(stem_, word)
    if word.stem not in own and (again or (len(stem_) >= 5 and word.stem + "al" == stem_) or shortened):
        return True, False  # "rearrested" names arrested, "survived" survival, "department" Dept, "cholesterol" chol
    degree = word.text in DEGREES  # "lightest" weighs; "light" alone may be daylight
    return bool(word.concepts & concepts) and (word.stem not in WEAK or degree), False


def _superlative_of(said: str, name_word: str) -> bool:
    """ "highest" of high_c, "biggest" of big_cats: a superlative ranks what follows it ("the highest mean
    rides"), it does not name a column by its adjective."""
    forms = (name_word + "est", name_word + name_word[-1:] + "est", name_word + "st", name_word[:-1] + "iest")
    return said in forms


def _contracted(name_word: str, word: Word) -> bool:
    """Whether a name's word is the said word contracted, as names write them: its first and last letters
    and some of those between, in order, and no vowel past its second letter ("dept" of department, "qty"
    of quantity, "govt" of government; never "age" of average or "rate" of reallocate)."""
    said = word.text.removesuffix("s") if word.text.removesuffix("s") != word.text and len(word.text) > 5 else word.text
    if not 3 <= len(name_word) <= len(said) - 3 or not name_word.isalpha() or set(name_word[2:]) & set("aeiou"):
        return False
    if name_word[0] != said[0] or name_word[-1] != said[-1]:
        return False
    letters = iter(said)
    return all(letter in letters for letter in name_word)


def _cut_short(name_word: str, word: Word) -> bool:
    """Whether a name's word is the said word cut short, as names write them ("chol" of cholesterol,
    "phos" of phosphatase, "temp" of temperature): at least three letters, and four or more cut off."""
    return (
        len(name_word) >= 3
        and name_word.isalpha()
        and len(word.text) >= len(name_word) + 4
        and (word.text.startswith(name_word))
        and word.text not in NEVER_CUT  # "controlling for" names no air_con
    )


# the words that say how a question is asked, never a column's name cut short
NEVER_CUT = {"controlling", "accounting", "adjusting", "allowing", "correcting", "holding", "comparing",
             "considering", "including", "excluding", "according", "percentage", "percentages"}  # fmt: skip
CLAUSE_BREAK = re.compile(r"[:;?!,]")


def mentions(text: str, columns: list[str], *, window: int = 4) -> list[Mention]:
    """Where the text names each column, best first; each word of the text names one column at most."""
    words = words_of(text)
    candidates = []
    every = [Named.of(name) for name in columns]
    own = frozenset(s for named in every for s in named.stems)
    for named in every:
        for anchor in range(len(words)):
            hit = _near(words, anchor, named, window, own)
            if hit and not CLAUSE_BREAK.search(text[hit[0].start : hit[0].end]):
                candidates.append(
                    _as_rate(text, words, named, *hit)
                )  # a name's words said in one phrase: "score: is it age, looks" is none
        candidates += _numbers_said(text, words, named)
    # The fullest match first; of two full ones, the name of more words ("hourly wage" over "hours").
    candidates.sort(key=lambda m: (-m[0].score, -len(m[1]), not m[0].exact, m[1][-1] - m[1][0], m[0].start))
    taken: set[int] = set()
    chosen: dict[str, Mention] = {}
    for mention, positions in candidates:
        if mention.column in chosen or taken & set(positions) or _ranks_a_change(text, mention):
            continue
        taken |= set(positions)
        chosen[mention.column] = mention
    found = sorted(chosen.values(), key=lambda m: m.start)
    return [m for m in found if not _ranks_the_next(text, m, found)]


def _numbers_said(text: str, words: list[Word], named: Named) -> list[tuple[Mention, list[int]]]:
    """ "The 0-60 time", "18 to 24": two numbers of a name said as a range name it (accel_0_60_s, age_18_24)."""
    numbers = [part for part in split_name(named.name) if part.isdigit()]
    return [
        (Mention(named.name, words[i].start, words[j].end, 1.0, True), list(range(i, j + 1)))
        for low, high in pairwise(numbers)
        for i in range(len(words))
        for j in range(i + 1, min(i + 3, len(words)))  # "0-60", "18 to 24"
        if (words[i].text, words[j].text) == (low, high)
        and RANGE_BETWEEN.fullmatch(text[words[i].end : words[j].start])
    ]


def _ranks_a_change(text: str, mention: Mention) -> bool:
    """ "The biggest price hike": a superlative that names a column only by what it means (size) ranks
    the change that follows it; "the biggest cars" still names size."""
    said = text[mention.start : mention.end].lower()
    if mention.exact or not re.fullmatch(r"[a-z]{3,}i?est", said):
        return False
    return bool(set(re.findall(r"[a-z]+", text[mention.end :].lower())[:2]) & CHANGE_NOUNS)


def _ranks_the_next(text: str, mention: Mention, found: list[Mention]) -> bool:
    """ "The highest mean daily rides": a superlative of a name's adjective (high_c) right before another
    column's name ranks that column; said alone ("the fullest car park") it names its own."""
    said = text[mention.start : mention.end].lower()
    adjective = next((w for w in split_name(mention.column) if _superlative_of(said, w)), None)
    between = [re.findall(r"\w+", text[mention.end : m.start].lower()) for m in found if m.start >= mention.end]
    ranks_a_part = bool(RANKED_PART.match(text[mention.end :]))  # "the largest share": of large_hass, no word
    return adjective is not None and (ranks_a_part or any(len(w) <= 3 and set(w) <= RANKED_BY for w in between))


CHANGE_NOUNS = {
    "hike",
    "rise",
    "increase",
    "jump",
    "gain",
    "growth",
    "drop",
    "fall",
    "decline",
    "change",
    "cut",
    "climb",
    "surge",
    "slump",
    "swing",
}  # "the biggest hike": a change ranked, no size
RANKED_PART = re.compile(r"\s+(?:share|proportion|percentage|part|fraction|slice|portion)s?\b", re.I)
# the words between a superlative and the measure it ranks: "the highest mean daily rides"
RANKED_BY = {"mean", "average", "avg", "median", "total", "typical", "daily", "weekly", "monthly", "yearly", "annual",
             "hourly", "number", "of", "the"}  # fmt: skip


def blanked(text: str, spans: list[Mention] | list[tuple[int, int]]) -> str:
    """The text with some spans (column names, filters) blanked out, every offset kept."""
    for span in spans:
        start, end = (span.start, span.end) if isinstance(span, Mention) else span
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _as_rate(
    text: str, words: list[Word], named: Named, mention: Mention, positions: list[int]
) -> tuple[Mention, list[int]]:
    """A rate's column said as a rate takes the whole phrase: "vehicles per hour", "vehicles/hour" and
    "hourly volume" name per_hour, never the vehicles or hours columns beside it."""
    if "per" not in split_name(named.name):
        return mention, positions
    first = positions[0]
    before = text[words[first - 1].end : words[first].start] if first else ""
    if words[first].text in LEMMAS and PERIODIC.fullmatch(words[first].text):
        following = words[first + 1] if first + 1 < len(words) else None
        taken = [first + 1] if following and following.stem not in STOP and len(following.text) > 2 else []
    elif first >= 2 and words[first - 1].stem == "per":
        taken = [first - 2, first - 1]
    elif first >= 1 and before.strip() == "/":
        taken = [first - 1]
    else:
        return mention, positions
    start, end = min(words[i].start for i in [*taken, *positions]), max(words[i].end for i in [*taken, *positions])
    return Mention(mention.column, start, end, mention.score, mention.exact), sorted({*taken, *positions})


def _initials(words: list[Word], index: int, abbreviation: str) -> list[int]:
    """The positions of the words whose initials spell a short name ("bc" for breast cancer)."""
    size = len(abbreviation)
    if not 2 <= size <= 4 or not abbreviation.isalpha() or index + size > len(words):
        return []
    said = words[index : index + size]
    # "miles per gallon" spells mpg: "per" has its letter in a rate's abbreviation, other small words none
    if "".join(w.text[0] for w in said) != abbreviation or any(w.stem in STOP - {"per"} for w in said):
        return []
    if any("'" in w.text for w in said[:-1]):
        return []  # "a stock's price" is a thing and what it has, never an abbreviation (sp500)
    return list(range(index, index + size))


def _compound(words: list[Word], index: int, name_stem: str) -> list[int]:
    """The positions of two words said apart that a name writes as one ("follow-up", "check in")."""
    if index + 1 >= len(words) or words[index].end + 1 < words[index + 1].start:
        return []
    joined = words[index].text + words[index + 1].text
    return [index, index + 1] if name_stem in (joined, stem(joined)) else []


def _near(
    words: list[Word], anchor: int, named: Named, window: int, own: frozenset[str]
) -> tuple[Mention, list[int]] | None:
    """The name's words said from ``anchor`` on (within ``window`` words), if the first one is there."""
    positions, exact, said = [], True, 0
    for stem_, concepts in zip(named.stems, named.concepts, strict=True):
        for index in range(anchor, min(len(words), anchor + window + 1)):
            if index in positions:
                continue
            initials = _initials(words, index, stem_) or _compound(words, index, stem_)
            if initials:
                positions += initials  # "breast cancer cases" names bc_cases, "follow-up" followup_days
                said += 1
                break
            matched, exactly = _matches(words[index], stem_, concepts, own)
            if matched:
                positions.append(index)
                exact = exact and exactly
                said += 1
                break
    if anchor not in positions:
        return None
    for stem_ in named.optional:  # "marriage rate": marriages_per_1000 named by more words than marriages
        near = range(max(0, anchor - window), min(len(words), anchor + window + 1))
        positions += [i for i in near if i not in positions and words[i].stem == stem_][:1]
    score = said / len(named.stems)
    if len(named.stems) > 1 and len(positions) == 1 and words[anchor].stem in STOP | {"mean", "average", "total"}:
        return None
    first, last = min(positions), max(positions)
    mention = Mention(named.name, words[first].start, words[last].end, score, exact)
    return mention, sorted(positions)
