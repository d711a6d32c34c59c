"""Ordered groups from pairwise preferences: a three-way QuickSort run in rounds
(Urbano, Morato, Marrero and Martín 2010).

For a query's candidates, each round asks about pairs (candidate, pivot): "which is
more similar to the query, A, B, or are they equally similar?", ``answers_per_pair``
times (10 in the paper). Every part of the list still to be sorted has a pivot; a
candidate goes *above* its pivot when the answers preferring it outnumber those
preferring the pivot by at least ``margin`` (2 in the paper), *below* when the pivot's
outnumber its by ``margin``, and otherwise into the pivot's *equal* set. The next round
sorts "above" and "below" the same way and refines "equal" with a new pivot, the
earlier pivots joining the middle group of the new one (they were equal to every
candidate there); a part of one candidate is settled. The groups, most similar first,
are the result.

Written for an application that drives it as answers arrive: a :class:`SortState` is
plain data, :func:`quicksort_advance` moves it on as far as the answers so far allow,
:meth:`SortState.round_pairs` lists the pairs the current round needs,
:func:`round_progress` says how far that round is, and :meth:`SortState.groups` gives
the groups once done. Pivots are drawn at random, reproducibly: from ``seed`` and the
candidates of the part (a SHA-256 hash), so the same answers give the same state in
any process. Which pairs are trap questions is the application's business.

A finished study whose pivots are not known (one made elsewhere, read from its
answers by :mod:`evaluation.core.ordered_groups.past_study`) is sorted by
:func:`groups_from_answered_pairs`, which finds the pivots in the pairs themselves.

Reference: J. Urbano, J. Morato, M. Marrero, D. Martín, "Crowdsourcing preference
judgments for evaluation of music similarity tasks", ACM SIGIR Workshop on
Crowdsourcing for Search Evaluation, 2010, pp. 9–16 (thesis §2.5 cites it).
*Not found in the sources available here*: how the paper chose its pivots (random
here) and whether a pair was decided before all its answers were in (here a round
waits for ``answers_per_pair`` answers to each of its pairs, and then uses all of
them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.core.ordered_groups.votes import PairVotes

DEFAULT_MARGIN = 2
DEFAULT_ANSWERS_PER_PAIR = 10


@dataclass(frozen=True)
class Part:
    """A stretch of the list: candidates still to sort (``settled`` False), all equal
    to the earlier pivots ``ties``, or a final group (``settled`` True, ``docs`` the
    whole group)."""

    docs: tuple[str, ...]
    ties: tuple[str, ...] = ()
    settled: bool = False


@dataclass(frozen=True)
class SortState:
    """Where the sort of one query stands: its parts in order, most similar first."""

    parts: tuple[Part, ...]
    rounds: int = 0  # rounds completed
    seed: int = 0

    @property
    def done(self) -> bool:
        return all(part.settled for part in self.parts)

    def pivots(self) -> list[str | None]:
        """The pivot of each part still to sort (None for a settled part)."""
        return [None if p.settled else _pivot(p.docs, self.seed) for p in self.parts]

    def round_pairs(self) -> list[tuple[str, str]]:
        """The pairs ``(candidate, pivot)`` the current round needs answers to."""
        return [
            (doc, pivot)
            for part, pivot in zip(self.parts, self.pivots(), strict=True)
            if pivot is not None
            for doc in part.docs
            if doc != pivot
        ]

    def groups(self) -> tuple[tuple[str, ...], ...]:
        """The ordered groups (documents sorted inside a group); only once done."""
        if not self.done:
            raise ValueError("the sort is not done: the current round still needs answers")
        return tuple(part.docs for part in self.parts)


@dataclass(frozen=True)
class RoundProgress:
    """How far the current round is: ``round`` (1 = the first), its ``pairs``, how many
    have all their answers, and answers given (at most ``answers_per_pair`` counted a
    pair) against answers needed; ``settled`` candidates are in final groups."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    pairs_complete: int
    answers: int
    answers_needed: int
    settled: int
    candidates: int
    done: bool


def quicksort_start(candidates: Sequence[str], *, seed: int = 0) -> SortState:
    """The state before the first round: one part holding every candidate.

    >>> quicksort_start(["c", "a", "b"]).round_pairs()
    [('a', 'b'), ('c', 'b')]
    """
    docs = tuple(sorted(set(candidates)))
    if len(docs) != len(candidates):
        raise ValueError("a candidate is listed twice")
    if not docs:
        raise ValueError("there are no candidates to sort")
    return SortState(parts=_normalised([Part(docs)]), seed=seed)


def quicksort_advance(
    state: SortState,
    votes: PairVotes,
    *,
    margin: int = DEFAULT_MARGIN,
    answers_per_pair: int = DEFAULT_ANSWERS_PER_PAIR,
) -> SortState:
    """Move the sort on through every round whose pairs all have ``answers_per_pair``
    answers; the state where answers are still missing (or the finished one)."""
    _check_settings(margin, answers_per_pair)
    while not state.done:
        pairs = state.round_pairs()
        if any(votes.answers(doc, pivot) < answers_per_pair for doc, pivot in pairs):
            return state
        parts: list[Part] = []
        for part, pivot in zip(state.parts, state.pivots(), strict=True):
            parts.extend([part] if pivot is None else _split(part, pivot, votes, margin))
        state = SortState(parts=_normalised(parts), rounds=state.rounds + 1, seed=state.seed)
    return state


def round_progress(
    state: SortState, votes: PairVotes, *, answers_per_pair: int = DEFAULT_ANSWERS_PER_PAIR
) -> RoundProgress:
    """How far the current round of ``state`` is with ``votes``."""
    pairs = tuple(state.round_pairs())
    given = [min(votes.answers(doc, pivot), answers_per_pair) for doc, pivot in pairs]
    return RoundProgress(
        round=state.rounds + (0 if state.done else 1),
        pairs=pairs,
        pairs_complete=sum(1 for g in given if g >= answers_per_pair),
        answers=sum(given),
        answers_needed=answers_per_pair * len(pairs),
        settled=sum(len(p.docs) for p in state.parts if p.settled),
        candidates=sum(len(p.docs) + len(p.ties) for p in state.parts),
        done=state.done,
    )


def _check_settings(margin: int, answers_per_pair: int) -> None:
    if answers_per_pair < 1:
        raise ValueError(f"answers per pair must be at least 1, got {answers_per_pair}")
    if not 1 <= margin <= answers_per_pair:
        raise ValueError(f"the margin must be from 1 to the answers per pair, got {margin}")


def _pivot(docs: tuple[str, ...], seed: int) -> str:
    digest = hashlib.sha256(f"{seed}\x00".encode() + "\x00".join(docs).encode()).digest()
    return docs[int.from_bytes(digest[:8], "big") % len(docs)]


def _split(part: Part, pivot: str, votes: PairVotes, margin: int) -> list[Part]:
    """Above, the pivot's middle, below: one round's outcome for one part."""
    above, equal, below = [], [], []
    for doc in part.docs:
        if doc == pivot:
            continue
        for_doc, for_pivot, _ = votes.count(doc, pivot)
        if for_doc - for_pivot >= margin:
            above.append(doc)
        elif for_pivot - for_doc >= margin:
            below.append(doc)
        else:
            equal.append(doc)
    ties = (*part.ties, pivot)
    middle = Part(tuple(equal), ties) if equal else Part(tuple(sorted(ties)), settled=True)
    return [Part(tuple(above)), middle, Part(tuple(below))]


def _normalised(parts: list[Part]) -> tuple[Part, ...]:
    """Drop empty parts; settle a part of one candidate (with its ties, if any)."""
    out = []
    for part in parts:
        if part.settled or len(part.docs) > 1:
            out.append(part)
        elif part.docs or part.ties:
            out.append(Part(tuple(sorted(part.docs + part.ties)), settled=True))
    return tuple(out)


def groups_from_answered_pairs(
    votes: PairVotes, *, margin: int = DEFAULT_MARGIN, max_steps: int = 100_000
) -> tuple[tuple[str, ...], ...]:
    """The groups of a finished study whose pivots are not recorded.

    A part's pivot is a candidate paired with every other candidate of the part, and
    the pairs answered inside a part must be exactly those its rounds ask: the pivot's,
    then those of the parts it splits into. Where several candidates qualify (a pivot
    and the one that refined its "equal" set are both paired with everyone), each is
    tried in id order and the first that accounts for every pair is kept. Every pair
    counts with the answers it has (no minimum). Raises ``ValueError`` when the
    answers stop before the sort is done, or when no choice of pivots uses the pairs
    answered (at most ``max_steps`` parts are tried).
    """
    inside = _PairsInside(votes)
    steps = [0]
    stopped: list[tuple[str, ...]] = []  # parts left unsorted by the answers

    def sort(docs: tuple[str, ...], ties: tuple[str, ...]) -> list[tuple[str, ...]] | None:
        steps[0] += 1
        if steps[0] > max_steps:
            raise ValueError(f"no pivots found after trying {max_steps} parts")
        if len(docs) <= 1:
            return [tuple(sorted(docs + ties))] if docs or ties else []
        if inside.count(docs) == 0:
            stopped.append(docs)
            return None
        for pivot in docs:
            if any(votes.answers(doc, pivot) == 0 for doc in docs if doc != pivot):
                continue
            above, middle, below = _split(Part(docs, ties), pivot, votes, margin)
            subparts = [above, middle, below]
            used = len(docs) - 1 + sum(inside.count(p.docs) for p in subparts if not p.settled)
            if used != inside.count(docs):
                continue
            sorted_parts = [[p.docs] if p.settled else sort(p.docs, p.ties) for p in subparts]
            if all(s is not None for s in sorted_parts):
                return [group for s in sorted_parts for group in s]
        return None

    candidates = tuple(votes.candidates())
    groups = sort(candidates, ())
    if groups is None and stopped:
        raise ValueError(
            "the answers stop before the sort is done: no pair among "
            f"{', '.join(stopped[0])} was answered"
        )
    if groups is None:
        raise ValueError(
            "the pairs answered are not those of a three-way QuickSort: no choice of pivots "
            f"asks exactly these {len(votes.pairs())} pairs of {len(candidates)} candidates"
        )
    return tuple(groups)


class _PairsInside:
    """How many answered pairs lie inside a set of candidates."""

    def __init__(self, votes: PairVotes) -> None:
        self.pairs = votes.pairs()

    def count(self, docs: Sequence[str]) -> int:
        members = set(docs)
        return sum(1 for a, b in self.pairs if a in members and b in members)
