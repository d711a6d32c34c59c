"""Relevance scales (thesis §3.1.2) and gain functions."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from evaluation.core.scales import Gain, get_gain, get_scale


def test_graded3_follows_the_thesis_example():
    # thesis §3.1.2: 0 if r < 34, 1 if 34 <= r < 67, 2 if r >= 67
    fine = np.array([0, 33, 34, 66, 67, 100])
    assert_array_equal(get_scale("graded3").levels(fine), [0, 0, 1, 1, 2, 2])


@pytest.mark.parametrize(
    ("name", "boundaries"),
    [("graded4", [25, 50, 76]), ("graded5", [20, 40, 61, 81])],
)
def test_graded_scales_split_the_fine_scale_in_intervals_of_length_101_over_n(name, boundaries):
    levels = get_scale(name).levels(np.arange(101))
    # the first Fine score of each new level
    assert np.flatnonzero(np.diff(levels)).tolist() == [b - 1 for b in boundaries]


def test_binary_scale_thresholds_at_l_min():
    assert_array_equal(get_scale("fine", threshold=40).levels(np.array([39, 40, 90])), [0, 1, 1])
    assert get_scale("fine", threshold=40).top_level(np.array([90.0])) == 1


def test_top_levels():
    assert get_scale("broad").top_level(np.array([1.0])) == 2
    assert get_scale("fine").top_level(np.array([1.0])) == 100
    assert get_scale("graded4").top_level(np.array([1.0])) == 3
    assert get_scale("raw").top_level(np.array([0.0, 3.0])) == 3


def test_gains():
    levels = np.array([0.0, 1.0, 2.0, 3.0])
    assert_array_equal(get_gain("lin")(levels), [0, 1, 2, 3])
    assert_array_equal(get_gain("exp")(levels), [0, 1, 3, 7])
    assert_array_equal(Gain.from_mapping({1: 1, 2: 5})(levels), [0, 1, 5, 0])


def test_unknown_scale_or_gain_lists_the_valid_ones():
    with pytest.raises(ValueError, match="graded3"):
        get_scale("graded7")
    with pytest.raises(ValueError, match="lin, exp"):
        get_gain("log")
