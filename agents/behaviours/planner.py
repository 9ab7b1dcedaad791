"""The built-in planner: a plan from the closest task template, or a question when choosing one would be a guess."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from agents.behaviours import planning
from agents.behaviours.reading import feedback_text, proposal_behind
from agents.runtime import TaskFailure, TaskRun
from protocol.errors import ProtocolError

CAN_DO = [
    {
        "action": "match a task proposal to a task template and propose its plan",
        "scope": "the shipped and admin-made templates; constraints stated in the proposal and answers",
        "limitation": "plans from templates only: a task unlike every template gets questions, not a plan",
    }
]
CANNOT_DO = ["do the steps it plans", "decide for the humans which interpretation is right"]


def _template_dicts() -> dict[str, dict[str, Any]]:
    from agents.models import TaskTemplate

    fields = ("slug", "name", "description", "match_text", "steps", "evaluation_criteria", "deliverable_sections")
    return {t["slug"]: t for t in TaskTemplate.objects.filter(enabled=True).values(*fields)}


def planner(run: TaskRun) -> str:
    """A plan from the closest template, or a question when choosing one would be a guess."""
    source = run.message(run.task.source_message_id)
    answer = source["payload"] if source and source["payload_type"] == "clarification_answer" else None
    proposal = proposal_behind(run, source)
    if proposal is None:
        raise TaskFailure(ProtocolError("RESOURCE_NOT_FOUND", "this task names no task proposal to plan", details={}))
    goal = proposal["payload"]["goal"]
    answered = (answer or {}).get("free_answer", "") or feedback_text(source)
    templates = _template_dicts()
    redirected = source is not None and source["payload"].get("feedback_type") == "new_direction"
    asked = answered if redirected else f"{planning.proposal_text(proposal['payload'])} {answered}"
    ranked = planning.rank_templates(asked, list(templates.values()))
    chosen = (answer or {}).get("option_id") if (answer or {}).get("option_id") in templates else None
    chosen = chosen or (None if redirected else planning.stated_template(proposal["payload"], templates))
    why = None if chosen else planning.vague_because(f"{goal} {answered}", ranked)
    if why and source is proposal:  # ask once, before any plan; answers and corrections get a plan
        question = {
            "question": f"Before I plan: {why}. Which of these do you mean? (Or say it in your own words.)",
            "options": planning.interpretations(ranked, templates),
            "allow_free_answer": True,
        }
        return run.post("clarification", "clarification", question, in_reply_to=proposal["message_id"])
    slug = chosen or ranked[0].slug
    said = " ".join([goal, *(proposal["payload"].get("background_context") or []), answered])
    now = datetime.fromisoformat((source or proposal)["timestamp"])
    constraints = {**(proposal["payload"].get("constraints") or {}), **planning.constraints_from(said, now=now)}
    if feedback_text(source):
        after = "new direction" if redirected else "correction"
        constraints["other"] = [*constraints.get("other", []), f"planned again after the {after}: {answered}"]
    declaration = {
        "can_do": run.agent.can_do or CAN_DO,
        "cannot_do": run.agent.cannot_do or CANNOT_DO,
        "estimated_resources": planning.estimated_resources(templates[slug]),
        "proposed_plan": planning.plan_for(templates[slug]),
        "template": slug,
        "template_similarity": next(m.score for m in ranked if m.slug == slug),
        "constraints": constraints,
    }
    return run.post(
        "declaration", "agent_capability_declaration", declaration, in_reply_to=(source or proposal)["message_id"]
    )
