"""The mathematics of user satisfaction and user–evaluation agreement (thesis ch. 3–4).

From labelled data — λ scores of ranked lists with a user verdict (satisfied or not),
and Δλ of pairs of lists with a user preference — this module computes the binned
mappings P(Sat | λ) and P(Agr = ±1 | Δλ) with Wilson intervals, the cubic fit of
eq. (4.3), the bias and distance measures of eqs. (3.11)–(3.13), the priors of §3.4, and
the summaries of ch. 4: mean P(Sat) with its interval (eqs. 4.4–4.6), P(Succ)
(eq. 4.8) and the Binomial number of satisfied users (eq. 4.2).

The published cubic mappings of thesis Table 4.3 (a campaign's default until it has
its own data) are in :mod:`evaluation.core.published_mappings`; how crowd answers
become the observations these functions take is in :mod:`evaluation.core.answers`.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, ch. 3–4. PhD thesis,
Universidad Carlos III de Madrid. http://hdl.handle.net/10016/18041

E. B. Wilson (1927). Probable inference, the law of succession, and statistical
inference. JASA 22(158), 209–212. https://doi.org/10.1080/01621459.1927.10502953
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from evaluation.core.distributions import FittedDistribution
from evaluation.core.intervals import Interval, mean_ci
from evaluation.core.scores import ScoreMatrix

__all__ = [
    "BIN_EDGES",
    "AgreementBins",
    "BinnedProportion",
    "CubicMapping",
    "PriorFraction",
    "agreement_by_bin",
    "agreement_from_preference",
    "agreement_threshold",
    "bin_index",
    "distance_to_one",
    "distance_to_zero",
    "endpoint_bias",
    "expected_fraction_agreeing",
    "fit_cubic",
    "fit_satisfaction_mapping",
    "mean_satisfaction",
    "prior_deltas",
    "satisfaction_by_bin",
    "satisfied_users_pmf",
    "success_probability",
    "wilson_interval",
]

#: The 10 bins of thesis §3.2.1: [0, 0.1), [0.1, 0.2), …, [0.9, 1] (the last one closed).
BIN_EDGES = np.round(np.linspace(0.0, 1.0, 11), 1)


def bin_index(x) -> np.ndarray:
    """Index 0–9 of the §3.2.1 bin of each score in [0, 1].

    ``floor(10·x)`` after rounding ``10·x`` to 9 decimals, so that decimal scores such
    as 0.3 (stored as 0.29999…) fall in the bin a person expects; 1.0 goes to the last,
    closed bin.
    """
    x = np.asarray(x, dtype=float)
    if np.any((x < 0) | (x > 1)) or not np.all(np.isfinite(x)):
        raise ValueError("scores must be in [0, 1]")
    return np.minimum(np.floor(np.round(x * 10, 9)), 9).astype(int)


def wilson_interval(successes, trials, *, confidence: float = 0.95):
    r"""Wilson score interval of a binomial proportion (Wilson 1927), vectorised.

    .. math::

        \frac{\hat p + \frac{z^2}{2n} \pm z\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}}
             {1 + \frac{z^2}{n}}

    Returns ``(low, high)``; NaN where ``trials`` is 0. Equals
    ``scipy.stats.binomtest(k, n).proportion_ci(method='wilson')``.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = stats.norm.ppf(1 - (1 - confidence) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    low = np.where(n > 0, np.maximum(0.0, centre - half), np.nan)
    high = np.where(n > 0, np.minimum(1.0, centre + half), np.nan)
    return low, high


@dataclass(frozen=True, eq=False)
class BinnedProportion:
    """A proportion per §3.2.1 bin: ``successes[b]`` of ``counts[b]``, with Wilson intervals.

    ``proportion``, ``ci_low`` and ``ci_high`` are NaN for empty bins.
    """

    edges: np.ndarray
    counts: np.ndarray
    successes: np.ndarray
    proportion: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    confidence: float

    @property
    def centres(self) -> np.ndarray:
        return (self.edges[:-1] + self.edges[1:]) / 2


def _binned(x, hit, confidence) -> BinnedProportion:
    b = bin_index(x)
    hit = np.asarray(hit, dtype=bool)
    if hit.shape != b.shape:
        raise ValueError(f"scores and outcomes differ in shape: {b.shape} and {hit.shape}")
    counts = np.bincount(b.ravel(), minlength=10)
    succ = np.bincount(b.ravel(), weights=hit.ravel().astype(float), minlength=10).astype(int)
    with np.errstate(divide="ignore", invalid="ignore"):
        prop = np.where(counts > 0, succ / counts, np.nan)
    low, high = wilson_interval(succ, counts, confidence=confidence)
    return BinnedProportion(BIN_EDGES.copy(), counts, succ, prop, low, high, confidence)


def satisfaction_by_bin(scores, satisfied, *, confidence: float = 0.95) -> BinnedProportion:
    r"""Binned :math:`P(Sat \mid \lambda)`: the fraction of lists judged satisfactory per bin.

    (Thesis §3.3.1, Figure 3.3.) ``scores`` are λ of ranked lists; ``satisfied`` is
    True for a list the user found satisfactory ("both good" marks both lists of an
    example satisfactory, "both bad" both unsatisfactory).
    """
    return _binned(scores, satisfied, confidence)


@dataclass(frozen=True, eq=False)
class AgreementBins:
    """Binned :math:`P(Agr=1 \\mid \\Delta\\lambda)` and :math:`P(Agr=-1 \\mid \\Delta\\lambda)`.

    Both share the ``counts`` of examples per bin of :math:`|\\Delta\\lambda|`;
    :math:`P(Agr=0) = 1 - P(Agr=1) - P(Agr=-1)`.
    """

    positive: BinnedProportion
    negative: BinnedProportion


def agreement_from_preference(delta, preference) -> np.ndarray:
    """Agr ∈ {1, 0, −1} from Δλ = λ_A − λ_B and the preferred list (+1 A, −1 B, 0 none).

    Agr = 1 when the user prefers the list with the larger λ (a positive preference),
    −1 when she prefers the other one, 0 for no preference (§3.3.2). With Δλ = 0 the
    evaluation prefers neither list, so no answer can agree or disagree with it: Agr = 0.
    """
    delta = np.asarray(delta, dtype=float)
    pref = np.asarray(preference)
    if not np.all(np.isin(pref, (-1, 0, 1))):
        raise ValueError("preference must be +1 (A), -1 (B) or 0 (none)")
    return (np.sign(delta) * pref).astype(int)


def agreement_by_bin(delta, agreement, *, confidence: float = 0.95) -> AgreementBins:
    r"""Binned :math:`P(Agr = 1 \mid \Delta\lambda)` and :math:`P(Agr = -1 \mid \Delta\lambda)`.

    (Thesis §3.3.2, Figures 3.4 and 3.5.) Examples are binned by
    :math:`|\Delta\lambda|`; ``agreement`` holds Agr ∈ {1, 0, −1} per example (see
    :func:`agreement_from_preference`).
    """
    d = np.abs(np.asarray(delta, dtype=float))
    agr = np.asarray(agreement)
    if not np.all(np.isin(agr, (-1, 0, 1))):
        raise ValueError("agreement must be 1, 0 or -1")
    return AgreementBins(_binned(d, agr == 1, confidence), _binned(d, agr == -1, confidence))


# ------------------------------------------------------------------ cubic mapping


@dataclass(frozen=True)
class CubicMapping:
    r""":math:`\widehat{sat}(\lambda) = a_0 + a_1\lambda + a_2\lambda^2 + a_3\lambda^3` (eq. 4.3).

    ``r_squared`` and ``rms`` describe the fit (NaN for published coefficients, whose
    data are not available); ``source`` says where the coefficients come from.
    """

    a0: float
    a1: float
    a2: float
    a3: float
    r_squared: float = math.nan
    rms: float = math.nan
    source: str = ""

    @property
    def coefficients(self) -> tuple[float, float, float, float]:
        return (self.a0, self.a1, self.a2, self.a3)

    def __call__(self, lam):
        lam = np.asarray(lam, dtype=float)
        out = self.a0 + lam * (self.a1 + lam * (self.a2 + lam * self.a3))
        return out if out.ndim else float(out)


def fit_cubic(x, y, *, weights=None) -> CubicMapping:
    r"""Least-squares cubic :math:`\widehat{sat}(\lambda)` (thesis eq. 4.3), with R² and RMS.

    .. math::

        \widehat{sat}(\lambda) = a_0 + a_1\lambda + a_2\lambda^2 + a_3\lambda^3
        \qquad\text{(Urbano 2013, eq. 4.3)}

    :math:`R^2 = 1 - SS_{res}/SS_{tot}` and RMS :math:`= \sqrt{SS_{res}/m}` over the
    :math:`m` points (Table 4.2 reports this RMS). Optional ``weights`` (e.g. bin
    counts) weight the squared residuals.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-d and of equal length")
    if x.size < 4:
        raise ValueError("a cubic fit needs at least 4 points")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    A = np.vander(x, 4, increasing=True)
    sw = np.sqrt(w)
    coef, *_ = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)
    resid = y - A @ coef
    ybar = np.average(y, weights=w)
    ss_res = float((w * resid**2).sum())
    ss_tot = float((w * (y - ybar) ** 2).sum())
    r2 = 1 - ss_res / ss_tot if ss_tot > 0 else math.nan
    rms = math.sqrt(ss_res / w.sum())
    return CubicMapping(*map(float, coef), r_squared=r2, rms=rms, source="fitted")


def fit_satisfaction_mapping(bins: BinnedProportion) -> CubicMapping:
    """Fit eq. (4.3) to binned P(Sat | λ), one point per non-empty bin at the bin centre.

    The thesis interpolates "the known estimates in Figure 3.3" (§4.1.2), one per bin;
    it does not say where in the bin each estimate sits — the bin centre is used here.
    """
    ok = bins.counts > 0
    return fit_cubic(bins.centres[ok], bins.proportion[ok])


# ------------------------------------------------------------ bias and distances


def endpoint_bias(bins: BinnedProportion) -> float:
    r"""Bias of :math:`P(Sat \mid \lambda)` at the endpoints λ = 0 and λ = 1 (eq. 3.11).

    .. math::

        \sqrt{\frac{P(Sat \mid 0)^2 + \left(1 - P(Sat \mid 1)\right)^2}{2}}
        \qquad\text{(Urbano 2013, eq. 3.11)}

    with :math:`P(Sat \mid 0)` and :math:`P(Sat \mid 1)` the proportions of the first
    and last bins, [0, 0.1) and [0.9, 1].
    """
    p0, p1 = bins.proportion[0], bins.proportion[-1]
    if np.isnan(p0) or np.isnan(p1):
        raise ValueError("the first and last bins need examples to measure the bias")
    return float(math.sqrt((p0**2 + (1 - p1) ** 2) / 2))


def distance_to_one(positive: BinnedProportion) -> float:
    r"""RMS distance between :math:`P(Agr = 1 \mid \Delta\lambda)` and 1 (eq. 3.12).

    .. math::

        \sqrt{\frac{1}{10}\sum_{\beta}\left(1 - P(Agr = 1 \mid \Delta\Lambda \in \beta)\right)^2}
        \qquad\text{(Urbano 2013, eq. 3.12)}

    The mean runs over the non-empty bins (all 10 in the thesis, except for measures
    such as P@5 that cannot produce some Δλ).
    """
    p = positive.proportion[positive.counts > 0]
    return float(math.sqrt(np.mean((1 - p) ** 2)))


def distance_to_zero(negative: BinnedProportion) -> float:
    r"""RMS distance between :math:`P(Agr = -1 \mid \Delta\lambda)` and 0 (eq. 3.13).

    .. math::

        \sqrt{\frac{1}{10}\sum_{\beta} P(Agr = -1 \mid \Delta\Lambda \in \beta)^2}
        \qquad\text{(Urbano 2013, eq. 3.13)}

    (The thesis as transcribed prints :math:`Agr = 1` and the square root around
    :math:`1/10` only; the text defines the distance of :math:`P(Agr=-1)` to the
    bottom axis, as here.) The mean runs over the non-empty bins.
    """
    p = negative.proportion[negative.counts > 0]
    return float(math.sqrt(np.mean(p**2)))


# ------------------------------------------------------------------------- priors


def prior_deltas(collections: ScoreMatrix | np.ndarray | Iterable) -> np.ndarray:
    r"""|Δλ| of every pair of systems on every query, pooled over collections (§3.4).

    ``collections`` is one systems × queries matrix (ScoreMatrix or array) or an
    iterable of them (the thesis pools MIREX 2007–2012: 37,450 Δλ per measure and
    scale). Returns the sorted absolute differences, whose ecdf is
    :math:`F_{\Delta\Lambda}` of Figure 3.6.
    """
    if isinstance(collections, ScoreMatrix | np.ndarray):
        collections = [collections]
    parts = []
    for c in collections:
        X = np.asarray(c.scores if isinstance(c, ScoreMatrix) else c, dtype=float)
        if X.ndim != 2:
            raise ValueError(f"expected systems × queries matrices, got shape {X.shape}")
        i, j = np.triu_indices(X.shape[0], 1)
        parts.append(np.abs(X[i] - X[j]).ravel())
    if not parts:
        raise ValueError("no collections given")
    return np.sort(np.concatenate(parts))


def agreement_threshold(positive: BinnedProportion, *, level: float = 0.5) -> float:
    r"""Smallest Δλ with :math:`P(Agr = 1 \mid \Delta\lambda) \ge` ``level`` (§3.4).

    The binned proportions are linearly interpolated between bin centres, and the first
    crossing of ``level`` is returned (the points of Figure 3.6). Returns the first
    centre if that bin already reaches the level, and ``inf`` if no bin does.
    """
    ok = positive.counts > 0
    x, p = positive.centres[ok], positive.proportion[ok]
    if p.size == 0:
        raise ValueError("no examples in any bin")
    if p[0] >= level:
        return float(x[0])
    for i in range(1, p.size):
        if p[i] >= level:
            return float(x[i - 1] + (level - p[i - 1]) * (x[i] - x[i - 1]) / (p[i] - p[i - 1]))
    return math.inf


@dataclass(frozen=True)
class PriorFraction:
    """Δλ threshold for the agreement level, and the fraction of prior Δλ reaching it."""

    threshold: float
    fraction: float
    level: float


def expected_fraction_agreeing(
    prior, positive: BinnedProportion, *, level: float = 0.5
) -> PriorFraction:
    r"""Expected fraction of comparisons with :math:`P(Agr = 1) \ge` ``level`` (Table 3.5).

    .. math::

        P(\Delta\Lambda \ge \Delta\lambda^*) = 1 - F_{\Delta\Lambda}(\Delta\lambda^{*-}),
        \qquad \Delta\lambda^* = \text{agreement\_threshold}(\cdot, \text{level})

    ``prior`` are |Δλ| values such as :func:`prior_deltas` returns.
    """
    d = np.asarray(prior, dtype=float)
    t = agreement_threshold(positive, level=level)
    return PriorFraction(t, float(np.mean(d >= t)), level)


# ------------------------------------------------------------------- chapter 4


def mean_satisfaction(scores, mapping: Callable, *, confidence: float = 0.95) -> Interval:
    r"""Mean estimated P(Sat) over a query sample, with its t interval (eqs. 4.4–4.6).

    .. math::

        E\left[\hat\mu_{\hat P(Sat)}\right] = \frac{1}{n_Q}\sum_{q\in Q}\widehat{sat}(\lambda_q)
        \pm t_\alpha \frac{sd_{\hat P(Sat)}}{\sqrt{n_Q}}
        \qquad\text{(Urbano 2013, eqs. 4.4–4.6)}

    ``mapping`` is :math:`\widehat{sat}`, e.g. a :class:`CubicMapping` from
    :func:`evaluation.core.published_mappings.published_mapping`.
    """
    return mean_ci(np.asarray(mapping(np.asarray(scores, dtype=float))), confidence=confidence)


def success_probability(
    p_sat,
    *,
    threshold: float = 0.5,
    distribution: FittedDistribution | None = None,
) -> float:
    r"""Probability of success :math:`\hat P(Succ) = 1 - \hat F_{\hat P(Sat)}(0.5)` (eq. 4.8).

    .. math::

        \hat P(Succ) = 1 - \hat F_{\hat P(Sat)}(\text{threshold})
        \qquad\text{(Urbano 2013, eq. 4.8)}

    ``p_sat`` are the per-query :math:`\widehat{sat}(\lambda_q)`. With the default
    empirical :math:`\hat F` this is the fraction of queries with
    :math:`\hat P(Sat) >` ``threshold``; pass a fitted ``distribution`` (fitted to
    ``p_sat``) to use its cdf instead.
    """
    x = np.asarray(p_sat, dtype=float)
    if distribution is None:
        return float(np.mean(x > threshold))
    return float(1 - distribution.cdf(threshold))


def satisfied_users_pmf(k, n: int, sat: float):
    r"""P(Sat_n = k): how likely exactly k of n users are satisfied (eq. 4.2).

    .. math::

        P(Sat_n = k \mid \Lambda = \lambda) = \binom{n}{k}\, sat(\lambda)^k
        \left(1 - sat(\lambda)\right)^{n-k}
        \qquad\text{(Urbano 2013, eq. 4.2)}

    Examples
    --------
    The thesis' example, sat = 0.7 and 15 users (§4.1):

    >>> round(satisfied_users_pmf(10, 15, 0.7), 4)
    0.2061
    """
    if not 0 <= sat <= 1:
        raise ValueError(f"sat must be a probability, got {sat}")
    out = stats.binom.pmf(k, n, sat)
    return out if np.ndim(out) else float(out)
