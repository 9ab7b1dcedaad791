"""Built-in agent behaviours: honest work without an LLM (see agents/runtime.py for the contract)."""

from __future__ import annotations

from agents.runtime import TaskRun
from agents.sap import format_block

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
        "provenance": {"agent": run.agent.name, "behaviour": "scribe", "context_messages": len(cited)},
    }
    return run.post("brief", "collaborative_response", payload)


BEHAVIOURS = {"scribe": scribe}
# The built-in agents a new workbench starts with: what each is, and what it declares about itself.
BUILTIN_AGENTS = {
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
