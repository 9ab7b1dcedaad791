"""Whether an analyst's answer answers the question asked. Plain Python.

A reviewer reading a report against its question checks what a wrong answer gives away: a column the
question names that the answer never uses (or a lead about one it never named), an identifier or a
constant analysed as a measure, a part of the question (a second grouping, a year, a filter) left out,
an answer that could not be given, a success criterion the report does not speak to, and a confident
lead despite any of these. Each check says in words what it found or, when it passed, what it
established: "No problems found" means something only with what was checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agents.analysis import question_parts as parts_of
from agents.analysis.phrases import COMPARE, DIFFER, GROUP_BEFORE, SET_ASIDE, STATISTIC_ONLY, asks_which
from agents.analysis.question_parts import as_list, columns_in, reading, used_columns
from agents.analysis.schema import NOT_MEASURES
from agents.analysis.words import PERIODIC, STOP, Mention, Named, mentions, words_of

CONFIDENT = 0.6  # a lead rated above this claims to have answered the question asked
CRITERION_COVERED = 0.6  # the share of a success criterion's content words a report that meets it says
GROUPING_ROLES = ("category", "yes/no")
# "across these cities", "over all four stations": the answer pools over the column
POOLED = re.compile(
    r"\b(?:across|over|throughout|all|for all|in all|of these|of those|in these|in those)\s+"
    r"(?:the |these |those |all |its |their )*(?:\d+ |two |three |four |five |six |seven |eight |nine |ten )?$",
    re.I,
)
# "which county", "for each region": a column asked as the groups
WHICH_BEFORE = re.compile(r"\b(?:which|each|every|for each|in each)\s+(?:of the\s+(?:\w+\s+)?)?$", re.I)


@dataclass(frozen=True)
class Finding:
    """One thing wrong with the answer, in a plain title and words."""

    kind: str  # one of KINDS, or criterion_unaddressed
    title: str
    detail: str
    confidence: float


KINDS = ("unused_column", "unasked_column", "identifier_analysed", "part_unanswered", "not_answered", "overconfident")


@dataclass
class Checked:
    """What the checks found, and in words what each check that passed established."""

    findings: list[Finding] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """ "Checked: the answer uses price and city as the question names them; ..." """
        return "Checked: " + "; ".join(self.passed) + "." if self.passed else ""

    def add(self, kind: str, title: str, detail: str, confidence: float) -> None:
        self.findings.append(Finding(kind, title, detail, confidence))


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def named_columns(question: str, roles: dict[str, str]) -> list[Mention]:
    """The columns the question names in full, as the analyst matches names, leaving out a time said as
    a period ("monthly"), a column set aside ("leaving income aside") and a bare statistic word ("in
    total" beside a measure)."""
    found = [
        m
        for m in mentions(question, list(roles))
        if m.score == 1
        and not (roles.get(m.column) == "time" and PERIODIC.fullmatch(question[m.start : m.end]))
        and not SET_ASIDE.search(question[max(0, m.start - 30) : m.start])
    ]
    plain = [m for m in found if not STATISTIC_ONLY.fullmatch(question[m.start : m.end])]
    return plain if plain else found


def _alike(column: str, used: set[str], roles: dict[str, str]) -> bool:
    """Whether the answer uses the column or one its name cannot be told from: "1978 earnings" names
    earnings_1974 and earnings_1978 alike, so either answers it."""
    stems = Named.of(column).stems
    return column in used or any(Named.of(other).stems == stems for other in used if other in roles)


def _named_as_scope(question: str, mention: Mention, request: dict[str, Any], roles: dict[str, str]) -> bool:
    """A column named as what the answer runs over, not as a part of it: an identifier ("of a state"),
    a category named but not as a grouping ("staying in hospital") or pooled over ("across these cities")
    by an answer that groups by nothing, a time ("per year", "the month of the year")."""
    before, role = question[: mention.start], roles.get(mention.column)
    pooled_answer = not (request.get("group") or request.get("entity"))
    if role in ("identifier", "text"):
        return not WHICH_BEFORE.search(before)  # "the states", "the most countries": the rows themselves
    if role == "time":  # "per year", "the month of the year", "senators appointed", but "in which year"
        return not WHICH_BEFORE.search(before)
    if role in GROUPING_ROLES and POOLED.search(before):
        return True  # "averaged across all the quarters"
    grouping = GROUP_BEFORE.search(before) or GROUP_BEFORE.search(re.sub(r"\w+\s+$", "", before))
    return role in GROUPING_ROLES and pooled_answer and not grouping


def check_names(question: str, request: dict[str, Any], roles: dict[str, str], skip: set[str], lead: str) -> Checked:
    """(a) Each column the question names is used in the answer's parts or filters, and the lead
    speaks of no measure the question does not name when it names one."""
    named = named_columns(question, roles)
    used, checked = used_columns(request), Checked()
    missing = [
        m
        for m in named
        if not _alike(m.column, used | skip, roles) and not _named_as_scope(question, m, request, roles)
    ]
    for mention in missing:
        checked.add(
            "unused_column",
            f"The question names {mention.column} but the answer does not use it",
            f"“{question[mention.start : mention.end]}” names the column {mention.column}; the answer computed "
            f"{reading(request)}.",
            0.7,
        )
    unasked = _lead_columns_unasked(question, lead, request, {m.column for m in named})
    for column in unasked:
        checked.add(
            "unasked_column",
            f"The answer speaks of {column}, which the question does not name",
            f"The question names {_listed(sorted({m.column for m in named}))}; the answer's lead is about "
            f"{column}: it computed {reading(request)}.",
            0.7,
        )
    if not checked.findings:
        kept = [m.column for m in named if m.column in used]
        checked.passed.append(
            f"the answer uses {_listed(kept)} as the question names {'it' if len(kept) == 1 else 'them'}"
            if kept
            else "the question names no column the answer should use"
        )
    return checked


def _lead_columns_unasked(question: str, lead: str, request: dict[str, Any], named: set[str]) -> list[str]:
    """The columns the lead's first sentence speaks of that the question does not name even in part,
    when it names one of the answer's measures: "terminal wait min is the variable most associated
    with vehicle cost" for a question about vehicle time and vehicle cost."""
    measures = as_list(request.get("measures"))
    if not named & set(measures):
        return []
    said = {m.column for m in mentions(question, list(used_columns(request))) if m.exact} | _filter_columns(request)
    first = re.split(r"\.(?=\s|$)|\n", lead.replace("**", "").replace("`", "").strip(), maxsplit=1)[0]
    parts = measures + as_list(request.get("outcome"))
    return [m.column for m in mentions(first, parts) if m.score == 1 and m.column not in said | named]


def _groupings_unasked(question: str, request: dict[str, Any]) -> list[tuple[str, str]]:
    """The grouping the answer chose when the question asks for none: no "which", no grouping word, no
    comparison, and the column not named even in part ("the median salary at the top 25 schools")."""
    if (
        asks_which(question)
        or COMPARE.search(question)
        or DIFFER.search(question)
        or re.search(r"\b(?:by|per|each|where|whose)\b", question, re.I)
    ):
        return []
    chosen = [(request[part], part) for part in ("group", "entity") if request.get(part) and not request.get("cycle")]
    said = {m.column for m in mentions(question, [c for c, _ in chosen])} | _filter_columns(request)
    return [(column, "grouping" if part == "group" else part) for column, part in chosen if column not in said]


def _filter_columns(request: dict[str, Any]) -> set[str]:
    return set().union(*(columns_in(c) for c in request.get("filters") or []))


def check_groups(question: str, request: dict[str, Any], roles: dict[str, str]) -> tuple[Checked, set[str]]:
    """(c) The groups the question asks for are the answer's: no second grouping left out, no grouping
    the question does not ask for, no "which county" measured as a number; with the groupings left out,
    for the names check not to say it again."""
    checked, used, named = Checked(), used_columns(request), named_columns(question, roles)
    groupings = [
        m.column
        for m in named
        if roles.get(m.column) in GROUPING_ROLES and not _named_as_scope(question, m, request, roles)
    ]
    left = [g for g in groupings if g not in used] if request.get("group") in groupings else []
    if left:
        checked.add(
            "part_unanswered",
            f"Part of the question not answered: by {_listed(left)}",
            f"The question groups by {_listed(groupings)}; the answer compares by {request['group']} only.",
            0.7,
        )
    for column, part in _groupings_unasked(question, request):
        checked.add(
            "unasked_column",
            f"The answer compares {column} groups, which the question does not ask for",
            f"The question asks no “which”, names no groups and compares nothing, but the answer takes {column} "
            f"as its {part}: it computed {reading(request)}.",
            0.6,
        )
    measured = set(as_list(request.get("measures"))) | set(as_list(request.get("outcome")))
    for mention in named:
        asked = WHICH_BEFORE.search(question[: mention.start]) and mention.column in measured
        if asked and mention.column not in {request.get("group"), request.get("entity")}:
            checked.add(
                "part_unanswered",
                f"{mention.column} is asked as the groups but analysed as a measure",
                f"“{question[max(0, mention.start - 12) : mention.end].strip()}” asks which {mention.column}; the "
                f"answer computed {reading(request)}.",
                0.8,
            )
    if not checked.findings:
        checked.passed.append(
            f"the answer groups as the question does (by {_listed(groupings)})"
            if groupings
            else "the answer takes no groups the question does not ask for"
        )
    return checked, set(left)


def check_roles(request: dict[str, Any], roles: dict[str, str]) -> Checked:
    """(b) No identifier or constant is a measure, an outcome or a weight."""
    checked = Checked()
    parts = [("measure", c) for c in as_list(request.get("measures"))]
    parts += [(part, request[part]) for part in ("outcome", "weight") if request.get(part)]
    for part, column in parts:
        role = roles.get(column)
        if role in NOT_MEASURES:
            why = (
                "its values name rows or subjects, so their mean, spread or correlation means nothing"
                if role == "identifier"
                else "it holds the same value in every row, so it cannot vary with anything"
            )
            checked.add(
                "identifier_analysed",
                f"{column} is an {role}, analysed as the {part}",
                f"The answer takes {column} as its {part}, but {column} is an {role}: {why}.",
                0.9,
            )
    if not checked.findings:
        kept = sorted(c for c, role in roles.items() if role in NOT_MEASURES)
        checked.passed.append(
            f"no identifier or constant analysed ({_listed(kept)} left out)" if kept else "no identifier analysed"
        )
    return checked


def check_parts(question: str, request: dict[str, Any], roles: dict[str, str], lead: str) -> Checked:
    """(c) The answer was given at all, and the years and the rows the question keeps are in it."""
    checked = Checked()
    if request.get("missing"):
        checked.add(
            "not_answered",
            "The question is not answered",
            f"The answer could not tell which {_listed(request['missing'])} the question means, so it gives no "
            "figure: a clarification or a rephrased question is needed.",
            0.9,
        )
    if parts_of.NO_FIGURE.search(lead) and not request.get("missing"):
        checked.add(
            "not_answered",
            "The answer gives no figure",
            "Its lead has no value to report (no rows, or n/a): the rows it kept or the column it took are not "
            f"what the question asks. It computed {reading(request)}.",
            0.8,
        )
    change = parts_of.change_asked(question, list(roles))
    if change and request.get("kind") in ("statistic", "compare"):
        checked.add(
            "part_unanswered",
            "A change asked, one figure answered",
            f"“{change}” asks how something changed over time; the answer computed {reading(request)}, which "
            "follows nothing over time.",
            0.6,
        )
    stated = parts_of.years(question)
    times = {c for c, role in roles.items() if role == "time"}
    for year in parts_of.years_unanswered(question, request, times, lead):
        checked.add(
            "part_unanswered",
            f"Part of the question not answered: {year}",
            f"The question says {year}; the answer neither keeps nor names that year: it computed {reading(request)}.",
            0.7,
        )
    for kept in parts_of.set_against(question, request):
        checked.add(
            "part_unanswered",
            f"A comparison read as a filter: only the rows where {kept}",
            f"The question sets {kept.rsplit(' is ', 1)[-1]} against another group; the answer keeps only the rows "
            f"where {kept}: it computed {reading(request)}.",
            0.7,
        )
    phrases = parts_of.kept_phrases(question)
    for cue, rest in phrases:
        if not parts_of.answered(cue, rest, request, list(roles)):
            checked.add(
                "part_unanswered",
                f"Part of the question not answered: “{cue} {rest}”",
                f"The question keeps only some rows (“{cue} {rest}”); the answer computed {reading(request)}.",
                0.6,
            )
    if not checked.findings:
        said = [f"the year {year}" for year in sorted(stated)] + [f"the rows “{c} {r}”" for c, r in phrases]
        checked.passed.append(
            f"every part of the question is in the answer ({'; '.join(said)})"
            if said
            else "the question states no year or filter that the answer leaves out"
        )
    return checked


def check_criteria(criteria: list[str], text: str) -> Checked:
    """(d) Each success criterion's content words appear in the report."""
    checked = Checked()
    said = {w.stem for w in words_of(text)}
    for criterion in criteria:
        words = {w.stem for w in words_of(criterion) if w.text not in STOP and len(w.text) > 3}
        covered = len(words & said) / len(words) if words else 1
        if covered < CRITERION_COVERED:
            checked.add(
                "criterion_unaddressed",
                f"Success criterion not evidently met: {criterion}",
                f"Only {round(covered * 100)}% of its key words appear in the report.",
                0.5,
            )
    if not checked.findings:
        checked.passed.append(
            f"the report speaks to each of the {len(criteria)} success criteria"
            if criteria
            else "the proposal states no success criteria"
        )
    return checked


def check_answer(
    provenance: dict[str, Any], lead_confidence: float | None, criteria: list[str] | None, text: str, lead: str
) -> Checked:
    """Every check of an analyst's answer against its question; ``provenance`` is the analyst's (its
    question, the request it was read as and the roles of the table's columns), ``text`` the report
    the ``criteria`` are read in (None: another answer's check reads them) and ``lead`` the answer's own
    words, without the question quoted back."""
    request = provenance.get("findings") or {}
    question = provenance.get("question") or ""
    roles = (provenance.get("roles") or {}).get(request.get("table", ""), {})
    groups, spoken_of = check_groups(question, request, roles)
    checks = [check_names(question, request, roles, spoken_of, lead), check_roles(request, roles), groups]
    checks.append(check_parts(question, request, roles, lead))
    checks += [check_criteria(criteria, text)] if criteria is not None else []
    result = Checked([f for c in checks for f in c.findings], [p for c in checks for p in c.passed])
    if result.findings and lead_confidence is not None and lead_confidence > CONFIDENT:
        failed = len(result.findings)
        result.add(
            "overconfident",
            f"The answer's confidence, {lead_confidence:g}, is too high",
            f"It rates its answer {lead_confidence:g} while {failed} check{'s' if failed > 1 else ''} above "
            f"failed: an answer that may not answer the question asked should be rated {CONFIDENT} or below, "
            "or ask which reading is meant.",
            0.8,
        )
    return result
