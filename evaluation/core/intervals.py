"""Confidence and prediction intervals, and the thesis-style report strings.

A mean over a sample of queries is an estimate; report it with its interval and, for a
difference, with the actual p-value (Urbano 2013, §4.1.3 and §5.6.2).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*. PhD thesis, Universidad
Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = [
    "Interval",
    "format_difference",
    "format_estimate",
    "format_pvalue",
    "mean_ci",
    "mean_difference_ci",
    "prediction_interval",
]


@dataclass(frozen=True)
class Interval:
    """An estimate with a two-sided interval ``[low, high]`` at level ``confidence``.

    ``margin`` is the half-width ``t·sd/√n`` (or ``t·sd·√(1+1/n)`` for a prediction
    interval), the number printed after ``±``.
    """

    estimate: float
    low: float
    high: float
    margin: float
    confidence: float
    sd: float
    n: int


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

    This assumes normal scores; :mod:`evaluation.core.distributions` gives prediction
    intervals from the Normal, Truncated Normal, Beta and Empirical fits of §4.2, which
    respect the [0, 1] support.
    """
    x = _as_sample(x)
    return _t_interval(x, confidence, math.sqrt(1 + 1 / x.size))


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


def format_estimate(name: str, interval: Interval, *, digits: int = 4) -> str:
    """Thesis-style report of a mean with its interval, e.g. ``CG_l@5 = 0.2525 ± 0.0507``.

    (Urbano 2013, §5.6.2.)
    """
    return f"{name} = {interval.estimate:.{digits}f} ± {interval.margin:.{digits}f}"


def format_difference(
    name: str,
    interval: Interval,
    pvalue: float,
    *,
    digits: int = 4,
    resamples: int | None = None,
) -> str:
    """Thesis-style report of a difference, e.g. ``ΔCG_l@5 = 0.0371 ± 0.0314 (p=0.024)``.

    The actual p-value is printed (Urbano 2013, §5.6.2), never only a star.
    """
    return (
        f"Δ{name} = {interval.estimate:.{digits}f} ± {interval.margin:.{digits}f} "
        f"({format_pvalue(pvalue, resamples=resamples)})"
    )
