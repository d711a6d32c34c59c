"""One consolidation of several judgments of a pair (qrels download and leaderboards)."""

from fractions import Fraction

import numpy as np
import pytest

from evaluation.core.consolidation import POLICIES, consolidate, round_half_up


@pytest.mark.parametrize(
    ("values", "policy", "expected"),
    [
        ([1, 2], "mean", 2),  # 1.5, halves up
        ([0, 1], "mean", 1),  # 0.5, halves up
        ([0, 1, 1], "mean", 1),  # 0.667 → nearest level 1
        ([0, 0, 1], "mean", 0),  # 0.333 → 0
        ([40, 45], "mean", 43),  # 42.5 → 43
        ([40, 61], "mean", 51),  # 50.5 → 51
        ([33, 34, 34], "mean", 34),  # 33.667 → 34
        ([40, 45, 90], "median", 45),
        ([10, 20, 30, 90], "median", 25),  # (20 + 30) / 2
        ([1, 2], "median", 2),  # 1.5 → 2
        ([70, 10, 90], "first", 70),
        ([70, 10, 90], "latest", 90),
        ([55], "mean", 55),
    ],
)
def test_each_policy_gives_the_level_its_documentation_promises(values, policy, expected):
    assert consolidate(values, policy=policy) == expected


def test_the_mean_is_the_nearest_level_halves_up_in_exact_arithmetic():
    # independent: floor(sum / n + 1/2) = (2·sum + n) // (2n) on integers
    rng = np.random.default_rng(3)
    for _ in range(500):
        values = rng.integers(0, 101, size=rng.integers(1, 8)).tolist()
        n, total = len(values), sum(values)
        level = consolidate(values)
        assert level == (2 * total + n) // (2 * n)
        assert abs(level - Fraction(total, n)) <= Fraction(1, 2)
        assert min(values) <= level <= max(values)


def test_halves_are_exact_even_where_floating_point_is_not():
    # 0.1·3 is 0.30000000000000004 in floating point; as fractions the mean of
    # 0.5, 2.5 is exactly 1.5
    assert consolidate([0.5, 2.5]) == 2
    assert round_half_up(Fraction(5, 2)) == 3
    assert round_half_up(Fraction(-1, 2)) == 0


def test_an_unknown_policy_or_nothing_to_consolidate_is_an_error():
    with pytest.raises(ValueError, match="mean, median, first, latest"):
        consolidate([1], policy="max")
    with pytest.raises(ValueError, match="nothing to consolidate"):
        consolidate([])
    assert POLICIES == ("mean", "median", "first", "latest")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "2", None, True])
def test_a_value_that_is_not_a_finite_number_is_refused_by_name(bad):
    with pytest.raises(ValueError, match="relevance level must be"):
        consolidate([1, bad])
