"""Full-text search over messages: a text column, and the database's own index of it.

PostgreSQL: a GIN index on to_tsvector('english', search_text). SQLite: an FTS5 table that mirrors
the column through triggers (external content: the text is stored once).
"""

from django.db import migrations, models

POSTGRES = [
    "CREATE INDEX message_search ON chap_sessions_message USING gin (to_tsvector('english', search_text))",
]
POSTGRES_REVERSE = ["DROP INDEX IF EXISTS message_search"]
SQLITE = [
    "CREATE VIRTUAL TABLE chap_sessions_message_fts USING fts5("
    "search_text, content='chap_sessions_message', content_rowid='id', tokenize='porter unicode61')",
    "CREATE TRIGGER chap_sessions_message_fts_insert AFTER INSERT ON chap_sessions_message BEGIN "
    "INSERT INTO chap_sessions_message_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER chap_sessions_message_fts_delete AFTER DELETE ON chap_sessions_message BEGIN "
    "INSERT INTO chap_sessions_message_fts(chap_sessions_message_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); END",
    "CREATE TRIGGER chap_sessions_message_fts_update AFTER UPDATE OF search_text ON chap_sessions_message BEGIN "
    "INSERT INTO chap_sessions_message_fts(chap_sessions_message_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); "
    "INSERT INTO chap_sessions_message_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS chap_sessions_message_fts_insert",
    "DROP TRIGGER IF EXISTS chap_sessions_message_fts_delete",
    "DROP TRIGGER IF EXISTS chap_sessions_message_fts_update",
    "DROP TABLE IF EXISTS chap_sessions_message_fts",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement)


def fill_and_index(apps, schema_editor):
    from sessions.chap.text import searchable_text

    Message = apps.get_model("chap_sessions", "Message")
    for message in Message.objects.using(schema_editor.connection.alias).iterator():
        message.search_text = searchable_text(message.envelope)
        message.save(update_fields=["search_text"])
    vendor = schema_editor.connection.vendor
    _run(schema_editor, POSTGRES if vendor == "postgresql" else SQLITE if vendor == "sqlite" else [])
    if vendor == "sqlite":
        schema_editor.execute("INSERT INTO chap_sessions_message_fts(chap_sessions_message_fts) VALUES ('rebuild')")


def drop_index(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(schema_editor, POSTGRES_REVERSE if vendor == "postgresql" else SQLITE_REVERSE if vendor == "sqlite" else [])


class Migration(migrations.Migration):
    dependencies = [("chap_sessions", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="message",
            name="search_text",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(fill_and_index, drop_index),
    ]
