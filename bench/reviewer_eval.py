"""The reviewer on the analyst's answers to the evaluation questions, end to end through the worker.

    python bench/reviewer_eval.py [--set questions|holdout|holdout2|holdout3 ...]

Each question of a set (bench/eval/<set>/) is answered by the analyst, as in bench/agents_eval.py, and
the reviewer then reviews that report. A review that says the answer may not answer the question is a
catch when the analyst's lead is wrong and a false alarm when it is right; a review that finds no
problem in a wrong answer is a miss. Also printed: how many wrong answers led with a confidence above
0.6 and how many of those the reviewer called too confident.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import agents_eval as questions_eval
from bench.context_graph import setup_django, teardown_django


def review_of(session, report_id: str) -> dict:
    from agents.models import Agent, Task

    Task.objects.create(
        session=session,
        title="Review the answer",
        agent=Agent.objects.get(name="reviewer"),
        source_message_id=report_id,
    )
    questions_eval._work()
    return questions_eval._answers(session, "collaborative_response")[-1]["payload"]


def evaluate(name: str) -> dict:
    from agents.models import Agent, Task
    from agents.operations.files import workspace_root

    directory = questions_eval.QUESTION_SETS[name]
    tally = {"right": 0, "wrong": 0, "caught": 0, "false_alarms": 0, "confident_wrong": 0, "called_overconfident": 0}
    alarms, misses = [], []
    for question in json.loads((directory / "questions.json").read_text()):
        session = questions_eval._session("reviewer eval")
        dataset = question["dataset"]
        shutil.copy(directory / "datasets" / f"{dataset}.csv", workspace_root(session.pk) / f"{dataset}.csv")
        asked = questions_eval._human_says(session, "task_proposal", {"goal": question["question"]})
        analyst = Agent.objects.get(name="analyst")
        Task.objects.create(session=session, title="Answer", agent=analyst, source_message_id=asked)
        questions_eval._work()
        reports = [
            e for e in questions_eval._answers(session, "collaborative_response") if e["sender"]["id"] == "analyst"
        ]
        if not reports:
            continue
        lead = questions_eval._findings_lead(session)
        right = questions_eval.lead_is_right(question, lead)
        review = review_of(session, reports[-1]["message_id"])
        kinds = [s["title"] for s in review["content"]["sections"] if s["id"] != "checked"]
        flagged = review["provenance"]["verdict"].startswith("The answer may not answer")
        findings = next(s for s in reports[-1]["payload"]["content"]["sections"] if s["id"] == "findings")
        tally["right" if right else "wrong"] += 1
        tally["caught"] += flagged and not right
        tally["false_alarms"] += flagged and right
        if not right and findings["confidence"] > 0.6:
            tally["confident_wrong"] += 1
            tally["called_overconfident"] += any(t.startswith("The answer's confidence") for t in kinds)
        if flagged and right:
            alarms.append(f"{question['id']}: {kinds}")
        if not flagged and not right:
            misses.append(f"{question['id']}: {question['question']}\n    lead: {lead[:160]}")
    return tally | {"alarms": alarms, "misses": misses}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", nargs="+", choices=questions_eval.QUESTION_SETS, default=["holdout3"])
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
