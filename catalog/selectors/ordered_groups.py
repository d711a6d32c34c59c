"""Reads of ordered groups: a query's groups in each source (the query page), a source's
groups as the text of a groups file (the downloads), the collection's sources of groups."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Count, QuerySet

from catalog.models import Collection, JudgmentSource, OrderedGroupEntry, Query
from catalog.models.sources import GROUP_KINDS
from common.csv_export import spreadsheet_safe

__all__ = [
    "QueryGroups",
    "collection_group_sources",
    "query_ordered_groups",
    "source_groups",
    "source_groups_text",
]


@dataclass(frozen=True)
class QueryGroups:
    """One source's groups for a query: ``groups[0]`` the most similar clips."""

    source: JudgmentSource
    groups: list[list[object]]


def collection_group_sources(*, collection: Collection) -> QuerySet[JudgmentSource]:
    """The collection's sources of ordered groups by name, each with ``query_count``."""
    return (
        collection.judgment_sources.filter(kind__in=GROUP_KINDS)
        .annotate(query_count=Count("group_entries__query", distinct=True))
        .order_by("name")
    )


def query_ordered_groups(*, query: Query) -> list[QueryGroups]:
    """Every source's groups for ``query`` (official sources first, then by name), the
    clips of a group by id: one statement."""
    entries = (
        OrderedGroupEntry.objects.filter(query=query)
        .select_related("source", "clip")
        .order_by("source__status", "source__name", "group", "clip__external_id")
    )
    by_source: dict[int, QueryGroups] = {}
    for entry in entries:
        found = by_source.setdefault(entry.source_id, QueryGroups(entry.source, []))
        while len(found.groups) < entry.group:
            found.groups.append([])
        found.groups[entry.group - 1].append(entry.clip)
    # A clip deleted with its places leaves no gap: the groups keep their order.
    return [
        QueryGroups(found.source, [g for g in found.groups if g]) for found in by_source.values()
    ]


def source_groups(*, source: JudgmentSource) -> dict[str, list[list[str]]]:
    """``{query: [[clip, …], …]}`` of a source, by external ids, clips sorted in a group."""
    rows = (
        OrderedGroupEntry.objects.filter(source=source)
        .order_by("query__clip__external_id", "group", "clip__external_id")
        .values_list("query__clip__external_id", "clip__external_id", "group")
    )
    groups: dict[str, list[list[str]]] = {}
    for query, clip, group in rows.iterator(chunk_size=5000):
        query_groups = groups.setdefault(query, [])
        while len(query_groups) < group:
            query_groups.append([])
        query_groups[group - 1].append(clip)
    # A clip deleted with its places leaves no gap: the groups keep their order.
    return {query: [group for group in gs if group] for query, gs in groups.items()}


def source_groups_text(*, source: JudgmentSource) -> str:
    """The source's groups as a groups file, ``NAME QUERY DOC GROUP`` a line (what
    :func:`evaluation.core.ordered_groups.read_groups` and the import read back): NAME the
    source's name with its spaces as ``_``; every field safe in a spreadsheet
    (:func:`common.csv_export.spreadsheet_safe`: one starting as a formula gets ``'``)."""
    name = spreadsheet_safe(re.sub(r"\s+", "_", source.name.strip()))
    lines = []
    for query, query_groups in source_groups(source=source).items():
        shown_query = spreadsheet_safe(query)
        for number, group in enumerate(query_groups, start=1):
            lines.extend(
                f"{name} {shown_query} {spreadsheet_safe(clip)} {number}\n" for clip in group
            )
    return "".join(lines)
