"""Builds the held-out question set: datasets the analyst was not tuned on, questions in other words.

    /work/main/.venv/bin/python bench/eval/holdout/make.py

Writes ``datasets/<name>.csv`` and ``questions.json`` in the same form as bench/eval/questions/ (the
same kinds, fields and rules for ``answer`` and ``figure``: bench/eval/rules.py), scored by the same code:
``python bench/agents_eval.py --questions-only --set holdout``.

The data: public sets shipped with statsmodels (star98, fair, anes96, modechoice, statecrime, elnino,
copper, nile, fertility, randhie) and four tables generated with a fixed seed, with headers in several
styles (snake_case, CamelCase, ``Title With (Units)``). Answers use the column names as the workbench's
importer makes them (every character outside [A-Za-z0-9_] becomes ``_``: "Weight (kg)" is
``Weight__kg_``), computed by the rules in bench/eval/rules.py from the CSV as read back from disk.

The questions are written as analysts write them, not to suit any parser; none was tuned on the analyst.
The rules' strict checks keep each answer unambiguous (see rules.py), and the questions ask for two more:
no row at a strict threshold ("fewer than 20": ``unambiguous_bounds``); "typical" only where mean and
median are within 1% (``statistic(..., close_to=...)``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.eval import rules
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
SEED = 19960905


# ---------------------------------------------------------------------------------------------------
# The datasets


def _school_districts() -> pd.DataFrame:
    """California school districts (star98): 9th-grade maths results against the districts' make-up."""
    data = rules.statsmodels_data("star98")
    tested = data["NABOVE"] + data["NBELOW"]
    return pd.DataFrame(
        {
            "Students Tested": tested.astype(int),
            "Pct Above National Median": (data["NABOVE"] / tested * 100).round(2),
            "Low Income (%)": data["LOWINC"].round(2),
            "Asian (%)": data["PERASIAN"].round(2),
            "Black (%)": data["PERBLACK"].round(2),
            "Hispanic (%)": data["PERHISP"].round(2),
            "Minority Teachers (%)": data["PERMINTE"].round(2),
            "Teacher Experience (yrs)": data["AVYRSEXP"].round(2),
            "Avg Teacher Salary ($k)": data["AVSALK"].round(2),
            "Spending per Pupil ($k)": data["PERSPENK"].round(3),
            "Pupil-Teacher Ratio": data["PTRATIO"].round(2),
            "College Prep (%)": data["PCTAF"].round(2),
            "Year-Round Schools (%)": data["PCTYRRND"].round(2),
        }
    )


def _marriage_survey(rng: np.random.Generator) -> pd.DataFrame:
    """Fair's 1974 Redbook survey of married women (statsmodels ``fair``), 3,000 of its 6,366 rows;
    ratings and occupations are numeric codes (rate_marriage 1 very poor .. 5 very good, religious
    1 not .. 4 strongly), affairs is the time spent in extramarital affairs."""
    data = rules.statsmodels_data("fair")
    data = data.iloc[np.sort(rng.choice(len(data), size=3000, replace=False))].reset_index(drop=True)
    data["affairs"] = data["affairs"].round(4)
    return data.astype({c: int for c in ("rate_marriage", "religious", "educ", "occupation", "occupation_husb")})


def _voters_1996() -> pd.DataFrame:
    """The 1996 American National Election Study (statsmodels ``anes96``): PartyID 0 strong Democrat ..
    6 strong Republican; left-right placements 1 extremely liberal .. 7 extremely conservative."""
    data = rules.statsmodels_data("anes96")
    frame = pd.DataFrame(
        {
            "PopDensity": data["popul"],
            "TVNewsDays": data["TVnews"].astype(int),
            "SelfLR": data["selfLR"].astype(int),
            "ClintonLR": data["ClinLR"].astype(int),
            "DoleLR": data["DoleLR"].astype(int),
            "PartyID": data["PID"].astype(int),
            "Age": data["age"].astype(int),
            "EducationLevel": data["educ"].astype(int),
            "IncomeBracket": data["income"].astype(int),
            "Vote": np.where(data["vote"] == 1, "Dole", "Clinton"),
        }
    )
    return frame


def _travel_modes() -> pd.DataFrame:
    """Sydney-Melbourne trips (statsmodels ``modechoice``): one row per traveller and option, chosen = 1
    for the option taken."""
    data = rules.statsmodels_data("modechoice")
    return pd.DataFrame(
        {
            "traveller_id": data["individual"].astype(int),
            "mode": data["mode"].map({1: "air", 2: "train", 3: "bus", 4: "car"}),
            "chosen": data["choice"].astype(int),
            "terminal_wait_min": data["ttme"].astype(int),
            "vehicle_cost": data["invc"].astype(int),
            "vehicle_time_min": data["invt"].astype(int),
            "generalised_cost": data["gc"].astype(int),
            "household_income": data["hinc"].astype(int),
            "party_size": data["psize"].astype(int),
        }
    )


CENSUS_REGIONS = {
    "Northeast": "Connecticut Maine Massachusetts New_Hampshire Rhode_Island Vermont New_Jersey New_York Pennsylvania",
    "Midwest": "Illinois Indiana Michigan Ohio Wisconsin Iowa Kansas Minnesota Missouri Nebraska North_Dakota "
    "South_Dakota",
    "South": "Delaware Florida Georgia Maryland North_Carolina South_Carolina Virginia District_of_Columbia "
    "West_Virginia Alabama Kentucky Mississippi Tennessee Arkansas Louisiana Oklahoma Texas",
    "West": "Arizona Colorado Idaho Montana Nevada New_Mexico Utah Wyoming Alaska California Hawaii Oregon Washington",
}


def _state_crime() -> pd.DataFrame:
    """US states 2009 (statsmodels ``statecrime``), with each state's Census region."""
    data = rules.statsmodels_data("statecrime")
    region = {s.replace("_", " "): r for r, states in CENSUS_REGIONS.items() for s in states.split()}
    states = [s.strip() for s in data.index]
    assert set(states) == set(region), set(states) ^ set(region)
    return pd.DataFrame(
        {
            "State": states,
            "Region": [region[s] for s in states],
            "Violent Crime per 100k": data["violent"].to_numpy(),
            "Murder per 100k": data["murder"].to_numpy(),
            "HS Graduates (%)": data["hs_grad"].to_numpy(),
            "Poverty (%)": data["poverty"].to_numpy(),
            "Single Parent (%)": data["single"].to_numpy(),
            "White (%)": data["white"].to_numpy(),
            "Urban (%)": data["urban"].to_numpy(),
        }
    )


MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _pacific_sst() -> pd.DataFrame:
    """Monthly sea surface temperature off South America, 1950-2010 (statsmodels ``elnino``), long."""
    data = rules.statsmodels_data("elnino")
    rows = []
    for _, year in data.iterrows():
        for number, month in enumerate(MONTHS, start=1):
            rows.append(
                {
                    "month_start": f"{int(year['YEAR'])}-{number:02d}-01",
                    "calendar_month": month.title(),
                    "sst_celsius": year[month],
                }
            )
    return pd.DataFrame(rows)


def _copper_market() -> pd.DataFrame:
    """The world copper market 1951-1975 (statsmodels ``copper``)."""
    data = rules.statsmodels_data("copper")
    return pd.DataFrame(
        {
            "Year": (1950 + data["TIME"]).astype(int),
            "WorldConsumption": data["WORLDCONSUMPTION"],
            "CopperPrice": data["COPPERPRICE"],
            "IncomeIndex": data["INCOMEINDEX"],
            "AluminiumPrice": data["ALUMPRICE"],
            "InventoryIndex": data["INVENTORYINDEX"],
        }
    )


def _nile_flow() -> pd.DataFrame:
    """The Nile's annual flow at Aswan, 1871-1970 (statsmodels ``nile``), in 10^8 cubic metres."""
    data = rules.statsmodels_data("nile")
    return pd.DataFrame({"year": data["year"].astype(int), "Flow Volume (1e8 m3)": data["volume"].astype(int)})


FERTILITY_COUNTRIES = {
    "Brazil": "Brazil",
    "France": "France",
    "India": "India",
    "Italy": "Italy",
    "Japan": "Japan",
    "Kenya": "Kenya",
    "Korea, Rep.": "South Korea",
    "Mexico": "Mexico",
    "Niger": "Niger",
    "Nigeria": "Nigeria",
    "Iran, Islamic Rep.": "Iran",
    "United States": "United States",
}


def _fertility() -> pd.DataFrame:
    """Births per woman, 1960-2011, for twelve countries (statsmodels ``fertility``, World Bank), long."""
    data = rules.statsmodels_data("fertility").set_index("Country Name")
    years = [str(y) for y in range(1960, 2012)]
    rows = [
        {"country": name, "year": int(year), "births_per_woman": data.loc[source, year]}
        for source, name in FERTILITY_COUNTRIES.items()
        for year in years
    ]
    return pd.DataFrame(rows)


def _health_insurance(rng: np.random.Generator) -> pd.DataFrame:
    """The RAND health insurance experiment (statsmodels ``randhie``), 2,000 of its 20,190 person-years;
    the three health dummies as one self-rated health column."""
    data = rules.statsmodels_data("randhie")
    data = data.iloc[np.sort(rng.choice(len(data), size=2000, replace=False))].reset_index(drop=True)
    health = np.select(
        [data["hlthp"] == 1, data["hlthf"] == 1, data["hlthg"] == 1], ["poor", "fair", "good"], "excellent"
    )
    return pd.DataFrame(
        {
            "md_visits": data["mdvis"].astype(int),
            "log_coinsurance": data["lncoins"].round(4),
            "individual_deductible": data["idp"].astype(int),
            "log_participation_incentive": data["lpi"].round(4),
            "log_max_expenditure": data["fmde"].round(4),
            "physical_limitation": data["physlm"].round(4),
            "chronic_diseases": data["disea"].round(2),
            "self_rated_health": health,
        }
    )


def _clinic_patients(rng: np.random.Generator) -> pd.DataFrame:
    """A clinic's patients 2022-2024: smokers walk less and have higher blood pressure, which a programme
    lowers from 2024; region and smoker coded."""
    n = 420
    region = rng.choice([1, 2, 3, 4], size=n, p=[0.34, 0.27, 0.22, 0.17])
    smoker = (rng.random(n) < np.select([region == 1, region == 2, region == 3], [0.16, 0.22, 0.3], 0.4)).astype(int)
    sex = rng.choice(["F", "M"], size=n, p=[0.54, 0.46])
    age = rng.integers(18, 86, size=n)
    height = np.where(sex == "M", 178, 165) + rng.normal(0, 7, size=n)
    weight = np.where(sex == "M", 84, 70) + 0.09 * (age - 50) + 0.5 * (height - 170) + rng.normal(0, 11, size=n)
    day = rng.integers(0, 1080, size=n)
    programme = np.where(day >= 730, 11.0, 0.0)  # a blood-pressure programme from January 2024
    systolic = 104 + 0.42 * age + 5 * smoker + 0.12 * (weight - 75) - programme + rng.normal(0, 12, size=n)
    cholesterol = 4.1 + 0.016 * age + 0.25 * smoker + rng.normal(0, 0.75, size=n)
    hba1c = 5.0 + 0.012 * age + 0.02 * (weight - 75) + rng.normal(0, 0.45, size=n)
    steps = 9800 - 42 * age - 2300 * smoker + np.select([region == 4], [-900], 0) + rng.normal(0, 1900, size=n)
    dates = (pd.Timestamp("2022-01-03") + pd.to_timedelta(day, unit="D")).strftime("%Y-%m-%d")
    frame = pd.DataFrame(
        {
            "patient_id": np.arange(1001, 1001 + n),
            "visit_date": dates,
            "region": region,
            "smoker": smoker,
            "sex": sex,
            "age": age,
            "Height (cm)": np.round(height, 1),
            "Weight (kg)": np.round(weight, 1),
            "systolic_bp": np.round(systolic).astype(int),
            "cholesterol_mmol": np.round(cholesterol, 2),
            "hba1c_pct": np.round(hba1c, 1),
            "steps_per_day": np.clip(np.round(steps, -1), 400, None).astype(int),
        }
    ).sort_values("visit_date", kind="stable", ignore_index=True)
    frame.loc[rng.choice(n, size=31, replace=False), "cholesterol_mmol"] = np.nan
    frame.loc[rng.choice(n, size=17, replace=False), "hba1c_pct"] = np.nan
    return frame


DISTRICTS = {  # rent per m2 in 2019 (EUR), distance to the centre (km), share of the listings
    "Altstadt": (15.8, 0.8, 0.14),
    "Hafen": (14.1, 2.4, 0.16),
    "Nordviertel": (11.2, 4.1, 0.21),
    "Suedpark": (12.6, 3.3, 0.17),
    "Westend": (13.4, 2.9, 0.19),
    "Oststadt": (9.7, 5.6, 0.13),
}


def _apartment_listings(rng: np.random.Generator) -> pd.DataFrame:
    """Flats listed for rent 2019-2024: rents rise 4% a year, the old town is dearest per m2."""
    n = 640
    names = list(DISTRICTS)
    district = rng.choice(names, size=n, p=[DISTRICTS[d][2] for d in names])
    rate = np.array([DISTRICTS[d][0] for d in district])
    distance = np.round(np.array([DISTRICTS[d][1] for d in district]) * rng.lognormal(0, 0.25, size=n), 2)
    rooms = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.18, 0.34, 0.28, 0.14, 0.06])
    area = np.round(18 + 21 * rooms + rng.normal(0, 8, size=n))
    day = rng.integers(0, 6 * 365, size=n)
    listed = pd.Timestamp("2019-01-01") + pd.to_timedelta(day, unit="D")
    years = day / 365
    balcony = rng.random(n) < 0.45
    rent = area * rate * 1.04**years * np.where(balcony, 1.14, 1.0) * rng.normal(1, 0.08, size=n)
    built = rng.integers(1890, 2023, size=n).astype(float)
    energy = rng.choice(list("ABCDEFG"), size=n, p=[0.06, 0.12, 0.2, 0.24, 0.18, 0.12, 0.08]).astype(object)
    frame = pd.DataFrame(
        {
            "Listing Date": listed.strftime("%Y-%m-%d"),
            "District": district,
            "Rooms": rooms,
            "Floor Area (m2)": area.astype(int),
            "Monthly Rent (EUR)": np.round(rent).astype(int),
            "Year Built": built,
            "Balcony": np.where(balcony, "yes", "no"),
            "Energy Class": energy,
            "Distance to Centre (km)": distance,
        }
    ).sort_values("Listing Date", kind="stable", ignore_index=True)
    frame.loc[rng.choice(n, size=46, replace=False), "Year Built"] = np.nan
    frame.loc[rng.choice(n, size=29, replace=False), "Energy Class"] = np.nan
    frame["Year Built"] = frame["Year Built"].astype("Int64")
    return frame


CATEGORIES = {  # revenue in January 2021, growth a month, average price, return rate (%), its change a month
    "Garden": (41_000, 0.004, 38.0, 3.1, -0.003),
    "Kitchen": (66_000, 0.009, 52.0, 4.2, -0.002),
    "Toys": (29_000, 0.021, 24.0, 5.6, -0.004),
    "Electronics": (118_000, -0.012, 189.0, 7.9, -0.003),
    "Apparel": (74_000, 0.012, 41.0, 11.5, -0.012),
}


def _shop_monthly(rng: np.random.Generator) -> pd.DataFrame:
    """An online shop's monthly figures per product category, 2021-2024; toys grow fastest, electronics
    shrink, apparel's return rate falls fastest as its sizing guide improves."""
    months = pd.date_range("2021-01-01", "2024-12-01", freq="MS")
    rows = []
    for index, month in enumerate(months):
        season = 1 + 0.25 * (month.month in (11, 12)) - 0.08 * (month.month in (1, 2))
        for category, (base, monthly_growth, price, returns, fewer_returns) in CATEGORIES.items():
            revenue = base * (1 + monthly_growth) ** index * season * rng.normal(1, 0.04)
            rows.append(
                {
                    "OrderMonth": month.strftime("%Y-%m-%d"),
                    "ProductCategory": category,
                    "UnitsSold": int(np.rint(revenue / (price * rng.normal(1, 0.02)))),
                    "NetRevenue": round(revenue, 2),
                    "ReturnRatePct": round(returns * (1 + fewer_returns) ** index + rng.normal(0, 0.2), 2),
                    "AdSpend": round(revenue * 0.07 * rng.lognormal(0, 0.3), 2),
                }
            )
    return pd.DataFrame(rows)


UTILITIES = {  # renewable GWh in 2012 and growth a year, coal GWh and growth, customers (k) and growth
    "Nordwind": (4200, 0.06, 3000, -0.09, 820, 0.015),
    "Solara": (900, 0.24, 1200, -0.05, 310, 0.045),
    "Hydrovale": (6100, 0.015, 400, -0.02, 1150, 0.005),
    "Carbonex": (350, 0.19, 9800, -0.03, 1900, -0.008),
    "Tidewater": (2100, 0.11, 5200, -0.13, 640, 0.022),
    "Kestrel": (1500, 0.08, 4100, -0.07, 480, 0.031),
}


def _utility_panel(rng: np.random.Generator) -> pd.DataFrame:
    """Six (invented) power utilities, 2012-2023: renewables up, coal down; a few customer counts missing
    in the middle years."""
    rows = []
    for company, (ren, ren_g, coal, coal_g, customers, cust_g) in UTILITIES.items():
        for index, year in enumerate(range(2012, 2024)):
            renewable = ren * (1 + ren_g) ** index * rng.normal(1, 0.04)
            coal_out = coal * (1 + coal_g) ** index * rng.normal(1, 0.04)
            intensity = 40 + 910 * coal_out / (coal_out + renewable + 0.35 * (ren + coal)) + rng.normal(0, 8)
            rows.append(
                {
                    "Company": company,
                    "Year": year,
                    "Renewable Output (GWh)": round(renewable, 1),
                    "Coal Output (GWh)": round(coal_out, 1),
                    "Customers (thousands)": round(customers * (1 + cust_g) ** index * rng.normal(1, 0.005), 1),
                    "CO2 Intensity (g/kWh)": round(intensity),
                }
            )
    frame = pd.DataFrame(rows)
    middle = frame.index[(frame["Year"] > 2012) & (frame["Year"] < 2023)]
    frame.loc[rng.choice(middle, size=5, replace=False), "Customers (thousands)"] = np.nan
    return frame


def build_datasets() -> list[str]:
    rng = np.random.default_rng(SEED)
    frames = {
        "school_districts": _school_districts(),
        "marriage_survey": _marriage_survey(rng),
        "voters_1996": _voters_1996(),
        "travel_modes": _travel_modes(),
        "state_crime": _state_crime(),
        "pacific_sst": _pacific_sst(),
        "copper_market": _copper_market(),
        "nile_flow": _nile_flow(),
        "fertility": _fertility(),
        "health_insurance": _health_insurance(rng),
        "clinic_patients": _clinic_patients(rng),
        "apartment_listings": _apartment_listings(rng),
        "shop_monthly": _shop_monthly(rng),
        "utility_panel": _utility_panel(rng),
    }
    return rules.write_datasets(frames, DATASETS)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare
    ("ho-compare-states-poverty", "state_crime", "compare",
     "Which census region has the highest poverty rate, averaging over its states?",
     compare("Region", "Poverty____")),
    ("ho-compare-states-murder-low", "state_crime", "compare",
     "Where is murder rarest? Give me the region with the lowest mean murder rate per 100k.",
     compare("Region", "Murder_per_100k", high=False)),
    ("ho-compare-travel-time", "travel_modes", "compare",
     "Which way of travelling keeps you in the vehicle longest, on average?",
     compare("mode", "vehicle_time_min")),
    ("ho-compare-travel-cost-low", "travel_modes", "compare",
     "cheapest mode by average vehicle_cost?",
     compare("mode", "vehicle_cost", high=False)),
    ("ho-compare-flats-median-rent", "apartment_listings", "compare",
     "priciest district by median rent?",
     compare("District", "Monthly_Rent__EUR_", stat="median")),
    ("ho-compare-marriage-affairs", "marriage_survey", "compare",
     "Among the five marriage ratings (rate_marriage, 1 = very poor to 5 = very good), which group "
     "reports the most time spent in affairs on average?",
     compare("rate_marriage", "affairs")),
    ("ho-compare-voters-income", "voters_1996", "compare",
     "Who was better off, Clinton's voters or Dole's? Compare their mean IncomeBracket.",
     compare("Vote", "IncomeBracket")),
    ("ho-compare-health-visits", "health_insurance", "compare",
     "Which self-rated health group sees the doctor most often, going by mean md_visits?",
     compare("self_rated_health", "md_visits")),
    ("ho-compare-fertility-highest", "fertility", "compare",
     "Which country had the highest average number of births per woman across the whole period?",
     compare("country", "births_per_woman")),
    ("ho-compare-clinic-steps-region", "clinic_patients", "compare",
     "In which region (coded 1 to 4) do patients walk the least? Compare the average daily step count.",
     compare("region", "steps_per_day", high=False)),
    ("ho-compare-shop-returns-median", "shop_monthly", "compare",
     "Which product category has the worst returns problem, i.e. the highest median monthly ReturnRatePct?",
     compare("ProductCategory", "ReturnRatePct", stat="median")),
    ("ho-compare-sst-warmest-month", "pacific_sst", "compare",
     "What's the warmest month of the year for these waters, on average?",
     compare("calendar_month", "sst_celsius")),
    ("ho-compare-utility-cleanest", "utility_panel", "compare",
     "Which utility has the cleanest power, that is the lowest average CO2 intensity?",
     compare("Company", "CO2_Intensity__g_kWh_", high=False)),
    # rank_differences
    ("ho-rank-states-region", "state_crime", "rank_differences",
     "Which of these state indicators varies most from one census region to another?",
     rank_differences("Region")),
    ("ho-rank-voters-vote", "voters_1996", "rank_differences",
     "What separates Clinton voters from Dole voters most sharply?",
     rank_differences("Vote")),
    ("ho-rank-travel-mode", "travel_modes", "rank_differences",
     "Air, train, bus and car: on which attribute do the four modes differ the most?",
     rank_differences("mode")),
    ("ho-rank-clinic-smoker", "clinic_patients", "rank_differences",
     "Smokers vs non-smokers (smoker = 1 / 0): which measurement shows the biggest gap between them?",
     rank_differences("smoker")),
    ("ho-rank-health-rating", "health_insurance", "rank_differences",
     "Which variable differs most between people who call their health poor, fair, good or excellent?",
     rank_differences("self_rated_health")),
    ("ho-rank-marriage-rating", "marriage_survey", "rank_differences",
     "Across the levels of rate_marriage, which other column differs the most?",
     rank_differences("rate_marriage")),
    ("ho-rank-flats-district", "apartment_listings", "rank_differences",
     "What sets the six districts apart most among the listings' numeric attributes?",
     rank_differences("District")),
    ("ho-rank-voters-education", "voters_1996", "rank_differences",
     "Comparing respondents at the seven EducationLevel codes, which variable changes most between them?",
     rank_differences("EducationLevel")),
    ("ho-rank-shop-category", "shop_monthly", "rank_differences",
     "Which monthly metric is most different from one product category to the next?",
     rank_differences("ProductCategory")),
    ("ho-rank-health-deductible", "health_insurance", "rank_differences",
     "People with an individual deductible versus those without (individual_deductible 1 vs 0): "
     "where is the largest difference?",
     rank_differences("individual_deductible")),
    ("ho-rank-states-south-west", "state_crime", "rank_differences",
     "Just the South against the West: which measure differs most between the two?",
     rank_differences("Region", only=("South", "West"))),
    ("ho-rank-travel-bus-train", "travel_modes", "rank_differences",
     "Bus or train? Leaving the other modes out, what distinguishes these two options the most?",
     rank_differences("mode", only=("bus", "train"))),
    # association
    ("ho-assoc-schools-top", "school_districts", "association",
     "What goes hand in hand with a district's Pct Above National Median more than anything else?",
     most_associated("Pct_Above_National_Median")),
    ("ho-assoc-schools-spending-ratio", "school_districts", "association",
     "Do districts that spend more per pupil have fewer pupils per teacher? Is the correlation between "
     "Spending per Pupil and the Pupil-Teacher Ratio positive or negative?",
     direction("Spending_per_Pupil___k_", "Pupil_Teacher_Ratio")),
    ("ho-assoc-states-violent", "state_crime", "association",
     "Leaving the murder rate aside, which characteristic of a state is most closely correlated with "
     "its violent crime rate?",
     most_associated("Violent_Crime_per_100k", among=("HS_Graduates____", "Poverty____", "Single_Parent____",
                                                       "White____", "Urban____"))),
    ("ho-assoc-voters-vote", "voters_1996", "association",
     "Which variable predicts the vote (Clinton or Dole) best, in terms of correlation?",
     most_associated("Vote")),
    ("ho-assoc-voters-age-tv", "voters_1996", "association",
     "Do older people watch the TV news on more days? Give the direction and strength of the Age / "
     "TVNewsDays correlation.",
     direction("Age", "TVNewsDays")),
    ("ho-assoc-voters-income-dole", "voters_1996", "association",
     "Is IncomeBracket positively or negatively related to voting for Dole rather than Clinton?",
     direction("IncomeBracket", "Vote")),
    ("ho-assoc-copper-consumption", "copper_market", "association",
     "Of CopperPrice, IncomeIndex, AluminiumPrice and InventoryIndex, which moves most closely with "
     "world copper consumption?",
     most_associated("WorldConsumption", among=("CopperPrice", "IncomeIndex", "AluminiumPrice", "InventoryIndex"))),
    ("ho-assoc-clinic-bp", "clinic_patients", "association",
     "What is systolic blood pressure most strongly correlated with in this clinic?",
     most_associated("systolic_bp")),
    ("ho-assoc-marriage-affairs", "marriage_survey", "association",
     "Which variable is most associated with the time spent in affairs?",
     most_associated("affairs")),
    ("ho-assoc-travel-time-cost", "travel_modes", "association",
     "Do longer in-vehicle times come with higher vehicle costs? Positive or negative relationship, and "
     "how strong?",
     direction("vehicle_time_min", "vehicle_cost")),
    ("ho-assoc-flats-rent-top", "apartment_listings", "association",
     "Which numeric attribute of a flat is the best single predictor of its Monthly Rent (EUR), by "
     "correlation?",
     most_associated("Monthly_Rent__EUR_")),
    ("ho-assoc-health-chronic-visits", "health_insurance", "association",
     "Is the number of chronic diseases correlated with md_visits, and in which direction?",
     direction("chronic_diseases", "md_visits")),
    # trend
    ("ho-trend-nile", "nile_flow", "trend",
     "Did the Nile's annual flow decline between 1871 and 1970?",
     trend("year", "Flow_Volume__1e8_m3_")),
    ("ho-trend-copper-price", "copper_market", "trend",
     "How did the copper price develop from 1951 to 1975?",
     trend("Year", "CopperPrice")),
    ("ho-trend-copper-consumption", "copper_market", "trend",
     "Is world consumption of copper trending upward?",
     trend("Year", "WorldConsumption")),
    ("ho-trend-sst-yearly", "pacific_sst", "trend",
     "Has the sea got warmer or cooler over the decades? Use the yearly average of sst_celsius.",
     trend("month_start", "sst_celsius")),
    ("ho-trend-fertility", "fertility", "trend",
     "Is the average fertility rate of these countries going down over time?",
     trend("year", "births_per_woman")),
    ("ho-trend-shop-returns-monthly", "shop_monthly", "trend",
     "Month by month, is the average return rate across categories coming down?",
     trend("OrderMonth", "ReturnRatePct", per="month")),
    ("ho-trend-shop-units-yearly", "shop_monthly", "trend",
     "Did the total number of units sold per year go up between 2021 and 2024?",
     trend("OrderMonth", "UnitsSold", stat="sum")),
    ("ho-trend-flats-rent", "apartment_listings", "trend",
     "Are asking rents climbing year over year? Look at the average monthly rent by listing year.",
     trend("Listing_Date", "Monthly_Rent__EUR_")),
    ("ho-trend-utility-coal-total", "utility_panel", "trend",
     "Has the combined coal output of all six utilities shrunk over the years? I want the yearly totals.",
     trend("Year", "Coal_Output__GWh_", stat="sum")),
    ("ho-trend-utility-intensity", "utility_panel", "trend",
     "What's the trend in average CO2 intensity from 2012 to 2023?",
     trend("Year", "CO2_Intensity__g_kWh_")),
    # share
    ("ho-share-states-region", "state_crime", "share",
     "What share of the 51 states (DC counted as one) falls in each census region?",
     share("Region")),
    ("ho-share-voters-vote", "voters_1996", "share",
     "What percentage of these respondents voted for each candidate?",
     share("Vote")),
    ("ho-share-health-rating", "health_insurance", "share",
     "How do people rate their own health: which answer is most common, and what percent give it?",
     share("self_rated_health")),
    ("ho-share-flats-district", "apartment_listings", "share",
     "Which district has the most listings, as a share of all of them?",
     share("District")),
    ("ho-share-shop-revenue", "shop_monthly", "share",
     "Which category brings in the biggest slice of net revenue?",
     share("ProductCategory", of="NetRevenue")),
    ("ho-share-shop-units", "shop_monthly", "share",
     "What proportion of all units sold came from each product category?",
     share("ProductCategory", of="UnitsSold")),
    ("ho-share-clinic-region", "clinic_patients", "share",
     "Where do the patients come from? Percentage of patients by region.",
     share("region")),
    ("ho-share-utility-renewables", "utility_panel", "share",
     "Which company generated the largest share of all the renewable output in the table?",
     share("Company", of="Renewable_Output__GWh_")),
    ("ho-share-marriage-religious", "marriage_survey", "share",
     "How are the respondents spread across the four levels of religiousness (religious 1-4)? Which "
     "level is the most common?",
     share("religious")),
    # growth
    ("ho-growth-shop-revenue", "shop_monthly", "growth",
     "Which category's net revenue grew the most between January 2021 and December 2024, in percent?",
     growth("ProductCategory", "OrderMonth", "NetRevenue")),
    ("ho-growth-shop-revenue-decline", "shop_monthly", "growth",
     "Which category lost the most revenue in relative terms from the first month to the last?",
     growth("ProductCategory", "OrderMonth", "NetRevenue", high=False)),
    ("ho-growth-shop-units", "shop_monthly", "growth",
     "Which product line shows the strongest percentage growth in units sold over the period?",
     growth("ProductCategory", "OrderMonth", "UnitsSold")),
    ("ho-growth-fertility-drop", "fertility", "growth",
     "Which country's fertility rate fell the most, in percentage terms, from 1960 to 2011?",
     growth("country", "year", "births_per_woman", high=False)),
    ("ho-growth-fertility-rise", "fertility", "growth",
     "Which country's births per woman rose the most between 1960 and 2011, in percent?",
     growth("country", "year", "births_per_woman")),
    ("ho-growth-utility-renewables", "utility_panel", "growth",
     "Whose renewable output grew fastest from 2012 to 2023, as a percentage?",
     growth("Company", "Year", "Renewable_Output__GWh_")),
    ("ho-growth-utility-coal", "utility_panel", "growth",
     "Which utility cut its coal output the most in percentage terms over 2012-2023?",
     growth("Company", "Year", "Coal_Output__GWh_", high=False)),
    ("ho-growth-utility-customers", "utility_panel", "growth",
     "Which company expanded its customer base the most between the first year and the last, in %?",
     growth("Company", "Year", "Customers__thousands_")),
    ("ho-growth-shop-returns", "shop_monthly", "growth",
     "For which category did the return rate drop most steeply from the first month to the last, in "
     "relative terms?",
     growth("ProductCategory", "OrderMonth", "ReturnRatePct", high=False)),
    # statistic
    ("ho-stat-schools-median-ratio", "school_districts", "statistic",
     "What's the median pupil-teacher ratio across districts?",
     statistic("Pupil_Teacher_Ratio", "median")),
    ("ho-stat-schools-total-tested", "school_districts", "statistic",
     "How many students were tested in all, adding up every district?",
     statistic("Students_Tested", "sum")),
    ("ho-stat-schools-sd-salary", "school_districts", "statistic",
     "How spread out are average teacher salaries between districts? Give the standard deviation.",
     statistic("Avg_Teacher_Salary___k_", "sd")),
    ("ho-stat-nile-min", "nile_flow", "statistic",
     "What was the Nile's lowest annual flow on record?",
     statistic("Flow_Volume__1e8_m3_", "min")),
    ("ho-stat-sst-peak", "pacific_sst", "statistic",
     "peak sea surface temperature?",
     statistic("sst_celsius", "max")),
    ("ho-stat-clinic-count-cholesterol", "clinic_patients", "statistic",
     "How many patients have a cholesterol_mmol value recorded?",
     statistic("cholesterol_mmol", "count")),
    ("ho-stat-clinic-p75-bp", "clinic_patients", "statistic",
     "What's the upper quartile (75th percentile) of systolic blood pressure?",
     statistic("systolic_bp", "p75")),
    ("ho-stat-clinic-median-weight", "clinic_patients", "statistic",
     "How heavy is a typical patient? Give the middle value of Weight (kg).",
     statistic("Weight__kg_", "median", close_to="mean")),
    ("ho-stat-marriage-p90-affairs", "marriage_survey", "statistic",
     "What is the 90th percentile of affairs?",
     statistic("affairs", "p90")),
    ("ho-stat-health-p10-chronic", "health_insurance", "statistic",
     "Bottom decile of chronic_diseases: what value marks the lowest 10%?",
     statistic("chronic_diseases", "p10")),
    ("ho-stat-fertility-median-low", "fertility", "statistic",
     "Which country has the lowest median births per woman over the years covered?",
     statistic("births_per_woman", "median", group="country", high=False)),
    ("ho-stat-shop-best-month", "shop_monthly", "statistic",
     "Which category had the single biggest month of net revenue (the highest monthly maximum)?",
     statistic("NetRevenue", "max", group="ProductCategory")),
    ("ho-stat-travel-sd-time", "travel_modes", "statistic",
     "For which mode is the time in the vehicle least predictable, i.e. has the largest standard deviation?",
     statistic("vehicle_time_min", "sd", group="mode")),
    ("ho-stat-flats-p25-area", "apartment_listings", "statistic",
     "First quartile of floor area (m2)?",
     statistic("Floor_Area__m2_", "p25")),
    # filter
    ("ho-filter-schools-lowinc-under-20", "school_districts", "filter",
     "In districts where fewer than 20% of pupils are low income, what's the mean Pct Above National Median?",
     subset("Pct_Above_National_Median", "Low_Income____ < 20")),
    ("ho-filter-schools-ratio-at-most-20", "school_districts", "filter",
     "For districts with no more than 20 pupils per teacher, what's the average spending per pupil?",
     subset("Spending_per_Pupil___k_", "Pupil_Teacher_Ratio <= 20")),
    ("ho-filter-marriage-under-5-years", "marriage_survey", "filter",
     "Average affairs for women married less than 5 years?",
     subset("affairs", "yrs_married < 5")),
    ("ho-filter-marriage-rating-at-least-4", "marriage_survey", "filter",
     "What's the mean affairs score of respondents who rate their marriage 4 or higher?",
     subset("affairs", "rate_marriage >= 4")),
    ("ho-filter-voters-never-news-age", "voters_1996", "filter",
     "How old, on average, are the people who never watch the TV news (zero TVNewsDays)?",
     subset("Age", "TVNewsDays == 0")),
    ("ho-filter-voters-65-plus-news", "voters_1996", "filter",
     "On how many days a week do respondents aged 65 and over watch TV news, on average?",
     subset("TVNewsDays", "Age >= 65")),
    ("ho-filter-voters-not-strong-partisans", "voters_1996", "filter",
     "Excluding the strong partisans at both ends (PartyID 0 and 6), what is the mean ClintonLR?",
     subset("ClintonLR", "PartyID not in [0, 6]")),
    ("ho-filter-travel-chosen-time", "travel_modes", "filter",
     "Looking only at the options travellers actually picked (chosen = 1), what's the average vehicle_time_min?",
     subset("vehicle_time_min", "chosen == 1")),
    ("ho-filter-travel-not-car", "travel_modes", "filter",
     "What is the mean terminal waiting time of the options other than car?",
     subset("terminal_wait_min", "mode != 'car'")),
    ("ho-filter-states-urban-over-80", "state_crime", "filter",
     "What's the average violent crime rate in states that are more than 80% urban?",
     subset("Violent_Crime_per_100k", "Urban____ > 80")),
    ("ho-filter-states-outside-south", "state_crime", "filter",
     "Median murder rate outside the South?",
     subset("Murder_per_100k", "Region != 'South'", stat="median")),
    ("ho-filter-clinic-smokers-60-plus", "clinic_patients", "filter",
     "What is the mean cholesterol of smokers aged 60 or older?",
     subset("cholesterol_mmol", "smoker == 1 and age >= 60")),
    ("ho-filter-clinic-2024", "clinic_patients", "filter",
     "What was the average systolic_bp of patients seen in 2024?",
     subset("systolic_bp", "visit_date >= '2024-01-01' and visit_date <= '2024-12-31'")),
    ("ho-filter-clinic-non-smokers-steps", "clinic_patients", "filter",
     "Among patients who don't smoke, how many steps a day do they take on average?",
     subset("steps_per_day", "smoker == 0")),
    ("ho-filter-flats-3-rooms-plus", "apartment_listings", "filter",
     "Average rent for flats with at least 3 rooms?",
     subset("Monthly_Rent__EUR_", "Rooms >= 3")),
    ("ho-filter-flats-two-rooms-no-balcony", "apartment_listings", "filter",
     "What do two-room flats without a balcony rent for on average per month?",
     subset("Monthly_Rent__EUR_", "Rooms == 2 and Balcony == 'no'")),
    ("ho-filter-flats-area-40-60", "apartment_listings", "filter",
     "What's the median monthly rent for flats between 40 and 60 m2?",
     subset("Monthly_Rent__EUR_", "40 <= Floor_Area__m2_ <= 60", stat="median")),
    ("ho-filter-flats-built-before-1920", "apartment_listings", "filter",
     "How many of the flats were built before 1920?",
     subset("Year_Built", "Year_Built < 1920", stat="count")),
    ("ho-filter-flats-not-altstadt-distance", "apartment_listings", "filter",
     "Leaving out the Altstadt, how far from the centre are the listed flats on average?",
     subset("Distance_to_Centre__km_", "District != 'Altstadt'")),
    ("ho-filter-nile-after-1898", "nile_flow", "filter",
     "What was the mean annual flow after 1898?",
     subset("Flow_Volume__1e8_m3_", "year > 1898")),
    ("ho-filter-health-no-limitation", "health_insurance", "filter",
     "How many doctor visits, on average, do people without any physical limitation make?",
     subset("md_visits", "physical_limitation == 0")),
    ("ho-filter-fertility-kenya-median", "fertility", "filter",
     "For Kenya only, what was the median number of births per woman?",
     subset("births_per_woman", "country == 'Kenya'", stat="median")),
    ("ho-filter-fertility-since-2000", "fertility", "filter",
     "What was the average births per woman from 2000 onwards?",
     subset("births_per_woman", "year >= 2000")),
    ("ho-filter-health-not-excellent", "health_insurance", "filter",
     "For people who did not rate their health as excellent, what's the mean number of chronic_diseases?",
     subset("chronic_diseases", "self_rated_health != 'excellent'")),
    ("ho-filter-health-deductible", "health_insurance", "filter",
     "Mean md_visits among people with an individual deductible (individual_deductible = 1)?",
     subset("md_visits", "individual_deductible == 1")),
    ("ho-filter-shop-2024-not-electronics", "shop_monthly", "filter",
     "Total net revenue in 2024, leaving out Electronics?",
     subset("NetRevenue", "OrderMonth >= '2024-01-01' and ProductCategory != 'Electronics'", stat="sum")),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: ids unique, every kind at least six times, answers from the data."""
    rules.check_kinds(entries, per_kind=6, at_least=60)
    assert len(names) >= 8 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    by_id = {e["id"]: e for e in entries}
    assert by_id["ho-trend-nile"]["answer"] == "fell" and by_id["ho-trend-nile"]["figure"] == 740  # 1970
    assert by_id["ho-share-states-region"]["answer"] == "South"  # 17 of 51
    assert abs(by_id["ho-share-states-region"]["figure"] - 100 * 17 / 51) < 1e-6
    assert by_id["ho-growth-fertility-drop"]["answer"] == "South Korea"  # 6.155 in 1960, 1.244 in 2011
    assert by_id["ho-growth-fertility-rise"]["answer"] == "Niger"


def main() -> None:
    names = build_datasets()
    frames = {name: rules.read_back(DATASETS, name) for name in names}
    rules.unambiguous_bounds(frames["school_districts"], "Low_Income____", 20)
    rules.unambiguous_bounds(frames["marriage_survey"], "yrs_married", 5)
    rules.unambiguous_bounds(frames["state_crime"], "Urban____", 80)
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
