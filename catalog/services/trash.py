"""Delete with undo: what goes with a deletion, the deletion, the restore, the sweep.

:func:`trash_preview` says what a deletion takes with it (Django's deletion
:class:`~django.db.models.deletion.Collector`: the same rows the database would cascade
to), :func:`trash_put` keeps every one of those rows in a :class:`~catalog.models.TrashItem`
and deletes them, :func:`trash_restore` puts them back with their ids (and the links a
deletion had set to empty), and :func:`trash_sweep` forgets items older than
``EARSHOT_TRASH_DAYS`` and the audio files only they still named.

Judgments and crowd answers are never lost silently: a deletion that takes any with it
needs ``with_answers=True`` (the page's explicit choice), and stays restorable until the
sweep.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, IntegrityError, models, transaction
from django.db.models.deletion import Collector, ProtectedError, RestrictedError
from django.utils import timezone

from catalog.models import (
    Clip,
    Collection,
    JudgmentSource,
    OrderedGroupEntry,
    RelevanceJudgment,
    System,
    TrashItem,
)
from work import handoff

WORK: list[type[models.Model]] = [RelevanceJudgment, OrderedGroupEntry]
"""What people produced: a deletion that takes any of these needs an explicit choice
(the apps above add theirs: :func:`trash_work_register`)."""


@dataclass(frozen=True)
class Kind:
    model: type[models.Model]
    rows: Callable[[Collection], models.QuerySet]
    """The rows of this kind in a collection (what the collection's organisers reach)."""
    refuse: Callable[[models.Model], str | None] = lambda row: None


def _judged_clip(clip: Clip) -> str | None:
    judged = RelevanceJudgment.objects.filter(clip=clip).count()
    if judged:
        return (
            f"“{clip.external_id}” has {judged} judgment{'s' * (judged != 1)}: a judged clip stays."
        )
    return None


def _campaign_source(source: JudgmentSource) -> str | None:
    if source.kind == JudgmentSource.CAMPAIGN:
        return "This source holds a relevance campaign's judgments: delete the campaign instead."
    return None


KINDS: dict[str, Kind] = {
    "system": Kind(System, lambda c: c.systems.all()),
    "source": Kind(JudgmentSource, lambda c: c.judgment_sources.all(), _campaign_source),
    "clip": Kind(Clip, lambda c: c.clips.all(), _judged_clip),
    "collection": Kind(Collection, lambda c: Collection.objects.filter(pk=c.pk)),
}
"""What may be deleted with undo, by the name in its delete URL (``TrashItem.kind``):
catalog's own here, the campaigns and what is in them registered by their apps in
``AppConfig.ready()`` (:func:`trash_kind_register`), since catalog never imports them."""


def trash_kind_register(name: str, kind: Kind) -> None:
    """Let ``kind``'s rows be deleted with undo under ``name``."""
    KINDS[name] = kind


def trash_work_register(model: type[models.Model]) -> None:
    """``model``'s rows are what people produced (answers): a deletion takes them only
    when asked explicitly."""
    if model not in WORK:
        WORK.append(model)


@dataclass(frozen=True)
class Preview:
    """What deleting ``root`` takes with it."""

    root: models.Model
    counts: dict[str, int]
    """Rows of each kind, in words ("ranked entries": 12,000), the root's own kind first."""
    work: int
    """Judgments and answers among them (they need an explicit choice)."""
    refused: str | None


def _collect(roots) -> Collector:
    collector = Collector(using=DEFAULT_DB_ALIAS)
    collector.collect(roots)
    collector.sort()
    return collector


def _rows(collector: Collector) -> list[models.Model]:
    """Every row a collector deletes, once, parents before the rows that point at them
    (its fast deletes can name one row along several paths)."""
    rows: dict[tuple, models.Model] = {}
    for instances in reversed(list(collector.data.values())):
        rows.update(((type(row), row.pk), row) for row in instances)
    for queryset in collector.fast_deletes:
        if not queryset.model._meta.auto_created:  # many-to-many links go with their owner
            rows.update(((queryset.model, row.pk), row) for row in queryset)
    return list(rows.values())


class _Exact(DjangoJSONEncoder):
    """Times to the microsecond (Django's JSON keeps milliseconds: a restored row would
    differ from the row deleted)."""

    def default(self, o):
        if isinstance(o, datetime | time):
            return o.isoformat()
        return super().default(o)


def _serialized(rows: list[models.Model]) -> list[dict]:
    """The rows as JSON-safe dicts that the python deserializer reads back exactly."""
    return json.loads(json.dumps(serializers.serialize("python", rows), cls=_Exact))


def _stages(root: models.Model, kind: str) -> list:
    """What is deleted, in turn. A collection goes in stages: its campaigns, systems and
    queries first, since its clips are kept by what uses them (``RESTRICT``) and Django's
    collector does not see rows it deletes in bulk along another path."""
    if kind != "collection":
        return [[root]]
    return [
        list(root.preference_campaigns.all()), list(root.relevance_campaigns.all()),
        list(root.systems.all()), list(root.queries.all()), [root],
    ]  # fmt: skip


@dataclass
class _Deleted:
    rows: list[dict]
    """Every row deleted, serialized, in the order a restore inserts them (parents first)."""
    kinds: list[type[models.Model]]
    """The model of each row (for the counts)."""
    files: list[str]
    """Stored files the rows named."""
    emptied: list
    """Links the deletion emptied (``SET_NULL``): ``[model, field, [[pk, value], …]]``."""


def _delete(root: models.Model, kind: str) -> _Deleted:
    """Delete ``root`` with everything that goes with it, stage by stage; what went."""
    stages: list[list[models.Model]] = []
    emptied = []
    for roots in _stages(root, kind):
        if not roots:
            continue
        collector = _collect(roots)
        rows = _rows(collector)  # serialized now: deleting empties the instances' ids
        stages.append((_serialized(rows), [type(r) for r in rows], _stored_files(rows)))
        emptied += [
            [field.model._meta.label, field.attname,
             [[row.pk, getattr(row, field.attname)] for objs in objs_list for row in objs]]
            for (field, value), objs_list in collector.field_updates.items()
            if value is None
        ]  # fmt: skip
        collector.delete()
    stages.reverse()
    return _Deleted(
        rows=[row for rows, _, _ in stages for row in rows],
        kinds=[model for _, models_, _ in stages for model in models_],
        files=sorted({name for _, _, files in stages for name in files}),
        emptied=emptied,
    )


def _name(model: type[models.Model]) -> str:
    return str(model._meta.verbose_name_plural)


def _preview(
    root: models.Model, kind: str, deleted: _Deleted | None, refused: str | None
) -> Preview:
    counts: dict[str, int] = {}
    for model in deleted.kinds if deleted else []:
        counts[_name(model)] = counts.get(_name(model), 0) + 1
    own = _name(type(root))
    counts = {own: counts.pop(own, 1), **dict(sorted(counts.items()))}
    work = sum(counts.get(_name(model), 0) for model in WORK)
    total, limit = sum(counts.values()), settings.EARSHOT_TRASH_MAX_ROWS
    if refused is None and total > limit:
        refused = (
            f"This would take {total:,} rows with it, more than the {limit:,} the trash keeps: "
            "delete its systems or campaigns one at a time first, or archive it instead."
        )
    return Preview(root, counts, work, refused)


def _try_delete(root: models.Model, kind: str) -> tuple[_Deleted | None, str | None]:
    refused = KINDS[kind].refuse(root)
    if refused:
        return None, refused
    try:
        with transaction.atomic():
            return _delete(root, kind), None
    except (ProtectedError, RestrictedError) as error:
        kept = getattr(error, "protected_objects", None) or error.restricted_objects
        used_by = sorted({_name(type(row)) for row in kept})
        return None, f"It is still used by {', '.join(used_by)}: delete those first."


def trash_preview(*, root: models.Model, kind: str) -> Preview:
    """What deleting ``root`` would take with it (the deletion is tried and rolled back)."""
    pk = root.pk
    with transaction.atomic():
        deleted, refused = _try_delete(root, kind)
        transaction.set_rollback(True)
    root.pk = pk  # a delete empties the instance's id
    return _preview(root, kind, deleted, refused)


def _stored_files(rows: list[models.Model]) -> list[str]:
    return sorted(
        {
            getattr(row, field.name).name
            for row in rows
            for field in row._meta.concrete_fields
            if isinstance(field, models.FileField) and getattr(row, field.name)
        }
    )


def trash_put(
    *, root: models.Model, kind: str, collection: Collection, by, with_answers: bool = False
) -> TrashItem:
    """Delete ``root`` and everything that goes with it, keeping them restorable.

    ``ValidationError`` when it may not go (a judged clip, a campaign's source, still used,
    too large), or when it takes judgments or answers with it and ``with_answers`` is not
    given: nothing is deleted then.
    """
    label, pk, collection_pk = str(root)[:300], root.pk, collection.pk
    owner = collection.owner if kind == "collection" else by
    try:
        with transaction.atomic():
            item = _put(root, kind, collection, owner, label, pk, with_answers)
    except ValidationError:
        root.pk = pk  # rolled back: the row is there, and so is its id
        raise
    if kind != "collection":
        handoff.collection_data_changed(collection_id=collection_pk)
    return item


def _put(root, kind, collection, owner, label, pk, with_answers) -> TrashItem:
    deleted, refused = _try_delete(root, kind)
    preview = _preview(root, kind, deleted, refused)
    if preview.refused:
        raise ValidationError(preview.refused)
    if preview.work and not with_answers:
        what = "judgment or answer" if preview.work == 1 else "judgments or answers"
        raise ValidationError(
            f"It takes {preview.work:,} {what} with it: say that they go too "
            "(they stay restorable for as long as the rest)."
        )
    now = timezone.now()
    return TrashItem.objects.create(
        kind=kind,
        label=label,
        collection=None if kind == "collection" else collection,
        owner=owner,
        counts=preview.counts,
        rows={"rows": deleted.rows, "emptied": deleted.emptied, "root": [kind, pk]},
        files=deleted.files,
        deleted_at=now,
        expires_at=now + timedelta(days=settings.EARSHOT_TRASH_DAYS),
    )


def trash_restore(*, item: TrashItem) -> models.Model:
    """Put everything ``item`` kept back, with its ids; the item is then gone."""
    payload = item.rows
    try:
        with transaction.atomic():
            for restored in serializers.deserialize("python", payload["rows"]):
                restored.save()
            for label, attname, links in payload["emptied"]:
                model = _model(label)
                for pk, value in links:  # what the deletion emptied, unless changed since
                    model.objects.filter(pk=pk, **{f"{attname}__isnull": True}).update(
                        **{attname: value}
                    )
            kind, pk = payload["root"]
            root = KINDS[kind].model.objects.get(pk=pk)
            item.delete()
    except IntegrityError:
        raise ValidationError(
            "It cannot come back as it was: something made since has the same name or id. "
            "Rename or delete that first."
        ) from None
    collection = root if isinstance(root, Collection) else item.collection
    if collection is not None:
        handoff.collection_data_changed(collection_id=collection.pk)
    return root


def _model(label: str) -> type[models.Model]:
    from django.apps import apps

    return apps.get_model(label)


def trash_sweep(*, now=None) -> int:
    """Forget trash older than ``EARSHOT_TRASH_DAYS`` and the files only it named."""
    now = now or timezone.now()
    expired = list(TrashItem.objects.filter(expires_at__lte=now))
    storage = Clip._meta.get_field("audio").storage
    for item in expired:
        still_used = set(
            Clip.objects.filter(audio__in=item.files).values_list("audio", flat=True)
        ) | set(
            Clip.objects.filter(listening_audio__in=item.files).values_list(
                "listening_audio", flat=True
            )
        )
        for name in item.files:
            if name not in still_used:
                storage.delete(name)
        item.delete()
    return len(expired)
