"""Many systems at once: Friedman, two-way ANOVA, Tukey's HSD (classic and randomised),
and Holm/Bonferroni adjustments of a family of p-values.

The systems × queries matrix is a randomised complete block design: systems are the
treatments, queries the blocks, one score per cell (no replication).

References
----------
T. Sakai (2018). *Laboratory Experiments in Information Retrieval*, ch. 4 (Tukey HSD
and the randomised Tukey HSD test). Springer. https://doi.org/10.1007/978-981-13-1199-4

B. Carterette (2012). Multiple testing in statistical analysis of systems-based
information retrieval experiments. ACM TOIS 30(1). https://doi.org/10.1145/2094072.2094076

S. Holm (1979). A simple sequentially rejective multiple test procedure. Scandinavian
Journal of Statistics 6(2), 65–70.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from scipy import stats

from evaluation.core import _validation as iv
from evaluation.core._validation import Seed
from evaluation.core.scores import ScoreMatrix
from evaluation.core.studentized_range import studentized_range_ppf, studentized_range_sf

__all__ = [
    "ADJUSTMENTS",
    "Adjustment",
    "AnovaResult",
    "AnovaRow",
    "FriedmanResult",
    "TukeyHSDResult",
    "adjust_pvalues",
    "anova_two_way",
    "friedman_test",
    "randomised_tukey_hsd",
    "tukey_hsd",
]

Adjustment = Literal["holm", "bonferroni", "none"]
"""How a family of p-values is adjusted for multiple comparisons."""

ADJUSTMENTS: tuple[str, ...] = get_args(Adjustment)


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's χ² over systems (treatments) with queries as blocks."""

    statistic: float
    pvalue: float
    df: int


@dataclass(frozen=True)
class AnovaRow:
    """One line of an ANOVA table. ``f`` and ``pvalue`` are NaN for the residual."""

    ss: float
    df: int
    ms: float
    f: float
    pvalue: float


@dataclass(frozen=True)
class AnovaResult:
    """Two-way ANOVA without replication, systems × queries."""

    systems: AnovaRow
    queries: AnovaRow
    residual: AnovaRow
    n_systems: int
    n_queries: int


@dataclass(frozen=True, eq=False)
class TukeyHSDResult:
    """All-pairs comparisons controlling the family-wise error rate.

    ``[i, j]`` entries compare ``systems[i] − systems[j]``; ``pvalue`` is symmetric,
    NaN on the diagonal. ``ci_low``/``ci_high`` are the simultaneous intervals (classic
    HSD only; NaN for the randomised test). ``resamples`` is None for the classic test.
    """

    systems: tuple[str, ...]
    mean_difference: np.ndarray
    pvalue: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    confidence: float
    resamples: int | None


def _complete(scores) -> tuple[tuple[str, ...], np.ndarray]:
    systems, X = iv.matrix_iv(scores)
    if X.shape[0] < 2 or X.shape[1] < 2:
        raise ValueError(f"need at least 2 systems and 2 queries, got {X.shape}")
    return systems, X


def friedman_test(scores: ScoreMatrix | np.ndarray) -> FriedmanResult:
    r"""Friedman test that all systems have the same distribution of scores.

    Scores are ranked within each query (average ranks for ties) and

    .. math::

        \chi^2_F = \frac{12}{n k (k+1)} \sum_{i=1}^{k} R_i^2 - 3 n (k+1)

    without ties, for :math:`k` systems, :math:`n` queries and rank sums :math:`R_i`,
    with :math:`k-1` degrees of freedom. Computed by
    :func:`scipy.stats.friedmanchisquare`, which corrects for ties.

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        At least 3 systems and 2 queries, finite scores.

    Returns
    -------
    FriedmanResult
        :math:`\chi^2_F`, its p-value and :math:`k - 1`.

    References
    ----------
    M. Friedman (1937). The use of ranks to avoid the assumption of normality implicit
    in the analysis of variance. JASA 32(200), 675–701.
    https://doi.org/10.1080/01621459.1937.10503522
    """
    _, X = _complete(scores)
    if X.shape[0] < 3:
        raise ValueError("the Friedman test needs at least 3 systems")
    if np.all(X[:1] == X):  # every query gives every system the same score
        return FriedmanResult(0.0, 1.0, X.shape[0] - 1)
    res = stats.friedmanchisquare(*X)
    return FriedmanResult(float(res.statistic), float(res.pvalue), X.shape[0] - 1)


def anova_two_way(scores: ScoreMatrix | np.ndarray) -> AnovaResult:
    r"""Two-way ANOVA without replication: systems × queries, one score per cell.

    .. math::

        SS_s = n_q \sum_i (\bar{x}_{i\cdot} - \bar{x})^2,\quad
        SS_q = n_s \sum_j (\bar{x}_{\cdot j} - \bar{x})^2,\quad
        SS_e = \sum_{ij} (x_{ij} - \bar{x}_{i\cdot} - \bar{x}_{\cdot j} + \bar{x})^2

    with :math:`n_s-1`, :math:`n_q-1` and :math:`(n_s-1)(n_q-1)` degrees of freedom;
    :math:`F = MS/MS_e`. These mean squares also feed the G-study (thesis eq. 6.3).

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        At least 2 systems and 2 queries, finite scores.

    Returns
    -------
    AnovaResult
        The rows of systems, queries and residual.

    References
    ----------
    Sakai (2018), ch. 3; Urbano (2013), §6.1.
    """
    _, X = _complete(scores)
    k, n = X.shape
    grand = X.mean()
    row = X.mean(axis=1)
    col = X.mean(axis=0)
    ss_s = n * float(((row - grand) ** 2).sum())
    ss_q = k * float(((col - grand) ** 2).sum())
    ss_e = float(((X - row[:, None] - col[None, :] + grand) ** 2).sum())
    df_s, df_q, df_e = k - 1, n - 1, (k - 1) * (n - 1)
    ms_e = ss_e / df_e

    def line(ss, df):
        ms = ss / df
        if ms_e > 0:
            f = ms / ms_e
            p = float(stats.f.sf(f, df, df_e))
        else:
            f, p = (math.inf, 0.0) if ms > 0 else (math.nan, math.nan)
        return AnovaRow(ss, df, ms, f, p)

    return AnovaResult(
        systems=line(ss_s, df_s),
        queries=line(ss_q, df_q),
        residual=AnovaRow(ss_e, df_e, ms_e, math.nan, math.nan),
        n_systems=k,
        n_queries=n,
    )


def tukey_hsd(scores: ScoreMatrix | np.ndarray, *, confidence: float = 0.95) -> TukeyHSDResult:
    r"""Tukey's honestly significant difference test on the two-way ANOVA.

    For systems :math:`i, j` with means over :math:`n` queries,

    .. math::

        q_{ij} = \frac{|\bar{x}_{i\cdot} - \bar{x}_{j\cdot}|}{\sqrt{MS_e / n}},\qquad
        p_{ij} = P\left(Q_{k,\,(k-1)(n-1)} \ge q_{ij}\right)

    where :math:`Q` is the studentized range distribution for :math:`k` systems with
    the residual degrees of freedom of :func:`anova_two_way` (Sakai 2018, §4.4). The
    simultaneous interval is :math:`\bar{x}_{i\cdot} - \bar{x}_{j\cdot} \pm
    Q_{1-\alpha}\sqrt{MS_e/n}`. The distribution is integrated for the :math:`k(k-1)/2`
    pairs at once (:mod:`evaluation.core.studentized_range`, within
    :data:`~evaluation.core.studentized_range.ACCURACY` of ``scipy.stats.studentized_range``).

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        At least 2 systems and 2 queries, finite scores.
    confidence : float
        Level of the simultaneous intervals, :math:`1 - \alpha`.

    Returns
    -------
    TukeyHSDResult
        ``resamples`` is None.

    References
    ----------
    J. W. Tukey (1949). Comparing individual means in the analysis of variance.
    Biometrics 5(2), 99–114. https://doi.org/10.2307/3001913
    """
    iv.confidence_iv(confidence)
    systems, X = _complete(scores)
    k, n = X.shape
    anova = anova_two_way(X)
    means = X.mean(axis=1)
    diff = means[:, None] - means[None, :]
    se = math.sqrt(anova.residual.ms / n)
    df = anova.residual.df
    upper = np.triu_indices(k, 1)  # one Studentized range per unordered pair
    d = diff[upper]
    if se > 0:
        p_upper = np.where(d == 0, 1.0, studentized_range_sf(np.abs(d) / se, k, df))
        margin = studentized_range_ppf(confidence, k, df) * se
    else:
        p_upper, margin = np.where(d == 0, 1.0, 0.0), 0.0
    p = np.full((k, k), np.nan)
    p[upper] = p_upper
    p[upper[1], upper[0]] = p_upper
    eye = np.eye(k, dtype=bool)
    return TukeyHSDResult(
        systems=systems,
        mean_difference=np.where(eye, np.nan, diff),
        pvalue=p,
        ci_low=np.where(eye, np.nan, diff - margin),
        ci_high=np.where(eye, np.nan, diff + margin),
        confidence=confidence,
        resamples=None,
    )


def randomised_tukey_hsd(
    scores: ScoreMatrix | np.ndarray, *, resamples: int = 10_000, seed: Seed = None
) -> TukeyHSDResult:
    r"""Randomised Tukey HSD test (Carterette 2012; Sakai 2018, §4.5).

    Under the null hypothesis the systems are interchangeable within each query. For
    each of :math:`B` trials the scores of every query are permuted across systems
    independently, the system means recomputed, and the range
    :math:`\max_i \bar{x}^{*}_{i} - \min_i \bar{x}^{*}_{i}` recorded. Then

    .. math::

        p_{ij} = \frac{1}{B}\sum_{b=1}^{B}
        \mathbb{1}\left(\max_i \bar{x}^{*b}_{i} - \min_i \bar{x}^{*b}_{i}
        \ge |\bar{x}_{i\cdot} - \bar{x}_{j\cdot}|\right)

    Trials are drawn in chunks of about 2 M numbers, so memory stays bounded.

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        At least 2 systems and 2 queries, finite scores.
    resamples : int
        :math:`B`, the number of trials.
    seed : None, int, SeedSequence or Generator
        Makes the result reproducible.

    Returns
    -------
    TukeyHSDResult
        Intervals are NaN (the randomised test gives none).

    References
    ----------
    Carterette (2012) and Sakai (2018, §4.5), see the module.
    """
    resamples = iv.resamples_iv(resamples)
    systems, X = _complete(scores)
    k, n = X.shape
    means = X.mean(axis=1)
    diff = means[:, None] - means[None, :]
    ranges = np.empty(resamples)
    Xt = X.T  # queries × systems
    chunk = max(1, min(resamples, (1 << 21) // (n * k)))
    starts = list(range(0, resamples, chunk))
    for a, child in zip(starts, iv.seed_sequence(seed).spawn(len(starts)), strict=True):
        z = min(a + chunk, resamples)
        rng = np.random.default_rng(child)
        perm = np.argsort(rng.random((z - a, n, k)), axis=2)
        permuted = np.take_along_axis(np.broadcast_to(Xt, perm.shape), perm, axis=2)
        m = permuted.mean(axis=1)  # trials × systems
        ranges[a:z] = m.max(axis=1) - m.min(axis=1)
    gamma = 1e-10 * (np.abs(X).mean() + 1e-300)
    ranges.sort()
    # count of ranges >= |d| - gamma
    idx = np.searchsorted(ranges, np.abs(diff) - gamma, side="left")
    p = (resamples - idx) / resamples
    eye = np.eye(k, dtype=bool)
    nan = np.full((k, k), np.nan)
    return TukeyHSDResult(
        systems=systems,
        mean_difference=np.where(eye, np.nan, diff),
        pvalue=np.where(eye, np.nan, p),
        ci_low=nan,
        ci_high=nan.copy(),
        confidence=math.nan,
        resamples=resamples,
    )


def adjust_pvalues(pvalues, *, method: Adjustment = "holm") -> np.ndarray:
    r"""Adjust a family of :math:`m` p-values for multiple comparisons.

    Bonferroni: :math:`\tilde{p}_i = \min(1, m\,p_i)`.
    Holm (1979), step-down: with :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math::

        \tilde{p}_{(i)} = \max_{j \le i} \min\left(1, (m - j + 1)\, p_{(j)}\right)

    ``method='none'`` returns the p-values unchanged. NaNs are left out of the family
    and stay NaN.

    Parameters
    ----------
    pvalues : array_like
        The family, any shape; values in [0, 1] or NaN.
    method : {'holm', 'bonferroni', 'none'}
        The adjustment.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the shape and order given.

    References
    ----------
    S. Holm (1979), see the module.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="holm").round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    if method not in ADJUSTMENTS:
        raise ValueError(f"unknown adjustment {method!r}; choose 'holm', 'bonferroni' or 'none'")
    p = np.asarray(pvalues, dtype=float)
    out = p.copy()
    ok = ~np.isnan(p)
    q = p[ok]
    if np.any((q < 0) | (q > 1)):
        raise ValueError("p-values must be in [0, 1]")
    m = q.size
    if method == "none":
        return out
    if method == "bonferroni":
        out[ok] = np.minimum(1.0, q * m)
        return out
    order = np.argsort(q, kind="stable")  # Holm
    stepped = np.minimum(1.0, (m - np.arange(m)) * q[order])
    adj = np.empty(m)
    adj[order] = np.maximum.accumulate(stepped)
    out[ok] = adj
    return out
