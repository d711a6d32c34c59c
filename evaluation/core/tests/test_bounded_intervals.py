"""Intervals of means within their bounds at every size: eq. 4.6 where it holds, the
bootstrap percentile interval elsewhere, checked against scipy."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from evaluation.core import bounded_intervals
from evaluation.core.stats import MIN_T_QUERIES, bootstrap_mean_ci, format_estimate, mean_intervals


def test_t_method_is_scipys_t_interval_row_by_row():
    X = np.random.default_rng(3).random((4, 12))
    for row, ci in zip(X, mean_intervals(X, method="t"), strict=True):
        low, high = sps.t.interval(0.95, len(row) - 1, loc=row.mean(), scale=sps.sem(row))
        assert (ci.low, ci.high, ci.method) == (pytest.approx(low), pytest.approx(high), "t")


def test_bootstrap_percentile_agrees_with_scipy_bootstrap():
    x = np.random.default_rng(5).beta(2, 5, 15)
    ours = bootstrap_mean_ci(x, resamples=20_000, seed=1)
    ref = sps.bootstrap((x,), np.mean, method="percentile", n_resamples=20_000, random_state=2)
    # two independent Monte-Carlo estimates of the same percentiles: they agree to about
    # the resampling error (sd of the means ≈ 0.04 here; 20,000 resamples)
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=0.004)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=0.004)
    assert ours.method == "bootstrap-percentile" and ours.estimate == pytest.approx(x.mean())


def test_two_queries_give_the_range_of_the_two_values_not_a_t_interval_with_one_df():
    # The case: 2 queries. t with 1 df gives 0.55 ± 12.706·0.495/√2 = ±4.447;
    # the resampled means are 0.2, 0.55, 0.9 with probabilities 1/4, 1/2, 1/4, so the
    # 95% percentile interval is [0.2, 0.9].
    (t,) = mean_intervals([[0.2, 0.9]], method="t")
    assert t.margin == pytest.approx(12.7062 * 0.49497 / 2**0.5, rel=1e-4)
    (ci,) = mean_intervals([[0.2, 0.9]], bounds=(0, 1), seed=0)
    assert (ci.low, ci.high, ci.method) == (0.2, 0.9, "bootstrap-percentile")
    assert format_estimate("M", ci) == "M = 0.5500 [0.2000, 0.9000] (bootstrap percentile)"


def test_auto_keeps_eq_4_6_for_enough_queries_within_bounds_and_not_outside():
    rng = np.random.default_rng(0)
    inside = rng.uniform(0.3, 0.7, MIN_T_QUERIES)
    # 29 zeros and a 1: mean 1/30, t-interval 0.0333 ± 2.0452·0.1826/√30 = [−0.035, 0.102]
    edge = np.zeros(MIN_T_QUERIES)
    edge[0] = 1.0
    a, b = mean_intervals(np.vstack([inside, edge]), bounds=(0, 1), seed=1)
    assert a.method == "t" and a == mean_intervals(inside[None], method="t")[0]
    assert mean_intervals(edge[None], method="t")[0].low == pytest.approx(-0.0349, abs=1e-3)
    assert b.method == "bootstrap-percentile" and b.low >= 0 and b.high <= 1


def test_it_refuses_what_it_cannot_compute():
    with pytest.raises(ValueError, match="2 observations"):
        mean_intervals([[0.5]])
    with pytest.raises(ValueError, match="method"):
        mean_intervals([[0.5, 0.6]], method="wald")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 40).flatmap(
        lambda n: st.lists(
            st.lists(st.floats(0, 1), min_size=n, max_size=n), min_size=1, max_size=4
        )
    )
)
def test_auto_intervals_of_values_in_0_1_stay_in_0_1(rows):
    for ci in mean_intervals(np.array(rows), bounds=(0.0, 1.0), resamples=500, seed=0):
        assert 0.0 <= ci.low <= ci.high <= 1.0


def test_work_is_done_in_bounded_blocks_with_the_same_resamples_for_every_row(monkeypatch):
    # With 50 cells at a time: 5 rows a block, 5 resamples a chunk. A row's interval is
    # the same whichever block it falls in, and the same as with one block.
    X = np.random.default_rng(2).random((12, 10))
    whole = mean_intervals(X, method="bootstrap", resamples=10, seed=4)
    monkeypatch.setattr(bounded_intervals, "CELLS", 50)
    blocked = mean_intervals(X, method="bootstrap", resamples=10, seed=4)
    alone = mean_intervals(X[7:8], method="bootstrap", resamples=10, seed=4)
    ends = [x for c in whole for x in (c.low, c.high)]
    assert [x for c in blocked for x in (c.low, c.high)] == pytest.approx(ends, rel=1e-12)
    assert [alone[0].low, alone[0].high] == pytest.approx(ends[14:16], rel=1e-12)
