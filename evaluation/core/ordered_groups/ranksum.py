"""The Wilcoxon rank-sum test (Mann–Whitney U) of two lists of ranks, two-sided.

Typke et al. (2005) compare the ranks experts gave one candidate with the ranks they
gave another by this test (:mod:`evaluation.core.ordered_groups.rankings`). Written
here rather than called from scipy so that the tests can check it against scipy
(``scipy.stats.mannwhitneyu(x, y, alternative="two-sided")``, whose default ``method=
"auto"`` this follows) as an independent computation.

References: F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics
Bulletin 1(6):80–83, 1945; H. B. Mann, D. R. Whitney, "On a test of whether one of two
random variables is stochastically larger than the other", Ann. Math. Statist.
18(1):50–60, 1947, doi:10.1214/aoms/1177730491.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np

#: Both samples at most this long and no tied values: the exact null distribution.
EXACT_MAX = 8


def rank_sum_pvalue(x: Sequence[float], y: Sequence[float]) -> float:
    """Two-sided p-value of the rank-sum test of ``x`` against ``y``.

    With :math:`R_1` the sum of the mid-ranks of ``x`` in the pooled sample,
    :math:`U_1 = R_1 - n_1(n_1 + 1)/2`, :math:`U = \\max(U_1, n_1 n_2 - U_1)` and

    .. math::

        p = 2\\,P(U' \\ge U) \\quad\\text{(exact, no ties, } \\min(n_1, n_2) \\le 8)
        \\qquad
        p = 2\\left(1 - \\Phi\\!\\left(\\frac{U - n_1 n_2/2 - 1/2}
            {\\sqrt{\\frac{n_1 n_2}{12}\\left(n + 1 - \\frac{\\sum_t (t^3 - t)}{n(n-1)}
            \\right)}}\\right)\\right)

    otherwise (the normal approximation with the tie correction, over the sizes
    :math:`t` of the groups of tied values, and the continuity correction), capped at 1.
    Ranks given by experts are whole numbers and tie often, so the approximation is the
    usual case; when every value is tied the p-value is 1.

    >>> rank_sum_pvalue([1, 2, 3], [4, 5, 6])  # exact: 2 × 1/20
    0.1
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("the rank-sum test needs at least one value in each sample")
    pooled = np.concatenate([x, y])
    _, inverse, counts = np.unique(pooled, return_inverse=True, return_counts=True)
    # mid-rank of each distinct value: the mean of the positions it occupies
    ends = np.cumsum(counts)
    mid_ranks = ends - (counts - 1) / 2.0
    u1 = float(mid_ranks[inverse[:n1]].sum()) - n1 * (n1 + 1) / 2.0
    u = max(u1, n1 * n2 - u1)
    if (n1 <= EXACT_MAX or n2 <= EXACT_MAX) and counts.max() == 1:
        p = 2.0 * _exact_sf(round(u), n1, n2)
    else:
        n = n1 + n2
        tie_term = float((counts.astype(np.float64) ** 3 - counts).sum())
        variance = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1)))
        if variance <= 0:
            return 1.0
        z = (u - n1 * n2 / 2.0 - 0.5) / math.sqrt(variance)
        p = math.erfc(z / math.sqrt(2.0))  # 2 (1 − Φ(z))
    return min(1.0, p)


def _exact_sf(u: int, n1: int, n2: int) -> float:
    """:math:`P(U \\ge u)` under the null hypothesis, without ties."""
    counts = _u_counts(min(n1, n2), max(n1, n2))
    return float(counts[u:].sum() / counts.sum())


@cache
def _u_counts(m: int, n: int) -> np.ndarray:
    """How many of the C(m+n, m) arrangements give U = 0, 1, …, m·n.

    The recurrence of Mann and Whitney (1947): the largest value comes from the first
    sample (adding n to U) or from the second, f(m, n) = f(m−1, n) shifted by n + f(m, n−1).
    """
    if m == 0 or n == 0:
        return np.ones(1)
    out = np.zeros(m * n + 1)
    first = _u_counts(m - 1, n)
    out[n : n + len(first)] += first
    second = _u_counts(m, n - 1)
    out[: len(second)] += second
    return out
