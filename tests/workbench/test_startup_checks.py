"""Every dotted path in the settings is imported by a system check, so a typo stops the start."""

import io
import logging

import pytest
from django.conf import settings as django_settings
from django.core import checks

from protocol.logs import ContextIds, log_context


def errors(check_id):
    return [(error.msg, error.hint) for error in checks.run_checks() if error.id == check_id]


def test_the_shipped_settings_pass_every_check():
    assert [error.id for error in checks.run_checks() if error.is_serious()] == []


def test_a_safety_filter_that_does_not_import_is_an_error_with_a_hint(settings):
    settings.CHAP_SAFETY_FILTER = "sessions.safety.no_such_filter"
    [(message, hint)] = errors("chap_sessions.E001")
    assert message.startswith("CHAP_SAFETY_FILTER: 'sessions.safety.no_such_filter' does not import")
    assert "filter(envelope, agent) -> envelope" in hint


def test_behaviours_that_do_not_import_or_cannot_be_called_are_errors(settings):
    settings.CHAP_BEHAVIOURS = {
        "ok": "sessions.safety.default_filter",
        "gone": "nowhere.run",
        "text": "sessions.safety.REDACTED",
    }
    assert [message for message, _ in errors("chap_agents.E001")] == [
        "CHAP_BEHAVIOURS: 'nowhere.run' does not import (No module named 'nowhere').",
        "CHAP_BEHAVIOURS: 'sessions.safety.REDACTED' is not callable.",
    ]


def test_rest_framework_paths_are_imported_too(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "EXCEPTION_HANDLER": "workbench.api_errors.handler"}
    assert [message for message, _ in errors("chap_sessions.E002")] == [
        "REST_FRAMEWORK: 'workbench.api_errors.handler' does not import "
        '(Module "workbench.api_errors" does not define a "handler" attribute/class).'
    ]


@pytest.fixture
def log_lines():
    """What the console handler of settings.LOGGING writes, in its format and with its filter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(django_settings.LOGGING["formatters"]["plain"]["format"]))
    handler.addFilter(ContextIds())
    logging.getLogger().addHandler(handler)
    yield lambda: stream.getvalue().splitlines()
    logging.getLogger().removeHandler(handler)


def test_a_crash_in_a_request_is_logged_under_the_request_id_its_answer_shows(logged_in_client, monkeypatch, log_lines):
    def fail(**kwargs):
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr("sessions.selectors.sessions_for_user", fail)
    response = logged_in_client.get("/api/sessions/")
    request_id = response.json()["error"]["request_id"]
    assert response.status_code == 500
    [line] = [line for line in log_lines() if "API request failed" in line]
    assert f"request={request_id} task=- " in line


def test_a_task_names_its_lines_and_outside_one_they_say_so(log_lines):
    with log_context(task=42):
        logging.getLogger("agents.worker").warning("working")
    logging.getLogger("agents.worker").warning("idle")
    assert [line.split(" agents.worker ")[1] for line in log_lines()] == [
        "request=- task=42 working",
        "request=- task=- idle",
    ]
