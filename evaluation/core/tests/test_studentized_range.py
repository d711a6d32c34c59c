"""The vectorised Studentized range against scipy.stats.studentized_range, cell by cell.

scipy integrates each value on its own (``nquad``, tolerances 1e-11 absolute and 1e-12
relative), so its values are the independent reference; ACCURACY is what we promise.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats as sps

from evaluation.core.multiple import anova_two_way, tukey_hsd
from evaluation.core.studentized_range import (
    ACCURACY,
    range_sf,
    studentized_range_ppf,
    studentized_range_sf,
)

# (k means, df): few means with tiny df (heavy tails, the hardest integral over s), the
# shapes Tukey's HSD meets (k systems, (k-1)(n-1) df), and both sides of scipy's switch
# to the df -> infinity form at 100,000.
CASES = [
    (2, 1),
    (2, 2),
    (3, 4),
    (10, 3),
    (18, 30),
    (18, 1683),  # MIREX 2011: 18 systems x 100 queries
    (50, 48_951),  # 50 systems x 1,000 queries
    (100, 98_901),
    (5, 100_000),
    (300, 1_000_000),
    (1000, 5_000),
]


@pytest.mark.parametrize(("k", "df"), CASES)
def test_the_upper_tail_is_scipys_within_the_stated_accuracy(k, df):
    rng = np.random.default_rng(k * 7 + 1)
    q = np.concatenate([rng.uniform(0, 9, 8), [0.0, 0.05, 1.0, 4.0, 6.5, 15.0, 60.0]])
    assert_allclose(
        studentized_range_sf(q, k, df), sps.studentized_range.sf(q, k, df), atol=ACCURACY
    )


def test_two_means_are_the_absolute_difference_of_two_normals():
    # Range of 2 standard normals = |Z1 - Z2| ~ |N(0, 2)|: R_2(w) = erfc(w / 2), and with a
    # variance estimate Q_{2,df} = sqrt(2)|T_df|: P(Q >= q) = 2 P(T_df >= q / sqrt(2)).
    w = np.linspace(0, 12, 25)
    assert_allclose(range_sf(w, 2), 2 * sps.norm.sf(w / np.sqrt(2)), atol=1e-14)
    assert_allclose(studentized_range_sf(w, 2, 7), 2 * sps.t.sf(w / np.sqrt(2), 7), atol=ACCURACY)


def test_the_upper_tail_keeps_its_shape_and_its_ends():
    q = np.array([[0.0, 1.0], [3.0, np.inf]])
    p = studentized_range_sf(q, 4, 12)
    assert p.shape == (2, 2)
    assert p[0, 0] == pytest.approx(1.0, abs=1e-14)
    assert p[1, 1] == 0.0
    assert p[0, 1] > p[1, 0]


@pytest.mark.parametrize("bad", [(-1.0, 3, 10), (np.nan, 3, 10), (1.0, 1, 10), (1.0, 3, 0)])
def test_it_refuses_what_has_no_studentized_range(bad):
    q, k, df = bad
    with pytest.raises(ValueError):
        studentized_range_sf(q, k, df)


@pytest.mark.parametrize(("p", "k", "df"), [(0.95, 3, 20), (0.95, 18, 1683), (0.99, 50, 2000)])
def test_the_critical_value_is_scipys(p, k, df):
    # Published tables (Harter 1960) give q_{0.95}(3, 20) = 3.578.
    assert studentized_range_ppf(p, k, df) == pytest.approx(
        sps.studentized_range.ppf(p, k, df), rel=1e-9
    )


def _scipy_tukey_pvalues(X, cells):
    a = anova_two_way(X)
    k, n = X.shape
    se = np.sqrt(a.residual.ms / n)
    means = X.mean(axis=1)
    q = np.array([abs(means[i] - means[j]) / se for i, j in cells])
    return sps.studentized_range.sf(q, k, a.residual.df)


def test_tukey_hsd_is_scipys_on_every_pair_of_mirex_2011(mirex2011_cg_l5_fine):
    _, _, X = mirex2011_cg_l5_fine  # 18 systems x 100 queries: 153 pairs, df 1,683
    h = tukey_hsd(X)
    cells = list(zip(*np.triu_indices(len(X), 1), strict=True))
    ours = np.array([h.pvalue[i, j] for i, j in cells])
    assert_allclose(ours, _scipy_tukey_pvalues(X, cells), atol=ACCURACY)
    assert np.nanmin(ours) < 1e-6 and np.nanmax(ours) > 0.5  # both ends of the scale met


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")  # scipy's nquad
def test_tukey_hsd_is_scipys_on_a_random_50_system_matrix():
    # scipy takes ~15 ms a cell: 150 of the 1,225 pairs here, the closest and the farthest
    # included (benchmarks/bench_tukey.py checks all 1,225).
    rng = np.random.default_rng(50)
    X = np.clip(rng.normal(0.4, 0.05, (50, 1)) + rng.normal(0, 0.2, (50, 300)), 0, 1)
    h = tukey_hsd(X)
    iu = np.triu_indices(50, 1)
    p = h.pvalue[iu]
    picked = np.unique(np.r_[rng.choice(len(p), 148, replace=False), np.argmin(p), np.argmax(p)])
    cells = [(iu[0][c], iu[1][c]) for c in picked]
    assert_allclose(p[picked], _scipy_tukey_pvalues(X, cells), atol=ACCURACY)
    assert_allclose(h.pvalue, h.pvalue.T, equal_nan=True)
    margin = sps.studentized_range.ppf(0.95, 50, 49 * 299) * np.sqrt(
        anova_two_way(X).residual.ms / 300
    )
    assert h.ci_high[0, 1] - h.mean_difference[0, 1] == pytest.approx(margin, rel=1e-9)
