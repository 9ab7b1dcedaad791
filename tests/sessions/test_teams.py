"""Teams: a session shared with Django groups (viewer, commenter, editor), found on the team review
page, under the same checks as members; the permission matrix walked page by page, act by act."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from agents.scheduling.acts import task_create
from protocol.errors import ProtocolError
from sessions.access import caller_for_user, effective_role
from sessions.membership import session_share, session_unshare, session_update
from sessions.models import GroupShare, Message, WorkSession
from tests.factories import agent_in, make_session, make_user, post_message
from tests.sessions import envelopes

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def team_of(name, *users):
    group = Group.objects.create(name=name)
    group.user_set.add(*users)
    return group


@pytest.fixture
def shared():
    owner, editor, commenter, viewer, outsider = (make_user(n) for n in ("olga", "ed", "cora", "vic", "otto"))
    session = make_session(owner=owner, title="Regional sales", members={editor: "editor"})
    post_message(session, caller_for_user(owner), envelopes.proposal, message_id="t")
    post_message(session, agent_in(session, "writer"), envelopes.response, message_id="r1", in_reply_to="t")
    team_of("reviewers", commenter)
    team_of("finance", viewer)
    caller = caller_for_user(owner)
    session_share(session_id=session.pk, caller=caller, group="reviewers", role="commenter")
    session_share(session_id=session.pk, caller=caller, group="finance", role="viewer")
    session_update(session_id=session.pk, caller=caller, state="done")
    users = {"owner": owner, "editor": editor, "commenter": commenter, "viewer": viewer, "outsider": outsider}
    return {"session": WorkSession.objects.get(pk=session.pk), "users": users}


def test_sharing_and_unsharing_are_session_events_and_change_access(shared):
    session, users = shared["session"], shared["users"]
    events = [m.envelope["payload"] for m in Message.objects.filter(session=session, payload_type="session_event")]
    assert [(e["action"], e.get("group"), e.get("role")) for e in events[:2]] == [
        ("shared", "reviewers", "commenter"),
        ("shared", "finance", "viewer"),
    ]
    assert (
        events[0]["label"] == "olga shared the session with reviewers as commenters" and events[0]["by"] == "human:olga"
    )
    assert effective_role(session.pk, users["commenter"]) == "commenter"
    session_unshare(session_id=session.pk, caller=caller_for_user(users["owner"]), group="reviewers")
    assert effective_role(session.pk, users["commenter"]) is None
    last = Message.objects.filter(session=session, payload_type="session_event").last().envelope["payload"]
    assert last["action"] == "unshared" and last["label"] == "olga stopped sharing the session with reviewers"


def test_the_stronger_of_membership_and_share_wins(shared):
    session, users = shared["session"], shared["users"]
    Group.objects.get(name="finance").user_set.add(users["editor"])
    assert effective_role(session.pk, users["editor"]) == "editor"
    session_share(session_id=session.pk, caller=caller_for_user(users["owner"]), group="finance", role="editor")
    assert effective_role(session.pk, users["viewer"]) == "editor"


@pytest.mark.parametrize(
    ("who", "group", "role", "code"),
    [
        ("editor", "finance", "viewer", "PERMISSION_DENIED"),
        ("commenter", "finance", "viewer", "PERMISSION_DENIED"),
        ("outsider", "finance", "viewer", "RESOURCE_NOT_FOUND"),
        ("owner", "finance", "owner", "VALIDATION_FAILED"),
        ("owner", "nobody", "viewer", "RESOURCE_NOT_FOUND"),
    ],
)
def test_only_the_owner_shares_and_only_with_a_team_role(shared, who, group, role, code):
    with pytest.raises(ProtocolError) as refused:
        session_share(
            session_id=shared["session"].pk, caller=caller_for_user(shared["users"][who]), group=group, role=role
        )
    assert refused.value.code == code
    assert GroupShare.objects.filter(session=shared["session"], group__name="finance", role="viewer").exists()


PAGES = (
    "workspace:detail",
    "workspace:history",
    "workspace:retrospective",
    "workspace:deliverable",
    "workspace:schedule",
)
READERS = ("owner", "editor", "commenter", "viewer")


@pytest.mark.parametrize("who", [*READERS, "outsider"])
def test_the_permission_matrix(shared, client, who):
    session, users = shared["session"], shared["users"]
    client.force_login(users[who])
    reads = who in READERS
    for name in PAGES:
        assert client.get(reverse(name, args=[session.pk])).status_code == (200 if reads else 404), name
    assert client.get(f"/api/sessions/{session.pk}/export/").status_code == (200 if reads else 404)
    listed = client.get(reverse("workspace:team")).content.decode()
    assert ("Regional sales" in listed) == reads

    def feedback(kind):
        before = Message.objects.filter(session=session).count()
        form = {"feedback_type": kind, "target_message_id": "r1", "instruction": "Say which regions"}
        form["context_checksum"] = WorkSession.objects.get(pk=session.pk).head_checksum
        response = client.post(reverse("workspace:feedback", args=[session.pk]), form)
        return response.status_code, Message.objects.filter(session=session).count() > before

    writes = who in ("owner", "editor")
    comments = who in ("owner", "editor", "commenter")
    assert feedback("refinement") == ((200, comments) if reads else (404, False))
    assert feedback("correction")[1] == writes

    owner = caller_for_user(users["owner"])
    session_update(session_id=session.pk, caller=owner, state="working")  # nothing waits in a done session
    task = task_create(session_id=session.pk, caller=owner, title="Review", requires_approval=True)
    decided = {"key": f"step:{task.pk}", "decision": "approve"}
    response = client.post(reverse("workspace:gate", args=[session.pk]), decided)
    task.refresh_from_db()
    assert response.status_code == (200 if reads else 404) and (task.state == "queued") == writes
    api = client.post(f"/api/sessions/{session.pk}/waiting/decide/", decided, content_type="application/json")
    assert api.status_code == (409 if writes else 403 if reads else 404)
    api_post = client.post(
        f"/api/sessions/{session.pk}/checkpoints/", {"label": "mine"}, content_type="application/json"
    )
    assert (api_post.status_code == 201) == writes
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode() if reads else ""
    assert ">Approve</button>" not in page  # decided by a writer; shown to the others without buttons
    if reads:
        assert ('id="feedback-panel"' in page or 'data-testid="feedback-panel"' in page) == (who != "viewer")


def test_an_admin_shares_a_session_inline_and_it_is_logged(client):
    admin_user = make_user("root", superuser=True)
    owner = make_user("olga")
    session = make_session(owner=owner, title="Audit")
    group = team_of("auditors", make_user("ann"))
    client.force_login(admin_user)
    url = reverse("admin:chap_sessions_worksession_change", args=[session.pk])
    data = {
        "title": "Audit",
        "state": "proposed",
        "created_by": owner.pk,
        "memberships-0-id": session.memberships.get().pk,
    }
    data.update({"memberships-0-session": session.pk, "memberships-0-user": owner.pk, "memberships-0-role": "owner"})
    counts = {"memberships": 1, "group_shares": 1}
    for prefix in ("memberships", "group_shares", "participants", "tasks", "approvals", "criterion_checks", "ratings"):
        total = counts.get(prefix, 0)
        data.update({f"{prefix}-TOTAL_FORMS": total, f"{prefix}-INITIAL_FORMS": 1 if prefix == "memberships" else 0})
        data.update({f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000})
    data.update(
        {"group_shares-0-group": group.pk, "group_shares-0-role": "commenter", "group_shares-0-session": session.pk}
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    share = GroupShare.objects.get(session=session)
    assert share.role == "commenter" and share.shared_by == admin_user
    event = Message.objects.get(session=session, payload_type="session_event").envelope["payload"]
    assert event["action"] == "shared" and event["group"] == "auditors" and event["by"] == "human:root"
    assert effective_role(session.pk, group.user_set.get()) == "commenter"


def test_the_owner_shares_from_the_session_page_and_over_rest(client):
    owner, ann = make_user("olga"), make_user("ann")
    session = make_session(owner=owner, title="Audit")
    team_of("auditors", ann)
    client.force_login(owner)
    page = client.get(reverse("workspace:detail", args=[session.pk])).content.decode()
    assert "Shared with no team" in page and "Share with the team" in page
    card = client.post(
        reverse("workspace:shares", args=[session.pk]), {"action": "share", "group": "auditors", "role": "commenter"}
    ).content.decode()
    assert "auditors" in card and "commenters" in card and effective_role(session.pk, ann) == "commenter"
    listed = client.get(f"/api/sessions/{session.pk}/shares/").json()
    assert [(s["group"], s["role"], s["shared_by"]) for s in listed] == [("auditors", "commenter", "olga")]
    assert client.delete(f"/api/sessions/{session.pk}/shares/auditors/").status_code == 204
    assert effective_role(session.pk, ann) is None
    made = client.post(
        f"/api/sessions/{session.pk}/shares/", {"group": "auditors", "role": "owner"}, content_type="application/json"
    )
    assert made.status_code == 400
    client.force_login(ann)
    assert client.get(f"/api/sessions/{session.pk}/shares/").status_code == 404
    assert "Share with the team" not in client.get(reverse("workspace:team")).content.decode()


def test_the_team_page_filters_by_team(shared, client):
    users = shared["users"]
    Group.objects.get(name="finance").user_set.add(users["commenter"])
    make_session(owner=users["commenter"], title="Notes of Cora")
    client.force_login(users["commenter"])
    everything = client.get(reverse("workspace:team")).content.decode()
    assert "Regional sales" in everything and "Notes of Cora" in everything and "shared with reviewers" in everything
    finance = client.get(reverse("workspace:team"), {"team": "finance"}).content.decode()
    assert "Regional sales" in finance and "Notes of Cora" not in finance
    assert client.get(reverse("workspace:team"), {"team": "board"}).status_code == 400  # not one of hers
