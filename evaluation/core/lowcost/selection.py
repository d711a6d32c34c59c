"""Which judgment next: the unjudged pairs that tell the most (thesis §8.3–8.4).

``target="relative"`` ranks pairs by how many system comparisons they can change
(§8.3, :meth:`.measures.ProbabilisticMeasure.relative_weights`); ``target="absolute"``
by the variance of the scores of the systems that ranked them (§8.4,
:meth:`.measures.ProbabilisticMeasure.absolute_weights`). The highest weight is judged
first; ties go to the pair with the larger Var[R], then to the lower pair number (the
pool's query-then-document order), so the choice is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evaluation.core.lowcost.estimators import RelevanceEstimates
from evaluation.core.lowcost.measures import ExpectedScores, ProbabilisticMeasure
from evaluation.core.lowcost.pool import Pool
from evaluation.core.names import Measure

TARGETS = ("relative", "absolute")


def check_target(target: str) -> str:
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; valid: {', '.join(TARGETS)}")
    return target


@dataclass(frozen=True)
class NextJudgments:
    """Pairs to judge next, best first, with their weights and current estimates."""

    pairs: np.ndarray
    weights: np.ndarray
    expectation: np.ndarray
    variance: np.ndarray
    names: tuple[tuple[str, str], ...]


def judgment_weights(
    measure: ProbabilisticMeasure,
    estimates: RelevanceEstimates,
    *,
    target: str = "relative",
    scores: ExpectedScores | None = None,
) -> np.ndarray:
    """``(n_pairs,)`` weight of judging each pair (0 for judged pairs)."""
    if check_target(target) == "relative":
        weights = measure.relative_weights(estimates)
    else:
        scores = scores if scores is not None else measure.scores(estimates)
        weights = measure.absolute_weights(estimates, scores)
    return np.where(estimates.judged, 0.0, weights)


def best_pairs(weights: np.ndarray, estimates: RelevanceEstimates, n: int) -> np.ndarray:
    """The ``n`` unjudged pairs of highest weight (ties: larger Var[R], lower number)."""
    open_pairs = np.flatnonzero(~estimates.judged)
    if n <= 0 or not len(open_pairs):
        return np.zeros(0, dtype=np.int64)
    if n == 1:
        w = weights[open_pairs]
        top = open_pairs[w == w.max()]
        v = estimates.variance[top]
        return top[v == v.max()][:1]
    order = np.lexsort((open_pairs, -estimates.variance[open_pairs], -weights[open_pairs]))
    return open_pairs[order[:n]]


def next_judgments(
    pool: Pool,
    estimates: RelevanceEstimates,
    measure: str | Measure | ProbabilisticMeasure,
    *,
    n: int = 1,
    target: str = "relative",
) -> NextJudgments:
    """The ``n`` most informative unjudged pairs for ``measure`` (thesis §8.3–8.4)."""
    if not isinstance(measure, ProbabilisticMeasure):
        measure = ProbabilisticMeasure(pool, measure, scale=estimates.scale)
    weights = judgment_weights(measure, estimates, target=target)
    pairs = best_pairs(weights, estimates, n)
    return NextJudgments(
        pairs,
        weights[pairs],
        estimates.expectation[pairs],
        estimates.variance[pairs],
        tuple(pool.pair_names(pairs)),
    )
