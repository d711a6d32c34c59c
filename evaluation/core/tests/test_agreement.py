"""Krippendorff's α and the normalised RMS difference, checked against independent values.

The reference for α is the ``krippendorff`` package (Santiago Castro, PyPI
``krippendorff``), an independent implementation installed for tests only.
"""

import math

import numpy as np
import pytest

from evaluation.core.agreement import krippendorff_alpha, rms_difference

krippendorff = pytest.importorskip("krippendorff")


def random_units(rng, *, units, max_raters, levels):
    """Units with 1..max_raters values drawn from ``levels`` (units of one value included)."""
    return [list(rng.choice(levels, size=rng.integers(1, max_raters + 1))) for _ in range(units)]


def as_reliability_data(units, raters):
    """The package's (coders × units) matrix with nan where a coder did not judge a unit."""
    data = np.full((raters, len(units)), np.nan)
    for u, values in enumerate(units):
        data[: len(values), u] = values
    return data


@pytest.mark.parametrize("seed", range(6))
def test_interval_alpha_matches_the_krippendorff_package_on_fine_scores(seed):
    rng = np.random.default_rng(seed)
    # Correlated scores: a unit's true similarity plus assessor noise, like Fine judgments.
    units = []
    for _ in range(40):
        truth = rng.uniform(0, 100)
        size = rng.integers(1, 4)
        units.append([int(np.clip(truth + rng.normal(0, 15), 0, 100)) for _ in range(size)])
    expected = krippendorff.alpha(
        reliability_data=as_reliability_data(units, 3), level_of_measurement="interval"
    )
    assert krippendorff_alpha(units, level="interval") == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_ordinal_alpha_matches_the_krippendorff_package_on_broad_scores(seed):
    rng = np.random.default_rng(100 + seed)
    units = random_units(rng, units=30, max_raters=4, levels=[0, 1, 2])
    expected = krippendorff.alpha(
        reliability_data=as_reliability_data(units, 4),
        level_of_measurement="ordinal",
        value_domain=[0, 1, 2],
    )
    assert krippendorff_alpha(units, level="ordinal") == pytest.approx(expected, rel=1e-9)


def test_perfect_agreement_is_one():
    assert krippendorff_alpha([[10, 10], [50, 50, 50], [90, 90]]) == 1.0


def test_krippendorffs_own_example_gives_his_published_interval_alpha():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C:
    # 4 observers × 12 units, interval α = 0.849 (as printed, three decimals).
    nan = math.nan
    table = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
    units = [[row[u] for row in table if not math.isnan(row[u])] for u in range(12)]
    assert krippendorff_alpha(units, level="interval") == pytest.approx(0.849, abs=5e-4)


def test_nothing_to_compare_gives_nan():
    assert math.isnan(krippendorff_alpha([[50], [60]]))
    assert math.isnan(krippendorff_alpha([[50, 50], [50, 50]]))  # no variation at all


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError):
        krippendorff_alpha([[1, 2]], level="nominal-ish")


def test_rms_difference_normalises_and_pools_every_pair_of_assessors():
    # Hand-computed: unit 1 pairs (0,2),(0,1),(2,1) → normalised differences 1, .5, .5;
    # unit 2 pair (2,2) → 0. Mean of squares (1 + .25 + .25 + 0) / 4 = .375.
    assert rms_difference([[0, 2, 1], [2, 2], [1]], scale_max=2) == pytest.approx(math.sqrt(0.375))


def test_rms_difference_on_fine_divides_by_one_hundred():
    assert rms_difference([[30, 70]], scale_max=100) == pytest.approx(0.4)


def test_rms_difference_without_shared_units_is_nan():
    assert math.isnan(rms_difference([[1], [2]], scale_max=2))
