"""Score distributions of thesis §4.2, their goodness of fit (eq. 4.7) and KS D."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats as sps

from evaluation.core.stats import (
    fit_beta,
    fit_distribution,
    fit_empirical,
    fit_normal,
    fit_recommended,
    fit_truncated_normal,
    goodness_of_fit,
    ks_distance,
    omega_squared,
    recommended_family,
)


def scores(seed=0, n=60):
    return np.random.default_rng(seed).beta(2, 5, n)


def test_the_normal_fit_uses_the_sample_mean_and_standard_deviation():
    x = scores()
    f = fit_normal(x)
    assert (f.mu, f.sigma) == pytest.approx((x.mean(), x.std(ddof=1)))
    assert f.cdf(0.3) == pytest.approx(sps.norm.cdf(0.3, x.mean(), x.std(ddof=1)))


def test_the_truncated_normal_cdf_is_the_thesis_formula():
    x = scores(1)
    f = fit_truncated_normal(x)
    mu, sd = x.mean(), x.std(ddof=1)
    # Thesis §4.2.1: Φ'(s) = (Φ((s-μ)/σ) - Φ((0-μ)/σ)) / (Φ((1-μ)/σ) - Φ((0-μ)/σ))
    Phi = sps.norm.cdf
    for s in (0.05, 0.3, 0.9):
        ref = (Phi((s - mu) / sd) - Phi(-mu / sd)) / (Phi((1 - mu) / sd) - Phi(-mu / sd))
        assert f.cdf(s) == pytest.approx(ref)
    assert f.cdf(-0.1) == 0 and f.cdf(1.1) == 1
    lo, hi = f.prediction_interval(0.99)
    assert 0 <= lo < hi <= 1


def test_the_beta_fit_uses_the_method_of_moments_when_it_can():
    x = scores(2)
    m, v = x.mean(), x.var(ddof=1)
    k = m * (1 - m) / v - 1  # thesis §4.2.1
    f = fit_beta(x)
    assert f.method == "moments"
    assert (f.alpha, f.beta) == pytest.approx((m * k, (1 - m) * k))


def test_the_beta_fit_falls_back_to_maximum_likelihood_when_the_moments_fail():
    # Scores piled at 0 and 1: sd² = 0.3 >= m(1 - m) = 0.25, no moment estimates exist.
    x = np.array([0, 0, 0, 1, 1, 1.0])
    assert x.var(ddof=1) >= x.mean() * (1 - x.mean())
    f = fit_beta(x)
    assert f.method == "ml"
    assert f.alpha < 1 and f.beta < 1  # U-shaped, as the data
    n = x.size
    ref = sps.beta.fit((x * (n - 1) + 0.5) / n, floc=0, fscale=1)
    assert (f.alpha, f.beta) == pytest.approx(ref[:2], rel=1e-6)


def test_the_empirical_quantiles_are_hyndman_fan_type_7():
    x = np.array([0.1, 0.7, 0.2, 0.4, 0.9])
    f = fit_empirical(x)
    # Type 7 by hand: h = (n - 1) p; Q = x_(floor h) + (h - floor h)(x_(floor h + 1) - x_(floor h))
    xs = np.sort(x)
    for p in (0.0, 0.1, 0.33, 0.5, 0.9, 1.0):
        h = (xs.size - 1) * p
        lo = int(np.floor(h))
        hi = min(lo + 1, xs.size - 1)
        assert f.ppf(p) == pytest.approx(xs[lo] + (h - lo) * (xs[hi] - xs[lo]))
    assert f.cdf(0.4) == 3 / 5 and f.cdf(0.05) == 0 and f.cdf(0.9) == 1


def test_omega_squared_is_eq_4_7_against_the_held_out_ecdf():
    fitted = fit_normal([0.2, 0.4, 0.6])  # μ = 0.4, σ = 0.2
    held = np.array([0.3, 0.5])
    # F(0.3) = 1/2, F(0.5) = 1; F̂ = Φ((s - 0.4)/0.2)
    ref = (0.5 - sps.norm.cdf(-0.5)) ** 2 + (1 - sps.norm.cdf(0.5)) ** 2
    assert omega_squared(fitted, held) == pytest.approx(ref)
    g = goodness_of_fit(fitted, held)
    assert g.omega == pytest.approx(np.sqrt(ref))


def test_ks_distance_matches_scipy_for_continuous_and_empirical_fits():
    x, y = scores(3, 50), scores(4, 40)
    for family in ("normal", "truncated-normal", "beta"):
        f = fit_distribution(x, family=family)
        # Reference: scipy.stats.kstest(held-out, fitted cdf).statistic
        assert ks_distance(f, y) == pytest.approx(sps.kstest(y, f.cdf).statistic)
    # Reference: the two-sample KS statistic between fitting and held-out scores
    assert ks_distance(fit_empirical(x), y) == pytest.approx(sps.ks_2samp(x, y).statistic)


def test_fitting_refuses_constant_or_out_of_range_scores():
    with pytest.raises(ValueError, match="equal"):
        fit_normal([0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fit_beta([0.5, 1.5])
    with pytest.raises(ValueError, match="unknown family"):
        fit_distribution([0.1, 0.2], family="gamma")


def test_prediction_intervals_cover_the_central_mass():
    x = scores(5, 200)
    for family in ("normal", "truncated-normal", "beta", "empirical"):
        f = fit_distribution(x, family=family)
        lo, hi = f.prediction_interval(0.9)
        assert_allclose(
            [f.cdf(lo), f.cdf(hi)], [0.05, 0.95], atol=0.01 if family == "empirical" else 1e-9
        )


@pytest.mark.parametrize(
    ("n_queries", "n_levels", "family"),
    [
        # Tables 4.4 (50 queries) and 4.5 (20): Empirical for binary and Broad scales
        (20, 2, "empirical"),
        (20, 3, "empirical"),
        (100, 3, "empirical"),
        # four and five levels: Normal at 20 queries, Empirical from 30 (§4.4)
        (20, 4, "normal"),
        (29, 5, "normal"),
        (30, 5, "empirical"),
        # Fine: Beta at 20 and 50 queries, Empirical past the sizes studied (§5.6.2)
        (20, 101, "beta"),
        (50, 101, "beta"),
        (51, 101, "empirical"),
        (100, 101, "empirical"),
        # unknown levels: Beta or Normal for small collections (§4.4), Empirical else
        (10, None, "beta"),
        (30, None, "empirical"),
    ],
)
def test_the_recommended_family_follows_thesis_section_4_2_3(n_queries, n_levels, family):
    assert recommended_family(n_queries, n_levels=n_levels) == family


def test_an_impossible_fit_falls_back_to_the_empirical_distribution():
    assert fit_recommended([0.4] * 10, n_levels=101).name == "empirical"  # Beta: sd = 0
    assert fit_recommended([0.4] * 10, n_levels=5).name == "empirical"  # Normal: sd = 0
    assert fit_recommended([0.2, 1.7, 0.4], n_levels=101).name == "empirical"  # outside [0, 1]
    with pytest.raises(ValueError, match="unknown family"):
        fit_recommended([0.2, 0.4], family="gamma")
