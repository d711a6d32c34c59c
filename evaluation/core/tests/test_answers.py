"""Labelling crowd answers (thesis §3.3): ties of λ are ties, whatever the last bits."""

import math

from evaluation.core import Qrels, Run, evaluate
from evaluation.core.answers import label_answers

MEASURE = "RBP(form=user,gain=exp,scale=graded5)@5"


def test_lists_that_score_the_same_are_a_tie_and_no_preference_agrees_with_it():
    # graded5 levels (0, 0, 2, 0, 4) and (0, 0, 3, 3, 0) (Fine 50, 95 / 70, 70 with the
    # range split); exp gains 2^ℓ − 1 and p = 0.8: 3·0.8² + 15·0.8⁴ = 1.92 + 6.144 and
    # 7·0.8² + 7·0.8³ = 4.48 + 3.584, both 8.064 (by hand) — the same RBP for both lists.
    fine = {"a": [5, 5, 50, 5, 95], "b": [5, 5, 70, 70, 5]}
    qrels = {"q": {f"{name}{i}": f for name, levels in fine.items() for i, f in enumerate(levels)}}
    runs = {
        name: Run.from_dict({"q": {f"{name}{i}": 10.0 - i for i in range(5)}}, name=name)
        for name in fine
    }
    results = evaluate(Qrels.from_dict(qrels), runs, [MEASURE])
    lam_a = results.per_query("a", results.labels[0])["q"]
    lam_b = results.per_query("b", results.labels[0])["q"]
    # Equal by hand; the floating-point sums may differ in the last bit (−2.8e-17 on one
    # machine, 0 on another, by how numpy's summation is vectorised there). Labelling must
    # call both a tie, so it is given the sum and its neighbour one bit below as well.
    assert math.isclose(lam_a, lam_b, rel_tol=0, abs_tol=1e-15)
    lam_b_last_bit = math.nextafter(lam_a, 0.0)
    assert lam_b_last_bit != lam_a
    labelled = label_answers(["a_better", "b_better"], [lam_a, lam_a], [lam_b, lam_b_last_bit])
    assert labelled["deltas"].tolist() == [0.0, 0.0]
    assert labelled["agreement"].tolist() == [0, 0]  # Agr = 0 when Δλ = 0 (§3.3.2)


def test_a_real_difference_still_counts():
    labelled = label_answers(["a_better", "b_better"], [0.6, 0.6], [0.4, 0.4])
    assert labelled["agreement"].tolist() == [1, -1]
