"""The reviewer on the analyst's answers to the evaluation questions, end to end through the worker.

    python bench/reviewer_eval.py [--set questions|holdout|holdout2..5 ...]

Each question of a set (bench/eval/<set>/) is answered by the analyst, as in bench/agents_eval.py, and
the reviewer then reviews that report. A review that says the answer may not answer the question is a
catch when the analyst's lead is wrong (or it refused) and a false alarm when it is right; a review
that finds no problem in a wrong answer is a miss. A question the analyst answered with a
clarification is not reviewed. Also printed: how many wrong answers led with a confidence above 0.6
and how many of those the reviewer called too confident.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import question_eval as asked
from bench.agents_eval import QUESTION_SETS
from bench.context_graph import setup_django, teardown_django


def review_of(session, report_id: str) -> dict:
    from agents.models import Agent, Task

    reviewer = Agent.objects.get(name="reviewer")
    Task.objects.create(session=session, title="Review the answer", agent=reviewer, source_message_id=report_id)
    asked.work()
    return asked.answers(session, "collaborative_response")[-1]["payload"]


def _answered(directory: Path, question: dict):
    """The session in which the analyst answered the question, and its report (None when it asked)."""
    from agents.models import Agent, Task
    from agents.operations.files import workspace_root

    session = asked.session_with_agents("reviewer eval")
    dataset = question["dataset"]
    shutil.copy(directory / "datasets" / f"{dataset}.csv", workspace_root(session.pk) / f"{dataset}.csv")
    goal = asked.human_says(session, "task_proposal", {"goal": question["question"]})
    Task.objects.create(
        session=session, title="Answer", agent=Agent.objects.get(name="analyst"), source_message_id=goal
    )
    asked.work()
    last = [e for e in asked.answers(session, "collaborative_response") if e["sender"]["id"] == "analyst"]
    clarified = [e for e in asked.answers(session, "clarification") if e["sender"]["id"] == "analyst"]
    if not last or (clarified and clarified[-1]["timestamp"] > last[-1]["timestamp"]):
        return session, None
    return session, last[-1]


def evaluate(name: str) -> dict:
    directory = QUESTION_SETS[name]
    tally = {"right": 0, "wrong": 0, "caught": 0, "false_alarms": 0, "confident_wrong": 0, "called_overconfident": 0}
    alarms, misses = [], []
    for question in json.loads((directory / "questions.json").read_text()):
        session, report = _answered(directory, question)
        if report is None:
            continue
        findings = next((s for s in report["payload"]["content"]["sections"] if s["id"] == "findings"), None)
        if findings is None:
            continue
        lead = asked.lead_sentence(findings["body"])
        right = asked.lead_is_right(question, lead)
        review = review_of(session, report["message_id"])
        titles = [s["title"] for s in review["content"]["sections"] if s["id"] != "checked"]
        flagged = review["provenance"]["verdict"].startswith("The answer may not answer")
        tally["right" if right else "wrong"] += 1
        tally["caught"] += flagged and not right
        tally["false_alarms"] += flagged and right
        if not right and findings["confidence"] > asked.TRUSTED_ABOVE:
            tally["confident_wrong"] += 1
            tally["called_overconfident"] += any(t.startswith("The answer's confidence") for t in titles)
        if flagged and right:
            alarms.append(f"{question['id']}: {titles}")
        if not flagged and not right:
            misses.append(f"{question['id']}: {question['question']}\n    lead: {lead[:160]}")
    return tally | {"alarms": alarms, "misses": misses}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", nargs="+", choices=QUESTION_SETS, default=["holdout3"])
    args = parser.parse_args()
    os.environ["WORKBENCH_DATA_DIR"] = tempfile.mkdtemp(prefix="chap-eval-")
    setup_django()
    try:
        for name in args.set:
            t = evaluate(name)
            print(
                f"{name}: wrong answers caught {t['caught']}/{t['wrong']}, false alarms on right answers "
                f"{t['false_alarms']}/{t['right']}, wrong answers above 0.6 called too confident "
                f"{t['called_overconfident']}/{t['confident_wrong']}"
            )
            for line in t["alarms"]:
                print(f"  false alarm {line}")
            for line in t["misses"]:
                print(f"  missed {line}")
        return 0
    finally:
        from django.db import connections

        connections["datasets"].close()
        teardown_django()


if __name__ == "__main__":
    sys.exit(main())
