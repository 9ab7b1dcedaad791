"""The writer turns the analysis into the deliverable its template names, in prose with per-section
confidence, through a language model when its agent has one, and never with raw context, ids or files."""

import json
import re

import pytest
from django.urls import reverse

from agents.behaviours.reviewer import review
from agents.behaviours.writer import leaks
from agents.models import Agent, TaskTemplate
from sessions.models import Message
from tests.agents.llm_server import ScriptedModel
from tests.agents.teamwork import GOAL, attach_baskets, feedback_on, last, plan_and_run, work_until_idle
from tests.pages import leaked_ids, visible_text

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])
BASE64_OF_A_FILE = re.compile(r"[A-Za-z0-9+/]{60,}={0,2}")


def written(team):
    return last(team["session"], "collaborative_response", sender="scribe")


def test_the_writer_writes_the_templates_sections_in_prose_from_the_analysis(team):
    attach_baskets(team["session"])
    analysis = plan_and_run(team)
    report = written(team)
    payload = report["payload"]
    spec = TaskTemplate.objects.get(slug="data-analysis").deliverable_sections
    sections = payload["content"]["sections"]
    assert [s["title"] for s in sections] == [s["title"] for s in spec]
    assert all(0 < s["confidence"] <= 1 for s in sections)
    by_title = {s["title"]: s["body"] for s in sections}
    # The report opens with the answer, its figure and the size of the effect; the evidence follows.
    assert (
        payload["content"]["body"]
        .split("\n## ")[1]
        .startswith(
            f"Answer\n\nAsked “{GOAL}”, the analysis finds: east has the highest mean basket value: 33.50 (n = 8)"
        )
    )
    assert "Cohen's d" in by_title["Answer"] or "eta squared" in by_title["Answer"]
    assert by_title["Evidence"].startswith("**east** has the highest mean basket value: **33.50** (n = 8)")
    assert "```vega-lite" in by_title["Evidence"]
    assert "- west has the highest mean items: 4 (n = 6)" in by_title["Evidence"]
    assert "population standard deviations (dividing by n)" in by_title["Data and method"]
    assert "baskets.csv (table baskets), a query: " in by_title["Data and method"]
    assert "| basket_value |" in by_title["Descriptive statistics"]
    assert "descriptive" in by_title["Limitations"]
    assert report["in_reply_to"] == analysis["message_id"]
    assert payload["provenance"]["template"] == "data-analysis"
    # The reviewer finds every section the template asks for.
    criteria = TaskTemplate.objects.get(slug="data-analysis").evaluation_criteria
    assert not [f for f in review(payload, spec, criteria) if f["title"].startswith("Missing section")]
    # What the scribe used to dump is nowhere: no context headings, no message ids, no encoded files.
    body = payload["content"]["body"]
    assert "RELATED EARLIER MESSAGES" not in body and analysis["message_id"] not in body and not leaks(body)


def test_no_report_in_the_thread_carries_ids_encoded_files_or_internal_table_names(team, client):
    attach_baskets(team["session"])
    plan_and_run(team)
    client.force_login(team["owner"])
    page = client.get(reverse("workspace:detail", args=[team["session"].pk])).content.decode()
    reports = Message.objects.filter(session=team["session"], payload_type="collaborative_response")
    assert reports.count() >= 2
    for message in reports:
        payload = message.envelope["payload"]
        shown = json.dumps([payload["content"], payload.get("supporting_materials")], ensure_ascii=False)
        assert not leaks(shown), message.sender_id
        assert not re.search(r"\bs_[0-9a-f]{6,}__", shown) and "%s" not in shown
        for other in Message.objects.filter(session=team["session"]).values_list("message_id", flat=True):
            assert other not in shown
    articles = re.findall(r"<article.*?</article>", page, re.S)
    card = re.search(r'<section[^>]*data-testid="answer-card".*?</section>', page, re.S)
    # What a person reads: the answer card on top (the current report's answer), then the thread; ids stay
    # in the folded technical details
    text = visible_text((card.group(0) if card else "") + "".join(articles))
    assert articles and card and "has the highest" in visible_text(card.group(0))
    assert "RELATED EARLIER MESSAGES" not in text, text[text.find("RELATED") - 300 :][:600]
    assert not BASE64_OF_A_FILE.search(text) and not re.search(r"\bs_[0-9a-f]{6,}__|msg_[0-9a-f]{6,}", text)
    assert not leaked_ids(page), leaked_ids(page)


def test_without_an_analysis_the_writer_says_so_honestly(team):
    from agents.models import Task

    Task.objects.create(session=team["session"], title="Write it up", agent=Agent.objects.get(name="scribe"))
    work_until_idle()
    payload = written(team)["payload"]
    assert all("no analysis in this session" in s["body"] for s in payload["content"]["sections"])
    assert payload["open_questions_for_human"] == [
        "There is no analysis to write up yet: which data should be analysed first?"
    ]


def test_with_a_model_the_writer_uses_it_and_keeps_back_a_rewrite_that_invents_a_number(team):
    scribe = Agent.objects.get(name="scribe")
    attach_baskets(team["session"])
    spec = TaskTemplate.objects.get(slug="data-analysis").deliverable_sections
    rewrite = [{"title": s["title"], "body": f"Rewritten for the board: {s['title']}."} for s in spec]
    rewrite[1]["body"] = "The shops differ by 999.5 on average."  # a figure the analysis never computed
    model = ScriptedModel([json.dumps({"sections": rewrite})])
    try:
        scribe.llm_base_url, scribe.llm_model = model.base_url, "scripted-1"
        scribe.save()
        plan_and_run(team, GOAL)
    finally:
        model.close()
    payload = written(team)["payload"]
    bodies = [s["body"] for s in payload["content"]["sections"]]
    assert bodies[0] == "Rewritten for the board: Answer."
    assert "999.5" not in bodies[1] and "**east** has the highest mean basket value" in bodies[1]
    assert any("templated text" in u["aspect"] and "999.5" in u["reason"] for u in payload["uncertainties"])
    assert payload["provenance"]["model"] == "scripted-1"
    sent = model.requests[0]["messages"][1]["content"]
    assert "RELATED EARLIER MESSAGES" not in sent and "east" in sent


def test_a_figure_correction_on_the_written_report_is_redone_by_the_analyst_then_written_and_reviewed_again(
    team, client
):
    from agents.models import Task
    from agents.scheduling.acts import task_approve
    from sessions.access import caller_for_user
    from sessions.graphs import graph_cache
    from sessions.models import WorkSession
    from sessions.selectors import final_report

    attach_baskets(team["session"])
    analysis = plan_and_run(team)
    review_step = Task.objects.get(session=team["session"], plan_step=3)
    task_approve(session_id=team["session"].pk, task_id=review_step.pk, caller=caller_for_user(team["owner"]))
    work_until_idle()
    report = written(team)
    first_review = last(team["session"], "collaborative_response", sender="reviewer")
    assert first_review["payload"]["provenance"]["review_of"] == report["message_id"]

    correction = feedback_on(team, report["message_id"], "Use the sample standard deviation")
    work_until_idle()
    redone = last(team["session"], "collaborative_response", sender="analyst")
    assert redone["message_id"] != analysis["message_id"] and redone["in_reply_to"] == correction
    findings = next(s for s in redone["payload"]["content"]["sections"] if s["id"] == "findings")
    assert "has the highest mean basket value" in findings["body"]  # the SD changed, not the question
    again = written(team)
    assert again["message_id"] != report["message_id"] and again["in_reply_to"] == correction
    [changed] = [s for s in again["payload"]["content"]["sections"] if s["id"] == "what-changed"]
    assert "Written again from the analysis analyst redid after the correction" in changed["body"]
    method = next(s["body"] for s in again["payload"]["content"]["sections"] if s["title"] == "Data and method")
    assert "sample standard deviations (dividing by n - 1)" in method
    second_review = last(team["session"], "collaborative_response", sender="reviewer")
    assert second_review["payload"]["provenance"]["review_of"] == again["message_id"]
    assert "Review of the written report by scribe" in second_review["payload"]["content"]["body"]

    session = WorkSession.objects.get(pk=team["session"].pk)
    nodes = graph_cache.entry(session).graph.graph.nodes
    assert nodes[report["message_id"]]["superseded_by"] == again["message_id"]
    assert nodes[analysis["message_id"]]["superseded_by"] == redone["message_id"]
    assert nodes[first_review["message_id"]]["superseded_by"] == second_review["message_id"]
    assert "superseded_by" not in nodes[again["message_id"]]
    delivered = final_report(session=session)
    assert delivered.envelope["message_id"] == again["message_id"]
    assert delivered.title == "the written report by scribe" and delivered.standing.endswith("reviewed by reviewer")
    # Each step's result is the current one, so nothing is redone twice.
    assert Task.objects.get(session=team["session"], plan_step=2).result_message_id == again["message_id"]
    assert (
        Message.objects.filter(
            session=team["session"], sender_id="scribe", payload_type="collaborative_response"
        ).count()
        == 2
    )
    # The thread marks the one current answer and each version a newer one replaced.
    client.force_login(team["owner"])
    page = client.get(reverse("workspace:detail", args=[team["session"].pk])).content.decode()
    assert page.count('data-testid="current-answer"') == 1 and page.count('data-testid="superseded"') == 3
    current = re.search(r'<article[^>]*class="[^"]*\bcurrent\b[^"]*"[^>]*data-message-id="([^"]+)"', page)
    assert current and current.group(1) == again["message_id"]
