"""Relevance scales (thesis §3.1.2) and gain functions."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from evaluation.core import evaluate
from evaluation.core.names import MeasureNameError, parse_measure
from evaluation.core.scales import Gain, get_gain, get_scale
from evaluation.core.trec import Qrels, Run


def test_graded3_follows_the_thesis_example():
    # thesis §3.1.2: 0 if r < 34, 1 if 34 <= r < 67, 2 if r >= 67
    fine = np.array([0, 33, 34, 66, 67, 100])
    assert_array_equal(get_scale("graded3").levels(fine), [0, 0, 1, 1, 2, 2])


@pytest.mark.parametrize("split", ["range", "cells"])
def test_both_splits_follow_the_thesis_example_for_three_levels(split):
    # thesis §3.1.2: 0 if r < 34, 1 if 34 <= r < 67, 2 if r >= 67, for every Fine score
    fine = np.arange(101)
    expected = np.where(fine < 34, 0, np.where(fine < 67, 1, 2))
    assert_array_equal(get_scale("graded3", split=split).levels(fine), expected)


@pytest.mark.parametrize(
    ("name", "boundaries"),
    [("graded4", [25, 50, 75]), ("graded5", [20, 40, 60, 80])],
)
def test_graded_scales_split_the_0_100_range_evenly_by_default(name, boundaries):
    # The first Fine score of level j is the smallest integer r with r·n/100 >= j,
    # i.e. ceil(100·j/n): n = 4 → 25, 50, 75; n = 5 → 20, 40, 60, 80 (and 100 stays in
    # the top level). This expectation moved: Earshot used to split 101 cells (below).
    levels = get_scale(name).levels(np.arange(101))
    assert np.flatnonzero(np.diff(levels)).tolist() == [b - 1 for b in boundaries]
    assert levels[-1] == len(boundaries)


@pytest.mark.parametrize(
    ("name", "boundaries"),
    [("graded4", [25, 50, 76]), ("graded5", [20, 40, 61, 81])],
)
def test_the_cells_split_cuts_101_cells_in_intervals_of_length_101_over_n(name, boundaries):
    # The first Fine score of level j is the smallest integer r with
    # (r + 1/2)·n/101 >= j, i.e. r >= 101·j/n - 1/2: n = 4 → 24.75, 50, 75.25 → 25, 50, 76;
    # n = 5 → 19.7, 39.9, 60.1, 80.3 → 20, 40, 61, 81
    levels = get_scale(name, split="cells").levels(np.arange(101))
    assert np.flatnonzero(np.diff(levels)).tolist() == [b - 1 for b in boundaries]


def test_the_splits_differ_only_on_fine_75_for_four_levels_and_60_80_for_five():
    fine = np.arange(101)
    for name, differ in (("graded3", []), ("graded4", [75]), ("graded5", [60, 80])):
        range_, cells = get_scale(name).levels(fine), get_scale(name, split="cells").levels(fine)
        assert np.flatnonzero(range_ != cells).tolist() == differ


def test_split_is_a_measure_option_of_graded_scales_only():
    # one list with Fine ⟨75, 75, 0, 0, 0⟩; CG_l@5 with four levels (top level 3):
    # range: 75 → level 3, (3 + 3) / (5·3) = 0.4; cells: 75 → level 2, (2 + 2) / 15
    qrels = Qrels.from_records(
        [("q", d, f) for d, f in zip("abcde", [75, 75, 0, 0, 0], strict=True)]
    )
    run = Run.from_ranked_lists({"q": list("abcde")}, name="s")
    names = ["CG(scale=graded4)@5", "CG(scale=graded4,split=cells)@5"]
    means = evaluate(qrels, run, names).means()["s"]
    assert means == pytest.approx({names[0]: 6 / 15, names[1]: 4 / 15})
    with pytest.raises(MeasureNameError, match="split applies to scale=graded3"):
        parse_measure("CG(scale=fine,split=cells)@5")
    with pytest.raises(MeasureNameError, match="valid: range, cells"):
        parse_measure("CG(scale=graded4,split=half)@5")
    with pytest.raises(ValueError, match="valid: range, cells"):
        get_scale("graded4", split="half")


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


def test_mirex_2011_graded4_means_follow_the_range_split(mirex2011_files, mirex2011_core):
    # CG_l@5 on four levels (eq. 3.3, top level 3), computed here from the files with
    # integer arithmetic: level = min(r·4 // 100, 3), score = Σ levels / (5·3)
    fine, lists = mirex2011_files
    per_system: dict[str, list[float]] = {}
    for (system, query), docs in sorted(lists.items()):
        levels = [min(fine[(query, d)] * 4 // 100, 3) for d in docs[:5]]
        per_system.setdefault(system, []).append(sum(levels) / 15)
    qrels, runs = mirex2011_core
    name = "CG(scale=graded4)@5"
    results = evaluate(qrels, runs, [name, "CG(scale=graded4,split=cells)@5"])
    for system, scores in per_system.items():
        assert results.mean(system, name) == pytest.approx(np.mean(scores), abs=1e-12)
    # 154 of the 6,322 judgments are exactly 75, which the two splits put on different
    # levels, so some system means differ
    means = results.means()
    assert any(m[name] != m["CG(scale=graded4,split=cells)@5"] for m in means.values())
