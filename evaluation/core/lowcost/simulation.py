"""Replaying a complete collection as if it were judged the low-cost way (thesis §8.2–8.4).

Start with no judgments (every pair estimated by M_out, or the fixed distribution
where metadata is missing), then repeatedly judge the pair of highest weight (§8.3 for
``target="relative"``, §8.4 for ``"absolute"``), revealing its true judgment
(E = r, Var = 0 at once), and re-estimate every unjudged pair with M_jud → M_out →
fixed every ``update_every`` judgments (the thesis: every 20). After each judgment the
estimated scores are compared with the true ones (every judgment known):

``confidence``  mean confidence in the ranking (8.20)
``accuracy``    fraction of system pairs whose sign of E[Δ] is right (a true tie counts
                as right only when estimated as a tie)
``tau``         Kendall τ_b between estimated and true mean scores
``rmse_delta``  RMSE of E[Δ] against the true mean differences, over system pairs
``rho``         Spearman ρ between estimated and true mean scores
``rmse``, ``mae``  RMSE and mean absolute error of the estimated mean scores
``root_variance``  √(mean over systems of Var[mean score]), what §8.4's rule bounds

Table 8.1 is the first step (no judgments); Table 8.3 the first step whose confidence
reaches 95%; Tables 8.5–8.6 the first step whose root variance meets the uncorrected
or corrected threshold (:mod:`.stopping`); Tables 8.2 and 8.4 bin the system pairs
of those steps by confidence (:func:`confidence_bins`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy import stats

from evaluation.core.lowcost.estimators import RelevanceEstimates, RelevanceEstimator
from evaluation.core.lowcost.measures import ExpectedScores, ProbabilisticMeasure
from evaluation.core.lowcost.ordinal import OrdinalModel
from evaluation.core.lowcost.pool import Metadata, Pool
from evaluation.core.lowcost.selection import best_pairs, check_target, judgment_weights
from evaluation.core.lowcost.stopping import corrected_threshold, uncorrected_threshold
from evaluation.core.names import Measure

#: Confidence bins of Tables 8.2 and 8.4.
CONFIDENCE_BINS = (
    (0.5, 0.6),
    (0.6, 0.7),
    (0.7, 0.8),
    (0.8, 0.9),
    (0.9, 0.95),
    (0.95, 0.99),
    (0.99, 1.0),
)


@dataclass(frozen=True)
class Step:
    """The state of a simulation after ``judgments`` judgments."""

    judgments: int
    confidence: float
    accuracy: float
    tau: float
    rmse_delta: float
    rho: float
    rmse: float
    mae: float
    root_variance: float


@dataclass(frozen=True)
class ConfidenceBin:
    low: float
    high: float
    count: int
    share: float
    accuracy: float | None


@dataclass(frozen=True)
class Simulation:
    """Every recorded :class:`Step`, and the points Tables 8.1–8.6 report."""

    measure: str
    target: str
    total_judgments: int
    update_every: int
    steps: list[Step]
    initial_bins: list[ConfidenceBin] = field(default_factory=list)
    stops: dict[str, dict] = field(default_factory=dict)

    def first(self, predicate) -> Step | None:
        return next((s for s in self.steps if predicate(s)), None)

    def to_dict(self) -> dict:
        return {
            "measure": self.measure,
            "target": self.target,
            "total_judgments": self.total_judgments,
            "update_every": self.update_every,
            "initial_bins": [asdict(b) for b in self.initial_bins],
            "stops": self.stops,
            "steps": [asdict(s) for s in self.steps],
        }


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's τ_b (as :func:`scipy.stats.kendalltau`), O(n²) for a few dozen systems."""
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    iu = np.triu_indices(len(x), k=1)
    dx, dy = dx[iu], dy[iu]
    denominator = np.sqrt(np.count_nonzero(dx) * np.count_nonzero(dy))
    return float((dx * dy).sum() / denominator) if denominator else float("nan")


def confidence_bins(scores: ExpectedScores, true_means: np.ndarray) -> list[ConfidenceBin]:
    """System pairs by confidence in the sign of E[Δ], and the accuracy in each bin
    (Tables 8.2 and 8.4)."""
    iu = scores.upper_pairs()
    conf = scores.confidence[iu]
    right = _right_signs(scores.difference[iu], (true_means[:, None] - true_means[None, :])[iu])
    out = []
    for low, high in CONFIDENCE_BINS:
        inside = (conf >= low) & ((conf < high) if high < 1 else (conf <= high))
        n = int(inside.sum())
        out.append(
            ConfidenceBin(
                low, high, n, n / max(len(conf), 1), float(right[inside].mean()) if n else None
            )
        )
    return out


def _right_signs(estimated: np.ndarray, actual: np.ndarray) -> np.ndarray:
    return np.sign(np.round(estimated, 12)) == np.sign(np.round(actual, 12))


class Reference:
    """The true scores of a complete collection, to score estimates against (a :class:`Step`).

    ``Reference(true_scores).step(judged, estimated_scores)`` gives the figures of Tables
    8.1–8.6 for one set of estimates (what :func:`simulate` records after each judgment).
    """

    def __init__(self, scores: ExpectedScores) -> None:
        self.means = scores.expectation
        iu = scores.upper_pairs()
        self.iu = iu
        self.diff = (self.means[:, None] - self.means[None, :])[iu]
        self.ranks = stats.rankdata(self.means)

    def step(self, judged: int, scores: ExpectedScores) -> Step:
        est = scores.expectation
        diff = scores.difference[self.iu]
        error = est - self.means
        rho = float(np.corrcoef(self.ranks, stats.rankdata(est))[0, 1]) if len(est) > 1 else 1.0
        return Step(
            judgments=judged,
            confidence=scores.ranking_confidence,
            accuracy=float(_right_signs(diff, self.diff).mean()) if len(diff) else 1.0,
            tau=kendall_tau_b(est, self.means),
            rmse_delta=float(np.sqrt(np.mean((diff - self.diff) ** 2))) if len(diff) else 0.0,
            rho=rho,
            rmse=float(np.sqrt(np.mean(error**2))),
            mae=float(np.mean(np.abs(error))),
            root_variance=float(np.sqrt(np.mean(scores.variance))),
        )


def simulate(
    pool: Pool,
    truth: np.ndarray,
    measure: str | Measure,
    metadata: Metadata | None = None,
    *,
    scale: str = "fine",
    target: str = "relative",
    estimator: str = "mjud",
    update_every: int = 20,
    every: int = 1,
    max_judgments: int | None = None,
    confidence: float = 0.95,
    half_width: float = 0.05,
    models: Mapping[str, OrdinalModel] | None = None,
    teams: Mapping[str, str] | None = None,
) -> Simulation:
    """Replay a complete collection (``truth``: every pair's judgment) judging in the
    order of §8.3/§8.4, recording a :class:`Step` every ``every`` judgments (and at
    each stopping point; stopping points are checked after every judgment).
    """
    check_target(target)
    truth = np.asarray(truth, dtype=np.float64)
    if truth.shape != (pool.n_pairs,) or np.isnan(truth).any():
        missing = int(np.isnan(truth).sum()) if truth.shape == (pool.n_pairs,) else pool.n_pairs
        raise ValueError(
            f"a simulation needs a complete collection: {missing} ranked documents are unjudged"
        )
    if update_every < 1 or every < 1:
        raise ValueError("update_every and every must be at least 1")
    kernel = ProbabilisticMeasure(pool, measure, scale=scale)
    complete = RelevanceEstimates(
        truth, np.zeros_like(truth), np.zeros(pool.n_pairs, int), np.ones(pool.n_pairs, bool), scale
    )
    reference = Reference(kernel.scores(complete))
    chain = RelevanceEstimator(
        pool, metadata, scale=scale, estimator=estimator, models=models, teams=teams
    )
    judged = np.full(pool.n_pairs, np.nan)
    current = chain.estimate(judged)
    e, v, src, done = (
        current.expectation.copy(),
        current.variance.copy(),
        current.source.copy(),
        current.judged.copy(),
    )
    limit = pool.n_pairs if max_judgments is None else min(max_judgments, pool.n_pairs)
    thresholds = {
        "corrected": corrected_threshold(half_width),
        "uncorrected": uncorrected_threshold(half_width, len(pool.queries)),
    }
    steps: list[Step] = []
    stops: dict[str, dict] = {}
    initial_bins: list[ConfidenceBin] = []
    n = 0
    while True:
        estimates = RelevanceEstimates(e, v, src, done, scale)
        scores = kernel.scores(estimates)
        step = reference.step(n, scores)
        if n == 0:
            initial_bins = confidence_bins(scores, reference.means)
        marks = _stops(step, stops, confidence, thresholds)
        for name in marks:
            stops[name] = {
                "step": asdict(step),
                "bins": [asdict(b) for b in confidence_bins(scores, reference.means)],
            }
        if n % every == 0 or marks or n == limit:
            steps.append(step)
        if n >= limit:
            break
        weights = judgment_weights(kernel, estimates, target=target, scores=scores)
        pair = int(best_pairs(weights, estimates, 1)[0])
        judged[pair] = truth[pair]
        e[pair], v[pair], src[pair], done[pair] = truth[pair], 0.0, 0, True
        n += 1
        if n % update_every == 0 and n < pool.n_pairs:
            fresh = chain.estimate(judged)
            e, v, src, done = fresh.expectation, fresh.variance, fresh.source, fresh.judged
    return Simulation(
        kernel.spec.label, target, pool.n_pairs, update_every, steps, initial_bins, stops
    )


def _stops(step: Step, stops: dict, confidence: float, thresholds: dict) -> list[str]:
    marks = []
    if "confidence" not in stops and step.confidence >= confidence:
        marks.append("confidence")
    for name, threshold in thresholds.items():
        if name not in stops and step.root_variance <= threshold:
            marks.append(name)
    return marks
