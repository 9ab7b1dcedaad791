"""The writer's prose without a model: each kind of section a template's spec asks for (a summary,
the findings, the method, the limitations...), written from the analysis handed off and from nothing
else, and honest where the analysis has nothing to say."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents.behaviours.answers import lead_of, reading_of, said_lines

# Which part of the analysis a section of the spec is about, from the words of its title and description.
KINDS = [
    ("summary", r"summary|executive|conclusion|overview|answer"),
    ("profiles", r"profile|column type|missing"),
    ("statistics", r"statistic|count|mean|minim|maxim|range"),
    ("findings", r"finding|evidence|comparison|compare|differ|group|synthesis|result"),
    ("method", r"method|approach|quer|how"),
    ("limitations", r"limitation|gap|caveat|risk|cannot|uncertain"),
    ("recommendations", r"recommend|next step|what to do|action"),
    ("sources", r"source|reference|citation"),
    ("background", r"background|scope|question|why|audience|purpose"),
]


def kind_of(section: dict[str, Any]) -> str | None:
    words = f"{section.get('title', '')} {section.get('description', '')}".lower()
    return next(
        (kind for kind, pattern in KINDS if re.search(pattern, section.get("title", "").lower())), None
    ) or next((kind for kind, pattern in KINDS if re.search(pattern, words)), None)


# The kinds whose confidence is the analyst's own for that content; the rest go no higher than its overall.
ANALYSTS_OWN = ("summary", "findings", "profiles", "statistics")
EFFECT = re.compile(r"Cohen's d|eta squared|Pearson r|p [<=] ", re.I)


@dataclass(frozen=True)
class Answer:
    """One question asked in the session and the analyst's Findings that answer it now."""

    asked: str
    findings: dict[str, Any]
    note: str = ""  # what a reader should know of it, e.g. that it predates a later correction


class Handoff:
    """The analysis a writer works from, read from its collaborative_response payload; ``answers``, every
    question the session asked with its current answer (when none, the Findings of this analysis)."""

    def __init__(self, envelope: dict[str, Any] | None, answers: list[Answer] | None = None):
        payload = (envelope or {}).get("payload") or {}
        self.found = envelope is not None
        self.by = (envelope or {}).get("sender", {}).get("id", "")
        self.provenance = payload.get("provenance") or {}
        self.sections = (payload.get("content") or {}).get("sections") or []
        self.sources = [m["citation"] for m in payload.get("supporting_materials") or [] if m.get("citation")]
        self.assumptions = payload.get("assumptions_made") or []
        self.uncertainties = payload.get("uncertainties") or []
        self.questions = payload.get("open_questions_for_human") or []
        self.confidence = payload.get("confidence_score")
        self.findings = next((s for s in self.sections if s["id"] == "findings"), None)
        self.answers = answers or ([Answer("", self.findings)] if self.findings else [])

    def section_confidence(self, suffix: str) -> float | None:
        found = [s["confidence"] for s in self.sections if s["id"].endswith(suffix) and "confidence" in s]
        return min(found) if found else None


def _effect(answer: Answer, lead: str) -> str:
    """The line of the Findings that sizes the effect (a test, Cohen's d, eta squared), unless the lead does."""
    if EFFECT.search(lead):
        return ""
    lines = said_lines(answer.findings)
    effect = next((line[2:] for line in lines if line.startswith("- ") and EFFECT.search(line)), "")
    return effect[:1].upper() + effect[1:]


def _without_details(body: str) -> str:
    return re.sub(r"<details>.*?</details>", "", body, flags=re.S).strip()


class Prose:
    """Templated prose for each kind of section, from the handoff only; honest where it has nothing."""

    def __init__(self, handoff: Handoff, goal: str):
        self.handoff, self.goal = handoff, goal

    def __call__(self, kind: str | None, spec: dict[str, Any]) -> tuple[str, float]:
        """The section's text and confidence: never above the analyst's own for the same content, nor
        above its overall confidence for what the writer draws from the analysis as a whole."""
        if not self.handoff.found:
            return "There is no analysis in this session to write this from yet.", 0.1
        write = getattr(self, f"_{kind}", None) if kind else None
        if write is None:
            about = spec.get("description") or spec.get("title", "this section")
            return f"The analysis does not speak to this ({about}); someone who knows should write it.", 0.1
        body, confidence = write()
        overall = self.handoff.confidence
        if kind not in ANALYSTS_OWN and overall is not None:
            confidence = min(confidence, float(overall))
        return body, confidence

    def _answered(self) -> list[Answer]:
        return [a for a in self.handoff.answers if lead_of(a.findings)]

    def _asked(self, answer: Answer) -> str:
        return " ".join((answer.asked or self.goal).split())

    def _lead(self) -> list[str]:
        """The analyst's latest answer: the sentence of its Findings that answers the question."""
        answered = self._answered()
        return [lead_of(answered[-1].findings)] if answered else []

    def _findings_confidence(self) -> float:
        """The analyst's confidence in the answers: the lowest of the Findings written from."""
        rated = [float(a.findings["confidence"]) for a in self._answered() if a.findings.get("confidence") is not None]
        return min(rated) if rated else float(self.handoff.confidence or 0.5)

    def _summary(self) -> tuple[str, float]:
        """Each question asked, with the lead that answers it (its figure), how it was read and the
        size of the effect, oldest question first."""
        answered = self._answered()
        if not answered:
            return "The analysis answered no question, so there is no single answer to state; see the figures.", 0.4
        paragraphs = []
        for answer in answered:
            asked = f"Asked “{self._asked(answer)}”, the analysis finds: " if self._asked(answer) else ""
            lead = lead_of(answer.findings).replace("**", "")
            note = f"{answer.note[0].upper()}{answer.note[1:]}." if answer.note else ""
            below = [
                line
                for part in (reading_of(answer.findings), _effect(answer, lead), note)
                for line in part.splitlines()
            ]
            paragraphs.append("\n".join([asked + lead, *(f"- {line}" for line in below)]))
        return "\n\n".join(paragraphs), self._findings_confidence()

    def _findings(self) -> tuple[str, float]:
        """The analyst's Findings as it wrote them, with their chart, without its folded method note;
        under each question when the session asked more than one."""
        answered = self._answered()
        if not answered:
            return "The analysis answered no question; its descriptive statistics are below.", 0.4
        if len(answered) == 1:
            return _without_details(answered[0].findings["body"]), self._findings_confidence()
        parts = [f"### {self._asked(a)}\n\n{_without_details(a.findings['body'])}" for a in answered]
        return "\n\n".join(parts), self._findings_confidence()

    def _tables_of(self, suffix: str, missing: str) -> tuple[str, float]:
        parts = [
            f"### {s.get('title', s['id'])}\n\n{_without_details(s['body'])}"
            for s in self.handoff.sections
            if s["id"].endswith(suffix)
        ]
        if not parts:
            return missing, 0.2
        return "\n\n".join(parts), self.handoff.section_confidence(suffix) or 0.5

    def _profiles(self) -> tuple[str, float]:
        return self._tables_of("-profile", "The analysis has no column profiles.")

    def _statistics(self) -> tuple[str, float]:
        return self._tables_of("-statistics", "The analysis has no descriptive statistics.")

    def _method(self) -> tuple[str, float]:
        settings = self.handoff.provenance.get("settings") or {}
        tables = self.handoff.provenance.get("tables") or []
        kind = settings.get("sd", "population")
        divisor = "n - 1" if kind == "sample" else "n"
        lines = [
            f"The {self.handoff.by or 'analyst'} worked on {', '.join(tables) or 'the data'} through "
            "operations anyone in the session can run again (pandas and SciPy behind SAP); the tables round to "
            "two decimals, the findings keep four significant digits.",
            f"Standard deviations are {kind} standard deviations (dividing by {divisor}). An outlier is a value "
            "more than 3 standard deviations from its column's mean.",
        ]
        decided = settings.get("outliers") or {}
        if decided:
            lines.append(
                "Outliers: "
                + "; ".join(
                    f"{target.replace('.', ', column ')} {'left out' if d == 'exclude' else 'kept'}"
                    for target, d in sorted(decided.items())
                )
                + "."
            )
        if self.handoff.assumptions:
            lines += ["", "It assumed:", ""] + [f"- {a}" for a in self.handoff.assumptions]
        if self.handoff.sources:
            lines += ["", "The queries behind the figures:", ""] + [f"- {s}" for s in self.handoff.sources[:30]]
        return "\n".join(lines), 0.9

    def _limitations(self) -> tuple[str, float]:
        lines = ["The analysis is descriptive: it says what the data shows, not why, and forecasts nothing."]
        lines += [
            f"- {u['aspect']}" + (f": {u['reason']}" if u.get("reason") else "") for u in self.handoff.uncertainties
        ]
        lines += [f"- Still open: {q}" for q in self.handoff.questions]
        return "\n".join(lines), 0.8

    def _recommendations(self) -> tuple[str, float]:
        lead = " ".join(line.replace("**", "") for line in self._lead())
        text = (
            "The analysis supports no recommendation of its own: it describes, it does not weigh options. "
            "What a reader may act on is what it found" + (f": {lead}" if lead else ".")
        )
        return text, 0.3

    def _sources(self) -> tuple[str, float]:
        if not self.handoff.sources:
            return "The analysis cites no sources.", 0.2
        return "\n".join(f"- {s}" for s in self.handoff.sources), 0.95

    def _background(self) -> tuple[str, float]:
        tables = self.handoff.provenance.get("tables") or []
        asked = f"The question: “{self.goal.strip()}”. " if self.goal.strip() else ""
        return asked + f"The data: {', '.join(tables) or 'the files attached to the session'}.", 0.8
