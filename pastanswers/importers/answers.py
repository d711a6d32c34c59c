"""Import preference answers collected elsewhere (CrowdFlower, Prolific, a lab study).

The format is documented in ``docs/preference-answers-import.md``: one CSV row per
answer with ``query``, ``list_a``, ``list_b`` (clip ids, space- or ``|``-separated, best
first, as the worker saw them), ``answer`` (``a_better``, ``b_better``, ``both_good``,
``both_bad``) and ``worker``; optionally ``fine_a``, ``fine_b``, ``broad_a``, ``broad_b``
(one judgment per clip of the list, same separators) — without them the collection's
own judgments are used — and ``answered_at``, ``seconds``, ``comment``.

All or nothing: the file is checked completely before anything is written, and the
first problem is reported as ``<file>:<line>: <what>``. The answers go into a
preference campaign of the collection (created if needed, closed to workers, its
``imported_from`` naming the file); each becomes an **accepted** answer of a trusted
worker, handed over to evaluation like answers collected in Earshot
(:mod:`work.handoff`), so the campaign's satisfaction mapping is computed from them
the same way. Importing the same file again adds nothing.

Answers comparing two identical lists are kept (real studies have them: 27 of the
2,200 answers of the thesis author's CrowdFlower study): "both good" and "both bad"
still say whether a list satisfies (§3.3.1), and a preference between them is an
observation of P(Agr | Δλ = 0).

This module is long because checking a whole file before writing anything (all or
nothing) needs every rule of the format in one pass, and writing it needs workers,
examples, tasks and answers in batches; both halves share the row type.

Limits: the file is read as a stream, a record at a time (1 MiB a line, 128 KiB a
field); at most :data:`MAX_ROWS` answers; ``answered_at`` between 1970 and a day from
now, ``seconds`` at most :data:`MAX_SECONDS`; ids as :mod:`common.validation` says.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import BinaryIO

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from catalog.models import Clip, Collection, JudgmentSource, RelevanceJudgment
from catalog.services.collections import judgments_upsert, queries_create
from catalog.services.sources import SourceConflict
from common.files.csvfile import csv_header, csv_records
from common.files.errors import ImportFailed
from common.files.inputs import Progress, as_input, check_has_data_lines, no_progress
from common.validation import check_text, column_length
from crowd.models import (
    CHOICE_LABELS,
    COMMENT_MAX_LENGTH,
    Answer,
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    Worker,
    choice_as_stored,
)
from crowd.services.examples import examples_create
from work import handoff

REQUIRED = ("query", "list_a", "list_b", "answer", "worker")
OPTIONAL = ("fine_a", "fine_b", "broad_a", "broad_b", "answered_at", "seconds", "comment")
SEPARATORS = re.compile(r"[\s|]+")
MAX_ROWS = 500_000
"""Answers in one file (the thesis' study had 11,042): larger files are imported in parts."""
MAX_SECONDS = 30 * 24 * 3600
"""The longest ``seconds`` an answer may have taken: 30 days."""
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
BATCH_SIZE = 1000
WORKER_ID_MAX_LENGTH = column_length(Worker, "platform_id")
CLIP_ID_MAX_LENGTH = column_length(Clip, "external_id")
CAMPAIGN_NAME_MAX_LENGTH = column_length(PreferenceCampaign, "name")


class AnswersImportError(ValidationError):
    """A problem with the file, named by file and line."""


@dataclass
class AnswersImportReport:
    campaign: PreferenceCampaign | None = None
    campaign_created: bool = False
    rows: int = 0
    answers_created: int = 0
    answers_present: int = 0
    examples_created: int = 0
    workers_created: int = 0
    clips_created: int = 0
    queries_created: int = 0
    judgments_created: int = 0
    judgments_updated: int = 0
    judgments_present: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Row:
    line: int
    query: str
    lists: tuple[tuple[str, ...], tuple[str, ...]]
    answer: str
    worker: str
    judgments: dict[tuple[str, str], tuple[int | None, int | None]]  # (query, clip) → (broad, fine)
    answered_at: datetime | None
    seconds: float | None
    comment: str


def _split(text: str) -> list[str]:
    return [sys.intern(t) for t in SEPARATORS.split(text.strip()) if t]


def _levels(text: str, *, n: int, column: str, top: int) -> list[int] | None:
    if not text.strip():
        return None
    values = _split(text)
    if len(values) != n:
        raise ValueError(f"{column} has {len(values)} judgments for {n} clips")
    out = []
    for v in values:
        try:
            number = float(v)
        except ValueError:
            raise ValueError(f"{column}: {v!r} is not a number") from None
        if not number.is_integer() or not 0 <= number <= top:
            raise ValueError(f"{column}: {v!r} is not a whole number from 0 to {top}")
        out.append(int(number))
    return out


def _answered_at(text: str, *, latest: datetime) -> datetime:
    try:
        moment = parse_datetime(text)
    except ValueError:  # well formed but impossible, e.g. month 13
        moment = None
    if moment is None:
        raise ValueError(f"answered_at {text!r} is not an ISO 8601 time")
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        moment = None
    if moment is None or not EARLIEST <= moment <= latest:
        raise ValueError(
            f"answered_at {text!r} is out of range: from {EARLIEST:%Y-%m-%d} to a day from now"
        )
    return moment


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"seconds {text!r} is not a number") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError("seconds must be a number ≥ 0")
    if seconds > MAX_SECONDS:
        raise ValueError(f"seconds {text!r} is more than {MAX_SECONDS:,} (30 days)")
    return seconds


def _text(value: str, *, what: str, kind: str, max_length: int, required: bool = True) -> str:
    try:
        return check_text(value, what=what, kind=kind, max_length=max_length, required=required)
    except ValidationError as error:
        raise ValueError(error.messages[0]) from None


def _parse(source, *, name: str, clips: set[str], new_clips: set[str] | None = None) -> list[_Row]:
    """The checked rows; with ``new_clips``, an id the collection lacks is checked as an id,
    added to ``new_clips`` and accepted (the clip is created on request)."""

    def known(clip: str) -> bool:
        if clip in clips:
            return True
        if new_clips is None:
            return False
        _text(clip, what="clip id", kind="identifier", max_length=CLIP_ID_MAX_LENGTH)
        new_clips.add(clip)
        clips.add(clip)
        return True

    records = csv_records(source, path=name)
    try:
        first = csv_header(records, path=name)
    except ImportFailed as error:
        raise AnswersImportError(
            str(error) if error.line is None else f"{name}:{error.line}: {error.message}"
        ) from None
    header = [h.strip() for h in first[1]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise AnswersImportError(f"{name}:1: missing column(s) {', '.join(missing)}")
    unknown = [c for c in header if c and c not in REQUIRED + OPTIONAL]
    if unknown:
        raise AnswersImportError(f"{name}:1: unknown column(s) {', '.join(unknown)}")
    rows: list[_Row] = []
    k = None
    seen: dict[tuple[str, tuple, tuple, str], int] = {}
    inline: dict[tuple[str, str], tuple[int | None, int | None, int]] = {}
    latest = timezone.now() + timedelta(days=1)
    line = 1
    try:
        for line, cells in records:
            if len(cells) > len(header):
                raise ValueError("more fields than columns")
            row = {key: value.strip() for key, value in zip(header, cells, strict=False) if key}
            if not any(row.values()):
                continue
            if len(rows) >= MAX_ROWS:
                raise ValueError(
                    f"more than {MAX_ROWS:,} answers: the limit of one import "
                    "(split the file and import the parts one after the other)"
                )
            for column in REQUIRED:
                if not row.get(column):
                    raise ValueError(f"{column} is empty")
            query = row["query"]
            if not known(query):
                raise ValueError(f"query {query!r} is not a clip of the collection")
            query = sys.intern(query)
            lists = []
            for column in ("list_a", "list_b"):
                ids = tuple(_split(row[column]))
                unknown_clip = next((c for c in ids if not known(c)), None)
                if unknown_clip:
                    raise ValueError(f"{column}: {unknown_clip!r} is not a clip of the collection")
                if len(set(ids)) != len(ids):
                    raise ValueError(f"{column} repeats a clip")
                if query in ids:
                    raise ValueError(f"{column} contains the query itself")
                lists.append(ids)
            if len(lists[0]) != len(lists[1]):
                raise ValueError(f"list_a has {len(lists[0])} clips and list_b {len(lists[1])}")
            if k is None:
                k = len(lists[0])
            elif len(lists[0]) != k:
                raise ValueError(f"lists of {len(lists[0])} clips; earlier rows have {k}")
            answer = row["answer"]
            if answer not in CHOICE_LABELS:
                raise ValueError(f"answer {answer!r} is not one of {', '.join(CHOICE_LABELS)}")
            worker = _text(row["worker"], what="worker", kind="name",
                           max_length=WORKER_ID_MAX_LENGTH)  # fmt: skip
            comment = _text(row.get("comment", ""), what="comment", kind="text",
                            max_length=COMMENT_MAX_LENGTH, required=False)  # fmt: skip
            judgments: dict[tuple[str, str], tuple[int | None, int | None]] = {}
            for side, ids in zip("ab", lists, strict=True):
                fine = _levels(row.get(f"fine_{side}", ""), n=k, column=f"fine_{side}", top=100)
                broad = _levels(row.get(f"broad_{side}", ""), n=k, column=f"broad_{side}", top=2)
                if fine is None and broad is None:
                    continue
                for i, clip in enumerate(ids):
                    judgments[(query, clip)] = (
                        broad[i] if broad else None,
                        fine[i] if fine else None,
                    )
            for pair, (broad, fine) in judgments.items():
                before = inline.get(pair)
                if before is not None:
                    b0, f0, where = before
                    if (b0 is not None and broad is not None and b0 != broad) or (
                        f0 is not None and fine is not None and f0 != fine
                    ):
                        raise ValueError(
                            f"{pair[1]} is judged differently for query {query} on line {where}"
                        )
                    broad = broad if broad is not None else b0
                    fine = fine if fine is not None else f0
                inline[pair] = (broad, fine, line)
            answered_at = (
                _answered_at(row["answered_at"], latest=latest) if row.get("answered_at") else None
            )
            seconds = _seconds(row["seconds"]) if row.get("seconds") else None
            key = (worker, query, *sorted([lists[0], lists[1]]))
            if key in seen:
                raise ValueError(f"worker {worker!r} answered this example on line {seen[key]}")
            seen[key] = line
            rows.append(
                _Row(line, query, (lists[0], lists[1]), answer, worker, judgments,
                     answered_at, seconds, comment)
            )  # fmt: skip
    except ValueError as error:
        raise AnswersImportError(f"{name}:{line}: {error}") from None
    except ImportFailed as error:
        raise AnswersImportError(f"{name}:{error.line}: {error.message}") from None
    try:
        check_has_data_lines(Path(name), len(rows))
    except ImportFailed as error:
        raise AnswersImportError(str(error)) from None
    # Merged inline judgments, per pair (a later row may add the other scale).
    merged = {pair: (b, f) for pair, (b, f, _) in inline.items()}
    return [
        _Row(r.line, r.query, r.lists, r.answer, r.worker,
             {pair: merged[pair] for pair in r.judgments}, r.answered_at, r.seconds, r.comment)
        for r in rows
    ]  # fmt: skip


def _campaign(collection, name: str, filename: str, k: int, report) -> PreferenceCampaign:
    campaign = collection.preference_campaigns.filter(name=name).first()
    if campaign is None:
        campaign = PreferenceCampaign(
            collection=collection, name=name, list_length=k, is_open=False,
            answers_per_example=1000, max_answers_per_worker=1_000_000, quiz_length=0,
            trap_rate=0.0, instructions="Answers imported from another study.",
            imported_from=filename[:300],
        )  # fmt: skip
        campaign.full_clean()
        campaign.save()
        report.campaign_created = True
        return campaign
    if not campaign.imported_from:
        raise AnswersImportError(
            f"{filename}: the campaign {name!r} exists and was not made by an import; "
            "give another campaign name"
        )
    if campaign.list_length != k:
        raise AnswersImportError(
            f"{filename}: the campaign {name!r} has lists of {campaign.list_length} clips, "
            f"the file {k}"
        )
    return campaign


def _example_index(campaign) -> dict[tuple, Example]:
    lists: dict[int, dict[str, list[str]]] = {}
    rows = (
        ExampleItem.objects.filter(example__campaign=campaign)
        .order_by("example_id", "side", "rank")
        .values_list("example_id", "side", "clip__external_id")
    )
    for example_id, side, clip in rows:
        lists.setdefault(example_id, {"a": [], "b": []})[side].append(clip)
    examples = campaign.examples.select_related("query__clip").in_bulk(list(lists))
    return {
        (examples[pk].query.clip.external_id, tuple(ab["a"]), tuple(ab["b"])): examples[pk]
        for pk, ab in lists.items()
    }


def preference_answers_import(
    *,
    collection: Collection,
    filename: str,
    text: str | bytes | None = None,
    stream: BinaryIO | None = None,
    campaign_name: str = "",
    replace: bool = False,
    create_missing_clips: bool = False,
    progress: Progress = no_progress,
) -> AnswersImportReport:
    """Import the answers of a CSV file into a campaign of ``collection``; see the module.

    The file is ``text`` (its content) or an open binary ``stream`` (an upload), read a
    record at a time; ``filename`` is what messages call it. Inline judgments go into
    the judgment source ``answers: <campaign name>``; changing judgments it already
    holds needs ``replace`` (:mod:`catalog.services.sources`). ``create_missing_clips``
    creates, without audio, the clips the file names that the collection lacks (a
    collection for analysing another study needs no audio); otherwise such an id stops
    the import.
    """
    if (text is None) == (stream is None):
        raise ValueError("give exactly one of text and stream")
    report = AnswersImportReport()
    name = campaign_name or f"Imported: {filename.rsplit('/', 1)[-1]}"[:CAMPAIGN_NAME_MAX_LENGTH]
    try:
        check_text(name, what="campaign name", max_length=CAMPAIGN_NAME_MAX_LENGTH)
    except ValidationError as error:
        raise AnswersImportError(f"{filename}: {error.messages[0]}") from None
    clips = {c.external_id: c for c in collection.clips.all()}
    data = as_input(text if stream is None else stream, path=filename)
    data.progress = progress
    new_clips: set[str] | None = set() if create_missing_clips else None
    rows = _parse(data, name=filename, clips=set(clips), new_clips=new_clips)
    k = len(rows[0].lists[0])
    report.rows = len(rows)

    judged = set(
        RelevanceJudgment.objects.filter(query__collection=collection).values_list(
            "query__clip__external_id", "clip__external_id"
        )
    )
    inline, first_line = {}, {}
    for row in rows:
        inline.update(row.judgments)
        for pair in row.judgments:
            first_line.setdefault(pair, row.line)
    for row in rows:
        for ids in row.lists:
            for clip in ids:
                if (row.query, clip) not in judged and (row.query, clip) not in inline:
                    raise AnswersImportError(
                        f"{filename}:{row.line}: {clip} has no judgment for query {row.query} "
                        "in the collection; give fine_a/fine_b or broad_a/broad_b"
                    )
    del judged

    progress(None, "writing")
    now = timezone.now()
    with transaction.atomic():
        campaign = _campaign(collection, name, filename, k, report)
        report.campaign = campaign
        if new_clips:
            Clip.objects.bulk_create(
                [Clip(collection=collection, external_id=c) for c in sorted(new_clips)],
                batch_size=BATCH_SIZE,
            )
            clips.update(
                {c.external_id: c for c in collection.clips.filter(external_id__in=new_clips)}
            )
            report.clips_created = len(new_clips)
        existing_queries = set(collection.queries.values_list("clip__external_id", flat=True))
        new_queries = sorted({r.query for r in rows} - existing_queries)
        if new_queries:
            queries_create(collection=collection, clip_ids=new_queries)
            report.queries_created = len(new_queries)
        if inline:
            try:
                write = judgments_upsert(
                    collection=collection,
                    judgments=[
                        {
                            "query": q,
                            "clip": c,
                            "broad": b,
                            "fine": f,
                            "where": f"line {first_line[q, c]}",
                        }
                        for (q, c), (b, f) in sorted(inline.items())
                    ],
                    source=f"answers: {campaign.name}"[:200],
                    kind=JudgmentSource.ANSWERS,
                    replace=replace,
                    origin=filename,
                )
            except SourceConflict as conflict:
                raise AnswersImportError(f"{filename}: {conflict.messages[0]}") from None
            report.judgments_created, report.judgments_updated = write.created, write.updated
            report.judgments_present = write.unchanged
        queries = {q.clip.external_id: q for q in collection.queries.select_related("clip")}
        index = _example_index(campaign)
        specs, wanted = [], set()
        for row in rows:
            a, b = row.lists
            if (
                (row.query, a, b) in index
                or (row.query, b, a) in index
                or (row.query, a, b) in wanted
                or (row.query, b, a) in wanted
            ):
                continue
            wanted.add((row.query, a, b))
            specs.append(
                {"query": queries[row.query], "list_a": [clips[c] for c in a],
                 "list_b": [clips[c] for c in b]}
            )  # fmt: skip
        try:
            report.examples_created = len(
                examples_create(
                    campaign=campaign,
                    examples=specs,
                    source=Example.SOURCE_CSV,
                    allow_identical=True,
                )
            )
        except ValidationError as error:
            raise AnswersImportError(f"{filename}: {'; '.join(error.messages)}") from None
        index = _example_index(campaign)
        _answers_write(campaign=campaign, rows=rows, index=index, now=now,
                       filename=filename, report=report)  # fmt: skip
        if report.answers_created:
            handoff.preference_answers_changed(campaign_id=campaign.pk)
    return report


def _answers_write(*, campaign, rows, index, now, filename, report) -> None:
    """Workers, tasks and accepted answers of ``rows``, in batches; a different answer
    of a worker already stored for an example stops the import."""
    workers = {w.platform_id: w for w in campaign.workers.filter(platform=Worker.GENERIC)}
    new_workers = [
        Worker(campaign=campaign, platform=Worker.GENERIC, platform_id=worker_id, seed=0,
               consented_at=now, status=Worker.FINISHED, trusted=True)
        for worker_id in dict.fromkeys(row.worker for row in rows)
        if worker_id not in workers
    ]  # fmt: skip
    Worker.objects.bulk_create(new_workers, batch_size=BATCH_SIZE)
    report.workers_created = len(new_workers)
    workers = {w.platform_id: w for w in campaign.workers.filter(platform=Worker.GENERIC)}
    answered = {
        (worker_id, example_id): outcome
        for worker_id, example_id, outcome in Answer.objects.filter(
            example__campaign=campaign
        ).values_list("worker_id", "example_id", "outcome")
    }
    positions = {  # a task's position counts practice tasks too (they come first)
        pk: served + practice
        for pk, served, practice in campaign.workers.values_list(
            "pk", "served_count", "practice_count"
        )
    }
    added: dict[int, int] = {}  # worker id → answers added
    slots: dict[int, int] = {}  # example id → answers added
    pending: list[tuple[PreferenceTask, Answer]] = []
    for row in rows:
        a, b = row.lists
        example = index.get((row.query, a, b))
        swapped = example is None
        if swapped:
            example = index[(row.query, b, a)]
        worker = workers[row.worker]
        outcome = choice_as_stored(row.answer, swapped=swapped)
        before = answered.get((worker.pk, example.pk))
        if before is not None:
            if before != outcome:
                raise AnswersImportError(
                    f"{filename}:{row.line}: worker {row.worker!r} already has a different "
                    f"answer to this example in the campaign ({before})"
                )
            report.answers_present += 1
            continue
        answered_at = row.answered_at or now
        seconds = row.seconds if row.seconds is not None else 0.0
        served_at = answered_at - timedelta(seconds=seconds)
        positions[worker.pk] += 1
        task = PreferenceTask(
            worker=worker, example=example, position=positions[worker.pk], swapped=swapped,
            served_at=served_at, answered_at=answered_at,
        )  # fmt: skip
        answer = Answer(
            worker=worker, example=example, choice=row.answer, outcome=outcome,
            swapped=swapped, comment=row.comment, served_at=served_at,
            answered_at=answered_at, seconds=seconds, accepted_at=now,
        )  # fmt: skip
        pending.append((task, answer))
        answered[(worker.pk, example.pk)] = outcome
        added[worker.pk] = added.get(worker.pk, 0) + 1
        slots[example.pk] = slots.get(example.pk, 0) + 1
        if len(pending) >= BATCH_SIZE:
            _flush(pending)
        report.answers_created += 1
    _flush(pending)
    for worker_id, n in added.items():
        Worker.objects.filter(pk=worker_id).update(
            served_count=F("served_count") + n, answer_count=F("answer_count") + n
        )
    for example_id, n in slots.items():
        Example.objects.filter(pk=example_id).update(slots_taken=F("slots_taken") + n)


def _flush(pending: list[tuple[PreferenceTask, Answer]]) -> None:
    """Write a batch of tasks, then their answers (which need the tasks' keys)."""
    if not pending:
        return
    tasks = PreferenceTask.objects.bulk_create([task for task, _ in pending])
    for task, (_, answer) in zip(tasks, pending, strict=True):
        answer.task = task
    Answer.objects.bulk_create([answer for _, answer in pending])
    pending.clear()
