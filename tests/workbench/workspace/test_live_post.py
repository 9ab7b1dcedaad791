"""The straight live path of a person's correction: the browser's POST writes the feedback and answers
in a handful of queries, before any agent works; the worker then sets the redo off."""

import pytest
from django.test import TestCase
from django.urls import reverse

from agents.models import AgentKind, Task, TaskState
from agents.worker import Worker
from sessions.models import Message, WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
# issue #29; it was 35 with the reaction inside the request, and 12 before the panel named the current
# answer it is about by default (one query)
FEEDBACK_POST_QUERIES = 13


@pytest.fixture
def report(client):
    """A session whose built-in scribe delivered a report, and its owner signed in."""
    owner = make_user("olga")
    session = make_session(owner=owner, title="Battery market")
    scribe = agent_in(session, "scribe", kind=AgentKind.BUILTIN)
    ack = post_message(session, scribe, envelopes.response, step=None, questions=())
    client.force_login(owner)
    return {"session": session, "ack": ack, "client": client}


def correct(report):
    form = {
        "target_message_id": report["ack"].message_id,
        "feedback_type": "correction",
        "instruction": "The market share figure is from 2019; use the 2024 one",
        "context_checksum": report["ack"].context_checksum,
    }
    url = reverse("workspace:feedback", args=[report["session"].pk])
    with TestCase.captureOnCommitCallbacks(execute=True):  # as after a real commit
        return report["client"].post(url, form, HTTP_HX_REQUEST="true")


def test_the_feedback_post_answers_in_a_few_queries_at_the_new_head(report, django_assert_max_num_queries):
    with django_assert_max_num_queries(FEEDBACK_POST_QUERIES):
        response = correct(report)
    html = response.content.decode()
    head = WorkSession.objects.get(pk=report["session"].pk).head_checksum
    assert "Your correction is in the thread as #2." in html
    assert f'name="context_checksum" value="{head}"' in html  # the next feedback writes against it


def test_no_agent_works_before_the_post_returns_and_the_worker_sets_the_redo_off(report):
    correct(report)
    session = report["session"]
    assert not Task.objects.filter(session=session).exists()
    assert not Message.objects.filter(session=session, sender_type="agent").exclude(message_id=report["ack"].message_id)
    assert Worker("w", lease_s=30).run_once()
    redo = Task.objects.get(session=session)
    assert redo.agent.name == "scribe" and redo.title == "Revise after the correction"
    assert redo.state != TaskState.QUEUED  # the same run of the worker took it up


def test_the_worker_reacts_to_each_message_once(report):
    correct(report)
    assert Worker("w", lease_s=30).run_once()
    Worker("w", lease_s=30).run_once()
    assert Task.objects.filter(session=report["session"], title="Revise after the correction").count() == 1
