"""Average dynamic recall: Typke et al.'s (2006) worked examples and both thesis forms."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from evaluation.core import evaluate
from evaluation.core.measures import average_dynamic_recall, average_dynamic_recall_groups
from evaluation.core.tests import worked_example as ex
from evaluation.core.trec import Qrels, Run

GROUND_TRUTH = [(1, 2), (3, 4, 5)]


def test_typkes_first_example_scores_0_86():
    # Typke et al. 2006, §3: recalls 1, 0.5, 1, 1, 0.8 → 4.3 / 5 = 0.86
    ranking = [2, 3, 1, 5, 7, 8, 9, 4]
    assert average_dynamic_recall_groups(ranking, GROUND_TRUTH) == pytest.approx(0.86)


def test_typkes_second_example_with_a_false_positive_scores_0_7433():
    # recalls 1, 1/2, 2/3, 3/4, 4/5 → 3.71667 / 5 = 0.74333 (the paper prints 0.7433)
    ranking = [2, 10, 3, 1, 5, 7, 8, 9, 4]
    assert average_dynamic_recall_groups(ranking, GROUND_TRUTH) == pytest.approx(0.7433, abs=5e-5)


def test_order_inside_a_group_does_not_matter():
    assert average_dynamic_recall_groups([1, 2, 5, 4, 3], GROUND_TRUTH) == 1.0
    assert average_dynamic_recall_groups([2, 1, 3, 4, 5], GROUND_TRUTH) == 1.0


def test_user_form_counts_only_documents_of_maximal_relevance():
    # eq. (3.9), ⟨2,0,1,2,0⟩: level-2 documents in the top i: 1,1,1,2,2
    # (1/1 + 1/2 + 1/3 + 2/4 + 2/5) / 5 = 0.54667
    expected = (1 + 1 / 2 + 1 / 3 + 2 / 4 + 2 / 5) / 5
    assert_allclose(average_dynamic_recall(ex.LEVELS, k=5, ideal_levels=ex.IDEAL_USER), [expected])
    assert_allclose(
        evaluate(ex.qrels(), ex.run(), ["ADR(form=user)@5"]).mean("A", "ADR(form=user)@5"),
        expected,
    )


def test_system_form_grows_the_relevant_set_with_the_ideal_ranking():
    # eq. (2.17), thresholds r_I = 2,2,2,1,1: counts 1,1,1,3,3
    # (1/1 + 1/2 + 1/3 + 3/4 + 3/5) / 5 = 0.63667
    expected = (1 + 1 / 2 + 1 / 3 + 3 / 4 + 3 / 5) / 5
    assert_allclose(evaluate(ex.qrels(), ex.run(), ["ADR@5"]).mean("A", "ADR@5"), expected)


def test_past_the_ground_truth_only_ground_truth_items_count():
    # Typke et al. 2006 §3: the relevant set only ever holds ground-truth items. Five
    # non-relevant documents with one relevant document judged (k = 5 > |R>0| = 1):
    # ideal ⟨1,0,0,0,0⟩, none of the retrieved is in the ground truth → 0 at every rank
    # (read literally, eq. 2.17 counted every document once r_I = 0: 4/5 = 0.8)
    levels = np.zeros((1, 5))
    assert_allclose(
        average_dynamic_recall(levels, k=5, ideal_levels=np.array([[1.0, 0, 0, 0, 0]])), [0.0]
    )
    qrels = Qrels.from_records([("q", "rel", 1)] + [("q", f"n{i}", 0) for i in range(5)])
    run = Run.from_ranked_lists({"q": [f"n{i}" for i in range(5)]}, name="s")
    assert evaluate(qrels, run, ["ADR@5"]).mean("s", "ADR@5") == 0.0


def test_typkes_first_example_past_the_ground_truth():
    # ⟨2,3,1,5,7,8,9,4⟩ against ⟨(1,2),(3,4,5)⟩ at k = 8 > n = 5: ranks 1–5 as in the
    # paper (1, 0.5, 1, 1, 0.8); then the relevant set is all five items: found 4, 4, 5
    # → 4/6, 4/7, 5/8 (not 1, 1, 1 as when every retrieved document counted)
    ranking = [2, 3, 1, 5, 7, 8, 9, 4]
    expected = (1 + 0.5 + 1 + 1 + 0.8 + 4 / 6 + 4 / 7 + 5 / 8) / 8
    assert average_dynamic_recall_groups(ranking, GROUND_TRUTH, k=8) == pytest.approx(expected)


def test_a_relevant_document_past_the_ideal_still_counts():
    # judged: a (2), b (1); run ⟨x, b, a, y, z⟩ with x, y, z not relevant, k = 5:
    # thresholds 2, 1, 0, 0, 0; found 0, 1, 2, 2, 2 → (0 + 1/2 + 2/3 + 2/4 + 2/5) / 5
    levels = np.array([[0.0, 1.0, 2.0, 0.0, 0.0]])
    ideal = np.array([[2.0, 1.0, 0.0, 0.0, 0.0]])
    expected = (0 + 1 / 2 + 2 / 3 + 2 / 4 + 2 / 5) / 5
    assert_allclose(average_dynamic_recall(levels, k=5, ideal_levels=ideal), [expected])


def test_without_a_cut_off_adr_averages_over_the_n_items_of_each_querys_ground_truth():
    # Typke et al. 2006, §3: "the average recall over the first n documents, where n is
    # the number of items in the ground truth". Query 1: Typke's example, n = 5 → 0.86;
    # query 2: ⟨(x), (y)⟩ and the list ⟨y, x⟩, n = 2: r_1 = 0/1 (x not yet found),
    # r_2 = 2/2 → 0.5. A query with no ground truth in the qrels is not scored.
    qrels = Qrels.from_records(
        [("1", d, 2 if d in (1, 2) else 1) for d in (1, 2, 3, 4, 5)]
        + [("2", "x", 2), ("2", "y", 1)]
    )
    run = Run.from_ranked_lists(
        {"1": [str(d) for d in (2, 3, 1, 5, 7, 8, 9, 4)], "2": ["y", "x"]}, name="s"
    )
    results = evaluate(qrels, run, ["ADR"])
    assert results.mean("s", "ADR") == pytest.approx((0.86 + 0.5) / 2)


def test_the_user_form_without_a_cut_off_is_refused():
    with pytest.raises(ValueError, match=r"ADR\(form=user\) needs a cut-off"):
        evaluate(ex.qrels(), ex.run(), ["ADR(form=user)"])
