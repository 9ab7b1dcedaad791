"""What a Vega-Lite spec may ask of the server, checked on the spec before anything draws it.

A few hundred bytes of Vega-Lite can ask for millions of rows (an ``impute`` over a generated key
range, a ``pad`` or ``sequence`` in an expression, a huge ``sequence`` generator) or a canvas of
millions of pixels. So the check is an allow-list: the transforms, expression functions and data
generators that cannot make more data than the spec carries, a cap on the data values and on the
marks they may become, bounded sizes, bins and ticks, and a bounded nesting. What passes is still
drawn only in a process of its own with a wall-clock and memory limit (``workspace.charts``): this
check turns the known shapes away at once with a reason, that process is the guarantee.

Plain Python: the drawing process imports it without Django.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_SPEC_BYTES = 1_000_000
MAX_DATA_VALUES = 5_000
MAX_MARKS = 50_000  # data values times the views and folds that draw them
MAX_VIEWS = 64
MAX_SPEC_DEPTH = 32
MAX_PIXELS = 4_000  # width or height of a view
MAX_STEP_PIXELS = 400  # width or height of one band
MAX_BINS = 500
MAX_TICKS = 500
MAX_FOLD_FIELDS = 50
MAX_EXPRESSION_CHARS = 500
MAX_REGRESSION_ORDER = 10

ALLOWED_TRANSFORMS = frozenset(
    {"aggregate", "bin", "calculate", "filter", "fold", "joinaggregate", "lookup", "pivot", "sample", "stack",
     "timeUnit", "window", "extent", "regression", "loess"}
)  # fmt: skip
# Vega expression functions whose result is no bigger than their arguments (no pad, sequence,
# timeSequence, replace, regexp or test: they expand data or backtrack without limit).
ALLOWED_FUNCTIONS = frozenset(
    {"isArray", "isBoolean", "isDate", "isDefined", "isNumber", "isObject", "isString", "isValid",
     "toBoolean", "toDate", "toNumber", "toString", "if", "isNaN", "isFinite", "abs", "acos", "asin", "atan",
     "atan2", "ceil", "clamp", "cos", "exp", "floor", "hypot", "log", "max", "min", "pow", "random", "round",
     "sin", "sqrt", "tan", "sampleNormal", "cumulativeNormal", "densityNormal", "quantileNormal",
     "sampleUniform", "cumulativeUniform", "densityUniform", "quantileUniform", "now", "datetime", "date",
     "day", "dayofyear", "year", "quarter", "month", "week", "hours", "minutes", "seconds", "milliseconds",
     "time", "timezoneoffset", "utc", "utcdate", "utcday", "utcdayofyear", "utcyear", "utcquarter",
     "utcmonth", "utcweek", "utchours", "utcminutes", "utcseconds", "utcmilliseconds", "extent", "clampRange",
     "indexof", "inrange", "lastindexof", "length", "peek", "reverse", "slice", "span", "lower", "upper",
     "parseFloat", "parseInt", "substring", "trim", "truncate", "merge", "dayFormat", "dayAbbrevFormat",
     "format", "monthFormat", "monthAbbrevFormat", "timeFormat", "timeParse", "utcFormat", "utcParse",
     "rgb", "hsl", "lab", "hcl", "luminance", "contrast"}
)  # fmt: skip
EXPRESSION_KEYS = frozenset({"calculate", "filter", "expr", "labelExpr", "test", "signal"})
SIZE_KEYS = ("width", "height", "continuousWidth", "continuousHeight", "discreteWidth", "discreteHeight")
# Numbers a spec may state, and their most (checked in this order).
NUMBER_LIMITS = {**dict.fromkeys(SIZE_KEYS, MAX_PIXELS), "maxbins": MAX_BINS, "tickCount": MAX_TICKS, "nice": MAX_TICKS}
_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
_STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


class ChartError(ValueError):
    """A chart that is not drawn; its message is shown (escaped) in place of the chart."""


class ChartTooLarge(ChartError):
    """A chart past the bounds: shown as the plain "too large to draw" figure, with this reason."""


def parse_spec(source: str) -> dict[str, Any]:
    """The spec as a JSON object within the bounds, or the ChartError that says why not."""
    if len(source.encode()) > MAX_SPEC_BYTES:
        raise ChartTooLarge(f"the spec is over {MAX_SPEC_BYTES:,} bytes.")
    try:
        spec = json.loads(source)
    except (ValueError, RecursionError) as error:
        raise ChartError(f"the spec is not valid JSON ({first_line(error)}).") from error
    if not isinstance(spec, dict):
        raise ChartError("the spec is not a JSON object.")
    walk = _Walk()
    walk.node(spec, "", 0)
    views = max(walk.views, 1)
    if views > MAX_VIEWS:
        raise ChartTooLarge(f"the chart has {views:,} views; at most {MAX_VIEWS} are drawn.")
    marks = walk.values * views * walk.fold
    if marks > MAX_MARKS:
        raise ChartTooLarge(f"the chart would draw about {marks:,} marks; at most {MAX_MARKS:,} are drawn.")
    return spec


class _Walk:
    """One pass over the spec: what it adds up to (data values, views, fold factor), refusing on the
    way whatever could make data or drawing without limit."""

    def __init__(self) -> None:
        self.values = 0
        self.views = 0
        self.fold = 1

    def add_values(self, count: int) -> None:
        """Count data values, refusing as soon as there are too many (not after walking a million)."""
        self.values += count
        if self.values > MAX_DATA_VALUES:
            raise ChartTooLarge(f"the chart has {self.values:,} data values; at most {MAX_DATA_VALUES:,} are drawn.")

    def node(self, node: Any, key: str, depth: int) -> None:
        if depth > MAX_SPEC_DEPTH:  # real specs nest a few levels; a deep one would exhaust the stack
            raise ChartTooLarge(f"the spec nests deeper than {MAX_SPEC_DEPTH} levels.")
        if isinstance(node, list):
            self.add_values(len(node) if key == "values" else 0)
            for item in node:
                self.node(item, "", depth + 1)
        elif isinstance(node, dict):
            self.mapping(node, key)
            for name, value in node.items():
                self.node(value, name, depth + 1)
        elif isinstance(node, str) and key in EXPRESSION_KEYS:
            check_expression(node)

    def mapping(self, node: dict[str, Any], key: str) -> None:
        if key == "data":
            _check_data(node)
            self.add_values(_sequence_length(node["sequence"]) if "sequence" in node else 0)
        elif key == "datasets":
            self.add_values(sum(len(item) for item in node.values() if isinstance(item, list)))
        elif key in NUMBER_LIMITS or key == "bin":
            _check_size(node, key)
        if "impute" in node:
            raise ChartTooLarge("impute is not drawn on the server: it can make data without limit.")
        for name in NUMBER_LIMITS:
            value = node.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                _check_number(name, value)
        self.views += ("mark" in node) + _repeats(node.get("repeat"))
        if isinstance(node.get("transform"), list):
            self.fold *= _check_transforms(node["transform"])


def _check_data(data: dict[str, Any]) -> None:
    if "url" in data:
        raise ChartError("only inline data (data.values) is drawn, not data.url.")
    if "graticule" in data or "sphere" in data:
        raise ChartTooLarge("only inline data and bounded sequences are drawn, not graticule or sphere.")


def _sequence_length(sequence: Any) -> int:
    """How many rows a sequence generator makes; one whose bounds are not plain numbers is refused
    (Vega coerces a string, so ``"stop": "1e9"`` would make a billion rows)."""
    if not isinstance(sequence, dict):
        raise ChartTooLarge("a sequence must be an object of start, stop and step.")
    numbers = [sequence.get(name, default) for name, default in (("start", 0), ("stop", 0), ("step", 1))]
    if not all(isinstance(n, int | float) and not isinstance(n, bool) and math.isfinite(n) for n in numbers):
        raise ChartTooLarge("a sequence's start, stop and step must be numbers.")
    start, stop, step = (float(n) for n in numbers)
    if step == 0:
        raise ChartTooLarge("a sequence's step must not be 0.")
    return max(math.ceil((stop - start) / step), 0)


def _check_size(node: dict[str, Any], key: str) -> None:
    """Sizes as a step (a band's pixels), bins without a forced step, ticks as a count."""
    if key == "bin":
        if "step" in node or "steps" in node:
            raise ChartTooLarge("a bin's step is not drawn on the server; give maxbins instead.")
    elif key in SIZE_KEYS and set(node) == {"step"} and isinstance(node["step"], int | float):
        if node["step"] > MAX_STEP_PIXELS:
            raise ChartTooLarge(f"a {key} step of {node['step']:,} pixels is over {MAX_STEP_PIXELS}.")
    else:
        raise ChartTooLarge(f"{key} must be a number.")


def _check_number(name: str, value: float) -> None:
    limit = NUMBER_LIMITS[name]
    if not math.isfinite(value) or value > limit:
        raise ChartTooLarge(f"{name} {value:,} is over {limit:,}.")


def _repeats(repeat: Any) -> int:
    """How many views a repeat makes: one per repeated field (rows times columns)."""
    if isinstance(repeat, list):
        return len(repeat)
    if isinstance(repeat, dict):
        return math.prod(max(len(fields), 1) for fields in repeat.values() if isinstance(fields, list))
    return 0


def _check_transforms(transforms: list[Any]) -> int:
    """Each transform on the allow-list; the factor by which folds multiply the rows."""
    factor = 1
    for transform in transforms:
        name = _transform_name(transform)
        if name == "fold":
            fields = transform["fold"] if isinstance(transform["fold"], list) else []
            if len(fields) > MAX_FOLD_FIELDS:
                raise ChartTooLarge(f"a fold of {len(fields)} fields is over {MAX_FOLD_FIELDS}.")
            factor *= max(len(fields), 1)
        if name == "regression" and transform.get("order", 1) not in range(MAX_REGRESSION_ORDER + 1):
            raise ChartTooLarge(f"a regression's order must be at most {MAX_REGRESSION_ORDER}.")
        window = transform["window"] if name == "window" and isinstance(transform["window"], list) else []
        if any(isinstance(op, dict) and op.get("op") == "values" for op in window):
            raise ChartTooLarge("a window of values grows with the square of the rows.")
    return factor


def _transform_name(transform: Any) -> str:
    name: str | None = (
        next((key for key in transform if key in ALLOWED_TRANSFORMS), None) if isinstance(transform, dict) else None
    )
    if name is None:
        keys = next(iter(transform), "{}") if isinstance(transform, dict) else type(transform).__name__
        allowed = ", ".join(sorted(ALLOWED_TRANSFORMS))
        raise ChartTooLarge(f"the transform {keys} is not drawn on the server (allowed: {allowed}).")
    return name


def check_expression(expression: str) -> None:
    """A bounded expression that calls only functions on the allow-list."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ChartTooLarge(f"an expression is over {MAX_EXPRESSION_CHARS} characters.")
    for called in _CALL.findall(_STRING_LITERAL.sub("''", expression)):
        if called not in ALLOWED_FUNCTIONS:
            raise ChartTooLarge(f"the expression calls {called}(), which is not drawn on the server.")


def first_line(error: BaseException) -> str:
    """A short reason: vl-convert's errors carry a JavaScript stack after the first line or two."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    reason = next((line for line in lines if not line.endswith("failed:")), type(error).__name__)
    return reason[:200]
