"""Clear-cut answers and quiz lists from Fine or Broad judgments (evaluation.core.clear_cut)."""

from __future__ import annotations

import random

import pytest

from evaluation.core.answers import ANSWERS
from evaluation.core.clear_cut import (
    clear_cut_answer,
    clear_cut_lists,
    judged_level,
    list_level,
)


@pytest.mark.parametrize(
    ("level_a", "level_b", "answer"),
    [
        (0.85, 0.40, "a_better"),  # 45 points ahead
        (0.20, 0.75, "b_better"),
        (0.72, 0.90, "both_good"),
        (0.10, 0.25, "both_bad"),  # 0.25 is at the threshold: clear
        (0.60, 0.40, None),  # 20 points: not clear-cut
        (0.50, 0.50, None),
    ],
)
def test_the_clear_cut_answer_follows_the_lead_and_the_two_thresholds(level_a, level_b, answer):
    assert clear_cut_answer(level_a, level_b) == answer


def test_broad_judgments_alone_make_levels_and_clear_cut_answers():
    # Broad only: Very similar = 2 → 1.0, Not similar = 0 → 0.0 (thesis §2.5's scale).
    very = list_level([judged_level(None, 2)] * 5)
    not_at_all = list_level([judged_level(None, 0)] * 5)
    somewhat = list_level([judged_level(None, 1)] * 5)
    assert (very, not_at_all, somewhat) == (1.0, 0.0, 0.5)
    assert clear_cut_answer(very, not_at_all) == "a_better"
    assert clear_cut_answer(not_at_all, not_at_all) == "both_bad"
    assert clear_cut_answer(very, somewhat) == "a_better"  # 0.5 ahead
    assert list_level([0.5, None]) is None  # a clip without judgment: no level


def test_every_draw_from_the_widest_ends_is_clear_cut_and_draws_vary():
    # Query 1 of the demo (its 16 clips' judged levels): the 6 most and 6 least similar
    # are the widest ends whose weakest 5 still lead by 0.4 (0.586 against 0.18; with 7,
    # 0.524 against 0.236 do not), so C(6, 5)² = 36 pairs of lists, each clear-cut.
    values = [0.89, 0.73, 0.6, 0.59, 0.57, 0.44, 0.42, 0.41, 0.4, 0.34, 0.29, 0.21, 0.2,
              0.14, 0.06, 0.05]  # fmt: skip
    levels = {f"c{i:02d}": v for i, v in enumerate(values)}
    drawn = {
        tuple(map(frozenset, clear_cut_lists(levels, k=5, answer="a_better", rng=random.Random(n))))
        for n in range(400)
    }  # as sets of clips (each list's order is drawn too)
    assert len(drawn) == 36
    assert {c for a, b in drawn for c in a} == {f"c{i:02d}" for i in range(6)}
    assert {c for a, b in drawn for c in b} == {f"c{i:02d}" for i in range(10, 16)}


def test_fine_is_preferred_to_broad_when_a_clip_has_both():
    assert judged_level(30, 2) == 0.30


@pytest.mark.parametrize("answer", ANSWERS)
def test_drawn_lists_are_distinct_clips_that_deserve_the_answer_asked_for(answer):
    rng = random.Random(3)
    levels = {f"c{i}": rng.random() for i in range(60)}
    for seed in range(50):
        drawn = clear_cut_lists(levels, k=5, answer=answer, rng=random.Random(seed))
        assert drawn is not None
        list_a, list_b = drawn
        assert len(list_a) == len(list_b) == 5 and len(set(list_a) | set(list_b)) == 10
        level_a = list_level([levels[c] for c in list_a])
        level_b = list_level([levels[c] for c in list_b])
        assert clear_cut_answer(level_a, level_b) == answer


def test_too_few_clearly_judged_clips_draw_nothing():
    # k = 2: the two most similar average 0.7, the two least 0.35: a lead of 0.35 < 0.4.
    # k = 1: 0.9 against 0.3, a lead of 0.6.
    levels = {"s1": 0.9, "s2": 0.5, "d1": 0.4, "m1": 0.3}
    assert clear_cut_lists(levels, k=2, answer="a_better", rng=random.Random(0)) is None
    assert clear_cut_lists(levels, k=1, answer="a_better", rng=random.Random(0)) is not None
    with pytest.raises(ValueError, match="unknown answer"):
        clear_cut_lists(levels, k=1, answer="maybe", rng=random.Random(0))
