"""Planning, in plain Python: which template a task proposal is, whether it is clear enough to plan
without guessing, and what constraints a human's words carry. Templates come in as dicts.

Similarity is TF-IDF cosine (scikit-learn) between the proposal and each template's text; dates
are read by dateparser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dateparser.search import search_dates
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

CLEAR_SCORE = 0.15  # below this the best template is a guess
CLEAR_MARGIN = 0.04  # a best template this close to the second is a guess too
MIN_CONTENT_WORDS = 3
MINUTES_PER_STEP = 15


@dataclass(frozen=True)
class Match:
    slug: str
    name: str
    score: float


def template_text(template: dict[str, Any]) -> str:
    parts = [template["name"], template["description"], template.get("match_text", "")]
    parts += [step["action"] for step in template.get("steps", [])]
    parts += [section["title"] for section in template.get("deliverable_sections", [])]
    return " ".join(parts)


def proposal_text(payload: dict[str, Any]) -> str:
    """What a proposal says about the kind of task: goal, background, roles, criteria."""
    parts = [payload.get("goal", "")]
    for key in ("background_context", "expected_agent_roles", "success_criteria"):
        parts += payload.get(key) or []
    return " ".join(parts)


def rank_templates(text: str, templates: list[dict[str, Any]]) -> list[Match]:
    if not templates:
        return []
    # Character n-grams within words: "analyse", "analysis" and "analyze" share most of theirs.
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True)
    known = vectorizer.fit_transform([template_text(t).lower() for t in templates])
    scores = cosine_similarity(vectorizer.transform([" ".join(content_words(text))]), known)[0]
    ranked = sorted(zip(templates, scores, strict=True), key=lambda pair: -pair[1])
    return [Match(t["slug"], t["name"], round(float(score), 3)) for t, score in ranked]


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z0-9-]+", text.lower()) if w not in ENGLISH_STOP_WORDS and len(w) > 2]


DATA_FILE = re.compile(r"\.(?:csv|tsv)\b", re.I)
# An analytical question: asked outright, or named by what analysing data does ("whether … differs").
QUESTION = re.compile(
    r"\?\s*$|^\s*(?:which|what|how|is|are|does|do|did|has|have|compare|rank|show)\b"
    r"|\b(?:whether|which|differ\w*|compar\w*|rank\w*|correlat\w*|relationship|trends?|averages?|mean|median"
    r"|distributions?|predict\w*|estimat\w*|summari[sz]e\w*|analy[sz]\w*)\b",
    re.I,
)
DATA_TEMPLATE = "data-analysis"


def stated_template(payload: dict[str, Any], templates: dict[str, dict[str, Any]]) -> str | None:
    """The template a proposal names (the new-session form's "Kind of task"), or, for a question asked
    of an attached data file, the data analysis: either way planning has nothing to guess."""
    if payload.get("template") in templates:
        return str(payload["template"])
    attached = any(
        DATA_FILE.search(text) for text in [payload.get("goal", ""), *(payload.get("background_context") or [])]
    )
    if attached and QUESTION.search(payload.get("goal", "")) and DATA_TEMPLATE in templates:
        return DATA_TEMPLATE
    return None


def vague_because(goal: str, ranked: list[Match]) -> str | None:
    """Why planning now would be guessing, or None when the proposal is clear enough."""
    if len(content_words(goal)) < MIN_CONTENT_WORDS:
        return "the goal says too little about what is wanted"
    if not ranked or ranked[0].score < CLEAR_SCORE:
        return "it matches none of the task templates well"
    if len(ranked) > 1 and ranked[0].score - ranked[1].score < CLEAR_MARGIN:
        return f"it could be a {ranked[0].name.lower()} or a {ranked[1].name.lower()}"
    return None


def interpretations(ranked: list[Match], templates: dict[str, dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    """Clarification options: the closest templates, each saying what it would deliver."""
    options = []
    for match in ranked[:count]:
        sections = ", ".join(s["title"] for s in templates[match.slug]["deliverable_sections"])
        options.append({"id": match.slug, "label": f"A {match.name.lower()}: {sections}"})
    return options


AUDIENCE = re.compile(r"\bfor\s+((?:[a-z-]+\s+)*?[a-z-]+)\s+(readers|audiences?|people|teams?|users)\b", re.I)
STATED_AUDIENCE = re.compile(r"\baudience(?:\s+is|:)\s*([^.;\n]+)", re.I)
LENGTH = re.compile(r"\b(\d+)\s*(pages?|words?|slides?)\b", re.I)
FORMATS = {"markdown": "markdown", "pdf": "pdf", "slides": "slides", "word": "docx", "docx": "docx", "html": "html"}


def constraints_from(text: str, *, now: datetime) -> dict[str, Any]:
    """Constraints a human's words state: a deadline ("tomorrow"), an audience, a length, a format."""
    found: dict[str, Any] = {}
    dates = search_dates(text, languages=["en"], settings={"RELATIVE_BASE": now, "PREFER_DATES_FROM": "future"})
    future = [when for _, when in dates or [] if when.date() >= now.date()]
    if future:
        found["deadline"] = future[0].date().isoformat()
    audience = AUDIENCE.search(text) or STATED_AUDIENCE.search(text)
    if audience:
        found["audience"] = (
            " ".join(audience.groups()).strip() if audience.re is AUDIENCE else audience.group(1).strip()
        )
    length = LENGTH.search(text)
    if length:
        found["length"] = f"{length.group(1)} {length.group(2).lower()}"
    for word in content_words(text):
        if word in FORMATS:
            found["format"] = FORMATS[word]
            break
    return found


def plan_for(template: dict[str, Any]) -> list[dict[str, Any]]:
    """The template's steps as a CHAP proposed_plan; approval checkpoints stay where the template has them."""
    return [
        {
            "step": step["step"],
            "action": step["action"],
            "output": step.get("output", ""),
            "requires_approval": bool(step.get("requires_approval")),
            "required_capability": step["capability"],
        }
        for step in template["steps"]
    ]


def estimated_resources(template: dict[str, Any]) -> dict[str, Any]:
    minutes = MINUTES_PER_STEP * len(template["steps"])
    return {"time_to_first_draft": f"PT{minutes}M", "llm_tokens": 0}
