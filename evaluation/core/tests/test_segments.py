"""Aly et al. (2013) segment-based measures on the situations of their Figures 1–3."""

import numpy as np
from numpy.testing import assert_allclose

from evaluation.core.measures import segment_judgments, segment_measures

# One video v; relevant segment [100, 160), judged non-relevant [300, 360).
JUDGMENTS = {"q": [("v", 100, 160, 1), ("v", 300, 360, 0)]}
# 1: [0, 50) nothing; 2: [90, 130) overlaps the relevant one; 3: [10, 40) same bin as 1;
# 4: [120, 200) overlaps it again; 5: [310, 330) judged non-relevant.
RESULTS = {"q": [("v", 0, 50), ("v", 90, 130), ("v", 10, 40), ("v", 120, 200), ("v", 310, 330)]}


def test_overlap_relevance_credits_each_relevant_segment_once():
    # results 2 and 4 both overlap the relevant segment (Fig. 1); only result 2, the
    # first to reach it, counts (this expectation moved: both used to count)
    sj = segment_judgments(JUDGMENTS, RESULTS, method="overlap")
    assert sj.relevant[0].tolist() == [0, 1, 0, 0, 0]
    assert sj.judged[0].tolist() == [0, 1, 0, 1, 1]


def test_three_results_on_one_relevant_segment_give_ap_1_and_p5_one_fifth():
    # ranks 1–3 overlap the only relevant segment, ranks 4–5 the judged non-relevant one:
    # counting it once, AP = (1/1) / |R_q| = 1 and P@5 = 1/5 (counting every result
    # would give AP = (1/1 + 2/2 + 3/3) / 1 = 3 and P@5 = 3/5)
    results = {"q": [("v", 100, 120), ("v", 110, 130), ("v", 140, 170), ("v", 300, 310),
                     ("v", 320, 330)]}  # fmt: skip
    out = segment_measures(JUDGMENTS, results, cutoffs=(5,), judged_cutoffs=(5,))
    assert out["map"]["q"] == 1.0
    assert out["P_5"]["q"] == 0.2
    assert out["num_rel_ret"]["q"] == 1


def test_a_result_reaching_two_relevant_segments_credits_both():
    # relevant A [0, 10) and B [20, 30); result 1 [5, 25) reaches both; result 2 [25, 28)
    # reaches only B, already seen; result 3 [40, 50) reaches C [45, 60), new.
    # relevant ranks 1 and 3: AP = (1/1 + 2/3) / 3
    judgments = {"q": [("v", 0, 10, 1), ("v", 20, 30, 1), ("v", 45, 60, 1)]}
    results = {"q": [("v", 5, 25), ("v", 25, 28), ("v", 40, 50)]}
    sj = segment_judgments(judgments, results, method="overlap")
    assert sj.relevant[0].tolist() == [1, 0, 1]
    out = segment_measures(judgments, results, cutoffs=(3,), judged_cutoffs=(3,))
    assert_allclose(out["map"]["q"], (1 + 2 / 3) / 3)


def test_ap_and_precision_stay_in_0_1_whatever_the_segments():
    rng = np.random.default_rng(7)
    for _ in range(200):
        starts = rng.integers(0, 300, size=(2, 12))
        lengths = rng.integers(1, 80, size=(2, 12))
        judgments = {"q": [("v", s, s + n, int(rng.random() < 0.5))
                           for s, n in zip(starts[0], lengths[0], strict=True)]}  # fmt: skip
        results = {"q": [("v", s, s + n) for s, n in zip(starts[1], lengths[1], strict=True)]}
        out = segment_measures(judgments, results, cutoffs=(5,), judged_cutoffs=(5,))
        for name in ("map", "P_5", "map_bin", "P_5_bin", "map_tol", "P_5_tol"):
            assert 0 <= out[name]["q"] <= 1, (name, judgments, results)


def test_binned_relevance_merges_results_in_the_same_bin():
    # BS = 60: bins 0, 1, 0, 2, 5 → result 3 merges into result 1; the relevant segment
    # starts in bin 1 (100 // 60), so only result 2 is relevant
    sj = segment_judgments(JUDGMENTS, RESULTS, method="bin", bin_size=60)
    assert sj.relevant[0].tolist() == [0, 1, 0, 0]
    assert sj.retrieved.tolist() == [4]


def test_tolerance_to_irrelevance_does_not_count_seen_content_twice():
    # l = 30: windows [0,30) [90,120) [10,40) [120,150) [310,340); result 4's window
    # overlaps the relevant segment already seen through result 2 (Fig. 3)
    sj = segment_judgments(JUDGMENTS, RESULTS, method="tol", window=30)
    assert sj.relevant[0].tolist() == [0, 1, 0, 0, 0]


def test_measures_in_the_three_variants():
    out = segment_measures(
        JUDGMENTS, RESULTS, cutoffs=(5,), judged_cutoffs=(5,), bin_size=60, window=30
    )
    # overlap: only result 2 counts (result 4 reaches the same relevant segment), so
    # P@5 = 1/5 and AP = (1/2) / |R_q| with |R_q| = 1 (these moved from 2/5 and
    # (1/2 + 2/4) / 1 = 1 when result 4 counted too)
    assert_allclose(out["P_5"]["q"], 1 / 5)
    assert_allclose(out["map"]["q"], 1 / 2)
    assert_allclose(out["Judged_5"]["q"], 3 / 5)
    assert_allclose(out["P_5_bin"]["q"], 1 / 5)
    assert_allclose(out["map_tol"]["q"], 1 / 2)
    assert out["num_ret_bin"]["q"] == 4
