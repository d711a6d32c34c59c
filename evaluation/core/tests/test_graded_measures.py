"""Q@k, ERR@k, EDCG@k, GAP@k in both forms on the worked example (lin gain, top 2)."""

from numpy.testing import assert_allclose

from evaluation.core import evaluate
from evaluation.core.measures import (
    expected_dcg,
    expected_reciprocal_rank,
    graded_average_precision,
    q_measure,
)
from evaluation.core.tests import worked_example as ex


def score(name):
    return evaluate(ex.qrels(), ex.run(), [name]).mean("A", name)


def test_q_measure_user_form():
    # eq. (3.5), β = 1; relevant at 1, 3, 4; cumulative relevant 1,1,2,3; cumulative
    # gain 2,2,3,5; ideal ⟨2,...⟩ cumulative 2,4,6,8 so denominators i + cg_I = 3,6,9,12
    # (3/3 + 5/9 + 8/12) / 5 = 2.22222 / 5
    expected = (3 / 3 + 5 / 9 + 8 / 12) / 5
    assert_allclose(q_measure(ex.LEVELS, k=5, ideal_gains=ex.IDEAL_USER), [expected])
    assert_allclose(score("Q(form=user)@5"), expected)


def test_q_measure_system_form():
    # eq. (5.7): ideal ⟨2,2,2,1,1⟩ cumulative 2,4,6,7 → denominators 3,6,9,11;
    # (3/3 + 5/9 + 8/11) / min(5, 5)
    assert_allclose(score("Q@5"), (1 + 5 / 9 + 8 / 11) / 5)
    assert_allclose(score("Q(beta=1)@5"), (1 + 5 / 9 + 8 / 11) / 5)


# p_d = g / (g_max + 1) = g / 3: A → ⟨2/3, 0, 1/3, 2/3, 0⟩
# P(stop at i): 2/3, 0, (1/3)(1/3) = 1/9, (2/3)(1/3)(2/3) = 4/27, 0
STOP_A = [2 / 3, 0, 1 / 9, 4 / 27, 0]
# user ideal, p' = 2/3 at every rank: 2/3, 2/9, 2/27, 2/81, 2/243
STOP_USER = [2 / 3, 2 / 9, 2 / 27, 2 / 81, 2 / 243]
# system ideal ⟨2,2,2,1,1⟩: 2/3, 2/9, 2/27, (1/3)(1/27) = 1/81, (1/3)(1/27)(2/3) = 2/243
STOP_SYSTEM = [2 / 3, 2 / 9, 2 / 27, 1 / 81, 2 / 243]


def _err(stops):
    return sum(s / i for i, s in enumerate(stops, start=1))


def test_err_user_form():
    # eq. (3.7): 0.740741 / 0.810288 = 0.91417
    expected = _err(STOP_A) / _err(STOP_USER)
    assert_allclose(
        expected_reciprocal_rank(ex.LEVELS, k=5, max_gain=2, ideal_gains=ex.IDEAL_USER), [expected]
    )
    assert_allclose(score("ERR(form=user)@5"), expected)


def test_err_system_form():
    # the ideal ranking of the judgments replaces ⟨2,...,2⟩: 0.740741 / 0.807202
    assert_allclose(score("ERR@5"), _err(STOP_A) / _err(STOP_SYSTEM))


def test_edcg_both_forms():
    # eq. (3.10): Σ g·P(stop) = 2(2/3) + 1(1/9) + 2(4/27) = 1.740741
    actual = 2 * 2 / 3 + 1 / 9 + 2 * 4 / 27
    user = 2 * sum(STOP_USER)  # 1.991770
    system = sum(g * s for g, s in zip([2, 2, 2, 1, 1], STOP_SYSTEM, strict=True))  # 1.946502
    assert_allclose(
        expected_dcg(ex.LEVELS, k=5, max_gain=2, ideal_gains=ex.IDEAL_USER), [actual / user]
    )
    assert_allclose(score("EDCG(form=user)@5"), actual / user)
    assert_allclose(score("EDCG@5"), actual / system)


# GAP, p_1 = p_2 = 1/2. E[P@i] at relevant ranks of ⟨2,0,1,2,0⟩:
# i=1 (r=2): (p1·1 + p2·1)/1 = 1; i=3 (r=1): p1·2/3 = 1/3; i=4 (r=2): (p1·3 + p2·2)/4 = 0.625
GAP_SUM = 1 + 1 / 3 + 0.625


def test_gap_user_form_divides_by_k():
    # eq. (3.8): 1.958333 / 5
    assert_allclose(
        graded_average_precision(ex.LEVELS, k=5, ideal_levels=ex.IDEAL_USER, top_level=2),
        [GAP_SUM / 5],
    )
    assert_allclose(score("GAP(form=user)@5"), GAP_SUM / 5)


def test_gap_system_form_divides_by_what_the_ideal_top_k_can_collect():
    # eq. (5.9): ideal ⟨2,2,2,1,1⟩ collects 1 + 1 + 1 + 1/2 + 1/2 = 4
    assert_allclose(score("GAP@5"), GAP_SUM / 4)


def test_gap_with_a_binary_scale_is_average_precision():
    # thesis §3.1.2: GAP@5 with a binary scale equals AP@5
    assert_allclose(score("GAP(rel=1,form=user)@5"), score("AP(form=user)@5"))
