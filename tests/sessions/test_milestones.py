"""Automatic checkpoints at a session's milestones: the plan approved, a report delivered, each piece
of a person's feedback and the redo answering it, so that History can compare before and after."""

import pytest
from django.urls import reverse

from sessions.access import caller_for_agent, caller_for_user
from sessions.membership import agent_join
from sessions.selectors import checkpoints
from tests.factories import make_agent, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db


@pytest.fixture
def walk():
    """Proposal, plan approved, the analyst's report on step 1, a correction of it, and the redo."""
    owner = make_user("olga")
    session = make_session(owner=owner, title="Battery market")
    me = caller_for_user(owner)
    planner, analyst = make_agent("planner"), make_agent("analyst")
    for agent in (planner, analyst):
        agent_join(session=session, agent=agent)
    post_message(session, me, envelopes.proposal, message_id="t")
    post_message(session, caller_for_agent(planner), envelopes.declaration, message_id="d", in_reply_to="t")
    post_message(session, me, envelopes.feedback, "d", feedback_type="approval", message_id="ok")
    post_message(session, caller_for_agent(analyst), envelopes.response, step=1, message_id="r1", in_reply_to="d")
    post_message(session, me, envelopes.feedback, "r1", part={"kind": "section", "id": "market"}, message_id="c1")
    post_message(session, caller_for_agent(analyst), envelopes.response, message_id="r2", in_reply_to="c1")
    return {"session": session, "owner": owner}


def test_each_milestone_gets_one_checkpoint_named_in_words(walk):
    marks = checkpoints(session=walk["session"])
    assert [mark["label"] for mark in marks] == [
        "Plan approved by olga",
        "Report delivered by analyst: Intro",
        "Correction by olga of “Market”",
        "Redo by analyst after olga's correction: Intro",
    ]
    # Each stands right after its message, and none marks another: the log ends with the last one.
    assert all(mark["seq"] == mark["at_seq"] + 1 for mark in marks)
    logged = walk["session"].messages.exclude(payload_type="task_event")  # the steps the approval started
    assert logged.count() == 6 + len(marks)
    assert not any("msg_" in mark["label"] or "agent:" in mark["label"] for mark in marks)


def test_what_changed_offers_the_milestones_and_compares_before_and_after_a_correction(walk, client):
    client.force_login(walk["owner"])
    session = walk["session"]
    page = client.get(reverse("workspace:history", args=[session.pk])).content.decode()
    marks = {mark["label"]: mark["seq"] for mark in checkpoints(session=session)}
    assert f'<option value="{marks["Correction by olga of “Market”"]}">Correction by olga of “Market” (#' in page
    url = reverse("workspace:history-diff", args=[session.pk])
    before, after = marks["Report delivered by analyst: Intro"], marks["Correction by olga of “Market”"]
    html = client.get(f"{url}?from={before}&to={after}").content.decode()
    assert "Correction by olga: Use 2022 onwards" in html and "Report section: Market" in html
    redone = marks["Redo by analyst after olga's correction: Intro"]
    redo = client.get(f"{url}?from={after}&to={redone}")
    assert "Report: Intro (by analyst)" in redo.content.decode()
    assert "msg_" not in html and "agent:" not in html


def test_the_thread_leaves_the_milestones_to_history(walk, client):
    client.force_login(walk["owner"])
    page = client.get(reverse("workspace:detail", args=[walk["session"].pk])).content.decode()
    assert "Use 2022 onwards" in page and "Report delivered by analyst" not in page
