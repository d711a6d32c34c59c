"""Intervals and the thesis-style reports (thesis §4.1.3, §5.6.2)."""

import numpy as np
import pytest
from scipy import stats as sps

from evaluation.core.stats import (
    CubicMapping,
    Interval,
    format_difference,
    format_estimate,
    format_pvalue,
    format_satisfaction_floor,
    mean_ci,
    mean_difference_ci,
    prediction_interval,
    satisfaction_floor,
    score_prediction_interval,
)


def with_moments(mean, sd, n, seed=0):
    """A sample of size n with exactly this mean and sample standard deviation."""
    z = np.random.default_rng(seed).normal(size=n)
    z = (z - z.mean()) / z.std(ddof=1)
    return mean + sd * z


def test_the_thesis_interval_example_for_mean_p_sat():
    # Thesis §4.1.3: P(Sat) of CL1 (MIREX 2009): mean 0.3526, sd 0.2187, n = 100,
    # 0.3526 ± 1.9842 · 0.2187/10 = [0.3092, 0.3960].
    ci = mean_ci(with_moments(0.3526, 0.2187, 100))
    assert sps.t.ppf(0.975, 99) == pytest.approx(1.9842, abs=5e-5)
    assert ci.margin == pytest.approx(1.9842 * 0.2187 / 10, abs=5e-6)
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.3092, 0.3960)


def test_the_thesis_interval_example_for_cg_and_its_report():
    # Thesis §4.1.3 and §5.6.2: CG_l@5 of CL1, mean 0.2525, sd 0.2557 -> [0.2018, 0.3033],
    # reported as "CG_l@5 = 0.2525 ± 0.0507".
    ci = mean_ci(with_moments(0.2525, 0.2557, 100))
    # The thesis computed from unrounded mean and sd: 0.2525 + 1.9842·0.02557 = 0.30324
    # here, 0.3033 there; agreement to the 4th decimal ± 1.
    assert ci.low == pytest.approx(0.2018, abs=1.5e-4)
    assert ci.high == pytest.approx(0.3033, abs=1.5e-4)
    assert format_estimate("CG_l@5", ci) == "CG_l@5 = 0.2525 ± 0.0507"


def test_differences_are_reported_with_their_actual_p_value():
    ci = Interval(0.0371, 0.0057, 0.0685, 0.0314, 0.95, 0.1, 100)
    assert format_difference("CG_l@5", ci, 0.024) == "ΔCG_l@5 = 0.0371 ± 0.0314 (p=0.024)"
    assert format_pvalue(0.00011) == "p=0.00011"
    assert format_pvalue(0.0721) == "p=0.072"
    assert format_pvalue(0.0, resamples=10_000) == "p<0.0001"
    with pytest.raises(ValueError):
        format_pvalue(1.5)


def test_the_mean_difference_interval_matches_scipy_ttest_rel():
    rng = np.random.default_rng(1)
    x, y = rng.random(30), rng.random(30)
    ref = sps.ttest_rel(x, y).confidence_interval(0.9)
    ci = mean_difference_ci(x, y, confidence=0.9)
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high))


def test_the_prediction_interval_is_wider_by_sqrt_of_n_plus_one():
    x = np.random.default_rng(2).random(25)
    p = prediction_interval(x)
    c = mean_ci(x)
    # margin_pred / margin_ci = sqrt(1 + 1/n) / sqrt(1/n) = sqrt(n + 1)
    assert p.margin / c.margin == pytest.approx(np.sqrt(26))
    assert p.estimate == c.estimate


def test_intervals_need_two_finite_observations():
    with pytest.raises(ValueError, match="at least 2"):
        mean_ci([0.5])
    with pytest.raises(ValueError, match="NaN"):
        mean_ci([0.5, np.nan])


def type7(x, p):
    """Hyndman–Fan type 7 by hand: h = (n − 1)p, interpolate x_(⌊h⌋) and x_(⌊h⌋+1)."""
    x = sorted(x)
    h = (len(x) - 1) * p
    lo = int(np.floor(h))
    hi = min(lo + 1, len(x) - 1)
    return x[lo] + (h - lo) * (x[hi] - x[lo])


def test_mirex_2011_prediction_intervals_stay_in_0_1_with_the_empirical_distribution(
    mirex2011_cg_l5_fine,
):
    # CG_l@5 with Fine judgments, 100 queries per system (scores computed from the
    # files in conftest). The t-based interval of eq. (4.6) with √(1 + 1/n) leaves
    # [0, 1]: best system [0.166, 1.007], worst [−0.104, 0.711]. With 100 queries §4.2.3
    # recommends the Empirical distribution: the 2.5 % and 97.5 % type-7 quantiles.
    _, _, X = mirex2011_cg_l5_fine
    means = X.mean(axis=1)
    best, worst = X[np.argmax(means)], X[np.argmin(means)]
    t_best, t_worst = prediction_interval(best), prediction_interval(worst)
    assert (round(t_best.low, 3), round(t_best.high, 3)) == (0.166, 1.007)
    assert (round(t_worst.low, 3), round(t_worst.high, 3)) == (-0.104, 0.711)
    for scores in X:
        p = score_prediction_interval(scores, n_levels=101)
        assert p.family == "empirical" and p.n == 100
        assert p.low == pytest.approx(type7(scores, 0.025), abs=1e-12)
        assert p.high == pytest.approx(type7(scores, 0.975), abs=1e-12)
        assert 0 <= p.low <= p.high <= 1
    # best [0.1104, 0.90105], worst [0.00475, 0.7341]
    best_p, worst_p = (score_prediction_interval(s, n_levels=101) for s in (best, worst))
    assert (best_p.low, best_p.high) == pytest.approx((0.1104, 0.90105), abs=1e-6)
    assert (worst_p.low, worst_p.high) == pytest.approx((0.00475, 0.7341), abs=1e-6)


def test_a_small_collection_uses_the_normal_censored_to_0_1_or_the_beta():
    # 20 queries with five levels: Normal(mean, sd) quantiles; this sample's lower one is
    # negative, and a score cannot be, so it is censored at 0
    x = np.array([0.0] * 8 + [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 0.95])
    p = score_prediction_interval(x, n_levels=5)
    z = sps.norm.ppf(0.975)
    m, s = x.mean(), x.std(ddof=1)
    assert p.family == "normal"
    assert m - z * s < 0 and p.low == 0
    assert p.high == pytest.approx(min(1.0, m + z * s))
    # 20 queries on the Fine scale: Beta by moments, α = m(m(1 − m)/s² − 1), β likewise
    y = np.random.default_rng(2).beta(2, 3, 20)
    m, v = y.mean(), y.var(ddof=1)
    k = m * (1 - m) / v - 1
    q = score_prediction_interval(y, n_levels=101, confidence=0.9)
    assert q.family == "beta"
    assert (q.low, q.high) == pytest.approx(sps.beta.ppf([0.05, 0.95], m * k, (1 - m) * k))


def test_scores_outside_0_1_are_not_censored():
    x = np.linspace(-3, 3, 20)
    p = score_prediction_interval(x, family="normal")
    m, s = x.mean(), x.std(ddof=1)
    assert (p.low, p.high) == pytest.approx(sps.norm.ppf([0.025, 0.975], m, s))


def test_the_satisfaction_floor_is_the_empirical_quantile_of_p_sat_for_large_collections(
    mirex2011_cg_l5_fine,
):
    # §5.6.2: "using the Empirical distribution of P(Sat) scores, we may report that 95%
    # of the future observations are expected to yield P(Sat) > x": x is the type-7 5 %
    # quantile of the per-query P(Sat) = sat(λ) (Table 4.3 mapping of CG_l@5, Fine;
    # 100 queries → Empirical)
    _, _, X = mirex2011_cg_l5_fine
    sat = CubicMapping(0.2007, -0.4632, 3.6754, -2.6338)
    for scores in X:
        floor = satisfaction_floor(scores, sat, n_levels=101)
        assert floor.family == "empirical" and floor.coverage == 0.95
        psat = [min(1.0, max(0.0, float(sat(s)))) for s in scores]
        assert floor.value == pytest.approx(type7(psat, 0.05), abs=1e-12)
    best = X[np.argmax(X.mean(axis=1))]
    text = format_satisfaction_floor(satisfaction_floor(best, sat, n_levels=101))
    assert text == "95% of future queries are expected to get P(Sat) > 0.28"


def test_with_a_fitted_distribution_the_floor_is_a_quantile_of_the_mapped_distribution():
    # 20 queries, Fine → Beta(a, b) by moments; P(Sat) = sat(Λ). Increasing mapping
    # sat(λ) = λ²: the 5 % quantile is Q_Beta(0.05)². Decreasing sat(λ) = 1 − λ: it is
    # 1 − Q_Beta(0.95). A hump 4λ(1 − λ), lowest at both ends: P(4Λ(1 − Λ) ≤ s) is the
    # Beta mass below u(s) plus above 1 − u(s), u(s) = (1 − √(1 − s))/2; solved here by
    # bisection. The 4000-cell grid is good to ~3e-4 here.
    y = np.random.default_rng(5).beta(2, 2, 20)
    m, v = y.mean(), y.var(ddof=1)
    k = m * (1 - m) / v - 1
    beta = sps.beta(m * k, (1 - m) * k)

    def floor(sat):
        f = satisfaction_floor(y, sat, n_levels=101)
        assert f.family == "beta"
        return f.value

    assert floor(lambda s: s**2) == pytest.approx(beta.ppf(0.05) ** 2, abs=1e-3)
    assert floor(lambda s: 1 - s) == pytest.approx(1 - beta.ppf(0.95), abs=1e-3)
    lo, hi = 0.0, 1.0
    for _ in range(60):
        s = (lo + hi) / 2
        u = (1 - np.sqrt(1 - s)) / 2
        lo, hi = (s, hi) if beta.cdf(u) + beta.sf(1 - u) < 0.05 else (lo, s)
    assert floor(lambda s: 4 * s * (1 - s)) == pytest.approx(lo, abs=1e-3)


def test_the_floor_of_a_censored_normal_is_0_when_over_5_percent_of_it_is_below_0():
    # 20 queries with five levels → Normal(m, s); identity mapping. With m = 0.5,
    # s = 0.2 the 5 % quantile m − 1.645·s = 0.171 is inside [0, 1]; with many zeros
    # Φ(−m/s) > 5 % of the Normal lies below 0, censored to 0, so the floor is 0
    inside = with_moments(0.5, 0.2, 20)
    floor = satisfaction_floor(inside, lambda s: s, n_levels=5)
    assert floor.family == "normal"
    assert floor.value == pytest.approx(0.5 + sps.norm.ppf(0.05) * 0.2, abs=1e-3)
    zeros = np.array([0.0] * 8 + [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 0.95])
    assert sps.norm.cdf(0, zeros.mean(), zeros.std(ddof=1)) > 0.05
    assert satisfaction_floor(zeros, lambda s: s, n_levels=5).value == 0


def test_bad_confidence_or_coverage_is_refused():
    with pytest.raises(ValueError, match="confidence"):
        score_prediction_interval([0.1, 0.2], confidence=1.0)
    with pytest.raises(ValueError, match="coverage"):
        satisfaction_floor([0.1, 0.2], lambda s: s, coverage=0)
