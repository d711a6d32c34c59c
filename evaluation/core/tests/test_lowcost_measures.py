"""Probabilistic measures (thesis §8.1): exact when everything is judged, and the
expectation and variance of what random relevance would give otherwise."""

import numpy as np
import pytest

from evaluation.core import evaluate
from evaluation.core.lowcost import (
    Pool,
    ProbabilisticMeasure,
    RelevanceEstimates,
    RelevanceEstimator,
    UnsupportedMeasure,
    expected_scores,
)
from evaluation.core.lowcost.ordinal import LEVEL_VALUES
from evaluation.core.measures import gain
from evaluation.core.tests.lowcost_data import mirex2011
from evaluation.core.trec import Run

MEASURES = ["CG@5", "DCG@5", "nDCG@5", "RBP@5", "RBP(p=0.5,form=user)@5"]


def known(values, scale="fine"):
    values = np.asarray(values, dtype=float)
    n = len(values)
    return RelevanceEstimates(values, np.zeros(n), np.zeros(n, int), np.ones(n, bool), scale)


@pytest.mark.parametrize("measure", MEASURES)
def test_with_every_document_judged_they_equal_the_projects_own_measures(measure):
    # Source: the project's evaluate() (checked against pytrec_eval elsewhere) on the
    # complete MIREX 2011 judgments; with Var[R] = 0 everywhere §8.1 is the plain measure.
    qrels, runs, _, pool, truth = mirex2011()
    scores = expected_scores(pool, known(truth), measure)
    results = evaluate(qrels, runs, [measure])
    for s, system in enumerate(pool.systems):
        expected = results.per_query(system, measure)
        got = dict(zip(pool.queries, scores.query_expectation[s], strict=True))
        assert got == pytest.approx(expected, abs=1e-12)
    assert scores.variance.max() == 0
    assert scores.ranking_confidence == pytest.approx(1.0)


def test_a_document_both_systems_rank_equally_cancels_in_their_difference():
    # §8.1.2 by hand: CG@2, A = (d1, d2), B = (d2, d3), Fine; Var[R_d2] = 400 only.
    # E[CG_A] = (80 + 50) / 200 = 0.65, E[CG_B] = (50 + 10) / 200 = 0.30;
    # Var[CG_A] = 400 / 200² = 0.01 each, but d2 counts in both: Var[Δ] = 0.
    pool = Pool.from_rankings({"A": {"q": ["d1", "d2"]}, "B": {"q": ["d2", "d3"]}}, depth=2)
    est = RelevanceEstimates(
        np.array([80.0, 50, 10]),
        np.array([0.0, 400, 0]),
        np.zeros(3, int),
        np.zeros(3, bool),
        "fine",
    )
    scores = expected_scores(pool, est, "CG@2")
    assert scores.expectation == pytest.approx([0.65, 0.30])
    assert scores.variance == pytest.approx([0.01, 0.01])
    assert scores.difference[0, 1] == pytest.approx(0.35)
    assert scores.difference_variance[0, 1] == 0
    # DCG@2: d2 is at rank 2 in A and rank 1 in B, so it no longer cancels (8.14):
    # Var = 400 (1/log2(3) - 1)² / η², η = 100 (1 + 1/log2(3))
    dcg = expected_scores(pool, est, "DCG@2")
    eta = 100 * (1 + 1 / np.log2(3))
    assert dcg.difference_variance[0, 1] == pytest.approx(400 * (1 / np.log2(3) - 1) ** 2 / eta**2)


def _sub_collection(n_queries=12):
    qrels, runs, metadata, _, _ = mirex2011()
    keep = sorted({q for run in runs.values() for q in run.query_ids})[:n_queries]
    small = {
        name: Run.from_ranked_lists({q: run.ranking(q) for q in keep}, name=name)
        for name, run in runs.items()
    }
    pool = Pool.from_runs(small, depth=5, qrels=qrels)
    return pool, pool.judgments(qrels), metadata


def _level_probabilities(chain, estimates, judged):
    """P(R = level) of every pair under the model that estimated it."""
    levels = LEVEL_VALUES["fine"]
    probs = np.zeros((len(judged), len(levels)))
    features = {**chain.features, **chain.judgment_features(judged)}
    for code, model in ((1, chain.m_jud), (2, chain.m_out)):
        rows = estimates.source == code
        probs[rows] = model.probabilities(model.design(features)[rows])
    return levels, probs


@pytest.mark.parametrize("measure", ["CG@5", "DCG@5", "nDCG@5", "RBP@5"])
def test_they_match_monte_carlo_draws_from_the_estimated_distributions(measure):
    pool, truth, metadata = _sub_collection()
    rng = np.random.default_rng(15)
    judged = np.where(rng.random(pool.n_pairs) < 0.3, truth, np.nan)
    chain = RelevanceEstimator(pool, metadata)
    estimates = chain.estimate(judged)
    fixed = estimates.source >= 3  # no metadata: only E and Var are known, so judge them
    judged[fixed] = truth[fixed]
    estimates = chain.estimate(judged)
    assert set(np.unique(estimates.source)) == {0, 1, 2}  # judged, M_jud and M_out pairs
    levels, probs = _level_probabilities(chain, estimates, judged)
    draws = 4000
    cdf = np.cumsum(probs, axis=1)
    pick = (rng.random((draws, pool.n_pairs, 1)) > cdf[None, :, :]).sum(axis=2)
    values = np.where(estimates.judged, estimates.expectation, levels[np.minimum(pick, 9)])
    # each draw scored with the project's own kernels (evaluation.core.measures.gain)
    kernel = ProbabilisticMeasure(pool, measure)
    padded = np.concatenate([values, np.zeros((draws, 1))], axis=1)
    gains = padded[:, kernel.ranked]  # (draws, systems, queries, k); -1 reads the 0 column
    n_sys, n_q = len(pool.systems), len(pool.queries)
    flat = gains.reshape(-1, 5)
    # §8.1: "the ideal list of results is computed by sorting all documents by E[R_d]";
    # a draw's ideal holds the drawn relevance of those documents, in that order
    ideal = np.zeros((draws, n_q, 5))
    resorted = np.zeros((draws, n_q, 5))
    for q in range(n_q):
        a, b = pool.query_slices[q], pool.query_slices[q + 1]
        by_e = a + np.argsort(-estimates.expectation[a:b], kind="stable")[:5]
        ideal[:, q, :] = values[:, by_e]
        resorted[:, q, :] = -np.sort(-values[:, a:b], axis=1)[:, :5]

    def score(ideal):
        ideal_flat = np.broadcast_to(ideal[:, None], (draws, n_sys, n_q, 5)).reshape(-1, 5)
        if measure == "CG@5":
            per = gain.cumulative_gain(flat, k=5, max_gain=100.0)
        elif measure == "DCG@5":
            per = gain.dcg(flat, k=5, max_gain=100.0)
        elif measure == "nDCG@5":
            per = gain.ndcg(flat, k=5, ideal_gains=ideal_flat)
        else:
            per = gain.rank_biased_precision(flat, k=5, p=0.8, ideal_gains=ideal_flat)
        return per.reshape(draws, n_sys, n_q).mean(axis=2)

    means = score(ideal)
    scores = kernel.scores(estimates)
    diff = means[:, :, None] - means[:, None, :]
    iu = np.triu_indices(n_sys, k=1)
    mc_e, mc_v = means.mean(axis=0), means.var(axis=0)
    mc_de, mc_dv = diff.mean(axis=0)[iu], diff.var(axis=0)[iu]
    if measure in ("CG@5", "DCG@5"):
        # linear in R: (8.1)-(8.4), (8.11)-(8.14) are exact; only sampling error remains
        # (4 standard errors for the means, ~4.5% for variances at 4,000 draws)
        assert np.abs(mc_e - scores.expectation).max() < 4 * np.sqrt(mc_v.max() / draws)
        assert mc_v == pytest.approx(scores.variance, rel=0.1)
        assert mc_dv == pytest.approx(scores.difference_variance[iu], rel=0.1)
    else:
        # ratios: the delta method (8.5)-(8.6) with a fixed ideal order and Cov = 0 is an
        # approximation; its bias here is well under the spread of the scores
        assert np.abs(mc_e - scores.expectation).max() < 0.01
        assert np.abs(mc_de - scores.difference[iu]).max() < 0.01
        assert np.median(scores.variance / mc_v) == pytest.approx(1, abs=0.35)
        # re-sorting each draw's ideal (the ordinary measure of a drawn collection) raises
        # it, so the §8.1 estimate overestimates nDCG and RBP: the bias §8.4 reports
        assert np.all(score(resorted).mean(axis=0) < scores.expectation)
    assert np.abs(mc_de - scores.difference[iu]).max() < 0.01
    # shared documents cancel: the difference's variance is below the sum of the two
    both = scores.variance[iu[0]] + scores.variance[iu[1]]
    assert np.all(scores.difference_variance[iu] <= both + 1e-15)
    assert mc_dv.mean() < both.mean()


def test_a_measure_without_a_probabilistic_form_is_refused_with_the_reason():
    _, _, _, pool, truth = mirex2011()
    for name, reason in [
        ("AP@5", "defines CG, DCG, nDCG, RBP"),
        ("nDCG", "give a cut-off"),
        ("nDCG(gain=exp)@5", "linear gain"),
        ("CG(rel=40)@5", "binary"),
        ("CG(scale=graded3)@5", "broad or fine"),
    ]:
        with pytest.raises(UnsupportedMeasure, match=reason):
            expected_scores(pool, known(truth), name)


def test_an_estimated_interval_never_leaves_what_the_measure_can_take():
    # CG@1 on one query, one document of Fine E = 5 and Var = 400 (sd 20): E[CG] = 0.05,
    # Var[CG] = 400 / 100² = 0.04, sd 0.2; with 1 query the t has 1 df (8.19, df floored
    # at 1): 12.706 × 0.2 = 2.541, so E ± t·sd = [−2.49, 2.59], far outside [0, 1].
    pool = Pool.from_rankings({"A": {"q": ["d1"]}, "B": {"q": ["d2"]}}, depth=1)
    est = RelevanceEstimates(
        np.array([5.0, 95.0]), np.array([400.0, 0.0]), np.zeros(2, int), np.zeros(2, bool),
        "fine",
    )  # fmt: skip
    scores = expected_scores(pool, est, "CG@1")
    assert scores.half_width[0] == pytest.approx(12.7062 * 0.2, abs=1e-3)
    rows = {r["system"]: r for r in scores.leaderboard()["systems"]}
    assert (rows["A"]["low"], rows["A"]["high"], rows["A"]["cut"]) == (0.0, 1.0, True)
    # B is judged (Var 0): its interval is the point 0.95 and nothing is cut.
    assert (rows["B"]["low"], rows["B"]["high"], rows["B"]["cut"]) == (
        pytest.approx(0.95), pytest.approx(0.95), False,
    )  # fmt: skip
