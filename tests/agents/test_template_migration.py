"""A workbench made before answer-first reports gets the data-analysis template's new sections, unless
an admin edited them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from agents.models import TaskTemplate
from agents.task_templates import DEFAULT_TEMPLATES

BEFORE = [("agents", "0007_analysts_compute_statistics")]
SHIPPED_BEFORE = ["Data and method", "Column profiles", "Descriptive statistics", "Group comparisons", "Limitations"]


def _sections(titles, descriptions):
    return [{"title": t, "description": descriptions.get(t, ""), "required": True} for t in titles]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("edited", [False, True])
def test_the_shipped_data_analysis_template_opens_with_the_answer_after_the_migration(edited):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("agents", "TaskTemplate")
    descriptions = {
        "Data and method": "which tables, rows and queries",
        "Column profiles": "types, missing values, ranges",
        "Descriptive statistics": "counts, means, minima, maxima",
        "Group comparisons": "how groups differ" + (", for the board" if edited else ""),
        "Limitations": "what the data cannot tell",
    }
    old.objects.filter(slug="data-analysis").update(deliverable_sections=_sections(SHIPPED_BEFORE, descriptions))

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    titles = [s["title"] for s in TaskTemplate.objects.get(slug="data-analysis").deliverable_sections]
    [shipped] = [t for t in DEFAULT_TEMPLATES if t["slug"] == "data-analysis"]
    assert titles == (SHIPPED_BEFORE if edited else [s["title"] for s in shipped["deliverable_sections"]])
