"""The Wilcoxon signed-rank test (thesis eq. 5.2) on many rows of differences at once.

:func:`evaluation.core.significance.wilcoxon_test` calls :func:`scipy.stats.wilcoxon`
once per pair of systems (``zero_method='wilcox'``, ``method='auto'``). Its choice of
method depends on each row: the exact null distribution when the row has at most 50
differences, none of them 0 and no tied magnitudes; otherwise the normal approximation
(tie-corrected, no continuity correction), or, for at most 13 differences with ties or
zeros, the permutation distribution (all :math:`2^n` sign flips, so deterministic; computed
here for all such rows at once, :func:`_enumerated`).
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

_BLOCK_NUMBERS = 1 << 21  # differences handed to scipy at a time (16 MiB)
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
    block = max(1, _BLOCK_NUMBERS // max(1, n))
    if m > block:  # scipy's ranks hold several copies of what it is given: a block at a time
        return np.concatenate([wilcoxon_pvalues(D[a : a + block]) for a in range(0, m, block)])
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
        else:  # a handful of queries: every sign flip, as scipy's permutation test
            p[other] = _enumerated(D[other])
    return p


_ENUMERATED_BYTES = 64 << 20  # rows × 2^n null statistics held at a time


def _enumerated(D: np.ndarray) -> np.ndarray:
    """Two-sided p of the exact permutation distribution of W+ (all :math:`2^n` sign flips),
    as :func:`scipy.stats.wilcoxon` computes it for ``n`` ≤ 13 with ties or zeros
    (:func:`scipy.stats.permutation_test`: exact, the identity included, no +1, and a
    relative tolerance of 100 machine epsilons for ties with the observed statistic).

    Flipping the sign of difference ``i`` moves W+ by ``v_i`` (its rank, with the sign
    it would take), so the null statistics of every row are ``W+ + V @ bits`` at once.
    """
    m, n = D.shape
    nonzero = D != 0
    magnitudes = np.where(nonzero, np.abs(D), np.nan)
    ranks = np.nan_to_num(stats.rankdata(magnitudes, axis=1, nan_policy="omit"))
    positive, negative = ranks * (D > 0), ranks * (D < 0)
    observed = positive.sum(axis=1)
    shift = negative - positive
    flips = 1 << n
    bits = ((np.arange(flips)[:, None] >> np.arange(n)) & 1).astype(float)
    gamma = np.abs(np.finfo(float).eps * 100 * observed)
    p = np.empty(m)
    block = max(1, _ENUMERATED_BYTES // (8 * flips))
    for a in range(0, m, block):
        b = slice(a, a + block)
        null = observed[b, None] + shift[b] @ bits.T
        less = np.count_nonzero(null <= (observed[b] + gamma[b])[:, None], axis=1) / flips
        greater = np.count_nonzero(null >= (observed[b] - gamma[b])[:, None], axis=1) / flips
        p[b] = np.clip(2 * np.minimum(less, greater), 0.0, 1.0)
    return p
