"""A session's datasets end with it, and every session's with the database: on PostgreSQL the
reader roles belong to the cluster, so nothing but the workbench itself would ever drop them."""

import io
import uuid

import pytest
from django.core.management import call_command
from django.db import connections

from agents.operations.datasets.store import open_store
from sessions.membership import agent_join
from tests.agents.sap_calls import load_sales, one
from tests.factories import make_session, make_user

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def leftovers(session) -> list[str]:
    """What is left of the session's datasets: its file, or its schema and its reader role."""
    hex_id = uuid.UUID(str(session.pk)).hex
    if connections["datasets"].vendor != "postgresql":
        with open_store(session.pk) as store:
            return [store.path.name] if store.path.exists() else []
    with connections["datasets"].cursor() as cursor:
        cursor.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname = %s "
            "UNION ALL SELECT rolname FROM pg_roles WHERE rolname = %s",
            [f"session_{hex_id}", f"chap_ds_{hex_id}"],
        )
        return [name for (name,) in cursor.fetchall()]


def test_deleting_a_session_in_the_admin_drops_its_datasets_and_reader_role(
    world,
    client,
    django_capture_on_commit_callbacks,
):
    load_sales(world)
    kept = {**world, "session": make_session(owner=world["owner"])}
    agent_join(session=kept["session"], agent=world["agent"])
    load_sales(kept)
    assert len(leftovers(world["session"])) in (1, 2)
    client.force_login(make_user(superuser=True))
    url = f"/admin/chap_sessions/worksession/{world['session'].pk}/delete/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert leftovers(world["session"]) == []
    assert one(kept, "query", "dataset.query", {"sql": "SELECT COUNT(*) AS n FROM sales"}).body["rows"] == [[4]]


def test_drop_datasets_before_dropping_the_database_leaves_no_role(world):
    load_sales(world)
    assert leftovers(world["session"])
    said = io.StringIO()
    call_command("drop_datasets", stdout=said)
    assert said.getvalue().startswith("Dropped the datasets of ")
    assert leftovers(world["session"]) == []
