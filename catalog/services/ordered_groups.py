"""Writing a ground truth of ordered groups into a source, query by query, never silently.

An import (a groups file, a past pairwise study) hands :func:`source_groups_write` every
query's groups by primary keys. For each query the source

- gets the groups of a query it does not hold yet;
- leaves identical groups alone (the same file twice changes nothing);
- refuses, before writing anything, **different** groups for a query it already holds
  unless ``replace`` is given (:class:`GroupsConflict` names the first queries); with
  ``replace`` that query's groups are the file's, as a whole (a clip left out of them
  leaves the query's ground truth);
- keeps the queries the input does not mention.

Anything written asks for one recompute of the collection's results after the commit
(:func:`work.handoff.collection_data_changed`): ADR on the leaderboards follows the
official groups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from catalog.models import JudgmentSource, OrderedGroupEntry, Query
from common.conflicts import Conflict
from work import handoff

BATCH_SIZE = 1000
SHOWN_CHANGES = 5

QueryGroups = Sequence[Sequence[int]]
"""One query's groups of clip ids, most similar first."""


@dataclass
class GroupsWrite:
    """What writing groups into a source did, counted in queries and clips."""

    source: JudgmentSource
    source_created: bool = False
    queries_created: int = 0
    queries_replaced: int = 0
    queries_unchanged: int = 0
    queries_kept: int = 0
    clips_written: int = 0
    changed: list[str] = field(default_factory=list)


class GroupsConflict(Conflict):
    """The input holds other groups for queries the source already holds, without ``replace``."""


def _placed(groups: QueryGroups) -> dict[int, int]:
    return {clip: number for number, group in enumerate(groups, start=1) for clip in group}


def source_groups_write(
    *,
    source: JudgmentSource,
    groups: Mapping[int, QueryGroups],
    source_created: bool = False,
    replace: bool = False,
    origin: str = "",
) -> GroupsWrite:
    """Write ``groups`` (``{query id: [[clip id, …], …]}``) into ``source``; see the module.

    Raises :class:`GroupsConflict` (nothing written) when a query's groups differ from
    the ones the source holds and ``replace`` is false.
    """
    write = GroupsWrite(source=source, source_created=source_created)
    with transaction.atomic():
        # One write into a source at a time: a parallel one waits here, then sees ours.
        JudgmentSource.objects.select_for_update().filter(pk=source.pk).exists()
        stored: dict[int, dict[int, int]] = {}
        rows = OrderedGroupEntry.objects.filter(source=source).order_by()
        for query_id, clip_id, group in rows.values_list("query_id", "clip_id", "group"):
            stored.setdefault(query_id, {})[clip_id] = group
        created, replaced = [], []
        for query_id, query_groups in groups.items():
            placed = _placed(query_groups)
            before = stored.get(query_id)
            if before is None:
                created.append(query_id)
            elif before == placed:
                write.queries_unchanged += 1
            else:
                replaced.append(query_id)
        write.queries_kept = len(stored.keys() - groups.keys())
        write.queries_created, write.queries_replaced = len(created), len(replaced)
        if replaced:
            names = dict(
                Query.objects.filter(pk__in=replaced[:SHOWN_CHANGES]).values_list(
                    "pk", "clip__external_id"
                )
            )
            write.changed = [names[q] for q in replaced[:SHOWN_CHANGES]]
        if replaced and not replace:
            more = len(replaced) - len(write.changed)
            raise GroupsConflict(
                f"source '{source.name}' already holds other groups for {len(replaced):,} "
                f"quer{'y' if len(replaced) == 1 else 'ies'} ({', '.join(write.changed)}"
                f"{f' and {more:,} more' if more else ''}): give replace (--replace) to "
                "change them, or another source name to keep both"
            )
        if not (created or replaced):
            return write
        OrderedGroupEntry.objects.filter(source=source, query_id__in=replaced).delete()
        entries = [
            OrderedGroupEntry(source=source, query_id=query_id, clip_id=clip, group=number)
            for query_id in (*created, *replaced)
            for clip, number in _placed(groups[query_id]).items()
        ]
        OrderedGroupEntry.objects.bulk_create(entries, batch_size=BATCH_SIZE)
        write.clips_written = len(entries)
        updates = {"updated_at": timezone.now()}
        if origin:
            updates["origin"] = origin[:500]
        JudgmentSource.objects.filter(pk=source.pk).update(**updates)
        handoff.collection_data_changed(collection_id=source.collection_id)
    return write
