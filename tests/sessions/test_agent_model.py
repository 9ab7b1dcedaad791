"""Sessions point at the agent model the way Django points at the user model: through a setting, with
a swappable dependency in the migrations, and a check that the model keeps what sessions read of it."""

from django.conf import settings
from django.core.checks import Error
from django.db.migrations.loader import MigrationLoader
from django.test import override_settings

from agents.models import Agent
from sessions.agent_model import AGENT_FIELDS, get_agent_model
from sessions.checks import agent_model_keeps_the_contract
from sessions.models import SessionAgent


def test_the_setting_names_the_agent_model_sessions_point_at():
    assert settings.CHAP_AGENT_MODEL == "agents.Agent"
    assert get_agent_model() is Agent
    assert SessionAgent._meta.get_field("agent").related_model is Agent


def test_a_new_migration_names_the_agent_model_by_its_setting():
    _, _, _, kwargs = SessionAgent._meta.get_field("agent").deconstruct()
    assert kwargs["to"].setting_name == "CHAP_AGENT_MODEL"


def test_the_sessions_migrations_depend_on_the_agent_model_through_the_setting():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    sessions = [m for (app, _), m in loader.disk_migrations.items() if app == "chap_sessions"]
    swappable = {dep.setting for m in sessions for dep in m.dependencies if hasattr(dep, "setting")}  # their values
    assert settings.CHAP_AGENT_MODEL in swappable


def test_the_agent_model_keeps_what_sessions_read_of_it():
    assert agent_model_keeps_the_contract(None) == []
    assert {field.name for field in Agent._meta.get_fields()} >= AGENT_FIELDS


@override_settings(CHAP_AGENT_MODEL="auth.User")
def test_a_model_without_those_fields_stops_the_workbench_at_start_up():
    [error] = agent_model_keeps_the_contract(None)
    assert isinstance(error, Error) and error.id == "chap_sessions.E003"
    assert (
        error.msg
        == "auth.User lacks behaviour, enabled, kind, llm_model, name, roles, which sessions read of an agent."
    )
