"""A finished session's retrospective in plain Python: what it used, how its process went over
time, and the whole report as Markdown. The Django side (sessions/retrospectives.py) adds the
members' criterion checks and ratings."""

from __future__ import annotations

from typing import Any

CHART_POINTS = 60  # a line chart needs no more points than this to show its shape
SERIES = (
    ("responses", "agent responses"),
    ("questions", "agent questions"),
    ("corrections", "human corrections"),
    ("approvals", "approvals"),
)


def resources_used(messages: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """SAP operations run (one operation_record each) and LLM tokens spent (each task's last count)."""
    operations = 0
    tokens: dict[tuple[str, str], int] = {}
    for _, envelope in messages:
        kind, payload = envelope["payload_type"], envelope["payload"]
        if kind == "operation_record":
            operations += 1
        elif kind == "agent_status":
            used = (payload.get("resources_used") or {}).get("llm_tokens")
            if isinstance(used, int):
                key = (envelope["sender"]["id"], str(payload.get("task_id", "")))
                tokens[key] = max(tokens.get(key, 0), used)
    return {"sap_operations": operations, "llm_tokens": sum(tokens.values())}


def metrics_over_time(messages: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Running totals of responses, agent questions, corrections and approvals, message by message,
    thinned to at most CHART_POINTS points (the last one always kept)."""
    totals = dict.fromkeys((key for key, _ in SERIES), 0)
    points = []
    for seq, envelope in messages:
        kind, payload = envelope["payload_type"], envelope["payload"]
        if kind == "collaborative_response":
            totals["responses"] += 1
            totals["questions"] += len(payload.get("open_questions_for_human") or [])
        elif kind == "clarification" and envelope["sender"]["type"] == "agent":
            totals["questions"] += 1
        elif kind == "human_feedback" and envelope["sender"]["type"] == "human":
            totals["corrections"] += payload["feedback_type"] == "correction"
            totals["approvals"] += payload["feedback_type"] == "approval"
        points.append({"seq": seq, **totals})
    step = max(1, -(-len(points) // CHART_POINTS))
    thinned = points[::step]
    if points and thinned[-1] is not points[-1]:
        thinned.append(points[-1])
    return thinned


def line_chart(points: list[dict[str, Any]], *, width: int = 400, height: int = 170, pad: int = 28) -> dict[str, Any]:
    """SVG polylines of each series against the message number, on a shared scale."""
    if not points:
        return {"width": width, "height": height, "lines": [], "max": 0, "last_seq": 0}
    last_seq = points[-1]["seq"] or 1
    top = max(max(p[key] for key, _ in SERIES) for p in points) or 1

    def x(seq: int) -> float:
        return round(pad + (width - 2 * pad) * seq / last_seq, 1)

    def y(value: float) -> float:
        return round(height - pad - (height - 2 * pad) * value / top, 1)

    lines = [
        {"key": key, "label": label, "points": " ".join(f"{x(p['seq'])},{y(p[key])}" for p in points)}
        for key, label in SERIES
    ]
    return {"width": width, "height": height, "lines": lines, "max": top, "last_seq": points[-1]["seq"]}


def bar_chart(sections: list[dict[str, Any]], *, width: int = 140, row: int = 22) -> dict[str, Any]:
    """Horizontal bars of the final sections' confidence (0 to 1 across ``width``)."""
    rows = [
        {**section, "y": index * row, "width": round(width * section["confidence"], 1)}
        for index, section in enumerate(sections)
    ]
    return {"rows": rows, "height": max(len(rows), 1) * row, "scale": width}


def markdown(report: dict[str, Any]) -> str:
    """The retrospective as a Markdown document."""
    session, metrics = report["session"], report["metrics"]
    lines = [f"# Retrospective: {session['title']}", "", f"Session {session['id']}, {session['state']}."]
    lines += ["", "## Goal", "", report["goal"] or "(no task proposal)"]
    lines += ["", "## Success criteria", ""]
    for item in report["criteria"]:
        if item["met"] is None:
            verdict = "not checked yet"
        else:
            verdict = f"{'met' if item['met'] else 'not met'}, checked by {item['by'] or 'a former member'}"
        note = f" — {item['note']}" if item["note"] else ""
        lines.append(f"- [{'x' if item['met'] else ' '}] {item['criterion']} ({verdict}){note}")
    if not report["criteria"]:
        lines.append("(none were stated)")
    deliverable = report["deliverable"]
    lines += ["", "## Delivered", ""]
    if deliverable:
        lines.append(
            f"{deliverable['title'][0].upper()}{deliverable['title'][1:]}, {deliverable['status']}, "
            f"overall confidence {deliverable['confidence']}."
        )
        lines += [f"- {s['title']}: confidence {s['confidence']}" for s in deliverable["sections"]]
    else:
        lines.append("No report was delivered.")
    lines += ["", "## Process", "", "| metric | value |", "| --- | --- |"]
    lines += [f"| {label} | {_value(metrics.get(key))} |" for key, label in METRIC_LABELS]
    rounds = metrics.get("rounds_to_consensus") or {}
    if rounds:
        lines += ["", "Rounds to consensus by plan step:", ""]
        lines += [f"- {step}: {NOT_APPROVED if value is None else value}" for step, value in rounds.items()]
    lines += ["", "## Ratings", ""]
    for rating in report["ratings"]:
        comment = f": {rating['comment']}" if rating["comment"] else ""
        lines.append(f"- {rating['member']}: {rating['rating']}/5{comment}")
    if not report["ratings"]:
        lines.append("No member has rated the session yet.")
    elif report["average_rating"] is not None:
        lines += ["", f"Average: {report['average_rating']}/5 from {len(report['ratings'])} members."]
    return "\n".join(lines) + "\n"


METRIC_LABELS = (
    ("messages", "messages"),
    ("human_corrections", "human corrections"),
    ("new_directions", "new directions"),
    ("agent_questions_per_response", "agent questions per response"),
    ("time_to_first_draft_s", "time to first draft (s)"),
    ("approval_wait_s", "wait for a plan or report's approval, mean (s)"),
    ("risky_step_wait_s", "wait for a risky step's approval, mean (s)"),
    ("sap_operations", "SAP operations"),
    ("llm_tokens", "LLM tokens"),
)


NOT_APPROVED = "no report of this step was approved"  # a step without consensus, once the session is done


def _value(value: object) -> str:
    return "n/a" if value is None else str(value)
