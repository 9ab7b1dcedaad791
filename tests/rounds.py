"""A session of two rounds whose answer moved: shared by the history's view and browser tests."""

from sessions.access import caller_for_user
from sessions.log import checkpoint_create
from tests.factories import agent_in, make_session, post_message
from tests.sessions import envelopes

ASKED = "Which month has the most dengue cases?"
JUNE = "**June** has the highest mean cases: **59.96** (n = 120); the lowest is January at 3.1."
MAY = "**May** has the highest median cases: **60** (n = 120); the lowest is January at 2."
CHECKPOINT = 4  # the seq of the checkpoint "First answer", between the two rounds


def session_with_a_moved_answer(owner):
    """``owner``'s session whose answer moved from June (the mean) to May (the median) after a
    correction, the writer's deliverable written from each analysis; a checkpoint between the rounds."""
    session = make_session(owner=owner, title="Dengue")
    me, analyst, scribe = caller_for_user(owner), agent_in(session, "analyst"), agent_in(session, "scribe")
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, analyst, envelopes.answered, ASKED, JUNE, message_id="a1", in_reply_to="t")
    post_message(
        session, scribe, envelopes.answered, ASKED, JUNE, from_analysis="a1", message_id="w1", in_reply_to="a1"
    )
    checkpoint_create(session_id=session.pk, caller=me, label="First answer")
    post_message(session, me, envelopes.feedback, target="w1", message_id="c1")
    post_message(session, analyst, envelopes.answered, ASKED, MAY, message_id="a2", in_reply_to="c1")
    post_message(session, scribe, envelopes.answered, ASKED, MAY, from_analysis="a2", message_id="w2", in_reply_to="a2")
    session.refresh_from_db()
    return session
