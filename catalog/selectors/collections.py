"""Reads of test collections: their clips, queries, systems, runs and judgments."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Max, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from catalog.models import (
    Clip,
    Collection,
    CollectionShare,
    JudgmentSource,
    Query,
    RelevanceJudgment,
    RunEntry,
    System,
)
from catalog.search import prefix_search
from catalog.selectors.access import Need, organiser_collections


def collections_for_organiser(*, user, need: Need = "write") -> QuerySet[Collection]:
    """The collections ``user`` reaches for ``need``, with their numbers of clips, queries
    and systems (each counted by its own subquery, so the counts never multiply)."""

    def count(model, **outer):
        rows = model.objects.filter(**outer).order_by().values(*outer).annotate(n=Count("pk"))
        return Coalesce(Subquery(rows.values("n")[:1]), 0)

    return organiser_collections(user=user, need=need).annotate(
        clip_count=count(Clip, collection=OuterRef("pk")),
        query_count=count(Query, collection=OuterRef("pk")),
        system_count=count(System, collection=OuterRef("pk")),
    )


def collection_list(*, user, archived: bool = False) -> list[Collection]:
    """The collections a user may read, archived or not, each with ``access`` for the page
    (``owner``, ``full`` or ``read``) and its owner's name."""
    collections = list(
        collections_for_organiser(user=user, need="read")
        .filter(archived_at__isnull=not archived)
        .select_related("owner")
        .order_by("name", "pk")
    )
    shared = dict(
        CollectionShare.objects.filter(user=user, collection__in=collections).values_list(
            "collection_id", "access"
        )
    )
    for collection in collections:
        mine = user.is_superuser or collection.owner_id == user.pk
        collection.access = "owner" if mine else shared.get(collection.pk)
    return collections


def collection_counts(*, collection: Collection) -> dict[str, int]:
    """How many clips, queries and systems the collection has (three indexed counts)."""
    return {
        "clips": collection.clips.count(),
        "queries": collection.queries.count(),
        "systems": collection.systems.count(),
    }


def collection_shares(*, collection: Collection) -> QuerySet[CollectionShare]:
    return collection.shares.select_related("user").order_by("user__username")


def collection_with_counts(*, user, collection_id: int, need: Need = "write") -> Collection:
    """One collection of :func:`collections_for_organiser`, with its counts; else 404."""
    return get_object_or_404(collections_for_organiser(user=user, need=need), pk=collection_id)


CLIP_SEARCH = ("external_id", "title", "artist")


def collection_clips(*, collection: Collection, search: str = "") -> QuerySet[Clip]:
    """The collection's clips by id; with ``search``, those whose id, title or artist starts
    with it (an index range, :mod:`catalog.search`)."""
    clips = prefix_search(
        Clip.objects.all(), search, fields=CLIP_SEARCH, scope={"collection": collection}
    )
    return clips.order_by("external_id")


def collection_queries(*, collection: Collection, search: str = "") -> QuerySet[Query]:
    """The collection's queries by their clip's id; ``search`` as for clips, on the clip."""
    queries = prefix_search(
        Query.objects.select_related("clip"),
        search,
        fields=tuple(f"clip__{field}" for field in CLIP_SEARCH),
        scope={"collection": collection},
    )
    return queries.order_by("clip__external_id")


def collection_systems(*, collection: Collection, search: str = "") -> QuerySet[System]:
    """The collection's systems by name, with their numbers of run entries; ``search`` on
    the beginning of the name or team."""
    entries = (
        RunEntry.objects.filter(system=OuterRef("pk"))
        .order_by()
        .values("system")
        .annotate(n=Count("pk"))
        .values("n")
    )
    systems = prefix_search(
        System.objects.all(), search, fields=("name", "team"), scope={"collection": collection}
    )
    return systems.annotate(entries=Coalesce(Subquery(entries[:1]), 0)).order_by("name")


def collection_system(*, collection: Collection, system_id: int) -> System:
    """A system of the collection; 404 for a system of another collection."""
    return get_object_or_404(collection.systems, pk=system_id)


def system_rankings(*, system: System) -> dict[str, list[str]]:
    """``{query clip id: [clip id, …]}``, best first: the system's run by external ids."""
    rankings: dict[str, list[str]] = {}
    rows = (
        RunEntry.objects.filter(system=system)
        .order_by("query__clip__external_id", "rank")
        .values_list("query__clip__external_id", "clip__external_id")
    )
    for query, clip in rows:
        rankings.setdefault(query, []).append(clip)
    return rankings


def collection_judgments(*, collection: Collection) -> QuerySet[RelevanceJudgment]:
    """Every judgment of the collection, oldest first, with query, clip and assessor."""
    return (
        RelevanceJudgment.objects.filter(query__collection=collection)
        .select_related("query__clip", "clip", "assessor", "source")
        .order_by("pk")
    )


def collection_judged_scales(*, collection: Collection) -> tuple[str, ...]:
    """The scales the collection's official judgments are on, Fine first: a collection of
    TREC qrels is judged on the Broad scale only, a MIREX one on both. What a measure
    chosen by default is on (a satisfaction mapping, a low-cost campaign: issue 31)."""
    official = RelevanceJudgment.objects.filter(
        query__collection=collection, source__status=JudgmentSource.OFFICIAL
    )
    return tuple(
        s for s in ("fine", "broad") if official.filter(**{f"{s}__isnull": False}).exists()
    )


@dataclass(frozen=True)
class ClipLoudness:
    external_id: str
    loudness: float | None
    true_peak: float | None
    duration: float | None
    has_copy: bool
    heard_loudness: float | None = None
    """The copy's loudness: what listeners hear (``None`` without a copy, or for a copy
    made before it was measured)."""
    heard_true_peak: float | None = None


LOUDNESS_ROWS = 500
"""The loudest and quietest clips shown on "What listeners hear" (a spread, not every row)."""


def collection_loudness(*, collection: Collection) -> dict:
    """The spread of the clips' measured loudness, and the clips furthest from the middle."""
    clips = collection.clips.exclude(audio="")
    measured = clips.filter(loudness__isnull=False)
    spread = measured.aggregate(low=Min("loudness"), high=Max("loudness"), n=Count("pk"))
    fields = ("external_id", "loudness", "true_peak", "duration", "listening_audio",
              "heard_loudness", "heard_true_peak")  # fmt: skip
    rows = [
        ClipLoudness(eid, lufs, peak, seconds, bool(copy), heard, heard_peak)
        for eid, lufs, peak, seconds, copy, heard, heard_peak in measured.order_by(
            "loudness"
        ).values_list(*fields)[:LOUDNESS_ROWS]
    ]
    heard = clips.exclude(listening_audio="").filter(heard_loudness__isnull=False)
    heard_spread = heard.aggregate(low=Min("heard_loudness"), high=Max("heard_loudness"))
    return {
        "heard_quietest": heard_spread["low"],
        "heard_loudest": heard_spread["high"],
        "with_audio": clips.count(),
        "measured": spread["n"],
        "quietest": spread["low"],
        "loudest": spread["high"],
        "spread": spread["high"] - spread["low"] if spread["n"] else None,
        "copies": clips.exclude(listening_audio="").count(),
        "rows": rows,
    }
