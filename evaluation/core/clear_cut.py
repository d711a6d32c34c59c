"""Clear-cut preference examples from relevance judgments: the answers a trap question can
expect (thesis §3.2.2) and quiz questions drawn from judged clips (the lists of §3.2.1).

A trap question needs an answer nobody who listens would dispute. The judgments say how
similar each clip sounds to the query; a list's **level** is the mean of its clips'
levels, each in [0, 1]: Fine / 100 where the clip has a Fine score, else Broad / 2 (Not
similar 0, Somewhat similar 0.5, Very similar 1), so that a collection judged on the
Broad scale alone makes trap questions too. An example is **clear-cut**
(:func:`clear_cut_answer`) when one list's level is at least :data:`CLEAR_LEAD` above the
other's (that list is better), or both are at least :data:`BOTH_GOOD_FROM` (both good), or
both at most :data:`BOTH_BAD_UP_TO` (both bad) — as the thesis gave CrowdFlower trap
examples "fairly easy to answer", 5 for each of the four answers (§3.2.2).

:func:`clear_cut_lists` draws two lists of ``k`` judged clips for one of the four answers,
as the §3.2.1 generator draws lists from judged clips: the clearly similar clips
(level ≥ :data:`BOTH_GOOD_FROM`) and the clearly dissimilar ones (≤ :data:`BOTH_BAD_UP_TO`)
of a query give ``C(g, k)·C(d, k)`` pairs of lists for one query with ``g`` similar and
``d`` dissimilar clips (``C(10, 5)² = 63,504`` for ten of each), so that every worker can
be given quiz questions nobody else was shown.

References
----------
J. Urbano (2013). *Evaluation in Audio Music Similarity*, §3.2.1–3.2.2. PhD thesis,
Universidad Carlos III de Madrid. http://hdl.handle.net/10016/18041
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from evaluation.core.answers import A_BETTER, ANSWERS, B_BETTER, BOTH_BAD, BOTH_GOOD

__all__ = [
    "BOTH_BAD_UP_TO",
    "BOTH_GOOD_FROM",
    "CLEAR_LEAD",
    "clear_cut_answer",
    "clear_cut_kinds",
    "clear_cut_lists",
    "judged_level",
    "list_level",
]

CLEAR_LEAD = 0.40
"""One list is clearly better when its level is at least this much above the other's
(40 points of Fine's 100)."""

BOTH_GOOD_FROM = 0.70
"""Both lists are clearly good when both levels are at least this (Fine 70)."""

BOTH_BAD_UP_TO = 0.25
"""Both lists are clearly bad when both levels are at most this (Fine 25)."""


def judged_level(fine: float | None, broad: float | None) -> float | None:
    """A clip's judged similarity in [0, 1]: Fine / 100, else Broad / 2, else None.

    >>> judged_level(85, 2), judged_level(None, 1), judged_level(None, None) is None
    (0.85, 0.5, True)
    """
    if fine is not None:
        return float(fine) / 100.0
    if broad is not None:
        return float(broad) / 2.0
    return None


def list_level(levels: Sequence[float | None]) -> float | None:
    """The mean level of a list's clips; None unless every clip is judged."""
    if not levels or any(level is None for level in levels):
        return None
    return sum(levels) / len(levels)


def clear_cut_answer(level_a: float, level_b: float) -> str | None:
    """The one answer an example clearly deserves, from its lists' levels in [0, 1].

    >>> clear_cut_answer(0.85, 0.40), clear_cut_answer(0.72, 0.90), clear_cut_answer(0.1, 0.25)
    ('a_better', 'both_good', 'both_bad')
    >>> clear_cut_answer(0.60, 0.40) is None  # not clear-cut: no trap question
    True
    """
    eps = 1e-9  # 0.25 read from Broad or Fine is 0.25, whatever the last bits of a mean
    if level_a - level_b >= CLEAR_LEAD - eps:
        return A_BETTER
    if level_b - level_a >= CLEAR_LEAD - eps:
        return B_BETTER
    if min(level_a, level_b) >= BOTH_GOOD_FROM - eps:
        return BOTH_GOOD
    if max(level_a, level_b) <= BOTH_BAD_UP_TO + eps:
        return BOTH_BAD
    return None


def clear_cut_kinds(levels: Mapping[str, float], *, k: int) -> list[str]:
    """The answers :func:`clear_cut_lists` can draw two lists of ``k`` clips for.

    >>> levels = {f"s{i}": 0.9 for i in range(4)} | {f"d{i}": 0.1 for i in range(2)}
    >>> clear_cut_kinds(levels, k=2)
    ['a_better', 'b_better', 'both_good']
    """
    similar = sum(1 for level in levels.values() if level >= BOTH_GOOD_FROM)
    dissimilar = sum(1 for level in levels.values() if level <= BOTH_BAD_UP_TO)
    kinds = [A_BETTER, B_BETTER] if similar >= k and dissimilar >= k else []
    kinds += [BOTH_GOOD] if similar >= 2 * k else []
    kinds += [BOTH_BAD] if dissimilar >= 2 * k else []
    return kinds


def clear_cut_lists(
    levels: Mapping[str, float], *, k: int, answer: str, rng: random.Random
) -> tuple[list[str], list[str]] | None:
    """Two lists of ``k`` distinct clips (lists a and b, in rank order) that deserve
    ``answer``, drawn at random from one query's judged clips; None when the clips cannot.

    ``levels`` maps each judged clip of the query to its level (:func:`judged_level`).
    "A better" puts ``k`` clearly similar clips in list a and ``k`` clearly dissimilar
    ones in list b ("B better" the other way round); "both good" two disjoint sets of
    clearly similar clips, "both bad" of clearly dissimilar ones. The lists always
    satisfy :func:`clear_cut_answer`.

    >>> levels = {f"s{i}": 0.9 for i in range(4)} | {f"d{i}": 0.1 for i in range(4)}
    >>> a, b = clear_cut_lists(levels, k=2, answer="b_better", rng=random.Random(1))
    >>> [levels[c] for c in a], [levels[c] for c in b]
    ([0.1, 0.1], [0.9, 0.9])
    >>> clear_cut_lists(levels, k=3, answer="both_good", rng=random.Random(1)) is None
    True
    """
    if answer not in ANSWERS:
        raise ValueError(f"unknown answer {answer!r}; expected one of {ANSWERS}")
    similar = sorted(c for c, level in levels.items() if level >= BOTH_GOOD_FROM)
    dissimilar = sorted(c for c, level in levels.items() if level <= BOTH_BAD_UP_TO)
    if answer in (A_BETTER, B_BETTER):
        if len(similar) < k or len(dissimilar) < k:
            return None
        good, bad = rng.sample(similar, k), rng.sample(dissimilar, k)
        return (good, bad) if answer == A_BETTER else (bad, good)
    pool = similar if answer == BOTH_GOOD else dissimilar
    if len(pool) < 2 * k:
        return None
    drawn = rng.sample(pool, 2 * k)
    return drawn[:k], drawn[k:]
