"""The analyst answers the question a session's goal asks, one real-browser walk per kind of question.

Each case attaches a small retail table the test builds (six shops in three regions, a row per quarter
from 2020 to 2024, three measures), or for the kinds it cannot ask one shaped like a public table
(tests/browser/analyst_tables.py), asks one kind of question in plain words, approves the plan and
reads the Findings section: its first sentence names the answer, in bold, with its figure, computed
here with plain Python (``statistics``, or SciPy's, NumPy's, pandas' and statsmodels' own calls for a
test, a skewness, a line, Tukey's fences and a model), not with the analyst's code; the lines under it
say the rest (the interaction, each group's slope, the unadjusted figure); a chart is drawn under it.
"""

import math
import random
import statistics
from collections import defaultdict
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy import stats as scipy_stats
from statsmodels.stats.anova import anova_lm

from tests.browser.analyst_tables import air_quality_rows, chick_rows, element_rows, exercise_rows, loom_rows
from tests.chromium import approve_the_plan, screenshot, start_analysis, unfold

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]

SHOPS = {  # shop: region, sales in the first quarter of 2020 (k€), yearly growth
    "Alder": ("north", 40.0, 0.02),
    "Birch": ("north", 30.0, 0.10),
    "Cedar": ("south", 55.0, 0.05),
    "Dogwood": ("south", 48.0, -0.04),
    "Elm": ("east", 25.0, 0.18),
    "Fir": ("east", 35.0, 0.07),
}
BASKET = {"north": 21.0, "south": 34.0, "east": 27.0}  # the mean basket (€) differs most between regions


def retail_rows() -> list[dict]:
    rng = random.Random(20240615)
    rows = []
    for year in range(2020, 2025):
        for quarter in range(4):
            for shop, (region, base, growth) in SHOPS.items():
                years = year - 2020 + quarter / 4
                sales = round(base * (1 + growth) ** years + rng.gauss(0, 1.5), 1)
                rows.append(
                    {
                        "date": f"{year}-{1 + 3 * quarter:02d}-15",
                        "shop": shop,
                        "region": region,
                        "sales": sales,
                        "visitors": round(sales * 12 + rng.gauss(0, 45)),
                        "basket": round(BASKET[region] + rng.gauss(0, 2.5), 2),
                    }
                )
    return rows


def fig(value: float) -> str:
    """A figure as the report writes it: four significant digits, a whole number as it is."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{max(0, 3 - math.floor(math.log10(abs(value))))}f}"


def percent(value: float) -> str:
    """A percentage as the report writes it: one decimal, two significant digits under 1 (0.72)."""
    return f"{value:.1f}".removesuffix(".0") if abs(value) >= 0.95 else f"{value:.2g}"


def by(rows: list[dict], key: str, measure: str) -> dict[str, list[float]]:
    groups = defaultdict(list)
    for row in rows:
        groups[row[key]].append(row[measure])
    return dict(groups)


def eta_squared(groups: dict[str, list[float]]) -> float:
    every = [v for values in groups.values() for v in values]
    grand = statistics.fmean(every)
    between = sum(len(values) * (statistics.fmean(values) - grand) ** 2 for values in groups.values())
    return between / sum((v - grand) ** 2 for v in every)


def expected_compare(rows):
    means = {region: statistics.fmean(values) for region, values in by(rows, "region", "sales").items()}
    top = max(means, key=means.get)
    return "Which region has the highest average sales?", [top, fig(means[top])], ["highest mean sales"]


def expected_rank_differences(rows):
    sizes = {measure: eta_squared(by(rows, "region", measure)) for measure in ("sales", "visitors", "basket")}
    top = max(sizes, key=sizes.get)
    assert top == "basket"  # the data was built so
    return "Which measures differ most between the regions?", [top, fig(sizes[top])], []


def expected_association(rows):
    r = statistics.correlation([row["visitors"] for row in rows], [row["sales"] for row in rows])
    return "How strongly are visitors related to sales?", [fig(r)], ["visitors and sales", "positively"]


def expected_trend(rows):
    years = by([{**row, "year": row["date"][:4]} for row in rows], "year", "sales")
    first, last = statistics.fmean(years["2020"]), statistics.fmean(years["2024"])
    went = "rose" if last > first else "fell"
    return "How did the average sales change over the years?", [went, fig(last)], [f"{fig(first)} in 2020", "2024"]


def expected_share(rows):
    totals = {region: sum(values) for region, values in by(rows, "region", "sales").items()}
    top = max(totals, key=totals.get)
    share = totals[top] / sum(totals.values()) * 100
    return "What share of the total sales does each region account for?", [top, f"{percent(share)}%"], []


def expected_growth(rows):
    change = {}
    for shop, values in by(rows, "shop", "sales").items():  # rows are in time order
        change[shop] = (values[-1] - values[0]) / values[0] * 100
    top = max(change, key=change.get)
    return "Which shop grew its sales the most?", [top, f"+{percent(change[top])}%"], []


def expected_statistic(rows):
    visitors = [row["visitors"] for row in rows]
    p90 = statistics.quantiles(visitors, n=10, method="inclusive")[8]  # linear, as numpy and pandas
    return "What is the 90th percentile of visitors?", [fig(p90)], ["90th percentile", f"(n = {len(visitors)})"]


def expected_filter(rows):
    kept = [row["sales"] for row in rows if row["region"] == "north" and row["date"].startswith("2023")]
    question = "What were the total sales in the north region in 2023?"
    return question, [fig(sum(kept))], ["total sales", f"{len(kept)} rows"]


def expected_significance(rows):
    basket = by(rows, "region", "basket")
    test = scipy_stats.ttest_ind(basket["south"], basket["north"], equal_var=False)
    assert test.pvalue < 0.001  # built so
    gap = statistics.fmean(basket["south"]) - statistics.fmean(basket["north"])
    question = "Is the difference in basket between the north and south regions statistically significant?"
    return question, ["Yes, the difference is statistically significant"], [f"{fig(gap)} apart", "Welch's t-test"]


def expected_significance_by_season(rows):
    seasons = {5: "spring", 6: "summer", 7: "summer", 8: "summer", 9: "autumn"}
    ozone: dict[str, list[float]] = {}
    for row in rows:
        ozone.setdefault(seasons[int(row["date"][5:7])], []).append(row["ozone"])
    assert scipy_stats.f_oneway(*ozone.values()).pvalue < 0.05  # built so: summer's ozone is higher
    question = "Does the ozone differ significantly between the seasons?"
    said = ["one-way ANOVA", f"from {fig(statistics.fmean(ozone['summer']))} (summer)"]
    return (
        question,
        ["Yes, the differences between the groups are statistically significant"],
        said,
        [],
        [],
        ["season of date"],
    )


def expected_top(rows):
    totals = {shop: sum(values) for shop, values in by(rows, "shop", "sales").items()}
    top = sorted(totals, key=totals.get, reverse=True)[:3]
    named = ", ".join(f"{shop} ({fig(round(totals[shop], 1))})" for shop in top)
    return "Which 3 shops have the highest total sales?", [f"The 3 shops with the highest total sales: {named}"], []


def expected_distribution(rows):
    visitors = [row["visitors"] for row in rows]
    skew = scipy_stats.skew(visitors, bias=False)
    shape = "roughly symmetric" if abs(skew) < 0.2 else f"{'right' if skew > 0 else 'left'}-skewed"
    return "How are visitors distributed - skewed?", [], [shape, f"median {fig(statistics.median(visitors))}"]


def expected_missing(rows):
    return "Which column has the most missing values?", ["No column has a missing value"], [f"{len(rows)} rows"]


def expected_crosstab(rows):
    return "Are shop and region related?", ["Shop and region are associated"], ["Cramér's V = 1"]


def expected_forecast(rows):
    years = by([{**row, "year": int(row["date"][:4])} for row in rows], "year", "sales")
    slope, intercept = np.polyfit(list(years), [statistics.fmean(v) for v in years.values()], 1)
    expected = fig(slope * 2026 + intercept)
    question = "If the trend continues, what will the average sales be in 2026?"
    return question, [f"If the straight-line trend continues, sales will be about {expected} in 2026"], []


def p_said(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def expected_which_row(rows, question="Which date had the highest ozone?"):
    peak = max(rows, key=lambda row: row["ozone"])
    assert sum(row["ozone"] == peak["ozone"] for row in rows) == 1  # one day, built so
    return question, [peak["date"], fig(peak["ozone"])], ["had the highest ozone", f"of {len(rows)} rows"]


def expected_which_row_named(rows):
    top = max(rows, key=lambda row: row["melting_point"])
    question = "Which element has the highest melting point?"
    return question, [top["element"], fig(top["melting_point"])], ["had the highest melting point"]


def expected_which_row_when(rows):
    return expected_which_row(rows, "When was ozone highest?")


def expected_outliers(rows):
    ozone = pd.Series([row["ozone"] for row in rows], dtype=float)
    q1, q3 = ozone.quantile([0.25, 0.75])
    low, high = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    beyond = [row for row in rows if not low <= row["ozone"] <= high]
    worst = max(beyond, key=lambda row: max(low - row["ozone"], row["ozone"] - high))
    bold = [f"{len(beyond)} ozone values are outliers", worst["date"], fig(worst["ozone"])]
    listed = [f"{row['date']}: {fig(row['ozone'])}" for row in beyond]
    return "Which days are outliers in ozone?", bold, [f"outside {fig(low)} to {fig(high)}"], listed


def expected_two_factor(rows):
    frame = pd.DataFrame(rows)
    means = frame.groupby(["wool", "tension"])["breaks"].mean().sort_values(ascending=False)
    (wool, tension), second = means.index[0], means.index[1]
    interaction = anova_lm(smf.ols("breaks ~ C(wool) * C(tension)", frame).fit(), typ=2).loc["C(wool):C(tension)"]
    assert interaction["PR(>F)"] < 0.05  # built so
    question = "Which combination of wool and tension gives the most breaks on average?"
    said = [f"ahead of {second[0]} with {second[1]} ({fig(means.iloc[1])})"]
    listed = [f"interaction {p_said(interaction['PR(>F)'])}: the effect of one depends on the other"]
    return question, [f"{wool} with {tension}", fig(means.iloc[0])], said, listed


def expected_rate(rows):
    slopes = {
        feed: scipy_stats.linregress(part["day"], part["weight"]).slope
        for feed, part in pd.DataFrame(rows).groupby("feed")
    }
    ranked = sorted(slopes, key=slopes.get, reverse=True)
    top = ranked[0]
    said = [f"against {fig(slopes[ranked[1]])} for {ranked[1]}"]
    listed = [f"{feed}: {fig(slopes[feed])} per day" for feed in ranked]
    return "How fast does weight grow per day on each feed?", [top, f"{fig(slopes[top])} weight per day"], said, listed


def expected_adjusted(rows):
    frame = pd.DataFrame(rows)
    pooled = smf.ols("cholesterol ~ exercise", frame).fit(cov_type="HC3").params["exercise"]
    within = smf.ols("cholesterol ~ exercise + C(age_group)", frame).fit(cov_type="HC3").params["exercise"]
    assert pooled > 0 > within  # Simpson's paradox, built so: the pooled answer would say "positively"
    question = "After accounting for age group, is exercise still associated with cholesterol?"
    emboldened = ["exercise is negatively associated with cholesterol", f"{fig(within)} cholesterol per unit"]
    listed = [f"Without accounting for age group: {fig(pooled)}", "Simpson's paradox"]
    drawn = ["coloured by age group", f"adjusted slope ({within:.4g})"]  # each age group's line, not the pooled one
    return question, [], ["After accounting for age group"], listed, emboldened, drawn


class Expected(NamedTuple):
    """What the findings show: in bold (whole), said in the lead, said in a line under it, said in bold,
    and what its chart draws."""

    question: str
    bold: list[str]
    said: list[str]
    listed: list[str] = []
    emboldened: list[str] = []
    drawn: list[str] = []  # said in the chart's text alternative


TABLES = {  # the kinds asked of another table than the retail one: its name in the goal and its rows
    "which_row": ("air quality", air_quality_rows),
    "which_row_when": ("air quality", air_quality_rows),
    "which_row_named": ("periodic table", element_rows),
    "which_row_table_named": ("elements", element_rows),  # the file's name says a column's: "element"
    "outliers": ("air quality", air_quality_rows),
    "significance_by_season": ("air quality", air_quality_rows),
    "two_factor": ("looms", loom_rows),
    "rate": ("poultry trial", chick_rows),
    "rate_table_named": ("chick weights", chick_rows),  # the file's name says a column's: "chick"
    "adjusted": ("exercise", exercise_rows),
}

KINDS = {
    "compare": expected_compare,
    "rank_differences": expected_rank_differences,
    "association": expected_association,
    "trend": expected_trend,
    "share": expected_share,
    "growth": expected_growth,
    "statistic": expected_statistic,
    "filter": expected_filter,
    "significance": expected_significance,
    "significance_by_season": expected_significance_by_season,
    "top": expected_top,
    "distribution": expected_distribution,
    "missing": expected_missing,
    "crosstab": expected_crosstab,
    "forecast": expected_forecast,
    "which_row": expected_which_row,
    "which_row_when": expected_which_row_when,
    "which_row_named": expected_which_row_named,
    "which_row_table_named": expected_which_row_named,
    "outliers": expected_outliers,
    "two_factor": expected_two_factor,
    "rate": expected_rate,
    "rate_table_named": expected_rate,
    "adjusted": expected_adjusted,
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_findings_lead_with_the_answer_and_a_chart(nina, tmp_path, kind):
    table, build = TABLES.get(kind, ("retail", retail_rows))
    rows = build()
    question, bold, said, listed, emboldened, drawn = Expected(*KINDS[kind](rows))
    csv_path = tmp_path / f"{table.replace(' ', '_')}.csv"
    columns = list(rows[0])
    csv_path.write_text(",".join(columns) + "\n" + "".join(",".join(str(r[c]) for c in columns) + "\n" for r in rows))

    page = nina
    start_analysis(page, page.server.url, f"Analyse the attached {table} CSV: {question}", csv_path)
    approve_the_plan(page)

    # The written report follows, and the analysis is redrawn as written up in it (one line): wait for it.
    written = page.locator("#thread article.kind-collaborative_response.current header strong", has_text="scribe")
    written.wait_for(timeout=30_000)
    analysis = page.locator("#thread article.kind-collaborative_response").first
    unfold(analysis)
    findings = analysis.locator("section[data-section-id=findings]")
    lead = findings.locator(".body > p").first
    lead_text = " ".join(lead.inner_text().split())
    bolds = [" ".join(b.split()) for b in lead.locator("strong").all_inner_texts()]
    for answer in bold:
        assert answer in bolds, f"{answer!r} is not in bold in the lead: {lead_text!r}"
    for words in said:
        assert words in lead_text, f"{words!r} is not in the lead: {lead_text!r}"
    for words in emboldened:
        assert any(words in b for b in bolds), f"{words!r} is not in bold in the lead: {lead_text!r}"
    lines = " | ".join(" ".join(line.split()) for line in findings.locator(".body li").all_inner_texts())
    for words in listed:
        assert words in lines, f"{words!r} is not in the lines under the lead: {lines!r}"

    chart = findings.get_by_test_id("chart")
    assert chart.count() == 1 and chart.is_visible()
    image = chart.locator("img")
    alt = image.get_attribute("alt").strip()
    assert alt and all(words in alt for words in drawn), alt
    page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=image.element_handle())  # drawn
    findings.locator("h4").scroll_into_view_if_needed()
    screenshot(page, f"question-{kind}")
    findings.scroll_into_view_if_needed()
    screenshot(page, f"question-{kind}-findings", whole=False)
    assert page.console_errors == []
