"""The code under an answer: the filters of the dataset store's language written as pandas masks keep the
rows the store keeps, and a rate per year of a date is the slope of each year's mean, as stats.rates has it."""

import subprocess
import sys

import pandas as pd
import pytest

from agents.analysis.code import FLOATS, mask, reproduction

ROWS = pd.DataFrame(
    {
        "city": ["Oslo", "Bergen", "Oslo", None],
        "rent": [900.0, 700.0, None, 1200.0],
        "kind": ["flat", "house", "flat", "flat"],
    }
)


@pytest.mark.parametrize(
    ("condition", "kept"),
    [
        ({"column": "city", "op": "=", "value": "Oslo"}, [0, 2]),
        ({"column": "rent", "op": ">=", "value": 900}, [0, 3]),
        ({"column": "city", "op": "in", "value": ["Bergen", "Oslo"]}, [0, 1, 2]),
        ({"column": "rent", "op": "is_null"}, [2]),
        ({"column": "city", "op": "like", "value": "o%"}, [0, 2]),
        ({"and": [{"column": "kind", "op": "=", "value": "flat"}, {"or": [{"column": "rent", "op": "<", "value": 1000},
                                                                          {"column": "city", "op": "is_null"}]}]}, [0, 3]),
        ({"not": {"column": "kind", "op": "!=", "value": "house"}}, [1]),
    ],
)  # fmt: skip
def test_a_filter_keeps_the_same_rows_in_pandas(condition, kept):
    df = ROWS
    assert list(df[eval(mask(condition))].index) == kept  # the generated code is what is tested


def test_the_code_of_a_rate_per_year_prints_the_slope_of_each_years_mean(tmp_path):
    rows = [("2020-01-15", "a", 6), ("2020-12-15", "a", 14), ("2021-06-15", "a", 20), ("2022-06-15", "a", 30)]
    pd.DataFrame(rows, columns=["day", "shop", "sales"]).to_csv(tmp_path / "s.csv", index=False)
    file = {
        "path": "s.csv",
        "dialect": {"separator": ",", "decimal": ".", "thousands": None, "encoding": "utf-8"},
        "columns": [{"name": "day", "type": "date"}, {"name": "shop", "type": "string"},
                    {"name": "sales", "type": "number"}],
    }  # fmt: skip
    body = {"table": "s", "time": "day", "measure": "sales", "group_by": "shop", "period": "year"}
    script = reproduction("stats.rates", body, file)
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert ran.stdout.split()[:2] == ["a", "10"]  # yearly means 10, 20, 30: 10 a year


def test_the_code_of_a_growth_leaves_out_an_entity_seen_at_one_moment_only(tmp_path):
    rows = [("2000-06-01", "xrx", 30), ("2010-06-01", "xrx", 18), ("2010-06-01", "googl", 250)]
    pd.DataFrame(rows, columns=["month", "stock", "price"]).to_csv(tmp_path / "s.csv", index=False)
    file = {
        "path": "s.csv",
        "dialect": {"separator": ",", "decimal": ".", "thousands": None, "encoding": "utf-8"},
        "columns": [{"name": "month", "type": "date"}, {"name": "stock", "type": "string"},
                    {"name": "price", "type": "number"}],
    }  # fmt: skip
    body = {"table": "s", "time": "month", "entity": "stock", "measure": "price", "period": "year"}
    script = reproduction("stats.growth", body, file)
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-800:]
    assert ran.stdout.split()[1:3] == ["xrx", "-40"] and "googl" not in ran.stdout


def test_the_code_of_a_test_between_seasons_reads_the_date_as_its_season(tmp_path):
    rows = [(f"2021-{m:02d}-1{d}", 30 if m in (12, 1, 2) else 10 + d) for m in range(1, 13) for d in range(3)]
    pd.DataFrame(rows, columns=["day", "flow"]).to_csv(tmp_path / "r.csv", index=False)
    file = {
        "path": "r.csv",
        "dialect": {"separator": ",", "decimal": ".", "thousands": None, "encoding": "utf-8"},
        "columns": [{"name": "day", "type": "date"}, {"name": "flow", "type": "number"}],
    }
    body = {"table": "r", "measure": "flow", "group_by": "day", "cycle": "season"}
    script = reproduction("stats.significance", body, file)
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr[-800:]
    assert "season of day" in ran.stdout and "winter" in ran.stdout and "F_onewayResult" in ran.stdout


def test_the_code_prints_small_and_large_figures_as_a_person_writes_them():
    namespace = {"pd": pd}
    with pd.option_context("display.float_format", None):
        exec(FLOATS, namespace)
        printed = str(pd.Series([8.007064384e-05, 411041792.0]))
    assert "0.00008007064384" in printed and "411041792" in printed and "e-" not in printed
