"""Sessions grown long for the tests of what a long session costs: rounds of a redo and its
correction, or a run of an agent's notes, each posted through the write path."""

from sessions.access import SYSTEM, caller_for_user
from tests.factories import agent_in, post_message
from tests.sessions import envelopes

REQUEST = {"type": "query", "id": "a", "body": {}, "caller": {"type": "agent", "id": "analyst"}}
OPERATION = {"operation": "dataset.query", "request": REQUEST, "outcome": "result", "duration_ms": 1.0}


def rounds(session, owner, count: int) -> None:
    """``count`` more rounds of the analyst's redo (its operation records, then the report replying to
    the previous round's correction) and the owner's correction of it: every report but the last is
    replaced, and each correction and redo is a milestone the workbench marks."""
    human, analyst = caller_for_user(owner), agent_in(session)
    done = session.messages.filter(payload_type="collaborative_response").count()
    for n in range(done, done + count):
        for _ in range(2):
            post_message(session, SYSTEM, envelopes.envelope, "operation_record", OPERATION)
        reply = {"in_reply_to": f"c{n - 1}"} if n else {}
        post_message(session, analyst, envelopes.response, message_id=f"r{n}", **reply)
        post_message(session, human, envelopes.feedback, f"r{n}", message_id=f"c{n}")


def notes(session, count: int) -> None:
    """``count`` summaries from the analyst, numbered in order."""
    analyst = agent_in(session)
    for n in range(count):
        post_message(session, analyst, envelopes.envelope, "summary", {"text": f"finding number {n:03d}"})
