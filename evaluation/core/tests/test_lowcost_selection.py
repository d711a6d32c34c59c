"""Which judgment next and when to stop (thesis §8.3–8.4)."""

import itertools

import numpy as np
import pytest

from evaluation.core.lowcost import (
    Pool,
    ProbabilisticMeasure,
    RelevanceEstimates,
    expected_scores,
    next_judgments,
    stopping_state,
)
from evaluation.core.lowcost.stopping import corrected_threshold, uncorrected_threshold


def _random_pool(seed=3, systems=7, queries=4, docs=9, depth=5):
    rng = np.random.default_rng(seed)
    rankings = {
        f"s{s}": {
            f"q{q}": [f"d{d}" for d in rng.permutation(docs)[: rng.integers(2, depth + 1)]]
            for q in range(queries)
        }
        for s in range(systems)
    }
    pool = Pool.from_rankings(rankings, depth=depth)
    e = rng.uniform(0, 100, pool.n_pairs)
    v = rng.uniform(0, 900, pool.n_pairs)
    judged = rng.random(pool.n_pairs) < 0.2
    v[judged] = 0
    return pool, RelevanceEstimates(e, v, np.zeros(pool.n_pairs, int), judged, "fine")


@pytest.mark.parametrize("measure", ["CG@5", "DCG@5", "nDCG@5", "RBP@5", "RBP(form=user)@3"])
def test_relative_weights_equal_the_sum_over_system_pairs_of_section_8_3(measure):
    # §8.3: w_d = Σ_{(A,B)} |c_A(d) - c_B(d)| / E[ideal] (nDCG, RBP) — computed here by
    # brute force over every system pair, from the rankings.
    pool, est = _random_pool()
    kernel = ProbabilisticMeasure(pool, measure)
    e_den, _ = kernel.ideal(est)
    brute = np.zeros(pool.n_pairs)
    for p in range(pool.n_pairs):
        q = pool.pair_query[p]
        c = [
            kernel.w[list(pool.ranked[s, q, : kernel.spec.k]).index(p)]
            if p in pool.ranked[s, q, : kernel.spec.k]
            else 0.0
            for s in range(len(pool.systems))
        ]
        brute[p] = sum(abs(a - b) for a, b in itertools.combinations(c, 2)) / e_den[q]
    assert kernel.relative_weights(est) == pytest.approx(brute)


def test_for_cg_the_weight_is_the_number_of_system_pairs_a_document_separates():
    pool, est = _random_pool()
    n = pool.rank_counts.sum(axis=1)
    eta = 5 * 100.0
    weights = ProbabilisticMeasure(pool, "CG@5").relative_weights(est)
    assert weights * eta == pytest.approx(n * (len(pool.systems) - n))


def test_next_picks_the_unjudged_pair_of_highest_weight_and_never_a_judged_one():
    pool, est = _random_pool()
    kernel = ProbabilisticMeasure(pool, "DCG@5")
    weights = np.where(est.judged, -1, kernel.relative_weights(est))
    nxt = next_judgments(pool, est, "DCG@5", n=5)
    assert not est.judged[nxt.pairs].any()
    assert nxt.weights == pytest.approx(np.sort(weights)[::-1][:5])
    assert nxt.names[0] == pool.pair_names([nxt.pairs[0]])[0]


def test_absolute_weights_sum_the_query_variance_of_the_systems_that_ranked_the_pair():
    pool, est = _random_pool()
    kernel = ProbabilisticMeasure(pool, "CG@5")
    scores = kernel.scores(est)
    weights = kernel.absolute_weights(est, scores)
    p = 0
    q = pool.pair_query[p]
    by_hand = sum(
        scores.query_variance[s, q] for s in range(len(pool.systems)) if p in pool.ranked[s, q]
    )
    assert weights[p] == pytest.approx(by_hand)
    nxt = next_judgments(pool, est, "CG@5", n=1, target="absolute")
    assert nxt.weights[0] == pytest.approx(weights[~est.judged].max())


def test_stopping_thresholds_are_those_of_section_8_4():
    # §8.4: t_{0.975, 99} sqrt(Var) <= 0.05  <=>  sqrt(Var) <= 0.0252
    assert uncorrected_threshold(0.05, 100) == pytest.approx(0.0252, abs=5e-5)
    # Fig. 8.5 as quoted in the text: 0.0071 for ±0.01 and 0.011 for ±0.05
    assert corrected_threshold(0.01) == 0.0071 and corrected_threshold(0.05) == 0.011
    assert corrected_threshold(0.03) == pytest.approx((0.0071 + 0.011) / 2)


def test_the_stopping_state_says_stop_only_past_the_target():
    pool, est = _random_pool()
    scores = expected_scores(pool, est, "CG@5")
    low = stopping_state(scores, target="relative", confidence=0.5)
    high = stopping_state(scores, target="relative", confidence=0.999999)
    assert low.stop and not high.stop and low.value == scores.ranking_confidence
    every = RelevanceEstimates(
        est.expectation, 0 * est.variance, est.source, est.judged | True, "fine"
    )
    done = stopping_state(expected_scores(pool, every, "CG@5"), target="absolute")
    assert done.stop and done.value == 0
    with pytest.raises(ValueError, match="target"):
        stopping_state(scores, target="sideways")
