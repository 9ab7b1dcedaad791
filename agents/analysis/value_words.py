"""The values of a table's text columns as sentences say them: with spaces for underscores, as a place's
adjective, a US state by its name, a code spelt out ("the momentum fund" of MTUM), a month by its name,
people by who they are ("men" of male), a season's other forms and spellings. Plain Python.
"""

from __future__ import annotations

import re

from agents.analysis.place_names import said_as
from agents.analysis.words import STOP

VAGUE_VALUES = {"yes", "no", "y", "n", "true", "false", "other", "none", "unknown", "na", "n/a", "all", "a", "i"}
IDIOMS = re.compile(
    r"\b(?:on (?:the )?average|in general|in total|on the whole|as a whole|at (?:the )?most|at least)\b", re.I
)


SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s*)[\"'(]?$")


def value_mentions(text: str, values: dict[str, list[str]]) -> list[tuple[str, str, int]]:
    """(column, value, offset) for each value of a few-valued column the text says, in its order; an idiom
    names no value ("on average" is no "average" player)."""
    text = IDIOMS.sub(lambda m: " " * len(m.group()), text)
    lowered = text.lower()
    found = []
    for column, options in values.items():
        for value in options:
            spoken = str(value).lower().strip()
            if not spoken or spoken.isdigit():
                continue
            for variant in _variants(spoken):
                # A code in capitals ("IN", "OR", "ME": also words) or a symbol ("At", "He") names its value
                # only as written
                cased = str(value).isupper() or str(value) != str(value).lower()
                as_written = variant == spoken and cased and len(spoken) <= 3 and spoken not in VAGUE_VALUES
                said = str(value) if as_written else variant
                # A vague value ("none", "other", "yes") counts only when quoted: 'none'.
                pattern = (
                    rf"['\"]{re.escape(said)}['\"]"
                    if spoken in VAGUE_VALUES
                    else (rf"(?<![\w-])(?<!\w['\u2019]){re.escape(said)}(?:e?s)?(?![\w])")
                )  # never the "s" of "block's"
                match = re.search(pattern, text if as_written else lowered)
                if match and as_written and spoken in STOP and SENTENCE_START.search(text[: match.start()]):
                    match = None  # "In the isotope table": a sentence's first word, not indium
                if not match and len(variant) >= 5 and variant.isalpha() and spoken not in VAGUE_VALUES:
                    match = re.search(rf"(?<![\w-])\w+{re.escape(variant)}(?:e?s)?(?![\w])", lowered)  # homeowners
                if match:
                    found.append((column, str(value), match.start()))
                    break
            else:
                elsewhere = said_as(str(value), text)
                if elsewhere is None:
                    elsewhere = _code_spelt_out(str(value), text)
                if elsewhere is not None:
                    found.append((column, str(value), elsewhere))
    return sorted(found, key=lambda f: f[2])


def _code_spelt_out(value: str, text: str) -> int | None:
    """Where a code in capitals is said as the word it shortens: "the quality fund" is QUAL, "the momentum
    fund" MTUM (its letters in order, the first and the last the word's own, or its start). Four letters
    or five: three letters (an ISO country code) are spelt inside too many words."""
    if not (value.isalpha() and value.isupper() and 4 <= len(value) <= 5):  # "PER" in "power" is no Peru
        return None
    code = value.lower()
    for match in re.finditer(r"[a-z]+", text.lower()):
        word = match.group()
        if len(word) < len(code) + 2 or len(word) > 3 * len(code) or word[0] != code[0]:
            continue
        letters = iter(word)
        if word.startswith(code) or (word[-1] == code[-1] and all(letter in letters for letter in code)):
            return match.start()
    return None


def _variants(value: str) -> list[str]:
    """A value as sentences say it: with spaces for underscores, as the adjective of a place ("europe"
    is said "European", "japan" "Japanese", "west" "western"), a US state's code by its name ("PA",
    "Pennsylvania"), and a country's code by its name or its people's ("JP", "Japanese")."""
    spaced = value.replace("_", " ")
    variants = [value, spaced, spaced.replace(" ", "-")]  # "mostly-rural" says "mostly rural"
    if spaced.isalpha() and len(spaced) > 3:
        variants += [
            spaced + "n",
            spaced + "an",
            spaced + "ian",
            spaced + "ese",
            spaced[:-1] + "ian",
            spaced[:-1] + "ese",
            spaced + "ern",
        ]
    if value in US_STATES:
        variants.append(US_STATES[value])
    variants += COUNTRY_CODES.get(value, [])
    variants += PEOPLE_WORDS.get(value, [])
    if value[:3] in MONTHS and value in (value[:3], MONTHS[value[:3]]):  # "Jun" is said "June", "June" "Jun"
        variants += [MONTHS[value[:3]], value[:3]]
    if value[:3] in WEEKDAYS and WEEKDAYS[value[:3]].startswith(value):  # "Sat" and "Tues" said in full
        variants += [WEEKDAYS[value[:3]]]
    if " / " in value:  # "Washed / Wet": either name says it
        variants += [part for part in value.split(" / ") if len(part) >= 3 and part not in VAGUE_VALUES]
    variants += [spelt for spelt in _other_spellings(spaced) if spelt != spaced]
    season = SEASON.fullmatch(value)  # "2022-23" is said "22/23", "2022/23", "22-23"
    if season:
        century, first, second = season.groups()
        variants += [f"{first}/{second}", f"{century}{first}/{second}", f"{first}-{second}"]
    return list(dict.fromkeys(variants))


SEASON = re.compile(r"(\d\d)(\d\d)[-/](\d\d)")
# British and American spellings of one word: "aluminium" is the value Aluminum, "centre" Center, "grey" Gray
SPELLINGS = [(r"ium$", "um"), (r"um$", "ium"), (r"tre$", "ter"), (r"ter$", "tre"), (r"our$", "or"),
             (r"or$", "our"), (r"is(e|ation)$", r"iz\1"), (r"iz(e|ation)$", r"is\1"), (r"^grey$", "gray"),
             (r"^gray$", "grey")]  # fmt: skip


def _other_spellings(value: str) -> list[str]:
    if not value.isalpha() or len(value) < 4:
        return []
    return [re.sub(pattern, replacement, value) for pattern, replacement in SPELLINGS if re.search(pattern, value)]


# How people say the values of a sex column: "men or women" are the rows coded male and female.
PEOPLE_WORDS = {"male": ["men", "man"], "female": ["women", "woman"], "m": ["men", "males"], "f": ["women", "females"],
                "man": ["men"], "woman": ["women"], "child": ["children"],
                # countries coded by letters are said by their people's adjective
                "usa": ["american"], "us": ["american"], "uk": ["british"], "gb": ["british"]}  # fmt: skip

WEEKDAYS = {name[:3]: name for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}
MONTHS = {name[:3]: name for name in ("january", "february", "march", "april", "may", "june", "july", "august",
                                      "september", "october", "november", "december")}  # fmt: skip

US_STATES = {code.lower(): name for code, name in (
    ("AL", "alabama"), ("AK", "alaska"), ("AZ", "arizona"), ("AR", "arkansas"), ("CA", "california"),
    ("CO", "colorado"), ("CT", "connecticut"), ("DE", "delaware"), ("FL", "florida"), ("GA", "georgia"),
    ("HI", "hawaii"), ("ID", "idaho"), ("IL", "illinois"), ("IN", "indiana"), ("IA", "iowa"), ("KS", "kansas"),
    ("KY", "kentucky"), ("LA", "louisiana"), ("ME", "maine"), ("MD", "maryland"), ("MA", "massachusetts"),
    ("MI", "michigan"), ("MN", "minnesota"), ("MS", "mississippi"), ("MO", "missouri"), ("MT", "montana"),
    ("NE", "nebraska"), ("NV", "nevada"), ("NH", "new hampshire"), ("NJ", "new jersey"), ("NM", "new mexico"),
    ("NY", "new york"), ("NC", "north carolina"), ("ND", "north dakota"), ("OH", "ohio"), ("OK", "oklahoma"),
    ("OR", "oregon"), ("PA", "pennsylvania"), ("RI", "rhode island"), ("SC", "south carolina"),
    ("SD", "south dakota"), ("TN", "tennessee"), ("TX", "texas"), ("UT", "utah"), ("VT", "vermont"),
    ("VA", "virginia"), ("WA", "washington"), ("WV", "west virginia"), ("WI", "wisconsin"), ("WY", "wyoming"),
    ("DC", "district of columbia"),
)}  # fmt: skip

# countries' (and the EU's) two-letter codes that no US state has, as sentences say them
COUNTRY_CODES = {
    "us": ["american", "america", "united states", "usa"], "eu": ["european", "europe"],
    "uk": ["british", "britain", "united kingdom"], "gb": ["british", "britain", "united kingdom"],
    "jp": ["japanese", "japan"], "cn": ["chinese", "china"], "fr": ["french", "france"], "it": ["italian", "italy"],
    "kr": ["korean", "korea"], "mx": ["mexican", "mexico"], "se": ["swedish", "sweden"], "es": ["spanish", "spain"],
    "nl": ["dutch", "netherlands"], "ch": ["swiss", "switzerland"], "br": ["brazilian", "brazil"],
    "ru": ["russian", "russia"], "au": ["australian", "australia"], "nz": ["new zealand"], "ie": ["irish", "ireland"],
}  # fmt: skip
