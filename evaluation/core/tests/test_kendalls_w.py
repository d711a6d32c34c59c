"""Kendall's W of experts' rankings, against a hand computation and scipy's Friedman test."""

import numpy as np
import pytest
from scipy import stats

from evaluation.core.ordered_groups import kendalls_w


def test_three_experts_of_three_candidates_by_hand():
    # ranks a: 1, 1, 1 (sum 3); b: 2, 2, 3 (7); c: 3, 3, 2 (8); mean sum m(n+1)/2 = 6;
    # S = 9 + 1 + 4 = 14; W = 12·14 / (3²·(3³ − 3)) = 168/216 = 7/9
    result = kendalls_w(["abc", "abc", "acb"])
    assert result.w == pytest.approx(7 / 9)
    assert (result.experts, result.candidates) == (3, 3)
    # χ² = m(n − 1)W = 3·2·7/9 = 14/3, 2 degrees of freedom: p = exp(−χ²/2)
    assert result.chi2 == pytest.approx(14 / 3)
    assert result.pvalue == pytest.approx(np.exp(-7 / 3))


def test_full_agreement_is_one_and_opposite_orders_of_two_experts_are_zero():
    assert kendalls_w(["abcd"] * 5).w == pytest.approx(1.0)
    # every rank sum is n + 1 = 5: S = 0
    assert kendalls_w(["abcd", "dcba"]).w == pytest.approx(0.0)


def test_friedmans_statistic_is_scipys_on_a_random_study():
    rng = np.random.default_rng(32)
    docs = list("abcdefgh")
    rankings = [list(rng.permutation(docs)) for _ in range(11)]
    result = kendalls_w(rankings)
    ranks = np.array([[ranking.index(doc) + 1 for doc in docs] for ranking in rankings])
    scipy_result = stats.friedmanchisquare(*ranks.T)
    assert result.chi2 == pytest.approx(scipy_result.statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(scipy_result.pvalue, rel=1e-12)
    assert result.w == pytest.approx(scipy_result.statistic / (11 * 7), rel=1e-12)


def test_nothing_to_agree_on_gives_none_and_mismatched_rankings_are_refused():
    assert kendalls_w(["abc"]) is None
    assert kendalls_w(["a", "a"]) is None
    with pytest.raises(ValueError, match="ranking 2 does not hold the same candidates"):
        kendalls_w(["abc", "abd"])
    with pytest.raises(ValueError, match="names a candidate twice"):
        kendalls_w(["aab", "aab"])
