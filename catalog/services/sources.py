"""Judgment sources: naming them, filling them without silently replacing anything, counting.

An import, an API client or a relevance campaign writes judgments into one named
:class:`~catalog.models.JudgmentSource` of the collection. :func:`source_judgments_write`
compares what comes in with what the source already holds and

- creates the judgments of pairs the source does not have yet;
- leaves identical ones alone (importing the same file twice changes nothing);
- refuses, before writing anything, to **change** a judgment the source already holds
  (another value, or a scale the input does not carry, which would erase it — a 3-field
  ``query doc fine`` file after a 4-field one with Broad) unless ``replace`` is given,
  and says what would change (:class:`SourceConflict`);
- keeps the judgments of the source that the input does not mention (reported as
  ``kept``): nothing is ever deleted by an import.

Other sources are never touched: two files called ``extra.tsv`` from two folders are two
sources when named apart (``--source``), and one cannot overwrite the other's judgments
without ``replace``. :func:`judgment_source_set_status` makes a source official (its
judgments count in results) or a pilot (left out), and asks for one recompute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from catalog.models import Clip, Collection, JudgmentSource, Query, RelevanceJudgment
from catalog.models.sources import GROUP_KINDS, SOURCE_NAME_MAX_LENGTH
from common.conflicts import Conflict
from common.validation import check_text
from work import handoff

BATCH_SIZE = 1000
SHOWN_CHANGES = 5
"""How many of the changes an import would make its message lists."""

Pair = tuple[int, int]
"""(query id, clip id): primary keys."""
Grades = tuple[int | None, int | None]
"""(Broad, Fine); None where the judgment has no value on that scale."""


@dataclass(frozen=True)
class JudgmentChange:
    """A judgment the source holds that the input would change."""

    where: str
    query: str
    clip: str
    before: Grades
    after: Grades

    def __str__(self) -> str:
        parts = []
        for scale, old, new in zip(("Broad", "Fine"), self.before, self.after, strict=True):
            if old != new:
                parts.append(f"{scale} {_grade(old)} → {_grade(new)}")
        where = f"{self.where}: " if self.where else ""
        return f"{where}{self.query} {self.clip} {', '.join(parts)}"


def _grade(value: int | None) -> str:
    return "none" if value is None else str(value)


@dataclass
class SourceWrite:
    """What writing into a source did (or, in a dry run or a refusal, would do)."""

    source: JudgmentSource
    source_created: bool = False
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    kept: int = 0
    changes: list[JudgmentChange] = field(default_factory=list)
    erased: int = 0
    written: bool = False

    def describe_changes(self) -> str:
        shown = "; ".join(str(change) for change in self.changes)
        more = self.updated - len(self.changes)
        erased = (
            f", {self.erased:,} of them erasing a score the input does not carry"
            if self.erased
            else ""
        )
        return (
            f"{self.updated:,} judgment(s) already in source '{self.source.name}' would change"
            f"{erased} ({shown}{f'; and {more:,} more' if more > 0 else ''})"
        )


class SourceConflict(Conflict):
    """The input would change judgments the source already holds and ``replace`` was not given."""

    def __init__(self, message: str, *, write: SourceWrite) -> None:
        super().__init__(message)
        self.write = write


def _name_check(name: str) -> str:
    return check_text(name, what="source name", max_length=SOURCE_NAME_MAX_LENGTH)


def judgment_source_for_writing(
    *,
    collection: Collection,
    name: str,
    kind: str,
    origin: str = "",
    create: bool = True,
    status: str | None = None,
) -> tuple[JudgmentSource, bool]:
    """The collection's source called ``name`` (created as ``kind`` if missing, with
    ``status`` if given: official or pilot).

    A relevance campaign's source only ever holds its assessors' judgments: naming it
    is an error. ``create=False`` (a dry run) returns an unsaved source when missing.
    """
    _name_check(name)
    if kind not in dict(JudgmentSource.KINDS) or kind == JudgmentSource.CAMPAIGN:
        raise ValueError(f"kind {kind!r} cannot be written by an import")
    source = JudgmentSource.objects.filter(collection=collection, name=name).first()
    if source is not None:
        if source.kind == JudgmentSource.CAMPAIGN:
            raise ValidationError(
                f"the source '{name}' holds the judgments of a relevance campaign; "
                "give the import another source name"
            )
        if source.relevance_campaign_id is not None:
            raise ValidationError(
                f"the source '{name}' holds the groups of an expert-ranking campaign; "
                "give the import another source name"
            )
        if source.holds_groups != (kind in GROUP_KINDS):
            held = "ordered groups" if source.holds_groups else "relevance judgments"
            raise ValidationError(
                f"the source '{name}' holds {held}; give the import another source name"
            )
        return source, False
    source = JudgmentSource(collection=collection, name=name, kind=kind, origin=origin[:500])
    if status is not None:
        if status not in dict(JudgmentSource.STATUSES):
            raise ValidationError(f"a source is {' or '.join(dict(JudgmentSource.STATUSES))}")
        source.status = status
    if not create:
        return source, True
    try:
        with transaction.atomic():
            source.save()
    except IntegrityError:  # made by a parallel import meanwhile
        return JudgmentSource.objects.get(collection=collection, name=name), False
    return source, True


def _labels(pairs: list[Pair]) -> dict[Pair, tuple[str, str]]:
    queries = dict(
        Query.objects.filter(pk__in={q for q, _ in pairs}).values_list("pk", "clip__external_id")
    )
    clips = dict(Clip.objects.filter(pk__in={c for _, c in pairs}).values_list("pk", "external_id"))
    return {(q, c): (queries.get(q, str(q)), clips.get(c, str(c))) for q, c in pairs}


def source_judgments_write(
    *,
    source: JudgmentSource,
    source_created: bool = False,
    judgments: Mapping[Pair, Grades],
    replace: bool = False,
    dry_run: bool = False,
    where: Callable[[Pair], str] = lambda pair: "",
    origin: str = "",
) -> SourceWrite:
    """Write ``judgments`` (no assessor) into ``source``; see the module for the rules.

    Raises :class:`SourceConflict` (a ``ValidationError``) naming the first changes when
    the input would change judgments the source holds and ``replace`` is false; nothing
    is written then. ``dry_run`` computes the same report and writes nothing. Asks for
    one recompute of the collection's results when anything was written.
    """
    with transaction.atomic():
        if source.pk is not None:
            # One write into a source at a time: a parallel one waits here, then sees ours.
            JudgmentSource.objects.select_for_update().filter(pk=source.pk).exists()
        return _write(
            source=source, source_created=source_created, judgments=judgments,
            replace=replace, dry_run=dry_run, where=where, origin=origin,
        )  # fmt: skip


def _write(*, source, source_created, judgments, replace, dry_run, where, origin) -> SourceWrite:
    write = SourceWrite(source=source, source_created=source_created)
    stored: dict[Pair, tuple[int, int | None, int | None]] = {}
    if source.pk is not None:
        stored = {
            (query_id, clip_id): (pk, broad, fine)
            for pk, query_id, clip_id, broad, fine in RelevanceJudgment.objects.filter(
                source=source, assessor__isnull=True
            )
            .order_by()
            .values_list("pk", "query_id", "clip_id", "broad", "fine")
        }
    created: list[Pair] = []
    updated: list[tuple[int, Pair]] = []
    for pair, grades in judgments.items():
        before = stored.get(pair)
        if before is None:
            created.append(pair)
        elif before[1:] == tuple(grades):
            write.unchanged += 1
        else:
            updated.append((before[0], pair))
            if any(
                old is not None and new is None for old, new in zip(before[1:], grades, strict=True)
            ):
                write.erased += 1
    write.created, write.updated = len(created), len(updated)
    write.kept = len(stored.keys() - judgments.keys())
    if updated:
        shown = [pair for _, pair in updated[:SHOWN_CHANGES]]
        labels = _labels(shown)
        write.changes = [
            JudgmentChange(where(pair), *labels[pair], stored[pair][1:], tuple(judgments[pair]))
            for pair in shown
        ]
    if dry_run:
        return write
    if updated and not replace:
        raise SourceConflict(
            f"{write.describe_changes()}: give replace (--replace) to change them, "
            "or another source name to keep both",
            write=write,
        )
    if not (created or updated) and not source_created:
        return write
    now = timezone.now()
    with transaction.atomic():
        if source.pk is None:
            source.save()
        for start in range(0, len(created), BATCH_SIZE):
            RelevanceJudgment.objects.bulk_create(
                RelevanceJudgment(
                    query_id=q, clip_id=c, source=source, broad=judgments[q, c][0],
                    fine=judgments[q, c][1],
                )
                for q, c in created[start : start + BATCH_SIZE]
            )  # fmt: skip
        for start in range(0, len(updated), BATCH_SIZE):
            RelevanceJudgment.objects.bulk_update(
                [
                    RelevanceJudgment(
                        pk=pk, broad=judgments[pair][0], fine=judgments[pair][1], updated_at=now
                    )
                    for pk, pair in updated[start : start + BATCH_SIZE]
                ],
                ["broad", "fine", "updated_at"],
            )
        if origin:
            source.origin = origin[:500]
        JudgmentSource.objects.filter(pk=source.pk).update(origin=source.origin, updated_at=now)
        if created or updated:
            handoff.collection_data_changed(collection_id=source.collection_id)
    write.written = True
    return write


def judgment_source_for_campaign(*, campaign) -> JudgmentSource:
    """The source of a new relevance campaign's judgments, named after the campaign (with
    its id when another source of the collection has that name already)."""
    names = set(campaign.collection.judgment_sources.values_list("name", flat=True))
    name = campaign.name[:SOURCE_NAME_MAX_LENGTH]
    if name in names:
        suffix = f" (campaign {campaign.pk})"
        name = campaign.name[: SOURCE_NAME_MAX_LENGTH - len(suffix)] + suffix
    return JudgmentSource.objects.create(
        collection=campaign.collection, name=name, kind=JudgmentSource.CAMPAIGN,
        relevance_campaign=campaign, origin=f"relevance campaign {campaign.pk}",
    )  # fmt: skip


def judgment_source_set_status(*, source: JudgmentSource, status: str) -> bool:
    """Make ``source`` official (its judgments count) or a pilot (left out of results).

    Returns whether anything changed; a change asks for one coalesced recompute of the
    collection's results after the commit (however many sources change in a burst).
    """
    if status not in dict(JudgmentSource.STATUSES):
        raise ValidationError(
            f"status must be one of {', '.join(dict(JudgmentSource.STATUSES))}, not {status!r}"
        )
    with transaction.atomic():
        changed = (
            JudgmentSource.objects.filter(pk=source.pk)
            .exclude(status=status)
            .update(status=status, updated_at=timezone.now())
        )
        source.status = status
        if changed:
            handoff.collection_data_changed(collection_id=source.collection_id)
    return bool(changed)
