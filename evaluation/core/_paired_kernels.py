"""The kernels of the paired tests, vectorised over many pairs at once (private).

Every kernel takes ``D``, an ``(m pairs × n queries)`` matrix of differences, and
returns ``(statistic, pvalue, ci_low, ci_high)`` as arrays of length ``m``. The public
functions of :mod:`evaluation.core.significance` (one pair, ``m = 1``) and
:mod:`evaluation.core.pairwise` (all pairs) validate their inputs and call
:func:`run_kernel`.

The resampling tests draw, for each chunk of resamples, one matrix (sign flips, or
bootstrap counts of how often each query was drawn) and apply it to the difference
vectors of *all* pairs with one matrix product, so every pair sees the same resamples
and the cost is a BLAS ``gemm``. Memory is bounded: resamples are drawn in chunks of
about 4 M numbers, and pairs are processed in blocks so that the resamples × pairs
array of null means stays under 256 MiB (a block regenerates the same resamples from
the same per-chunk seeds, so results do not depend on the blocking).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

RESAMPLING_TESTS = ("bootstrap", "permutation")
"""The tests that draw resamples (and so take ``resamples`` and ``seed``)."""

_CHUNK_NUMBERS = 1 << 22  # random numbers drawn per chunk (32 MiB as float64)
_NULL_BYTES = 256 << 20  # bound on the resamples × pairs array of null means


def t_interval(D: np.ndarray, *, alternative: str, confidence: float):
    """The t-based interval of each row's mean difference (thesis eq. 4.6)."""
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


def effect_size(D: np.ndarray) -> np.ndarray:
    """The standardised mean difference :math:`d_z` of each row (0 for identical systems)."""
    mean = D.mean(axis=1)
    sd = D.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = mean / sd
    return np.where(mean == 0, 0.0, d)


def _kernel_t(D, *, alternative, confidence):
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
    return (t, np.clip(p, 0, 1), *t_interval(D, alternative=alternative, confidence=confidence))


def _kernel_sign(D, *, alternative, confidence):
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
    return (s.astype(float), p, *t_interval(D, alternative=alternative, confidence=confidence))


def _kernel_wilcoxon(D, *, alternative, confidence):
    stat = np.empty(D.shape[0])
    p = np.empty(D.shape[0])
    for r, d in enumerate(D):
        if not np.any(d != 0):
            stat[r], p[r] = 0.0, 1.0
            continue
        res = stats.wilcoxon(d, zero_method="wilcox", alternative=alternative)
        stat[r], p[r] = res.statistic, res.pvalue
    return (stat, p, *t_interval(D, alternative=alternative, confidence=confidence))


def _chunks(n_queries: int, resamples: int, seed: np.random.SeedSequence):
    """Deterministic chunks ``(start, stop, seed)`` of the resamples (depend on n only)."""
    size = max(1, min(resamples, _CHUNK_NUMBERS // max(1, n_queries)))
    starts = range(0, resamples, size)
    # Spawned from a copy, so that ``seed`` is left as it was: every block of pairs that
    # a caller passes with the same seed sees the same resamples (pairwise.all_pairs).
    copy = np.random.SeedSequence(
        seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
        n_children_spawned=seed.n_children_spawned,
    )  # fmt: skip
    children = copy.spawn(len(starts))
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


def _kernel_resampling(D, *, kind, alternative, confidence, resamples, seed):
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
        lo, hi = t_interval(D, alternative=alternative, confidence=confidence)
    return observed, p, lo, hi


_KERNELS = {"t": _kernel_t, "wilcoxon": _kernel_wilcoxon, "sign": _kernel_sign}


def run_kernel(
    D: np.ndarray,
    *,
    test: str,
    alternative: str,
    confidence: float,
    resamples: int,
    seed: np.random.SeedSequence,
):
    """``(statistic, pvalue, ci_low, ci_high)`` of ``test`` on every row of ``D``.

    The arguments are already validated; ``resamples`` and ``seed`` are used by the
    resampling tests only.
    """
    if test in RESAMPLING_TESTS:
        return _kernel_resampling(
            D, kind=test, alternative=alternative, confidence=confidence,
            resamples=resamples, seed=seed,
        )  # fmt: skip
    return _KERNELS[test](D, alternative=alternative, confidence=confidence)
