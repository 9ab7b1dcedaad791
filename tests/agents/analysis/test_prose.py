"""The analyst's sentences name a statistic and its column once: "the highest mean radius"."""

from agents.analysis.prose import measure_words


def test_a_column_named_after_its_statistic_is_not_said_twice():
    assert measure_words("mean", "mean_radius") == "mean radius"
    assert measure_words("median", "mean_radius") == "median mean radius"
    assert measure_words("mean", "petal_length") == "mean petal length"
