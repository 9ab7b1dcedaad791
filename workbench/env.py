"""Typed readers for settings that come from the environment.

Each reader raises ImproperlyConfigured with the variable's name, so a typo in a
deployment stops the process at start-up instead of surfacing as odd behaviour later.
"""

import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {value}")
    return value


def env_log_level(name: str, default: str) -> str:
    """A level the logging module knows (DEBUG, INFO, WARNING, ERROR, CRITICAL), in any case."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    level = raw.strip().upper()
    if level not in _LOG_LEVELS:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(_LOG_LEVELS)}; got {raw!r}")
    return level


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_mapping(name: str) -> dict[str, str]:
    """``name=value,name2=value2``; a malformed item stops the start instead of vanishing."""
    mapping = {}
    for item in env_list(name, []):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ImproperlyConfigured(f"{name}: {item!r} is not name=value")
        mapping[key.strip()] = value.strip()
    return mapping


def database_from_url(url: str, *, data_dir: Path) -> dict[str, Any]:
    """Translate a DATABASE_URL into a Django DATABASES entry.

    Supported: ``sqlite:///relative/or/absolute.db`` and ``postgres://`` /
    ``postgresql://`` (psycopg 3). An empty value means the embedded SQLite file.
    """
    if not url:
        return _sqlite(data_dir / "workbench.sqlite3")
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if path.startswith("//") or path.startswith("/"):
            path = path[1:]
        if not path:
            raise ImproperlyConfigured("DATABASE_URL sqlite:/// needs a file path, e.g. sqlite:///data/db.sqlite3")
        return _sqlite(Path(path))
    if parts.scheme in {"postgres", "postgresql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                "DATABASE_URL for PostgreSQL needs a database name: postgres://user@host:5432/NAME"
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL has an invalid port: {url!r}") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported; use sqlite:///PATH or postgres://USER@HOST:PORT/NAME"
    )


def datasets_database(default: dict[str, Any], *, data_dir: Path, statement_timeout_s: float) -> dict[str, Any]:
    if default["ENGINE"].endswith("postgresql"):
        # The time limit of every dataset statement, set once per connection rather than per query.
        options = {"options": f"-c statement_timeout={int(statement_timeout_s * 1000)}"}
        return {**default, "OPTIONS": options, "TEST": {"MIRROR": "default"}}
    return _sqlite(data_dir / "datasets.sqlite3")


def _sqlite(path: Path) -> dict[str, Any]:
    # WAL with synchronous=NORMAL commits about 8x faster than the default journal here,
    # and IMMEDIATE transactions make concurrent writers queue instead of failing with
    # "database is locked" when a read transaction tries to upgrade.
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
        # Kept open in the socket's database threads: opening one (and its PRAGMAs) per call cost more
        # than a post's own queries (bench/ws_fanout.py).
        "CONN_MAX_AGE": 60,
        "TEST": {"NAME": str(path.with_name(f"test_{path.name}"))},
    }


REDIS_READ_TIMEOUT_S = 30


def channel_layer_from_url(url: str) -> dict[str, Any]:
    if not url:
        return {"BACKEND": "workbench.layers.EmbeddedChannelLayer"}
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(f"REDIS_URL scheme {parts.scheme!r} is not supported; use redis://HOST:PORT/DB")
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # redis-py 8 reads with a 5 s timeout by default, as long as channels_redis's blocking pop
        # waits for a socket's next message: an idle socket's pop then timed out and the socket closed
        # with 1011. Reads get longer than the pop; a Redis that stops answering is still noticed.
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": REDIS_READ_TIMEOUT_S}], "capacity": 1500, "expiry": 30},
    }


def secret_key(data_dir: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the data directory."""
    configured = os.environ.get("SECRET_KEY")
    if configured is not None:
        if len(configured) < 32:
            raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters long")
        return configured
    key_file = data_dir / "secret_key"
    if not key_file.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()
