"""Builds a twelfth held-out question set: the eleven kinds of holdout8 to holdout10 (significance, top,
which_row, missing, outliers, distribution, crosstab, two_factor, rate, adjusted, forecast), each asked at
least six times in clearly different phrasings, over seven public tables from four packages no earlier set
used.

    python3 -m venv /tmp/h12venv
    /tmp/h12venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h12venv/bin/pip install --no-deps ggplot==0.11.5 econml==0.17.0 Lifetimes==0.11.3 river==0.26.1
    /tmp/h12venv/bin/python bench/eval/holdout12/make.py

Run once by hand: the CSVs it writes and questions.json are committed, so the evaluation itself needs none
of these packages. Each ships its tables in its wheel (no download at run time); they are installed
without their dependencies and only their data files are read, none of them imported. Scored by
``python bench/agents_eval.py --questions-only --set holdout12``.

- ``ggplot`` (yhat's ggplot, not plotnine): ``chopsticks``, the food-pinching efficiency of 31 people
  with chopsticks of six lengths, made one row a person (chopstick_trials, a person number first: a paired
  design, the same people with every length); ``meat``, US red meat and poultry production by month
  1944-2012, million pounds (meat_production); ``pigeons``, the 400 birds of one pigeon race
  (pigeon_race); ``salmon``, the Columbia River salmon catch by year and fisher type 1974-2012
  (salmon_catch);
- ``econml``: ``ihdp/example.csv``, the Infant Health and Development Program, 985 low-birth-weight
  infants, IQ at 36 months, randomised to an intervention (infant_health, a child number first; its
  one-hot site, mother's education and race columns made one column each; IQ at 36 months is missing
  for 77 children, as econml ships it);
- ``Lifetimes``: ``cdnow_customers_summary_with_transactions``, 2,357 CDNOW customers' repeat
  purchases, weeks to the last one, weeks observed and mean spend (cdnow_customers);
- ``river``: ``drift/datasets/uk_coal_employment``, UK coal-mining employment 1913-2017 (coal_employment).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- infant_health: separated by semicolons with decimal commas ("4,32");
- coal_employment: thousands separators in the quoted employment ("1,107,000");
- pigeon_race: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends;
- meat_production: R's ``NA`` for the missing values (poultry not recorded before 1960, other chicken
  before 2001; the missing-value questions count what pandas reads with na_values=["NA", ""]);
- chopstick_trials, infant_health and cdnow_customers: a numeric ID first, a number that looks like a
  measure.

Written apart from the analyst, without reading its code or the earlier sets' questions. The rules (one
function per kind) are bench/eval/reach_rules.py's, with a paired t-test for the paired design; every
figure is computed here from the CSV as written and read back, never typed. Each rule asserts that its
answer is clear-cut and records the runner-up and the other tests in ``note``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, rules
from bench.eval.exports import EXCEL_BOM, SEMICOLON_DECIMAL_COMMA, THOUSANDS
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
    year_of,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"

MESSY = {"infant_health": SEMICOLON_DECIMAL_COMMA, "coal_employment": THOUSANDS, "pigeon_race": EXCEL_BOM}
THOUSANDS_COLUMNS = {"coal_employment": ("employment",)}
R_NA = ("meat_production",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}
LENGTHS = (180, 210, 240, 270, 300, 330)


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _chopstick_trials() -> pd.DataFrame:
    """ggplot's chopsticks: each of 31 people's food-pinching efficiency with each of six chopstick
    lengths (mm), one row a person."""
    data = pd.read_csv(_package_file("ggplot", "datasets", "chopsticks.csv"))
    wide = data.pivot(index="individual", columns="chopstick_length", values="food_pinching_effeciency")
    frame = pd.DataFrame({"person_no": wide.index.to_numpy()})
    for length in LENGTHS:
        frame[f"efficiency_{length}mm"] = wide[length].to_numpy()
    return frame


def _meat_production() -> pd.DataFrame:
    """ggplot's meat: US production by month, million pounds; poultry columns start later."""
    data = pd.read_csv(_package_file("ggplot", "datasets", "meat.csv"))
    data["date"] = data["date"].str[:10]
    return data.rename(columns={"lamb_and_mutton": "lamb_mutton"})


def _pigeon_race() -> pd.DataFrame:
    """ggplot's pigeons: finishing position, breeder, band, name (rarely given), colour code, sex (H hen,
    C cock), entries, arrival (minutes:seconds after the hour), speed (yards a minute), time behind the
    winner; the all-"Yes" eligible column left out."""
    data = pd.read_csv(_package_file("ggplot", "datasets", "pigeons.csv"))
    return data.drop(columns=["eligible"]).rename(
        columns={"pos": "position", "pigeon": "band", "ent": "entries", "speed": "speed_ypm", "to_win": "behind_winner"}
    )


def _salmon_catch() -> pd.DataFrame:
    """ggplot's salmon: the Columbia River catch (fish) by year and fisher type."""
    data = pd.read_csv(_package_file("ggplot", "datasets", "salmon.csv"))
    for column in data.columns[2:]:
        data[column] = data[column].astype("Int64")
    return data.rename(columns={"total_by_fish": "total_catch"})


def _infant_health() -> pd.DataFrame:
    """econml's IHDP example: IQ at 36 months of 985 low-birth-weight infants, the intervention, birth
    weight (g), the mother's age, education and race, the study site, cigarettes a day in pregnancy."""
    data = pd.read_csv(_package_file("econml", "data", "ihdp", "example.csv"))
    education = ["mom.lths", "mom.hs", "mom.scoll", "mom.coll"]
    education_names = ["less than high school", "high school", "some college", "college"]
    sites = [f"site{n}" for n in range(1, 9)]
    assert (data[education].sum(axis=1) == 1).all() and (data[sites].sum(axis=1) == 1).all()
    race = data[["momblack", "momhisp", "momwhite"]]
    assert (race.sum(axis=1) == 1).all()
    return pd.DataFrame(
        {
            "child_no": range(1001, 1001 + len(data)),
            "iq_36_months": data["iqsb.36"],
            "intervention": data["treat"].map({1: "treated", 0: "control"}),
            "sex": data["sex"].map({1: "girl", 0: "boy"}),
            "birth_weight_g": data["bw"],
            "mother_age": data["momage"],
            "mother_education": pd.Categorical.from_codes(
                data[education].to_numpy().argmax(axis=1), education_names
            ).astype(str),
            "mother_race": race.to_numpy().argmax(axis=1),
            "site": data[sites].to_numpy().argmax(axis=1) + 1,
            "cigarettes_per_day": data["cigs"],
            "neonatal_health": data["nnhealth"],
            "ppvt_score": data["ppvt.imp"].round(2),
        }
    ).assign(mother_race=lambda f: f["mother_race"].map({0: "black", 1: "hispanic", 2: "white"}))


def _cdnow_customers() -> pd.DataFrame:
    """Lifetimes' CDNOW summary: repeat purchases, week of the last purchase, weeks observed, mean spend."""
    data = pd.read_csv(_package_file("lifetimes", "datasets", "cdnow_customers_summary_with_transactions.csv"))
    return pd.DataFrame(
        {
            "customer_id": data["ID"],
            "repeat_purchases": data["x"],
            "last_purchase_week": data["t_x"],
            "weeks_observed": data["T"],
            "mean_spend_usd": data["zbar"],
        }
    )


def _coal_employment() -> pd.DataFrame:
    """river's UK coal-mining employment (people) by year, 1913-2017."""
    data = pd.read_csv(_package_file("river", "drift", "datasets", "uk_coal_employment.csv"))
    return data.rename(columns={"Year": "year", "Employment": "employment"})


def build_datasets() -> list[str]:
    frames = {
        "chopstick_trials": _chopstick_trials(),
        "meat_production": _meat_production(),
        "pigeon_race": _pigeon_race(),
        "salmon_catch": _salmon_catch(),
        "infant_health": _infant_health(),
        "cdnow_customers": _cdnow_customers(),
        "coal_employment": _coal_employment(),
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

PAIRED = "paired design: the same 31 people with each chopstick length (paired t-test / Wilcoxon signed-rank)"
BEFORE_2012 = "date < '2012-01-01'"  # the complete years: 2012 stops in November
SPORT, TREATY, NON_TREATY = "fisher_type == 'Sport'", "fisher_type == 'Treaty'", "fisher_type == 'Non-Treaty'"
POSITIVE_REPEAT = "repeat_purchases > 0"
MAIN_COLOURS = "color in ['BB', 'BC', 'BBWF', 'RC']"

QUESTIONS: list[Question] = [
    # significance (a paired design among them)
    (
        "sig_chop_240_330",
        "chopstick_trials",
        "significance",
        "Each person tried every chopstick length. Is the drop in pinching efficiency from 240 mm to 330 mm "
        "chopsticks statistically significant, and how big is the average drop per person?",
        significance_paired("efficiency_240mm", "efficiency_330mm"),
    ),
    (
        "sig_chop_270_300",
        "chopstick_trials",
        "significance",
        "same ppl, 270mm vs 300mm sticks - real difference in efficiency or just noise? whats the mean diff",
        significance_paired("efficiency_270mm", "efficiency_300mm"),
    ),
    (
        "sig_chop_240_270",
        "chopstick_trials",
        "significance",
        "Paired comparison please: within each participant, does food-pinching efficiency differ "
        "significantly between the 240 mm and the 270 mm chopsticks? Report the mean within-person "
        "difference.",
        significance_paired("efficiency_240mm", "efficiency_270mm"),
    ),
    (
        "sig_ihdp_iq",
        "infant_health",
        "significance",
        "Did the intervention actually work? Compare IQ at 36 months between treated and control children — "
        "is the gap statistically significant and how many IQ points is it?",
        significance_two("intervention", "treated", "control", "iq_36_months"),
    ),
    (
        "sig_ihdp_bw_sex",
        "infant_health",
        "significance",
        "Do baby girls and baby boys in this study differ significantly in birth weight? Give the difference in grams.",
        significance_two("sex", "girl", "boy", "birth_weight_g"),
    ),
    (
        "sig_ihdp_edu",
        "infant_health",
        "significance",
        "test whether mean IQ at age 3 differs across the mothers' education levels (more than two groups) — "
        "significant? which level's mean is highest and what is it",
        significance_anova("mother_education", "iq_36_months"),
    ),
    (
        "sig_pigeon_sex",
        "pigeon_race",
        "significance",
        "Are the cocks (C) faster than the hens (H) in this race, or is any difference in speed within "
        "chance? Give the gap between the two average speeds.",
        significance_two("sex", "H", "C", "speed_ypm"),
    ),
    (
        "sig_ihdp_girls_share",
        "infant_health",
        "significance",
        "Was the randomisation balanced on sex: is the share of girls in the treated arm significantly "
        "different from the control arm? Quote the higher of the two percentages.",
        significance_share("intervention", "treated", "control", "sex", "girl"),
    ),
    (
        "sig_ihdp_race_bw",
        "infant_health",
        "significance",
        "Is there a statistically significant difference in mean birth weight between the mothers' racial "
        "groups (black, hispanic, white)? Which group has the heaviest babies on average?",
        significance_anova("mother_race", "birth_weight_g"),
    ),
    # top
    (
        "top_breeders",
        "pigeon_race",
        "top",
        "Top 3 breeders by average bird speed?",
        top("breeder", "speed_ypm", 3, agg="mean"),
    ),
    (
        "top_bands",
        "pigeon_race",
        "top",
        "list the five fastest pigeons (by band number) and their speeds",
        top("band", "speed_ypm", 5),
    ),
    (
        "top_chop_240",
        "chopstick_trials",
        "top",
        "Which three participants were most efficient with the 240 mm chopsticks?",
        top("person_no", "efficiency_240mm", 3),
    ),
    (
        "top_chop_180_worst",
        "chopstick_trials",
        "top",
        "With the shortest (180 mm) chopsticks, who were the three worst performers — lowest pinching efficiency?",
        top("person_no", "efficiency_180mm", 3, largest=False),
    ),
    (
        "top_cdnow_spend",
        "cdnow_customers",
        "top",
        "Name our three biggest spenders: the customers with the highest average spend per repeat purchase.",
        top("customer_id", "mean_spend_usd", 3),
    ),
    (
        "top_salmon_sport",
        "salmon_catch",
        "top",
        "For sport fishers only, what were the three best years by total catch?",
        top("year", "total_catch", 3, where=SPORT),
    ),
    (
        "top_ihdp_sites",
        "infant_health",
        "top",
        "Rank the study sites by the children's mean IQ at 36 months and give me the top two.",
        top("site", "iq_36_months", 2, agg="mean"),
    ),
    # which_row
    (
        "which_coal_low",
        "coal_employment",
        "which_row",
        "Before 2000, in which year was UK coal mining employment at its lowest?",
        which_row("year", "employment", highest=False, where="year < 2000"),
    ),
    (
        "which_coal_postwar",
        "coal_employment",
        "which_row",
        "what was the post-1950 peak year for coal jobs",
        which_row("year", "employment", where="year >= 1950"),
    ),
    (
        "which_meat_pork",
        "meat_production",
        "which_row",
        "In which month was the most pork ever produced?",
        which_row("date", "pork"),
    ),
    (
        "which_meat_veal",
        "meat_production",
        "which_row",
        "Find the month with the smallest veal output on record.",
        which_row("date", "veal", highest=False),
    ),
    (
        "which_salmon_sockeye",
        "salmon_catch",
        "which_row",
        "Looking just at Treaty fishers, which year had there biggest sockeye haul?",
        which_row("year", "sockeye", where=TREATY),
    ),
    (
        "which_pigeon_slowest",
        "pigeon_race",
        "which_row",
        "Which bird (band) was the slowest in the race?",
        which_row("band", "speed_ypm", highest=False),
    ),
    (
        "which_ihdp_lightest",
        "infant_health",
        "which_row",
        "Which child was born lightest? Give the child number and the weight.",
        which_row("child_no", "birth_weight_g", highest=False),
    ),
    # missing
    (
        "miss_meat",
        "meat_production",
        "missing",
        "Which column has the most gaps (missing months) in this meat production file, and how many?",
        missing(),
    ),
    (
        "miss_meat_turkey",
        "meat_production",
        "missing",
        "How many months have no turkey figure?",
        missing("turkey"),
    ),
    (
        "miss_salmon",
        "salmon_catch",
        "missing",
        "data quality check: which field is blank most often?",
        missing(),
    ),
    (
        "miss_salmon_steelhead",
        "salmon_catch",
        "missing",
        "How many rows lack a steelhead count?",
        missing("steelhead"),
    ),
    (
        "miss_pigeon",
        "pigeon_race",
        "missing",
        "Which column of the race results is most often empty, and in how many rows?",
        missing(),
    ),
    (
        "miss_ihdp",
        "infant_health",
        "missing",
        "Are any outcomes missing in the infant study? Tell me which variable has the most missing values and"
        " the count.",
        missing(),
    ),
    # outliers
    (
        "out_salmon_chinook",
        "salmon_catch",
        "outliers",
        "Among the sport-fishing years, is there an unusually large chinook catch — which year is the most "
        "extreme outlier?",
        outliers("year", "chinook", where=SPORT),
    ),
    (
        "out_meat_veal",
        "meat_production",
        "outliers",
        "Flag the most anomalous month for veal production (use a standard outlier rule) — which month and what value?",
        outliers("date", "veal"),
    ),
    (
        "out_pigeon_entries",
        "pigeon_race",
        "outliers",
        "any pigeon with a weird number of entries? most extreme one pls",
        outliers("band", "entries"),
    ),
    (
        "out_cdnow_spend",
        "cdnow_customers",
        "outliers",
        "Among customers who came back at least once, whose average spend is the most extreme outlier?",
        outliers("customer_id", "mean_spend_usd", where=POSITIVE_REPEAT),
    ),
    (
        "out_ihdp_neonatal",
        "infant_health",
        "outliers",
        "Before we run any models on this infant study I want to check the neonatal health score for "
        "data-entry problems: using a standard outlier rule, which child's score lies furthest outside the "
        "normal range, and what is it?",
        outliers("child_no", "neonatal_health"),
    ),
    (
        "out_ihdp_ppvt",
        "infant_health",
        "outliers",
        "Is anyone's PPVT vocabulary score an outlier? Identify the most extreme child.",
        outliers("child_no", "ppvt_score"),
    ),
    (
        "out_salmon_pink",
        "salmon_catch",
        "outliers",
        "For the Non-Treaty fishery, which year's pink salmon catch is an outlier compared with the other years?",
        outliers("year", "pink", where=NON_TREATY),
    ),
    # distribution
    (
        "dist_cdnow_repeat",
        "cdnow_customers",
        "distribution",
        "For customers with at least one repeat purchase, what does the distribution of the number of repeat "
        "purchases look like — symmetric or skewed?",
        distribution("repeat_purchases", where=POSITIVE_REPEAT),
    ),
    (
        "dist_cdnow_weeks",
        "cdnow_customers",
        "distribution",
        "describe the shape of weeks_observed",
        distribution("weeks_observed"),
    ),
    (
        "dist_pigeon_speed",
        "pigeon_race",
        "distribution",
        "Is the distribution of race speeds skewed?",
        distribution("speed_ypm"),
    ),
    (
        "dist_chop_240",
        "chopstick_trials",
        "distribution",
        "How are the efficiency scores at 240 mm distributed? Skewed one way, or fairly symmetric?",
        distribution("efficiency_240mm"),
    ),
    (
        "dist_ihdp_neonatal",
        "infant_health",
        "distribution",
        "Characterise the neonatal health index's distribution: is there a long tail, and on which side?",
        distribution("neonatal_health"),
    ),
    (
        "dist_salmon_total",
        "salmon_catch",
        "distribution",
        "shape of the total catch distribution across all rows?",
        distribution("total_catch"),
    ),
    (
        "dist_meat_beef",
        "meat_production",
        "distribution",
        "Tell me about the distribution of monthly beef production: symmetric, right-skewed or left-skewed, "
        "and its median?",
        distribution("beef"),
    ),
    # crosstab
    (
        "ct_treat_sex",
        "infant_health",
        "crosstab",
        "Is treatment assignment related to the child's sex? Cross-tabulate and test.",
        crosstab("intervention", "sex"),
    ),
    (
        "ct_treat_site",
        "infant_health",
        "crosstab",
        "cross tab intervention by site - any association?",
        crosstab("intervention", "site"),
    ),
    (
        "ct_race_site",
        "infant_health",
        "crosstab",
        "Does the racial mix of the mothers vary from one study site to another?",
        crosstab("mother_race", "site"),
    ),
    (
        "ct_race_edu",
        "infant_health",
        "crosstab",
        "Is mother's education associated with mother's race in this sample? Use a chi-square test and give "
        "the strength of association.",
        crosstab("mother_race", "mother_education"),
    ),
    (
        "ct_sex_edu",
        "infant_health",
        "crosstab",
        "Are the mothers' education levels independent of whether the baby was a boy or a girl?",
        crosstab("sex", "mother_education"),
    ),
    (
        "ct_treat_race",
        "infant_health",
        "crosstab",
        "I'd like to know whether the treated and control groups have the same ethnic composition of mothers "
        "— is intervention associated with mother_race?",
        crosstab("intervention", "mother_race"),
    ),
    # two_factor
    (
        "tf_treat_sex",
        "infant_health",
        "two_factor",
        "Which combination of intervention arm and child sex has the highest average IQ at 36 months?",
        two_factor("intervention", "sex", "iq_36_months"),
    ),
    (
        "tf_treat_race",
        "infant_health",
        "two_factor",
        "Break mean IQ down by arm and by mother's race: which arm-by-race group scores best?",
        two_factor("intervention", "mother_race", "iq_36_months"),
    ),
    (
        "tf_treat_edu_low",
        "infant_health",
        "two_factor",
        "lowest mean iq: which treatment group x mother education cell?",
        two_factor("intervention", "mother_education", "iq_36_months", highest=False),
    ),
    (
        "tf_edu_race",
        "infant_health",
        "two_factor",
        "Considering mother's education and race together, which pairing has children with the highest mean IQ?",
        two_factor("mother_education", "mother_race", "iq_36_months"),
    ),
    (
        "tf_treat_site_low",
        "infant_health",
        "two_factor",
        "Which site and arm together show the weakest average IQ outcome?",
        two_factor("intervention", "site", "iq_36_months", highest=False),
    ),
    (
        "tf_pigeon",
        "pigeon_race",
        "two_factor",
        "Among the four commonest colours (BB, BC, BBWF, RC), which sex-and-colour combination flew fastest "
        "on average?",
        two_factor("sex", "color", "speed_ypm", where=MAIN_COLOURS),
    ),
    # rate
    (
        "rate_chinook",
        "salmon_catch",
        "rate",
        "Per year, whose chinook catch has the most upward (or least downward) trend: Sport, Treaty or "
        "Non-Treaty fishers?",
        rate("fisher_type", "year", "chinook"),
    ),
    (
        "rate_sockeye",
        "salmon_catch",
        "rate",
        "Which fisher type's sockeye catch declined fastest per year?",
        rate("fisher_type", "year", "sockeye", highest=False),
    ),
    (
        "rate_total",
        "salmon_catch",
        "rate",
        "Fit a linear trend of total catch against year for each type of fisher. Which one is falling at the "
        "steepest rate, and by how many fish a year?",
        rate("fisher_type", "year", "total_catch", highest=False),
    ),
    (
        "rate_steelhead",
        "salmon_catch",
        "rate",
        "whose steelhead catch grew quickest over the years",
        rate("fisher_type", "year", "steelhead"),
    ),
    (
        "rate_chum_1990",
        "salmon_catch",
        "rate",
        "Since 1990, which group of fishers has seen its chum catch rise fastest each year?",
        rate("fisher_type", "year", "chum", where="year >= 1990"),
    ),
    (
        "rate_pink",
        "salmon_catch",
        "rate",
        "I'm writing a short note for the fisheries board about pink salmon, and one thing I need is which of"
        " the three fishery types (Sport, Treaty, Non-Treaty) has had the largest yearly increase in pink "
        "salmon catch over the whole period, judged by the slope per year.",
        rate("fisher_type", "year", "pink"),
    ),
    # adjusted
    (
        "adj_bw_iq",
        "infant_health",
        "adjusted",
        "Holding the intervention arm fixed, is birth weight positively or negatively related to IQ at 36 "
        "months? Give the coefficient per gram.",
        adjusted("birth_weight_g", "iq_36_months", "intervention", categorical=True),
    ),
    (
        "adj_ppvt_iq",
        "infant_health",
        "adjusted",
        "Controlling for treatment group, how does the PPVT score relate to IQ at 36 months (direction and slope)?",
        adjusted("ppvt_score", "iq_36_months", "intervention", categorical=True),
    ),
    (
        "adj_momage_ppvt",
        "infant_health",
        "adjusted",
        "net of the mother's race, does mother's age go with higher or lower ppvt scores? regression coef please",
        adjusted("mother_age", "ppvt_score", "mother_race", categorical=True),
    ),
    (
        "adj_cdnow",
        "cdnow_customers",
        "adjusted",
        "After accounting for how many weeks each customer was observed, what is the relationship between "
        "number of repeat purchases and mean spend?",
        adjusted("repeat_purchases", "mean_spend_usd", "weeks_observed", categorical=False),
    ),
    (
        "adj_salmon_chinook",
        "salmon_catch",
        "adjusted",
        "Adjusting for fisher type, has the chinook catch gone up or down per year? Estimate the yearly change.",
        adjusted("year", "chinook", "fisher_type", categorical=True),
    ),
    (
        "adj_pigeon",
        "pigeon_race",
        "adjusted",
        "Controlling for sex, do birds with more entries fly faster or slower? Give the regression coefficient.",
        adjusted("entries", "speed_ypm", "sex", categorical=True),
    ),
    # forecast
    (
        "fc_beef_2015",
        "meat_production",
        "forecast",
        "Using the complete years 1944-2011 only, project total annual beef production for 2015 with a "
        "straight-line trend of the yearly totals.",
        forecast("date", "beef", 2015, stat="sum", period=year_of, where=BEFORE_2012),
    ),
    (
        "fc_turkey_2014",
        "meat_production",
        "forecast",
        "Extrapolate the average monthly turkey production to 2014 with a linear trend over years.",
        forecast("date", "turkey", 2014, period=year_of),
    ),
    (
        "fc_broilers_2016",
        "meat_production",
        "forecast",
        "Based on the full years from 1990 through 2011, what yearly broiler total would a linear trend "
        "predict for 2016?",
        forecast("date", "broilers", 2016, stat="sum", period=year_of, where=BEFORE_2012 + " and date >= '1990-01-01'"),
    ),
    (
        "fc_sport_2016",
        "salmon_catch",
        "forecast",
        "if the trend continues what will the sport fishers total catch be in 2016",
        forecast("year", "total_catch", 2016, where=SPORT),
    ),
    (
        "fc_treaty_coho",
        "salmon_catch",
        "forecast",
        "Forecast the Treaty fishers' coho catch for 2015 from a linear fit over the years.",
        forecast("year", "coho", 2015, where=TREATY),
    ),
    (
        "fc_sockeye_total",
        "salmon_catch",
        "forecast",
        "Add up the sockeye catch of all fisher types each year and extend the straight-line trend: what do "
        "you expect for 2014?",
        forecast("year", "sockeye", 2014, stat="sum"),
    ),
    (
        "fc_coal_1955",
        "coal_employment",
        "forecast",
        "Had the 1913-1950 trend simply carried on, about how many people would UK coal mining have employed "
        "in 1955? Fit a straight line through those years.",
        forecast("year", "employment", 1955, where="year <= 1950"),
    ),
]


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: 66+ questions, every kind at least six times, "not significant" answers, a
    paired design, every dataset asked about, the messy files read right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) >= 66
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == KINDS and counts.min() >= 6, counts
    assert {e["dataset"] for e in entries} == set(names)
    assert sum(e["answer"] == "not significant" for e in entries if e["kind"] == "significance") >= 2
    assert sum(bool(e["note"].get("n_pairs")) for e in entries if e["kind"] == "significance") >= 3
    assert frames["infant_health"]["ppvt_score"].dtype == float and len(frames["infant_health"]) == 985
    assert frames["coal_employment"]["employment"].dtype == "int64"
    assert frames["pigeon_race"].columns[0] == "position" and len(frames["pigeon_race"]) == 400
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
