"""Agreement between assessors who judged the same items: Krippendorff's α and RMS difference.

Pure Python + numpy (no Django). A **unit** is one judged item (a query–clip pair);
its values are the scores the assessors who judged it gave, in any order. Units with
fewer than two values say nothing about agreement and are ignored ("pairable" values).

Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability",
https://repository.upenn.edu/asc_papers/43) is

.. math::  \\alpha = 1 - \\frac{D_o}{D_e}, \\quad
   D_o = \\frac{1}{n} \\sum_u \\frac{1}{m_u - 1} \\sum_{i \\ne j \\in u} \\delta(v_i, v_j), \\quad
   D_e = \\frac{1}{n (n - 1)} \\sum_{c, k} n_c n_k \\, \\delta(c, k)

with :math:`n` the number of pairable values, :math:`m_u` the values in unit :math:`u`
and :math:`n_c` how many pairable values equal :math:`c`. The difference function
:math:`\\delta` is ``interval``: :math:`(c - k)^2` (for Fine) or ``ordinal``:
:math:`(\\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2` (for Broad).

The normalised RMS difference is thesis §7.4's disagreement between assessors: take
one assessor's scores as the truth and another's as estimates, with both scales
normalised to [0, 1] (Broad / 2, Fine / 100), and compute the rooted mean squared
difference. Here it is pooled over every pair of assessors of every unit. MIREX 2006,
with three assessors per pair, gave 0.3963 (Broad) and 0.3116 (Fine).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

Units = Iterable[Sequence[float]]


def _pairable(units: Units) -> list[list[float]]:
    return [list(values) for values in units if len(values) >= 2]


def _ordinal_delta(counts: Counter) -> dict[tuple[float, float], float]:
    levels = sorted(counts)
    delta = {}
    for a, low in enumerate(levels):
        for high in levels[a:]:
            between = sum(counts[g] for g in levels if low <= g <= high)
            value = (between - (counts[low] + counts[high]) / 2) ** 2
            delta[low, high] = delta[high, low] = value
    return delta


def krippendorff_alpha(units: Units, *, level: str = "interval") -> float:
    """Krippendorff's α of the values in ``units`` (``level='interval'|'ordinal'``).

    Returns ``nan`` when there is nothing to compare (fewer than two pairable units'
    worth of values) or no variation at all (:math:`D_e = 0`).

    >>> krippendorff_alpha([[1, 1], [2, 2], [3, 3]])
    1.0
    >>> round(krippendorff_alpha([[0, 2], [2, 0], [1, 1]], level="ordinal"), 4)
    -0.6667
    """
    if level not in ("interval", "ordinal"):
        raise ValueError(f"level must be 'interval' or 'ordinal', not {level!r}")
    pairable = _pairable(units)
    counts = Counter(value for values in pairable for value in values)
    n = sum(counts.values())
    if n < 2:
        return math.nan
    if level == "interval":

        def delta(c, k):
            return (c - k) ** 2
    else:
        table = _ordinal_delta(counts)

        def delta(c, k):
            return table[c, k]

    observed = 0.0
    for values in pairable:
        within = sum(delta(values[i], values[j]) for i, j in combinations(range(len(values)), 2))
        observed += 2 * within / (len(values) - 1)  # i ≠ j counts each pair twice
    observed /= n
    expected = sum(counts[c] * counts[k] * delta(c, k) for c in counts for k in counts)
    expected /= n * (n - 1)
    if expected == 0:
        return math.nan
    return 1.0 - observed / expected


def rms_difference(units: Units, *, scale_max: float) -> float:
    """Rooted mean squared difference between assessors, on scores divided by ``scale_max``.

    Pooled over every pair of values within each unit (thesis §7.4). ``nan`` when no
    unit has two values.

    >>> rms_difference([[0, 2], [1, 1]], scale_max=2)  # differences 1 and 0 → √(1/2)
    0.7071067811865476
    """
    squares = [
        ((a - b) / scale_max) ** 2
        for values in _pairable(units)
        for a, b in combinations(values, 2)
    ]
    if not squares:
        return math.nan
    return math.sqrt(sum(squares) / len(squares))
