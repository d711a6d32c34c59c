"""The rank-sum test of experts' ranks against scipy, an independent implementation."""

import pytest

from evaluation.core.ordered_groups import rank_sum_pvalue


def test_small_samples_without_ties_use_the_exact_distribution():
    # By hand: of the C(6, 3) = 20 orders of {1..6}, one puts x = {1, 2, 3} lowest
    # (U = 9, the maximum), so P(U >= 9) = 1/20 and p = 2/20 = 0.1.
    # scipy.stats.mannwhitneyu([1, 2, 3], [4, 5, 6]).pvalue == 0.1
    assert rank_sum_pvalue([1, 2, 3], [4, 5, 6]) == pytest.approx(0.1)
    # U = 4.5 is the centre of 0..9: p capped at 1 (scipy: 1.0)
    assert rank_sum_pvalue([1, 4, 5], [2, 3, 6]) == 1.0


@pytest.mark.parametrize(
    ("x", "y", "scipy_p"),
    [
        # scipy.stats.mannwhitneyu(x, y, alternative="two-sided").pvalue (scipy 1.17.1):
        # ties → the normal approximation with tie and continuity corrections
        ([1] * 31, [2] * 16 + [3] * 15, 1.8902560756481453e-13),
        ([2] * 16 + [3] * 15, [3] * 16 + [2] * 15, 0.8073730747275402),
        ([1, 2, 2, 3], [2, 3, 3, 4, 4], 0.09783166898477647),
        # no ties but both longer than 8: the approximation too
        (list(range(1, 20, 2)), list(range(2, 21, 2)), 0.7337299956962472),
        # no ties, one sample of 3: exact
        ([1.5, 7, 9], [2, 3, 4, 5, 6, 8, 10, 11, 12], 0.7272727272727273),
    ],
)
def test_it_agrees_with_scipy(x, y, scipy_p):
    assert rank_sum_pvalue(x, y) == pytest.approx(scipy_p, rel=1e-12, abs=1e-15)


def test_every_value_tied_is_no_evidence_of_a_difference():
    # the variance is 0: scipy gives 1.0 as well
    assert rank_sum_pvalue([2, 2, 2], [2, 2]) == 1.0


def test_an_empty_sample_is_refused():
    with pytest.raises(ValueError, match="at least one value"):
        rank_sum_pvalue([], [1, 2])
