"""What each system returned for one query, with the judgments of each clip (the query's
page: "listen to what systems returned", issue 25)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count

from judging.models import JudgmentSource, Query, RelevanceJudgment, RunEntry

__all__ = ["QueryLists", "query_lists"]

DEPTH = 10
"""Ranks shown of each system's list unless the page asks for more."""


@dataclass(frozen=True)
class Returned:
    rank: int
    clip: object
    fine: float | None
    broad: float | None
    judgments: int


@dataclass(frozen=True)
class QueryLists:
    query: Query
    depth: int
    systems: list[tuple[object, list[Returned]]]


def query_lists(*, query: Query, depth: int = DEPTH) -> QueryLists:
    """Each system's top ``depth`` for ``query`` (systems by name), each clip with the
    mean Fine and Broad of its official judgments for the query: two statements."""
    entries = list(
        RunEntry.objects.filter(query=query, rank__lte=depth)
        .select_related("system", "clip")
        .order_by("system__name", "rank")
    )
    judged = {
        row["clip"]: row
        for row in RelevanceJudgment.objects.filter(
            query=query, clip__in={e.clip_id for e in entries},
            source__status=JudgmentSource.OFFICIAL,
        ).values("clip").annotate(fine=Avg("fine"), broad=Avg("broad"), n=Count("pk"))
    }  # fmt: skip
    systems: dict[int, tuple[object, list[Returned]]] = {}
    for entry in entries:
        seen = judged.get(entry.clip_id, {})
        systems.setdefault(entry.system_id, (entry.system, []))[1].append(
            Returned(entry.rank, entry.clip, seen.get("fine"), seen.get("broad"), seen.get("n", 0))
        )
    return QueryLists(query, depth, list(systems.values()))
