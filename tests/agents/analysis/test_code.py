"""The filters of the dataset store's language written as pandas masks keep the rows the store keeps."""

import pandas as pd
import pytest

from agents.analysis.code import mask

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
