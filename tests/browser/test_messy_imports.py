"""Real-world CSV files through the browser: each messy shape is attached to a new session, the plan
approved, and the analyst's "Data as read" section shows the rows in the file against the rows loaded
and each column's type and role; a correction of the separator or of a role, given on that section,
reads the file again (or takes the role) and redoes the report."""

import statistics

import pytest

from tests.agents import messy_files
from tests.chromium import ARTIFACTS, approve_the_plan, screenshot, start_analysis, unfold

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

LIVE = 40_000


PAGE_HEIGHT = 1000  # the import message and its table on one screenshot


@pytest.fixture
def written(tmp_path):
    """A messy shape written into a folder to attach from: what its writer returns, and the folder."""
    return lambda shape: (getattr(messy_files, shape)(tmp_path), tmp_path)


def start(page, goal, path):
    start_analysis(page, page.server.url, goal, path)
    approve_the_plan(page, LIVE)
    return analyst_report(page, 1)


def analyst_report(page, count):
    """The analyst's ``count``-th report, once the writer has written from it (the thread redraws the
    analysis as no longer the current answer then), unfolded."""
    page.wait_for_function(
        """n => {
            const by = name => [...document.querySelectorAll('#thread article.kind-collaborative_response')]
                .filter(a => a.querySelector('header strong').textContent.trim() === name);
            return by('analyst').filter(a => a.querySelector('section[data-section-id="data-as-read"]')).length >= n
                && by('scribe').length >= n;
        }""",
        arg=count,
        timeout=2 * LIVE,
    )
    reports = (
        page.locator("#thread article.kind-collaborative_response")
        .filter(has=page.locator('header strong:text-is("analyst")'))
        .filter(has=page.locator('section[data-section-id="data-as-read"]'))
    )
    unfold(reports.nth(count - 1))  # written up: one line, and "Data as read" below its lead
    return reports.nth(count - 1)


def read_section(report):
    section = report.locator('section[data-section-id="data-as-read"]')
    section.scroll_into_view_if_needed()
    return section


def column_cells(section, name):
    """The cells of the row of a section's table that starts with ``name`` (none when it has none)."""
    rows = section.locator("tr", has=section.page.locator(f'td:first-child:text-is("{name}")'))
    return [" ".join(c.split()) for c in rows.first.locator("td").all_inner_texts()] if rows.count() else []


def snap(page, report, name):
    """The whole page, and the report's "Data as read" section alone (readable at a glance)."""
    screenshot(page, name)
    ARTIFACTS.mkdir(exist_ok=True)
    read_section(report).screenshot(path=str(ARTIFACTS / f"{name}-data-as-read.png"))


def correct(page, report, text):
    read_section(report).locator("h4 button", has_text="Give feedback").click()
    panel = page.get_by_test_id("feedback-panel")
    panel.get_by_label("Correct").check()
    panel.get_by_label("What should change").fill(text)
    panel.get_by_role("button", name="Send feedback").click()
    panel.get_by_test_id("feedback-sent").wait_for(timeout=LIVE)


CASES = {
    "r-na": ("chicks_with_na", "chicks.csv", "Which feed gives the highest mean weight?"),
    "semicolon-decimal-comma": ("semicolon_prices", "preise.csv", "Which region has the highest mean Preis?"),
    "thousands": ("thousands_prices", "houses.csv", "Which city has the highest mean Price?"),
    "excel-export": ("excel_export", "sales.csv", "Which shop has the highest total Amount?"),
    "signs-day-first": ("signed_margins", "margins.csv", "Which shop has the highest mean price?"),
}
EXPECTED = {  # rows line, and column -> (type, role starts with)
    "r-na": ("chicks.csv → table chicks: 60 rows in the file, all of them loaded.",
             {"Chick": ("number", "identifier"), "Feed": ("text", "category"), "weight": ("number", "measure")}),
    "semicolon-decimal-comma": ("preise.csv → table preise: 40 rows in the file, all of them loaded.",
                                {"Region": ("text", "category"), "Preis": ("number", "measure")}),
    "thousands": ("houses.csv → table houses: 30 rows in the file, all of them loaded.",
                  {"City": ("text", "category"), "Price": ("number", "measure"), "Year": ("number", "time")}),
    "excel-export": ("sales.csv → table sales: 24 rows in the file, all of them loaded.",
                     {"Shop": ("text", "category"), "Amount": ("number", "measure"), "Date": ("date", "time")}),
    "signs-day-first": ("margins.csv → table margins: 120 rows in the file, all of them loaded.",
                        {"date": ("date", "time"), "margin": ("number", "measure"), "price": ("number", "measure")}),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_the_import_message_shows_rows_types_and_roles(nina, written, case):
    shape, name, question = CASES[case]
    _, folder = written(shape)
    report = start(nina, f"Analyse the attached CSV: {question}", folder / name)
    section = read_section(report)
    rows_line, columns = EXPECTED[case]
    assert rows_line in " ".join(section.inner_text().split())
    for column, (kind, role) in columns.items():
        cells = column_cells(section, column)
        assert cells[1] == kind and cells[2].startswith(role), cells
    snap(nina, report, f"import-{case}")
    if case == "r-na":
        weight = column_cells(section, "weight")
        assert weight[3] != "0" and weight[4].endswith("'NA'")
    if case == "signs-day-first":
        said = " ".join(section.inner_text().split())
        assert "margin's values carry a % sign" in said and "price's values carry a $ sign" in said, said
        assert "date's dates read as day/month/year" in said, said
    assert nina.console_errors == []


def test_a_correction_of_the_separator_reads_the_file_again(nina, written):
    values, folder = written("one_column_decimal_commas")
    report = start(nina, "Analyse the attached CSV: What is the mean Gewicht?", folder / "gewicht.csv")
    assert "Guessed: skipped 1 title line(s) above the header: Gewicht" in read_section(report).inner_text()
    snap(nina, report, "import-separator-1-misread")
    correct(nina, report, "The separator is a semicolon")
    again = analyst_report(nina, 2)
    section = read_section(again)
    assert "gewicht.csv → table gewicht: 30 rows in the file, all of them loaded." in section.inner_text()
    assert column_cells(section, "Gewicht")[1:3] == ["number", "measure (numbers)"]
    findings = again.locator('section[data-section-id="findings"]')
    assert f"{statistics.fmean(values):.4g}" in findings.locator(".body > p").first.inner_text()
    changed = again.locator('section[data-section-id="what-changed"]').inner_text()
    assert "I read the file of gewicht again with the separator ';'." in changed
    snap(nina, again, "import-separator-2-read-again")


def test_a_correction_of_a_role_redoes_the_work(nina, written):
    _, folder = written("chicks_with_na")
    report = start(nina, "Analyse the attached CSV: Which feed gives the highest mean weight?", folder / "chicks.csv")
    figures = report.locator('section[data-section-id="chicks-statistics"]')
    assert column_cells(figures, "weight") and not column_cells(figures, "Chick")
    correct(nina, report, "Chick is a measure")
    again = analyst_report(nina, 2)
    section = read_section(again)
    assert column_cells(section, "Chick")[2] == "measure (you said so)"
    statistics_section = again.locator('section[data-section-id="chicks-statistics"]')
    assert column_cells(statistics_section, "Chick")[1] == "60"
    assert (
        "I took Chick in chicks as a measure from now on."
        in again.locator('section[data-section-id="what-changed"]').inner_text()
    )
    snap(nina, again, "import-role-corrected")
