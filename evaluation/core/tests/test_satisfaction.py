"""Satisfaction mathematics of thesis ch. 3–4, and the Table 4.3 mappings."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats as sps

from evaluation.core.stats import (
    PUBLISHED_MAPPINGS,
    agreement_by_bin,
    agreement_from_preference,
    agreement_threshold,
    bin_index,
    distance_to_one,
    distance_to_zero,
    endpoint_bias,
    expected_fraction_agreeing,
    fit_cubic,
    fit_empirical,
    fit_satisfaction_mapping,
    mean_satisfaction,
    prior_deltas,
    published_mapping,
    satisfaction_by_bin,
    satisfied_users_pmf,
    success_probability,
    wilson_interval,
)
from tests.helpers.shared_data import THESIS, require


def test_p_sat_15_equals_10_at_sat_07_is_the_thesis_value():
    # Thesis §4.1: sat = 0.7, 15 users: P(Sat_15 = 10) = C(15,10) 0.7^10 0.3^5 ≈ 0.2061
    assert satisfied_users_pmf(10, 15, 0.7) == pytest.approx(0.2061, abs=5e-5)
    assert satisfied_users_pmf(10, 15, 0.7) == pytest.approx(3003 * 0.7**10 * 0.3**5)
    assert satisfied_users_pmf(np.arange(16), 15, 0.7).sum() == pytest.approx(1)


def test_gap_at_5_of_032_with_broad_judgments_maps_to_05116():
    # Thesis §4.1.2: 0.1018 + 1.7272·0.32 − 1.6028·0.32² + 0.6471·0.32³ = 0.5116
    m = published_mapping("GAP@5", "broad")
    assert m.coefficients == (0.1018, 1.7272, -1.6028, 0.6471)
    assert round(m(0.32), 4) == 0.5116
    assert "Table 4.3" in m.source


def test_table_4_3_has_all_40_combinations_and_they_are_probabilities_on_0_1():
    assert len(PUBLISHED_MAPPINGS) == 40
    scales = {s for _, s in PUBLISHED_MAPPINGS}
    assert scales == {"broad", "fine", "graded4", "graded5", "rel=20", "rel=40"}
    lam = np.linspace(0, 1, 101)
    for m in PUBLISHED_MAPPINGS.values():
        assert np.all((m(lam) >= 0) & (m(lam) <= 1))
    with pytest.raises(KeyError, match=r"Table 4\.3 has no mapping"):
        published_mapping("ERR_l@5", "fine")


def test_table_4_3_transcription_matches_the_thesis_text():
    lines = require(THESIS).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Measure\t\tBr\toad"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Table 4.3:"))
    blocks = iter([("broad", "fine"), ("graded4", "graded5"), ("rel=20", "rel=40")])
    found = {}
    for line in lines[start:end]:
        fields = line.split("\t")
        if fields[0].startswith("Measure") and "a_0" not in line:
            pair = next(blocks)
            continue
        if "a_0" in line or len(fields) < 5:
            continue
        values = [float(v) for v in fields[1:] if v.strip()]
        for b in range(len(values) // 4):
            found[(fields[0].strip("$"), pair[b])] = tuple(values[4 * b : 4 * b + 4])
    assert {k: v.coefficients for k, v in PUBLISHED_MAPPINGS.items()} == found


def test_scores_fall_in_the_ten_bins_of_section_3_2_1():
    x = [0.0, 0.05, 0.1, 0.3, 0.29999, 0.7, 0.9, 0.95, 1.0]
    assert bin_index(x).tolist() == [0, 0, 1, 3, 2, 7, 9, 9, 9]
    with pytest.raises(ValueError):
        bin_index([1.2])


def test_wilson_intervals_match_scipy_binomtest():
    for k, n in [(0, 10), (3, 10), (10, 10), (57, 200)]:
        ref = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
        lo, hi = wilson_interval(k, n)
        assert (lo, hi) == pytest.approx((ref.low, ref.high))


def test_p_sat_is_binned_with_counts_and_intervals():
    lam = np.array([0.05, 0.05, 0.15, 0.95, 0.95, 0.95, 1.0])
    sat = np.array([0, 1, 1, 1, 1, 0, 1])
    b = satisfaction_by_bin(lam, sat)
    assert b.counts.tolist() == [2, 1, 0, 0, 0, 0, 0, 0, 0, 4]
    assert b.successes.tolist() == [1, 1, 0, 0, 0, 0, 0, 0, 0, 3]
    assert b.proportion[0] == 0.5 and np.isnan(b.proportion[2]) and b.proportion[9] == 0.75
    ref = sps.binomtest(3, 4).proportion_ci(method="wilson")
    assert (b.ci_low[9], b.ci_high[9]) == pytest.approx((ref.low, ref.high))
    # eq. 3.11: sqrt((P(Sat|0)^2 + (1 - P(Sat|1))^2) / 2) = sqrt((0.25 + 0.0625) / 2)
    assert endpoint_bias(b) == pytest.approx(np.sqrt((0.5**2 + 0.25**2) / 2))


def test_agreement_is_binned_by_the_absolute_difference():
    delta = np.array([0.05, -0.05, 0.25, -0.25, 0.95, 0.0])
    pref = np.array([1, 1, -1, -1, 0, 1])  # +1 prefers A, -1 prefers B
    agr = agreement_from_preference(delta, pref)
    assert agr.tolist() == [1, -1, -1, 1, 0, 0]
    bins = agreement_by_bin(delta, agr)
    assert bins.positive.counts.tolist() == [3, 0, 2, 0, 0, 0, 0, 0, 0, 1]
    assert bins.positive.proportion[[0, 2, 9]].tolist() == [1 / 3, 0.5, 0.0]
    assert bins.negative.proportion[[0, 2, 9]].tolist() == [1 / 3, 0.5, 0.0]
    # eqs. 3.12 and 3.13 over the non-empty bins
    assert distance_to_one(bins.positive) == pytest.approx(
        np.sqrt(((1 - 1 / 3) ** 2 + 0.5**2 + 1.0) / 3)
    )
    assert distance_to_zero(bins.negative) == pytest.approx(np.sqrt(((1 / 3) ** 2 + 0.25) / 3))


def test_the_cubic_fit_recovers_a_cubic_and_matches_polyfit():
    x = np.linspace(0.05, 0.95, 10)
    exact = fit_cubic(x, 0.2 - 0.4 * x + 3.6 * x**2 - 2.6 * x**3)
    assert exact.coefficients == pytest.approx((0.2, -0.4, 3.6, -2.6))
    assert exact.r_squared == pytest.approx(1) and exact.rms == pytest.approx(0, abs=1e-12)
    y = np.array([0.18, 0.2, 0.31, 0.37, 0.5, 0.52, 0.66, 0.7, 0.79, 0.8])
    fit = fit_cubic(x, y)
    # Reference: numpy.polyfit(x, y, 3) (highest power first)
    assert fit.coefficients == pytest.approx(tuple(np.polyfit(x, y, 3)[::-1]))
    resid = y - np.polyval(np.polyfit(x, y, 3), x)
    assert fit.rms == pytest.approx(np.sqrt(np.mean(resid**2)))
    assert fit.r_squared == pytest.approx(1 - (resid**2).sum() / ((y - y.mean()) ** 2).sum())


def test_a_mapping_is_fitted_to_the_bin_centres():
    rng = np.random.default_rng(0)
    lam = rng.random(4000)
    sat = rng.random(4000) < 0.15 + 0.7 * lam
    fit = fit_satisfaction_mapping(satisfaction_by_bin(lam, sat))
    assert fit(0.5) == pytest.approx(0.5, abs=0.05)
    assert fit.r_squared > 0.9


def test_priors_pool_all_pairs_of_systems_on_every_query():
    X = np.array([[0.1, 0.5], [0.3, 0.5], [0.6, 0.9]])
    d = prior_deltas(X)
    assert d.tolist() == pytest.approx(sorted([0.2, 0.0, 0.5, 0.4, 0.3, 0.4]))
    assert prior_deltas([X, X]).size == 12


def test_the_agreement_threshold_interpolates_between_bin_centres_and_gives_table_3_5():
    # P(Agr=1) per bin rises 0.1, 0.2, …; it crosses 0.5 between the centres 0.35 (0.4)
    # and 0.45 (0.5): exactly at 0.45 here. With a 0.45/0.55 pair: halfway, at 0.40.
    delta = np.repeat(np.arange(10) / 10 + 0.05, 20)
    agree = np.concatenate([np.arange(20) < 2 * (b + 1) for b in range(10)])
    bins = agreement_by_bin(delta, agree.astype(int))
    assert agreement_threshold(bins.positive) == pytest.approx(0.45)
    assert agreement_threshold(bins.positive, level=0.45) == pytest.approx(0.40)
    prior = np.array([0.1, 0.2, 0.44, 0.45, 0.8])
    frac = expected_fraction_agreeing(prior, bins.positive)
    assert (frac.threshold, frac.fraction) == pytest.approx((0.45, 2 / 5))
    never = np.concatenate([np.arange(20) < b + 1 for b in range(10)])  # at most 0.5
    low = agreement_by_bin(delta, never.astype(int)).positive
    assert agreement_threshold(low, level=0.6) == np.inf
    assert expected_fraction_agreeing(prior, low, level=0.6).fraction == 0


def test_mean_p_sat_and_p_succ_follow_eqs_4_4_to_4_8():
    lam = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    m = published_mapping("CG_l@5", "fine")
    p = m(lam)
    ci = mean_satisfaction(lam, m)
    assert ci.estimate == pytest.approx(p.mean())
    assert ci.margin == pytest.approx(sps.t.ppf(0.975, 4) * p.std(ddof=1) / np.sqrt(5))
    assert success_probability(p) == pytest.approx(np.mean(p > 0.5))
    e = fit_empirical(p)
    assert success_probability(p, distribution=e) == pytest.approx(1 - e.cdf(0.5))
    assert_allclose(success_probability(p, threshold=0.0), 1.0)
