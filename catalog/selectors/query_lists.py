"""What each system returned for one query, with the judgments of each clip (the query's
page: "listen to what systems returned", issue 25)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count

from catalog.models import JudgmentSource, Query, RelevanceJudgment, RunEntry

__all__ = ["QueryLists", "official_judgment_means", "query_lists"]

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


def official_judgment_means(*, query_id: int, clip_ids) -> dict[int, dict]:
    """For each judged clip of ``clip_ids``: the mean Fine and Broad (and how many
    judgments) of the official judgments for the query, in one statement."""
    rows = (
        RelevanceJudgment.objects.filter(
            query_id=query_id, clip__in=clip_ids, source__status=JudgmentSource.OFFICIAL
        )
        .values("clip")
        .annotate(fine=Avg("fine"), broad=Avg("broad"), n=Count("pk"))
    )
    return {row["clip"]: row for row in rows}


def query_lists(*, query: Query, depth: int = DEPTH) -> QueryLists:
    """Each system's top ``depth`` for ``query`` (systems by name), each clip with the
    mean Fine and Broad of its official judgments for the query: two statements."""
    entries = list(
        RunEntry.objects.filter(query=query, rank__lte=depth)
        .select_related("system", "clip")
        .order_by("system__name", "rank")
    )
    judged = official_judgment_means(query_id=query.pk, clip_ids={e.clip_id for e in entries})
    systems: dict[int, tuple[object, list[Returned]]] = {}
    for entry in entries:
        seen = judged.get(entry.clip_id, {})
        systems.setdefault(entry.system_id, (entry.system, []))[1].append(
            Returned(entry.rank, entry.clip, seen.get("fine"), seen.get("broad"), seen.get("n", 0))
        )
    return QueryLists(query, depth, list(systems.values()))
