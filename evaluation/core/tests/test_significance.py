"""Paired significance tests (thesis §5.1.2) against scipy, exact enumeration and hand values."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats as sps

from evaluation.core import _paired_kernels, significance
from evaluation.core.scores import ScoreMatrix
from evaluation.core.stats import (
    all_pairs,
    bootstrap_test,
    paired_t_test,
    permutation_test,
    sign_test,
    wilcoxon_test,
)

ALTERNATIVES = ["two-sided", "less", "greater"]


def sample(seed=0, n=40, shift=0.05):
    rng = np.random.default_rng(seed)
    x = rng.beta(2, 3, n)
    y = np.clip(x - shift + rng.normal(0, 0.1, n), 0, 1)
    return x, y


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_the_t_test_matches_scipy_ttest_rel(alternative):
    x, y = sample()
    # Reference: scipy.stats.ttest_rel(x, y, alternative=...) and its confidence_interval()
    ref = sps.ttest_rel(x, y, alternative=alternative)
    ci = ref.confidence_interval(0.95)
    r = paired_t_test(x, y, alternative=alternative)
    assert_allclose(r.statistic, ref.statistic, rtol=1e-12)
    assert_allclose(r.pvalue, ref.pvalue, rtol=1e-10)
    assert_allclose([r.ci_low, r.ci_high], [ci.low, ci.high], rtol=1e-10)
    assert_allclose(r.effect_size, np.mean(x - y) / np.std(x - y, ddof=1))


def test_the_t_test_reproduces_a_hand_computed_example():
    # d = [0.1, 0.2, 0.1, 0.0]: mean 0.1, sd 0.0816497, t = 0.1 / (0.0816497/2) = 2.4495,
    # two-sided p with 3 df = 2 * (1 - pt(2.4495, 3)) = 0.0917 (R: 2*pt(-2.4495, 3)).
    r = paired_t_test([0.5, 0.6, 0.7, 0.4], [0.4, 0.4, 0.6, 0.4])
    assert r.statistic == pytest.approx(2.449490, abs=1e-6)
    assert r.pvalue == pytest.approx(0.0917, abs=1e-4)


def test_the_wilcoxon_test_gives_the_exact_p_of_five_positive_differences():
    # All 5 differences positive: W- = 0; of the 2^5 = 32 equally likely sign patterns
    # only "all +" and "all -" are as extreme, so the exact two-sided p is 2/32.
    r = wilcoxon_test([1.5, 2.5, 3.5, 4.5, 5.5], [0.5, 0.5, 0.5, 0.5, 0.5])
    assert r.statistic == 0
    assert r.pvalue == pytest.approx(2 / 32)
    assert wilcoxon_test([1.5, 2.5, 3.5, 4.5, 5.5], [0.5] * 5, alternative="greater").pvalue == (
        pytest.approx(1 / 32)
    )


def test_the_wilcoxon_test_drops_zero_differences():
    x = [0.3, 0.5, 0.9, 0.2, 0.4, 0.7]
    y = [0.3, 0.4, 0.6, 0.2, 0.1, 0.5]  # two ties
    r = wilcoxon_test(x, y)
    ref = sps.wilcoxon([0.1, 0.3, 0.3, 0.2])  # the non-zero differences only
    assert r.pvalue == pytest.approx(ref.pvalue)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_the_sign_test_matches_scipy_binomtest(alternative):
    x, y = sample(3)
    d = x - y
    # Reference: scipy.stats.binomtest(#positive, #non-zero, 0.5, alternative=...)
    ref = sps.binomtest(int((d > 0).sum()), int((d != 0).sum()), 0.5, alternative=alternative)
    r = sign_test(x, y, alternative=alternative)
    assert r.statistic == (d > 0).sum()
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def exact_sign_flip_pvalue(d):
    """Independent reference: enumerate all 2^n sign patterns (eq. 5.5 with T = 2^n)."""
    d = np.asarray(d)
    obs = abs(d.mean())
    means = [abs(np.mean(np.array(s) * d)) for s in itertools.product([1, -1], repeat=d.size)]
    return np.mean(np.array(means) >= obs - 1e-12)


def test_the_permutation_test_converges_to_the_exact_sign_flip_p_value():
    x, y = sample(5, n=12, shift=0.06)
    exact = exact_sign_flip_pvalue(x - y)
    r = permutation_test(x, y, resamples=40_000, seed=11)
    # Monte Carlo standard error sqrt(p(1-p)/T) < 0.0025
    assert r.pvalue == pytest.approx(exact, abs=0.01)
    assert r.statistic == pytest.approx(np.mean(x - y))


def naive_bootstrap_shift_pvalue(d, T, seed):
    """Independent reference: eq. 5.4 with a Python-level loop and rng.choice."""
    rng = np.random.default_rng(seed)
    means = np.array([rng.choice(d, d.size, replace=True).mean() for _ in range(T)])
    return np.mean(np.abs(means - means.mean()) >= abs(d.mean()))


def test_the_bootstrap_test_agrees_with_a_naive_implementation_of_eq_5_4():
    x, y = sample(8, n=30, shift=0.04)
    ref = naive_bootstrap_shift_pvalue(x - y, 20_000, 1)
    r = bootstrap_test(x, y, resamples=20_000, seed=2)
    assert r.pvalue == pytest.approx(ref, abs=0.015)


def test_the_bootstrap_interval_matches_scipy_percentile_bootstrap():
    x, y = sample(9, n=50)
    # Reference: scipy.stats.bootstrap((x - y,), np.mean, method='percentile')
    ref = sps.bootstrap(
        (x - y,), np.mean, n_resamples=20_000, method="percentile", rng=np.random.default_rng(0)
    ).confidence_interval
    r = bootstrap_test(x, y, resamples=20_000, seed=4)
    assert r.ci_method == "bootstrap-percentile"
    assert_allclose([r.ci_low, r.ci_high], [ref.low, ref.high], atol=0.004)


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "bootstrap", "permutation"])
def test_identical_systems_get_p_equal_to_one(test):
    x = np.linspace(0, 1, 20)
    r = significance.paired_test(
        x, x, test=test, alternative="two-sided", confidence=0.95, resamples=2000, seed=1
    )
    assert r.pvalue == 1
    assert r.mean_difference == 0


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "bootstrap", "permutation"])
def test_all_pairs_gives_each_pair_what_the_single_pair_test_gives(test):
    rng = np.random.default_rng(4)
    X = rng.random((5, 25))
    res = all_pairs(X, test=test, resamples=3000, seed=9)
    for i, j in itertools.combinations(range(5), 2):
        one = significance.paired_test(
            X[i], X[j], test=test, alternative="two-sided", confidence=0.95, resamples=3000, seed=9
        )
        assert res.pvalue[i, j] == pytest.approx(one.pvalue, abs=1e-12)
        assert res.pvalue[j, i] == res.pvalue[i, j]
        assert res.mean_difference[j, i] == -res.mean_difference[i, j]
        assert res.ci_low[j, i] == pytest.approx(-res.ci_high[i, j])
    assert np.isnan(np.diag(res.pvalue)).all()


def test_all_pairs_t_matches_scipy_on_every_pair_of_a_score_matrix():
    rng = np.random.default_rng(5)
    m = ScoreMatrix("AP@5", ("a", "b", "c"), tuple(f"q{i}" for i in range(30)), rng.random((3, 30)))
    res = all_pairs(m, test="t")
    for a, b, r in res.pairs():
        ref = sps.ttest_rel(m.row(a), m.row(b))
        assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert r.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.result("c", "a").statistic == pytest.approx(-res.result("a", "c").statistic)


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_one_sided_all_pairs_tests_each_ordered_pair(alternative):
    rng = np.random.default_rng(6)
    X = rng.random((4, 30))
    res = all_pairs(X, test="permutation", alternative=alternative, resamples=4000, seed=3)
    for i, j in itertools.permutations(range(4), 2):
        one = permutation_test(X[i], X[j], alternative=alternative, resamples=4000, seed=3)
        assert res.pvalue[i, j] == pytest.approx(one.pvalue, abs=1e-12)
    t = all_pairs(X, test="t", alternative=alternative)
    assert_allclose(
        t.pvalue[0, 1], sps.ttest_rel(X[0], X[1], alternative=alternative).pvalue, rtol=1e-10
    )


def test_results_do_not_depend_on_how_pairs_are_blocked_to_bound_memory(monkeypatch):
    rng = np.random.default_rng(7)
    X = rng.random((6, 40))
    whole = all_pairs(X, test="bootstrap", resamples=5000, seed=5)
    # Force blocks of 2 pairs and chunks of 1000 numbers (25 resamples per chunk)
    monkeypatch.setattr(_paired_kernels, "_NULL_BYTES", 8 * 5000 * 2)
    blocked = all_pairs(X, test="bootstrap", resamples=5000, seed=5)
    assert_allclose(blocked.pvalue, whole.pvalue, atol=1e-12)
    assert_allclose(blocked.ci_low, whole.ci_low, atol=1e-12)


def test_a_seed_makes_resampling_tests_reproducible_and_different_seeds_differ():
    x, y = sample(10, n=30, shift=0.03)
    a = permutation_test(x, y, resamples=5000, seed=1).pvalue
    assert permutation_test(x, y, resamples=5000, seed=1).pvalue == a
    assert permutation_test(x, y, resamples=5000, seed=np.random.default_rng(1)).pvalue >= 0
    assert any(permutation_test(x, y, resamples=5000, seed=s).pvalue != a for s in (2, 3, 4))


def test_bad_arguments_are_rejected_with_clear_messages():
    with pytest.raises(ValueError, match="alternative"):
        paired_t_test([1, 2, 3], [1, 2, 4], alternative="bigger")
    with pytest.raises(ValueError, match="equal length"):
        paired_t_test([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="unknown test"):
        all_pairs(np.zeros((2, 3)), test="z")
    with pytest.raises(ValueError, match="at least 2 systems"):
        all_pairs(np.zeros((1, 3)))


# ----------------------------------------------------------------- properties

scores = st.lists(st.floats(0, 1, allow_nan=False), min_size=3, max_size=30)


@settings(max_examples=40, deadline=None)
@given(scores, st.randoms(use_true_random=False), st.sampled_from(ALTERNATIVES))
def test_every_test_returns_p_values_in_the_unit_interval(x, random, alternative):
    x = np.array(x)
    y = np.array([random.random() for _ in x])
    for test in significance.TESTS:
        r = significance.paired_test(
            x, y, test=test, alternative=alternative, confidence=0.95, resamples=500, seed=1
        )
        assert 0 <= r.pvalue <= 1, (test, r)


@settings(max_examples=40, deadline=None)
@given(
    # no subnormals: 5e-324 * 0.5 rounds to 0, which changes the sign, not just the magnitude
    st.lists(st.floats(-1, 1, allow_nan=False, allow_subnormal=False), min_size=3, max_size=40),
    st.data(),
)
def test_the_sign_test_ignores_magnitudes(d, data):
    d = np.array(d)
    factors = np.array(data.draw(st.lists(st.floats(0.01, 100), min_size=d.size, max_size=d.size)))
    y = np.zeros_like(d)
    assert sign_test(d, y).pvalue == sign_test(d * factors, y).pvalue


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_permutation_and_bootstrap_p_values_converge_to_the_t_test_on_normal_data(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.5, 0.2, 200)
    y = x + rng.normal(0.03, 0.2, 200)
    t = paired_t_test(x, y).pvalue
    assert permutation_test(x, y, resamples=20_000, seed=seed).pvalue == pytest.approx(t, abs=0.02)
    assert bootstrap_test(x, y, resamples=20_000, seed=seed).pvalue == pytest.approx(t, abs=0.02)
