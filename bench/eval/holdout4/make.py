"""Builds a fourth held-out question set: public tables from yet other packages, several of them messy files.

    python3 -m venv /tmp/h4venv
    /tmp/h4venv/bin/pip install "pandas<3" scipy palmerpenguins==0.1.6 lifelines==0.30.3 linearmodels==7.1 \
        pmdarima==2.1.1
    /tmp/h4venv/bin/python bench/eval/holdout4/make.py

(lifelines 0.30.3 wants pandas < 3: the venv had 2.3.3; the answers were read back and checked again
with the project's pandas 3.1.1, which gives the same.) Run once by hand: the CSVs it writes,
questions.json and ambiguous.json are committed, so the evaluation itself needs none of these packages.
Scored by ``python bench/agents_eval.py --questions-only --set holdout4``.

Written apart from the analyst, without reading its code and before any tuning on it: the eight kinds
of holdout3 (answers and figures from bench/eval/rules.py, with its strict checks), in fresh words, over
data no earlier set used: the Palmer penguins (``palmerpenguins``), the survival tables ``lifelines``
ships (rossi, gbsg2, lung, kidney_transplant, canadian_senators, dd), econometrics tables of
``linearmodels`` (mroz, munnell, jobtraining, wage_panel, birthweight) and the time series of
``pmdarima`` (airpassengers, wineind).

The messy files, as real exports come (each is read back here with the options that read it right,
which is what the analyst must work out for itself):

- state_economies: separated by semicolons, with decimal commas ("15032,67");
- working_wives: thousands separators in quoted numbers ("16,310");
- penguins, lung_cancer and michigan_firms: R's ``NA`` for the missing values;
- parolees (numbered prisoners), young_men_wages (numbered men) and michigan_firms (six-digit firm
  codes): identifiers that look like numbers;
- breast_cancer_trial: an Excel "CSV UTF-8" export, with a byte-order mark and CRLF line ends;
- canadian_senators: an Excel export in Windows-1252 (accented names of senators and prime ministers:
  "Chrétien"), CRLF line ends.

``ambiguous.json``: questions over the same tables with two or three readings a careful analyst would
ask about; each reading's answer and figure computed the same way.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, rules
from bench.eval.exports import EXCEL_BOM, EXCEL_CP1252, SEMICOLON_DECIMAL_COMMA, THOUSANDS
from bench.eval.rules import (
    compare,
    direction,
    growth,
    most_associated,
    rank_differences,
    share,
    statistic,
    subset,
    trend,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 20261207

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "state_economies": SEMICOLON_DECIMAL_COMMA,
    "working_wives": THOUSANDS,
    "breast_cancer_trial": EXCEL_BOM,
    "canadian_senators": EXCEL_CP1252,
}
R_NA = ("penguins", "lung_cancer", "michigan_firms")  # "NA" is pandas' default missing marker
THOUSANDS_COLUMNS = {"working_wives": ("Hours Worked 1975", "Husband Hours 1975", "Family Income 1975")}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _yes_no(values: pd.Series) -> np.ndarray:
    return np.where(values == 1, "yes", "no")


def _penguins() -> pd.DataFrame:
    """344 penguins of three species on three islands of the Palmer Archipelago, 2007-2009."""
    import palmerpenguins

    return palmerpenguins.load_penguins()


def _parolees() -> pd.DataFrame:
    """432 men released from Maryland prisons, followed for a year (Rossi et al.; lifelines ``rossi``),
    numbered in a shuffled order (so the number says nothing)."""
    from lifelines.datasets import load_rossi

    data = load_rossi().sample(frac=1, random_state=SEED).reset_index(drop=True)
    return pd.DataFrame(
        {
            "prisoner": np.arange(1, len(data) + 1),
            "financial_aid": _yes_no(data["fin"]),
            "age_at_release": data["age"],
            "race": np.where(data["race"] == 1, "black", "other"),
            "worked_before": _yes_no(data["wexp"]),
            "married": _yes_no(data["mar"]),
            "on_parole": _yes_no(data["paro"]),
            "prior_convictions": data["prio"],
            "weeks_followed": data["week"],
            "arrested": _yes_no(data["arrest"]),
        }
    )


def _breast_cancer_trial() -> pd.DataFrame:
    """686 women of the German Breast Cancer Study Group trial (lifelines ``gbsg2``), an Excel export."""
    from lifelines.datasets import load_gbsg2

    data = load_gbsg2()
    return pd.DataFrame(
        {
            "Hormone Therapy": data["horTh"],
            "Age": data["age"],
            "Menopausal Status": data["menostat"].map({"Pre": "pre", "Post": "post"}),
            "Tumour Size (mm)": data["tsize"],
            "Tumour Grade": data["tgrade"],
            "Positive Lymph Nodes": data["pnodes"],
            "Progesterone Receptor (fmol/l)": data["progrec"],
            "Oestrogen Receptor (fmol/l)": data["estrec"],
            "Days Followed": data["time"],
            "Recurrence": _yes_no(data["cens"]),
        }
    )


def _lung_cancer() -> pd.DataFrame:
    """228 patients with advanced lung cancer (NCCTG; lifelines ``lung``), institutions by number."""
    from lifelines.datasets import load_lung

    data = load_lung()
    return pd.DataFrame(
        {
            "institution": data["inst"].astype("Int64"),
            "survival_days": data["time"],
            "died": _yes_no(data["status"]),
            "age": data["age"],
            "sex": data["sex"].map({1: "male", 2: "female"}),
            "ecog_score": data["ph.ecog"].astype("Int64"),
            "karnofsky_doctor": data["ph.karno"].astype("Int64"),
            "karnofsky_patient": data["pat.karno"].astype("Int64"),
            "meal_calories": data["meal.cal"].astype("Int64"),
            "weight_loss_lb": data["wt.loss"].astype("Int64"),
        }
    )


def _kidney_transplants() -> pd.DataFrame:
    """863 kidney transplant patients (Ohio State; lifelines ``kidney_transplant``), race and sex split."""
    from lifelines.datasets import load_kidney_transplant

    data = load_kidney_transplant()
    black = (data["black_male"] + data["black_female"]) == 1
    male = (data["black_male"] + data["white_male"]) == 1
    return pd.DataFrame(
        {
            "days_after_transplant": data["time"],
            "died": _yes_no(data["death"]),
            "age_at_transplant": data["age"],
            "race": np.where(black, "black", "white"),
            "sex": np.where(male, "male", "female"),
        }
    )


def _working_wives() -> pd.DataFrame:
    """753 married women in 1975 (Mroz 1987; linearmodels ``mroz``); no wage where she did not work."""
    from linearmodels.datasets import mroz

    data = mroz.load()
    return pd.DataFrame(
        {
            "In Labour Force": _yes_no(data["inlf"]),
            "Hours Worked 1975": data["hours"].astype(int),
            "Kids Under 6": data["kidslt6"].astype(int),
            "Kids 6 to 18": data["kidsge6"].astype(int),
            "Age": data["age"].astype(int),
            "Years of School": data["educ"].astype(int),
            "Hourly Wage": data["wage"].round(2),
            "Husband Hours 1975": data["hushrs"].astype(int),
            "Husband Age": data["husage"].astype(int),
            "Husband Years of School": data["huseduc"].astype(int),
            "Husband Hourly Wage": data["huswage"].round(2),
            "Family Income 1975": data["faminc"].astype(int),
            "Lives in City": _yes_no(data["city"]),
            "Years Experience": data["exper"].astype(int),
        }
    )


CUT_STATE_NAMES = {  # the source cuts names at 11 characters
    "MASSACHUSET": "MASSACHUSETTS",
    "NEW_HAMPSHI": "NEW_HAMPSHIRE",
    "NORTH_CAROL": "NORTH_CAROLINA",
    "NORTH_DAKOT": "NORTH_DAKOTA",
    "PENNSYLVANI": "PENNSYLVANIA",
    "RHODE_ISLAN": "RHODE_ISLAND",
    "SOUTH_CAROL": "SOUTH_CAROLINA",
    "SOUTH_DAKOT": "SOUTH_DAKOTA",
    "TENNESSE": "TENNESSEE",
    "WEST_VIRGIN": "WEST_VIRGINIA",
}


def _state_economies() -> pd.DataFrame:
    """48 US states, 1970-1986 (Munnell 1990; linearmodels ``munnell``), capital stocks in $m, employment
    in thousands."""
    from linearmodels.datasets import munnell

    data = munnell.load()
    return pd.DataFrame(
        {
            "State": data["STATE"].replace(CUT_STATE_NAMES).str.replace("_", " ").str.title(),
            "Year": data["YR"].astype(int),
            "Public Capital": data["P_CAP"].round(2),
            "Highways": data["HWY"].round(2),
            "Water and Sewer": data["WATER"].round(2),
            "Utilities": data["UTIL"].round(2),
            "Private Capital": data["PC"].round(2),
            "Gross State Product": data["GSP"].astype(int),
            "Employment (000)": data["EMP"].round(1),
            "Unemployment Rate": data["UNEMP"].round(1),
        }
    )


def _michigan_firms() -> pd.DataFrame:
    """157 Michigan manufacturing firms, 1987-1989, and the state's job-training grants (Holzer et al.
    1993; linearmodels ``jobtraining``), firms by their six-digit code."""
    from linearmodels.datasets import jobtraining

    data = jobtraining.load()
    return pd.DataFrame(
        {
            "firm": data["fcode"].astype(int),
            "year": data["year"].astype(int),
            "employees": data["employ"].astype("Int64"),
            "sales": data["sales"].astype("Int64"),
            "avg_salary": data["avgsal"].astype("Int64"),
            "scrap_rate": data["scrap"],
            "rework_rate": data["rework"],
            "training_hours_per_employee": data["hrsemp"].round(2),
            "unionised": data["union"].astype(int),
            "grant": data["grant"].astype(int),
        }
    )


def _young_men_wages() -> pd.DataFrame:
    """545 young men, 1980-1987 (Vella and Verbeek 1998; linearmodels ``wage_panel``), numbered as the
    source numbers them; the hourly wage from its logarithm."""
    from linearmodels.datasets import wage_panel

    data = wage_panel.load()
    return pd.DataFrame(
        {
            "person": data["nr"].astype(int),
            "year": data["year"].astype(int),
            "black": data["black"].astype(int),
            "hispanic": data["hisp"].astype(int),
            "married": data["married"].astype(int),
            "union": data["union"].astype(int),
            "school_years": data["educ"].astype(int),
            "experience": data["exper"].astype(int),
            "hours": data["hours"].astype(int),
            "hourly_wage": np.exp(data["lwage"]).round(2),
        }
    )


def _birth_weights() -> pd.DataFrame:
    """1,388 births in 1988 (Mullahy 1997; linearmodels ``birthweight``); the parents' schooling missing
    where the survey has none (the source's Stata-style "." written as an empty field)."""
    from linearmodels.datasets import birthweight

    data = birthweight.load()
    data.columns = data.columns.str.strip()
    return pd.DataFrame(
        {
            "birth_weight_oz": data["bwght"].astype(int),
            "cigarettes_per_day": data["cigs"].astype(int),
            "family_income_k": data["faminc"],
            "mother_schooling": pd.to_numeric(data["motheduc"], errors="coerce").astype("Int64"),
            "father_schooling": pd.to_numeric(data["fatheduc"], errors="coerce").astype("Int64"),
            "birth_order": data["parity"].astype(int),
            "baby_sex": np.where(data["male"] == 1, "boy", "girl"),
            "white": data["white"].astype(int),
            "cigarette_price_cents": data["cigprice"],
        }
    )


def _canadian_senators() -> pd.DataFrame:
    """933 appointments to the Senate of Canada, 1867 on (lifelines ``canadian_senators``), an Excel
    export in Windows-1252."""
    from lifelines.datasets import load_canadian_senators

    data = load_canadian_senators()
    return pd.DataFrame(
        {
            "Name": data["Name"],
            "Party": data["Political Affiliation at Appointment"],
            "Province": data["Province / Territory"],
            "Appointed on advice of": data["Appointed on the advice of"],
            "Appointed": data["start_date"].astype(str).str[:10],
            "Left": data["end_date"].astype(str).str[:10].where(data["observed"]),  # empty: still sitting
            "Reason": data["reason"],
            "Days in Senate": data["diff_days"].astype(int),
            "Still sitting": np.where(data["observed"], "no", "yes"),
        }
    )


def _political_leaders() -> pd.DataFrame:
    """1,808 spells of national leaders, 1946-2008 (Cheibub et al.'s democracy-dictatorship data;
    lifelines ``dd``)."""
    from lifelines.datasets import load_dd

    data = load_dd()
    return pd.DataFrame(
        {
            "country": data["ctryname"],
            "continent": data["un_continent_name"],
            "region": data["un_region_name"],
            "leader": data["ehead"],
            "regime": data["regime"],
            "democracy": data["democracy"],
            "start_year": data["start_year"].astype(int),
            "years_in_office": data["duration"].astype(int),
            "left_office": _yes_no(data["observed"]),
        }
    )


def _monthly(series: pd.Series, start: str, column: str) -> pd.DataFrame:
    """A monthly series as a year, a month's name and the value: as a spreadsheet lays it out."""
    months = pd.period_range(start, periods=len(series), freq="M")
    return pd.DataFrame({"year": months.year, "month": months.strftime("%b"), column: series.astype(int).to_numpy()})


def _air_passengers() -> pd.DataFrame:
    """International airline passengers a month, in thousands, 1949-1960 (Box and Jenkins; pmdarima)."""
    from pmdarima.datasets import load_airpassengers

    return _monthly(load_airpassengers(as_series=True), "1949-01", "passengers_000")


def _wine_sales() -> pd.DataFrame:
    """Australian wine makers' monthly sales of wine in bottles of a litre or less, in kilolitres
    (pmdarima ``wineind``), 1980-1993: the whole years (1994 stops in August)."""
    from pmdarima.datasets import load_wineind

    frame = _monthly(load_wineind(as_series=True), "1980-01", "kilolitres")
    return frame[frame["year"] < 1994].reset_index(drop=True)


def build_datasets() -> list[str]:
    frames = {
        "penguins": _penguins(),
        "parolees": _parolees(),
        "breast_cancer_trial": _breast_cancer_trial(),
        "lung_cancer": _lung_cancer(),
        "kidney_transplants": _kidney_transplants(),
        "working_wives": _working_wives(),
        "state_economies": _state_economies(),
        "michigan_firms": _michigan_firms(),
        "young_men_wages": _young_men_wages(),
        "birth_weights": _birth_weights(),
        "canadian_senators": _canadian_senators(),
        "political_leaders": _political_leaders(),
        "air_passengers": _air_passengers(),
        "wine_sales": _wine_sales(),
    }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare
    ("h4-compare-penguins-mass", "penguins", "compare",
     "which penguin species is heaviest? avg body mass",
     compare("species", "body_mass_g")),
    ("h4-compare-parolees-aid", "parolees", "compare",
     "The released prisoners who got financial aid: did they stay out of trouble longer than those who "
     "didn't? Average weeks followed for each group please.",
     compare("financial_aid", "weeks_followed")),
    ("h4-compare-gbsg-grade-size", "breast_cancer_trial", "compare",
     "Which tumour grade comes with the biggest tumours, on average?",
     compare("Tumour_Grade", "Tumour_Size__mm_")),
    ("h4-compare-lung-sex", "lung_cancer", "compare",
     "In the lung cancer study, who survived longer on average, men or women?",
     compare("sex", "survival_days")),
    ("h4-compare-wives-income", "working_wives", "compare",
     "Do families where the wife works have more income? Mean 1975 family income, working vs not working.",
     compare("In_Labour_Force", "Family_Income_1975")),
    ("h4-compare-senators-reason", "canadian_senators", "compare",
     "Senators who died in office, resigned or retired: which of those ways out came after the longest "
     "average stay, in days?",
     compare("Reason", "Days_in_Senate")),
    ("h4-compare-leaders-regime", "political_leaders", "compare",
     "What kind of regime keeps its leaders in power the longest? Mean years in office by regime type.",
     compare("regime", "years_in_office")),
    ("h4-compare-states-unemployment", "state_economies", "compare",
     "Which state had the highest unemployment over 1970-86, averaging its yearly rates?",
     compare("State", "Unemployment_Rate")),
    ("h4-compare-wine-month", "wine_sales", "compare",
     "Slowest month of the year for wine sales? Average kilolitres per calendar month across all years.",
     compare("month", "kilolitres", high=False)),
    # rank_differences
    ("h4-rank-penguins-species", "penguins", "rank_differences",
     "Which body measurement tells the three penguin species apart best?",
     rank_differences("species")),
    ("h4-rank-penguins-sex", "penguins", "rank_differences",
     "male vs female penguins - where's the biggest difference (standardised)?",
     rank_differences("sex")),
    ("h4-rank-parolees-arrested", "parolees", "rank_differences",
     "What separates the men who were rearrested from those who weren't, most clearly?",
     rank_differences("arrested")),
    ("h4-rank-gbsg-recurrence", "breast_cancer_trial", "rank_differences",
     "Patients whose cancer came back versus those whose didn't: on which variable do they differ most, "
     "relative to its spread?",
     rank_differences("Recurrence")),
    ("h4-rank-lung-died", "lung_cancer", "rank_differences",
     "Which measurement differs most between the lung cancer patients who died and those who were censored?",
     rank_differences("died")),
    ("h4-rank-wives-city", "working_wives", "rank_differences",
     "City vs country wives: which characteristic differs the most between the two?",
     rank_differences("Lives_in_City")),
    ("h4-rank-youngmen-union", "young_men_wages", "rank_differences",
     "Union members compared with non-members — which variable shows the largest gap (Cohen's d)?",
     rank_differences("union")),
    ("h4-rank-births-sex", "birth_weights", "rank_differences",
     "Boys vs girls at birth: what differs most between them?",
     rank_differences("baby_sex")),
    # association
    ("h4-assoc-penguins-flipper-mass", "penguins", "association",
     "Do penguins with longer flippers weigh more? Give me the correlation and its sign.",
     direction("flipper_length_mm", "body_mass_g")),
    ("h4-assoc-penguins-bill-depth", "penguins", "association",
     "Across all penguins, is bill depth positively or negatively correlated with body mass?",
     direction("bill_depth_mm", "body_mass_g")),
    ("h4-assoc-births-cigs", "birth_weights", "association",
     "Smoking in pregnancy and birth weight: which way does the relationship go, and how strong (r)?",
     direction("cigarettes_per_day", "birth_weight_oz")),
    ("h4-assoc-births-top", "birth_weights", "association",
     "What's birth weight most strongly correlated with in this data?",
     most_associated("birth_weight_oz")),
    ("h4-assoc-wives-wage", "working_wives", "association",
     "For the women who worked, what goes with a higher hourly wage most closely?",
     most_associated("Hourly_Wage")),
    ("h4-assoc-states-gsp", "state_economies", "association",
     "Of public capital, private capital and unemployment, which tracks gross state product most closely?",
     most_associated("Gross_State_Product", among=("Public_Capital", "Private_Capital", "Unemployment_Rate"))),
    ("h4-assoc-lung-karnofsky", "lung_cancer", "association",
     "Do doctors and patients agree on the Karnofsky performance score? Correlation between the two ratings.",
     direction("karnofsky_doctor", "karnofsky_patient")),
    ("h4-assoc-parolees-arrest", "parolees", "association",
     "Which variable is most strongly related to whether a man was arrested?",
     most_associated("arrested")),
    ("h4-assoc-youngmen-school", "young_men_wages", "association",
     "More schooling, higher pay? Correlate years of school with the hourly wage.",
     direction("school_years", "hourly_wage")),
    # trend
    ("h4-trend-air-mean", "air_passengers", "trend",
     "How has air traffic developed from 1949 to 1960? Use the average monthly passengers for each year.",
     trend("year", "passengers_000")),
    ("h4-trend-air-total", "air_passengers", "trend",
     "Total passengers per year: up or down over the period?",
     trend("year", "passengers_000", stat="sum")),
    ("h4-trend-wine", "wine_sales", "trend",
     "Australian wine sales — growing or shrinking? yearly average of the monthly kilolitres",
     trend("year", "kilolitres")),
    ("h4-trend-states-unemployment", "state_economies", "trend",
     "What happened to the average state unemployment rate between 1970 and 1986?",
     trend("Year", "Unemployment_Rate")),
    ("h4-trend-states-gsp-total", "state_economies", "trend",
     "Add up gross state product over all 48 states for each year. Which way is it going?",
     trend("Year", "Gross_State_Product", stat="sum")),
    ("h4-trend-youngmen-wage", "young_men_wages", "trend",
     "Did these young men's hourly wages rise over 1980-87? Mean per year.",
     trend("year", "hourly_wage")),
    ("h4-trend-youngmen-hours", "young_men_wages", "trend",
     "Annual hours worked: trend in the yearly mean?",
     trend("year", "hours")),
    ("h4-trend-michigan-scrap", "michigan_firms", "trend",
     "Did scrap rates at the Michigan plants improve between 1987 and 1989 (mean scrap rate each year)?",
     trend("year", "scrap_rate")),
    ("h4-trend-michigan-training", "michigan_firms", "trend",
     "How did training hours per employee move over the three years, on average?",
     trend("year", "training_hours_per_employee")),
    # share
    ("h4-share-penguins-species", "penguins", "share",
     "What percentage of the penguins sampled were of the most common species?",
     share("species")),
    ("h4-share-penguins-island", "penguins", "share",
     "Which island contributed the most birds to the sample, as a share?",
     share("island")),
    ("h4-share-senators-province", "canadian_senators", "share",
     "Which province has had the most senators appointed? % of all appointments",
     share("Province")),
    ("h4-share-senators-party", "canadian_senators", "share",
     "What share of Senate appointments went to the biggest party?",
     share("Party")),
    ("h4-share-leaders-regime", "political_leaders", "share",
     "Breakdown of leadership spells by regime type: which type is most common and what share is it?",
     share("regime")),
    ("h4-share-leaders-continent-years", "political_leaders", "share",
     "Which continent accounts for the largest share of all the years leaders spent in office?",
     share("continent", of="years_in_office")),
    ("h4-share-gbsg-grade", "breast_cancer_trial", "share",
     "Tumour grade distribution — which grade dominates and what percent of patients have it?",
     share("Tumour_Grade")),
    ("h4-share-lung-sex", "lung_cancer", "share",
     "How are the lung cancer patients split by sex? Percentage of the larger group.",
     share("sex")),
    ("h4-share-wine-month", "wine_sales", "share",
     "Which calendar month brings in the biggest slice of total wine sales over the 14 years?",
     share("month", of="kilolitres")),
    # growth
    ("h4-growth-states-gsp", "state_economies", "growth",
     "Which state's economy (gross state product) grew the most in percentage terms between 1970 and 1986?",
     growth("State", "Year", "Gross_State_Product")),
    ("h4-growth-states-employment", "state_economies", "growth",
     "Biggest % increase in employment from 1970 to 1986 — which state?",
     growth("State", "Year", "Employment__000_")),
    ("h4-growth-states-unemployment-down", "state_economies", "growth",
     "Did any state's unemployment rate come down over the period? Which one fell the most, in percent?",
     growth("State", "Year", "Unemployment_Rate", high=False)),
    ("h4-growth-states-highways", "state_economies", "growth",
     "Which state expanded its highway capital stock the most, proportionally, 1970 to 1986?",
     growth("State", "Year", "Highways")),
    ("h4-growth-air-month", "air_passengers", "growth",
     "Comparing 1949 with 1960, passenger numbers for which month of the year grew by the largest percentage?",
     growth("month", "year", "passengers_000")),
    ("h4-growth-air-month-least", "air_passengers", "growth",
     "And which calendar month grew least from 1949 to 1960 (percent change)?",
     growth("month", "year", "passengers_000", high=False)),
    ("h4-growth-wine-month", "wine_sales", "growth",
     "From 1980 to 1993, which month's wine sales rose the most in % terms?",
     growth("month", "year", "kilolitres")),
    ("h4-growth-youngmen-person", "young_men_wages", "growth",
     "Which of the men (by his number) had the largest percentage rise in hourly wage between 1980 and 1987?",
     growth("person", "year", "hourly_wage")),
    # statistic
    ("h4-stat-penguins-flipper-median", "penguins", "statistic",
     "median flipper length?",
     statistic("flipper_length_mm", "median")),
    ("h4-stat-parolees-priors-p90", "parolees", "statistic",
     "What's the 90th percentile of prior convictions among the released men?",
     statistic("prior_convictions", "p90")),
    ("h4-stat-gbsg-nodes-max", "breast_cancer_trial", "statistic",
     "Most positive lymph nodes any patient had?",
     statistic("Positive_Lymph_Nodes", "max")),
    ("h4-stat-lung-age-sd", "lung_cancer", "statistic",
     "Standard deviation of patient age in the lung cancer data?",
     statistic("age", "sd")),
    ("h4-stat-wives-income-p25", "working_wives", "statistic",
     "Bottom quarter of families: below what 1975 family income do the lowest 25% fall?",
     statistic("Family_Income_1975", "p25")),
    ("h4-stat-births-p10", "birth_weights", "statistic",
     "Lowest tenth of births: what birth weight (oz) marks the 10th percentile?",
     statistic("birth_weight_oz", "p10")),
    ("h4-stat-senators-max", "canadian_senators", "statistic",
     "Longest time anyone has spent in the Senate, in days?",
     statistic("Days_in_Senate", "max")),
    ("h4-stat-leaders-continent-p90", "political_leaders", "statistic",
     "On which continent do the longest-serving leaders last longest? Compare the 90th percentile of years in "
     "office by continent.",
     statistic("years_in_office", "p90", group="continent")),
    ("h4-stat-kidney-race-median", "kidney_transplants", "statistic",
     "Median age at transplant for black versus white patients — which group is older?",
     statistic("age_at_transplant", "median", group="race")),
    # filter
    ("h4-filter-penguins-gentoo-male", "penguins", "filter",
     "Average body mass of male Gentoo penguins?",
     subset("body_mass_g", "species == 'Gentoo' and sex == 'male'")),
    ("h4-filter-parolees-young-arrested", "parolees", "filter",
     "Among men aged 19 or younger at release who were re-arrested, what's the mean number of prior "
     "convictions?",
     subset("prior_convictions", "age_at_release <= 19 and arrested == 'yes'")),
    ("h4-filter-gbsg-nodes", "breast_cancer_trial", "filter",
     "For women with 11 or more positive nodes, what was the average tumour size?",
     subset("Tumour_Size__mm_", "Positive_Lymph_Nodes >= 11")),
    ("h4-filter-lung-ecog0", "lung_cancer", "filter",
     "Median survival in days for the patients the doctor scored ECOG 0 (fully active)?",
     subset("survival_days", "ecog_score == 0", stat="median")),
    ("h4-filter-wives-young-kids", "working_wives", "filter",
     "Mothers with at least one child under six: how many hours did they work in 1975, on average?",
     subset("Hours_Worked_1975", "Kids_Under_6 >= 1")),
    ("h4-filter-states-1982", "state_economies", "filter",
     "What was the mean unemployment rate across the states in the 1982 recession year?",
     subset("Unemployment_Rate", "Year == 1982")),
    ("h4-filter-youngmen-union-1987", "young_men_wages", "filter",
     "In 1987, what did union members earn per hour on average?",
     subset("hourly_wage", "year == 1987 and union == 1")),
    ("h4-filter-senators-1800s-resigned", "canadian_senators", "filter",
     "Senators appointed in the 1800s who resigned: how many days had they served, on average?",
     subset("Days_in_Senate", "Appointed < '1900' and Reason == 'Resignation'")),
    ("h4-filter-air-summer-1958", "air_passengers", "filter",
     "Mean monthly passengers in the summer of 1958 (June, July, August)?",
     subset("passengers_000", "year == 1958 and month in ['Jun', 'Jul', 'Aug']")),
    ("h4-filter-births-smokers", "birth_weights", "filter",
     "Average birth weight of babies whose mothers smoked during pregnancy (any cigarettes a day)?",
     subset("birth_weight_oz", "cigarettes_per_day > 0")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# The ambiguous questions: (id, dataset, question, [(reading, kind, rule), ...])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h4-amb-penguins-heaviest", "penguins", "Which penguins are the heaviest?", [
        ("by species: mean body mass per species", "compare", compare("species", "body_mass_g")),
        ("by sex: mean body mass of males and females", "compare", compare("sex", "body_mass_g")),
        ("by island: mean body mass per island", "compare", compare("island", "body_mass_g")),
    ]),
    ("h4-amb-states-grew-most", "state_economies", "Which state grew the most between 1970 and 1986?", [
        ("gross state product, percent change", "growth", growth("State", "Year", "Gross_State_Product")),
        ("employment, percent change", "growth", growth("State", "Year", "Employment__000_")),
    ]),
    ("h4-amb-states-worst-unemployment", "state_economies", "Which state had the worst unemployment?", [
        ("highest mean rate over 1970-1986", "compare", compare("State", "Unemployment_Rate")),
        ("highest rate in any single year", "statistic", statistic("Unemployment_Rate", "max", group="State")),
        ("highest rate in the last year, 1986", "compare",
         compare("State", "Unemployment_Rate", where="Year == 1986")),
    ]),
    ("h4-amb-wives-typical-income", "working_wives", "What's a typical family income here?", [
        ("the mean family income", "statistic", statistic("Family_Income_1975", "mean")),
        ("the median family income", "statistic", statistic("Family_Income_1975", "median")),
    ]),
    ("h4-amb-senators-longest-party", "canadian_senators", "Which party's senators served the longest?", [
        ("longest mean stay per senator", "compare", compare("Party", "Days_in_Senate")),
        ("most days served in total, all its senators together", "compare",
         compare("Party", "Days_in_Senate", stat="sum")),
        ("the party of the single longest-serving senator", "statistic",
         statistic("Days_in_Senate", "max", group="Party")),
    ]),
    ("h4-amb-kidney-older", "kidney_transplants", "Which patients were older when they got their transplant?", [
        ("by race: mean age at transplant", "compare", compare("race", "age_at_transplant")),
        ("by sex: mean age at transplant", "compare", compare("sex", "age_at_transplant")),
    ]),
    ("h4-amb-leaders-regime", "political_leaders", "Which type of regime dominates this data?", [
        ("most leadership spells (share of rows)", "share", share("regime")),
        ("most years in office (share of the total years)", "share", share("regime", of="years_in_office")),
    ]),
    ("h4-amb-penguins-gentoo-size", "penguins", "How big are Gentoo penguins on average?", [
        ("body mass", "filter", subset("body_mass_g", "species == 'Gentoo'")),
        ("flipper length", "filter", subset("flipper_length_mm", "species == 'Gentoo'")),
        ("bill length", "filter", subset("bill_length_mm", "species == 'Gentoo'")),
    ]),
    ("h4-amb-air-1960", "air_passengers", "Passengers in 1960?", [
        ("the year's total", "filter", subset("passengers_000", "year == 1960", stat="sum")),
        ("the average month", "filter", subset("passengers_000", "year == 1960")),
    ]),
    ("h4-amb-wine-strongest-month", "wine_sales", "Which is the strongest month for wine sales?", [
        ("the highest mean sales", "compare", compare("month", "kilolitres")),
        ("the fastest growth from 1980 to 1993, in percent", "growth", growth("month", "year", "kilolitres")),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 60 questions, every kind at least eight times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=8, at_least=60)
    assert len(names) >= 10 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("prisoner", "person", "firm", "institution") for e in entries)
    assert frames["state_economies"]["Public_Capital"].dtype == float and len(frames["state_economies"]) == 816
    assert frames["working_wives"]["Family_Income_1975"].dtype == "int64"
    assert frames["working_wives"]["Hourly_Wage"].isna().sum() == 325
    for name in R_NA:
        assert frames[name].isna().any().any(), name
    assert frames["breast_cancer_trial"].columns[0] == "Hormone_Therapy"
    assert frames["canadian_senators"]["Appointed_on_advice_of"].str.contains("Chrétien").any()


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    # every threshold the questions use says whether its value is in ("19 or younger", "11 or more")
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
