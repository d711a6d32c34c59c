"""Writes of a collection's data made through the REST API: clips, queries, systems, runs, judgments.

Each function is keyword-only, validates everything before writing anything, runs in
one transaction, and raises :class:`django.core.exceptions.ValidationError` with a
message naming the bad item. Everything is looked up *inside the given collection*:
an external id or system name never reaches another collection's rows, so nothing a
client sends can touch another organiser's data.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from catalog.models import Clip, Collection, JudgmentSource, Query, RunEntry, System
from catalog.models.collection import FINE_MAX
from catalog.services.sources import (
    SourceWrite,
    judgment_source_for_writing,
    source_judgments_write,
)
from common.conflicts import Conflict
from work import handoff


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


CLIP_FIELDS = ("title", "artist", "genre", "duration")


def clips_create(*, collection: Collection, clips: Sequence[Mapping]) -> tuple[int, int]:
    """Create clips (``external_id`` and optional metadata); returns ``(created, present)``.

    Idempotent: a clip already in the collection with the same metadata is left as it is
    (ten identical requests at once create each clip once and all succeed); one with
    other metadata is a :class:`~common.conflicts.Conflict` and nothing is created.
    """
    ids = [c["external_id"] for c in clips]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValidationError(f"Clip ids repeated in the request: {', '.join(duplicates)}.")
    wanted = {
        c["external_id"]: {f: c.get(f, "" if f != "duration" else None) for f in CLIP_FIELDS}
        for c in clips
    }
    with transaction.atomic():
        before = collection.clips.filter(external_id__in=ids).count()
        Clip.objects.bulk_create(
            [Clip(collection=collection, external_id=i, **fields) for i, fields in wanted.items()],
            ignore_conflicts=True,  # a parallel identical request made it: compared below
        )
        stored = {
            row["external_id"]: {f: row[f] for f in CLIP_FIELDS}
            for row in collection.clips.filter(external_id__in=ids).values(
                "external_id", *CLIP_FIELDS
            )
        }
        differing = sorted(i for i, fields in wanted.items() if stored.get(i) != fields)
        if differing:
            raise Conflict(
                f"Clips already in the collection with other metadata: {', '.join(differing[:10])}"
                f"{' …' if len(differing) > 10 else ''}."
            )
    return len(ids) - before, before


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
            [Query(collection=collection, clip=c) for c in clips.values() if c.pk not in existing],
            ignore_conflicts=True,  # made meanwhile by a parallel request: the same query
        )
    return list(collection.queries.filter(clip__in=clips.values()).select_related("clip"))


def system_create(*, collection: Collection, name: str, team: str = "") -> tuple[System, bool]:
    """The collection's system ``name`` with ``team``: created, or already there (idempotent).

    A system of that name with another team is a :class:`~common.conflicts.Conflict`.
    Ten identical requests at once create one system and all succeed.
    """
    try:
        with transaction.atomic():
            system, created = System.objects.get_or_create(
                collection=collection, name=name, defaults={"team": team}
            )
    except IntegrityError:  # made by a parallel request between the get and the create
        system, created = System.objects.get(collection=collection, name=name), False
    if not created and system.team != team:
        raise Conflict(
            f"The collection already has a system named {name!r} with team {system.team!r}."
        )
    return system, created


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
        # One replacement of a system's lists at a time: a parallel one waits, then replaces.
        System.objects.select_for_update().filter(pk=system.pk).exists()
        RunEntry.objects.filter(system=system, query__in=queries.values()).delete()
        entries = RunEntry.objects.bulk_create(
            RunEntry(system=system, query=queries[q], rank=rank, clip=clips[c])
            for q, ranked in rankings.items()
            for rank, c in enumerate(ranked, start=1)
        )
        handoff.collection_data_changed(collection_id=collection.pk)
    return len(entries)


def judgments_upsert(
    *,
    collection: Collection,
    judgments: Sequence[Mapping],
    source: str,
    replace: bool = False,
    kind: str = JudgmentSource.API,
    origin: str = "",
) -> SourceWrite:
    """Write judgments ``{query, clip, broad?, fine?, where?}`` into the collection's source named
    ``source`` (created as ``kind`` if missing), by :func:`catalog.services.sources.source_judgments_write`.

    ``where`` names a judgment in messages (default ``judgment <n>``, its place in the list).
    Sending the same judgments twice changes nothing; changing judgments the source
    already holds needs ``replace`` (otherwise a :class:`~catalog.services.sources.SourceConflict`
    says what would change). Returns what was written.
    """
    seen: dict[tuple[str, str], int] = {}
    for number, j in enumerate(judgments, start=1):
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
        key = (j["query"], j["clip"])
        if key in seen:
            raise ValidationError(
                f"Judgment {number} judges {j['query']} ~ {j['clip']} again (judgment {seen[key]})."
            )
        seen[key] = number
    query_ids = {j["query"] for j in judgments}
    queries = {
        q.clip.external_id: q
        for q in collection.queries.filter(clip__external_id__in=query_ids).select_related("clip")
    }
    missing = sorted(query_ids - set(queries))
    if missing:
        raise ValidationError(f"No query with these ids in the collection: {', '.join(missing)}.")
    clips = _clips_by_id(collection, {j["clip"] for j in judgments}, what="judgments")
    pairs = {
        (queries[j["query"]].pk, clips[j["clip"]].pk): (j.get("broad"), j.get("fine"))
        for j in judgments
    }
    numbers = {
        (queries[j["query"]].pk, clips[j["clip"]].pk): j.get("where") or f"judgment {number}"
        for number, j in enumerate(judgments, start=1)
    }
    with transaction.atomic():
        judgment_source, created = judgment_source_for_writing(
            collection=collection, name=source, kind=kind, origin=origin
        )
        return source_judgments_write(
            source=judgment_source, source_created=created, judgments=pairs, replace=replace,
            where=numbers.get, origin=origin,
        )  # fmt: skip
