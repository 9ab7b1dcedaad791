"""The words that ask for a kind of their own over a question's first reading ("significant", "missing",
"unusual", "skewed", "the five largest", "when was it lowest", "if the trend continues"): which kind
they ask, and the words each kind takes as its own when its reading is stated. Plain Python.
"""

from __future__ import annotations

import re

from agents.analysis import looking, modelled
from agents.analysis.phrases import ASSOCIATION, CHANGE_WORDS, DIFFER
from agents.analysis.request import Request

SIGNIFICANCE = re.compile(
    r"\b(?:statistically|significan(?:t|ce|tly)|p[- ]?values?|t[- ]?tests?|anova|chi[- ]?squared?"
    r"|(?:by|due to|down to|just|mere|pure|random|from|be|is|was|only|within|explained by)"
    r" (?:just |only |merely |down to |due to )?"
    r"(?:random |pure |blind )?(?:chance|luck|noise|coincidence)"
    r"|chance alone|(?:a )?fluke|real (?:diff\w*|gap|effect)|genuine(?:ly)?|reliabl[ey] different"
    r"|(?:more than|beyond) (?:chance|noise|luck)|test(?:ing)? (?:whether|if)|makes? (?:a|any) (?:real )?difference"
    r"|(?:does|do|did) [\w ]{1,40} (?:really |actually )?matter|sampling (?:variation|error|noise)|formally"
    r"|(?:a |an )?(?:proper|formal|statistical|hypothesis) test|\btest (?:it|that|this|them|the change)\b"
    r"|(?:does|do|would|can) (?:a |the )?(?:\w+ )?tests? (?:back|bear))\b",
    re.I,
)
# a cross-tab's own test and effect size: "chi-square + Cramér's V", "a test of independence"
INDEPENDENCE_TEST = re.compile(
    r"\bchi[- ]?squared?(?: test)?\b|\bχ²|\bcram[eé]r'?s?(?: v\b)?|\btest of independence\b|\bcontingency\b", re.I
)
# an adjusted fit's own words: "give the adjusted slope", "the coefficient", "the effect of X on Y", "still"
FITTED = re.compile(r"\badjusted\b|\bslopes?\b|\bcoefficients?\b|\beffects?\b|\bimpacts?\b|\bstill\b", re.I)
# the same subjects measured in both groups, said so: each row paired with its subject's other row; two
# measures of the same days, months or quarters
PAIRED_SAID = re.compile(
    r"\bpaired\b|\beach (?:\w+ )?(?:with|against) (?:him|her|it|them)sel(?:f|ves)\b|\bmeasured twice\b"
    r"|\bsame (?:\w+ ){0,2}(?:twice|in both)\b|\bwithin[- ]subjects?\b|\bmatched pairs?\b"
    r"|\b(?:on|over|in|for) the same (?:\w+ )?(?:days?|weeks?|months?|quarters?|years?|dates?|sessions?)\b",
    re.I,
)
THE_OTHERS = re.compile(
    r"\b(?:and|than|versus|vs\.?|against|from|with)\s+(?:(?:the|all)\s+)?(?:others?|rest|remaining)\b", re.I
)  # "and the other quarters", "versus the rest": the rows a condition keeps against all the others
TESTABLE = ("compare", "rank_differences", "statistic", "share")
ADJUSTABLE = ("association", "compare", "statistic", "rank_differences", "trend")
OWN_WORDS = {
    "significance": (SIGNIFICANCE, PAIRED_SAID, THE_OTHERS),
    "missing": (looking.MISSING, looking.NA_SAID),
    "outliers": (looking.OUTLIERS,),
    "distribution": (looking.DISTRIBUTION, looking.SPREAD),
    "top": (looking.TOP_N,),
    "share": (looking.TOP_N,),  # "which three makers have the most models": the three most common
    "which_row": (looking.WHEN,),
    "two_factor": (looking.COMBINATION,),
    "crosstab": (looking.RELATED, INDEPENDENCE_TEST),
    "forecast": (modelled.FORECAST,),
    "rate": (modelled.RATE_UNIT, modelled.SPEED, modelled.CHANGING, modelled.SLOPE),
    "adjusted": (modelled.ADJUSTED, FITTED),
    "growth": (modelled.FIRST_TO_LAST,),  # "first month to last, in percent": the growth's own ends
}  # the words that ask for a kind: a reading of that kind takes them as said, no other reading does
PAIRED_CHANGE = re.compile(
    r"\b(?:change|improv\w*|worsen\w*|beat\w*|outperform\w*|underperform\w*)\b"
    r"|\b(?:more|less|higher|lower|better|worse|bigger|larger|smaller|greater)\b(?:\s+\w+){0,3}\s+than\b",
    re.I,
)  # two measures of the same rows set against each other: a paired difference
INDEPENDENT_OF = re.compile(r"\bindependen\w* (?:of|from)\b", re.I)  # a test of independence, asked by name
CROSS_TABBED = re.compile(r"\bcross-?tab\w*|\bcontingency table", re.I)  # a cross-tab asked by name
SIGNED = re.compile(r"\b(?:positive|negative)\w*", re.I)
APART = re.compile(r"\bapart\b|\bseparat\w*|\bdistinguish\w*", re.I)
SPREAD_OVER_GROUPS = re.compile(r"\bdistribut\w*\s+(?:across|among|between|by|over|per)\b", re.I)


def _paired_change(request: Request, text: str) -> bool:
    """Two measures read as an association or as a course, asked about their difference ("the change from
    pressure before to pressure after", "quarter by quarter, do consumption and income differ"): a paired
    test, not a correlation nor a course."""
    two = request.kind == "association" or (request.kind == "trend" and len(request.measures) >= 2)
    return (
        two
        and bool(DIFFER.search(text) or CHANGE_WORDS.search(text) or PAIRED_CHANGE.search(text))
        and not ASSOCIATION.search(text)
    )


def asked_of(
    request: Request,
    text: str,
    said: str = "",
    *,
    group_named: bool = True,
    measure_named: bool = False,
    absent: bool = False,
    yes_no_side: bool = False,
) -> str | None:
    """The kind a question asks over its first reading, when its words ask for one ("significant",
    "missing", "unusual", "skewed", "the five largest", "when was it lowest"); ``text`` has the columns
    it names blanked out, ``said`` is as it was said ("per day" of a day column is a unit)."""
    said = said or text
    yes_no_paired = request.kind == "association" and yes_no_side  # "do manager vehicles come from farther"
    testable = request.kind in TESTABLE or _paired_change(request, text) or yes_no_paired
    # in "said" too: a test's words inside a filter's span ("washed ones score significantly ... than natural")
    if (SIGNIFICANCE.search(text) or SIGNIFICANCE.search(said)) and testable:
        return "significance"
    if modelled.FORECAST.search(said) and modelled.YEAR.search(said):
        return "forecast"
    if looking.OUTLIERS.search(text):
        return "outliers"
    if modelled.ADJUSTED.search(text) and request.kind in (
        "association",
        "compare",
        "statistic",
        "rank_differences",
        "trend",
        "share",  # "once you account for X": no share that X accounts for
    ):
        return "adjusted"
    between_ends = modelled.FIRST_TO_LAST.search(said)  # "change from 2013 to 2018": a growth
    changing = modelled.RATE_UNIT.search(said) and modelled.SPEED.search(text) and modelled.CHANGING.search(said)
    if (changing and not between_ends) or (modelled.SLOPE.search(said) and not modelled.FIRST_TO_LAST.search(said)):
        return "rate"  # "the steepest percentage fall from the first year to the last" is a growth
    if looking.MISSING.search(text) or looking.NA_SAID.search(text) or absent:
        return "missing"
    shape = looking.DISTRIBUTION.search(text) or (
        looking.SPREAD.search(text) and not looking.SPREAD_STATISTIC.search(text)
    )
    # "tumour grade distribution": shares; "how is TV watching distributed", of a number named alone: its shape
    categories_shared = request.kind == "share" and request.weight is None and (group_named or not measure_named)
    over_groups = SPREAD_OVER_GROUPS.search(text) and group_named  # "across regions", not "among respondents"
    if shape and not categories_shared and not over_groups:
        return "distribution"
    if looking.MIX_DIFFERS.search(text) and not measure_named:
        return "crosstab"
    if looking.COMBINATION.search(text) and (looking.ranks(text) or request.kind == "compare"):
        return "two_factor"
    signed = SIGNED.search(text) and request.kind == "association"  # "positively or negatively": a correlation
    if (
        CROSS_TABBED.search(text)
        or INDEPENDENT_OF.search(text)
        or (looking.RELATED.search(text) and request.kind in ("association", "compare", "share", "rank_differences"))
    ):
        return None if signed else "crosstab"
    return ranked_kind(request, text, said)


def ranked_kind(request: Request, text: str, said: str) -> str | None:
    """A list of rows ("the five densest": the superlative may name the measure too) or the one row."""
    listed = looking.how_many(text) and not (DIFFER.search(text) or APART.search(text))  # "the three species apart"
    if looking.ranks(said) and listed and request.kind in ("compare", "statistic", "share"):
        return "top"
    if looking.ranks(said):
        return "which_row"
    return None
