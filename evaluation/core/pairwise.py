"""One paired test on every pair of systems at once, and what follows from it.

:func:`all_pairs` runs a test of :mod:`evaluation.core.significance` on every pair of
systems of a systems × queries matrix, vectorised (see
:mod:`evaluation.core._paired_kernels`). The :class:`PairwiseComparison` it returns
gives each pair's result, the p-values adjusted for the family of pairs
(:func:`evaluation.core.multiple.adjust_pvalues`), and the compact letter display of
which systems are not significantly different (:meth:`PairwiseComparison.letters`).

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*. PhD thesis, Universidad
Carlos III de Madrid, ch. 5. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evaluation.core import _validation as iv
from evaluation.core._paired_kernels import RESAMPLING_TESTS, effect_size, run_kernel
from evaluation.core._validation import Alternative, Seed
from evaluation.core.letters import compact_letters, significant_pairs
from evaluation.core.multiple import Adjustment, adjust_pvalues
from evaluation.core.significance import PairedTestResult, TestName, ci_method, test_iv

__all__ = ["PairwiseComparison", "all_pairs"]

PAIR_BLOCK_BYTES = 64 << 20
"""Bound on the differences of one block of pairs (pairs × queries, float64) that
:func:`all_pairs` holds at a time; the resampling kernels bound their resamples × pairs
array of null means separately (:mod:`evaluation.core._paired_kernels`), so memory never
grows as pairs × resamples. The results do not depend on the blocking."""


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
            ci_method=ci_method(self.test),
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

    def adjusted_pvalues(self, method: Adjustment = "holm") -> np.ndarray:
        """p-values adjusted for the family of the k(k−1)/2 unordered pairs.

        For one-sided tests the family is the k(k−1) ordered pairs.

        Parameters
        ----------
        method : {'holm', 'bonferroni', 'none'}
            See :func:`evaluation.core.multiple.adjust_pvalues`.

        Returns
        -------
        numpy.ndarray
            ``k × k``, NaN on the diagonal, like :attr:`pvalue`.
        """
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

    def letters(self, *, alpha: float = 0.05, adjustment: Adjustment = "holm") -> list[str]:
        """Compact letter display: systems share a letter exactly when not significantly different.

        The adjusted p-values (:meth:`adjusted_pvalues`) below ``alpha`` are the
        significant pairs; a NaN p-value counts as not significant. The letters come
        from Piepho's insert-absorb algorithm
        (:func:`evaluation.core.letters.compact_letters`), named in the order of
        ``systems`` (the best system gets ``a`` when they are ranked best first).

        Parameters
        ----------
        alpha : float
            Significance level, in (0, 1).
        adjustment : {'holm', 'bonferroni', 'none'}
            How the p-values are adjusted first.

        Returns
        -------
        list of str
            One string of letters per system, in the order of ``systems``.

        Examples
        --------
        >>> X = np.array([[0.9, 0.8, 0.9, 0.7], [0.8, 0.8, 0.9, 0.6], [0.1, 0.2, 0.1, 0.2]])
        >>> all_pairs(X, test="t").letters(alpha=0.05, adjustment="none")
        ['a', 'a', 'b']
        """
        significant = significant_pairs(self.adjusted_pvalues(adjustment), alpha=alpha)
        return compact_letters(significant)


def all_pairs(
    scores,
    *,
    test: TestName = "t",
    alternative: Alternative = "two-sided",
    resamples: int = 10_000,
    seed: Seed = None,
    confidence: float = 0.95,
) -> PairwiseComparison:
    """Run one paired test on every pair of systems at once.

    Each pair gets what :func:`evaluation.core.significance.paired_test` gives it
    (thesis eqs. 5.1–5.5), computed for all pairs together.

    Parameters
    ----------
    scores : ScoreMatrix or array_like (systems × queries)
        Per-query scores; a plain array gets systems named ``'0'``, ``'1'``, …
    test : {'t', 'wilcoxon', 'sign', 'bootstrap', 'permutation'}
        See :func:`~evaluation.core.significance.paired_t_test`,
        :func:`~evaluation.core.significance.wilcoxon_test`,
        :func:`~evaluation.core.significance.sign_test`,
        :func:`~evaluation.core.significance.bootstrap_test` and
        :func:`~evaluation.core.significance.permutation_test`.
    alternative : {'two-sided', 'less', 'greater'}
        One-sided alternatives test every ordered pair.
    resamples : int
        Resamples of the bootstrap and permutation tests. One set of resamples is drawn
        for all pairs (the pairs' p-values are therefore correlated, as when each pair
        is tested with the same seed).
    seed : None, int, SeedSequence or Generator
        Makes the resampling tests reproducible.
    confidence : float
        Level of the intervals of the mean differences.

    Returns
    -------
    PairwiseComparison
        ``k × k`` matrices; ``[i, j]`` compares ``systems[i] − systems[j]``.

    References
    ----------
    Urbano (2013), §5.1.2 (the tests) and §5.6.2 (how to report them).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X = rng.random((4, 30))
    >>> res = all_pairs(X, test="permutation", resamples=2000, seed=7)
    >>> res.pvalue.shape
    (4, 4)
    """
    test_iv(test)
    iv.alternative_iv(alternative)
    iv.confidence_iv(confidence)
    systems, X = iv.matrix_iv(scores)
    k, n = X.shape
    if k < 2:
        raise ValueError("all_pairs needs at least 2 systems")
    if n < 2:
        raise ValueError("a paired test needs at least 2 queries")
    resampling = test in RESAMPLING_TESTS
    if resampling:
        iv.resamples_iv(resamples)

    if alternative == "two-sided":
        rows_i, rows_j = np.triu_indices(k, 1)
    else:
        rows_i, rows_j = np.nonzero(~np.eye(k, dtype=bool))
    seq = iv.seed_sequence(seed) if resampling else None
    stat, p, lo, hi, mean, effect, nonzero = (np.empty(len(rows_i)) for _ in range(7))
    block = max(1, PAIR_BLOCK_BYTES // (8 * n))
    for a in range(0, len(rows_i), block):  # a block of pairs at a time (PAIR_BLOCK_BYTES)
        b = slice(a, a + block)
        D = X[rows_i[b]] - X[rows_j[b]]
        stat[b], p[b], lo[b], hi[b] = run_kernel(
            D, test=test, alternative=alternative, confidence=confidence,
            resamples=resamples, seed=seq,
        )  # fmt: skip
        mean[b], effect[b], nonzero[b] = D.mean(axis=1), effect_size(D), (D != 0).sum(axis=1)

    def fill(values, mirror):
        out = np.full((k, k), np.nan)
        out[rows_i, rows_j] = values
        if alternative == "two-sided":
            out[rows_j, rows_i] = mirror(values)
        return out

    if test == "sign":
        stat_m = fill(stat, lambda s: nonzero - s)  # S of B − A = #{Δ < 0}
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
        resamples=resamples if resampling else None,
        n=n,
        mean_difference=fill(mean, lambda v: -v),
        statistic=stat_m,
        pvalue=fill(p, lambda v: v),
        ci_low=lo_m,
        ci_high=hi_m,
        effect_size=fill(effect, lambda v: -v),
    )
