"""Clear-cut preference examples from relevance judgments: the answers a trap question can
expect (thesis §3.2.2) and quiz questions drawn from judged clips (the lists of §3.2.1).

A trap question needs an answer nobody who listens would dispute. The judgments say how
similar each clip sounds to the query; a list's **level** is the mean of its clips'
levels, each in [0, 1]: Fine / 100 where the clip has a Fine score, else Broad / 2 (Not
similar 0, Somewhat similar 0.5, Very similar 1: the Broad scale's levels 0, 1, 2 of
§3.1, put on [0, 1] as §7.2 compares the two scales), so that a collection judged on
the Broad scale alone — TREC qrels — makes trap questions too. On one scale the level
is the list's CG_l@k, the cumulative gain with linear gain normalised by its largest
value (§3.1.1, eq. (3.3)): the measure MIREX reports with both scales, which looks at
nothing but the clips shown, as a worker does. An example is **clear-cut**
(:func:`clear_cut_answer`) when one list's level is at least :data:`CLEAR_LEAD` above the
other's (that list is better), or both are at least :data:`BOTH_GOOD_FROM` (both good), or
both at most :data:`BOTH_BAD_UP_TO` (both bad) — as the thesis gave CrowdFlower trap
examples "fairly easy to answer", 5 for each of the four answers (§3.2.2).

Read on the Broad scale alone (issue 31 item 3), with lists of ``k = 5``: one list is
better when its mean Broad level is at least 0.8 above the other's (Very, Very, Very,
Somewhat, Somewhat — 1.6 — against four Somewhat and one Not similar — 0.8); both are
good when both mean at least 1.4 (e.g. every clip Very similar, or one Somewhat and one
Not similar among Very similar ones); both are bad when both mean at most 0.5 (every clip
Not similar, or two Somewhat similar at most).

:func:`clear_cut_lists` draws two lists of ``k`` judged clips for one of the four answers,
as the §3.2.1 generator draws lists from judged clips: for "A better", ``k`` of a query's
``m`` most similar clips against ``k`` of its ``m`` least similar, ``m`` as wide as keeps
*every* such draw clear-cut. Query 1 of the demo (16 judged clips) allows ``m = 6``:
``C(6, 5)² = 36`` pairs of lists each way; a collection judged more deeply allows far
more, so that every worker can be given quiz questions nobody else was shown.

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


def _widest(ranked: list[float], *, k: int, need, limit: int) -> int | None:
    """The largest ``m`` (``k ≤ m ≤ limit``) whose weakest ``k`` of the first ``m`` of
    ``ranked`` still satisfy ``need`` (so every draw of ``k`` among them does); None when
    not even the first ``k`` do."""
    best = None
    for m in range(k, limit + 1):
        if need(ranked[m - k : m]):
            best = m
    return best


def _spans(levels: Mapping[str, float], k: int) -> dict[str, int]:
    """For each answer that can be drawn, how many clips from each end of the ranking the
    draw may take (:func:`clear_cut_lists`)."""
    down = sorted(levels.values(), reverse=True)
    up = down[::-1]
    n = len(down)
    spans: dict[str, int] = {}
    for m in range(k, n // 2 + 1):  # the two ends never share a clip
        weakest_top = down[m - k : m]
        weakest_bottom = up[m - k : m]
        if sum(weakest_top) / k - sum(weakest_bottom) / k >= CLEAR_LEAD - 1e-9:
            spans[A_BETTER] = spans[B_BETTER] = m
    good = _widest(down, k=k, limit=n, need=lambda w: sum(w) / k >= BOTH_GOOD_FROM - 1e-9)
    if good is not None and good >= 2 * k:
        spans[BOTH_GOOD] = good
    bad = _widest(up, k=k, limit=n, need=lambda w: sum(w) / k <= BOTH_BAD_UP_TO + 1e-9)
    if bad is not None and bad >= 2 * k:
        spans[BOTH_BAD] = bad
    return spans


def clear_cut_kinds(levels: Mapping[str, float], *, k: int) -> list[str]:
    """The answers :func:`clear_cut_lists` can draw two lists of ``k`` clips for.

    >>> levels = {f"s{i}": 0.9 for i in range(4)} | {f"d{i}": 0.1 for i in range(2)}
    >>> clear_cut_kinds(levels, k=2)
    ['a_better', 'b_better', 'both_good']
    """
    return [answer for answer in ANSWERS if answer in _spans(levels, k)]


def clear_cut_lists(
    levels: Mapping[str, float], *, k: int, answer: str, rng: random.Random
) -> tuple[list[str], list[str]] | None:
    """Two lists of ``k`` distinct clips (lists a and b, in rank order) that deserve
    ``answer``, drawn at random from one query's judged clips; None when the clips cannot.

    ``levels`` maps each judged clip of the query to its level (:func:`judged_level`).
    "A better": list a is ``k`` of the query's ``m`` most similar clips and list b ``k``
    of its ``m`` least similar ones ("B better" the other way round), ``m`` the widest
    for which *every* such draw leads by :data:`CLEAR_LEAD` (the weakest ``k`` of each end
    still do); "both good" two disjoint draws from the clips whose weakest ``k`` still
    average :data:`BOTH_GOOD_FROM`, "both bad" likewise at the other end. The lists
    always satisfy :func:`clear_cut_answer`.

    >>> levels = {f"s{i}": 0.9 for i in range(4)} | {f"d{i}": 0.1 for i in range(4)}
    >>> a, b = clear_cut_lists(levels, k=2, answer="b_better", rng=random.Random(1))
    >>> [levels[c] for c in a], [levels[c] for c in b]
    ([0.1, 0.1], [0.9, 0.9])
    >>> clear_cut_lists(levels, k=3, answer="both_good", rng=random.Random(1)) is None
    True
    """
    if answer not in ANSWERS:
        raise ValueError(f"unknown answer {answer!r}; expected one of {ANSWERS}")
    span = _spans(levels, k).get(answer)
    if span is None:
        return None
    ranked = sorted(levels, key=lambda c: (-levels[c], c))
    top, bottom = ranked[:span], ranked[::-1][:span]
    if answer in (A_BETTER, B_BETTER):
        good, bad = rng.sample(top, k), rng.sample(bottom, k)
        return (good, bad) if answer == A_BETTER else (bad, good)
    drawn = rng.sample(top if answer == BOTH_GOOD else bottom, 2 * k)
    return drawn[:k], drawn[k:]
