"""Results ready for JSON: what the Django layer stores as payloads and the API returns."""

from __future__ import annotations

import math

import numpy as np


def json_safe(value):
    """NaN and infinities become ``None`` (JSON has no NaN; PostgreSQL's jsonb refuses it),
    numpy scalars become Python numbers, tuples become lists; dicts and lists recursively.

    >>> json_safe({"p": np.float64("nan"), "n": np.int64(3), "ci": (0.1, float("inf"))})
    {'p': None, 'n': 3, 'ci': [0.1, None]}
    """
    if type(value) is float:  # the most common value first: a payload holds ~10⁵ of them
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def number_or_none(x) -> float | None:
    """``float(x)``, ``None`` for NaN (a p-value or coefficient that could not be computed).

    >>> number_or_none(np.float64(0.25)), number_or_none(float("nan"))
    (0.25, None)
    """
    x = float(x)
    return None if math.isnan(x) else x
