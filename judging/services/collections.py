"""Writes of a collection's data made through the REST API: clips, queries, systems, runs, judgments.

Each function is keyword-only, validates everything before writing anything, runs in
one transaction, and raises :class:`django.core.exceptions.ValidationError` with a
message naming the bad item. Everything is looked up *inside the given collection*:
an external id or system name never reaches another collection's rows, so nothing a
client sends can touch another organiser's data.

(This module lives in ``judging/services/`` without an ``__init__`` of its own so that
it merges with the crowd branch's ``judging/services`` package.)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from judging import handoff
from judging.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from judging.models.collection import FINE_MAX


def _has_control(text: str, *, allowed: str = "") -> bool:
    """Control or invisible formatting characters (e.g. right-to-left overrides)."""
    return any(unicodedata.category(c) in ("Cc", "Cf") and c not in allowed for c in text)


def _clean_name(name: str, *, what: str) -> str:
    """A name as people see it: trimmed, not empty, at most 200 characters, printable."""
    name = (name or "").strip()
    if not name:
        raise ValidationError(f"Give the {what} a name.")
    if len(name) > 200:
        raise ValidationError(f"The {what}'s name is {len(name)} characters long; at most 200.")
    if _has_control(name):
        raise ValidationError(f"The {what}'s name has a control character; type it again.")
    return name


def _clean_description(description: str) -> str:
    description = (description or "").strip()
    if _has_control(description, allowed="\n\r\t"):
        raise ValidationError("The description has a control character; type it again.")
    return description


def collection_create(*, owner, name: str, description: str = "") -> Collection:
    name = _clean_name(name, what="collection")
    description = _clean_description(description)
    if Collection.objects.filter(owner=owner, name=name).exists():
        raise ValidationError(f"You already have a collection named {name!r}.")
    try:
        with transaction.atomic():
            return Collection.objects.create(owner=owner, name=name, description=description)
    except IntegrityError:
        raise ValidationError(f"You already have a collection named {name!r}.") from None


def collection_update(
    *, collection: Collection, name: str | None = None, description: str | None = None
) -> Collection:
    """Rename and/or describe a collection; names stay unique among its owner's collections."""
    fields = []
    if name is not None:
        name = _clean_name(name, what="collection")
        taken = Collection.objects.filter(owner_id=collection.owner_id, name=name)
        if taken.exclude(pk=collection.pk).exists():
            raise ValidationError(f"The owner already has a collection named {name!r}.")
        collection.name = name
        fields.append("name")
    if description is not None:
        collection.description = _clean_description(description)
        fields.append("description")
    if fields:
        try:
            with transaction.atomic():
                collection.save(update_fields=fields)
        except IntegrityError:
            raise ValidationError(f"The owner already has a collection named {name!r}.") from None
    return collection


def collection_archive(*, collection: Collection, archived: bool) -> Collection:
    """Archive (leave out of the list) or bring back a collection; nothing else changes.

    Archiving twice keeps the first date.
    """
    rows = Collection.objects.filter(pk=collection.pk)
    if archived:
        rows.filter(archived_at__isnull=True).update(archived_at=timezone.now())
    else:
        rows.update(archived_at=None)
    collection.refresh_from_db(fields=["archived_at"])
    return collection


def clips_create(*, collection: Collection, clips: Sequence[Mapping]) -> list[Clip]:
    """Create clips (``external_id`` and optional metadata); an existing id is an error."""
    ids = [c["external_id"] for c in clips]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValidationError(f"Clip ids repeated in the request: {', '.join(duplicates)}.")
    existing = set(
        collection.clips.filter(external_id__in=ids).values_list("external_id", flat=True)
    )
    if existing:
        raise ValidationError(f"Clips already in the collection: {', '.join(sorted(existing))}.")
    fields = ("title", "artist", "genre", "duration")
    with transaction.atomic():
        return Clip.objects.bulk_create(
            Clip(
                collection=collection,
                external_id=c["external_id"],
                **{f: c[f] for f in fields if f in c},
            )
            for c in clips
        )


def _clips_by_id(collection: Collection, external_ids, *, what: str) -> dict[str, Clip]:
    wanted = set(external_ids)
    found = {c.external_id: c for c in collection.clips.filter(external_id__in=wanted)}
    missing = sorted(wanted - set(found))
    if missing:
        shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
        raise ValidationError(f"No clip with these ids in the collection ({what}): {shown}.")
    return found


def queries_create(*, collection: Collection, clip_ids: Sequence[str]) -> list[Query]:
    """Make clips of the collection queries; clips that already are queries stay as they are."""
    clips = _clips_by_id(collection, clip_ids, what="queries")
    with transaction.atomic():
        existing = set(collection.queries.values_list("clip_id", flat=True))
        Query.objects.bulk_create(
            Query(collection=collection, clip=c) for c in clips.values() if c.pk not in existing
        )
    return list(collection.queries.filter(clip__in=clips.values()).select_related("clip"))


def system_create(*, collection: Collection, name: str, team: str = "") -> System:
    if collection.systems.filter(name=name).exists():
        raise ValidationError(f"The collection already has a system named {name!r}.")
    with transaction.atomic():
        return System.objects.create(collection=collection, name=name, team=team)


def run_replace(*, system: System, rankings: Mapping[str, Sequence[str]]) -> int:
    """Replace the system's ranked lists for the queries given (best clip first).

    Queries not in ``rankings`` keep their lists. Returns the number of entries written.
    """
    collection = system.collection
    queries = {
        q.clip.external_id: q
        for q in collection.queries.filter(clip__external_id__in=list(rankings)).select_related(
            "clip"
        )
    }
    missing = sorted(set(rankings) - set(queries))
    if missing:
        raise ValidationError(f"No query with these ids in the collection: {', '.join(missing)}.")
    for query, ranked in rankings.items():
        repeated = sorted({c for c in ranked if list(ranked).count(c) > 1})
        if repeated:
            raise ValidationError(f"Query {query}: clip {repeated[0]} is ranked twice.")
    clips = _clips_by_id(collection, {c for r in rankings.values() for c in r}, what="runs")
    with transaction.atomic():
        RunEntry.objects.filter(system=system, query__in=queries.values()).delete()
        entries = RunEntry.objects.bulk_create(
            RunEntry(system=system, query=queries[q], rank=rank, clip=clips[c])
            for q, ranked in rankings.items()
            for rank, c in enumerate(ranked, start=1)
        )
        handoff.collection_data_changed(collection_id=collection.pk)
    return len(entries)


def judgments_upsert(
    *, collection: Collection, judgments: Sequence[Mapping], source: str
) -> tuple[int, int]:
    """Create or update judgments ``{query, clip, broad?, fine?}`` under ``source``.

    A pair already judged under the same source is updated (so sending the same
    judgments twice changes nothing). Returns ``(created, updated)``.
    """
    for j in judgments:
        if j.get("broad") is None and j.get("fine") is None:
            raise ValidationError(
                f"Judgment of {j['query']} ~ {j['clip']} has neither broad nor fine."
            )
        if j.get("broad") is not None and not 0 <= j["broad"] <= 2:
            raise ValidationError(
                f"Judgment of {j['query']} ~ {j['clip']}: broad must be 0, 1 or 2."
            )
        if j.get("fine") is not None and not 0 <= j["fine"] <= FINE_MAX:
            raise ValidationError(f"Judgment of {j['query']} ~ {j['clip']}: fine must be 0–100.")
    query_ids = {j["query"] for j in judgments}
    queries = {
        q.clip.external_id: q
        for q in collection.queries.filter(clip__external_id__in=query_ids).select_related("clip")
    }
    missing = sorted(query_ids - set(queries))
    if missing:
        raise ValidationError(f"No query with these ids in the collection: {', '.join(missing)}.")
    clips = _clips_by_id(collection, {j["clip"] for j in judgments}, what="judgments")
    created = updated = 0
    with transaction.atomic():
        for j in judgments:
            _, was_created = RelevanceJudgment.objects.update_or_create(
                query=queries[j["query"]],
                clip=clips[j["clip"]],
                assessor=None,
                source=source,
                defaults={"broad": j.get("broad"), "fine": j.get("fine")},
            )
            created += was_created
            updated += not was_created
        handoff.collection_data_changed(collection_id=collection.pk)
    return created, updated
