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
(:mod:`judging.handoff`), so the campaign's satisfaction mapping is computed from them
the same way. Importing the same file again adds nothing.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from judging import handoff
from judging.models import (
    Answer,
    Collection,
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    RelevanceJudgment,
    Worker,
)
from judging.models.crowd import CHOICE_LABELS, choice_as_stored
from judging.services.collections import judgments_upsert, queries_create
from judging.services.crowd.examples import examples_create

REQUIRED = ("query", "list_a", "list_b", "answer", "worker")
OPTIONAL = ("fine_a", "fine_b", "broad_a", "broad_b", "answered_at", "seconds", "comment")
SEPARATORS = re.compile(r"[\s|]+")


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
    queries_created: int = 0
    judgments_created: int = 0
    judgments_updated: int = 0
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
    return [t for t in SEPARATORS.split(text.strip()) if t]


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


def _parse(text: str, *, name: str, clips: set[str]) -> list[_Row]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [(h or "").strip() for h in reader.fieldnames or []]
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
    for line, raw in enumerate(reader, start=2):
        if None in raw:
            raise AnswersImportError(f"{name}:{line}: more fields than columns")
        row = {(key or "").strip(): (value or "").strip() for key, value in raw.items()}
        if not any(row.values()):
            continue
        try:
            for column in REQUIRED:
                if not row.get(column):
                    raise ValueError(f"{column} is empty")
            query = row["query"]
            if query not in clips:
                raise ValueError(f"query {query!r} is not a clip of the collection")
            lists = []
            for column in ("list_a", "list_b"):
                ids = tuple(_split(row[column]))
                unknown_clip = next((c for c in ids if c not in clips), None)
                if unknown_clip:
                    raise ValueError(f"{column}: {unknown_clip!r} is not a clip of the collection")
                if len(set(ids)) != len(ids):
                    raise ValueError(f"{column} repeats a clip")
                if query in ids:
                    raise ValueError(f"{column} contains the query itself")
                lists.append(ids)
            if len(lists[0]) != len(lists[1]):
                raise ValueError(f"list_a has {len(lists[0])} clips and list_b {len(lists[1])}")
            if lists[0] == lists[1]:
                raise ValueError("the two lists are identical")
            if k is None:
                k = len(lists[0])
            elif len(lists[0]) != k:
                raise ValueError(f"lists of {len(lists[0])} clips; earlier rows have {k}")
            answer = row["answer"]
            if answer not in CHOICE_LABELS:
                raise ValueError(f"answer {answer!r} is not one of {', '.join(CHOICE_LABELS)}")
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
            answered_at = None
            if row.get("answered_at"):
                answered_at = parse_datetime(row["answered_at"])
                if answered_at is None:
                    raise ValueError(f"answered_at {row['answered_at']!r} is not an ISO 8601 time")
                if timezone.is_naive(answered_at):
                    answered_at = timezone.make_aware(answered_at, UTC)
            seconds = None
            if row.get("seconds"):
                try:
                    seconds = float(row["seconds"])
                except ValueError:
                    raise ValueError(f"seconds {row['seconds']!r} is not a number") from None
                if not math.isfinite(seconds) or seconds < 0:
                    raise ValueError("seconds must be a number ≥ 0")
            key = (row["worker"], query, *sorted([lists[0], lists[1]]))
            if key in seen:
                raise ValueError(
                    f"worker {row['worker']!r} answered this example on line {seen[key]}"
                )
            seen[key] = line
        except ValueError as error:
            raise AnswersImportError(f"{name}:{line}: {error}") from None
        rows.append(
            _Row(line, query, (lists[0], lists[1]), answer, row["worker"], judgments,
                 answered_at, seconds, row.get("comment", ""))
        )  # fmt: skip
    if not rows:
        raise AnswersImportError(f"{name}: no answers in the file")
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
    *, collection: Collection, text: str, filename: str, campaign_name: str = ""
) -> AnswersImportReport:
    """Import the answers of ``text`` (CSV) into a campaign of ``collection``; see the module."""
    report = AnswersImportReport()
    clips = {c.external_id: c for c in collection.clips.all()}
    rows = _parse(text, name=filename, clips=set(clips))
    k = len(rows[0].lists[0])
    name = campaign_name or f"Imported: {filename.rsplit('/', 1)[-1]}"[:200]
    report.rows = len(rows)

    judged = set(
        RelevanceJudgment.objects.filter(query__collection=collection).values_list(
            "query__clip__external_id", "clip__external_id"
        )
    )
    inline = {}
    for row in rows:
        inline.update(row.judgments)
    for row in rows:
        for ids in row.lists:
            for clip in ids:
                if (row.query, clip) not in judged and (row.query, clip) not in inline:
                    raise AnswersImportError(
                        f"{filename}:{row.line}: {clip} has no judgment for query {row.query} "
                        "in the collection; give fine_a/fine_b or broad_a/broad_b"
                    )

    now = timezone.now()
    with transaction.atomic():
        campaign = _campaign(collection, name, filename, k, report)
        report.campaign = campaign
        existing_queries = set(collection.queries.values_list("clip__external_id", flat=True))
        new_queries = sorted({r.query for r in rows} - existing_queries)
        if new_queries:
            queries_create(collection=collection, clip_ids=new_queries)
            report.queries_created = len(new_queries)
        if inline:
            created, updated = judgments_upsert(
                collection=collection,
                judgments=[
                    {"query": q, "clip": c, "broad": b, "fine": f}
                    for (q, c), (b, f) in sorted(inline.items())
                ],
                source=f"answers-import:{campaign.pk}",
            )
            report.judgments_created, report.judgments_updated = created, updated
        queries = {q.clip.external_id: q for q in collection.queries.select_related("clip")}
        index = _example_index(campaign)
        specs, wanted = [], set()
        for row in rows:
            a, b = row.lists
            if (
                (row.query, a, b) in index
                or (row.query, b, a) in index
                or (row.query, a, b) in wanted
            ):
                continue
            if (row.query, b, a) in wanted:
                continue
            wanted.add((row.query, a, b))
            specs.append(
                {"query": queries[row.query], "list_a": [clips[c] for c in a],
                 "list_b": [clips[c] for c in b]}
            )  # fmt: skip
        try:
            report.examples_created = len(
                examples_create(campaign=campaign, examples=specs, source=Example.SOURCE_CSV)
            )
        except ValidationError as error:
            raise AnswersImportError(f"{filename}: {'; '.join(error.messages)}") from None
        index = _example_index(campaign)

        workers = {w.platform_id: w for w in campaign.workers.filter(platform=Worker.GENERIC)}
        for row in rows:
            if row.worker not in workers:
                workers[row.worker] = Worker.objects.create(
                    campaign=campaign, platform=Worker.GENERIC, platform_id=row.worker,
                    seed=0, consented_at=now, status=Worker.FINISHED, trusted=True,
                )  # fmt: skip
                report.workers_created += 1
        answered = {
            (worker_id, example_id): outcome
            for worker_id, example_id, outcome in Answer.objects.filter(
                example__campaign=campaign
            ).values_list("worker_id", "example_id", "outcome")
        }
        positions = dict(campaign.workers.values_list("pk", "served_count"))
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
            task = PreferenceTask.objects.create(
                worker=worker, example=example, position=positions[worker.pk], swapped=swapped,
                served_at=served_at, answered_at=answered_at,
            )  # fmt: skip
            Answer.objects.create(
                task=task, worker=worker, example=example, choice=row.answer, outcome=outcome,
                swapped=swapped, comment=row.comment[:2000], served_at=served_at,
                answered_at=answered_at, seconds=seconds, accepted_at=now,
            )  # fmt: skip
            Worker.objects.filter(pk=worker.pk).update(
                served_count=F("served_count") + 1, answer_count=F("answer_count") + 1
            )
            Example.objects.filter(pk=example.pk).update(slots_taken=F("slots_taken") + 1)
            answered[(worker.pk, example.pk)] = outcome
            report.answers_created += 1
        if report.answers_created:
            handoff.preference_answers_changed(campaign_id=campaign.pk)
    return report
