"""Distributions of per-query scores (thesis §4.2): fits, quantiles, prediction
intervals, and goodness of fit against held-out queries.

Four estimates of the distribution of λ (or of :math:`\\widehat{sat}(\\lambda)`) over
queries: Normal, Normal truncated to [0, 1], Beta, and Empirical. All share the
interface of :class:`FittedDistribution`: ``cdf``, ``ppf`` (quantile function) and
``prediction_interval``.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §4.2. PhD thesis.
http://hdl.handle.net/10016/18041

R. J. Hyndman, Y. Fan (1996). Sample quantiles in statistical packages. The American
Statistician 50(4), 361–365. https://doi.org/10.1080/00031305.1996.10473566

M. Smithson, J. Verkuilen (2006). A better lemon squeezer? Maximum-likelihood regression
with beta-distributed dependent variables. Psychological Methods 11(1), 54–71.
https://doi.org/10.1037/1082-989X.11.1.54
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

__all__ = [
    "SMALL_COLLECTION",
    "BetaFit",
    "EmpiricalFit",
    "FittedDistribution",
    "GoodnessOfFit",
    "NormalFit",
    "TruncatedNormalFit",
    "fit_beta",
    "fit_distribution",
    "fit_empirical",
    "fit_normal",
    "fit_recommended",
    "fit_truncated_normal",
    "goodness_of_fit",
    "ks_distance",
    "omega_squared",
    "recommended_family",
]


def _sample(x) -> np.ndarray:
    x = np.asarray(x, dtype=float).ravel()
    if x.size < 2:
        raise ValueError("fitting a distribution needs at least 2 scores")
    if not np.all(np.isfinite(x)):
        raise ValueError("scores contain NaN or infinite values")
    return x


class FittedDistribution:
    """Interface shared by the fits: ``cdf(s)``, ``ppf(p)`` and prediction intervals."""

    name: str

    def cdf(self, s):  # pragma: no cover - abstract
        raise NotImplementedError

    def ppf(self, p):  # pragma: no cover - abstract
        raise NotImplementedError

    def prediction_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        r"""Central interval :math:`[Q(\alpha/2), Q(1-\alpha/2)]` for a new query's score.

        (Thesis §4.2: :math:`[Q(\alpha), Q(1-\alpha)]` for a :math:`100(1-2\alpha)\%`
        interval.)
        """
        if not 0 < confidence < 1:
            raise ValueError(f"confidence must be in (0, 1), got {confidence}")
        a = (1 - confidence) / 2
        return float(self.ppf(a)), float(self.ppf(1 - a))


@dataclass(frozen=True)
class NormalFit(FittedDistribution):
    r""":math:`\mathcal{N}(\mu, \sigma)` with :math:`\mu` the sample mean and :math:`\sigma`
    the sample standard deviation (thesis §4.2.1, from eqs. 4.4–4.5)."""

    mu: float
    sigma: float
    name: str = "normal"

    def cdf(self, s):
        return stats.norm.cdf(s, self.mu, self.sigma)

    def ppf(self, p):
        return stats.norm.ppf(p, self.mu, self.sigma)


@dataclass(frozen=True)
class TruncatedNormalFit(FittedDistribution):
    r""":math:`\mathcal{N}'(\mu, \sigma, 0, 1)`: the Normal with the same :math:`\mu, \sigma`
    as :class:`NormalFit`, its density outside [0, 1] removed and renormalised
    (thesis §4.2.1, cdf :math:`\Phi'`). :math:`\mu, \sigma` are those of the untruncated
    Normal, as in the thesis, not maximum-likelihood estimates."""

    mu: float
    sigma: float
    low: float = 0.0
    high: float = 1.0
    name: str = "truncated-normal"

    def _dist(self):
        a = (self.low - self.mu) / self.sigma
        b = (self.high - self.mu) / self.sigma
        return stats.truncnorm(a, b, loc=self.mu, scale=self.sigma)

    def cdf(self, s):
        return self._dist().cdf(s)

    def ppf(self, p):
        return self._dist().ppf(p)


@dataclass(frozen=True)
class BetaFit(FittedDistribution):
    """:math:`Beta(\\alpha, \\beta)` on [0, 1]; ``method`` says how it was estimated."""

    alpha: float
    beta: float
    method: str  # 'moments' or 'ml'
    name: str = "beta"

    def cdf(self, s):
        return stats.beta.cdf(s, self.alpha, self.beta)

    def ppf(self, p):
        return stats.beta.ppf(p, self.alpha, self.beta)


@dataclass(frozen=True, eq=False)
class EmpiricalFit(FittedDistribution):
    r"""The empirical distribution of the sample.

    ``cdf`` is the step function :math:`ecdf(s) = \frac{1}{n}\sum_q \mathbb{1}(x_q \le s)`.
    ``ppf`` is the Hyndman–Fan **type 7** sample quantile (R's default, numpy's
    ``'linear'``): the :math:`i`-th smallest of :math:`n` observations is the
    :math:`(i-1)/(n-1)` quantile and quantiles in between are interpolated linearly,
    exactly as the thesis describes (§4.2.1, "the :math:`100(i-1)/(n_Q-1)`-quantile").
    """

    sorted_values: np.ndarray = field(repr=False)
    name: str = "empirical"

    def cdf(self, s):
        s = np.asarray(s, dtype=float)
        out = np.searchsorted(self.sorted_values, s, side="right") / self.sorted_values.size
        return out if out.ndim else float(out)

    def ppf(self, p):
        out = np.quantile(self.sorted_values, p, method="linear")
        return out if np.ndim(out) else float(out)


def fit_normal(x) -> NormalFit:
    """Fit :class:`NormalFit` by the sample mean and standard deviation (ddof = 1)."""
    x = _sample(x)
    sd = float(x.std(ddof=1))
    if sd == 0:
        raise ValueError("all scores are equal: a Normal distribution cannot be fitted")
    return NormalFit(float(x.mean()), sd)


def fit_truncated_normal(x, *, low: float = 0.0, high: float = 1.0) -> TruncatedNormalFit:
    """Fit :class:`TruncatedNormalFit` on ``[low, high]`` (default [0, 1])."""
    n = fit_normal(x)
    return TruncatedNormalFit(n.mu, n.sigma, low, high)


def fit_beta(x) -> BetaFit:
    r"""Fit a Beta distribution, by moments when possible, else by maximum likelihood.

    With sample mean :math:`\bar\mu` and variance :math:`sd^2`, when
    :math:`sd^2 < \bar\mu(1-\bar\mu)` (thesis §4.2.1):

    .. math::

        \hat\alpha = \bar\mu\left(\frac{\bar\mu(1-\bar\mu)}{sd^2} - 1\right),\qquad
        \hat\beta = (1-\bar\mu)\left(\frac{\bar\mu(1-\bar\mu)}{sd^2} - 1\right)

    Otherwise :func:`scipy.stats.beta.fit` maximises the likelihood with location 0
    and scale 1. Because scores of exactly 0 or 1 have zero density for some shapes,
    the ML fit is done on scores squeezed into (0, 1) by
    :math:`(x(n-1) + 1/2)/n` (Smithson and Verkuilen 2006).
    """
    x = _sample(x)
    if np.any((x < 0) | (x > 1)):
        raise ValueError("the Beta distribution needs scores in [0, 1]")
    m = float(x.mean())
    v = float(x.var(ddof=1))
    if v == 0:
        raise ValueError("all scores are equal: a Beta distribution cannot be fitted")
    if v < m * (1 - m):
        k = m * (1 - m) / v - 1
        return BetaFit(m * k, (1 - m) * k, "moments")
    n = x.size
    squeezed = (x * (n - 1) + 0.5) / n
    a, b, _, _ = stats.beta.fit(squeezed, floc=0, fscale=1)
    return BetaFit(float(a), float(b), "ml")


def fit_empirical(x) -> EmpiricalFit:
    """The empirical distribution (ecdf and Hyndman–Fan type 7 quantiles).

    Examples
    --------
    Type 7 puts the median of four scores halfway between the 2nd and 3rd:

    >>> e = fit_empirical([0.8, 0.1, 0.4, 0.2])
    >>> round(e.ppf(0.5), 4), e.cdf(0.4)
    (0.3, 0.75)
    """
    x = _sample(x)
    return EmpiricalFit(np.sort(x))


_FITTERS = {
    "normal": fit_normal,
    "truncated-normal": fit_truncated_normal,
    "beta": fit_beta,
    "empirical": fit_empirical,
}


def fit_distribution(x, *, family: str) -> FittedDistribution:
    """Fit ``family`` ∈ {'normal', 'truncated-normal', 'beta', 'empirical'}."""
    try:
        return _FITTERS[family](x)
    except KeyError:
        raise ValueError(
            f"unknown family {family!r}; choose one of {', '.join(_FITTERS)}"
        ) from None


#: Below this many queries the thesis finds the continuous fits better than the
#: Empirical one ("for small collections with :math:`n_Q < 30` queries", §4.4).
SMALL_COLLECTION = 30
#: The largest query sample the thesis studied (:math:`n_{Q_1} = 50`, Table 4.4); on the
#: Fine scale the Beta fit is still the best there.
LARGEST_STUDIED = 50


def recommended_family(n_queries: int, *, n_levels: int | None = None) -> str:
    r"""The distribution thesis §4.2.3 found to fit best, for this many queries and levels.

    ``n_levels`` is how many relevance levels the measure sees (2 for a binary scale or
    measure, 3 for Broad, 4–5 for the artificial graded scales, 101 for Fine); ``None``
    when unknown. From Tables 4.4 (:math:`n_{Q_1} = 50`) and 4.5 (:math:`n_{Q_1} = 20`)
    and the summaries in §4.4–4.5:

    ==========================  ============  ===============  ============
    levels                      :math:`n<30`  :math:`30..50`   :math:`n>50`
    ==========================  ============  ===============  ============
    2–3 (binary, Broad)         empirical     empirical        empirical
    4–5 (graded4, graded5)      normal        empirical        empirical
    more (Fine)                 beta          beta             empirical
    unknown                     beta          empirical        empirical
    ==========================  ============  ===============  ============

    - Binary and Broad: the Empirical fit is the best at both sizes (Tables 4.4, 4.5).
    - Four and five levels: the Normal is the best at 20 queries (Table 4.5), the
      Empirical at 50 (Table 4.4); the switch is at 30 (§4.4: "for small collections
      with :math:`n_Q < 30` queries, the Beta and Normal distributions provide better
      fits").
    - Fine: the Beta is the best at 20 and at 50 queries (Tables 4.4, 4.5; §4.5 "the
      Beta distribution consistently provided the best fits for all measures and query
      set sizes"). Beyond the 50 studied the Empirical fit, which "converges more
      rapidly" (§4.2.3, Figure 4.5), is used, as in the thesis' own report of a
      100-query collection (§5.6.2).
    - Unknown levels: Beta for small collections (§4.4), Empirical otherwise.

    >>> recommended_family(100, n_levels=101), recommended_family(20, n_levels=101)
    ('empirical', 'beta')
    >>> recommended_family(20, n_levels=5), recommended_family(20, n_levels=3)
    ('normal', 'empirical')
    """
    if n_queries < 0:
        raise ValueError(f"n_queries cannot be negative, got {n_queries}")
    if n_levels is not None and n_levels <= 3:
        return "empirical"
    if n_levels is not None and n_levels <= 5:
        return "normal" if n_queries < SMALL_COLLECTION else "empirical"
    if n_levels is not None:
        return "beta" if n_queries <= LARGEST_STUDIED else "empirical"
    return "beta" if n_queries < SMALL_COLLECTION else "empirical"


def fit_recommended(
    x, *, n_levels: int | None = None, family: str | None = None
) -> FittedDistribution:
    """Fit ``family``, or the :func:`recommended_family` for the sample, with fallbacks.

    A fit that cannot be made falls back to the Empirical distribution, which always
    can: the Beta needs scores in [0, 1] that are not all equal, the Normal scores that
    are not all equal. The returned fit's ``name`` says which was used.
    """
    x = _sample(x)
    family = family or recommended_family(x.size, n_levels=n_levels)
    try:
        return fit_distribution(x, family=family)
    except ValueError:
        if family not in _FITTERS:
            raise
        return fit_empirical(x)


# --------------------------------------------------------------------- goodness of fit


@dataclass(frozen=True)
class GoodnessOfFit:
    """ω̂² (eq. 4.7), its square root ω̂ (as the thesis tabulates) and the KS distance D."""

    omega_squared: float
    omega: float
    ks_d: float


def omega_squared(fitted: FittedDistribution, heldout) -> float:
    r"""Discrete Cramér–von Mises distance to the ecdf of held-out scores (thesis eq. 4.7).

    .. math::

        \hat\omega^2 = \sum_{q \in Q_2} \left(F(\lambda_q) - \hat{F}(\lambda_q)\right)^2
        \qquad\text{(Urbano 2013, eq. 4.7)}

    where :math:`F` is the ecdf of the held-out scores :math:`\lambda_{Q_2}` and
    :math:`\hat F` the fitted cdf (estimated on other queries :math:`Q_1`).
    """
    y = _sample(heldout)
    F = np.searchsorted(np.sort(y), y, side="right") / y.size
    return float(((F - np.asarray(fitted.cdf(y))) ** 2).sum())


def ks_distance(fitted: FittedDistribution, heldout) -> float:
    r"""Kolmogorov–Smirnov :math:`D = \sup_\lambda |F(\lambda) - \hat F(\lambda)|`.

    :math:`F` is the ecdf of the held-out scores. Both functions are evaluated at
    every jump point of either (the held-out scores, and the fitted sample for an
    :class:`EmpiricalFit`) and just to the left of it, so the supremum is exact for
    step functions and continuous fits alike.
    """
    y = np.sort(_sample(heldout))
    points = y
    if isinstance(fitted, EmpiricalFit):
        points = np.union1d(points, fitted.sorted_values)
    left = np.nextafter(points, -np.inf)
    at = np.concatenate([points, left])
    F = np.searchsorted(y, at, side="right") / y.size
    return float(np.max(np.abs(F - np.asarray(fitted.cdf(at)))))


def goodness_of_fit(fitted: FittedDistribution, heldout) -> GoodnessOfFit:
    """ω̂² (eq. 4.7), ω̂ and the KS D of ``fitted`` against held-out scores."""
    w2 = omega_squared(fitted, heldout)
    return GoodnessOfFit(w2, math.sqrt(w2), ks_distance(fitted, heldout))
