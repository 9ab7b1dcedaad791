"""The data-analysis template's deliverable opens with the answer, then the evidence, then the method;
a template an admin has edited is left as it is (the writer puts an answer first in any case)."""

from django.db import migrations


def _section(title, description):
    return {"title": title, "description": description, "required": True}


SHIPPED = [
    _section("Data and method", "which tables, rows and queries"),
    _section("Column profiles", "types, missing values, ranges"),
    _section("Descriptive statistics", "counts, means, minima, maxima"),
    _section("Group comparisons", "how groups differ"),
    _section("Limitations", "what the data cannot tell"),
]
ANSWER_FIRST = [
    _section("Answer", "the answer to each question asked, with its figure and effect size"),
    _section("Evidence", "the figures and chart behind each answer"),
    _section("Descriptive statistics", "counts, means, minima, maxima"),
    _section("Column profiles", "types, missing values, ranges"),
    _section("Data and method", "which tables, rows and queries"),
    _section("Limitations", "what the data cannot tell"),
]


def answer_first(apps, schema_editor):
    TaskTemplate = apps.get_model("agents", "TaskTemplate")
    for template in TaskTemplate.objects.filter(slug="data-analysis"):
        if template.deliverable_sections == SHIPPED:
            template.deliverable_sections = ANSWER_FIRST
            template.save(update_fields=["deliverable_sections"])


class Migration(migrations.Migration):
    dependencies = [("agents", "0007_analysts_compute_statistics")]

    operations = [migrations.RunPython(answer_first, migrations.RunPython.noop)]
