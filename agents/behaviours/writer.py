"""The built-in writer (the scribe): a brief of where the session stands, saved for the next step."""

from __future__ import annotations

from agents.behaviours.reading import feedback_text
from agents.runtime import TaskRun
from agents.sap import format_block

CAN_DO = [
    {
        "action": "write a brief of where the session stands for a task",
        "scope": "the goal, constraints, checkpoint, this task's thread and related messages, from the log only",
        "limitation": "repeats and ranks what was said; it does not judge whether it is true",
    }
]
CANNOT_DO = ["research outside the session", "analyse data", "decide anything"]


def scribe(run: TaskRun) -> str:
    """A brief for the task from the session's own context, saved to the workspace for the next step."""
    context = run.context()
    brief = f"# Brief: {run.task.title}\n\n{run.task.instructions}\n\n{context['text']}".strip() + "\n"
    correction = feedback_text(run.message(run.task.source_message_id))
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
