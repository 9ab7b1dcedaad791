"""Builds a nineteenth held-out question set: all nineteen kinds in one set, as holdout13 to holdout18 do,
80 questions, each kind asked four or five times in clearly different phrasings, and 10 ambiguous
questions, over six public tables from two packages no earlier set used.

    python3 -m venv /tmp/h19venv
    /tmp/h19venv/bin/pip install pandas==3.1.2 scipy==1.17.1 statsmodels==0.15.0 pyarrow
    /tmp/h19venv/bin/pip install --no-deps aeon==1.6.0 mendeleev==1.3.0
    /tmp/h19venv/bin/python bench/eval/holdout19/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of the packages. Both packages are installed without their dependencies and never
imported: only the data files in their wheels are read. ``aeon`` (the time-series toolkit) ships small
classic series as CSV files (aeon/datasets/data/); ``mendeleev`` (a periodic table for Python) ships its
data as an SQLite file (mendeleev/elements.db), read here with the standard library's sqlite3.

- aeon's Airline.csv: Box & Jenkins' international airline passengers, monthly totals in thousands,
  Jan 1949 - Dec 1960 (airline_passengers; the month written as its first day, "1949-01-01");
- aeon's Uschange.csv: quarterly percentage changes in US personal consumption, income, industrial
  production and savings and the change in the unemployment rate, 1970 Q1 - 2016 Q3, as in Hyndman &
  Athanasopoulos' "Forecasting: Principles and Practice" (us_change; the quarter written as the source
  has it, "1970 Q1"; the source's row number kept as ``obs``, counted from 1; the changes rounded to six
  decimals);
- aeon's Lynx.csv: the Hudson's Bay Company's Canadian lynx trappings per year, 1821-1934 (lynx_trappings);
- mendeleev's elements, series, phasetransitions and ionizationenergies tables: the 118 elements with
  their period, group, block, series, atomic weight, density, melting and boiling points (the first
  allotrope the source lists where it lists several), Pauling electronegativity, radii, electron
  affinity, first ionization energy, thermal conductivity, specific heat, crustal abundance, price,
  discovery year, radioactivity and Goldschmidt class (elements; the source's missing values kept);
- mendeleev's isotopes table: 3,557 nuclides with their mass number, mass, natural abundance,
  radioactivity, spin, parity and discovery year, and their element's symbol and block (isotopes; the
  source's isotope number kept as ``isotope_id``);
- mendeleev's ionicradii table: Shannon's 507 ionic and crystal radii by element, charge, coordination
  (roman numerals as written, "VI") and spin state (ionic_radii; the element's symbol and block added; the
  source's few negative radii, for hydrogen, kept).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- us_change: separated by semicolons with decimal commas ("0,615986");
- lynx_trappings: thousands separators in the quoted trappings ("6,991"; the 61 years under 1,000 are
  written plain);
- airline_passengers: Excel's "CSV UTF-8": a byte-order mark and CRLF line ends;
- elements: R's ``NA`` for what the source does not give (the missing-value questions count what pandas
  reads with na_values=["NA", ""]); isotopes and ionic_radii leave missing fields empty;
- numeric identifiers that look like measures: us_change's obs, isotopes' isotope_id and the
  atomic_number of elements, isotopes and ionic_radii; none is ever a "which measure" answer.

Made here, and said so in the questions where it matters: the calendar month, quarter and year of a
date, the decade of a year, a recession flag (production below zero), the halves of the airline years.
Left as the sources have them: the electron affinities of the noble gases and other elements the source
gives as negative, the superheavy elements' predicted densities (Hs 40.7 g/cm3), the lynx cycle.

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it. The rules are bench/eval/rules.py's (strict) for the eight basic kinds and
bench/eval/reach_rules.py's for the others, with a paired t-test for the paired design (consumption and
income changes of the same quarter); every figure is computed here from the CSV as written and read
back, never typed. Widely known tables, disclosed: the airline passengers (Box & Jenkins), the lynx trappings and
the us_change series (Hyndman & Athanasopoulos' fpp2 "uschange") are textbook examples, and many periodic-table
properties (densest element, highest electron affinity, the most recently discovered element) are common
knowledge an analyst could answer from memory rather than from the file.
"""

from __future__ import annotations

import importlib.util
import sqlite3
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
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"

MESSY = {"us_change": SEMICOLON_DECIMAL_COMMA, "lynx_trappings": THOUSANDS, "airline_passengers": EXCEL_BOM}
THOUSANDS_COLUMNS = {"lynx_trappings": ("lynx_trapped",)}
R_NA = ("elements",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}
IDENTIFIERS = ("obs", "isotope_id", "atomic_number")


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_dir(package: str) -> Path:
    """Where a package lies (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0])


def _aeon(name: str) -> pd.DataFrame:
    return pd.read_csv(_package_dir("aeon") / "datasets" / "data" / name / f"{name}.csv")


def _db(table: str) -> pd.DataFrame:
    with sqlite3.connect(_package_dir("mendeleev") / "elements.db") as con:
        return pd.read_sql(f"select * from {table}", con)


def _airline() -> pd.DataFrame:
    src = _aeon("Airline")
    month = pd.to_datetime(src["Date"], format="%Y-%m").dt.strftime("%Y-%m-%d")
    return pd.DataFrame({"month": month, "passengers": src["Passengers"]})


def _uschange() -> pd.DataFrame:
    src = _aeon("Uschange")
    measures = {c.lower(): src[c].round(6) for c in ("Consumption", "Income", "Production", "Savings")}
    return pd.DataFrame({"obs": src.iloc[:, 0] + 1, "quarter": src["Quarter"], **measures,
                         "unemployment": src["Unemployment"]})  # fmt: skip


def _lynx() -> pd.DataFrame:
    src = _aeon("Lynx")
    return pd.DataFrame({"year": src.iloc[:, 0], "lynx_trapped": src.iloc[:, 1]})


def _elements() -> pd.DataFrame:
    e = _db("elements").set_index("atomic_number")
    series = _db("series").set_index("id")["name"]
    phase = _db("phasetransitions").sort_values("id").drop_duplicates("atomic_number").set_index("atomic_number")
    ionization = _db("ionizationenergies").query("ion_charge == 0").set_index("atomic_number")["ionization_energy"]
    return pd.DataFrame({
        "atomic_number": e.index, "symbol": e["symbol"], "name": e["name"], "period": e["period"],
        "group": e["group_id"].astype("Int64"), "block": e["block"], "series": e["series_id"].map(series),
        "atomic_weight": e["atomic_weight"], "density": e["density"],
        "melting_point_k": phase["melting_point"].reindex(e.index),
        "boiling_point_k": phase["boiling_point"].reindex(e.index), "electronegativity": e["en_pauling"],
        "atomic_radius_pm": e["atomic_radius"], "covalent_radius_pm": e["covalent_radius_pyykko"],
        "electron_affinity_ev": e["electron_affinity"], "ionization_energy_ev": ionization.reindex(e.index),
        "thermal_conductivity": e["thermal_conductivity"], "specific_heat": e["specific_heat_capacity"],
        "abundance_crust": e["abundance_crust"], "price_per_kg": e["price_per_kg"],
        "discovery_year": e["discovery_year"].astype("Int64"),
        "radioactive": np.where(e["is_radioactive"] == 1, "yes", "no"), "goldschmidt_class": e["goldschmidt_class"],
    }).reset_index(drop=True)  # fmt: skip


def _isotopes() -> pd.DataFrame:
    i, e = _db("isotopes"), _db("elements").set_index("atomic_number")
    return pd.DataFrame({
        "isotope_id": i["id"], "element": i["atomic_number"].map(e["symbol"]), "atomic_number": i["atomic_number"],
        "mass_number": i["mass_number"], "mass": i["mass"].round(6), "abundance_pct": i["abundance"],
        "radioactive": np.where(i["is_radioactive"] == 1, "yes", "no"), "spin": i["spin"], "parity": i["parity"],
        "discovery_year": i["discovery_year"].astype("Int64"), "block": i["atomic_number"].map(e["block"]),
    })  # fmt: skip


def _ionic() -> pd.DataFrame:
    r, e = _db("ionicradii"), _db("elements").set_index("atomic_number")
    return pd.DataFrame({
        "element": r["atomic_number"].map(e["symbol"]), "atomic_number": r["atomic_number"],
        "block": r["atomic_number"].map(e["block"]), "charge": r["charge"], "coordination": r["coordination"],
        "spin": r["spin"].replace("", np.nan), "crystal_radius_pm": r["crystal_radius"],
        "ionic_radius_pm": r["ionic_radius"],
    })  # fmt: skip


def build_datasets() -> list[str]:
    frames = {
        "airline_passengers": _airline(),
        "us_change": _uschange(),
        "lynx_trappings": _lynx(),
        "elements": _elements(),
        "isotopes": _isotopes(),
        "ionic_radii": _ionic(),
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
# Derived columns the questions name

PAIRED = "paired design: consumption and income changes of the same quarter (paired t-test / Wilcoxon signed-rank)"


def _without(*columns: str):
    """The table without identifiers: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _air_calendar(frame: pd.DataFrame) -> pd.DataFrame:
    dates = pd.to_datetime(frame["month"])
    half = np.where(dates.dt.year <= 1954, "1949-1954", "1955-1960")
    quarter = "Q" + dates.dt.quarter.astype(str)
    return frame.assign(year=dates.dt.year, month_name=dates.dt.month_name(), quarter=quarter, half=half)


def _us_calendar(frame: pd.DataFrame) -> pd.DataFrame:
    year = frame["quarter"].str[:4].astype(int)
    return frame.assign(year=year, qtr=frame["quarter"].str[-2:], decade=year // 10 * 10,
                        recession=np.where(frame["production"] < 0, "yes", "no"))  # fmt: skip


def _decade(column: str, name: str = "decade"):
    return lambda frame: frame.assign(**{name: frame[column] // 10 * 10})


def _three(rule):
    """A reach rule's answer as the ambiguous file's (answer, figure, note)."""

    def three(frame: pd.DataFrame):
        answer, _also, figure, _percent, note = rule(frame)
        return answer, figure, note

    return three


US_MEASURES = ("consumption", "income", "production", "savings", "unemployment")
EL_IDS = _without("atomic_number", "period", "group")
A = "airline_passengers"
U = "us_change"
L = "lynx_trappings"
E = "elements"
I = "isotopes"  # noqa: E741
R = "ionic_radii"


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule); the eight basic kinds' rules are bench/eval/rules.py's
# (strict), the eleven others bench/eval/reach_rules.py's.

BASIC: list[rules.Question] = [
    # compare
    ("h19_compare_block_density", E, "compare",
     "Across the s, p, d and f blocks of the periodic table, which block's elements are densest on average?",
     compare("block", "density")),
    ("h19_compare_series_en", E, "compare",
     "Looking at the element series (alkali metals, halogens, lanthanides and so on), which series has the "
     "lowest median Pauling electronegativity among the elements that have one?",
     compare("series", "electronegativity", stat="median", high=False)),
    ("h19_compare_coordination", R, "compare",
     "For the Shannon radii, among the coordinations (as written, e.g. VI) that occur at least ten times in the "
     "table, which one has the largest average ionic radius?",
     over(lambda f: f[f.groupby("coordination")["coordination"].transform("size") >= 10],
          compare("coordination", "ionic_radius_pm"))),
    ("h19_compare_quarter_savings", U, "compare",
     "In which quarter of the year (Q1 to Q4) is the US savings change lowest on average over 1970-2016?",
     over(_us_calendar, compare("qtr", "savings", high=False))),
    ("h19_compare_isotope_block", I, "compare",
     "Grouping isotopes by the block of their element, which block has the highest median mass number?",
     compare("block", "mass_number", stat="median")),
    # rank_differences
    ("h19_rankdiff_radioactive", E, "rank_differences",
     "Between radioactive and non-radioactive elements, which measured property (not the atomic number, period "
     "or group number) shows the biggest standardized difference?",
     over(EL_IDS, rank_differences("radioactive"))),
    ("h19_rankdiff_blocks", E, "rank_differences",
     "Which element property separates the four blocks best, i.e. has the largest share of its variance "
     "explained by block (leave out the atomic number, period and group number)?",
     over(EL_IDS, rank_differences("block"))),
    ("h19_rankdiff_recession", U, "rank_differences",
     "Call a quarter a recession quarter when industrial production fell (production below zero). Apart from "
     "production itself, which series differs most between recession quarters and the rest, in standardized terms?",
     over(lambda f: _us_calendar(f)[["recession", "consumption", "income", "savings", "unemployment"]],
          rank_differences("recession"))),
    ("h19_rankdiff_alkali", E, "rank_differences",
     "Comparing only the alkali metals with the alkaline earth metals, which measured property differs the "
     "most between the two series relative to its spread (ignore atomic number, period and group number)?",
     over(EL_IDS, rank_differences("series", only=("Alkali metals", "Alkaline earth metals")))),
    # association
    ("h19_assoc_ionization", E, "association",
     "Which element property is most strongly correlated (Pearson) with the first ionization energy?",
     most_associated("ionization_energy_ev", among=("period", "atomic_weight", "density", "melting_point_k",
                     "boiling_point_k", "electronegativity", "atomic_radius_pm", "covalent_radius_pm",
                     "electron_affinity_ev", "thermal_conductivity", "specific_heat", "abundance_crust",
                     "price_per_kg", "discovery_year"))),
    ("h19_assoc_cons_income", U, "association",
     "Do quarterly changes in US consumption and income tend to move together or in opposite directions?",
     direction("income", "consumption")),
    ("h19_assoc_unemployment", U, "association",
     "Which of the other quarterly series has the strongest linear correlation with the change in unemployment?",
     most_associated("unemployment", among=("consumption", "income", "production", "savings"))),
    ("h19_assoc_isotope_year", I, "association",
     "Is there a positive or negative correlation between an isotope's mass number and the year it was discovered?",
     direction("mass_number", "discovery_year")),
    ("h19_assoc_radius_en", E, "association",
     "How does the covalent radius of an element relate to its electronegativity: positively or negatively?",
     direction("covalent_radius_pm", "electronegativity")),
    # trend
    ("h19_trend_air_total", A, "trend",
     "Did the yearly total of airline passengers go up or down between 1949 and 1960?",
     trend("month", "passengers", stat="sum")),
    ("h19_trend_isotope_mass", I, "trend",
     "Grouping isotopes by the decade in which they were discovered, has the average mass number of newly "
     "discovered isotopes risen or fallen from the 1930s to the 2020s (isotopes found before 1930 left out)?",
     over(lambda f: _decade("discovery_year")(f).query("discovery_year >= 1930"), trend("decade", "mass_number"))),
    ("h19_trend_element_weight", E, "trend",
     "Taking elements by the century of their discovery (1600s, 1700s, 1800s, 1900s, 2000s), did the mean "
     "atomic weight of the elements found go up or down over the centuries?",
     over(lambda f: f.assign(century=f["discovery_year"] // 100 * 100), trend("century", "atomic_weight"))),
    ("h19_trend_us_savings", U, "trend",
     "Using yearly averages of the quarterly figures, did the US savings change trend upward or downward from "
     "1970 to 2016?",
     trend("quarter", "savings")),
    # share
    ("h19_share_block", E, "share",
     "Which block holds the largest fraction of the 118 elements, and what percentage is that?",
     share("block")),
    ("h19_share_isotope_block", I, "share",
     "Of all the isotopes listed, what share belongs to the most represented block?",
     share("block")),
    ("h19_share_coordination", R, "share",
     "Which coordination is the most frequent among the tabulated ionic radii, as a percentage of the rows?",
     share("coordination")),
    ("h19_share_crust", E, "share",
     "Which Goldschmidt class accounts for the biggest part of the summed crustal abundance of all elements, "
     "and what percent is it?",
     share("goldschmidt_class", of="abundance_crust")),
    # growth
    ("h19_growth_month_most", A, "growth",
     "From 1949 to 1960, which calendar month saw the largest percentage increase in passengers?",
     over(_air_calendar, growth("month_name", "year", "passengers"))),
    ("h19_growth_month_least", A, "growth",
     "Comparing each calendar month in 1949 with the same month in 1960, which month grew the least in percent?",
     over(_air_calendar, growth("month_name", "year", "passengers", high=False))),
    ("h19_growth_quarter", A, "growth",
     "Summing passengers per calendar quarter and year, which quarter (Q1-Q4) grew most in percent from 1949 to 1960?",
     over(_air_calendar, per_period(growth("quarter", "year", "passengers"), ["quarter", "year"],
                                    {"passengers": "sum"}))),
    ("h19_growth_block_isotopes", I, "growth",
     "Counting the isotopes discovered in each decade, block by block, and comparing the 1950s with the 2010s: "
     "which block's count has the highest percentage change (every block's count fell, so the smallest fall)?",
     over(lambda f: _decade("discovery_year")(f).query("decade in [1950, 2010]"),
          per_period(growth("block", "decade", "isotope_id"), ["block", "decade"], {"isotope_id": "count"}))),
    # statistic
    ("h19_stat_lynx_median", L, "statistic",
     "What is the median number of lynx trapped per year?",
     statistic("lynx_trapped", "median")),
    ("h19_stat_air_p90", A, "statistic",
     "What monthly passenger count is exceeded in only 10% of months (the 90th percentile)?",
     statistic("passengers", "p90")),
    ("h19_stat_en_sd", E, "statistic",
     "How spread out are the Pauling electronegativities? Give the sample standard deviation.",
     statistic("electronegativity", "sd")),
    ("h19_stat_block_radius", R, "statistic",
     "Which block's ions have the largest median crystal radius?",
     statistic("crystal_radius_pm", "median", group="block")),
    # filter
    ("h19_filter_air_late", A, "filter",
     "What was the average monthly passenger count from January 1955 onward?",
     subset("passengers", "month >= '1955-01-01'")),
    ("h19_filter_us_unemp", U, "filter",
     "In quarters when unemployment rose (a change above zero), what was the mean consumption change?",
     subset("consumption", "unemployment > 0")),
    ("h19_filter_en", E, "filter",
     "Among elements with an electronegativity above 2.5, what is the mean melting point in kelvin?",
     subset("melting_point_k", "electronegativity > 2.5")),
    ("h19_filter_charge", R, "filter",
     "For ions with a charge of +4 or more, what is the mean ionic radius?",
     subset("ionic_radius_pm", "charge >= 4")),
    ("h19_filter_early_isotopes", I, "filter",
     "What is the average mass number of the isotopes discovered in 1939 or earlier?",
     subset("mass_number", "discovery_year < 1940")),
]  # fmt: skip

REACH: list[reach_rules.Question] = [
    # significance
    ("h19_sig_recession", U, "significance",
     "Is the mean consumption change significantly different between quarters where production fell (below "
     "zero) and the other quarters?",
     lambda f: significance_two("recession", "yes", "no", "consumption")(_us_calendar(f))),
    ("h19_sig_paired", U, "significance",
     "Quarter by quarter, do consumption and income changes differ significantly on average (same quarters paired)?",
     significance_paired("income", "consumption")),
    ("h19_sig_block_density", E, "significance",
     "Does mean density differ significantly across the four blocks?",
     significance_anova("block", "density")),
    ("h19_sig_share_radio", I, "significance",
     "Is the proportion of radioactive isotopes significantly different between s-block and p-block elements?",
     significance_share("block", "s", "p", "radioactive", "yes")),
    ("h19_sig_air_half", A, "significance",
     "Were the passenger numbers of 1955-1960 significantly higher than those of 1949-1954?",
     lambda f: significance_two("half", "1949-1954", "1955-1960", "passengers")(_air_calendar(f))),
    # adjusted
    ("h19_adj_income", U, "adjusted",
     "Holding the production change fixed, is the income change associated positively or negatively with "
     "the consumption change (OLS)?",
     adjusted("income", "consumption", "production", categorical=False)),
    ("h19_adj_production", U, "adjusted",
     "After controlling for the consumption change, what is the sign of the relationship between production and "
     "unemployment changes?",
     adjusted("production", "unemployment", "consumption", categorical=False)),
    ("h19_adj_charge", R, "adjusted",
     "Within the same coordination, does a higher charge go with a larger or smaller ionic radius? Give the "
     "regression coefficient's sign with coordination as a categorical control.",
     adjusted("charge", "ionic_radius_pm", "coordination", categorical=True)),
    ("h19_adj_ionization", E, "adjusted",
     "Controlling for block (as a category), is atomic radius positively or negatively related to first "
     "ionization energy?",
     adjusted("atomic_radius_pm", "ionization_energy_ev", "block", categorical=True)),
    # forecast
    ("h19_fc_air_1961", A, "forecast",
     "Fit a straight line to the yearly passenger totals and extend it: what total would it give for 1961?",
     forecast("month", "passengers", 1961, stat="sum", period=year_of)),
    ("h19_fc_air_mean_1962", A, "forecast",
     "Projecting the trend in the average monthly passenger count per year linearly, what average would 1962 have?",
     forecast("month", "passengers", 1962, period=year_of)),
    ("h19_fc_us_income", U, "forecast",
     "Extrapolating a linear trend through the yearly mean income change, what would the 2018 value be?",
     forecast("quarter", "income", 2018, period=lambda q: q.str[:4].astype(int))),
    ("h19_fc_us_production", U, "forecast",
     "If the yearly average production change keeps following its straight-line trend, what is the estimate for 2019?",
     forecast("quarter", "production", 2019, period=lambda q: q.str[:4].astype(int))),
    # outliers
    ("h19_out_lynx", L, "outliers",
     "Which year's lynx catch is the most extreme outlier?",
     outliers("year", "lynx_trapped")),
    ("h19_out_density", E, "outliers",
     "Which element's density stands out most as an outlier? Give its symbol.",
     outliers("symbol", "density")),
    ("h19_out_savings", U, "outliers",
     "Which quarter has the most anomalous savings change?",
     outliers("quarter", "savings")),
    ("h19_out_production", U, "outliers",
     "Flag outliers in the production change: which quarter is the most extreme one?",
     outliers("quarter", "production")),
    # missing
    ("h19_missing_elements", E, "missing",
     "Which column of the elements table has the most gaps, and how many values are missing there?",
     missing()),
    ("h19_missing_isotopes", I, "missing",
     "In the isotope table, which field is empty most often and how many times?",
     missing()),
    ("h19_missing_discovery", E, "missing",
     "For how many elements is the discovery year not recorded?",
     missing("discovery_year")),
    ("h19_missing_spin", R, "missing",
     "How many rows of the ionic radii have no spin state given?",
     missing("spin")),
    # crosstab
    ("h19_ct_gold_radio", E, "crosstab",
     "Leaving out the synthetic elements, is an element's Goldschmidt class related to whether it is radioactive, "
     "or are the two independent?",
     crosstab("goldschmidt_class", "radioactive", where="goldschmidt_class != 'synthetic'")),
    ("h19_ct_gold_block", E, "crosstab",
     "Is there an association between Goldschmidt class and block?",
     crosstab("goldschmidt_class", "block")),
    ("h19_ct_parity_radio", I, "crosstab",
     "Among isotopes with a known parity, is parity associated with being radioactive?",
     crosstab("parity", "radioactive")),
    ("h19_ct_ionic_block", R, "crosstab",
     "Test whether the block of the element and the coordination (IV, VI or VIII only) are independent for the "
     "tabulated ions.",
     crosstab("block", "coordination", where="coordination in ['IV', 'VI', 'VIII']")),
    # top
    ("h19_top_density", E, "top",
     "List the three densest elements by symbol, densest first.",
     top("symbol", "density", 3)),
    ("h19_top_lynx", L, "top",
     "Which five years had the biggest lynx catches?",
     top("year", "lynx_trapped", 5)),
    ("h19_top_isotope_count", I, "top",
     "Which two elements have the most isotopes listed?",
     top("element", "isotope_id", 2, agg="count")),
    ("h19_top_prod_low", U, "top",
     "Name the four quarters with the steepest fall in production.",
     top("quarter", "production", 4, largest=False)),
    # distribution
    ("h19_dist_lynx", L, "distribution",
     "Describe the shape of the distribution of annual lynx trappings: skewed left, skewed right, or symmetric?",
     distribution("lynx_trapped")),
    ("h19_dist_production", U, "distribution",
     "Is the distribution of quarterly production changes symmetric or skewed, and in which direction?",
     distribution("production")),
    ("h19_dist_ionization", E, "distribution",
     "What does the distribution of first ionization energies look like in terms of skewness?",
     distribution("ionization_energy_ev")),
    ("h19_dist_mass_number", I, "distribution",
     "Is the mass number of the listed isotopes skewed or roughly symmetric?",
     distribution("mass_number")),
    # which_row
    ("h19_row_air_max", A, "which_row",
     "In which month did the airline carry the most passengers?",
     which_row("month", "passengers")),
    ("h19_row_income", U, "which_row",
     "Which quarter saw the largest rise in US income?",
     which_row("quarter", "income")),
    ("h19_row_affinity", E, "which_row",
     "Which element (symbol) has the highest electron affinity?",
     which_row("symbol", "electron_affinity_ev")),
    ("h19_row_latest", E, "which_row",
     "Which element was discovered most recently according to the table? Give its symbol.",
     which_row("symbol", "discovery_year")),
    # two_factor
    ("h19_two_air", A, "two_factor",
     "Splitting the years into 1949-1954 and 1955-1960 and the months into calendar quarters, which half and "
     "quarter combination has the highest mean monthly passengers?",
     lambda f: two_factor("half", "quarter", "passengers")(_air_calendar(f))),
    ("h19_two_ionic", R, "two_factor",
     "By block and charge together, which combination has the smallest average ionic radius (cells with at least "
     "two ions)?",
     lambda f: two_factor("block", "charge", "ionic_radius_pm", highest=False)(
         f[f.groupby(["block", "charge"])["charge"].transform("size") >= 2])),
    ("h19_two_elements", E, "two_factor",
     "Crossing block with radioactive (yes/no), which pair has the highest mean density?",
     two_factor("block", "radioactive", "density")),
    ("h19_two_us", U, "two_factor",
     "Which decade and quarter-of-year pair had the lowest average savings change?",
     lambda f: two_factor("decade", "qtr", "savings", highest=False)(_us_calendar(f))),
    # rate
    ("h19_rate_quarter_fast", A, "rate",
     "Summing passengers by calendar quarter within each year and fitting a least-squares line per quarter, which "
     "quarter's total climbed fastest per year?",
     lambda f: rate("quarter", "year", "passengers")(
         _air_calendar(f).groupby(["quarter", "year"], as_index=False)["passengers"].sum())),
    ("h19_rate_month_slow", A, "rate",
     "Which calendar month had the smallest yearly increase in passengers, judged by a least-squares slope over "
     "1949-1960?",
     lambda f: rate("month_name", "year", "passengers", highest=False)(_air_calendar(f))),
    ("h19_rate_block_radius", E, "rate",
     "For each block, regress covalent radius on period. Which block's radius grows the most per period?",
     rate("block", "period", "covalent_radius_pm")),
    ("h19_rate_ionic_charge", R, "rate",
     "Within each block, how fast does the ionic radius shrink as the charge goes up? Which block has the "
     "steepest decline per unit of charge?",
     rate("block", "charge", "ionic_radius_pm", highest=False)),
]  # fmt: skip


def _percent_change(first_last):
    """The passengers' percent change between two figures ``first_last`` picks from the table."""

    def rule(frame: pd.DataFrame):
        first, last = first_last(frame)
        return "passengers", float((last - first) / first * 100), {"first": float(first), "last": float(last)}

    return rule


def _yearly_totals(frame: pd.DataFrame):
    totals = frame.groupby(frame["month"].str[:4])["passengers"].sum()
    return totals.iloc[0], totals.iloc[-1]


def _widest(spread):
    """The us_change series with the largest ``spread`` (a function of the column)."""

    def rule(frame: pd.DataFrame):
        values = {c: float(spread(frame[c])) for c in US_MEASURES}
        best = max(values, key=values.get)
        return best, values[best], {"values": values}

    return rule


AMBIGUOUS: list[rules.Ambiguous] = [
    ("h19_amb_heaviest_block", E, "Which block has the heaviest elements?", [
        ("the highest mean atomic weight", "compare", compare("block", "atomic_weight")),
        ("the highest mean density", "compare", compare("block", "density")),
    ]),
    ("h19_amb_typical_lynx", L, "How many lynx are trapped in a typical year?", [
        ("the mean per year", "statistic", statistic("lynx_trapped", "mean")),
        ("the median per year (the counts are right-skewed)", "statistic", statistic("lynx_trapped", "median")),
    ]),
    ("h19_amb_most_isotopes", I, "Which element has the most isotopes?", [
        ("counting every listed isotope", "top", _three(top("element", "isotope_id", 1, agg="count"))),
        ("counting only stable (non-radioactive) isotopes", "top",
         _three(top("element", "isotope_id", 1, agg="count", where="radioactive == 'no'"))),
    ]),
    ("h19_amb_conduct_group", E, "Which group of elements conducts heat best on average?", [
        ("the periodic-table group number (column group)", "compare", compare("group", "thermal_conductivity")),
        ("the element series (alkali metals, transition metals, ...)", "compare",
         compare("series", "thermal_conductivity")),
    ]),
    ("h19_amb_lynx_peak", L, "When did lynx trapping peak?", [
        ("the single year with the most lynx trapped", "which_row", _three(which_row("year", "lynx_trapped"))),
        ("the decade with the highest mean yearly catch", "compare",
         over(_decade("year"), compare("decade", "lynx_trapped"))),
    ]),
    ("h19_amb_air_growth", A, "By what percentage did airline traffic grow over the series?", [
        ("from the first month (Jan 1949) to the last month (Dec 1960)", "growth",
         _percent_change(lambda f: (f["passengers"].iloc[0], f["passengers"].iloc[-1]))),
        ("from the 1949 yearly total to the 1960 yearly total", "growth", _percent_change(_yearly_totals)),
    ]),
    ("h19_amb_worst_quarter", U, "Which was the worst quarter for the US economy?", [
        ("the steepest fall in industrial production", "which_row",
         _three(which_row("quarter", "production", highest=False))),
        ("the steepest fall in personal consumption", "which_row",
         _three(which_row("quarter", "consumption", highest=False))),
        ("the steepest fall in personal income", "which_row", _three(which_row("quarter", "income", highest=False))),
    ]),
    ("h19_amb_ion_size", R, "What is the typical size of an ion in this table, in picometres?", [
        ("the median ionic radius", "statistic", statistic("ionic_radius_pm", "median")),
        ("the median crystal radius", "statistic", statistic("crystal_radius_pm", "median")),
    ]),
    ("h19_amb_volatile", U, "Which of the quarterly US series is the most volatile?", [
        ("the largest standard deviation", "statistic", _widest(lambda c: c.std(ddof=1))),
        ("the largest coefficient of variation (standard deviation over |mean|)", "statistic",
         _widest(lambda c: c.std(ddof=1) / abs(c.mean()))),
    ]),
    ("h19_amb_savings", U, "How did the savings change behave over 1970-2016?", [
        ("its direction over time (yearly means, first vs last year)", "trend", trend("quarter", "savings")),
        ("its average quarterly value", "statistic", statistic("savings", "mean")),
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
    us = frames["us_change"]
    assert len(us) == 187 and us["savings"].dtype == "float64" and us["quarter"].iloc[0] == "1970 Q1"
    lynx = frames["lynx_trappings"]
    assert lynx["lynx_trapped"].dtype == "int64" and lynx["lynx_trapped"].max() == 6991
    air = frames["airline_passengers"]
    assert air.columns[0] == "month" and len(air) == 144 and air["passengers"].dtype == "int64"
    elements = frames["elements"]
    assert len(elements) == 118 and elements["thermal_conductivity"].isna().sum() == 52
    assert elements["symbol"].notna().all() and elements["discovery_year"].isna().sum() == 13
    isotopes = frames["isotopes"]
    assert len(isotopes) == 3557 and isotopes["abundance_pct"].isna().sum() == 3269
    assert (DATASETS / "airline_passengers.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    for dataset, column, value in [
        ("elements", "electronegativity", 2.5),
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
