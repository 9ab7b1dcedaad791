"""Every answer carries the pandas code that reproduces its figures from the attached file: run as it
is beside the file (a semicolon-separated export with decimal commas and R's NA), it prints the lead's
figure."""

import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from agents.operations.files import workspace_root
from tests.agents import messy_files
from tests.agents.teamwork import plan_and_run

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])

QUESTIONS = [
    "Which ward has the highest average stay in days?",
    "Is the difference in stay days between the wards statistically significant?",
    "Which 3 patients had the most stay days?",
    "Any unusual costs? Which patient stands out?",
    "Is the cost skewed?",
    "Which column has the most missing values?",
    "Are ward and readmitted related?",
    "Is staying over 6 days related to the ward?",  # stay days read as yes/no above 6
    "Which combination of ward and sex has the highest average cost?",
    "How fast does the cost grow per day of stay in each ward? Which is steepest?",
    "After accounting for ward, is age still linked to cost?",
    "If the trend continues, what will the average cost be in 2030?",
    "What share of the rows does each ward account for?",
    "What is the average cost in ward b for patients older than 50?",
    "How did the average cost change over the years?",
    "How strongly is age related to cost?",
    "Which measures differ most between the wards?",
    "Which ward grew its average cost the most?",
]
NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e-?\d+)?")


def attach_stays(session):
    rng = np.random.default_rng(9)
    lines = ["patient;ward;sex;year;age;stay_days;cost;readmitted"]
    for i in range(160):
        ward = "abc"[i % 3]
        stay = max(1.0, rng.normal({"a": 4, "b": 6, "c": 9}[ward], 1.5))
        cost = 800 + 350 * stay + (20 if ward == "c" else 0) * stay + rng.normal(0, 200) + (9000 if i == 77 else 0)
        age = "NA" if i % 17 == 0 else str(int(rng.integers(20, 90)))
        readmitted = "yes" if rng.random() < {"a": 0.1, "b": 0.2, "c": 0.5}[ward] else "no"
        row = [str(5000 + i), ward, "fm"[i % 2], str(2015 + i % 8), age, f"{stay:.1f}", f"{cost:.2f}", readmitted]
        lines.append(";".join(value.replace(".", ",") for value in row))
    (workspace_root(session.pk) / "stays.csv").write_text("\n".join(lines) + "\n")


def lead_figure(body):
    """The first bold number of the lead (the answer's figure), or its first number."""
    lead = body.split("\n", 1)[0]
    bold = [b for b in re.findall(r"\*\*(.+?)\*\*", lead) if NUMBER.search(b)]
    return float(NUMBER.findall(bold[-1] if bold else lead)[-1].replace(",", ""))


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_code_under_an_answer_prints_its_figure(team, question):
    attach_stays(team["session"])
    report = plan_and_run(team, goal=f"Analyse the attached stays CSV: {question}", attached="stays.csv")
    findings = report["payload"]["content"]["sections"][0]
    code = re.search(r"```python\n(.+?)```", findings["body"], re.S)
    assert code, findings["body"][-600:]
    figure = lead_figure(findings["body"])
    ran = subprocess.run(
        [sys.executable, "-c", code.group(1)], cwd=workspace_root(team["session"].pk), capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    printed = [float(n.replace(",", "")) for n in NUMBER.findall(ran.stdout)]
    assert any(abs(n - figure) <= max(abs(figure) * 0.005, 0.0051) for n in printed), (figure, ran.stdout[-1500:])


def test_the_session_exports_its_answers_code_as_a_notebook_that_runs(team, client):
    attach_stays(team["session"])
    report = plan_and_run(team, goal="Analyse the attached stays CSV: Is the cost skewed?", attached="stays.csv")
    figure = lead_figure(report["payload"]["content"]["sections"][0]["body"])
    client.force_login(team["owner"])
    response = client.get(f"/api/sessions/{team['session'].pk}/notebook/")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ipynb+json"
    book = nbformat.reads(response.content.decode(), as_version=4)  # it opens: a valid version-4 notebook
    code = [cell.source for cell in book.cells if cell.cell_type == "code"]
    headings = [cell.source for cell in book.cells if cell.cell_type == "markdown"]
    assert len(code) >= 1 and any("Is the cost skewed?" in h for h in headings)
    ran = subprocess.run(
        [sys.executable, "-c", "\n".join(code)], cwd=workspace_root(team["session"].pk), capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert any(abs(float(n.replace(",", "")) - figure) <= abs(figure) * 0.005 for n in NUMBER.findall(ran.stdout))


@pytest.mark.parametrize(
    "question",
    [
        "How did the average margin change over the years?",
        "Which shop has the highest mean price?",
        "Which season has the highest average margin?",
    ],
)
def test_the_code_reads_signed_numbers_and_day_first_dates_as_the_import_did(team, question):
    messy_files.signed_margins(workspace_root(team["session"].pk))
    assert_code_prints_the_lead(team, f"Analyse the attached margins CSV: {question}", "margins.csv")


@pytest.mark.parametrize(
    "question",
    ["How did the mean savings change over the years?", "In which quarter of the year are savings highest on average?"],
)
def test_the_code_reads_quarters_written_1970_q1_as_the_import_did(team, question):
    messy_files.quarterly_changes(workspace_root(team["session"].pk))
    assert_code_prints_the_lead(team, f"Analyse the attached changes CSV: {question}", "changes.csv")


def assert_code_prints_the_lead(team, goal, attached):
    report = plan_and_run(team, goal=goal, attached=attached)
    findings = report["payload"]["content"]["sections"][0]
    code = re.search(r"```python\n(.+?)```", findings["body"], re.S)
    assert code, findings["body"][-600:]
    ran = subprocess.run(
        [sys.executable, "-c", code.group(1)], cwd=workspace_root(team["session"].pk), capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-2000:]
    printed = [float(n.replace(",", "")) for n in NUMBER.findall(ran.stdout)]
    figure = lead_figure(findings["body"])
    assert any(abs(n - figure) <= max(abs(figure) * 0.005, 0.0051) for n in printed), (figure, ran.stdout[-1500:])
