"""The state of a low-cost evaluation in progress (what a live campaign stores)."""

import numpy as np
import pytest

from evaluation.core import evaluate
from evaluation.core.lowcost import (
    RelevanceEstimator,
    expected_scores,
    lowcost_state,
    measure_with_scale,
    next_judgments,
    stopping_state,
)
from evaluation.core.lowcost.measures import UnsupportedMeasure
from evaluation.core.lowcost.stopping import corrected_threshold
from evaluation.core.names import MeasureNameError
from evaluation.core.tests.lowcost_data import mirex2011
from evaluation.core.trec import Qrels


def test_the_scale_is_named_in_the_measure_and_measures_without_a_probabilistic_form_are_refused():
    assert measure_with_scale("nDCG@5", scale="broad") == "nDCG(scale=broad)@5"
    assert measure_with_scale("DCG(scale=fine)@3", scale="broad") == "DCG(scale=fine)@3"
    with pytest.raises(UnsupportedMeasure, match="defines CG, DCG, nDCG, RBP"):
        measure_with_scale("AP@5")
    with pytest.raises(UnsupportedMeasure, match="broad or fine"):
        measure_with_scale("CG(scale=graded3)@5")
    with pytest.raises(MeasureNameError):
        measure_with_scale("CG@five")


def test_the_order_weights_and_stopping_rule_are_the_cores_own_on_mirex_2011():
    # Source: the core's public next_judgments / stopping_state on the same estimates
    # (themselves tested against §8.3 by brute force and Tables 8.1/8.3).
    _, _, metadata, pool, truth = mirex2011()
    judged = np.where(np.arange(pool.n_pairs) % 7 == 0, truth, np.nan)
    state = lowcost_state(pool, judged, metadata, measure="DCG@5")
    estimates = RelevanceEstimator(pool, metadata).estimate(judged)
    np.testing.assert_array_equal(state.estimates.expectation, estimates.expectation)
    expected = next_judgments(pool, estimates, "DCG@5", n=25)
    np.testing.assert_array_equal(state.order[:25], expected.pairs)
    np.testing.assert_array_equal(state.weights[expected.pairs], expected.weights)
    scores = expected_scores(pool, estimates, "DCG@5")
    assert state.stopping == stopping_state(scores, target="relative", confidence=0.95)
    assert len(state.order) == int(np.isnan(judged).sum())
    priority = state.priority
    assert (priority[~np.isnan(judged)] == 0).all()
    assert priority[state.order[0]] == 1 and sorted(priority[state.order]) == list(
        range(1, len(state.order) + 1)
    )


def test_pairs_never_to_be_judged_count_as_not_relevant_so_the_end_equals_trec_eval():
    # Every pair judged except 200 marked never-to-be-judged: the expected scores equal
    # the project's evaluate() (checked against pytrec_eval elsewhere) on qrels without
    # those 200, which trec_eval counts as non-relevant — with no variance left.
    _, runs, metadata, pool, truth = mirex2011()
    never = np.zeros(pool.n_pairs, dtype=bool)
    never[np.random.default_rng(5).choice(pool.n_pairs, 200, replace=False)] = True
    judged = np.where(never, np.nan, truth)
    state = lowcost_state(pool, judged, metadata, measure="nDCG@5", not_relevant=never)
    names = pool.pair_names(range(pool.n_pairs))
    kept = [(q, d, float(t)) for (q, d), t, n in zip(names, truth, never, strict=True) if not n]
    partial = Qrels.from_records(kept, columns=("fine",))
    results = evaluate(partial, runs, ["nDCG@5"])
    for s, system in enumerate(pool.systems):
        assert state.scores.expectation[s] == pytest.approx(results.mean(system, "nDCG@5"))
    assert state.scores.variance.max() == 0
    assert state.stopping.stop and state.stopping.value == pytest.approx(1.0)
    assert len(state.order) == 0 and state.weights.max() == 0


def test_the_absolute_rule_uses_the_half_width_and_the_corrected_threshold_of_fig_8_5():
    _, _, metadata, pool, _ = mirex2011()
    state = lowcost_state(
        pool, np.full(pool.n_pairs, np.nan), metadata, measure="CG@5", target="absolute",
        half_width=0.01,
    )  # fmt: skip
    # √(mean Var) against 0.0071, the threshold §8.4 quotes from Fig. 8.5 for ±0.01.
    assert state.stopping.threshold == corrected_threshold(0.01) == 0.0071
    assert state.stopping.value == pytest.approx(np.sqrt(state.scores.variance.mean()))
    assert not state.stopping.stop


def test_the_summary_is_plain_data_with_the_leaderboard_and_the_rule():
    _, _, metadata, pool, truth = mirex2011()
    judged = np.where(np.arange(pool.n_pairs) < 100, truth, np.nan)
    summary = lowcost_state(pool, judged, metadata, measure="CG@5").summary()
    assert summary["measure"] == "CG(scale=fine)@5"
    assert summary["known"] == 100 and summary["pairs"] == pool.n_pairs
    assert sum(summary["sources"].values()) == pool.n_pairs
    assert summary["sources"]["judged"] == 100
    means = [row["expectation"] for row in summary["systems"]]
    assert means == sorted(means, reverse=True) and len(means) == 18
    assert len(summary["differences"]) == 18 * 17 // 2
    rule = summary["stopping"]
    assert rule["value"] == summary["ranking_confidence"] and rule["threshold"] == 0.95
    assert isinstance(rule["stop"], bool)
