"""What a split-half optimality study (:mod:`evaluation.core.optimality`, thesis §5.3)
will compute, known from counts alone before it starts, so that it can be refused over a
limit as the results' limits refuse work (:mod:`evaluation.services.limits`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.core._paired_kernels import RESAMPLING_TESTS

__all__ = ["OptimalityCost", "optimality_cost"]


@dataclass(frozen=True)
class OptimalityCost:
    """What a split-half study will compute, known before it starts."""

    trials: int
    half: int
    pairs: int
    measures: int
    tests: int
    resamples: int
    resampling_tests: int

    @property
    def pvalues(self) -> int:
        """Every test on every pair, measure and half of every trial."""
        return self.trials * 2 * self.pairs * self.measures * self.tests

    @property
    def resampled(self) -> int:
        """Resampled differences the bootstrap and permutation tests draw (pairs × queries ×
        resamples, for each measure, half and trial), as the results' limits count them."""
        return (
            self.trials * 2 * self.pairs * self.measures * self.half * self.resamples
            * self.resampling_tests
        )  # fmt: skip

    @property
    def units(self) -> int:
        """Numbers computed, for the queue (as :mod:`evaluation.services.limits` counts)."""
        return self.pvalues * self.half + self.resampled

    @property
    def statement(self) -> str:
        text = (
            f"{self.trials:,} splits × 2 halves of {self.half:,} queries × {self.pairs:,} pairs × "
            f"{self.measures} measures × {self.tests} tests = {self.pvalues:,} p-values"
        )
        if self.resampling_tests:
            text += f", {self.resampled:,} resampled differences ({self.resamples:,} resamples)"
        return text


def optimality_cost(
    *, n_systems: int, n_queries: int, n_measures: int, tests: Sequence[str], trials: int,
    resamples: int,
) -> OptimalityCost:  # fmt: skip
    """The cost of :func:`split_half_optimality` from counts alone (to refuse before work).

    >>> from evaluation.core.significance import TESTS
    >>> c = optimality_cost(n_systems=18, n_queries=100, n_measures=14, tests=TESTS,
    ...                     trials=300, resamples=1000)
    >>> c.pvalues, c.resampled
    (6426000, 128520000000)
    """
    return OptimalityCost(
        trials=trials,
        half=n_queries // 2,
        pairs=n_systems * (n_systems - 1) // 2,
        measures=n_measures,
        tests=len(tests),
        resamples=resamples,
        resampling_tests=sum(t in RESAMPLING_TESTS for t in tests),
    )
