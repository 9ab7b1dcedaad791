from typing import Any

from django.core.management.base import BaseCommand

from agents.operations.datasets.lifecycle import every_dataset_drop


class Command(BaseCommand):
    help = (
        "Drop every session's datasets (on PostgreSQL their schemas and cluster-wide reader roles). "
        "Run it before dropping the database: DROP DATABASE leaves roles behind."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        dropped = every_dataset_drop()
        self.stdout.write(f"Dropped the datasets of {len(dropped)} session(s).")
