"""Aly et al. (2013) segment-based measures on the situations of their Figures 1–3."""

from numpy.testing import assert_allclose

from evaluation.core.measures import segment_judgments, segment_measures

# One video v; relevant segment [100, 160), judged non-relevant [300, 360).
JUDGMENTS = {"q": [("v", 100, 160, 1), ("v", 300, 360, 0)]}
# 1: [0, 50) nothing; 2: [90, 130) overlaps the relevant one; 3: [10, 40) same bin as 1;
# 4: [120, 200) overlaps it again; 5: [310, 330) judged non-relevant.
RESULTS = {"q": [("v", 0, 50), ("v", 90, 130), ("v", 10, 40), ("v", 120, 200), ("v", 310, 330)]}


def test_overlap_relevance_counts_every_overlapping_result():
    sj = segment_judgments(JUDGMENTS, RESULTS, method="overlap")
    assert sj.relevant[0].tolist() == [0, 1, 0, 1, 0]  # results 2 and 4 both count (Fig. 1)
    assert sj.judged[0].tolist() == [0, 1, 0, 1, 1]


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
    assert_allclose(out["P_5"]["q"], 2 / 5)  # overlap: 2 relevant in the top 5
    assert_allclose(out["map"]["q"], (1 / 2 + 2 / 4) / 1)  # |R_q| = 1 relevant segment
    assert_allclose(out["Judged_5"]["q"], 3 / 5)
    assert_allclose(out["P_5_bin"]["q"], 1 / 5)
    assert_allclose(out["map_tol"]["q"], 1 / 2)
    assert out["num_ret_bin"]["q"] == 4
