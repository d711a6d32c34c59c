"""Low-cost evaluation (thesis ch. 7–8, appendix A): estimate effectiveness from
incomplete judgments, judge next what matters most, stop when confident.

The public API works on plain arrays and frozen dataclasses::

    pool = Pool.from_runs(runs, depth=5, qrels=qrels)          # pairs (query, doc)
    judged = pool.judgments(qrels)                               # NaN where unjudged
    estimates = estimate_relevance(pool, judged, metadata)       # E[R], Var[R] (ch. 7)
    scores = expected_scores(pool, estimates, "CG@5")           # E, Var, confidence (§8.1)
    nxt = next_judgments(pool, estimates, "CG@5", n=10)          # what to judge (§8.3–8.4)
    state = stopping_state(scores, target="relative")            # when to stop
    live = lowcost_state(pool, judged, metadata, measure="CG@5")  # all of it at once

For repeated calls on one pool (a live campaign, :func:`simulate`) keep a
:class:`RelevanceEstimator` and a :class:`ProbabilisticMeasure`: they hold what does
not change as judgments arrive.
"""

from evaluation.core.lowcost.estimators import (
    ESTIMATORS,
    SOURCES,
    RelevanceEstimates,
    RelevanceEstimator,
    estimate_relevance,
)
from evaluation.core.lowcost.features import FEATURES, all_features
from evaluation.core.lowcost.measures import (
    ExpectedScores,
    ProbabilisticMeasure,
    UnsupportedMeasure,
    confidence_in_sign,
    expected_scores,
)
from evaluation.core.lowcost.models import HISTORICAL, M_JUD, M_OUT, UNIFORM
from evaluation.core.lowcost.ordinal import OrdinalModel, fit_model, fit_ordinal
from evaluation.core.lowcost.pool import Metadata, Pool, read_metadata
from evaluation.core.lowcost.selection import NextJudgments, next_judgments
from evaluation.core.lowcost.simulation import Simulation, Step, simulate
from evaluation.core.lowcost.state import LowCostState, lowcost_state, measure_with_scale
from evaluation.core.lowcost.stopping import StoppingState, stopping_state

__all__ = [
    "ESTIMATORS",
    "FEATURES",
    "HISTORICAL",
    "M_JUD",
    "M_OUT",
    "SOURCES",
    "UNIFORM",
    "ExpectedScores",
    "LowCostState",
    "Metadata",
    "NextJudgments",
    "OrdinalModel",
    "Pool",
    "ProbabilisticMeasure",
    "RelevanceEstimates",
    "RelevanceEstimator",
    "Simulation",
    "Step",
    "StoppingState",
    "UnsupportedMeasure",
    "all_features",
    "confidence_in_sign",
    "estimate_relevance",
    "expected_scores",
    "fit_model",
    "fit_ordinal",
    "lowcost_state",
    "measure_with_scale",
    "next_judgments",
    "read_metadata",
    "simulate",
    "stopping_state",
]
