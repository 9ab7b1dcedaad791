"""The analyst reads real-world CSV files as a careful analyst does and says so at a glance: rows in
the file against rows loaded, each column's type and role, what is missing and why, what it guessed.
A person's correction of the reading or of a role reads the file again (or re-types it) and redoes
the report, and the role sticks for the rest of the session."""

import statistics

import pytest

from agents.operations.files import workspace_root
from tests.agents import messy_files
from tests.agents.teamwork import feedback_on, plan_and_run, reports, work_until_idle

pytestmark = pytest.mark.django_db(databases=["default", "datasets"])


def section(report, section_id):
    return next(s for s in report["payload"]["content"]["sections"] if s["id"] == section_id)


def lead(report):
    return section(report, "findings")["body"].split("\n", 1)[0].replace("**", "")


def row_of(body, first_cell):
    line = next(line for line in body.splitlines() if line.startswith(f"| {first_cell} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_r_na_is_missing_and_the_measure_is_still_analysed(team):
    kept = messy_files.chicks_with_na(workspace_root(team["session"].pk))
    report = plan_and_run(team, "Which feed gives the highest mean weight?", "chicks.csv")
    read = section(report, "data-as-read")["body"]
    assert "chicks.csv → table chicks: 60 rows in the file, all of them loaded." in read
    missing = 60 - sum(len(v) for v in kept.values())
    assert row_of(read, "weight")[:5] == ["weight", "number", "measure (numbers)", str(missing), f"{missing} 'NA'"]
    best = max(kept, key=lambda f: statistics.fmean(kept[f]))
    assert lead(report).startswith(f"{best} has the highest mean weight: {statistics.fmean(kept[best]):.4g}")
    assert f"(n = {len(kept[best])})" in lead(report)


def test_a_numbered_subject_column_is_an_identifier_never_the_measure(team):
    messy_files.chicks_with_na(workspace_root(team["session"].pk))
    report = plan_and_run(team, "Which feed is the best?", "chicks.csv")
    read = section(report, "data-as-read")["body"]
    assert row_of(read, "Chick")[2].startswith("identifier (whole numbers 1 to 20")
    assert "Chick" not in lead(report)
    assert "| Chick |" not in section(report, "chicks-statistics")["body"]
    assert "mean_Chick" not in section(report, "chicks-by-Feed")["body"]
    assert any(a.startswith("Chick in chicks is an identifier") for a in report["payload"]["assumptions_made"])
    assert report["payload"]["provenance"]["roles"]["chicks"]["Chick"] == "identifier"


def test_a_semicolon_file_with_decimal_commas_and_thousands_dots_loads_every_row_as_numbers(team):
    prices = messy_files.semicolon_prices(workspace_root(team["session"].pk))
    report = plan_and_run(team, "Which region has the highest mean Preis?", "preise.csv")
    read = section(report, "data-as-read")["body"]
    assert "preise.csv → table preise: 40 rows in the file, all of them loaded." in read
    assert "separator semicolon (';'), decimal mark a comma (','), thousands separator '.'" in read
    assert "encoding cp1252" in read and "Windows-1252" in read
    assert row_of(read, "Preis")[1:3] == ["number", "measure (numbers)"]
    best = max(prices, key=lambda r: statistics.fmean(prices[r]))
    assert lead(report).startswith(f"{best} has the highest mean Preis: {statistics.fmean(prices[best]):.5g}")


def test_thousands_separators_make_prices_numbers(team):
    means = messy_files.thousands_prices(workspace_root(team["session"].pk))
    report = plan_and_run(team, "Which city has the highest mean Price?", "houses.csv")
    read = section(report, "data-as-read")["body"]
    assert row_of(read, "Price")[1] == "number" and "separates thousands" in read
    best = max(means, key=means.get)
    assert lead(report).startswith(f"{best} has the highest mean Price")


def test_an_excel_export_says_what_it_left_out_and_loads_every_row(team):
    rows = messy_files.excel_export(workspace_root(team["session"].pk))
    report = plan_and_run(team, "Which shop has the highest total Amount?", "sales.csv")
    read = section(report, "data-as-read")["body"]
    assert f"sales.csv → table sales: {len(rows)} rows in the file, all of them loaded." in read
    assert "skipped 1 title line(s) above the header: Sales report 2024" in read
    assert "left out 2 empty column(s)" in read and "utf-8 with a byte-order mark" in read
    assert [row_of(read, c)[1] for c in ("Shop", "Amount", "Date")] == ["text", "number", "date"]


def test_a_correction_of_the_separator_reads_the_file_again_and_redoes_the_report(team):
    values = messy_files.one_column_decimal_commas(workspace_root(team["session"].pk))
    first = plan_and_run(team, "What is the mean Gewicht?", "gewicht.csv")
    assert "Gewicht" in section(first, "data-as-read")["body"].split("Guessed:")[1]  # taken for a title
    feedback_on(team, first["message_id"], "The separator is a semicolon")
    work_until_idle()
    revised = reports(team["session"])[-1]
    read = section(revised, "data-as-read")["body"]
    assert "gewicht.csv → table gewicht: 30 rows in the file, all of them loaded." in read
    assert row_of(read, "Gewicht")[1] == "number" and "decimal mark a comma" in read
    assert lead(revised).startswith(f"The mean Gewicht is {statistics.fmean(values):.4g}")
    changed = section(revised, "what-changed")["body"]
    assert "- I read the file of gewicht again with the separator ';'." in changed
    assert f"gewicht: mean Gewicht {round(statistics.fmean(values), 2)}" in changed


def test_a_correction_of_a_type_reads_the_column_as_numbers_and_answers_the_question(team):
    prices = messy_files.prices_with_words(workspace_root(team["session"].pk))
    first = plan_and_run(team, "Which region has the highest mean Price?", "quotes.csv")
    assert row_of(section(first, "data-as-read")["body"], "Price")[1] == "text"
    feedback_on(team, first["message_id"], "Price is a number")
    work_until_idle()
    revised = reports(team["session"])[-1]
    price = row_of(section(revised, "data-as-read")["body"], "Price")
    assert price[1:4] == ["number", "measure (numbers)", "10"] and "10 not of its type" in price[4]
    best = max(prices, key=lambda r: statistics.fmean(prices[r]))
    assert lead(revised).startswith(f"{best} has the highest mean Price: {statistics.fmean(prices[best]):.4g}")


def test_a_role_correction_redoes_the_report_and_sticks_for_later_rounds(team):
    messy_files.chicks_with_na(workspace_root(team["session"].pk))
    first = plan_and_run(team, "Which feed gives the highest mean weight?", "chicks.csv")
    feedback_on(team, first["message_id"], "Chick is a measure")
    work_until_idle()
    second = reports(team["session"])[-1]
    assert row_of(section(second, "data-as-read")["body"], "Chick")[2] == "measure (you said so)"
    assert "| Chick |" in section(second, "chicks-statistics")["body"]
    assert "- I took Chick in chicks as a measure from now on." in section(second, "what-changed")["body"]
    feedback_on(team, second["message_id"], "Use the sample standard deviation")
    work_until_idle()
    third = reports(team["session"])[-1]
    assert "| Chick |" in section(third, "chicks-statistics")["body"]  # the role stuck
    assert third["payload"]["provenance"]["settings"]["roles"] == {"chicks": {"Chick": "measure"}}
    feedback_on(team, third["message_id"], "Chick is an identifier")
    work_until_idle()
    fourth = reports(team["session"])[-1]
    assert "| Chick |" not in section(fourth, "chicks-statistics")["body"]
    assert "No longer reported: chicks: count of Chick" in section(fourth, "what-changed")["body"]
