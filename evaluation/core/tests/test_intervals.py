"""Intervals and the thesis-style reports (thesis §4.1.3, §5.6.2)."""

import numpy as np
import pytest
from scipy import stats as sps

from evaluation.core.stats import (
    Interval,
    format_difference,
    format_estimate,
    format_pvalue,
    mean_ci,
    mean_difference_ci,
    prediction_interval,
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
