"""``./run``'s bootstrap: the demo user, the built-in agents, and a demo session of real work."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from sessions.graphs import graph_cache
from sessions.models import Message, WorkSession
from sessions.selectors import final_report
from workspace.selectors import decision_map

pytestmark = pytest.mark.django_db(databases=["default", "datasets"], transaction=True)


def test_bootstrap_creates_a_demo_user_and_a_session_of_real_work_once(capsys, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    call_command("bootstrap_demo")
    first = capsys.readouterr().out
    call_command("bootstrap_demo")
    second = capsys.readouterr().out
    user = get_user_model().objects.get(username="demo")
    password = first.split("password ")[1].strip().strip("'")
    assert user.check_password(password)
    assert second in first and "holds" not in second  # the second run only says how to sign in
    assert WorkSession.objects.count() == 1
    session = WorkSession.objects.get()
    joined = sorted(p.agent.name for p in session.participants.all())
    assert {"analyst", "planner", "reviewer"} <= set(joined)

    log = list(Message.objects.filter(session=session).order_by("seq"))
    kinds = [(m.payload_type, m.sender_type, m.sender_id) for m in log]
    assert kinds[1][0] == "task_proposal" and kinds[1][1] == "human"  # after the upload of iris.csv
    assert ("agent_capability_declaration", "agent", "planner") in kinds
    feedback = [m.envelope["payload"] for m in log if m.payload_type == "human_feedback"]
    assert [f["feedback_type"] for f in feedback] == ["approval", "correction"]
    reports = [m for m in log if m.payload_type == "collaborative_response"]
    authors = [m.sender_id for m in reports]
    assert authors.count("analyst") == 2 and "reviewer" in authors and len(set(authors)) >= 3
    revised = [m for m in reports if m.sender_id == "analyst"][-1].envelope
    correction = [m for m in log if m.payload_type == "human_feedback"][-1]
    assert revised["in_reply_to"] == correction.message_id  # the analyst redid the work it was asked to
    assert "sample" in revised["payload"]["content"]["body"].lower()
    # Figures from the real data: setosa's petals are the shortest, virginica's the longest.
    first_report = reports[0].envelope["payload"]["content"]["body"]
    assert "virginica" in first_report and "5.55" in first_report  # virginica's mean petal length
    # What the README promises the demo shows: the import as read, the stated reading, the answer first.
    sections = {s["id"]: s["body"] for s in reports[0].envelope["payload"]["content"]["sections"]}
    assert "150 rows in the file, all of them loaded" in sections["data-as-read"]
    assert "I read this as: the mean petal length, sepal width compared across species." in sections["findings"]
    written = next(m for m in reports if m.sender_id == "scribe").envelope["payload"]["content"]["sections"]
    assert written[0]["title"] == "Answer" and "virginica has the highest mean petal length" in written[0]["body"]

    # The correction carried forward: the report was written again from the redone analysis and reviewed.
    assert authors.count("scribe") == 2 and authors.count("reviewer") == 2
    delivered = final_report(session=WorkSession.objects.get(pk=session.pk))
    assert delivered.envelope["message_id"] == [m for m in reports if m.sender_id == "scribe"][-1].message_id
    assert delivered.title == "the written report by scribe" and delivered.standing.endswith("reviewed by reviewer")

    drawn = decision_map(session=WorkSession.objects.get(pk=session.pk))
    # with the rewrite and the review (its “What was checked” a node of its own)
    assert len(drawn["nodes"]) <= 46 < len(graph_cache.entry(session).graph.graph)
    assert any(n["badge"] for n in drawn["nodes"]) and any(n["heat"] for n in drawn["nodes"])
