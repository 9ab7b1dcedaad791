"""Models over a session's table: a forecast of a series, a rate (slope) per group, and an association
adjusted for other columns. Plain Python over pandas, SciPy and statsmodels.

Each says what it assumed: the forecast is a straight line through the per-period values (with
Holt's exponential smoothing beside it, and a warning when the horizon is long against the history);
a rate is a least-squares slope per unit of the time column; an adjusted association is an OLS fit
with heteroskedasticity-robust (HC3) errors, or a logistic one for a yes/no outcome.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import stats as scipy_stats
from statsmodels.tsa.holtwinters import ExponentialSmoothing

from agents.operations.stats.engine import clean, period_label
from agents.operations.stats.timeline import PERIOD_CODES, trend

MIN_POINTS = 3
LONG_HORIZON = 1 / 3  # a horizon past a third of the history is said to be long
MAX_GROUPS = 50


def period_number(label: Any, period: str) -> float:
    """A period as a number on a line: a year column's value as it is, a date period's ordinal."""
    if period == "value" or isinstance(label, int | float):
        return float(label)
    return float(pd.Period(str(label), freq=PERIOD_CODES[period]).ordinal)


def forecast(frame: pd.DataFrame, time: str, measure: str, *, to: str, period: str, statistic: str) -> dict[str, Any]:
    """The measure's per-period values, a straight line through them and its value at ``to`` with a 95%
    prediction interval; Holt's linear exponential smoothing's value there beside it."""
    course = trend(frame, time, measure, period=period, statistic=statistic)
    points, chosen = course["points"], course["period"]
    result: dict[str, Any] = {"time": time, "measure": measure, "period": chosen, "statistic": statistic,
                              "to": to, "points": points}  # fmt: skip
    if len(points) < MIN_POINTS:
        return result | {"forecast": None, "why": f"only {len(points)} periods; a line needs {MIN_POINTS} or more"}
    x = np.array([period_number(p["period"], chosen) for p in points])
    y = np.array([p["value"] for p in points], dtype=float)
    target = period_number(float(to) if chosen == "value" else to, chosen)
    last = x[-1]
    step = float(np.median(np.diff(x))) if len(x) > 1 else 1.0
    if target <= last:
        return result | {"forecast": None, "why": f"{to} is not after the last period ({points[-1]['period']})"}
    fit = sm.OLS(y, sm.add_constant(x)).fit()
    predicted = fit.get_prediction(np.array([[1.0, target]])).summary_frame(alpha=0.05).iloc[0]
    steps_ahead = max(1, round((target - last) / step))
    horizon = (target - last) / (last - x[0]) if last > x[0] else math.inf
    return result | {
        "forecast": {
            "method": "linear trend (least squares over the periods)",
            "value": clean(float(predicted["mean"])),
            "interval95": [clean(float(predicted["obs_ci_lower"])), clean(float(predicted["obs_ci_upper"]))],
            "slope_per_period": clean(float(fit.params[1] * step)),
            "r_squared": clean(float(fit.rsquared)),
            "history": [points[0]["period"], points[-1]["period"]],
            "periods_used": len(points),
            "steps_ahead": steps_ahead,
        },
        "holt": _holt(y, steps_ahead),
        "long_horizon": bool(horizon > LONG_HORIZON),
    }


def _holt(values: np.ndarray, steps: int) -> float | None:
    """Holt's linear-trend exponential smoothing ``steps`` periods ahead (None when it cannot fit)."""
    if values.size < 4:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fitted = ExponentialSmoothing(values, trend="add", initialization_method="estimated").fit()
        except (ValueError, np.linalg.LinAlgError):
            return None
    value: float | None = clean(float(fitted.forecast(steps)[-1]))
    return value


def rates(frame: pd.DataFrame, time: str, measure: str, group: str, period: str = "day") -> dict[str, Any]:
    """Each group's least-squares slope of the measure on the time column, with its 95% interval,
    steepest first. On a date: per day over the rows, or, for a longer ``period``, per period over each
    period's mean ("regress the yearly average price on the year")."""
    both = frame[[group, time, measure]].dropna()
    dated = not pd.api.types.is_numeric_dtype(both[time])
    moments = pd.to_datetime(both[time]) if dated else both[time]
    if dated and period != "day":
        index = moments.dt.to_period(PERIOD_CODES[period]).array.asi8  # the period's ordinal: one more each period
        both = both.assign(_x=index).groupby([group, "_x"], sort=True)[measure].mean().reset_index()
    else:
        x = (moments - pd.Timestamp("1970-01-01")).dt.days.astype(float) if dated else moments
        both = both.assign(_x=x)
    rows = []
    for key, part in both.groupby(group, sort=True):
        if part["_x"].nunique() < 2:
            continue
        fit = scipy_stats.linregress(part["_x"].astype(float), part[measure].astype(float))
        half = float(fit.stderr) * float(scipy_stats.t.ppf(0.975, len(part) - 2)) if len(part) > 2 else math.nan
        rows.append({"group": period_label(key), "n": len(part), "slope": clean(float(fit.slope)),
                     "ci95": [clean(float(fit.slope) - half), clean(float(fit.slope) + half)],
                     "r_squared": clean(float(fit.rvalue**2))})  # fmt: skip
    if len(rows) > MAX_GROUPS:
        raise ValueError(f"{group} has {len(rows)} groups; rates are compared for at most {MAX_GROUPS}")
    rows.sort(key=lambda r: -(r["slope"] or 0))
    per = (period if period != "day" else "day") if dated else time
    result = {"time": time, "measure": measure, "group_by": group, "per": per, "groups": rows}
    return result | ({"period": period} if dated and period != "day" else {})


def regress(frame: pd.DataFrame, outcome: str, variable: str, controls: list[str], numeric: set[str]) -> dict[str, Any]:
    """The variable's coefficient on the outcome alone and with the controls (a category as fixed effects),
    OLS with HC3 errors; a yes/no outcome by logistic regression (log-odds). Says when the sign turns."""
    columns = list(dict.fromkeys([outcome, variable, *controls]))
    data = frame[columns].dropna().rename(columns={c: f"c{i}" for i, c in enumerate(columns)})
    names = {c: f"c{i}" for i, c in enumerate(columns)}
    terms = [names[c] if c in numeric else f"C({names[c]})" for c in controls]
    y = names[outcome]
    logistic = outcome not in numeric
    if logistic:
        levels = sorted(data[y].unique(), key=lambda v: (str(v).lower() != "no", str(v)))
        if len(levels) != 2:
            raise ValueError(f"{outcome} has {len(levels)} values: an outcome must be a number or yes/no")
        data[y] = (data[y] == levels[1]).astype(float)
    model = "logistic regression (log-odds)" if logistic else "OLS, HC3 robust errors"
    result: dict[str, Any] = {"outcome": outcome, "variable": variable, "controls": controls, "n": len(data),
                              "model": model}  # fmt: skip
    if logistic:
        result["outcome_coded_1"] = clean(levels[1])
    raw, adjusted = (_fit(data, y, names[variable], extra, logistic) for extra in ([], terms))
    result |= {"unadjusted": raw, "adjusted": adjusted}
    signs = [np.sign(fit["coefficient"]) for fit in (raw, adjusted) if fit and fit["coefficient"]]
    result["sign_reversed"] = bool(len(signs) == 2 and signs[0] != signs[1])
    return result


def _fit(data: pd.DataFrame, y: str, x: str, terms: list[str], logistic: bool) -> dict[str, Any] | None:
    formula = f"{y} ~ {' + '.join([x, *terms])}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            model = smf.logit(formula, data).fit(disp=0) if logistic else smf.ols(formula, data).fit(cov_type="HC3")
        except (ValueError, np.linalg.LinAlgError):
            return None
    low, high = model.conf_int().loc[x]
    return {"coefficient": clean(float(model.params[x])), "ci95": [clean(float(low)), clean(float(high))],
            "p_value": clean(float(model.pvalues[x]))}  # fmt: skip
