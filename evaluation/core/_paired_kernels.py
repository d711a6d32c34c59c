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
about 4 M numbers, and pairs are processed in blocks whose resamples × pairs array of
null means lives in one buffer of :data:`RESAMPLED_BYTES`, reused from block to block and
computed in place (centred, counted, and partitioned for the percentiles), so the kernel
neither allocates nor zeroes fresh pages per block. A block regenerates the same
resamples from the same per-chunk seeds, so results do not depend on the blocking.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import stats
from threadpoolctl import ThreadpoolController

RESAMPLING_TESTS = ("bootstrap", "permutation")
"""The tests that draw resamples (and so take ``resamples`` and ``seed``)."""

_CHUNK_NUMBERS = 1 << 22  # random numbers drawn per chunk (32 MiB as float64)
_NULL_BYTES = 256 << 20  # the blocks of pairs whose matrix products fix the numbers
_ROW_ALIGN = 64  # sub-blocks of whole multiples of this many rows: BLAS sums as in a block
_DRAWS_BYTES = 96 << 20  # the resamples drawn are kept for every sub-block up to this size

RESAMPLED_BYTES = 64 << 20
"""Memory budget of the resampling tests' working arrays: one (pairs × resamples) buffer
of resampled means (float64) and its mask (one byte each), allocated once per call and
reused for every block of pairs, all computed in place; the resamples drawn (about
resamples × queries × 8 bytes, kept up to 96 MiB, else drawn again per block) come on top.
The limits of a recompute state it (:mod:`evaluation.services.limits`)."""


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
    """Yield ``(pair_slice, null)`` with ``null`` the (rows × resamples) resampled means.

    ``null`` is a view of one buffer that every block reuses (:data:`RESAMPLED_BYTES`), so
    the caller may change it in place until it asks for the next block. The matrix
    products keep the blocks of :data:`_NULL_BYTES` that fixed the numbers before, cut
    into sub-blocks of whole multiples of :data:`_ROW_ALIGN` rows: BLAS then sums every
    mean as in one product of the whole block, bit for bit. The products run on one BLAS
    thread (:func:`_one_blas_thread`): on several, BLAS splits a product among them at
    rows that depend on its shape and on the machine's cores, and with some CPUs' kernels
    (OpenBLAS's Haswell ones, on 2 threads: 1,154 to 1,313 of 178 × 1,000 means) the
    means of the rows around a split change in the last bit, so the same seed would give
    other interval bounds on another machine.
    """
    m, n = D.shape
    chunks = _chunks(n, resamples, seed)
    block = max(1, min(m, _NULL_BYTES // (8 * resamples)))
    rows = max(1, min(block, RESAMPLED_BYTES // (9 * resamples)))  # the means and a mask
    if rows < block:
        rows = max(_ROW_ALIGN, rows // _ROW_ALIGN * _ROW_ALIGN)
    buffer = np.empty((rows, resamples))
    kept = resamples * n * 8 <= _DRAWS_BYTES  # draw each chunk once, else once a sub-block
    for b0 in range(0, m, block):
        b1 = min(b0 + block, m)
        Db = D[b0:b1] / n
        draws = (
            [_draw(kind, np.random.default_rng(c), z - a, n) for a, z, c in chunks]
            if kept
            else None
        )
        for c0 in range(0, b1 - b0, rows):
            c1 = min(c0 + rows, b1 - b0)
            null = buffer[: c1 - c0]
            with _one_blas_thread():  # once a sub-block, not once a chunk
                for i, (a, z, child) in enumerate(chunks):
                    w = draws[i] if kept else _draw(kind, np.random.default_rng(child), z - a, n)
                    np.matmul(Db[c0:c1], w.T, out=null[:, a:z])
            if kind == "permutation":
                null *= 2.0
                null -= Db[c0:c1].sum(axis=1)[:, None]
            yield slice(b0 + c0, b0 + c1), null


def _one_blas_thread():
    """A context in which BLAS (numpy's OpenBLAS) runs on the calling thread only.

    The resampled means are then the same bits on every machine, whatever its cores,
    and cost less CPU time (on 2 cores, 11.8 against 15.2 s for a recompute of 180
    systems: OpenBLAS's second thread waits busily). The setting is process-wide while
    the product runs: the resampling tests run in Celery's (single-threaded) worker
    processes and the command line, never in a web server's threads.
    """
    return _blas_controller().limit(limits=1, user_api="blas")


@functools.cache
def _blas_controller() -> ThreadpoolController:
    return ThreadpoolController()  # finds the loaded BLAS once (about 2 ms)


def _tolerance(D: np.ndarray) -> np.ndarray:
    # Floating-point slack so that a resample equal to the data counts as "as extreme"
    # although the matrix product sums in another order (cf. scipy.stats.permutation_test).
    return 1e-10 * (np.abs(D).mean(axis=1) + 1e-300)


def _percentile_interval(null, *, alternative, confidence):
    """The bootstrap percentile interval of each row; partitions ``null`` in place."""
    rows = null.shape[0]
    if alternative == "two-sided":
        low, high = row_quantiles(null, [(1 - confidence) / 2, 1 - (1 - confidence) / 2])
        return low, high
    if alternative == "greater":
        return row_quantiles(null, [1 - confidence])[0], np.full(rows, np.inf)
    return np.full(rows, -np.inf), row_quantiles(null, [confidence])[0]


def row_quantiles(values: np.ndarray, levels) -> list[np.ndarray]:
    """``np.quantile(values, levels, axis=1)`` (its default, linear method), bit for bit.

    ``values`` (rows × n, no NaN, each row contiguous) is partitioned in place, one order
    statistic at a time on what is left of each row: a partition with one ``kth`` is about
    four times faster than numpy's, which selects all of its ``kth`` together. An order
    statistic just after the last one placed (the 251st after the 250th, for a 95 %
    interval of 10,000 resamples) is the smallest of what is left, read by a ``min``
    (about a quarter of the time of a partition); the row is then left as it is.
    """
    n = values.shape[1]
    virtual = (n - 1) * np.asarray(levels, dtype=np.float64)  # numpy's virtual indexes
    previous = np.floor(virtual)
    nxt = previous + 1
    top = virtual >= n - 1
    previous[top], nxt[top] = n - 1, n - 1
    previous, nxt = previous.astype(np.intp), nxt.astype(np.intp)
    start, smallest = 0, {}
    for k in sorted({*previous.tolist(), *nxt.tolist()}):
        if k == start and k > 0:  # the smallest of what is left (k = 0: the partition's)
            smallest[k] = values[:, start:].min(axis=1)
            continue  # the next partition still covers it: start stays
        values[:, start:].partition(k - start, axis=1)
        start = k + 1

    def at(k):
        return smallest[k] if k in smallest else values[:, k]

    out = []
    for v, a, b in zip(virtual, previous, nxt, strict=True):
        gamma = v - (-1 if v >= n - 1 else a)  # as numpy: the top's index is -1 there
        low, high = at(a), at(b)
        diff = high - low  # numpy's _lerp
        result = low + diff * gamma
        if gamma >= 0.5:
            result = high - diff * (1 - gamma)
        out.append(result)
    return out


def _count(null, threshold, compare, mask) -> np.ndarray:
    """How many entries of each row ``compare`` (``np.greater_equal``…) ``threshold``."""
    compare(null, threshold, out=mask[: null.shape[0]])
    return np.count_nonzero(mask[: null.shape[0]], axis=1)


def _kernel_resampling(D, *, kind, alternative, confidence, resamples, seed):
    observed = D.mean(axis=1)
    gamma = _tolerance(D)
    p = np.empty(D.shape[0])
    lo = np.empty(D.shape[0])
    hi = np.empty(D.shape[0])
    mask = None
    for sl, null in _null_means(kind, D, resamples, seed):
        if mask is None:
            mask = np.empty(null.shape, dtype=bool)
        obs = observed[sl][:, None]
        g = gamma[sl][:, None]
        if kind == "bootstrap":
            # shifted means \bar{B}_i - \bar{B}, \bar{B} the mean of the bootstrap means;
            # the percentile interval first, since it reorders each row (counts do not care)
            centre = null.mean(axis=1, keepdims=True)
            lo[sl], hi[sl] = _percentile_interval(
                null, alternative=alternative, confidence=confidence
            )
            null -= centre
        if alternative == "two-sided":
            thr = np.abs(obs) - g
            hits = _count(null, thr, np.greater_equal, mask)
            np.negative(thr, out=thr)
            hits += _count(null, thr, np.less_equal, mask)
            # |dev| >= thr holds once, not twice, for every resample when thr <= 0
            hits = np.where(thr[:, 0] >= 0, resamples, hits)
        elif alternative == "greater":
            hits = _count(null, obs - g, np.greater_equal, mask)
        else:
            hits = _count(null, obs + g, np.less_equal, mask)
        p[sl] = hits / resamples
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
