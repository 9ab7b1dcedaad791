from typing import Any

from django.db.models import Model


class DatasetsRouter:
    """Django's own tables never go to the "datasets" alias; it holds only session datasets (raw SQL)."""

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db != "datasets"

    def db_for_read(self, model: type[Model], **hints: Any) -> str:
        return "default"

    def db_for_write(self, model: type[Model], **hints: Any) -> str:
        return "default"
