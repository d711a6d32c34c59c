"""The Wilcoxon signed-rank test (thesis eq. 5.2) on many rows of differences at once.

:func:`evaluation.core.significance.wilcoxon_test` calls :func:`scipy.stats.wilcoxon`
once per pair of systems (``zero_method='wilcox'``, ``method='auto'``). Its choice of
method depends on each row: the exact null distribution when the row has at most 50
differences, none of them 0 and no tied magnitudes; otherwise the normal approximation
(tie-corrected, no continuity correction), or, for at most 13 differences with ties or
zeros, the permutation distribution (all :math:`2^n` sign flips, so deterministic).
:func:`wilcoxon_pvalues` makes the same choice per row and calls scipy once per group of
rows with ``axis=1``, which gives every row the p-value the per-row call gives it, in a
fraction of the time (the split-half study of :mod:`evaluation.core.optimality` tests
millions of pairs).

References
----------
F. Wilcoxon (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1(6),
80–83. https://doi.org/10.2307/3001968

J. Urbano (2013). *Evaluation in Audio Music Similarity*, §5.1.2, eq. 5.2.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["wilcoxon_pvalues"]

_EXACT_MAX = 50  # scipy's 'auto': exact up to this many differences
_ENUMERATED_MAX = 13  # scipy's 'auto' with ties or zeros: all 2^n sign flips up to this


def wilcoxon_pvalues(D) -> np.ndarray:
    """Two-sided p-value of the Wilcoxon signed-rank test of every row of ``D``.

    Equal to ``scipy.stats.wilcoxon(row, zero_method='wilcox').pvalue`` for every row,
    and 1 for a row of zeros (identical systems), as in the kernels of
    :mod:`evaluation.core.significance`.

    >>> wilcoxon_pvalues([[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, -2.0, 3.0, -4.0, 0.0]]).round(4)
    array([0.0625, 0.875 ])
    """
    D = np.asarray(D, dtype=float)
    if D.ndim != 2:
        raise ValueError("expected a 2-d array: one row of differences per pair")
    m, n = D.shape
    p = np.ones(m)
    if m == 0 or n == 0:
        return p
    nonzero = D != 0
    some = nonzero.any(axis=1)
    zeros = ~nonzero.all(axis=1)
    magnitudes = np.sort(np.where(nonzero, np.abs(D), np.nan), axis=1)  # NaN sort last
    ties = (magnitudes[:, 1:] == magnitudes[:, :-1]).any(axis=1)  # NaN never equals
    exact = some & ~zeros & ~ties & (n <= _EXACT_MAX)
    other = some & ~exact
    if exact.any():
        p[exact] = stats.wilcoxon(D[exact], axis=1, method="exact").pvalue
    if other.any():
        if n > _ENUMERATED_MAX:
            p[other] = stats.wilcoxon(D[other], axis=1, method="asymptotic").pvalue
        else:  # a handful of queries: scipy enumerates the sign flips row by row
            p[other] = [stats.wilcoxon(row, zero_method="wilcox").pvalue for row in D[other]]
    return p
