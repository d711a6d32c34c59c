"""Writing TREC qrels from several judgments per query–clip pair.

Pure functions (no database). Several judgments of a pair are consolidated into one
level by :func:`evaluation.core.consolidation.consolidate`, the same function the
leaderboards use, so the qrels a campaign downloads are the judgments its results were
computed on. Policies (documented there): ``mean`` (the default; the mean rounded to
the nearest level, halves up: Broad 1 and 2 → 2, Fine 40 and 45 → 43), ``median``,
``first`` (the judgment made first, earliest ``created_at``) and ``latest``.

Values are integers so that every TREC tool (trec_eval, ``python -m evaluation.core``)
reads them. A pair judged on one scale but not yet on the other appears only in the
qrels of the scale it has.
"""

from __future__ import annotations

from collections.abc import Iterable

from evaluation.core.consolidation import POLICIES, consolidate

__all__ = ["POLICIES", "SCALES", "consolidate", "qrels_lines"]

SCALES = ("broad", "fine")


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
