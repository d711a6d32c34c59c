"""λ of a list from its own judgments (thesis §3.2.1): CG_l@k of eq. (3.3), the mean gain
of the list's k clips, on the Fine scale (gain Fine/100) or the Broad one (gain Broad/2,
the scale on [0, 1] as §7.2 puts it). Expected values worked out by hand."""

import numpy as np
import pytest

from evaluation.core.example_generator import list_score


def test_fine_scores_give_the_mean_of_fine_over_100():
    # (100 + 50 + 0 + 0 + 0) / 100 / 5 = 0.3; (80 + 80 + 80 + 80 + 80) / 100 / 5 = 0.8
    got = list_score("CG(scale=fine)@5", np.array([[100, 50, 0, 0, 0], [80] * 5]))
    assert got.tolist() == pytest.approx([0.3, 0.8])


def test_broad_levels_give_the_mean_of_broad_over_2():
    # (2 + 1 + 0 + 0 + 0) / 2 / 5 = 0.3; means over assessors too: (1.5 + 2) / 2 / 2 = 0.875
    got = list_score("CG(scale=broad)@5", np.array([[2, 1, 0, 0, 0]]), scale="broad")
    assert got.tolist() == pytest.approx([0.3])
    two = list_score("CG(scale=broad)@2", np.array([[1.5, 2]]), scale="broad")
    assert two.tolist() == pytest.approx([0.875])


def test_a_measure_on_the_other_scale_is_refused_with_its_name():
    with pytest.raises(ValueError, match=r"CG\(scale=broad\)@5: give scale=fine"):
        list_score("CG(scale=broad)@5", np.array([[2, 1, 0, 0, 0]]))
    with pytest.raises(ValueError, match=r"CG\(scale=fine\)@5: give scale=broad"):
        list_score("CG(scale=fine)@5", np.array([[2, 1, 0, 0, 0]]), scale="broad")
