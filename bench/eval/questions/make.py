"""Builds the analyst's question set: the datasets and each question's expected answer.

    /work/main/.venv/bin/python bench/eval/questions/make.py

Writes ``datasets/<name>.csv`` (public data shipped with scikit-learn and statsmodels, and tables
generated with a fixed seed) and ``questions.json``. Every expected answer is computed by the rules in
bench/eval/rules.py (what each kind's answer and figure are) from the CSV as written, read back from
disk as the analyst will read it. This set keeps the looser checks it was written with
(``strict=False``); the holdout sets use the strict ones.

The bench (bench/agents_eval.py, ``evaluate_questions``) asks each question and scores the first
sentence of the analyst's "findings" section against these answers.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import rules

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 20240611


# ---------------------------------------------------------------------------------------------------
# The datasets


def _iris() -> pd.DataFrame:
    from sklearn.datasets import load_iris

    data = load_iris()
    frame = pd.DataFrame(data.data, columns=["sepal_length_cm", "sepal_width_cm", "petal_length_cm", "petal_width_cm"])
    frame["species"] = [data.target_names[t] for t in data.target]
    return frame


def _wine() -> pd.DataFrame:
    from sklearn.datasets import load_wine

    data = load_wine()
    columns = [c.replace("od280/od315_of_diluted_wines", "od280_od315") for c in data.feature_names]
    frame = pd.DataFrame(data.data, columns=columns)
    # The three cultivars of the UCI wine data (Forina et al.): Barolo, Grignolino, Barbera.
    frame["cultivar"] = [("barolo", "grignolino", "barbera")[t] for t in data.target]
    return frame


def _breast_cancer() -> pd.DataFrame:
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    frame = pd.DataFrame(data.data, columns=[c.replace(" ", "_") for c in data.feature_names])
    frame["diagnosis"] = [data.target_names[t] for t in data.target]  # 0 malignant, 1 benign
    return frame


def _diabetes() -> pd.DataFrame:
    from sklearn.datasets import load_diabetes

    data = load_diabetes(scaled=False)
    # s1..s6 as the dataset's description names them
    names = {
        "bp": "blood_pressure",
        "s1": "total_cholesterol",
        "s2": "ldl",
        "s3": "hdl",
        "s4": "cholesterol_ratio",
        "s5": "log_triglycerides",
        "s6": "glucose",
    }
    frame = pd.DataFrame(data.data, columns=[names.get(c, c) for c in data.feature_names])
    frame["age"] = frame["age"].astype(int)
    frame["sex"] = frame["sex"].astype(int)
    frame["progression"] = data.target.astype(int)
    return frame


def _grunfeld() -> pd.DataFrame:
    import statsmodels.api as sm

    frame = sm.datasets.grunfeld.load_pandas().data
    frame = frame[["firm", "year", "invest", "value", "capital"]].copy()
    frame["firm"] = frame["firm"].astype(str)
    frame["year"] = frame["year"].astype(int)
    return frame.sort_values(["firm", "year"]).reset_index(drop=True)


def _longley() -> pd.DataFrame:
    import statsmodels.api as sm

    frame = sm.datasets.longley.load_pandas().data
    frame = frame.rename(
        columns={
            "YEAR": "year",
            "TOTEMP": "employed",
            "GNPDEFL": "gnp_deflator",
            "GNP": "gnp",
            "UNEMP": "unemployed",
            "ARMED": "armed_forces",
            "POP": "population",
        }
    )
    frame = frame[["year", "employed", "gnp_deflator", "gnp", "unemployed", "armed_forces", "population"]]
    return frame.astype({"year": int, "employed": int, "gnp": int, "unemployed": int, "armed_forces": int})


def _macro() -> pd.DataFrame:
    import statsmodels.api as sm

    frame = sm.datasets.macrodata.load_pandas().data
    frame = frame.rename(
        columns={
            "realgdp": "real_gdp",
            "realcons": "real_consumption",
            "realinv": "real_investment",
            "unemp": "unemployment_rate",
            "tbilrate": "tbill_rate",
            "infl": "inflation",
        }
    )
    columns = ["year", "quarter", "real_gdp", "real_consumption", "real_investment", "cpi"]
    frame = frame[[*columns, "unemployment_rate", "tbill_rate", "inflation"]]
    return frame.astype({"year": int, "quarter": int})


def _regional_sales(rng: np.random.Generator) -> pd.DataFrame:
    """One row per region and month, 2021-2024: the west grows fast, the south shrinks."""
    months = pd.date_range("2021-01-01", "2024-12-01", freq="MS")
    regions = {  # base monthly revenue, growth per month
        "north": (52_000, 0.006),
        "south": (61_000, -0.007),
        "east": (47_000, 0.011),
        "west": (30_000, 0.022),
        "central": (39_000, 0.003),
    }
    rows = []
    for index, month in enumerate(months):
        season = 1 + 0.08 * np.sin(2 * np.pi * (month.month - 3) / 12)
        for region, (base, growth) in regions.items():
            revenue = base * (1 + growth) ** index * season * rng.normal(1, 0.03)
            price = 48 + 0.05 * index + rng.normal(0, 1.2)
            rows.append(
                {
                    "date": month.strftime("%Y-%m-%d"),
                    "region": region,
                    "units": int(np.rint(revenue / price)),
                    "revenue": round(revenue, 2),
                    "marketing_spend": round(base * 0.12 * (1 - 0.009 * index) * rng.normal(1, 0.05), 2),
                    "returns": int(rng.poisson(max(1.0, revenue / 1000 * (0.9 - 0.012 * index)))),
                }
            )
    return pd.DataFrame(rows)


def _plants(rng: np.random.Generator) -> pd.DataFrame:
    """A growth trial: fertilizer, light and watering against height and leaves; a few heights missing."""
    n = 300
    fertilizer = rng.choice(["none", "organic", "synthetic"], size=n, p=[0.27, 0.41, 0.32])
    sunlight = rng.choice(["full_sun", "partial_shade", "shade"], size=n, p=[0.48, 0.33, 0.19])
    location = rng.choice(["greenhouse", "field"], size=n, p=[0.4, 0.6])
    water = rng.choice([150, 200, 250, 300, 350], size=n)
    height = (
        22
        + np.select([fertilizer == "organic", fertilizer == "synthetic"], [6.5, 9.0], 0.0)
        + np.select([sunlight == "full_sun", sunlight == "partial_shade"], [7.0, 3.0], 0.0)
        + np.where(location == "greenhouse", 4.0, 0.0)
        + 0.03 * water
        + rng.normal(0, 4.5, size=n)
    )
    leaves = rng.poisson(np.clip(height * 0.55 + np.where(sunlight == "shade", -4, 0), 1, None))
    frame = pd.DataFrame(
        {
            "fertilizer": fertilizer,
            "sunlight": sunlight,
            "location": location,
            "water_ml_per_day": water,
            "height_cm": np.round(height, 1),
            "leaf_count": leaves,
        }
    )
    frame.loc[rng.choice(n, size=9, replace=False), "height_cm"] = np.nan
    return frame


def _cars(rng: np.random.Generator) -> pd.DataFrame:
    """Car models: American cars heavier with larger engines; newer model years use less fuel."""
    n = 260
    origin = rng.choice(["europe", "asia", "america"], size=n, p=[0.38, 0.42, 0.20])
    year = rng.integers(2012, 2024, size=n)
    cylinders = np.where(
        origin == "america",
        rng.choice([4, 6, 8], size=n, p=[0.3, 0.4, 0.3]),
        rng.choice([3, 4, 6], size=n, p=[0.2, 0.65, 0.15]),
    )
    engine = np.round(cylinders * rng.normal(0.45, 0.05, size=n), 1)
    weight = np.round(780 + 260 * engine + np.where(origin == "america", 180, 0) + rng.normal(0, 90, size=n))
    power = np.round(38 * engine + rng.normal(10, 12, size=n))
    fuel = np.round(1.2 + 0.0035 * weight + 0.55 * engine - 0.16 * (year - 2012) + rng.normal(0, 0.45, size=n), 1)
    premium = np.where(origin == "europe", 4_000, 0)
    price = np.round(9_000 + 14 * weight + 120 * power + premium + rng.normal(0, 3_000, n))
    return pd.DataFrame(
        {
            "origin": origin,
            "model_year": year,
            "cylinders": cylinders,
            "engine_l": engine,
            "weight_kg": weight.astype(int),
            "power_kw": power.astype(int),
            "fuel_l_per_100km": fuel,
            "price_eur": price.astype(int),
        }
    )


def _cities(rng: np.random.Generator) -> pd.DataFrame:
    """Eight cities, 2000-2020: population and rent grow at each city's own pace."""
    cities = {  # population in 2000, population growth a year, rent in 2000, rent growth a year
        "Aalborg": (195_000, 0.009, 520, 0.021),
        "Bergen": (230_000, 0.011, 610, 0.028),
        "Cork": (180_000, 0.014, 560, 0.047),
        "Dresden": (478_000, 0.004, 480, 0.018),
        "Eindhoven": (204_000, 0.010, 640, 0.033),
        "Faro": (58_000, 0.024, 390, 0.026),
        "Gdansk": (461_000, -0.002, 300, 0.041),
        "Hamburg": (1_715_000, 0.005, 690, 0.024),
    }
    rows = []
    for city, (population, pop_growth, rent, rent_growth) in cities.items():
        for index, year in enumerate(range(2000, 2021)):
            rows.append(
                {
                    "city": city,
                    "year": year,
                    "population": int(population * (1 + pop_growth) ** index * rng.normal(1, 0.004)),
                    "median_rent_eur": round(rent * (1 + rent_growth) ** index * rng.normal(1, 0.015)),
                    "unemployment_pct": round(max(1.5, 7 - 0.15 * index + rng.normal(0, 0.8)), 1),
                }
            )
    return pd.DataFrame(rows)


def build_datasets() -> list[str]:
    rng = np.random.default_rng(SEED)
    frames = {
        "iris": _iris(),
        "wine": _wine(),
        "breast_cancer": _breast_cancer(),
        "diabetes": _diabetes(),
        "grunfeld": _grunfeld(),
        "longley": _longley(),
        "macro": _macro(),
        "regional_sales": _regional_sales(rng),
        "plants": _plants(rng),
        "cars": _cars(rng),
        "cities": _cities(rng),
    }
    for name, frame in frames.items():  # plain names: the importer keeps them as they are
        assert all(c.replace("_", "").isalnum() and c.isascii() for c in frame.columns), name
    return rules.write_datasets(frames, DATASETS)


# ---------------------------------------------------------------------------------------------------
# The rules (bench/eval/rules.py) with the checks this set was written with, looser than the holdout
# sets' (near ties, weak pairs, turned-round filters are not refused): the set stays as it was made

compare, rank_differences, most_associated, direction, share, growth, statistic, subset = (
    partial(rule, strict=False)
    for rule in (
        rules.compare,
        rules.rank_differences,
        rules.most_associated,
        rules.direction,
        rules.share,
        rules.growth,
        rules.statistic,
        rules.subset,
    )
)
trend = rules.trend


# ---------------------------------------------------------------------------------------------------
# The questions, as analysts ask them: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare: the group highest (lowest) on a measure; figure = its mean unless another statistic is asked
    ("compare-iris-petal-length", "iris", "compare",
     "Which species has the longest petals on average?",
     compare("species", "petal_length_cm")),
    ("compare-iris-sepal-width", "iris", "compare",
     "Which iris species has the narrowest sepals, and by how much?",
     compare("species", "sepal_width_cm", high=False)),
    ("compare-wine-alcohol", "wine", "compare",
     "Which cultivar makes the strongest wines, meaning the highest average alcohol?",
     compare("cultivar", "alcohol")),
    ("compare-cars-fuel", "cars", "compare",
     "Cars from which origin use the least fuel on average?",
     compare("origin", "fuel_l_per_100km", high=False)),
    ("compare-plants-fertilizer", "plants", "compare",
     "Which fertilizer produces the tallest plants?",
     compare("fertilizer", "height_cm")),
    ("compare-plants-leaves-median", "plants", "compare",
     "Which sunlight level has the lowest median leaf_count?",
     compare("sunlight", "leaf_count", stat="median", high=False)),
    ("compare-cancer-area", "breast_cancer", "compare",
     "Are malignant or benign tumours bigger by mean_area, and by how much?",
     compare("diagnosis", "mean_area")),
    ("compare-grunfeld-invest", "grunfeld", "compare",
     "Which company invested the most per year, on average?",
     compare("firm", "invest")),
    ("compare-sales-revenue-low", "regional_sales", "compare",
     "Which region brings in the least revenue per month on average?",
     compare("region", "revenue", high=False)),
    ("compare-cities-rent", "cities", "compare",
     "Which city has the most expensive rent on average (median_rent_eur)?",
     compare("city", "median_rent_eur")),
    # rank_differences: the measure that differs most between the groups
    ("rank-iris-species", "iris", "rank_differences",
     "Which measurements differ most between the three species?",
     rank_differences("species")),
    ("rank-iris-two-species", "iris", "rank_differences",
     "Looking only at versicolor and virginica, which measurement separates them best?",
     rank_differences("species", only=("versicolor", "virginica"))),
    ("rank-cancer-diagnosis", "breast_cancer", "rank_differences",
     "Which of the 30 tumour measurements differs most between malignant and benign diagnoses?",
     rank_differences("diagnosis")),
    ("rank-wine-cultivar", "wine", "rank_differences",
     "What chemical properties vary the most across the three cultivars?",
     rank_differences("cultivar")),
    ("rank-cars-america-europe", "cars", "rank_differences",
     "What distinguishes American cars from European ones the most?",
     rank_differences("origin", only=("america", "europe"))),
    ("rank-plants-location", "plants", "rank_differences",
     "How do greenhouse plants differ from field plants: which measure shows the biggest difference?",
     rank_differences("location")),
    ("rank-diabetes-sex", "diabetes", "rank_differences",
     "Which clinical measurement differs most between the two sexes (sex is coded 1 and 2)?",
     rank_differences("sex")),
    ("rank-plants-fertilizer", "plants", "rank_differences",
     "Which variable differs most across the fertilizer types?",
     rank_differences("fertilizer")),
    # association: the column most associated with an outcome, or the direction of one pair
    ("assoc-iris-petals", "iris", "association",
     "How strongly is petal length related to petal width?",
     direction("petal_length_cm", "petal_width_cm")),
    ("assoc-diabetes-top", "diabetes", "association",
     "Which variable is most associated with disease progression?",
     most_associated("progression")),
    ("assoc-cancer-top", "breast_cancer", "association",
     "Which measurement is most strongly associated with the diagnosis?",
     most_associated("diagnosis")),
    ("assoc-cars-weight-fuel", "cars", "association",
     "Do heavier cars use more fuel? How strong is the link?",
     direction("weight_kg", "fuel_l_per_100km")),
    ("assoc-longley-unemployed-armed", "longley", "association",
     "Is the number of unemployed correlated with the size of the armed forces, and in which direction?",
     direction("unemployed", "armed_forces")),
    ("assoc-wine-alcohol-top", "wine", "association",
     "What correlates most strongly with alcohol content in these wines?",
     most_associated("alcohol")),
    ("assoc-macro-tbill-inflation", "macro", "association",
     "What's the correlation between `tbill_rate` and `inflation`?",
     direction("tbill_rate", "inflation")),
    ("assoc-diabetes-hdl", "diabetes", "association",
     "Is HDL cholesterol positively or negatively associated with progression?",
     direction("hdl", "progression")),
    ("assoc-grunfeld-top", "grunfeld", "association",
     "Which variable tracks investment most closely?",
     most_associated("invest")),
    ("assoc-cars-year-fuel", "cars", "association",
     "Is model_year positively or negatively correlated with fuel_l_per_100km?",
     direction("model_year", "fuel_l_per_100km")),
    # trend: rose or fell over time; figure = the last period's mean (or total, when asked)
    ("trend-longley-employed", "longley", "trend",
     "Did total employment rise or fall between 1947 and 1962?",
     trend("year", "employed")),
    ("trend-longley-unemployed", "longley", "trend",
     "How did the number of unemployed people change over the years?",
     trend("year", "unemployed")),
    ("trend-macro-gdp", "macro", "trend",
     "Has real GDP been growing from year to year?",
     trend("year", "real_gdp")),
    ("trend-cars-fuel", "cars", "trend",
     "Is fuel consumption falling across model years?",
     trend("model_year", "fuel_l_per_100km")),
    ("trend-cities-rent", "cities", "trend",
     "Are rents going up over time across these cities?",
     trend("year", "median_rent_eur")),
    ("trend-cities-unemployment", "cities", "trend",
     "What is the trend in unemployment_pct from 2000 to 2020?",
     trend("year", "unemployment_pct")),
    ("trend-sales-revenue-yearly-total", "regional_sales", "trend",
     "Did total revenue grow from one year to the next?",
     trend("date", "revenue", per="year", stat="sum")),
    ("trend-sales-returns-monthly", "regional_sales", "trend",
     "Are returns going down month by month?",
     trend("date", "returns", per="month")),
    ("trend-sales-marketing-yearly-total", "regional_sales", "trend",
     "Has the yearly total marketing spend declined since 2021?",
     trend("date", "marketing_spend", per="year", stat="sum")),
    ("trend-grunfeld-total-invest", "grunfeld", "trend",
     "Did the firms' combined investment go up between 1935 and 1954? Give the total per year.",
     trend("year", "invest", stat="sum")),
    # share: the most common category, in percent of the rows (or of a measure's total)
    ("share-cancer-diagnosis", "breast_cancer", "share",
     "What proportion of the tumours are benign versus malignant?",
     share("diagnosis")),
    ("share-wine-cultivar", "wine", "share",
     "Which cultivar is most common in the sample, as a percentage?",
     share("cultivar")),
    ("share-sales-revenue", "regional_sales", "share",
     "What is each region's share of total revenue?",
     share("region", of="revenue")),
    ("share-cars-origin", "cars", "share",
     "Where do most of the cars come from? What share of the models is from each origin?",
     share("origin")),
    ("share-plants-fertilizer", "plants", "share",
     "How are the plants split across the fertilizer types?",
     share("fertilizer")),
    ("share-grunfeld-invest", "grunfeld", "share",
     "Which firm accounts for the biggest slice of all investment?",
     share("firm", of="invest")),
    ("share-plants-sunlight", "plants", "share",
     "What percentage of the plants grew in each sunlight condition?",
     share("sunlight")),
    ("share-sales-units", "regional_sales", "share",
     "Which region sold the largest share of all units?",
     share("region", of="units")),
    # growth: the entity whose measure changed most from its first to its last period, in percent
    ("growth-grunfeld-invest", "grunfeld", "growth",
     "Which firm grew its investment the most between 1935 and 1954?",
     growth("firm", "year", "invest")),
    ("growth-grunfeld-value", "grunfeld", "growth",
     "Whose market value increased most over the period, in percent?",
     growth("firm", "year", "value")),
    ("growth-grunfeld-capital", "grunfeld", "growth",
     "Which company expanded its capital stock fastest from the first year to the last?",
     growth("firm", "year", "capital")),
    ("growth-sales-revenue", "regional_sales", "growth",
     "Which region's revenue grew the most from January 2021 to December 2024?",
     growth("region", "date", "revenue")),
    ("growth-sales-units", "regional_sales", "growth",
     "Which region showed the strongest growth in units sold?",
     growth("region", "date", "units")),
    ("growth-cities-population", "cities", "growth",
     "Which city's population grew fastest between 2000 and 2020?",
     growth("city", "year", "population")),
    ("growth-cities-rent", "cities", "growth",
     "Where did rents rise the most in percentage terms?",
     growth("city", "year", "median_rent_eur")),
    # statistic: other than the mean, of a column or per group
    ("stat-iris-median-sepal", "iris", "statistic",
     "What is the median sepal length?",
     statistic("sepal_length_cm", "median")),
    ("stat-cars-p90-fuel", "cars", "statistic",
     "What is the 90th percentile of fuel consumption?",
     statistic("fuel_l_per_100km", "p90")),
    ("stat-sales-total-revenue", "regional_sales", "statistic",
     "What was the total revenue over all regions and months?",
     statistic("revenue", "sum")),
    ("stat-cancer-sd-radius", "breast_cancer", "statistic",
     "What is the standard deviation of mean_radius?",
     statistic("mean_radius", "sd")),
    ("stat-diabetes-max-bmi", "diabetes", "statistic",
     "What's the highest BMI in the data?",
     statistic("bmi", "max")),
    ("stat-grunfeld-median-invest", "grunfeld", "statistic",
     "Which firm has the highest median annual investment?",
     statistic("invest", "median", group="firm")),
    ("stat-plants-count-height", "plants", "statistic",
     "How many plants have a recorded height?",
     statistic("height_cm", "count")),
    ("stat-wine-sd-proline", "wine", "statistic",
     "Which cultivar shows the most variation in proline, measured by standard deviation?",
     statistic("proline", "sd", group="cultivar")),
    ("stat-longley-min-gnp", "longley", "statistic",
     "What was the lowest GNP on record?",
     statistic("gnp", "min")),
    ("stat-cars-p25-weight", "cars", "statistic",
     "What's the 25th percentile of car weight?",
     statistic("weight_kg", "p25")),
    ("stat-cities-median-unemployment", "cities", "statistic",
     "Which city has the lowest median unemployment_pct?",
     statistic("unemployment_pct", "median", group="city", high=False)),
    # filter: a statistic on the rows a condition keeps (several pairs: the same question, inverted)
    ("filter-iris-petal-above-5", "iris", "filter",
     "What is the mean petal width of flowers whose petal length is above 5 cm?",
     subset("petal_width_cm", "petal_length_cm > 5")),
    ("filter-iris-excluding-setosa", "iris", "filter",
     "Excluding setosa, what's the average petal length?",
     subset("petal_length_cm", "species != 'setosa'")),
    ("filter-iris-only-setosa", "iris", "filter",
     "For setosa only, what is the average petal length?",
     subset("petal_length_cm", "species == 'setosa'")),
    ("filter-cars-at-most-1400kg", "cars", "filter",
     "What is the average fuel use of cars weighing at most 1,400 kg?",
     subset("fuel_l_per_100km", "weight_kg <= 1400")),
    ("filter-cars-over-1400kg", "cars", "filter",
     "Average fuel consumption for cars over 1400 kg?",
     subset("fuel_l_per_100km", "weight_kg > 1400")),
    ("filter-sales-north-only", "regional_sales", "filter",
     "What was the total revenue in the north region only?",
     subset("revenue", "region == 'north'", stat="sum")),
    ("filter-sales-without-north", "regional_sales", "filter",
     "What was the total revenue without the north region?",
     subset("revenue", "region != 'north'", stat="sum")),
    ("filter-diabetes-bmi-30-35", "diabetes", "filter",
     "What is the mean progression for patients with a BMI between 30 and 35?",
     subset("progression", "30 <= bmi <= 35")),
    ("filter-plants-no-fertilizer", "plants", "filter",
     "What is the median height of plants that received no fertilizer (fertilizer is 'none')?",
     subset("height_cm", "fertilizer == 'none'", stat="median")),
    ("filter-plants-not-full-sun", "plants", "filter",
     "What is the median height_cm of the plants that were not grown in full sun?",
     subset("height_cm", "sunlight != 'full_sun'", stat="median")),
    ("filter-cancer-radius-under-12", "breast_cancer", "filter",
     "Among tumours with mean_radius under 12, what is the average mean_area?",
     subset("mean_area", "mean_radius < 12")),
    ("filter-wine-alcohol-at-least-14", "wine", "filter",
     "How many wines have an alcohol content of at least 14?",
     subset("alcohol", "alcohol >= 14", stat="count")),
    ("filter-grunfeld-except-gm", "grunfeld", "filter",
     "What was the total investment of all firms except General Motors?",
     subset("invest", "firm != 'General Motors'", stat="sum")),
    ("filter-plants-shade", "plants", "filter",
     "What is the mean leaf count of the plants grown in the shade (sunlight equal to 'shade')?",
     subset("leaf_count", "sunlight == 'shade'")),
    ("filter-cars-not-asia", "cars", "filter",
     "What's the median price of the cars that are not from asia?",
     subset("price_eur", "origin != 'asia'", stat="median")),
    ("filter-longley-unemployed-below-2500", "longley", "filter",
     "What was the average employment in the years when fewer than 2,500 were unemployed?",
     subset("employed", "unemployed < 2500")),
    ("filter-diabetes-sex-2", "diabetes", "filter",
     "What's the average HDL of patients with sex = 2?",
     subset("hdl", "sex == 2")),
]  # fmt: skip


def check(entries: list[dict]) -> None:
    """The set's promises: ids unique, every kind at least five times, answers from the data."""
    rules.check_kinds(entries, per_kind=5, at_least=48)
    assert len({e["dataset"] for e in entries}) >= 6
    # the known facts this set is checked against
    by_id = {e["id"]: e for e in entries}
    assert by_id["compare-iris-petal-length"]["answer"] == "virginica"
    assert abs(by_id["compare-iris-petal-length"]["figure"] - 5.552) < 1e-9
    assert abs(by_id["assoc-iris-petals"]["figure"] - 0.9629) < 1e-4
    assert by_id["share-cancer-diagnosis"]["answer"] == "benign"  # 357 of 569


def main() -> None:
    names = build_datasets()
    frames = {name: rules.read_back(DATASETS, name, as_imported=False) for name in names}
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
