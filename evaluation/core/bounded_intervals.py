"""Intervals of means that stay within what the quantity can take (bootstrap percentile).

Eq. 4.6 (``evaluation.core.intervals.mean_ci``) is a t-interval: with few queries on a
bounded quantity (a measure in [0, 1], P(Sat), a difference in [−1, 1]) it can leave the
bounds. :func:`mean_intervals` keeps eq. 4.6 where it is sound and otherwise uses the
bootstrap percentile interval (:func:`bootstrap_mean_ci`).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, eq. 4.6.
B. Efron and R. J. Tibshirani (1993). *An Introduction to the Bootstrap*. Chapman &
Hall, ch. 13. https://doi.org/10.1201/9780429246593
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from scipy import stats

from evaluation.core.intervals import Interval, _as_sample

__all__ = ["MIN_T_QUERIES", "IntervalMethod", "bootstrap_mean_ci", "mean_intervals"]


MIN_T_QUERIES = 30
"""Queries from which :func:`mean_intervals` (``method='auto'``) uses eq. 4.6: the usual
rule of thumb for the sampling distribution of a mean to be close enough to normal."""

IntervalMethod = Literal["auto", "t", "bootstrap"]


def bootstrap_mean_ci(
    x, *, confidence: float = 0.95, resamples: int = 10_000, seed=None
) -> Interval:
    r"""Bootstrap percentile interval of the mean of a sample (Efron & Tibshirani 1993, §13.3).

    .. math::

        \left[\hat G^{-1}(\alpha/2),\ \hat G^{-1}(1-\alpha/2)\right]

    with :math:`\hat G` the distribution of the means of ``resamples`` samples of size
    :math:`n` drawn with replacement from ``x`` (type-7 quantiles). A resample's mean is
    an average of the observations, so the interval lies within ``[min x, max x]`` and
    therefore within any bounds the quantity has.

    References
    ----------
    B. Efron and R. J. Tibshirani (1993). *An Introduction to the Bootstrap*. Chapman &
    Hall, ch. 13. https://doi.org/10.1201/9780429246593

    Examples
    --------
    Two observations: the resamples' means are 0.1, 0.5 and 0.9 with probabilities
    1/4, 1/2 and 1/4, so the 95% interval is [0.1, 0.9].

    >>> ci = bootstrap_mean_ci([0.1, 0.9], seed=1)
    >>> ci.method, round(ci.low, 4), round(ci.high, 4)
    ('bootstrap-percentile', 0.1, 0.9)
    """
    x = _as_sample(x)
    return mean_intervals(
        x[None, :], method="bootstrap", confidence=confidence, resamples=resamples, seed=seed
    )[0]


def mean_intervals(
    X,
    *,
    method: IntervalMethod = "auto",
    bounds: tuple[float, float] | None = None,
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed=None,
) -> list[Interval]:
    """An interval of the mean of each row of ``X`` (e.g. systems × queries).

    Parameters
    ----------
    X : array_like, 2-d
        One sample per row, at least 2 columns.
    method : {'auto', 't', 'bootstrap'}
        ``'t'``: eq. 4.6 (``intervals.mean_ci``), what the thesis' examples use.
        ``'bootstrap'``: the percentile interval (:func:`bootstrap_mean_ci`).
        ``'auto'``: eq. 4.6 for samples of at least :data:`MIN_T_QUERIES` whose
        t-interval lies within ``bounds`` (when given), the bootstrap percentile
        interval for the others.
    bounds : (low, high), optional
        What the quantity can take, e.g. (0, 1) for P(Sat) and (−1, 1) for a difference
        of two measures in [0, 1].
    resamples, seed
        Of the bootstrap; one set of resamples is drawn for all rows.

    Returns
    -------
    list of Interval
        One per row; ``Interval.method`` names how it was made.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-d matrix, got shape {X.shape}")
    if method not in ("auto", "t", "bootstrap"):
        raise ValueError(f"method must be 'auto', 't' or 'bootstrap', got {method!r}")
    if method != "t" and resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    if X.shape[1] < 2:
        raise ValueError("an interval needs at least 2 observations")
    if not np.all(np.isfinite(X)):
        raise ValueError("the sample contains NaN or infinite values")
    t = _t_intervals(X, confidence)
    if method == "t":
        return t
    n = X.shape[1]

    def fits(ci: Interval) -> bool:
        if n < MIN_T_QUERIES:
            return False
        return bounds is None or (bounds[0] <= ci.low and ci.high <= bounds[1])

    redo = [i for i, ci in enumerate(t) if method == "bootstrap" or not fits(ci)]
    if not redo:
        return t
    low, high = _bootstrap_percentiles(X[redo], confidence, resamples, seed)
    for i, lo, hi in zip(redo, low, high, strict=True):
        ci = t[i]
        lo, hi = float(lo), float(hi)
        t[i] = Interval(ci.estimate, lo, hi, (hi - lo) / 2, confidence, ci.sd, n,
                        "bootstrap-percentile")  # fmt: skip
    return t


def _t_intervals(X: np.ndarray, confidence: float) -> list[Interval]:
    """Eq. 4.6 on every row at once (the same numbers as :func:`mean_ci` row by row)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n = X.shape[1]
    mean = X.mean(axis=1)
    sd = X.std(axis=1, ddof=1)
    margin = stats.t.ppf(1 - (1 - confidence) / 2, n - 1) * sd / math.sqrt(n)
    return [
        Interval(float(m), float(m - e), float(m + e), float(e), confidence, float(d), n)
        for m, e, d in zip(mean, margin, sd, strict=True)
    ]


CELLS = 2_000_000
"""Work-array cells the bootstrap holds at a time (16 MB of doubles): resample counts and
resampled means are made a block at a time, whatever the numbers of rows and queries."""


def _bootstrap_percentiles(X: np.ndarray, confidence: float, resamples: int, seed):
    """Percentiles of the resampled means of each row, by multinomial counts (a resample
    is how often each column is drawn). Rows are taken a block at a time and every block
    sees the same resamples (the generator restarts from one seed sequence), drawn a
    chunk at a time, so memory stays within :data:`CELLS` per array."""
    n = X.shape[1]
    if isinstance(seed, np.random.Generator):
        seed = int(seed.integers(2**63))
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    a = (1 - confidence) / 2
    rows_per_block = max(1, CELLS // resamples)
    chunk = max(1, CELLS // n)  # resamples drawn at a time
    low, high = [], []
    for start in range(0, len(X), rows_per_block):
        rows = X[start : start + rows_per_block]
        rng = np.random.default_rng(sequence)
        means = np.empty((len(rows), resamples))
        for first in range(0, resamples, chunk):
            size = min(chunk, resamples - first)
            counts = rng.multinomial(n, np.full(n, 1 / n), size=size) / n
            means[:, first : first + size] = rows @ counts.T
        lo, hi = np.quantile(means, [a, 1 - a], axis=1)
        # a mean of the observations cannot leave their range; rounding could, barely
        low.append(np.maximum(lo, rows.min(axis=1)))
        high.append(np.minimum(hi, rows.max(axis=1)))
    return np.concatenate(low), np.concatenate(high)
