from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from workbench.env import channel_layer_from_url, database_from_url, env_bool, env_int, env_log_level, secret_key


def test_empty_database_url_is_the_embedded_sqlite_file(tmp_path):
    db = database_from_url("", data_dir=tmp_path)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(tmp_path / "workbench.sqlite3")
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]


def test_postgres_url_selects_psycopg_backend(tmp_path):
    db = database_from_url("postgres://chap:s%40cret@db.example:6543/work", data_dir=tmp_path)
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "work",
        "chap",
        "s@cret",
        "db.example",
        "6543",
    )


def test_sqlite_url_with_absolute_path(tmp_path):
    db = database_from_url(f"sqlite:///{tmp_path}/x.db", data_dir=Path("/nowhere"))
    assert db["NAME"] == f"{tmp_path}/x.db"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/db", "scheme 'mysql' is not supported"),
        ("postgres://root@localhost/", "needs a database name"),
        ("postgres://root@localhost:notaport/db", "invalid port"),
        ("sqlite:///", "needs a file path"),
    ],
)
def test_bad_database_url_is_a_clear_error(url, message, tmp_path):
    with pytest.raises(ImproperlyConfigured, match=message):
        database_from_url(url, data_dir=tmp_path)


def test_redis_url_selects_the_redis_layer_and_empty_the_in_memory_one():
    assert channel_layer_from_url("")["BACKEND"] == "workbench.layers.EmbeddedChannelLayer"
    layer = channel_layer_from_url("redis://127.0.0.1:6379/2")
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert [host["address"] for host in layer["CONFIG"]["hosts"]] == ["redis://127.0.0.1:6379/2"]
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        channel_layer_from_url("http://127.0.0.1:6379")


def test_booleans_and_integers_refuse_garbage(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", True)
    monkeypatch.setenv("DEBUG", "off")
    assert env_bool("DEBUG", True) is False
    monkeypatch.setenv("SECURE_HSTS_SECONDS", "soon")
    with pytest.raises(ImproperlyConfigured, match="SECURE_HSTS_SECONDS"):
        env_int("SECURE_HSTS_SECONDS", 0)


def test_secret_key_is_generated_once_and_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = secret_key(tmp_path)
    assert len(first) >= 50
    assert secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_short_secret_key_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "short")
    with pytest.raises(ImproperlyConfigured, match="at least 32"):
        secret_key(tmp_path)


def test_log_level_is_read_in_any_case_and_garbage_is_refused(monkeypatch):
    monkeypatch.setenv("LOG_LEVEL", " warning ")
    assert env_log_level("LOG_LEVEL", "INFO") == "WARNING"
    monkeypatch.setenv("LOG_LEVEL", "loud")
    with pytest.raises(ImproperlyConfigured, match="LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"):
        env_log_level("LOG_LEVEL", "INFO")
