"""Reads of the ordered groups results use: the official ground truth of ordered groups
(Typke, Veltkamp and Wiering 2006; thesis §2.5, ADR) by external ids, for the core."""

from __future__ import annotations

from catalog.published import Collection, JudgmentSource, OrderedGroupEntry


def collection_ordered_groups(*, collection: Collection) -> dict[str, list[list[str]]]:
    """The ground truth of ordered groups results use: ``{query: [[clip, …], …]}`` by
    external ids, group 1 the most similar (ADR on the leaderboards).

    Only **official** sources count, as for judgments. When several official sources
    hold groups for one query, the groups of the source changed last are used for it
    (they are never merged: a clip's group means something only among its own groups).
    """
    rows = (
        OrderedGroupEntry.objects.filter(
            query__collection=collection, source__status=JudgmentSource.OFFICIAL
        )
        .order_by("-source__updated_at", "-source_id", "group", "clip__external_id")
        .values_list("source_id", "query__clip__external_id", "clip__external_id", "group")
    )
    chosen: dict[str, int] = {}
    placed: dict[str, dict[int, list[str]]] = {}
    for source_id, query, clip, group in rows.iterator(chunk_size=5000):
        if chosen.setdefault(query, source_id) != source_id:
            continue
        placed.setdefault(query, {}).setdefault(group, []).append(clip)
    # Groups in order, without the gap a deleted clip's group would leave.
    return {
        query: [by_group[g] for g in sorted(by_group)] for query, by_group in sorted(placed.items())
    }


def collection_has_official_groups(*, collection: Collection) -> bool:
    """Whether an official source of the collection holds ordered groups (ADR may be asked for)."""
    return OrderedGroupEntry.objects.filter(
        query__collection=collection, source__status=JudgmentSource.OFFICIAL
    ).exists()
