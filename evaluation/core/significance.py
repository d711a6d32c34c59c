"""Paired significance tests on per-query scores, for one pair or all pairs of systems.

Five tests of Urbano (2013, §5.1.2), after Smucker et al. (2007): the paired t-test
(eq. 5.1), the Wilcoxon signed-rank test (eq. 5.2), the sign test (eq. 5.3), the
bootstrap test with the shift method (eq. 5.4) and the permutation (randomisation)
test by random sign flips (eq. 5.5).

All pairs at once
-----------------
:func:`all_pairs` runs a test on every pair of systems of a systems × queries matrix.
The resampling tests are vectorised: for each chunk of resamples one matrix is drawn
(sign flips, or bootstrap counts of how often each query was drawn) and applied to the
difference vectors of *all* pairs with one matrix product, so every pair sees the same
resamples and the cost is a BLAS ``gemm``. Memory is bounded: resamples are drawn in
chunks of about 4 M numbers, and pairs are processed in blocks so that the
resamples × pairs array of null means stays under 256 MiB (a block regenerates the same
resamples from the same per-chunk seeds, so results do not depend on the blocking).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*. PhD thesis, Universidad
Carlos III de Madrid, ch. 5. http://hdl.handle.net/10016/18041

M. D. Smucker, J. Allan, B. Carterette (2007). A comparison of statistical significance
tests for information retrieval evaluation. CIKM. https://doi.org/10.1145/1321440.1321528
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from evaluation.core.scores import ScoreMatrix

__all__ = [
    "TESTS",
    "PairedTestResult",
    "PairwiseComparison",
    "all_pairs",
    "bootstrap_test",
    "paired_t_test",
    "permutation_test",
    "sign_test",
    "wilcoxon_test",
]

Alternative = Literal["two-sided", "less", "greater"]
TESTS = ("t", "wilcoxon", "sign", "bootstrap", "permutation")
RESAMPLING_TESTS = ("bootstrap", "permutation")

_CHUNK_NUMBERS = 1 << 22  # random numbers drawn per chunk (32 MiB as float64)
_NULL_BYTES = 256 << 20  # bound on the resamples × pairs array of null means


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of one paired test of system A against system B (Δ = A − B).

    ``statistic`` is the test's own statistic (t; Wilcoxon's W = min(W+, W−) two-sided
    or W+ one-sided, as scipy reports it; the sign test's S = #{Δ > 0}; the observed
    mean difference for the resampling tests). ``ci_low``/``ci_high`` bound the mean
    difference at ``confidence``: t-based (eq. 4.6) except for the bootstrap test,
    whose interval is the percentile interval of the bootstrap means (``ci_method``);
    one-sided alternatives give one-sided intervals, as in scipy. ``effect_size`` is
    the standardised mean difference :math:`d_z = \\overline{\\Delta} / sd_\\Delta`.
    """

    test: str
    alternative: str
    statistic: float
    pvalue: float
    mean_difference: float
    ci_low: float
    ci_high: float
    ci_method: str
    confidence: float
    effect_size: float
    n: int
    resamples: int | None = None


@dataclass(frozen=True, eq=False)
class PairwiseComparison:
    """One test on all pairs of systems; ``[i, j]`` entries compare ``systems[i] − systems[j]``.

    Matrices are ``k × k`` with NaN on the diagonal. For a two-sided test ``pvalue`` is
    symmetric; for a one-sided test ``pvalue[i, j]`` tests the alternative on
    ``systems[i] − systems[j]``.
    """

    systems: tuple[str, ...]
    test: str
    alternative: str
    confidence: float
    resamples: int | None
    n: int
    mean_difference: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    effect_size: np.ndarray

    def result(self, a: str | int, b: str | int) -> PairedTestResult:
        """The result of ``a`` against ``b``, by name or index."""
        i = a if isinstance(a, int) else self.systems.index(a)
        j = b if isinstance(b, int) else self.systems.index(b)
        if i == j:
            raise ValueError("a system is not compared with itself")
        return PairedTestResult(
            test=self.test,
            alternative=self.alternative,
            statistic=float(self.statistic[i, j]),
            pvalue=float(self.pvalue[i, j]),
            mean_difference=float(self.mean_difference[i, j]),
            ci_low=float(self.ci_low[i, j]),
            ci_high=float(self.ci_high[i, j]),
            ci_method="bootstrap-percentile" if self.test == "bootstrap" else "t",
            confidence=self.confidence,
            effect_size=float(self.effect_size[i, j]),
            n=self.n,
            resamples=self.resamples,
        )

    def pairs(self) -> list[tuple[str, str, PairedTestResult]]:
        """Every unordered pair ``(a, b)`` with ``a`` before ``b`` in ``systems``."""
        k = len(self.systems)
        return [
            (self.systems[i], self.systems[j], self.result(i, j))
            for i in range(k)
            for j in range(i + 1, k)
        ]

    def adjusted_pvalues(self, method: str = "holm") -> np.ndarray:
        """p-values adjusted for the family of the k(k−1)/2 unordered pairs.

        For one-sided tests the family is the k(k−1) ordered pairs. See
        :func:`evaluation.core.multiple.adjust_pvalues`.
        """
        from evaluation.core.multiple import adjust_pvalues

        k = len(self.systems)
        out = np.full((k, k), np.nan)
        if self.alternative == "two-sided":
            iu = np.triu_indices(k, 1)
            adj = adjust_pvalues(self.pvalue[iu], method=method)
            out[iu] = adj
            out[iu[1], iu[0]] = adj
        else:
            off = ~np.eye(k, dtype=bool)
            out[off] = adjust_pvalues(self.pvalue[off], method=method)
        return out


# --------------------------------------------------------------------------- helpers


def _check_alternative(alternative: str) -> None:
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(
            f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}"
        )


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def _paired(x, y) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"expected two 1-d samples of equal length, got {x.shape} and {y.shape}")
    if x.size < 2:
        raise ValueError("a paired test needs at least 2 queries")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("scores contain NaN or infinite values")
    return (x - y)[None, :]


def _seed_sequence(seed) -> np.random.SeedSequence:
    """``seed`` may be None, an int, a SeedSequence or a Generator (which is advanced)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    return np.random.SeedSequence(seed)


def _t_ci(D: np.ndarray, alternative: str, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    n = D.shape[1]
    mean = D.mean(axis=1)
    se = D.std(axis=1, ddof=1) / math.sqrt(n)
    if alternative == "two-sided":
        t = stats.t.ppf(1 - (1 - confidence) / 2, n - 1)
        return mean - t * se, mean + t * se
    t = stats.t.ppf(confidence, n - 1)
    if alternative == "greater":
        return mean - t * se, np.full_like(mean, np.inf)
    return np.full_like(mean, -np.inf), mean + t * se


def _effect_size(D: np.ndarray) -> np.ndarray:
    mean = D.mean(axis=1)
    sd = D.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = mean / sd
    return np.where(mean == 0, 0.0, d)


# --------------------------------------------------------------------------- kernels
# Each kernel takes D, an (m pairs × n queries) matrix of differences, and returns
# (statistic, pvalue, ci_low, ci_high) as arrays of length m.


def _kernel_t(D, alternative, confidence, **_):
    n = D.shape[1]
    mean = D.mean(axis=1)
    sd = D.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / math.sqrt(n))
    t = np.where(mean == 0, 0.0, t)  # identical systems: t = 0, p = 1
    if alternative == "two-sided":
        p = 2 * stats.t.sf(np.abs(t), n - 1)
    elif alternative == "greater":
        p = stats.t.sf(t, n - 1)
    else:
        p = stats.t.cdf(t, n - 1)
    return (t, np.clip(p, 0, 1), *_t_ci(D, alternative, confidence))


def _kernel_sign(D, alternative, confidence, **_):
    s = (D > 0).sum(axis=1)
    nz = (D != 0).sum(axis=1)
    lower = stats.binom.cdf(s, nz, 0.5)  # P(S <= s)
    upper = stats.binom.sf(s - 1, nz, 0.5)  # P(S >= s)
    if alternative == "two-sided":
        p = np.minimum(1.0, 2 * np.minimum(lower, upper))
    elif alternative == "greater":
        p = upper
    else:
        p = lower
    p = np.where(nz == 0, 1.0, p)
    return (s.astype(float), p, *_t_ci(D, alternative, confidence))


def _kernel_wilcoxon(D, alternative, confidence, **_):
    stat = np.empty(D.shape[0])
    p = np.empty(D.shape[0])
    for r, d in enumerate(D):
        if not np.any(d != 0):
            stat[r], p[r] = 0.0, 1.0
            continue
        res = stats.wilcoxon(d, zero_method="wilcox", alternative=alternative)
        stat[r], p[r] = res.statistic, res.pvalue
    return (stat, p, *_t_ci(D, alternative, confidence))


def _chunks(n_queries: int, resamples: int, seed: np.random.SeedSequence):
    """Deterministic chunks ``(start, stop, seed)`` of the resamples (depend on n only)."""
    size = max(1, min(resamples, _CHUNK_NUMBERS // max(1, n_queries)))
    starts = range(0, resamples, size)
    children = seed.spawn(len(starts))
    return [(a, min(a + size, resamples), child) for a, child in zip(starts, children, strict=True)]


def _draw(kind: str, rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """One chunk of resamples as a (rows × n) float matrix ``W``; null mean = ``W @ d / n``.

    Permutation: W = b, uniform random bits; the sign flips are 2·b − 1 (eq. 5.5), and
    the caller computes (2·b − 1)·d/n = 2·(b·d/n) − Σd/n without forming them.
    Bootstrap: W[t, j] = how many times query j is drawn in resample t (eq. 5.4).
    """
    if kind == "permutation":
        # Only the bits b are materialised; the caller turns b·d into (2b − 1)·d.
        packed = rng.integers(0, 256, size=(rows, (n + 7) // 8), dtype=np.uint8)
        return np.unpackbits(packed, axis=1, count=n).astype(np.float64)
    idx = rng.integers(0, n, size=(rows, n), dtype=np.int64)
    idx += (np.arange(rows, dtype=np.int64) * n)[:, None]
    counts = np.bincount(idx.ravel(), minlength=rows * n)
    return counts.reshape(rows, n).astype(np.float64)


def _null_means(kind: str, D: np.ndarray, resamples: int, seed: np.random.SeedSequence):
    """Yield ``(pair_slice, null)`` with ``null`` the (block × resamples) resampled means."""
    m, n = D.shape
    chunks = _chunks(n, resamples, seed)
    block = max(1, min(m, _NULL_BYTES // (8 * resamples)))
    for b0 in range(0, m, block):
        b1 = min(b0 + block, m)
        Db = D[b0:b1] / n
        null = np.empty((b1 - b0, resamples))  # pairs as rows: reductions run along rows
        for a, z, child in chunks:
            w = _draw(kind, np.random.default_rng(child), z - a, n)
            null[:, a:z] = Db @ w.T
        if kind == "permutation":
            null *= 2.0
            null -= Db.sum(axis=1)[:, None]
        yield slice(b0, b1), null


def _tolerance(D: np.ndarray) -> np.ndarray:
    # Floating-point slack so that a resample equal to the data counts as "as extreme"
    # although the matrix product sums in another order (cf. scipy.stats.permutation_test).
    return 1e-10 * (np.abs(D).mean(axis=1) + 1e-300)


def _kernel_resampling(D, alternative, confidence, *, kind, resamples, seed):
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    observed = D.mean(axis=1)
    gamma = _tolerance(D)
    p = np.empty(D.shape[0])
    lo = np.empty(D.shape[0])
    hi = np.empty(D.shape[0])
    for sl, null in _null_means(kind, D, resamples, seed):
        obs = observed[sl][:, None]
        g = gamma[sl][:, None]
        # bootstrap: shifted means \bar{B}_i - \bar{B}, \bar{B} the mean of the bootstrap means
        dev = null - null.mean(axis=1, keepdims=True) if kind == "bootstrap" else null
        if alternative == "two-sided":
            thr = np.abs(obs) - g
            hits = np.count_nonzero(dev >= thr, axis=1) + np.count_nonzero(dev <= -thr, axis=1)
            # |dev| >= thr holds once, not twice, for every resample when thr <= 0
            hits = np.where(thr[:, 0] <= 0, resamples, hits)
        elif alternative == "greater":
            hits = np.count_nonzero(dev >= obs - g, axis=1)
        else:
            hits = np.count_nonzero(dev <= obs + g, axis=1)
        p[sl] = hits / resamples
        del dev
        if kind == "bootstrap":  # percentile interval of the bootstrap means
            if alternative == "two-sided":
                levels = [(1 - confidence) / 2, 1 - (1 - confidence) / 2]
                q = np.quantile(null, levels, axis=1, overwrite_input=True)
                lo[sl], hi[sl] = q[0], q[1]
            elif alternative == "greater":
                lo[sl] = np.quantile(null, 1 - confidence, axis=1, overwrite_input=True)
                hi[sl] = np.inf
            else:
                lo[sl] = -np.inf
                hi[sl] = np.quantile(null, confidence, axis=1, overwrite_input=True)
    # Identical systems: every resample is "as extreme", p = 1 by the formulas above.
    if kind != "bootstrap":
        lo, hi = _t_ci(D, alternative, confidence)
    return observed, p, lo, hi


_KERNELS = {
    "t": _kernel_t,
    "wilcoxon": _kernel_wilcoxon,
    "sign": _kernel_sign,
    "bootstrap": lambda D, a, c, **kw: _kernel_resampling(D, a, c, kind="bootstrap", **kw),
    "permutation": lambda D, a, c, **kw: _kernel_resampling(D, a, c, kind="permutation", **kw),
}


def _run(test, D, alternative, confidence, resamples, seed):
    if test not in _KERNELS:
        raise ValueError(f"unknown test {test!r}; choose one of {', '.join(TESTS)}")
    _check_alternative(alternative)
    _check_confidence(confidence)
    if test in RESAMPLING_TESTS:
        return _KERNELS[test](
            D, alternative, confidence, resamples=resamples, seed=_seed_sequence(seed)
        )
    return _KERNELS[test](D, alternative, confidence)


def _single(test, x, y, alternative, confidence, resamples, seed) -> PairedTestResult:
    D = _paired(x, y)
    stat, p, lo, hi = _run(test, D, alternative, confidence, resamples, seed)
    return PairedTestResult(
        test=test,
        alternative=alternative,
        statistic=float(stat[0]),
        pvalue=float(p[0]),
        mean_difference=float(D.mean()),
        ci_low=float(lo[0]),
        ci_high=float(hi[0]),
        ci_method="bootstrap-percentile" if test == "bootstrap" else "t",
        confidence=confidence,
        effect_size=float(_effect_size(D)[0]),
        n=D.shape[1],
        resamples=resamples if test in RESAMPLING_TESTS else None,
    )


# --------------------------------------------------------------------------- public


def paired_t_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Paired t-test of the mean difference ``x - y`` (Student 1908; thesis eq. 5.1).

    .. math::

        t = \frac{\overline{\Delta\lambda}_Q}{sd_Q / \sqrt{n_Q}}
        \qquad\text{(Urbano 2013, eq. 5.1)}

    with :math:`n_Q - 1` degrees of freedom; :math:`H_0: \mu_{\Delta\lambda} = 0`.

    Parameters
    ----------
    x, y : array_like, 1-d
        Scores of systems A and B on the same queries, in the same order.
    alternative : {'two-sided', 'less', 'greater'}
        'greater' tests :math:`H_1: \mu_{\Delta\lambda} > 0` (A better than B).
    confidence : float
        Level of the interval of the mean difference.

    Examples
    --------
    >>> r = paired_t_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.4, 0.6, 0.4])
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.4495, 0.0917)
    """
    return _single("t", x, y, alternative, confidence, None, None)


def wilcoxon_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Wilcoxon signed-rank test on the differences ``x - y`` (thesis eq. 5.2).

    Zero differences are dropped before ranking (``zero_method='wilcox'``), as in
    the thesis. Two-sided, the statistic is

    .. math::

        W = \min\left(W^+, W^-\right) \qquad\text{(Urbano 2013, eq. 5.2)}

    Computed by :func:`scipy.stats.wilcoxon` (exact distribution for up to 50 non-zero
    differences without ties, normal approximation otherwise). The interval is the
    t-based interval of the mean difference.
    """
    return _single("wilcoxon", x, y, alternative, confidence, None, None)


def sign_test(
    x, y, *, alternative: Alternative = "two-sided", confidence: float = 0.95
) -> PairedTestResult:
    r"""Sign test: the number of queries where A beats B (thesis eq. 5.3).

    .. math::

        S = \sum_{q \in Q} \mathbb{1}(\Delta\lambda_q > 0)
        \sim \mathrm{Binomial}\left(\textstyle\sum_q \mathbb{1}(\Delta\lambda_q \neq 0),\ 0.5\right)
        \qquad\text{(eq. 5.3)}

    Ties are dropped; only signs matter, never magnitudes. Two-sided
    :math:`p = \min(1, 2\min(P(S' \le S), P(S' \ge S)))`, which equals
    :func:`scipy.stats.binomtest` for probability 0.5.
    """
    return _single("sign", x, y, alternative, confidence, None, None)


def bootstrap_test(
    x,
    y,
    *,
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed=None,
    confidence: float = 0.95,
) -> PairedTestResult:
    r"""Bootstrap test with the shift method (Efron and Tibshirani 1998; thesis eq. 5.4).

    :math:`T` samples :math:`B_i` of :math:`n_Q` differences are drawn with
    replacement; with :math:`\overline{B}` the mean of their means,

    .. math::

        p = \frac{1}{T}\sum_{i=1}^{T}
            \mathbb{1}\left(\left|\overline{B_i} - \overline{B}\right|
                            \ge \left|\overline{\Delta\lambda}_Q\right|\right)
        \qquad\text{(Urbano 2013, eq. 5.4)}

    One-sided: 'greater' counts :math:`\overline{B_i} - \overline{B} \ge
    \overline{\Delta\lambda}_Q`, 'less' counts :math:`\le`. The interval is the
    percentile interval of the :math:`\overline{B_i}`. ``seed`` (int, SeedSequence or
    Generator) makes the result reproducible.
    """
    return _single("bootstrap", x, y, alternative, confidence, resamples, seed)


def permutation_test(
    x,
    y,
    *,
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed=None,
    confidence: float = 0.95,
) -> PairedTestResult:
    r"""Permutation (randomisation) test by random sign flips (Good 2005; thesis eq. 5.5).

    Under :math:`H_0` the systems are interchangeable, so each :math:`\Delta\lambda_q`
    keeps or flips its sign with probability 1/2. With :math:`\overline{P_i}` the mean
    of the :math:`i`-th of :math:`T` sign-flipped samples,

    .. math::

        p = \frac{1}{T}\sum_{i=1}^{T}
            \mathbb{1}\left(\left|\overline{P_i}\right|
                            \ge \left|\overline{\Delta\lambda}_Q\right|\right)
        \qquad\text{(Urbano 2013, eq. 5.5)}

    As in the thesis (and ranx) the count is divided by :math:`T`, so p can be 0; the
    report strings then print ``p<1/T``. The interval is the t-based interval of the
    mean difference.
    """
    return _single("permutation", x, y, alternative, confidence, resamples, seed)


def _matrix(scores) -> tuple[tuple[str, ...], np.ndarray]:
    if isinstance(scores, ScoreMatrix):
        return scores.systems, np.asarray(scores.scores, dtype=float)
    a = np.asarray(scores, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"expected a systems × queries matrix, got shape {a.shape}")
    return tuple(str(i) for i in range(a.shape[0])), a


def all_pairs(
    scores,
    *,
    test: str = "t",
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed=None,
    confidence: float = 0.95,
) -> PairwiseComparison:
    """Run one paired test on every pair of systems at once.

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        Per-query scores; a plain array gets systems named ``'0'``, ``'1'``, …
    test : {'t', 'wilcoxon', 'sign', 'bootstrap', 'permutation'}
        See :func:`paired_t_test`, :func:`wilcoxon_test`, :func:`sign_test`,
        :func:`bootstrap_test` and :func:`permutation_test`.
    alternative, resamples, seed, confidence
        As in the single-pair functions. The resampling tests draw one set of
        ``resamples`` for all pairs (the pairs' p-values are therefore correlated, as
        when each pair is tested with the same seed).

    Returns
    -------
    PairwiseComparison
        ``k × k`` matrices; ``[i, j]`` compares ``systems[i] − systems[j]``.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X = rng.random((4, 30))
    >>> res = all_pairs(X, test="permutation", resamples=2000, seed=7)
    >>> res.pvalue.shape
    (4, 4)
    """
    systems, X = _matrix(scores)
    k, n = X.shape
    if k < 2:
        raise ValueError("all_pairs needs at least 2 systems")
    if n < 2:
        raise ValueError("a paired test needs at least 2 queries")
    if not np.all(np.isfinite(X)):
        raise ValueError("scores contain NaN or infinite values")
    if alternative == "two-sided":
        rows_i, rows_j = np.triu_indices(k, 1)
    else:
        off = ~np.eye(k, dtype=bool)
        rows_i, rows_j = np.nonzero(off)
    D = X[rows_i] - X[rows_j]
    stat, p, lo, hi = _run(test, D, alternative, confidence, resamples, seed)
    eff = _effect_size(D)
    md = D.mean(axis=1)

    def fill(values, mirror):
        out = np.full((k, k), np.nan)
        out[rows_i, rows_j] = values
        if alternative == "two-sided":
            out[rows_j, rows_i] = mirror(values)
        return out

    if test == "sign":
        nz = (D != 0).sum(axis=1)
        stat_m = fill(stat, lambda s: nz - s)  # S of B − A = #{Δ < 0}
    elif test == "wilcoxon":
        stat_m = fill(stat, lambda s: s)  # min(W+, W-) is symmetric
    else:
        stat_m = fill(stat, lambda s: -s)
    if alternative == "two-sided":
        lo_m = fill(lo, lambda v: -hi)
        hi_m = fill(hi, lambda v: -lo)
    else:
        lo_m, hi_m = fill(lo, None), fill(hi, None)
    return PairwiseComparison(
        systems=systems,
        test=test,
        alternative=alternative,
        confidence=confidence,
        resamples=resamples if test in RESAMPLING_TESTS else None,
        n=n,
        mean_difference=fill(md, lambda v: -v),
        statistic=stat_m,
        pvalue=fill(p, lambda v: v),
        ci_low=lo_m,
        ci_high=hi_m,
        effect_size=fill(eff, lambda v: -v),
    )
