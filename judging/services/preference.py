"""Preference campaigns (thesis §3.2): examples, trap questions, workers, tasks and answers.

The life of a worker: :func:`worker_arrive` (from a task link) → :func:`worker_consent`
→ :func:`task_serve` (the current task; the same one until it is answered) →
:func:`answer_submit` (idempotent by the task's key) → :func:`task_serve` … until the
worker reaches the cap, runs out of examples, or is stopped for low trust.

Trap questions and ordinary examples go through exactly the same statements when they
are served and answered, so neither the pages nor their timing tell them apart.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from judging import handoff
from judging.models import (
    Answer,
    Clip,
    Collection,
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    Query,
    RunEntry,
    System,
    TrapQuestion,
    Worker,
)
from judging.models.crowd import CHOICE_LABELS, choice_as_stored
from judging.services.trust import (
    campaign_quiz_target,
    tasks_release_stale,
    worker_trust_update,
)

ASSIGNMENT_LEASE = timedelta(minutes=30)
"""An unanswered task holds its example's redundancy slot this long."""

_UNLIMITED = 2**31 - 1


class TaskError(Exception):
    """A worker's request that cannot be honoured (unknown task, stopped worker...)."""


# --- campaigns and examples ------------------------------------------------------------


def preference_campaign_create(
    *,
    collection: Collection,
    name: str,
    system_pairs: Iterable[tuple[System, System]] | str | None = "all",
    trap_questions: int = 0,
    **options,
) -> PreferenceCampaign:
    """Create (or return, if it exists) a campaign named ``name`` on ``collection``.

    ``system_pairs="all"`` adds an example for every pair of systems and every query
    where both have a top-k list and the lists differ; ``trap_questions`` marks that many
    examples as trap questions from the collection's Fine judgments
    (:func:`trap_questions_from_judgments`). ``options`` are campaign fields
    (``list_length``, ``answers_per_example``, ``max_answers_per_worker``,
    ``quiz_length``, ``trap_rate``, ``trust_threshold``, ``min_trap_answers``,
    ``completion_code``, ``screen_out_code``, ``instructions``, ...).

    Idempotent by name, so demo seeding may call it on every start.
    """
    with transaction.atomic():
        existing = PreferenceCampaign.objects.filter(collection=collection, name=name).first()
        if existing is not None:
            return existing
        campaign = PreferenceCampaign(collection=collection, name=name, **options)
        campaign.full_clean()
        campaign.save()
        if system_pairs == "all":
            systems = list(collection.systems.order_by("name"))
            system_pairs = [(a, b) for i, a in enumerate(systems) for b in systems[i + 1 :]]
        for system_a, system_b in system_pairs or []:
            examples_from_systems(campaign=campaign, system_a=system_a, system_b=system_b)
        if trap_questions:
            trap_questions_from_judgments(campaign=campaign, count=trap_questions)
    return campaign


def _signature(query: Query, list_a: Sequence[Clip], list_b: Sequence[Clip]) -> str:
    """The same comparison whichever list is called a: sides are randomised when shown."""
    a, b = (",".join(str(c.pk) for c in lst) for lst in (list_a, list_b))
    return f"{query.pk}|{'|'.join(sorted([a, b]))}"


def _example_check(campaign, query, list_a, list_b) -> None:
    k = campaign.list_length
    for side, clips in (("a", list_a), ("b", list_b)):
        if len(clips) != k:
            raise ValidationError(f"list {side} has {len(clips)} clips, the campaign needs {k}")
        if len({c.pk for c in clips}) != k:
            raise ValidationError(f"list {side} repeats a clip")
        if any(c.collection_id != campaign.collection_id for c in clips):
            raise ValidationError(f"list {side} has a clip of another collection")
    if query.collection_id != campaign.collection_id:
        raise ValidationError("the query belongs to another collection")
    if [c.pk for c in list_a] == [c.pk for c in list_b]:
        raise ValidationError("the two lists are identical")


def examples_create(
    *, campaign: PreferenceCampaign, examples: Iterable[dict], source: str
) -> list[Example]:
    """Create examples from dicts with ``query``, ``list_a``, ``list_b`` (clips, in rank
    order) and optionally ``system_a``, ``system_b``, ``scores``. Examples the campaign
    already has (in either side order) are skipped; the new ones are returned."""
    with transaction.atomic():
        known = set(campaign.examples.values_list("signature", flat=True))
        new: list[Example] = []
        lists: list[tuple[Sequence[Clip], Sequence[Clip]]] = []
        for spec in examples:
            query, list_a, list_b = spec["query"], list(spec["list_a"]), list(spec["list_b"])
            _example_check(campaign, query, list_a, list_b)
            signature = _signature(query, list_a, list_b)
            if signature in known:
                continue
            known.add(signature)
            new.append(
                Example(
                    campaign=campaign, query=query, source=source, signature=signature,
                    system_a=spec.get("system_a"), system_b=spec.get("system_b"),
                    scores=spec.get("scores") or {},
                )
            )  # fmt: skip
            lists.append((list_a, list_b))
        Example.objects.bulk_create(new, batch_size=500)
        items = [
            ExampleItem(example=example, side=side, rank=rank, clip=clip)
            for example, (list_a, list_b) in zip(new, lists, strict=True)
            for side, clips in (("a", list_a), ("b", list_b))
            for rank, clip in enumerate(clips, start=1)
        ]
        ExampleItem.objects.bulk_create(items, batch_size=1000)
    return new


def examples_from_systems(
    *, campaign: PreferenceCampaign, system_a: System, system_b: System
) -> list[Example]:
    """One example per query where both systems ranked at least k clips, lists differing."""
    k = campaign.list_length
    tops: dict[tuple[int, int], list[Clip]] = {}
    entries = (
        RunEntry.objects.filter(system__in=[system_a, system_b], rank__lte=k)
        .select_related("clip")
        .order_by("system_id", "query_id", "rank")
    )
    for entry in entries:
        tops.setdefault((entry.system_id, entry.query_id), []).append(entry.clip)
    queries = {q.pk: q for q in campaign.collection.queries.all()}
    specs = []
    for query_id, query in sorted(queries.items()):
        list_a = tops.get((system_a.pk, query_id), [])
        list_b = tops.get((system_b.pk, query_id), [])
        if len(list_a) == len(list_b) == k and [c.pk for c in list_a] != [c.pk for c in list_b]:
            specs.append(
                {"query": query, "list_a": list_a, "list_b": list_b,
                 "system_a": system_a, "system_b": system_b}
            )  # fmt: skip
    return examples_create(campaign=campaign, examples=specs, source=Example.SOURCE_SYSTEMS)


CSV_COLUMNS = ("query", "list_a", "list_b")
CSV_OPTIONAL = ("accepted_answers", "explanation")


def examples_import_csv(*, campaign: PreferenceCampaign, text: str) -> list[Example]:
    """Import examples (and trap questions) from CSV; see ``docs/preference-examples-csv.md``.

    All or nothing: the first bad line stops the import with its line number.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        raise ValidationError(f"line 1: missing column(s) {', '.join(missing)}")
    clips = {c.external_id: c for c in campaign.collection.clips.all()}
    queries = {q.clip.external_id: q for q in campaign.collection.queries.select_related("clip")}
    with transaction.atomic():
        created: list[Example] = []
        for line, row in enumerate(reader, start=2):
            row = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
            try:
                query = queries.get(row["query"])
                if query is None:
                    raise ValidationError(f"unknown query {row['query']!r}")
                lists = []
                for column in ("list_a", "list_b"):
                    ids = row[column].split()
                    unknown = [i for i in ids if i not in clips]
                    if unknown:
                        raise ValidationError(f"{column}: unknown clip {unknown[0]!r}")
                    lists.append([clips[i] for i in ids])
                spec = {"query": query, "list_a": lists[0], "list_b": lists[1]}
                new = examples_create(campaign=campaign, examples=[spec], source=Example.SOURCE_CSV)
                accepted = row.get("accepted_answers", "")
                if accepted:
                    example = new[0] if new else _example_for(campaign, spec)
                    trap_question_mark(
                        example=example,
                        accepted_answers=accepted.replace("|", " ").split(),
                        explanation=row.get("explanation", ""),
                    )
                created.extend(new)
            except ValidationError as error:
                raise ValidationError(f"line {line}: {'; '.join(error.messages)}") from error
    return created


def _example_for(campaign, spec) -> Example:
    return campaign.examples.get(
        signature=_signature(spec["query"], spec["list_a"], spec["list_b"])
    )


# --- trap questions -------------------------------------------------------------------


def trap_question_mark(
    *, example: Example, accepted_answers: Sequence[str], explanation: str = ""
) -> TrapQuestion:
    """Make ``example`` a trap question (or change its accepted answers).

    Accepted answers speak of the stored lists a and b. Answers already given to the
    example are re-marked and their workers' trust recomputed.
    """
    accepted = sorted(set(accepted_answers))
    if not accepted or any(a not in CHOICE_LABELS for a in accepted):
        raise ValidationError(
            f"accepted answers must be some of {', '.join(CHOICE_LABELS)}; got {accepted_answers!r}"
        )
    with transaction.atomic():
        trap, _ = TrapQuestion.objects.update_or_create(
            example=example, defaults={"accepted_answers": accepted, "explanation": explanation}
        )
        _trap_answers_remark(trap=trap)
    return trap


def _trap_answers_remark(*, trap: TrapQuestion) -> None:
    answers = list(trap.example.answers.select_related("worker"))
    for answer in answers:
        answer.correct = trap.accepts(answer.outcome)
    Answer.objects.bulk_update(answers, ["correct"])
    for worker in {a.worker for a in answers}:
        worker_trust_update(worker=worker)


def trap_question_contest(*, trap: TrapQuestion, contested: bool = True) -> int:
    """Forgive (or un-forgive) a trap question; returns how many workers were recomputed.

    A contested trap question counts for nobody's trust and is no longer served.
    """
    with transaction.atomic():
        TrapQuestion.objects.filter(pk=trap.pk).update(contested=contested)
        workers = Worker.objects.filter(answers__example__trap=trap).distinct()
        for worker in workers:
            worker_trust_update(worker=worker)
        return len(workers)


def trap_questions_from_judgments(
    *, campaign: PreferenceCampaign, count: int
) -> list[TrapQuestion]:
    """Mark up to ``count`` clear-cut examples as trap questions, from Fine judgments.

    Clear-cut: every clip of both lists has a Fine judgment and either one list's mean
    is at least 40 points above the other's (that list is better), or both means are
    ≥ 70 (both good) or both ≤ 25 (both bad). The four kinds are taken in turn, as the
    thesis gave CrowdFlower 5 trap examples for each of the four answers.
    """
    fine: dict[tuple[int, int], list[int]] = {}
    for query_id, clip_id, value in campaign.collection.queries.values_list(
        "pk", "judgments__clip_id", "judgments__fine"
    ):
        if value is not None:
            fine.setdefault((query_id, clip_id), []).append(value)
    kinds: dict[str, list[tuple[Example, str]]] = {}
    examples = campaign.examples.filter(trap__isnull=True).prefetch_related("items")
    for example in examples:
        means = []
        for side in "ab":
            values = [
                fine.get((example.query_id, i.clip_id))
                for i in example.items.all()
                if i.side == side
            ]
            if any(v is None for v in values):
                break
            means.append(sum(sum(v) / len(v) for v in values) / len(values))
        else:
            a, b = means
            if a - b >= 40:
                kind, why = (
                    "a_better",
                    f"The clips of one list are far more similar to the query (mean Fine {a:.0f} against {b:.0f}).",
                )
            elif b - a >= 40:
                kind, why = (
                    "b_better",
                    f"The clips of one list are far more similar to the query (mean Fine {b:.0f} against {a:.0f}).",
                )
            elif min(a, b) >= 70:
                kind, why = (
                    "both_good",
                    f"Both lists sound very similar to the query (mean Fine {a:.0f} and {b:.0f}).",
                )
            elif max(a, b) <= 25:
                kind, why = (
                    "both_bad",
                    f"Neither list sounds similar to the query (mean Fine {a:.0f} and {b:.0f}).",
                )
            else:
                continue
            kinds.setdefault(kind, []).append((example, why))
    marked: list[TrapQuestion] = []
    order = ["a_better", "b_better", "both_good", "both_bad"]
    while len(marked) < count and any(kinds.get(k) for k in order):
        for kind in order:
            if kinds.get(kind) and len(marked) < count:
                example, why = kinds[kind].pop(0)
                marked.append(
                    trap_question_mark(example=example, accepted_answers=[kind], explanation=why)
                )
    return marked


# --- workers, tasks and answers -------------------------------------------------------


@dataclass(frozen=True)
class Arrival:
    """Who a task link says the worker is (see :mod:`judging.views.crowd_tasks`)."""

    platform: str
    platform_id: str
    study_id: str = ""
    session_id: str = ""
    assignment_id: str = ""
    hit_id: str = ""
    turk_submit_to: str = ""


def worker_arrive(*, campaign: PreferenceCampaign, arrival: Arrival) -> Worker:
    """The worker of this platform id (created on first arrival); platform ids of the
    latest visit (study, session, MTurk assignment) are kept."""
    fields = {
        "study_id": arrival.study_id, "session_id": arrival.session_id,
        "assignment_id": arrival.assignment_id, "hit_id": arrival.hit_id,
        "turk_submit_to": arrival.turk_submit_to,
    }  # fmt: skip
    lookup = {
        "campaign": campaign,
        "platform": arrival.platform,
        "platform_id": arrival.platform_id,
    }
    try:
        with transaction.atomic():
            worker, created = Worker.objects.get_or_create(
                **lookup, defaults={**fields, "seed": secrets.randbits(62)}
            )
    except IntegrityError:  # the same worker arrived twice at once
        worker, created = Worker.objects.get(**lookup), False
    if not created:
        changed = {k: v for k, v in fields.items() if v and getattr(worker, k) != v}
        if changed:
            for k, v in changed.items():
                setattr(worker, k, v)
            worker.save(update_fields=list(changed))
    return worker


def worker_consent(*, worker: Worker) -> Worker:
    Worker.objects.filter(pk=worker.pk, consented_at__isnull=True).update(
        consented_at=timezone.now()
    )
    worker.refresh_from_db(fields=["consented_at"])
    return worker


def _order_key(seed: int, example_id: int) -> bytes:
    """A worker's random but stable order of the examples."""
    return hashlib.blake2b(f"{seed}:{example_id}".encode(), digest_size=8).digest()


class _NothingToServe(Exception):
    pass


def task_serve(*, worker: Worker) -> PreferenceTask | None:
    """The worker's current task: the open one, or a new one; ``None`` when they are done.

    Quiz mode: the first Q tasks are trap questions. Work mode: a task is a trap
    question with probability ``trap_rate``. Examples come in a random order per
    worker (least-answered first), never twice to a worker, to at most
    ``answers_per_example`` workers, and at most ``max_answers_per_worker`` tasks
    per worker. Both kinds of candidates are always looked up, so serving a trap
    question costs the same as serving any example.
    """
    campaign = worker.campaign
    tasks_release_stale(campaign=campaign, older_than=timezone.now() - ASSIGNMENT_LEASE)
    for _attempt in range(3):
        current = _open_task(worker)
        if current is not None:
            return current
        worker.refresh_from_db(fields=["status", "served_count", "consented_at"])
        if worker.status != Worker.ACTIVE or worker.consented_at is None:
            return None
        try:
            with transaction.atomic():
                return _serve_new(worker, campaign)
        except IntegrityError:
            continue  # another request of this worker served a task at the same moment
        except _NothingToServe:
            Worker.objects.filter(pk=worker.pk, status=Worker.ACTIVE).update(status=Worker.FINISHED)
            worker.refresh_from_db(fields=["status"])
            return _open_task(worker)
    return _open_task(worker)


def _open_task(worker: Worker) -> PreferenceTask | None:
    return (
        PreferenceTask.objects.filter(worker=worker, answered_at__isnull=True)
        .select_related("example__query__clip")
        .first()
    )


def _serve_new(worker: Worker, campaign: PreferenceCampaign) -> PreferenceTask:
    position = worker.served_count + 1
    rng = random.Random(f"{worker.seed}:{position}")
    unseen = campaign.examples.exclude(pk__in=worker.tasks.values("example_id"))
    traps = sorted(
        unseen.filter(trap__isnull=False, trap__contested=False).values_list("pk", flat=True),
        key=lambda pk: _order_key(worker.seed, pk),
    )
    work = sorted(
        unseen.filter(trap__isnull=True, slots_taken__lt=campaign.answers_per_example)
        .values_list("pk", "slots_taken"),
        key=lambda row: (row[1], _order_key(worker.seed, row[0])),
    )  # fmt: skip
    quiz_served = worker.tasks.filter(is_quiz=True).count()
    in_quiz = quiz_served < campaign_quiz_target(campaign=campaign)
    roll = rng.random()
    if not work and not in_quiz:
        raise _NothingToServe
    use_trap = bool(traps) and (in_quiz or roll < campaign.trap_rate)
    candidates = (
        [(pk, _UNLIMITED) for pk in traps]
        if use_trap
        else [(pk, campaign.answers_per_example) for pk, _ in work]
    )
    example_id = None
    for pk, limit in candidates[:20]:
        if Example.objects.filter(pk=pk, slots_taken__lt=limit).update(
            slots_taken=F("slots_taken") + 1
        ):
            example_id = pk
            break
    if example_id is None:
        raise _NothingToServe
    if not Worker.objects.filter(
        pk=worker.pk, status=Worker.ACTIVE, served_count__lt=campaign.max_answers_per_worker
    ).update(served_count=F("served_count") + 1):
        raise _NothingToServe
    return PreferenceTask.objects.create(
        worker=worker,
        example_id=example_id,
        position=position,
        swapped=rng.random() < 0.5,
        is_quiz=in_quiz,
        served_at=timezone.now(),
    )


def answer_submit(*, worker: Worker, key: str, choice: str, comment: str = "") -> Answer:
    """Answer the task with idempotency key ``key``; a repeat returns the first answer.

    ``choice`` is about the lists as shown; the side mapping comes from the task, never
    from the browser. Trust is recomputed after every answer, trap question or not.
    """
    if choice not in CHOICE_LABELS:
        raise ValidationError(f"unknown answer {choice!r}")
    with transaction.atomic():
        assignment = PreferenceTask.objects.filter(worker=worker, key=key).first()
        if assignment is None:
            raise TaskError("This task is not yours or does not exist.")
        now = timezone.now()
        if not PreferenceTask.objects.filter(pk=assignment.pk, answered_at__isnull=True).update(
            answered_at=now
        ):
            return Answer.objects.get(task=assignment)  # a repeat: nothing new
        if Worker.objects.filter(pk=worker.pk, status=Worker.STOPPED).exists():
            raise TaskError("You can no longer answer in this study.")
        trap = TrapQuestion.objects.filter(example_id=assignment.example_id).first()
        outcome = choice_as_stored(choice, swapped=assignment.swapped)
        answer = Answer.objects.create(
            task=assignment,
            worker=worker,
            example_id=assignment.example_id,
            choice=choice,
            outcome=outcome,
            swapped=assignment.swapped,
            comment=comment.strip()[:2000],
            served_at=assignment.served_at,
            answered_at=now,
            seconds=(now - assignment.served_at).total_seconds(),
            correct=trap.accepts(outcome) if trap is not None else None,
        )
        if assignment.released:  # answered after the lease: take the slot again
            PreferenceTask.objects.filter(pk=assignment.pk).update(released=False)
            Example.objects.filter(pk=assignment.example_id).update(
                slots_taken=F("slots_taken") + 1
            )
        Worker.objects.filter(pk=worker.pk).update(answer_count=F("answer_count") + 1)
        worker_trust_update(worker=worker)
        # Announced after every answer, trap question or not, so that the work done
        # after the commit (a message to the broker) takes the same time either way.
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return answer
