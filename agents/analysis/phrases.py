"""The words that tell what a question asks: its kind, its groupings, its outcome; the statistic and the
direction it asks are ``agents.analysis.statistic_phrases``'.

Plain Python: regular expressions over what analysts write, and the readers that need only them."""

from __future__ import annotations

import re

ASSOCIATION = re.compile(
    r"\b(?:associat\w*|correlat\w*|relat(?:ed|ion|ionship|es?)|linked|link\b|predict(?:s|ed|or|ors|ive)?\b"
    r"|connect\w*|covar\w*|go(?:es|ing)? together|mov(?:es?|ing|ed) together|depend\w*|explain\w*"
    r"|drives|drivers? (?:of|behind)|(?:is|are|was|were|s) driving"  # never "drunk driving" or "the drivers"
    r"|influenc\w*|affect\w*|hand in hand|(?:go(?:es|ing)?|mov(?:es?|ing)) (?:most )?(?:closely )?with|closely"
    r"|in step with|lines? up (?:\w+ )?with"
    r"|goes? (?:up|down) with|rises? with|falls? with|comes? with|come along with|tied to|in line with|track\w*)\b",
    re.I,
)


DIFFER = re.compile(
    r"\b(?:differ\w*|distinguish\w*|separat\w*|discriminat\w*|contrast\w*|vary most|varies most|gap|apart)\b", re.I
)


FROM_ONE_TO_ANOTHER = re.compile(r"\bfrom (\w+|\s{3,}) to (\w+)\b", re.I)
CALENDAR_UNITS = {"year", "years", "month", "months", "week", "weeks", "day", "days", "quarter", "quarters", "decade"}


def across_groups(text: str) -> bool:
    """ "From season to season": across a grouping's values, not over time (the first of the two names may
    be blanked, as the same width of spaces)."""
    return any(
        (m.group(1).lower() == m.group(2).lower() or (not m.group(1).strip() and len(m.group(1)) == len(m.group(2))))
        and m.group(2).lower() not in CALENDAR_UNITS
        for m in FROM_ONE_TO_ANOTHER.finditer(text)
    )


MANY_MEASURES = re.compile(
    r"\b(?:which|what|top|most)\b[^.?]{0,40}\b(?<!most )(?<!more )(?<!less )(?<!least )(?<!highly )"
    r"(?:measure(?:ment)?s?|variables?|features?|columns?|metrics?|"
    r"characteristics?|attributes?|indicators?|predictors?|factors?|properties|property|fields?|traits?|dimensions?"
    # "which factor fund": a word before a column's name (blanked) is no noun
    r"|stats?|statistics|specs?|specifications?)\b(?!\s{2,})",
    re.I,
)


GROWTH = re.compile(
    r"\b(?:grew|grow(?:n|s|ing|th)?|expan\w*|shr[ai]nk\w*|shrunk|improv\w*|(?:increase|rise|rose|gain|jump|add|"
    r"added|climb|fall|fell|drop|decline|declined|decrease|lost|lose|loses|cut|cuts|reduced?|shed)[ds]? (?:\w+ ){0,3}"
    r"(?:the )?(?:most|least|fastest|the least)|"
    r"(?:biggest|largest|greatest|highest|smallest|most)\s+(?:\w+\s+)?(?:increase|rise|gain|growth|jump|hike|decline|drop"
    r"|fall|decrease|change)|percent(?:age)? change|% change)\b",
    re.I,
)


# Words that ask for a course over time; "annual flow" or "per month" alone describe a measure instead.
TIME_WORDS = re.compile(
    r"\b(?:trend\w*|over (?:the |those |these |all (?:the|those|these) )?"
    r"(?:time|years?|months?|period|decades?|quarters?|days?|weeks?|seasons?)|"
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
    r"|climb\w*|chang\w*|evolv\w*|develop\w*|shr[aiu]nk\w*|progress\w*|up or down|upward|downward"
    r"|improv\w*|worsen\w*|happen\w* to|mov(?:e|ed|ing)|which way"
    r"|(?:getting|got|become|became) (?:bigger|smaller|larger|higher|lower|cheaper|dearer)"
    r"|gets? (?:bigger|smaller|larger|higher|lower) or (?:bigger|smaller|larger|higher|lower)"  # not "gets more sun"
    r"|(?:bigger|smaller|larger|higher|lower) at the end than at the start)\b",
    re.I,
)


SHARE = re.compile(
    r"\b(?:share|slice|portion|proportion|fraction|how common|most common"
    # "the average percentage": a measure; "(percent)", "in percent": its unit
    r"|(?<!average )(?<!mean )(?<!median )(?<!\()(?<!in )percent(?:age)?s?\b(?! terms| change)"
    r"|least common"
    r"|most frequent|commonest|(?:largest|biggest|greatest|smallest|main|major) part of|what %"
    r"|breakdown|break down|distribution of|what part|composition|mix|make-?up|makes up|account for|accounts for|split"
    r"|dominat\w*"
    r"|how (?:are|is) [\w ]+ (?:split|divided|distributed)|how many .* each|counts? (?:of|per|by) each|frequenc\w*)"
    r"|(?<!average )(?<!mean )(?<!median )%\s*of\b",  # "the average % of adults with a degree": a measure
    re.I,
)


GROUP_BEFORE = re.compile(
    r"\b(?:by|per|for each|for every|across|between(?: the)?|among(?: the)?|in each|of each|within each|each|"
    r"grouped by|split by|broken down by|break(?:down| down) by|for the different|which|what|versus|vs\.?)\s+"
    r"(?:the\s+|different\s+|two\s+|three\s+|their\s+|its\s+)*$",
    re.I,
)

OUTCOME_WORDS = re.compile(r"\b(?:the )?(?:outcome|target|result|response|label|dependent variable|class)\b", re.I)

OUTCOME_NAMES = re.compile(r"^(?:outcome|target|label|class|y|result|response|survived|default|churn\w*)$", re.I)


SHARE_OF_TOTAL = re.compile(
    r"\b(?:share|slice|portion|proportion|percent(?:age)?|fraction|part) of (?:the )?(?:total|overall|all|combined)\b"
    r"|\baccounts? for\b|\bmakes? up\b|\bcontribut\w*|\b(?:largest|biggest|greatest|smallest|main|major) part of\b",
    re.I,
)


# What someone did, said after "who": "who ran the slowest", "who threw them"
WHO_DID = (
    r"(?:has|had|have|is|was|are|were|gets?|got|earns?|spends?|sells?|sold|ran|runs?|won|wins?|threw|throws?"
    r"|scored|scores?|finished|came|took|did|[a-z]+ed)"
)
# "who has the most", "tell me who earns most"; never "the students who were in the programme", which
# names rows
WHICH = re.compile(
    r"\b(?:which|rank|what \w+ (?:has|had|have|is|was|brings?|shows?|gets?|got|makes?|made))\b"
    r"|(?:^\s*|[^\w\s]\s*|\b(?:me|us|and|so|then|know|see|show|find|tell)\s+)"
    rf"who {WHO_DID}\b",
    re.I,
)


CYCLE = re.compile(
    r"\b(?:which|what)(?:'s|\u2019s| is| was)?\s+(?:\w+\s+){0,2}(month|weekday|day of the week|quarter|season)\b", re.I
)


CYCLES = {"month": "month_of_year", "season": "season", "quarter": "quarter_of_year", "weekday": "weekday",
          "day of the week": "weekday"}  # fmt: skip


MOVE = re.compile(
    r"\b(?:grew|grow\w*|rose|ris\w+|rais(?:e|ed|es|ing)|climb\w*|gain\w*|increas\w*|jump\w*|improv\w*|fell|fall\w*"
    r"|drop\w*|declin\w*"
    r"|decreas\w*|lost|los[es]\w*|cut\w*|shr[aiu]nk\w*|(?:come|came|went|go|gone) (?:down|up)|chang\w*)\b",
    re.I,
)


STEEP = re.compile(r"\b(?:steepest|sharpest|biggest|largest|greatest|strongest|fastest)\b", re.I)


ENTITY = re.compile(
    r"\b(?:which|where|who|whose|in which|what \w+)\b"
    r"|\b(?:fastest|slowest|most|least|best|worst)[- ](?:growing|shrinking|rising|falling|improving|declining"
    r"|perform(?:ing|ers?))\b",
    re.I,
)


COMPARE = re.compile(r"\b(?:compare|compared|comparing|versus|vs\.?|differ\w*|between)\b", re.I)


# "did they stay out longer than those who didn't", "for each group": the rows a yes/no names are one side
OTHER_SIDE = re.compile(
    r"\bthan (?:those|the (?:others?|rest|ones)|people|ones)\b|\b(?:for|in|of) (?:each|both|either) group\b"
    r"|\bthe two groups\b",
    re.I,
)


MOST = re.compile(
    r"\b(?:most|least|fastest|slowest|largest|biggest|greatest|highest|lowest|smallest|strongest|weakest|best|worst"
    r"|longest|shortest|oldest|youngest"
    r"|top|rank\w*)\b",
    re.I,
)


def asks_which(text: str) -> bool:
    return bool(WHICH.search(text))


WHO = re.compile(r"\s*(?:where|with|that|who|whose|which|having)\b", re.I)


POPULATION_SD = re.compile(r"\bpopulation (?:standard deviation|sd|variance)|\bdivid\w* by n\b", re.I)


COUNT_OF = re.compile(r"\b(?:number of|how many|count of)\s+(?:\w+\s+){0,1}$", re.I)


STATISTIC_ONLY = re.compile(r"(?:total|sum|mean|average|count|median|max|min|number)s?", re.I)


LEVELS = re.compile(r"\b(?:levels?|ratings?|groups?|codes?|coded|categor\w*|classes|grades|tiers|bands|scale)\b", re.I)


TABLE_WORDS = re.compile(r"\W*(?:\w+\W+)?(?:csv|data|dataset|file|table|spreadsheet|sheet|list)\b", re.I)


PASSIVE = re.compile(r"\b(?:driven|explained|predicted|influenced|affected|determined|shaped)\s+(?:\w+\s+)?by\b", re.I)


SET_ASIDE = re.compile(
    r"\b(?:leav\w*|set\w*|putt?\w*|apart from|aside from|other than|besides|except|excluding|ignoring|not counting)"
    r"\s+(?:the\s+)?$",
    re.I,
)


# "the most senators", "the fewest orders": a count of rows, where "the best" or "the strongest" ranks a measure
# the rows themselves, as a question calls them: "order lines", "the most models on the list"
ROW_NOUNS = re.compile(r"(?:lines?|rows?|records?|entr(?:y|ies)|observations?|transactions?|models|listings?)", re.I)
COUNTED_ROWS = re.compile(rf"\b(?:most|fewest|least|more|fewer)\s+{ROW_NOUNS.pattern}\b", re.I)
COUNTED = re.compile(r"\b(?:most|fewest|least|more|fewer)\s+(?!\w+(?:est|ly)\b)(?!of\b)\w+", re.I)
COUNTS = re.compile(r"\b(?:how many|number of|count\w*|most (?:often|frequent\w*)|frequent\w*)\b", re.I)


def rows_asked(text: str) -> str | None:
    """Whether the words ask for rows counted rather than a measure ranked: "said" ("how many", "what
    share"), "implied" ("the most orders": a count, unless the orders are the measure), or None ("the
    best feed", "the strongest month"). One decision for the reader of the question (which counts on
    "implied") and for the doubt of its reading (which doubts anything short of "said")."""
    if COUNTS.search(text) or SHARE.search(text) or COUNTED_ROWS.search(text):
        return "said"
    return "implied" if COUNTED.search(text) else None


# "in absolute terms", "by how many": a change counted in the measure's own units, not in percent
ABSOLUTE = re.compile(
    r"\babsolute\b|\bin (?:raw |actual )?(?:numbers|units|terms of (?:numbers|people|units))\b|\bby how (?:many|much)\b"
    r"|\bhow many more\b|\b(?:net|raw) (?:gain|change|increase|growth)\b",
    re.I,
)


# "higher or lower", "more or less", "lower than": a direction asked about
_COMPARATIVE = r"(?:higher|lower|more|less|better|worse|bigger|smaller|larger|greater|fewer)"
DIRECTION_ASKED = re.compile(rf"\b{_COMPARATIVE}\s+or\s+{_COMPARATIVE}\b|\b{_COMPARATIVE}\s+than\b", re.I)


# "the single worst quarter", "any one highest day": one extreme over the rows, not a change or groups
ONE_EXTREME = re.compile(
    r"\b(?:single|any one|one)\s+(?:worst|best|highest|lowest|biggest|largest|smallest|strongest|weakest)\b", re.I
)


# "the best highway mpg of any model", "the most riders on a single day": one extreme over them all,
# no grouping
ANY = re.compile(
    r"\bany(?: of the)?\s+(?:\w+\s+)?$|\b(?:a|any|one)\s+(?:single|given|one)\s+$|\b(?:on|in)\s+one\s+$", re.I
)


# "men or women", "A vs B": a choice between the things named
EITHER = re.compile(r"\b(?:or|vs\.?|versus)\b", re.I)


# "in which of the three years": the column after it holds the groups
WHICH_OF = re.compile(r"\b(?:which|what)\s+(?:of the (?:\w+\s+)?)?$", re.I)


# Between two named columns of a list: "A, B or C", "A or the B" (a choice when EITHER joins one pair)
LISTED = re.compile(r"\w*\s*(?:,|,?\s*(?:or|and))?\s*(?:the\s+)?", re.I)


# "most of these bills": the things themselves, counted
MOST_OF = re.compile(r"\b(?:most|many|the bulk|the majority) of (?:the|these|those|our|all the)\s+$", re.I)


# "the windiest days", "the busiest months": a superlative of a measure's own word
SUPERLATIVE = re.compile(r"\b[a-z]{2,}iest\b", re.I)


# "carnivores, herbivores etc": values listed as examples of all the groups, not a filter to them
ETC = re.compile(r"\w*\W*(?:etc\b|and so on\b|and (?:the )?others\b|and the like\b|\.\.\.|\u2026)", re.I)


# "how much rain", "how much did it snow", "the total snow", "how deep": words that ask an amount name a
# measure, never a category's value
AMOUNT = re.compile(
    r"\b(?:how much(?:\s+(?:did|does|do|has|had|will)\s+it)?|total|average|mean|median|amount of)\s+(?:\w+\s+)?$"
    r"|\bhow\s+$",
    re.I,
)


# "how much rain fell", "how many units sold": the amount that moved, not a change asked about ("how much
# did it fall" asks the change)
AMOUNT_MOVED = re.compile(
    r"\bhow (?:much|many)\s+(?!(?:did|does|do|has|have|had|was|were|is|are|will|would)\b)(?:\w+\s+){0,3}?"
    r"(?:fell|fall|falls|rose|rise|rises|came|went|sold)\b",
    re.I,
)


# "across all the state-years", "over the counties": the rows a relation is measured over, not a variable
UNITS_OF = re.compile(r"\b(?:across|over|among|within)\s+(?:all\s+)?(?:the\s+|these\s+|those\s+)?(?:\w+-)?$", re.I)


# "which tumour grade", "what kind of weather", "which level of religiousness": the grouping column named
# right after
WHICH_BEFORE = re.compile(
    r"\b(?:which|what)\s+(?:(?:kind|type|sort|level|categor(?:y|ie)|class|group)s? of\s+|\w+\s+)?$", re.I
)


# "what was the highest weekly price", "what's the lowest": one extreme asked for
EXTREME = re.compile(
    r"\bwhat(?:'s|\u2019s|\s+(?:is|was|were|are))?\s+the\s+(?:highest|lowest|largest|smallest|biggest|greatest"
    r"|maximum|minimum|peak|record)\b",
    re.I,
)


# "which stock did best", "the worst performer": how well, with no measure said (its level, or its change?)
# the two ends of a span said: "first month to last", "from start to end"
SPAN_ENDS = re.compile(r"\bfirst\b.{0,40}\blast\b|\b(?:start|beginning)\b.{0,40}\bend\b", re.I)
PERFORMED = re.compile(r"\b(?:did|done|do|does|perform\w*)\s+(?:the\s+)?(?:best|worst|well|badly|better|worse)\b", re.I)


# A month said by its name ("January's revenue against December's"): the course is told in months
MONTH_NAMED = re.compile(
    r"\b(?:january|february|march|april|june|july|august|september|october|november|december)(?:'s|\u2019s)?\b", re.I
)


# A measure that counts what happened in a span (revenue, units sold, riders): a month of such rows is
# their total ("January's revenue"), where a level (a price, a temperature) is their mean.
FLOW_NAME = re.compile(
    r"(?:^|[\s_(])(?:revenue|sales?|sold|units|volumes?|orders|riders|rides|trips|visit(?:s|ors)|passengers|"
    r"spend(?:ing)?|takings|turnover|bookings|deliveries|crimes|cases|deaths|births|arrivals|counts?)(?:$|[\s_)])",
    re.I,
)


# A measure that is already a rate or a share of something: adding it up over rows means nothing.
RATE_NAME = re.compile(
    r"(?:^|[\s_(])(?:percent\w*|pct|%|rate|ratio|share|proportion|per|density|average|mean)(?:$|[\s_)])", re.I
)
UNIT_PER = re.compile(r"\b(?:per|a|each|every)\s+$", re.I)  # "per year" before a period said as a unit
