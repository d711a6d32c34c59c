"""Where a low-cost evaluation in progress stands: one call from judgments to decisions.

A live campaign (the app's low-cost relevance campaigns) asks the same questions after
every few judgments: what are the estimated scores, how sure is the ranking, which
pairs should be judged next, and may judging stop? :func:`lowcost_state` answers them
together from the known judgments, in the order of the thesis:

1. estimates of every pair by the chain of §7.4 (M_jud → M_out → fixed distribution);
2. pairs that will never be judged (``not_relevant``) count as known non-relevant,
   E = 0 and Var = 0, as trec_eval counts unjudged documents, so that once every other
   pair is judged the estimates equal the ordinary measures;
3. expected scores, intervals and confidences (§8.1, (8.17)–(8.20));
4. the weight of judging each pair (§8.3 for the ranking, §8.4 for the scores) and the
   order to judge them in (:func:`.selection.best_pairs`);
5. the stopping rule (:func:`.stopping.stopping_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from evaluation.core.lowcost.estimators import RelevanceEstimates, RelevanceEstimator
from evaluation.core.lowcost.measures import ExpectedScores, ProbabilisticMeasure, measure_spec
from evaluation.core.lowcost.ordinal import OrdinalModel
from evaluation.core.lowcost.pool import Metadata, Pool
from evaluation.core.lowcost.selection import best_pairs, check_target, judgment_weights
from evaluation.core.lowcost.stopping import StoppingState, stopping_state
from evaluation.core.names import Measure, parse_measure, with_options


def measure_with_scale(measure: str | Measure, *, scale: str = "fine") -> str:
    """The canonical name of a §8.1 measure with its relevance scale named.

    The scale the name gives wins; ``scale`` is used when it gives none. Raises
    :class:`.measures.UnsupportedMeasure` (or ``MeasureNameError``) for a measure the
    probabilistic framework does not define.

    >>> measure_with_scale("CG@5"), measure_with_scale("RBP(scale=broad)@3")
    ('CG(scale=fine)@5', 'RBP(scale=broad)@3')
    """
    parsed = parse_measure(measure) if isinstance(measure, str) else measure
    if parsed.option("scale") is None:
        parsed = with_options(parsed, scale=scale)
    measure_spec(parsed)
    return parsed.label


@dataclass(frozen=True, eq=False)
class LowCostState:
    """Estimates, scores, what to judge next and whether to stop, for one set of judgments.

    Attributes
    ----------
    estimates:
        E[R] and Var[R] of every pair (:class:`.estimators.RelevanceEstimates`).
    scores:
        :class:`.measures.ExpectedScores` of every system.
    weights:
        ``(n_pairs,)`` weight of judging each pair next (0 for known pairs).
    order:
        Unknown pairs, the one to judge first first (highest weight; ties by the larger
        Var[R], then the pool order).
    stopping:
        :class:`.stopping.StoppingState` of the rule chosen.
    """

    pool: Pool
    estimates: RelevanceEstimates
    scores: ExpectedScores
    weights: np.ndarray
    order: np.ndarray
    stopping: StoppingState

    @property
    def priority(self) -> np.ndarray:
        """``(n_pairs,)`` 1-based position of each unknown pair in :attr:`order`, 0 for known."""
        out = np.zeros(self.pool.n_pairs, dtype=np.int64)
        out[self.order] = np.arange(1, len(self.order) + 1)
        return out

    def summary(self) -> dict:
        """Plain data: the estimated leaderboard (:meth:`.ExpectedScores.leaderboard`), the
        stopping rule, and how many pairs are known and where the estimates came from."""
        stop = self.stopping
        return {
            **self.scores.leaderboard(),
            "stopping": {
                "target": stop.target,
                "value": float(stop.value),
                "threshold": float(stop.threshold),
                "stop": bool(stop.stop),
                "rule": stop.rule,
            },
            "pairs": int(self.pool.n_pairs),
            "known": int(self.estimates.judged.sum()),
            "sources": self.estimates.counts(),
        }


def lowcost_state(
    pool: Pool,
    judged: np.ndarray,
    metadata: Metadata | None = None,
    *,
    measure: str | Measure,
    target: str = "relative",
    confidence: float = 0.95,
    half_width: float = 0.05,
    not_relevant: np.ndarray | None = None,
    estimator: str = "mjud",
    models: Mapping[str, OrdinalModel] | None = None,
    teams: Mapping[str, str] | None = None,
) -> LowCostState:
    """The state of a low-cost evaluation given ``judged`` (``(n_pairs,)``, NaN unjudged).

    ``measure`` names its scale (``CG(scale=fine)@5``) or is on the Fine scale;
    ``target`` is ``relative`` (stop at mean ranking confidence ≥ ``confidence``, §8.3)
    or ``absolute`` (stop when the 95% half-width is ≤ ``half_width`` by the corrected
    threshold of Fig. 8.5, §8.4). ``not_relevant`` marks pairs that will never be
    judged; unjudged ones among them count as relevance 0 with no variance.

    >>> pool = Pool.from_rankings({"A": {"q": ["d1", "d2"]}, "B": {"q": ["d2", "d3"]}}, depth=2)
    >>> state = lowcost_state(pool, np.array([np.nan, 80.0, np.nan]), measure="CG@2")
    >>> state.pool.pair_names(state.order)  # d2 is known; d1 and d3 separate A from B
    [('q', 'd1'), ('q', 'd3')]
    """
    check_target(target)
    label = measure_with_scale(measure)
    scale = measure_spec(label).scale
    judged = np.asarray(judged, dtype=np.float64)
    estimates = RelevanceEstimator(
        pool, metadata, scale=scale, estimator=estimator, models=models, teams=teams
    ).estimate(judged)
    if not_relevant is not None:
        never = np.flatnonzero(np.asarray(not_relevant, dtype=bool) & ~estimates.judged)
        if len(never):
            estimates = estimates.with_judgments(never, 0.0)
    kernel = ProbabilisticMeasure(pool, label, scale=scale)
    scores = kernel.scores(estimates)
    weights = judgment_weights(kernel, estimates, target=target, scores=scores)
    order = best_pairs(weights, estimates, int((~estimates.judged).sum()))
    stopping = stopping_state(scores, target=target, confidence=confidence, half_width=half_width)
    return LowCostState(pool, estimates, scores, weights, order, stopping)
