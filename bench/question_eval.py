"""The analyst's questions with known answers, asked end to end through the worker, and how far its
confidence can be trusted.

Each question is asked in a fresh session with its CSV attached. What the analyst does is one of:

- **right**: the first sentence of its findings names the answer and prints the figure;
- **wrong**: it answered, and the lead is not that;
- **asked**: it posted a ``clarification``; each of its options is then chosen in a fresh session, and
  the question counts as *asked well* when one option leads to the right answer;
- **refused**: it said it could not answer (a findings section at confidence 0.2 or less).

Calibration is over the answers (right and wrong): the AUROC of the findings' confidence (the chance a
right answer is surer than a wrong one; 0.5 is a coin) and the highest confidence of a wrong answer.
A set may also hold ``ambiguous.json``: questions with several readings, each with its answer; there
the analyst should ask, and an option should lead to one of the readings.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = (
    "compare", "rank_differences", "association", "trend", "share", "growth", "statistic", "filter",
    "significance", "top", "which_row", "missing", "outliers", "distribution", "crosstab", "two_factor", "rate",
    "adjusted", "forecast",
)  # fmt: skip
# answers that a negation turns around: "not statistically significant" is no "statistically significant"
NEGATED = {
    "significant": r"(?<!not )statistically significant",
    "not significant": r"not statistically significant",
    "associated": r"(?<!not )(?<!no )associated",
    "independent": r"\bindependent\b|not associated",
}
TREND_WORDS = {
    "rose": ("rose", "risen", "rising", "increased", "increasing", "grew", "grown", "growing", "went up", "gone up"),
    "fell": (
        "fell", "fallen", "falling", "decreased", "decreasing", "declined", "declining", "dropped", "dropping",
        "went down", "gone down",
    ),
}  # fmt: skip
CODE_BLOCK = re.compile(r"```python\n(.+?)```", re.S)
# a number as a person prints it: an optional minus (or U+2212), thousands commas, decimals, then a
# percent sign or a word that scales it ("3.64 million")
PRINTED_NUMBER = re.compile(
    r"(?<![\w.])[-\u2212]?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:%|\s+(thousand|million|billion)\b)?", re.I
)
SCALES = {"thousand": 3, "million": 6, "billion": 9}
ABBREVIATION = re.compile(r"(?:^|[\s,(])[A-Z][a-z]{0,2}$")  # "Dem", "Rep", "St", "Mr" before a full stop
REFUSED_AT = 0.2  # a findings section this sure or less says it could not answer
TRUSTED_ABOVE = 0.6  # no wrong answer may be surer than this


def session_with_agents(title: str) -> Any:
    from agents.behaviours.registry import builtin_agents_ensure
    from sessions.membership import agent_join
    from tests.factories import make_session, make_user

    session = make_session(owner=make_user(), title=title)
    for agent in builtin_agents_ensure():
        agent_join(session=session, agent=agent)
    return session


def work() -> None:
    from agents.worker import Worker

    while Worker("eval", lease_s=60).run_once():
        pass


def human_says(session: Any, payload_type: str, payload: dict[str, Any]) -> str:
    """Post as the session's owner; the worker (``work``) reacts to it and schedules the work."""
    from sessions.access import caller_for_user
    from sessions.log import message_post_at_head

    owner = caller_for_user(session.created_by)
    return message_post_at_head(
        session_id=session.pk, caller=owner, payload_type=payload_type, payload=payload
    ).message_id


def answers(session: Any, payload_type: str) -> list[dict[str, Any]]:
    from sessions.models import Message

    return [m.envelope for m in Message.objects.filter(session=session, payload_type=payload_type).order_by("seq")]


def normalised(text: str) -> str:
    """Lowercased, underscores and hyphens as spaces, whitespace collapsed: how answers are compared."""
    return " ".join(re.sub(r"[_-]", " ", text.lower()).split())


def lead_sentence(body: str) -> str:
    """The first sentence of a section: up to the first full stop that ends a sentence (one followed by
    whitespace or the end, so never a decimal point, and not one of a short capitalised abbreviation:
    "Congo, Dem. Rep.") or the first line break; markdown bold and code marks removed."""
    text = body.replace("**", "").replace("`", "").strip()
    for end in re.finditer(r"\.(?=\s|$)|\n", text):
        if not ABBREVIATION.search(text[: end.start()]):
            return text[: end.start()].strip()
    return text


def printed_numbers(text: str) -> list[tuple[float, int]]:
    """Each number printed in the text, as its absolute value and its count of decimals (negative
    for the places a scale word moves: "3.6 million" is 3,600,000 to the nearest 100,000)."""
    found = []
    for match in PRINTED_NUMBER.finditer(text):
        digits, decimals = match[1].replace(",", ""), match[2] or ""
        shift = SCALES[match[3].lower()] if match[3] else 0
        value = float(f"{digits}.{decimals}" if decimals else digits) * 10**shift
        found.append((value, len(decimals) - shift))
    return found


def figure_matches(value: float, decimals: int, figure: float) -> bool:
    """The printed value is the figure: within 1%, or within half a unit of its last printed decimal
    (rounded as printed) while still within 2%. Absolute values: the sign is the answer's business."""
    target, gap = abs(figure), abs(value - abs(figure))
    relative = gap / target if target else (0.0 if gap == 0 else float("inf"))
    return relative <= 0.01 or (gap <= 0.5 * 10**-decimals * (1 + 1e-9) and relative <= 0.02)


def answer_matches(expected: dict[str, Any], lead: str) -> bool:
    """The lead names the answer (and every name in ``also``: the rest of a top five, a combination's
    other half), said the way its kind says it."""
    said = normalised(lead)
    answer = normalised(str(expected["answer"]))
    also = all(_names(said, normalised(str(name))) for name in expected.get("also") or [])
    if expected["kind"] == "trend":
        return any(re.search(rf"\b{word}\b", said) for word in TREND_WORDS[answer])
    if expected["kind"] in ("association", "adjusted") and answer in ("positive", "negative"):
        return answer in said  # "positively", "negative correlation"
    if answer in NEGATED and expected["kind"] in ("significance", "crosstab"):
        return re.search(NEGATED[answer], said) is not None
    return _names(said, answer) and also


def _names(said: str, name: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", said) is not None


def lead_is_right(expected: dict[str, Any], lead: str) -> bool:
    """The lead names the answer and prints its figure."""
    return answer_matches(expected, lead) and any(
        figure_matches(value, decimals, expected["figure"]) for value, decimals in printed_numbers(lead)
    )


@dataclass
class Turn:
    """What the analyst did last with a question: a report's findings, or a clarification."""

    lead: str
    confidence: float | None = None
    clarification: dict[str, Any] | None = None  # the message, when it asked
    reading: str = ""  # how it said it read the question, and its doubts
    code: str = ""  # the code under the answer that reproduces its figures
    workspace: str = ""  # the session's files, where that code runs


def _analyst_turn(session: Any) -> Turn:
    from agents.models import Task
    from sessions.models import Message

    last = Message.objects.filter(
        session=session, sender_id="analyst", payload_type__in=("collaborative_response", "clarification")
    ).last()
    if last is None:
        task = Task.objects.filter(session=session, agent__name="analyst").last()
        return Turn(f"(no report: task {task.state if task else 'missing'} {task.last_error[:200] if task else ''})")
    if last.payload_type == "clarification":
        return Turn(last.envelope["payload"]["question"], clarification=last.envelope)
    sections = last.envelope["payload"]["content"].get("sections") or []
    findings = next((s for s in sections if s.get("id") == "findings"), None)
    if findings is None:
        return Turn("(no findings section)")
    said = [line for line in findings["body"].splitlines() if line.startswith(("I read this as", "Not sure"))]
    code = CODE_BLOCK.search(findings["body"])
    return Turn(
        lead_sentence(findings["body"]),
        float(findings.get("confidence") or 0),
        reading=" ".join(said),
        code=code.group(1) if code else "",
    )


def ask(directory: Path, question: dict[str, Any], option_id: str | None = None) -> Turn:
    """Ask ``question`` in a fresh session; with ``option_id``, answer the analyst's clarification with it."""
    from agents.models import Agent, Task
    from agents.operations.files import workspace_root

    session = session_with_agents("analyst questions eval")
    dataset = question["dataset"]
    shutil.copy(directory / "datasets" / f"{dataset}.csv", workspace_root(session.pk) / f"{dataset}.csv")
    message_id = human_says(session, "task_proposal", {"goal": question["question"]})
    Task.objects.create(
        session=session,
        title=f"Answer: {question['question']}"[:2000],
        agent=Agent.objects.get(name="analyst"),
        source_message_id=message_id,
    )
    try:
        work()
        turn = _analyst_turn(session)
        turn.workspace = str(workspace_root(session.pk))
        if option_id is not None and turn.clarification is not None:
            human_says(
                session,
                "clarification_answer",
                {"clarification_message_id": turn.clarification["message_id"], "option_id": option_id},
            )
            work()
            turn = _analyst_turn(session)
            turn.workspace = str(workspace_root(session.pk))
    except Exception as exc:  # an analyst in the middle of a rewrite: a miss, not the end of the run
        turn = Turn(f"(the run failed: {type(exc).__name__}: {exc})"[:300])
    return turn


def _offers_a_reading(directory: Path, question: dict[str, Any], turn: Turn, readings: list[dict[str, Any]]) -> bool:
    """Whether one of the clarification's options leads to a right answer."""
    assert turn.clarification is not None
    for option in turn.clarification["payload"].get("options") or []:
        chosen = ask(directory, question, option["id"])
        if chosen.clarification is None and any(lead_is_right(r, chosen.lead) for r in readings):
            return True
    return False


def verdict_of(turn: Turn, expected: dict[str, Any]) -> str:
    if turn.clarification is not None:
        return "asked"
    if turn.confidence is None or turn.confidence <= REFUSED_AT:
        return "refused"
    return "right" if lead_is_right(expected, turn.lead) else "wrong"


def reproduces(turn: Turn, figure: float) -> bool:
    """Whether the code under the answer, run as it is beside the session's file, prints the figure."""
    if not turn.code:
        return False
    try:
        ran = subprocess.run(
            [sys.executable, "-c", turn.code], cwd=turn.workspace, capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        return False
    printed = printed_numbers(ran.stdout)
    return ran.returncode == 0 and any(figure_matches(value, decimals, figure) for value, decimals in printed)


def auroc(right: list[float], wrong: list[float]) -> float | None:
    """The chance that a right answer's confidence is above a wrong one's (ties count half)."""
    if not right or not wrong:
        return None
    above = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return above / (len(right) * len(wrong))


def evaluate_questions(directory: Path) -> dict[str, Any]:
    questions = json.loads((directory / "questions.json").read_text())
    verdicts: Counter[str] = Counter()
    right: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    confidences: dict[str, list[float]] = {"right": [], "wrong": []}
    misses = []
    reproduced: list[str] = []
    unreproduced: list[str] = []
    for question in questions:
        turn = ask(directory, question)
        verdict = verdict_of(turn, question)
        if verdict == "asked" and _offers_a_reading(directory, question, turn, [question]):
            verdict = "asked_well"
        verdicts[verdict] += 1
        if verdict == "right":
            (reproduced if reproduces(turn, question["figure"]) else unreproduced).append(question["id"])
        asked[question["kind"]] += 1
        right[question["kind"]] += verdict == "right"
        if verdict in confidences and turn.confidence is not None:
            confidences[verdict].append(turn.confidence)
        if verdict != "right" or os.environ.get("EVAL_SHOW_RIGHT"):
            figure = f"{question['figure']}{'%' if question['figure_is_percent'] else ''}"
            misses.append(
                {
                    "id": question["id"],
                    "verdict": verdict,
                    "confidence": turn.confidence,
                    "question": question["question"],
                    "expected": f"{question['answer']}, {figure}",
                    "lead": turn.lead,
                    "reading": turn.reading,
                }
            )
    total = sum(asked.values())
    return {
        "questions_answered_share": round(right.total() / total, 4),
        "questions": total,
        "answered": right.total(),
        "verdicts": dict(verdicts),
        "auroc": auroc(confidences["right"], confidences["wrong"]),
        "max_wrong_confidence": max(confidences["wrong"], default=None),
        "wrong_above_trusted": sum(c > TRUSTED_ABOVE for c in confidences["wrong"]),
        "right_at_most_trusted": sum(c <= TRUSTED_ABOVE for c in confidences["right"]),
        "by_kind": {kind: [right[kind], asked[kind]] for kind in KINDS if asked[kind]},
        "misses": misses,
        "code_reproduces": [len(reproduced), len(reproduced) + len(unreproduced)],
        "code_fails": unreproduced,
        "ambiguous": evaluate_ambiguous(directory),
    }


def evaluate_ambiguous(directory: Path) -> dict[str, Any] | None:
    """The set's questions with several readings: asked with a right reading among the options, or not."""
    path = directory / "ambiguous.json"
    if not path.exists():
        return None
    verdicts: Counter[str] = Counter()
    for question in json.loads(path.read_text()):
        turn = ask(directory, question)
        readings = question["readings"]
        if turn.clarification is not None:
            verdicts["asked_well" if _offers_a_reading(directory, question, turn, readings) else "asked"] += 1
        elif turn.confidence is not None and turn.confidence <= REFUSED_AT:
            verdicts["refused"] += 1
        else:
            verdicts["answered_one_reading" if any(lead_is_right(r, turn.lead) for r in readings) else "wrong"] += 1
    return dict(verdicts)


def report_questions(result: dict[str, Any]) -> bool:
    """Print the set's figures and misses; True when every question was answered right."""
    share = result["questions_answered_share"]
    kinds = ", ".join(f"{kind} {got}/{of}" for kind, (got, of) in result["by_kind"].items())
    ok = share == 1
    print(
        f"questions: {result['answered']}/{result['questions']} answered in the lead ({share:.0%}) — {kinds} "
        f"(target 100%) {'OK' if ok else 'MISSED'}"
    )
    verdicts = ", ".join(f"{name} {count}" for name, count in sorted(result["verdicts"].items()))
    area = "n/a" if result["auroc"] is None else f"{result['auroc']:.2f}"
    highest = "n/a" if result["max_wrong_confidence"] is None else f"{result['max_wrong_confidence']:.2f}"
    print(
        f"calibration: {verdicts}; AUROC of confidence {area}; highest confidence of a wrong answer {highest} "
        f"({result['wrong_above_trusted']} wrong above {TRUSTED_ABOVE}, target 0; "
        f"{result['right_at_most_trusted']} right at {TRUSTED_ABOVE} or below)"
    )
    done, of = result["code_reproduces"]
    fails = f": not {', '.join(result['code_fails'])}" if result["code_fails"] else ""
    print(f"code: the code under {done} of {of} right answers, run as it is, prints the answer's figure{fails}")
    if result["ambiguous"] is not None:
        print("ambiguous questions: " + ", ".join(f"{k} {v}" for k, v in sorted(result["ambiguous"].items())))
    for miss in result["misses"]:
        print(
            f"  {miss['id']} [{miss['verdict']} {miss['confidence']}]: {miss['question']}\n"
            f"    expected {miss['expected']}\n    lead: {miss['lead']}\n    {miss['reading']}"
        )
    return ok
