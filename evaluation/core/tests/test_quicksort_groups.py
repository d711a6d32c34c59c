"""The three-way QuickSort in rounds (Urbano, Morato, Marrero, Martín 2010) as a state
machine driven by answers as they arrive, on the hand-made study of pairwise_study.py."""

import pytest

from evaluation.core.ordered_groups import (
    PairVotes,
    groups_from_answered_pairs,
    quicksort_advance,
    quicksort_start,
    round_progress,
)
from evaluation.core.tests import pairwise_study as study


def test_the_hand_made_study_gives_the_groups_worked_out_in_its_comment():
    state = quicksort_advance(quicksort_start(study.CANDIDATES), study.votes())
    assert state.done
    assert state.rounds == 3
    assert state.groups() == study.GROUPS


def test_each_round_asks_the_pairs_of_the_worked_example_as_answers_arrive():
    state = quicksort_start(study.CANDIDATES)
    assert state.pivots() == ["f"]
    for number, round_ in enumerate(study.ROUNDS, start=1):
        assert sorted(state.round_pairs()) == sorted(round_), f"round {number}"
        progress = round_progress(state, PairVotes())
        assert (progress.round, progress.answers, progress.answers_needed) == (
            number,
            0,
            10 * len(round_),
        )
        # nine answers to every pair: the round waits for the tenth
        nearly = {pair: _nine(counts) for pair, counts in round_.items()}
        partial = study.votes([*study.ROUNDS[: number - 1], nearly])
        assert quicksort_advance(state, partial) == state
        progress = round_progress(state, partial)
        assert (progress.pairs_complete, progress.answers) == (0, 9 * len(round_))
        state = quicksort_advance(state, study.votes(study.ROUNDS[:number]))
        assert state.rounds == number
    assert state.done and state.groups() == study.GROUPS
    final = round_progress(state, study.votes())
    assert (final.done, final.round, final.pairs, final.settled) == (True, 3, (), 7)


def _nine(counts):
    x, y, equal = counts
    # drop one answer of the most frequent kind
    most = max(range(3), key=lambda i: counts[i])
    return tuple(c - (i == most) for i, c in enumerate((x, y, equal)))


def test_the_state_is_a_function_of_the_answers_so_far_whatever_their_order_or_sides():
    answers = study.answers()
    forward, backward = PairVotes(), PairVotes()
    for a, b, answer in answers:
        forward.add(a, b, answer)
    for a, b, answer in reversed(answers):  # and with every side swapped
        backward.add(b, a, {"A": "B", "B": "A", "equal": "equal"}[answer])
    start = quicksort_start(study.CANDIDATES)
    assert quicksort_advance(start, forward) == quicksort_advance(start, backward)


def test_answers_to_pairs_the_round_does_not_ask_change_nothing():
    # a worker (or a hundred throwaway ones) answering pairs of their choosing: round 1
    # asks (x, f) pairs only, so 50 answers to (a, b) neither advance nor move anything
    state = quicksort_start(study.CANDIDATES)
    spam = study.votes(study.ROUNDS[:0])
    spam.add("b", "a", "A", times=50)
    assert quicksort_advance(state, spam) == state
    spam_and_round = study.votes(study.ROUNDS[:1])
    spam_and_round.add("b", "a", "A", times=50)
    after = quicksort_advance(state, spam_and_round)
    assert after == quicksort_advance(state, study.votes(study.ROUNDS[:1]))


def test_margin_and_answers_per_pair_are_settings():
    # margin 5: (d, f) +2 and (c, f) +4 are no longer enough → equal to f; round 2 then
    # sorts {a, b, g} above and refines {c, d, e} equal to f, which has no answers
    state = quicksort_advance(quicksort_start(study.CANDIDATES), study.votes(), margin=5)
    assert state.rounds == 1 and not state.done
    assert {part.docs for part in state.parts} == {("a", "b", "g"), ("c", "d", "e")}
    # 3 answers a pair: the first round's pairs all have them
    three = quicksort_advance(quicksort_start(study.CANDIDATES), study.votes(), answers_per_pair=3)
    assert three.groups() == study.GROUPS
    with pytest.raises(ValueError, match="the margin must be from 1 to the answers per pair"):
        quicksort_advance(quicksort_start("ab"), PairVotes(), margin=11)
    with pytest.raises(ValueError, match="answers per pair must be at least 1"):
        quicksort_advance(quicksort_start("ab"), PairVotes(), answers_per_pair=0)


def test_the_pivots_are_drawn_reproducibly_from_the_seed():
    assert quicksort_start(study.CANDIDATES, seed=0).pivots() == ["f"]
    assert quicksort_start(study.CANDIDATES, seed=3).pivots() == ["b"]
    assert quicksort_start(list(reversed(study.CANDIDATES)), seed=3).pivots() == ["b"]


def test_groups_are_only_given_once_the_sort_is_done():
    with pytest.raises(ValueError, match="the sort is not done"):
        quicksort_start(study.CANDIDATES).groups()
    assert quicksort_start(["only"]).groups() == (("only",),)
    with pytest.raises(ValueError, match="a candidate is listed twice"):
        quicksort_start(["a", "a"])


def test_a_finished_study_is_sorted_without_knowing_its_pivots():
    assert groups_from_answered_pairs(study.votes()) == study.GROUPS


def test_a_study_run_with_other_pivots_is_sorted_too():
    # the same candidates and opinions sorted with seed 3 (first pivot b): the answers
    # a study drawing other pivots would have, read back without knowing them
    truth = {"a": 4, "g": 4, "b": 3, "c": 3, "d": 2, "e": 1, "f": 1}
    state = quicksort_start(study.CANDIDATES, seed=3)
    votes = PairVotes()
    while not state.done:
        for doc, pivot in state.round_pairs():
            gap = truth[doc] - truth[pivot]
            answer = "A" if gap > 0 else "B" if gap < 0 else "equal"
            votes.add(doc, pivot, answer, times=10)
        state = quicksort_advance(state, votes, answers_per_pair=10)
    assert state.groups() == study.GROUPS
    assert groups_from_answered_pairs(votes) == study.GROUPS


def test_a_study_that_stopped_early_or_is_not_a_quicksort_is_refused():
    with pytest.raises(ValueError, match="the answers stop before the sort is done"):
        groups_from_answered_pairs(study.votes(study.ROUNDS[:2]))
    extra = study.votes()
    extra.add("a", "e", "A")  # a pair no round of this sort asks
    with pytest.raises(ValueError, match="not those of a three-way QuickSort"):
        groups_from_answered_pairs(extra)


def test_finding_the_pivots_is_bounded():
    # every pair of 12 candidates answered "equal": a chain of refinements (pivot c00,
    # then c01 among the rest, …) asks exactly these 66 pairs → one group of all twelve
    votes = PairVotes()
    docs = [f"c{i:02d}" for i in range(12)]
    for i, a in enumerate(docs):
        for b in docs[i + 1 :]:
            votes.add(a, b, "equal", times=10)
    assert groups_from_answered_pairs(votes) == (tuple(docs),)
    # the search gives up after max_steps parts rather than running without end
    with pytest.raises(ValueError, match="no pivots found after trying 5 parts"):
        groups_from_answered_pairs(votes, max_steps=5)
