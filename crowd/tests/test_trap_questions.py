"""Which examples are clear-cut enough to become trap questions (crowd.services.traps,
over evaluation.core.clear_cut).

Expected answers are worked out by hand from the documented thresholds, on Fine's scale
(a list's level is its clips' mean Fine / 100): one list leads by at least 40 Fine points
→ it is better; both means ≥ 70 → both good; both ≤ 25 → both bad; anything else is not
clear-cut.
"""

import pytest

from crowd.selectors.clear_cut import EXPLANATIONS
from evaluation.core.clear_cut import clear_cut_answer


@pytest.mark.parametrize(
    ("mean_a", "mean_b", "answer"),
    [
        (80, 40, "a_better"),  # a leads by exactly 40
        (79.9, 40, None),  # 39.9 is not a clear lead, and 40 is not good
        (30, 70.5, "b_better"),  # b leads by 40.5
        (100, 60, "a_better"),  # a lead wins over "both good" (60 < 70 anyway)
        (70, 70, "both_good"),
        (95, 69, None),  # neither a 40-point lead nor both ≥ 70
        (25, 25, "both_bad"),
        (0, 25.5, None),
        (50, 50, None),
    ],
)
def test_a_clear_cut_example_gets_the_one_answer_its_judgments_support(mean_a, mean_b, answer):
    assert clear_cut_answer(mean_a / 100, mean_b / 100) == answer


def test_the_explanations_name_the_means_the_organiser_can_check():
    text = EXPLANATIONS["b_better"].format(a=20, b=75, better=75, worse=20)
    assert text == (
        "The clips of one list are far more similar to the query (judged 75 against 20 of 100)."
    )
    text = EXPLANATIONS["both_bad"].format(a=10, b=22.4, better=22.4, worse=10)
    assert text == "Neither list sounds similar to the query (judged 10 and 22 of 100)."
