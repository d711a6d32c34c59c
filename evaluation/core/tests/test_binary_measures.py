"""P@k, AP@k (both forms and map), RR@k, R-precision and recall, computed by hand."""

import numpy as np
from numpy.testing import assert_allclose

from evaluation.core import evaluate
from evaluation.core.measures import (
    average_precision,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
)
from evaluation.core.tests import worked_example as ex


def score(name):
    return evaluate(ex.qrels(), ex.run(), [name]).mean("A", name)


def test_precision_counts_relevant_in_the_top_k_over_k():
    # ⟨2,0,1,2,0⟩ with ℓ_min = 1: relevant at ranks 1, 3, 4 → 3/5 (eq. 2.5)
    assert_allclose(score("P@5"), 3 / 5)
    # ℓ_min = 2: ranks 1 and 4 → 2/5
    assert_allclose(score("P(rel=2)@5"), 2 / 5)
    # past the end of the ranking nothing is relevant: 3/10 (trec_eval P_10)
    assert_allclose(score("P.10"), 3 / 10)


def test_user_average_precision_divides_by_k():
    # eq. (3.1), ℓ_min = 2: relevant at 1 and 4 → (1/1 + 2/4) / 5 = 0.3
    assert_allclose(score("AP(form=user,rel=2)@5"), (1 + 2 / 4) / 5)


def test_system_average_precision_divides_by_min_k_and_r():
    # eq. (5.6), ℓ_min = 2, |R| = 3: (1/1 + 2/4) / min(5, 3) = 0.5
    assert_allclose(score("AP(rel=2)@5"), (1 + 2 / 4) / 3)
    # ℓ_min = 1, |R| = 5: (1/1 + 2/3 + 3/4) / min(5, 5)
    assert_allclose(score("AP@5"), (1 + 2 / 3 + 3 / 4) / 5)
    # cut at 2 with |R| = 5: (1/1) / min(2, 5) = 0.5
    assert_allclose(score("AP@2"), 1 / 2)


def test_map_divides_by_all_relevant_documents():
    # eq. (2.3): (1/1 + 2/3 + 3/4) / 5 relevant (b, f, a, c, e)
    assert_allclose(score("map"), (1 + 2 / 3 + 3 / 4) / 5)


def test_reciprocal_rank_is_zero_when_nothing_relevant_is_in_the_top_k():
    rel = np.array([[0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]])
    # eq. (3.2): first relevant at 3 → 1/3; none → 0; at 1 → 1; cut at 2 hides the 3
    assert_allclose(reciprocal_rank(rel, k=4), [1 / 3, 0, 1])
    assert_allclose(reciprocal_rank(rel, k=2), [0, 0, 1])


def test_r_precision_and_recall_use_the_number_of_relevant_documents():
    rel = np.array([[1, 0, 1, 1, 0]])
    # R = 3: relevant in the top 3 = 2 → 2/3
    assert_allclose(r_precision(rel, num_rel=np.array([3])), [2 / 3])
    # recall@4 with R = 5: 3/5
    assert_allclose(recall(rel, k=4, num_rel=np.array([5])), [3 / 5])
    assert_allclose(score("recall.5"), 3 / 5)


def test_kernels_accept_rankings_shorter_than_k():
    rel = np.array([[1, 1]])
    assert_allclose(precision(rel, k=4), [0.5])  # 2/4
    assert_allclose(average_precision(rel, k=4, normaliser=4), [0.5])  # (1 + 1)/4
