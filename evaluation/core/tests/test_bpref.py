"""bpref (trec_eval), bpref-10 and bpref* (Serra 2007) on a small judged ranking."""

from numpy.testing import assert_allclose

from evaluation.core import Qrels, Run, evaluate
from evaluation.core.measures import bpref_star, normalized_lift_curve

# ranking a(2) x(unjudged) n1(0) b(1) n2(0) c(2); also judged: d=1, n3=0, u=-1 (pool,
# unjudged). R = 4 (a, b, c, d), N = 3 judged non-relevant (n1, n2, n3).
QRELS = Qrels.from_records(
    [
        ("q", d, r)
        for d, r in {"a": 2, "b": 1, "c": 2, "d": 1, "n1": 0, "n2": 0, "n3": 0, "u": -1}.items()
    ]
)
RUN = Run.from_ranked_lists({"q": ["a", "x", "n1", "b", "u", "n2", "c"]}, name="A")


def score(name):
    return evaluate(QRELS, RUN, [name]).mean("A", name)


def test_bpref_penalises_judged_nonrelevant_documents_above_each_relevant_one():
    # non-relevant above a, b, c: 0, 1, 2; min(R, N) = 3
    # (1 + (1 - 1/3) + (1 - 2/3)) / 4 = 0.5
    assert_allclose(score("bpref"), (1 + 2 / 3 + 1 / 3) / 4)


def test_bpref_10_caps_the_penalty_at_10_plus_r():
    # (1 + (1 - 1/14) + (1 - 2/14)) / 4
    assert_allclose(score("bpref10"), (3 - 3 / 14) / 4)


def test_bpref_star_divides_by_answer_length_plus_r():
    # Serra eq. (1), |A| = 7, |R_q| = 4: (1 + (1 - 1/11) + (1 - 2/11)) / 4
    assert_allclose(score("bpref_star"), (3 - 3 / 11) / 4)


def test_bpref_star_on_serras_answer_a1():
    # Serra Table 1, A_1: its only cover (|R_q| = 1) at rank 4 of |A| = 14, every song
    # labelled, so 3 judged non-relevant above it: 1 - 3 / (14 + 1) = 0.8
    relevant = [[0, 0, 0, 1] + [0] * 10]
    judged = [[1] * 14]
    assert_allclose(bpref_star(relevant, judged, num_rel=[1], answer_length=[14]), [0.8])


def test_normalized_lift_curve_of_serras_answer_a2():
    # Serra Table 1, A_2: covers at ranks 1, 2, 3, 5 of 14, |R_q| = 7
    relevant = [[1, 1, 1, 0, 1] + [0] * 9]
    x, y = normalized_lift_curve(relevant, num_rel=[7])
    assert_allclose(x[[0, 5, 14]], [0, 5 / 14, 1])
    assert_allclose(y[0, [0, 1, 3, 5, 14]], [0, 1 / 7, 3 / 7, 4 / 7, 4 / 7])
