"""CG@k, DCG@k, nDCG@k and RBP@k on the worked example (lin gain, top gain 2)."""

import math

import numpy as np
from numpy.testing import assert_allclose

from evaluation.core import evaluate
from evaluation.core.measures import cumulative_gain, dcg, ndcg, rank_biased_precision
from evaluation.core.tests import worked_example as ex

D = [math.log2(i + 1) for i in range(1, 6)]  # d(i) = log2(i + 1): 1, 1.585, 2, 2.322, 2.585
A = [2, 0, 1, 2, 0]
DCG_A = sum(g / d for g, d in zip(A, D, strict=True))  # 2 + 1/2 + 2/log2(5) = 3.36135


def score(name):
    return evaluate(ex.qrels(), ex.run(), [name]).mean("A", name)


def test_cumulative_gain_is_normalised_by_k_perfect_documents():
    # eq. (3.3): (2 + 0 + 1 + 2 + 0) / (5 * 2) = 0.5
    assert_allclose(cumulative_gain(ex.LEVELS, k=5, max_gain=2), [0.5])
    assert_allclose(score("CG@5"), 0.5)


def test_dcg_is_normalised_by_k_perfect_documents():
    # eq. (3.4): 3.36135 / (2 * Σ 1/d(i)) = 3.36135 / 5.89692 = 0.57002
    expected = DCG_A / (2 * sum(1 / d for d in D))
    assert_allclose(dcg(ex.LEVELS, k=5, max_gain=2), [expected])
    assert_allclose(score("DCG@5"), expected)


def test_ndcg_is_normalised_by_the_ideal_ranking_of_the_judgments():
    # eq. (2.10), I = ⟨2,2,2,1,1⟩: IDCG = 2 + 2/1.585 + 2/2 + 1/2.322 + 1/2.585 = 5.07939
    idcg = sum(g / d for g, d in zip([2, 2, 2, 1, 1], D, strict=True))
    assert_allclose(ndcg(ex.LEVELS, k=5, ideal_gains=ex.IDEAL_SYSTEM), [DCG_A / idcg])
    assert_allclose(score("nDCG@5"), DCG_A / idcg)  # 0.66176


def test_exponential_gain_maps_levels_to_two_to_the_l_minus_one():
    # g = 2^ℓ - 1: A → ⟨3,0,1,3,0⟩, top gain 3: CG = 7 / 15
    assert_allclose(score("CG(gain=exp)@5"), 7 / 15)


def test_rbp_user_form_divides_by_k_perfect_documents():
    # eq. (3.6), p = 0.8: (2 + 0.64 + 2*0.512) / (2 * 3.3616) = 3.664 / 6.7232 = 0.54498
    assert_allclose(score("RBP(form=user)@5"), 3.664 / 6.7232)


def test_rbp_system_form_divides_by_the_ideal_ranking():
    # eq. (5.8): 3.664 / (2 + 1.6 + 1.28 + 0.512 + 0.4096) = 3.664 / 5.8016 = 0.63155
    assert_allclose(score("RBP@5"), 3.664 / 5.8016)
    assert_allclose(
        rank_biased_precision(ex.LEVELS, k=5, p=0.8, ideal_gains=ex.IDEAL_SYSTEM), [3.664 / 5.8016]
    )


def test_a_query_with_nothing_relevant_scores_zero():
    assert_allclose(ndcg(np.zeros((1, 3)), k=3, ideal_gains=np.zeros((1, 3))), [0.0])
