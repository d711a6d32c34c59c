"""Consolidating several judgments of one query–clip pair into qrels, and writing them.

Pure functions (no database). The **consolidation policy** says which single
relevance value a pair gets when several assessors judged it:

``mean``
    the arithmetic mean of the scores, rounded to the nearest integer, halves up
    (Broad 1 and 2 → 2; Fine 40 and 45 → 43);
``median``
    the median of the scores (the mean of the two middle ones for an even count),
    rounded the same way;
``first``
    the score of the judgment made first (earliest ``created_at``).

Values are integers so that every TREC tool (trec_eval, ``python -m evaluation.core``)
reads them. A pair judged on one scale but not yet on the other appears only in the
qrels of the scale it has.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence

POLICIES = ("mean", "median", "first")
SCALES = ("broad", "fine")


def round_half_up(value: float) -> int:
    return math.floor(value + 0.5)


def consolidate(values: Sequence[int], *, policy: str) -> int:
    """One relevance value from several, given in the order they were made.

    >>> consolidate([1, 2], policy="mean"), consolidate([40, 45, 90], policy="median")
    (2, 45)
    >>> consolidate([70, 10], policy="first")
    70
    """
    if not values:
        raise ValueError("nothing to consolidate")
    if policy == "mean":
        return round_half_up(statistics.fmean(values))
    if policy == "median":
        return round_half_up(statistics.median(values))
    if policy == "first":
        return int(values[0])
    raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")


def qrels_lines(judgments: Iterable[tuple[str, str, int]], *, policy: str) -> list[str]:
    """TREC qrels lines ``query 0 clip relevance`` from (query, clip, value) in order made.

    >>> qrels_lines([("q1", "c2", 1), ("q1", "c2", 2), ("q1", "c1", 0)], policy="mean")
    ['q1 0 c1 0', 'q1 0 c2 2']
    """
    grouped: dict[tuple[str, str], list[int]] = {}
    for query, clip, value in judgments:
        grouped.setdefault((query, clip), []).append(value)
    return [
        f"{query} 0 {clip} {consolidate(values, policy=policy)}"
        for (query, clip), values in sorted(grouped.items())
    ]
