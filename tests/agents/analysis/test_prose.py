"""The analyst's sentences name a statistic and its column once: "the highest mean radius"."""

import pandas as pd

from agents.analysis import prose
from agents.analysis.prose import measure_words
from agents.analysis.request import Request
from agents.operations.stats import timeline
from agents.operations.stats.charts import percentage


def test_a_column_named_after_its_statistic_is_not_said_twice():
    assert measure_words("mean", "mean_radius") == "mean radius"
    assert measure_words("median", "mean_radius") == "median mean radius"
    assert measure_words("mean", "petal_length") == "mean petal length"


def test_percentages_are_said_to_one_decimal_or_two_significant_digits_when_tiny():
    frame = pd.DataFrame({"year": [2000, 2001, 2002], "price": [1381.7, 1381.2, 1380.7]})
    [lead, *_] = prose.trend(Request("trend", "prices"), timeline.trend(frame, "year", "price"))
    assert "-0.072%" in lead and "0.0723" not in lead  # -0.07237%: precision the data cannot carry
    frame = pd.DataFrame({"shop": ["a", "a", "b", "b"], "year": [1, 2, 1, 2], "sales": [3, 10, 7, 8]})
    lines = prose.growth(Request("growth", "shops"), timeline.growth(frame, "shop", "year", "sales"), "who grew most")
    assert "**+233.3%**" in lines[0] and lines[2].startswith("- b: +14.3% ")
    assert [percentage(v) for v in (50.0, -12.345, 1.26, 0.72, 0.0, 0.001234)] == [
        "50",
        "-12.3",
        "1.3",
        "0.72",
        "0",
        "0.0012",
    ]
