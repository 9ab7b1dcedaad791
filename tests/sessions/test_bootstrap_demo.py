from django.contrib.auth import get_user_model
from django.core.management import call_command

from sessions.models import WorkSession


def test_bootstrap_creates_a_demo_user_and_session_once(db, capsys, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    call_command("bootstrap_demo")
    first = capsys.readouterr().out
    call_command("bootstrap_demo")
    second = capsys.readouterr().out
    user = get_user_model().objects.get(username="demo")
    password = first.split("password ")[1].strip().strip("'")
    assert user.check_password(password)
    assert first == second
    assert WorkSession.objects.count() == 1
    joined = {p.agent.name: p.agent for p in WorkSession.objects.get().participants.all()}
    assert sorted(joined) == ["analyst", "planner", "reviewer", "scribe"]
    scribe = joined["scribe"]
    assert (scribe.name, scribe.kind, scribe.can_do[0]["limitation"]) == (
        "scribe",
        "builtin",
        "writes up what the analysis found; it adds no figures and checks none",
    )
