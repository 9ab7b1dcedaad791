"""The demo session that ``./run`` opens on: real work by the built-in agents on a public dataset.

Fisher's iris measurements ship with scikit-learn (a dependency already), so the demo needs no
download. Everything goes through the services a person's browser uses: the proposal with its file,
the planner's plan approved, the analyst's report, the writer's report, the review let through its
approval gate, and one correction the analyst acts on. Nothing in it is a hand-written message.
"""

from __future__ import annotations

import csv
import io

from django.contrib.auth.models import User

from agents.models import Agent, Task, TaskState
from agents.operations.uploads import stage
from agents.scheduling.acts import task_approve
from agents.scheduling.plans import plan_decide
from agents.staffing import session_start
from agents.worker import Worker
from sessions.access import caller_for_user
from sessions.log import message_post_at_head
from sessions.models import Message, WorkSession

DEMO_TITLE = "Demo: iris flower measurements"
DEMO_GOAL = (
    "Analyse the attached iris CSV: which species has the highest mean petal length, "
    "and how do the species differ in sepal width?"
)
CORRECTION = "Use the sample standard deviation (n - 1), not the population one."


def iris_csv() -> bytes:
    """The iris data set as bundled by scikit-learn, one row per flower, the species by name."""
    from sklearn.datasets import load_iris

    iris = load_iris()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([name.removesuffix(" (cm)").replace(" ", "_") for name in iris.feature_names] + ["species"])
    for values, target in zip(iris.data, iris.target, strict=True):
        writer.writerow([*(float(v) for v in values), iris.target_names[target]])
    return out.getvalue().encode()


def _work(agents: list[Agent]) -> None:
    worker = Worker("demo", agent_ids=[agent.pk for agent in agents])
    while worker.run_once():
        pass


def _last(session: WorkSession, payload_type: str, sender: str | None = None) -> Message | None:
    rows = Message.objects.filter(session=session, payload_type=payload_type)
    return (rows.filter(sender_id=sender) if sender else rows).order_by("-seq").first()


def demo_seed(*, owner: User, agents: list[Agent]) -> WorkSession:
    """A new demo session with a whole round of work in it. Preconditions: ``agents`` are the
    built-in agents (planner, analyst, writer, reviewer…) and ``owner`` may decide for the session."""
    caller = caller_for_user(owner)
    session = session_start(
        owner=owner,
        title=DEMO_TITLE,
        proposal={
            "goal": DEMO_GOAL,
            "constraints": {"audience": "the botany team", "format": "markdown"},
            "success_criteria": ["names the species with the highest mean petal length", "compares sepal width"],
        },
        agents=agents,
        files=[("iris.csv", stage([iris_csv()]))],
    )
    _work(agents)
    plan = _last(session, "agent_capability_declaration")
    if plan is None:
        return session
    plan_decide(session_id=session.pk, caller=caller, message_id=plan.message_id, approve=True)
    _work(agents)
    for task in Task.objects.filter(session=session, state=TaskState.WAITING_APPROVAL):
        task_approve(session_id=session.pk, task_id=task.pk, caller=caller)
    _work(agents)
    report = _last(session, "collaborative_response", sender="analyst")
    if report is not None:
        message_post_at_head(
            session_id=session.pk,
            caller=caller,
            payload_type="human_feedback",
            payload={
                "target_message_id": report.message_id,
                "feedback_type": "correction",
                "specific_instructions": {"request": CORRECTION},
            },
            in_reply_to=report.message_id,
        )
        _work(agents)
    return WorkSession.objects.get(pk=session.pk)
