"""A wide table's columns as things: a question about them as such is answered on them stacked; one that
names a column, or a table whose things are a column already, is answered on the table as it is."""

import pytest

from agents.analysis.schema import Schema
from agents.analysis.wide_tables import stack_for

PRICES = Schema("prices", [
    {"name": "month_end", "type": "date", "distinct": 396, "role": "time"},
    {"name": "sp500_index", "type": "number", "distinct": 396},
    *({"name": ticker, "type": "number", "distinct": 396} for ticker in ("AAPL", "BRK_B", "GE", "XOM")),
], 396)  # fmt: skip
FUNDS = Schema("funds", [
    {"name": "month", "type": "date", "distinct": 107, "role": "time"},
    {"name": "fund", "type": "string", "distinct": 3, "values": ["MTUM", "QUAL", "USMV"]},
    *({"name": code, "type": "number", "distinct": 107} for code in ("NAV", "AUM", "TER")),
], 321)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Jan 1990 to Dec 2022: which of these stocks multiplied the most?", "stock"),
        ("top 3 tickers by price at the end of 2022", "ticker"),
        ("Fitting a straight line to each company's yearly average price, which climbed the most?", "company"),
        # a refinement added after the question, naming one of them as an example: still about them all
        ("Which of these stocks grew the most? Say the growth as a multiple too, e.g. GE x4.7.", "stock"),
    ],
)
def test_a_question_about_the_columns_as_things_stacks_the_code_named_ones(text, name):
    stack = stack_for(text, PRICES)
    assert stack is not None and (stack.columns, stack.keep, stack.name) == (
        ["AAPL", "BRK_B", "GE", "XOM"], ["month_end"], name
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "schema"),
    [
        ("Has GE gone up since 2001?", PRICES),  # a column named: the measure itself
        ("Which of the stocks moves most with BRK_B?", PRICES),
        ("What was the highest S&P 500 level?", PRICES),  # no things said
        ("Which fund has the highest mean NAV?", FUNDS),  # its funds are a column already
    ],
)
def test_a_question_that_names_a_column_or_a_table_already_long_is_not_stacked(text, schema):
    assert stack_for(text, schema) is None


LOWER = Schema("stocks", [
    {"name": "month", "type": "date", "distinct": 390, "role": "time"},
    *({"name": ticker, "type": "number", "distinct": 390} for ticker in ("ibm", "aapl", "xrx", "sp500", "nasdaq")),
], 390)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "columns", "name"),
    [
        ("From 2000 to 2010, which stock lost the most value?", ["ibm", "aapl", "xrx"], "stock"),
        ("Which index grew more from 1990 to 2021, the S&P 500 or the Nasdaq?", ["sp500", "nasdaq"], "index"),
    ],
)
def test_tickers_in_lower_case_stack_and_two_of_them_named_are_the_things_compared(text, columns, name):
    stack = stack_for(text, LOWER)
    assert stack is not None and (stack.columns, stack.name) == (columns, name)


@pytest.mark.parametrize(
    "text",
    [
        "How did Xerox's share price do from 2005 onwards?",  # one company, named by its name
        "Which column has the most gaps in the stock table?",  # the table, not its stocks
    ],
)
def test_one_company_named_or_the_table_named_stacks_nothing(text):
    assert stack_for(text, LOWER) is None


def test_another_column_named_beside_the_codes_is_asked_about_as_it_is():
    markets = Schema("markets", [
        {"name": "date", "type": "date", "distinct": 536, "role": "time"},
        {"name": "ise_usd", "type": "number", "distinct": 536},
        *({"name": code, "type": "number", "distinct": 536} for code in ("sp500", "dax", "ftse", "nikkei")),
    ], 536)  # fmt: skip
    assert stack_for("Which of the other indices tracks the Istanbul index in USD most closely?", markets) is None


def test_a_things_possession_spells_no_abbreviation():
    stack = stack_for("Since January 2017, which stock's price has climbed at the steepest rate per month?", LOWER)
    assert stack is not None and stack.name == "stock"


def test_which_stock_leaves_the_market_indices_out_and_which_index_keeps_only_them():
    stocks = stack_for("Since 2017, which stock climbed at the steepest rate per month?", LOWER)
    indices = stack_for("Which index fell hardest in 2008?", LOWER)
    assert stocks is not None and stocks.columns == ["ibm", "aapl", "xrx"]
    assert indices is not None and indices.columns == ["sp500", "nasdaq"]


def test_words_that_spell_another_columns_initials_leave_the_codes_stacked():
    stack = stack_for("highest share prices at the end of 2022 - top 3 tickers", PRICES)
    assert stack is not None and stack.columns == ["AAPL", "BRK_B", "GE", "XOM"]
