"""The README's at-scale commands on a fresh PostgreSQL database: migrate checks before it migrates,
so the check may not refuse what the migration is about to do."""

import uuid

import psycopg
import pytest
from django.conf import settings
from django.db import connections

from tests.live import run_manage


@pytest.fixture
def fresh_database():
    """An empty PostgreSQL database on the test cluster, dropped afterwards; its URL."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("a PostgreSQL deployment")
    db = settings.DATABASES["default"]
    name = f"chap_fresh_{uuid.uuid4().hex[:12]}"
    server = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"], "password": db["PASSWORD"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{server['port']}/{name}", server, name
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_readmes_migrate_runs_on_a_fresh_postgresql_database_as_a_superuser(fresh_database, tmp_path):
    url, server, name = fresh_database
    migrated = run_manage("migrate", DATABASE_URL=url, WORKBENCH_DATA_DIR=str(tmp_path))
    assert migrated.returncode == 0, migrated.stderr
    checked = run_manage("check", "--database", "default", DATABASE_URL=url, WORKBENCH_DATA_DIR=str(tmp_path))
    assert checked.returncode == 0, checked.stderr
    with psycopg.connect(dbname=name, **server) as fresh:
        escape = "pg_catalog.set_config(text,text,boolean)"
        revoked = fresh.execute("SELECT has_function_privilege('public', %s, 'EXECUTE')", [escape]).fetchone()
    assert revoked == (False,)
