"""Reads for the crowd pages: what a worker sees, and what an organiser sees.

The worker-side selectors never touch trap questions: a task is read the same way
(same statements, same shape) whether its example is a trap question or not.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from judging.models import (
    Answer,
    Clip,
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    TrapQuestion,
    Worker,
)
from judging.selectors.access import Need, organiser_campaigns

# --- worker side ----------------------------------------------------------------------


@dataclass(frozen=True)
class ShownTask:
    """A task as the worker sees it: lists already mapped to the sides A and B."""

    key: str
    position: int
    is_quiz: bool
    query: Clip
    list_a: list[Clip]
    list_b: list[Clip]


def task_for_worker(*, task: PreferenceTask) -> ShownTask:
    items = ExampleItem.objects.filter(example_id=task.example_id).select_related("clip")
    lists = {"a": [], "b": []}
    for item in items.order_by("side", "rank"):
        lists[item.side].append(item.clip)
    first, second = (lists["b"], lists["a"]) if task.swapped else (lists["a"], lists["b"])
    query = Clip.objects.get(as_queries__examples=task.example_id)
    return ShownTask(
        key=task.key,
        position=task.position,
        is_quiz=task.is_quiz,
        query=query,
        list_a=first,
        list_b=second,
    )


def task_preview(*, campaign: PreferenceCampaign) -> ShownTask | None:
    """A sample task for Mechanical Turk's preview (an example that is not a trap question)."""
    example = campaign.examples.filter(trap__isnull=True).order_by("pk").first()
    if example is None:
        return None
    preview = PreferenceTask(example=example, position=1, swapped=False, key="")
    return task_for_worker(task=preview)


def campaign_quiz_target(*, campaign: PreferenceCampaign) -> int:
    """How many quiz tasks a worker gets: Q, or fewer when fewer trap questions exist."""
    if campaign.quiz_length == 0:
        return 0
    traps = campaign.examples.filter(trap__isnull=False, trap__contested=False).count()
    return min(campaign.quiz_length, traps)


def quiz_answer(*, worker: Worker, key: str) -> Answer | None:
    return (
        Answer.objects.filter(worker=worker, task__key=key, task__is_quiz=True)
        .select_related("task")
        .first()
    )


# --- organiser side -------------------------------------------------------------------


def campaigns_for_organiser(*, user, need: Need = "write") -> QuerySet[PreferenceCampaign]:
    """The preference campaigns ``user`` reaches for ``need``, with their numbers of examples
    and workers."""
    return organiser_campaigns(user=user, need=need).annotate(
        example_count=Count("examples", distinct=True),
        worker_count=Count("workers", distinct=True),
    )


def campaign_with_counts(*, user, campaign_id: int, need: Need = "write") -> PreferenceCampaign:
    """One campaign of :func:`campaigns_for_organiser`, with its counts; else 404."""
    return get_object_or_404(campaigns_for_organiser(user=user, need=need), pk=campaign_id)


@dataclass(frozen=True)
class CampaignProgress:
    examples: int
    trap_questions: int
    target_answers: int
    answers: int
    accepted: int
    excluded: int
    complete_examples: int
    workers: int
    workers_by_status: dict[str, int]


def campaign_progress(*, campaign: PreferenceCampaign) -> CampaignProgress:
    examples = campaign.examples.count()
    traps = campaign.examples.filter(trap__isnull=False).count()
    answers = Answer.objects.filter(worker__campaign=campaign).aggregate(
        total=Count("pk"),
        accepted=Count("pk", filter=Q(accepted_at__isnull=False)),
        excluded=Count("pk", filter=Q(excluded=True)),
    )
    complete = (
        campaign.examples.filter(trap__isnull=True)
        .annotate(n=Count("answers", filter=Q(answers__accepted_at__isnull=False)))
        .filter(n__gte=campaign.answers_per_example)
        .count()
    )
    by_status = dict(
        campaign.workers.values_list("status").annotate(n=Count("pk")).order_by("status")
    )
    return CampaignProgress(
        examples=examples,
        trap_questions=traps,
        target_answers=(examples - traps) * campaign.answers_per_example,
        answers=answers["total"],
        accepted=answers["accepted"],
        excluded=answers["excluded"],
        complete_examples=complete,
        workers=sum(by_status.values()),
        workers_by_status=by_status,
    )


@dataclass(frozen=True)
class WorkerRow:
    worker: Worker
    answers: int
    traps_seen: int
    traps_missed: int
    median_seconds: float | None
    comments: list[str]


def campaign_workers(*, campaign: PreferenceCampaign) -> list[WorkerRow]:
    workers = list(campaign.workers.order_by("created_at"))
    seconds: dict[int, list[float]] = {}
    comments: dict[int, list[str]] = {}
    seen: dict[int, list[int]] = {}
    rows = Answer.objects.filter(worker__campaign=campaign).values_list(
        "worker_id", "seconds", "comment", "correct"
    )
    for worker_id, secs, comment, correct in rows:
        seconds.setdefault(worker_id, []).append(secs)
        if comment:
            comments.setdefault(worker_id, []).append(comment)
        if correct is not None:
            counts = seen.setdefault(worker_id, [0, 0])
            counts[0] += 1
            counts[1] += not correct
    return [
        WorkerRow(
            worker=w,
            answers=len(seconds.get(w.pk, [])),
            traps_seen=seen.get(w.pk, [0, 0])[0],
            traps_missed=seen.get(w.pk, [0, 0])[1],
            median_seconds=statistics.median(seconds[w.pk]) if w.pk in seconds else None,
            comments=comments.get(w.pk, []),
        )
        for w in workers
    ]


def campaign_trap_questions(*, campaign: PreferenceCampaign) -> QuerySet[TrapQuestion]:
    """Trap questions with how often they were answered and missed."""
    return (
        TrapQuestion.objects.filter(example__campaign=campaign)
        .select_related("example__query__clip")
        .annotate(
            seen=Count("example__answers"),
            missed=Count("example__answers", filter=Q(example__answers__correct=False)),
        )
        .order_by("-missed", "pk")
    )


def campaign_examples(*, campaign: PreferenceCampaign) -> QuerySet[Example]:
    """Examples with their answer counts (all, accepted, excluded)."""
    return (
        campaign.examples.select_related("query__clip", "system_a", "system_b", "trap")
        .annotate(
            answer_count=Count("answers"),
            accepted_count=Count("answers", filter=Q(answers__accepted_at__isnull=False)),
            excluded_count=Count("answers", filter=Q(answers__excluded=True)),
        )
        .order_by("pk")
    )


def campaign_answers_for_export(*, campaign: PreferenceCampaign) -> QuerySet[Answer]:
    return (
        Answer.objects.filter(worker__campaign=campaign)
        .select_related(
            "worker",
            "example__query__clip",
            "example__trap",
            "example__system_a",
            "example__system_b",
            "task",
        )
        .prefetch_related("example__items__clip")
        .order_by("answered_at", "pk")
    )


def campaign_answers(*, campaign: PreferenceCampaign) -> QuerySet[Answer]:
    """Every answer of the campaign, oldest first, with its worker and query."""
    return (
        Answer.objects.filter(example__campaign=campaign)
        .select_related("worker", "example__query__clip")
        .order_by("answered_at", "pk")
    )


def campaign_mapping_measures(*, campaign: PreferenceCampaign) -> list[str]:
    """Measures with a stored satisfaction mapping (evaluation's rows, read by relation name)."""
    return sorted(campaign.satisfaction_mappings.values_list("measure", flat=True))
