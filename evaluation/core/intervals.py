"""Confidence and prediction intervals, and the thesis-style report strings.

A mean over a sample of queries is an estimate; report it with its interval and, for a
difference, with the actual p-value (Urbano 2013, §4.1.3 and §5.6.2).

The t-interval of eq. 4.6 (:func:`mean_ci`) assumes a mean close to normal; with few
queries on a bounded quantity it can leave the bounds (2 queries: t with 1 degree of
freedom, ``0.4160 ± 1.5756`` for a measure in [0, 1]).
:func:`evaluation.core.bounded_intervals.mean_intervals` chooses per sample
(``method='auto'``): eq. 4.6 from ``MIN_T_QUERIES`` queries on when it stays within the
quantity's bounds, and otherwise the bootstrap percentile interval, which always lies
within the sample's range. Each :class:`Interval` says which method made it.

Where a *new* query's score will fall is a different question (§4.2): it is answered
by the distribution of scores over queries, fitted with the family §4.2.3 recommends
for the collection's size and scale (:func:`score_prediction_interval`), which keeps
the interval inside the scores' range, and it gives the §5.6.2 statement "95% of the
future observations are expected to yield a level of satisfaction P(Sat) > x"
(:func:`satisfaction_floor`, :func:`format_satisfaction_floor`).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*. PhD thesis, Universidad
Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evaluation.core.distributions import fit_recommended

__all__ = [
    "Interval",
    "PredictionInterval",
    "SatisfactionFloor",
    "format_difference",
    "format_estimate",
    "format_interval",
    "format_pvalue",
    "format_satisfaction_floor",
    "mean_ci",
    "mean_difference_ci",
    "prediction_interval",
    "satisfaction_floor",
    "score_prediction_interval",
]


@dataclass(frozen=True)
class Interval:
    """An estimate with a two-sided interval ``[low, high]`` at level ``confidence``.

    ``margin`` is the half-width ``t·sd/√n`` (or ``t·sd·√(1+1/n)`` for a prediction
    interval), the number printed after ``±``; for a bootstrap percentile interval, which
    need not be symmetric, half of ``high − low``. ``method`` is ``"t"`` (eq. 4.6) or
    ``"bootstrap-percentile"``.
    """

    estimate: float
    low: float
    high: float
    margin: float
    confidence: float
    sd: float
    n: int
    method: str = "t"


def _as_sample(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"expected a 1-d sample, got shape {x.shape}")
    if x.size < 2:
        raise ValueError("an interval needs at least 2 observations")
    if not np.all(np.isfinite(x)):
        raise ValueError("the sample contains NaN or infinite values")
    return x


def _t_interval(x: np.ndarray, confidence: float, scale: float) -> Interval:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n = x.size
    mean = float(x.mean())
    sd = float(x.std(ddof=1))
    t = stats.t.ppf(1 - (1 - confidence) / 2, n - 1)
    margin = float(t * sd * scale)
    return Interval(mean, mean - margin, mean + margin, margin, confidence, sd, n)


def mean_ci(x, *, confidence: float = 0.95) -> Interval:
    r"""t-based confidence interval of the mean of a sample (thesis eq. 4.6).

    .. math::

        \bar{x} \pm t_{\alpha,\,n-1}\,\frac{sd}{\sqrt{n}}
        \qquad\text{(Urbano 2013, eqs. 4.5–4.6)}

    where :math:`t_{\alpha,n-1}` is the :math:`1-\alpha/2` quantile of Student's t with
    :math:`n-1` degrees of freedom and ``confidence`` :math:`= 1-\alpha`.

    Parameters
    ----------
    x : array_like, 1-d
        One score per query (effectiveness, or :math:`\widehat{sat}(\lambda_q)`).
    confidence : float
        Two-sided level, 0.95 by default.

    Examples
    --------
    The thesis' example has only summary statistics (mean 0.3526, sd 0.2187, n = 100);
    the interval is 0.3526 ± 1.9842·0.2187/10 = [0.3092, 0.3960].

    >>> ci = mean_ci([0.2, 0.4, 0.6])
    >>> round(ci.estimate, 4), round(ci.margin, 4)
    (0.4, 0.4968)
    """
    return _t_interval(_as_sample(x), confidence, 1 / math.sqrt(np.size(x)))


def mean_difference_ci(x, y, *, confidence: float = 0.95) -> Interval:
    r"""t-based confidence interval of the mean paired difference ``x - y``.

    .. math::

        \overline{\Delta\lambda}_Q \pm t_{\alpha,\,n-1}\,\frac{sd_Q}{\sqrt{n}}
        \qquad\text{(eq. 4.6 applied to } \Delta\lambda_q = \lambda_{q,A}-\lambda_{q,B}\text{)}
    """
    x = _as_sample(x)
    y = _as_sample(y)
    if x.shape != y.shape:
        raise ValueError(f"paired samples differ in length: {x.size} and {y.size}")
    return _t_interval(x - y, confidence, 1 / math.sqrt(x.size))


def prediction_interval(x, *, confidence: float = 0.95) -> Interval:
    r"""t-based prediction interval for the score of one new query.

    .. math::

        \bar{x} \pm t_{\alpha,\,n-1}\; sd\,\sqrt{1 + \tfrac{1}{n}}

    This assumes normal scores and can leave [0, 1] (MIREX 2011, CG_l@5 with Fine
    judgments: [0.166, 1.007] for the best system). :func:`score_prediction_interval`
    uses the distribution the thesis recommends instead (§4.2.3).
    """
    x = _as_sample(x)
    return _t_interval(x, confidence, math.sqrt(1 + 1 / x.size))


@dataclass(frozen=True)
class PredictionInterval:
    """Where the score of a new query falls with probability ``confidence``.

    ``family`` is the distribution fitted to the sample of ``n`` scores (thesis §4.2.1:
    ``empirical``, ``normal``, ``beta`` or ``truncated-normal``).
    """

    low: float
    high: float
    confidence: float
    family: str
    n: int


def _in_unit_interval(x: np.ndarray) -> bool:
    return bool(np.all((x >= 0) & (x <= 1)))


def _quantiles(fit, p, *, bounded: bool) -> np.ndarray:
    q = np.asarray(fit.ppf(p), dtype=float)
    # scores of a measure bounded to [0, 1] cannot leave it: the Normal's quantiles are
    # those of the Normal censored to [0, 1]
    return np.clip(q, 0.0, 1.0) if bounded else q


def score_prediction_interval(
    x,
    *,
    n_levels: int | None = None,
    confidence: float = 0.95,
    family: str | None = None,
) -> PredictionInterval:
    r"""Central prediction interval of a new query's score (thesis §4.2, §4.2.3).

    .. math:: \left[\hat Q(\alpha/2),\ \hat Q(1-\alpha/2)\right]

    with :math:`\hat Q` the quantile function of the distribution fitted to the
    per-query scores ``x`` (Hyndman–Fan type 7 for the Empirical one). ``family``
    defaults to :func:`~evaluation.core.distributions.recommended_family` for
    ``len(x)`` queries and ``n_levels`` relevance levels: the Empirical distribution
    for tens of queries and more, the Normal or Beta for small collections. When every
    score lies in [0, 1] so does the interval (a Normal is censored to [0, 1]).

    Examples
    --------
    Forty scores, Empirical (type 7): the 2.5 % and 97.5 % quantiles of 0, 1/39, …, 1
    are 0.975/39 and 38.025/39.

    >>> p = score_prediction_interval(np.linspace(0, 1, 40), n_levels=3)
    >>> p.family, round(p.low * 39, 3), round(p.high * 39, 3)
    ('empirical', 0.975, 38.025)
    """
    x = _as_sample(x)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    fit = fit_recommended(x, n_levels=n_levels, family=family)
    a = (1 - confidence) / 2
    low, high = _quantiles(fit, [a, 1 - a], bounded=_in_unit_interval(x))
    return PredictionInterval(float(low), float(high), confidence, fit.name, int(x.size))


@dataclass(frozen=True)
class SatisfactionFloor:
    """A fraction ``coverage`` of new queries is expected to get P(Sat) above ``value``."""

    value: float
    coverage: float
    family: str
    n: int


def satisfaction_floor(
    x,
    sat: Callable[[np.ndarray], np.ndarray],
    *,
    n_levels: int | None = None,
    coverage: float = 0.95,
    family: str | None = None,
    grid: int = 4000,
) -> SatisfactionFloor:
    r"""The P(Sat) that a fraction ``coverage`` of new queries exceed (thesis §5.6.2).

    The floor is the :math:`1 - c` quantile, for ``coverage`` :math:`c`, of the
    distribution of :math:`\hat P(Sat) = \widehat{sat}(\Lambda)` (clipped to [0, 1]),
    with :math:`\Lambda` distributed as :func:`score_prediction_interval` fits it:

    - Empirical: the type-7 quantile of the per-query :math:`\widehat{sat}(\lambda_q)`,
      "the Empirical distribution of P(Sat) scores" of the thesis' own report (§5.6.2);
    - Normal or Beta: the thesis fits :math:`\Lambda` and maps it onto P(Sat) (§4.2.1).
      The support of :math:`\Lambda` is cut into ``grid`` equal cells, each weighted by
      its probability under the fit (the censored mass of a Normal sits on 0 and 1),
      and the weighted quantile of :math:`\widehat{sat}` at the cells' centres is taken.
      It is not simply :math:`\widehat{sat}(\hat Q_\Lambda(1 - c))`: 14 of the 40
      cubics of Table 4.3 decrease somewhere in [0, 1] (CG_l@5 on Fine, for one, dips
      to its minimum at λ ≈ 0.07).

    Parameters
    ----------
    x : array_like, 1-d
        One score λ per query.
    sat : callable
        The mapping :math:`\widehat{sat}(\lambda)`, e.g. a
        :class:`~evaluation.core.satisfaction.CubicMapping`.

    Examples
    --------
    With the identity as mapping the floor is the 5 % quantile of the scores:

    >>> f = satisfaction_floor(np.linspace(0, 1, 40), lambda s: s, n_levels=3)
    >>> f.family, round(f.value * 39, 2)
    ('empirical', 1.95)
    """
    x = _as_sample(x)
    if not 0 < coverage < 1:
        raise ValueError(f"coverage must be in (0, 1), got {coverage}")
    fit = fit_recommended(x, n_levels=n_levels, family=family)
    if fit.name == "empirical":
        psat = np.clip(np.asarray(sat(x), dtype=float), 0.0, 1.0)
        value = float(np.quantile(psat, 1 - coverage, method="linear"))
    else:
        value = _mapped_quantile(fit, sat, 1 - coverage, grid=grid, bounded=_in_unit_interval(x))
    return SatisfactionFloor(value, coverage, fit.name, int(x.size))


def _mapped_quantile(fit, sat, p: float, *, grid: int, bounded: bool) -> float:
    """The ``p`` quantile of clip(sat(Λ), 0, 1) for a continuous fit of Λ, on a grid."""
    low, high = (0.0, 1.0) if bounded else (float(fit.ppf(1e-9)), float(fit.ppf(1 - 1e-9)))
    edges = np.linspace(low, high, grid + 1)
    cdf = np.asarray(fit.cdf(edges), dtype=float)
    # cells weighted by their probability; what lies below / above the support (a
    # Normal's censored tails) sits on its ends
    weights = np.concatenate([[cdf[0]], np.diff(cdf), [1.0 - cdf[-1]]])
    points = np.concatenate([[low], (edges[:-1] + edges[1:]) / 2, [high]])
    values = np.clip(np.asarray(sat(points), dtype=float), 0.0, 1.0)
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    index = min(int(np.searchsorted(cumulative, p * cumulative[-1])), len(order) - 1)
    return float(values[order][index])


def format_satisfaction_floor(floor: SatisfactionFloor, *, digits: int = 2) -> str:
    """The §5.6.2 statement, e.g. ``95% of future queries are expected to get P(Sat) > 0.19``."""
    return (
        f"{floor.coverage:.0%} of future queries are expected to get "
        f"P(Sat) > {floor.value:.{digits}f}"
    )


def format_pvalue(p: float, *, resamples: int | None = None) -> str:
    """The p-value as a number, never as stars: ``p=0.024``, ``p=0.00011``.

    Values of 0.001 and above get three decimals; smaller ones two significant
    digits. A resampling test that saw no resample as extreme as the data reports
    ``p<1/T`` (e.g. ``p<0.0001`` for T = 10,000) rather than an impossible ``p=0``.
    """
    if not 0 <= p <= 1 or math.isnan(p):
        raise ValueError(f"not a p-value: {p}")
    if p == 0 and resamples:
        return f"p<{1 / resamples:.2g}"
    if p >= 0.001:
        return f"p={p:.3f}"
    return f"p={p:.2g}"


def format_interval(interval: Interval, *, digits: int = 4) -> str:
    """``± 0.0507`` for a t-interval (thesis §5.6.2), ``[0.1000, 0.9000] (bootstrap
    percentile)`` for any other: it need not be symmetric, and it says how it was made."""
    if interval.method == "t":
        return f"± {interval.margin:.{digits}f}"
    how = interval.method.replace("-", " ")
    return f"[{interval.low:.{digits}f}, {interval.high:.{digits}f}] ({how})"


def format_estimate(name: str, interval: Interval, *, digits: int = 4) -> str:
    """Thesis-style report of a mean with its interval, e.g. ``CG_l@5 = 0.2525 ± 0.0507``.

    (Urbano 2013, §5.6.2.) A bootstrap interval is printed as its ends and its method
    (:func:`format_interval`).
    """
    return f"{name} = {interval.estimate:.{digits}f} {format_interval(interval, digits=digits)}"


def format_difference(
    name: str,
    interval: Interval,
    pvalue: float | None,
    *,
    digits: int = 4,
    resamples: int | None = None,
) -> str:
    """Thesis-style report of a difference, e.g. ``ΔCG_l@5 = 0.0371 ± 0.0314 (p=0.024)``.

    The actual p-value is printed (Urbano 2013, §5.6.2), never only a star; ``None``
    (p-values withheld, e.g. for too few queries) prints the difference alone.
    """
    if pvalue is None or math.isnan(pvalue):
        return (
            f"Δ{name} = {interval.estimate:.{digits}f} {format_interval(interval, digits=digits)}"
        )
    return (
        f"Δ{name} = {interval.estimate:.{digits}f} {format_interval(interval, digits=digits)} "
        f"({format_pvalue(pvalue, resamples=resamples)})"
    )
