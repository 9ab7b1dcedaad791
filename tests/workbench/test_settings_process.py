"""Settings as a fresh process sees them: bad values stop start-up with a clear message."""

from tests.live import run_manage


def test_bad_database_url_stops_manage_py_with_improperly_configured(tmp_path):
    result = run_manage("check", DATABASE_URL="oracle://x/y", WORKBENCH_DATA_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DATABASE_URL scheme 'oracle' is not supported" in result.stderr


def test_deploy_check_passes_without_errors(tmp_path):
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "ERROR",
        DEBUG="0",
        SECRET_KEY="x" * 20 + "-a-real-secret-key-for-this-test-" + "y" * 20,
        ALLOWED_HOSTS="workbench.example",
        WORKBENCH_DATA_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr


def test_in_memory_layer_without_debug_is_warned_about(tmp_path):
    env = {"DEBUG": "0", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "x.example", "WORKBENCH_DATA_DIR": str(tmp_path)}
    env["REDIS_URL"] = ""
    result = run_manage("check", **env)
    assert "chap_sessions.W001" in result.stderr + result.stdout


def test_bad_log_level_stops_manage_py_with_a_clear_message(tmp_path):
    result = run_manage("check", LOG_LEVEL="chatty", WORKBENCH_DATA_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL; got 'chatty'" in result.stderr


def test_a_safety_filter_that_does_not_import_stops_the_start(tmp_path):
    result = run_manage("check", CHAP_SAFETY_FILTER="sessions.safety.no_such_filter", WORKBENCH_DATA_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "(chap_sessions.E001) CHAP_SAFETY_FILTER: 'sessions.safety.no_such_filter' does not import" in result.stderr


def test_the_dataset_quota_holds_the_largest_upload_and_an_administrator_sets_it(tmp_path):
    said = "from django.conf import settings; print(settings.DATASET_QUOTA_BYTES)"
    default = run_manage("shell", "-c", said, WORKBENCH_MAX_UPLOAD_MB="100", WORKBENCH_DATA_DIR=str(tmp_path))
    assert default.stdout.split()[-1] == str(200 * 1024 * 1024), default.stderr
    chosen = run_manage("shell", "-c", said, WORKBENCH_DATASET_QUOTA_MB="50", WORKBENCH_DATA_DIR=str(tmp_path))
    assert chosen.stdout.split()[-1] == str(50 * 1024 * 1024), chosen.stderr
