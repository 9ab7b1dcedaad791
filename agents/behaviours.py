"""Built-in agent behaviours: honest work without an LLM (see agents/runtime.py for the contract)."""

from __future__ import annotations

from datetime import datetime

from agents import analyst, planning, reviewer
from agents.runtime import TaskFailure, TaskRun
from agents.sap import SapError, format_block

SCRIBE_CAN_DO = [
    {
        "action": "write a brief of where the session stands for a task",
        "scope": "the goal, constraints, checkpoint, this task's thread and related messages, from the log only",
        "limitation": "repeats and ranks what was said; it does not judge whether it is true",
    }
]
SCRIBE_CANNOT_DO = ["research outside the session", "analyse data", "decide anything"]


def scribe(run: TaskRun) -> str:
    """A brief for the task from the session's own context, saved to the workspace for the next step."""
    context = run.context()
    brief = f"# Brief: {run.task.title}\n\n{run.task.instructions}\n\n{context['text']}".strip() + "\n"
    correction = _feedback_text(run.message(run.task.source_message_id))
    if correction:
        brief += f"\n## What changed\n\nWritten again after the correction: {correction}\n"
    path = f"briefs/task-{run.task.pk}.md"
    request = {"path": path, "content": brief, "overwrite": False}
    [written] = run.sap(format_block("action", "file.write", request, "brief"))
    saved = written.type == "result" or written.body.get("code") == "RESOURCE_ALREADY_EXISTS"
    uncertainties = []
    if not saved:
        uncertainties.append(
            {
                "aspect": "the brief is not in the workspace",
                "reason": f"file.write answered {written.body.get('code')}: {written.body.get('message')}",
                "suggestion": "allow file.write for this agent, or copy the brief from this message",
            }
        )
    cited = context["messages"]
    payload = {
        "task_step_id": f"task-{run.task.pk}",
        "content": {"format": "markdown", "body": brief},
        "supporting_materials": [
            {"type": "session_message", "citation": message_id, "confidence_in_source": "high"} for message_id in cited
        ]
        + (
            [{"type": "workspace_file", "citation": path, "relevance": "the brief, for the next step"}] if saved else []
        ),
        "assumptions_made": ["everything the task needs was said in this session"],
        # A brief only repeats the log; what lowers confidence is what it had to leave out.
        "confidence_score": 0.9 if context["tokens"] < context["budget"] else 0.6,
        "uncertainties": uncertainties
        + (
            [{"aspect": "older messages were left out", "reason": "the context budget was reached"}]
            if context["tokens"] >= context["budget"]
            else []
        ),
        "open_questions_for_human": [] if cited else ["The session has no messages yet: what is the task about?"],
        "provenance": {"behaviour": "scribe", "context_messages": len(cited)},
    }
    return run.post("brief", "collaborative_response", payload)


PLANNER_CAN_DO = [
    {
        "action": "match a task proposal to a task template and propose its plan",
        "scope": "the shipped and admin-made templates; constraints stated in the proposal and answers",
        "limitation": "plans from templates only: a task unlike every template gets questions, not a plan",
    }
]
PLANNER_CANNOT_DO = ["do the steps it plans", "decide for the humans which interpretation is right"]


def _template_dicts() -> dict[str, dict]:
    from agents.models import TaskTemplate

    fields = ("slug", "name", "description", "match_text", "steps", "evaluation_criteria", "deliverable_sections")
    return {t["slug"]: t for t in TaskTemplate.objects.filter(enabled=True).values(*fields)}


def _proposal_behind(run: TaskRun, envelope: dict | None) -> dict | None:
    """The task proposal a message answers, through answers, clarifications, plans and feedback."""
    for _ in range(10):
        if envelope is None or envelope["payload_type"] == "task_proposal":
            return envelope
        payload = envelope["payload"]
        earlier = (
            payload.get("clarification_message_id") or payload.get("target_message_id") or envelope.get("in_reply_to")
        )
        envelope = run.message(earlier)
    return None


def _feedback_text(envelope: dict | None) -> str:
    if envelope is None or envelope["payload_type"] != "human_feedback":
        return ""
    payload = envelope["payload"]
    said = [str(v) for v in (payload.get("specific_instructions") or {}).values()]
    return " ".join([*said, payload.get("provided_context", "")]).strip()


def planner(run: TaskRun) -> str:
    """A plan from the closest template, or a question when choosing one would be a guess."""
    source = run.message(run.task.source_message_id)
    answer = source["payload"] if source and source["payload_type"] == "clarification_answer" else None
    proposal = _proposal_behind(run, source)
    if proposal is None:
        raise TaskFailure(SapError("RESOURCE_NOT_FOUND", "this task names no task proposal to plan", details={}))
    goal = proposal["payload"]["goal"]
    answered = (answer or {}).get("free_answer", "") or _feedback_text(source)
    templates = _template_dicts()
    ranked = planning.rank_templates(
        f"{planning.proposal_text(proposal['payload'])} {answered}", list(templates.values())
    )
    chosen = (answer or {}).get("option_id") if (answer or {}).get("option_id") in templates else None
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
    if _feedback_text(source):
        constraints["other"] = [*constraints.get("other", []), f"planned again after the correction: {answered}"]
    declaration = {
        "can_do": run.agent.can_do or PLANNER_CAN_DO,
        "cannot_do": run.agent.cannot_do or PLANNER_CANNOT_DO,
        "estimated_resources": planning.estimated_resources(templates[slug]),
        "proposed_plan": planning.plan_for(templates[slug]),
        "template": slug,
        "template_similarity": next(m.score for m in ranked if m.slug == slug),
        "constraints": constraints,
    }
    return run.post(
        "declaration", "agent_capability_declaration", declaration, in_reply_to=(source or proposal)["message_id"]
    )


BEHAVIOURS = {"scribe": scribe, "planner": planner, "analyst": analyst.analyst, "reviewer": reviewer.reviewer}
# The built-in agents a new workbench starts with: what each is, and what it declares about itself.
BUILTIN_AGENTS = {
    "planner": {
        "behaviour": "planner",
        "roles": ["planning"],
        "description": "Turns a task proposal into a plan from the closest task template, or asks when unsure.",
        "can_do": PLANNER_CAN_DO,
        "cannot_do": PLANNER_CANNOT_DO,
        "allowed_operations": [],
    },
    "analyst": {
        "behaviour": "analyst",
        "roles": ["analysis"],
        "description": "Profiles, describes and compares the session's data through SAP, with its confidence.",
        "can_do": analyst.CAN_DO,
        "cannot_do": analyst.CANNOT_DO,
        "allowed_operations": ["dataset.*", "file.list", "file.read"],
    },
    "reviewer": {
        "behaviour": "reviewer",
        "roles": ["review"],
        "description": "Checks a deliverable against its template's sections and the task's success criteria.",
        "can_do": reviewer.CAN_DO,
        "cannot_do": reviewer.CANNOT_DO,
        "allowed_operations": [],
    },
    "scribe": {
        "behaviour": "scribe",
        "roles": ["writing", "summary"],
        "description": "Writes a brief of where the session stands for a task, from the session's own log.",
        "can_do": SCRIBE_CAN_DO,
        "cannot_do": SCRIBE_CANNOT_DO,
        "allowed_operations": ["file.write", "file.read", "file.list"],
    },
}


def builtin_agents_ensure():
    """Create the built-in agents that are missing; an admin's later edits are kept."""
    from agents.models import Agent, AgentKind

    return [
        Agent.objects.get_or_create(name=name, defaults={"kind": AgentKind.BUILTIN, **fields})[0]
        for name, fields in BUILTIN_AGENTS.items()
    ]
