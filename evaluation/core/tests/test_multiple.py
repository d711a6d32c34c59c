"""Friedman, two-way ANOVA, Tukey HSD (classic and randomised), Holm and Bonferroni."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats as sps

from evaluation.core.stats import (
    adjust_pvalues,
    anova_two_way,
    friedman_test,
    paired_t_test,
    permutation_test,
    randomised_tukey_hsd,
    tukey_hsd,
)


def matrix(seed=0, k=4, n=30):
    rng = np.random.default_rng(seed)
    return rng.random((k, 1)) * 0.3 + rng.random((1, n)) * 0.5 + rng.normal(0, 0.1, (k, n))


def test_friedman_matches_the_textbook_formula_without_ties():
    X = matrix(1)
    k, n = X.shape
    # Reference (no ties in continuous data): chi2 = 12/(n k (k+1)) sum R_i^2 - 3 n (k+1)
    ranks = np.argsort(np.argsort(X, axis=0), axis=0) + 1
    R = ranks.sum(axis=1)
    chi2 = 12 / (n * k * (k + 1)) * (R**2).sum() - 3 * n * (k + 1)
    r = friedman_test(X)
    assert r.statistic == pytest.approx(chi2)
    assert r.pvalue == pytest.approx(sps.chi2.sf(chi2, k - 1))
    assert r.df == k - 1


def test_the_anova_matches_a_least_squares_fit_of_the_additive_model():
    X = matrix(2)
    k, n = X.shape
    # Reference: residual SS of the regression on system and query dummies, and the
    # extra SS of each factor (independent of the closed-form sums of squares).
    y = X.ravel()
    S = np.kron(np.eye(k), np.ones((n, 1)))
    Q = np.kron(np.ones((k, 1)), np.eye(n))

    def rss(design):
        beta, *_ = np.linalg.lstsq(design, y, rcond=None)
        return ((y - design @ beta) ** 2).sum()

    rss_full = rss(np.hstack([S, Q]))
    a = anova_two_way(X)
    assert a.residual.ss == pytest.approx(rss_full)
    assert a.systems.ss == pytest.approx(rss(Q) - rss_full)
    assert a.queries.ss == pytest.approx(rss(S) - rss_full)
    assert (a.systems.df, a.queries.df, a.residual.df) == (k - 1, n - 1, (k - 1) * (n - 1))
    f = (a.systems.ss / (k - 1)) / (rss_full / ((k - 1) * (n - 1)))
    assert a.systems.f == pytest.approx(f)
    assert a.systems.pvalue == pytest.approx(sps.f.sf(f, k - 1, (k - 1) * (n - 1)))


def test_tukey_hsd_with_two_systems_is_the_paired_t_test():
    # With k = 2, MS_e = var(d)/2, so q = sqrt(2)|t| and P(Q_{2,df} >= q) = P(|T_df| >= |t|):
    # the HSD p-value equals scipy.stats.ttest_rel's.
    X = matrix(3, k=2, n=25)
    h = tukey_hsd(X)
    assert h.pvalue[0, 1] == pytest.approx(sps.ttest_rel(X[0], X[1]).pvalue, rel=1e-6)
    ci = paired_t_test(X[0], X[1])
    assert [h.ci_low[0, 1], h.ci_high[0, 1]] == pytest.approx([ci.ci_low, ci.ci_high], rel=1e-6)


def test_tukey_hsd_is_more_conservative_than_unadjusted_tests():
    X = matrix(4, k=6)
    h = tukey_hsd(X)
    assert np.allclose(h.pvalue, h.pvalue.T, equal_nan=True)
    a = anova_two_way(X)
    se = np.sqrt(a.residual.ms / X.shape[1])
    d = X[0].mean() - X[1].mean()
    unadjusted = 2 * sps.t.sf(abs(d) / (se * np.sqrt(2)), a.residual.df)
    assert h.pvalue[0, 1] > unadjusted


def test_randomised_tukey_hsd_with_two_systems_is_the_permutation_test():
    # Permuting two systems' scores within a query is flipping the sign of the difference.
    X = matrix(5, k=2, n=30)
    r = randomised_tukey_hsd(X, resamples=20_000, seed=1)
    p = permutation_test(X[0], X[1], resamples=20_000, seed=2).pvalue
    assert r.pvalue[0, 1] == pytest.approx(p, abs=0.015)


def test_randomised_tukey_hsd_agrees_with_the_classic_one_on_normal_data_near_the_null():
    # Near H0 (small system effects) the permutation null of the range of means matches
    # the studentized range; with large system effects the randomised test is more
    # conservative, because permuting within queries mixes those effects into the null.
    rng = np.random.default_rng(6)
    X = rng.normal(0, 0.03, (5, 1)) + rng.random((1, 40)) * 0.5 + rng.normal(0, 0.1, (5, 40))
    r = randomised_tukey_hsd(X, resamples=5000, seed=3)
    h = tukey_hsd(X)
    iu = np.triu_indices(5, 1)
    assert_allclose(r.pvalue[iu], h.pvalue[iu], atol=0.05)
    assert r.resamples == 5000


def test_holm_and_bonferroni_adjust_a_hand_worked_family():
    # m = 4; sorted p = .005, .01, .03, .04 -> Holm steps 4*.005, 3*.01, 2*.03, 1*.04
    # = .02, .03, .06, .04 -> running maximum .02, .03, .06, .06.
    p = [0.01, 0.04, 0.03, 0.005]
    assert_allclose(adjust_pvalues(p, method="holm"), [0.03, 0.06, 0.06, 0.02])
    assert_allclose(adjust_pvalues(p, method="bonferroni"), [0.04, 0.16, 0.12, 0.02])
    assert_allclose(adjust_pvalues(p, method="none"), p)
    assert_allclose(adjust_pvalues([0.3, 0.5], method="bonferroni"), [0.6, 1.0])
    with pytest.raises(ValueError, match="unknown adjustment"):
        adjust_pvalues(p, method="fdr")


def test_pairwise_comparisons_adjust_over_the_family_of_pairs():
    from evaluation.core.stats import all_pairs

    X = matrix(7, k=4)
    res = all_pairs(X, test="t")
    adj = res.adjusted_pvalues("bonferroni")
    assert adj[0, 1] == pytest.approx(min(1, 6 * res.pvalue[0, 1]))
    assert adj[1, 0] == adj[0, 1]
