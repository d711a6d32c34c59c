"""A crowd worker answers a task (thesis §3.2): idempotent, sides mapped by the server,
refused without the listening evidence the campaign asks for."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from judging import handoff
from judging.models import Answer, Example, PreferenceTask, TrapQuestion, Worker
from judging.models.crowd import CHOICE_LABELS, choice_as_stored
from judging.services.crowd.listening import task_listening
from judging.services.crowd.tasks import TaskError, task_is_live
from judging.services.crowd.trust import worker_trust_update


class ListenFirst(ValidationError):
    """An answer came before the server had the listening evidence the campaign asks for.

    Its message says what is missing; nothing was stored.
    """


def answer_submit(*, worker: Worker, key: str, choice: str, comment: str = "") -> Answer:
    """Answer the task with idempotency key ``key``; a repeat returns the first answer.

    ``choice`` is about the lists as shown; the side mapping comes from the task, never
    from the browser. An answer without the listening evidence the campaign asks for
    raises :class:`ListenFirst` (and counts in the worker's ``listening_refusals``); a
    task of a closed campaign whose lease ran out raises :class:`TaskError`. Trust is
    recomputed after every answer, trap question or not.
    """
    if choice not in CHOICE_LABELS:
        raise ValidationError(f"unknown answer {choice!r}")
    task = (
        PreferenceTask.objects.filter(worker=worker, key=key)
        .annotate(worker_status=F("worker__status"), campaign_open=F("worker__campaign__is_open"))
        .select_related("example__trap")
        .order_by()  # one task at most; the default order would sort by the campaign's date
        .first()
    )  # the worker's status, the campaign's state and the trap question if any, at once
    if task is None:
        raise TaskError("This task is not yours or does not exist.")
    if task.answered_at is not None:
        return _repeat(task)
    if task.worker_status == Worker.STOPPED:
        raise TaskError("You can no longer answer in this study.")
    campaign = worker.campaign
    now = timezone.now()
    if not task_is_live(task, now=now, campaign_open=task.campaign_open):
        raise TaskError("This study has closed and this task has expired.")
    listening = task_listening(task=task, campaign=campaign, now=now)
    if not listening.enough:
        Worker.objects.filter(pk=worker.pk).update(listening_refusals=F("listening_refusals") + 1)
        raise ListenFirst(listening.message(campaign))
    with transaction.atomic():
        if not PreferenceTask.objects.filter(pk=task.pk, answered_at__isnull=True).update(
            answered_at=now
        ):
            return _repeat(task)  # a repeat that arrived at the same time
        # Counts the answer and locks the worker's row until the commit: a worker stopped
        # meanwhile answers nothing (the transaction rolls back).
        if not (
            Worker.objects.filter(pk=worker.pk)
            .exclude(status=Worker.STOPPED)
            .update(answer_count=F("answer_count") + 1)
        ):
            raise TaskError("You can no longer answer in this study.")
        trap = _trap_of(task)
        outcome = choice_as_stored(choice, swapped=task.swapped)
        answer = Answer.objects.create(
            task=task,
            worker=worker,
            example_id=task.example_id,
            choice=choice,
            outcome=outcome,
            swapped=task.swapped,
            comment=comment.strip()[:2000],
            served_at=task.served_at,
            answered_at=now,
            seconds=(now - task.served_at).total_seconds(),
            clips_heard=listening.clips_heard,
            correct=trap.accepts(outcome) if trap is not None else None,
        )
        if task.released:  # answered after the lease: take the slot again
            PreferenceTask.objects.filter(pk=task.pk).update(released=False)
            Example.objects.filter(pk=task.example_id).update(slots_taken=F("slots_taken") + 1)
        worker_trust_update(worker=worker)
        # Announced after every answer, trap question or not, so that the work done
        # after the commit (a message to the broker) takes the same time either way.
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return answer


def _trap_of(task: PreferenceTask) -> TrapQuestion | None:
    """The trap question of the task's example (read with the task), or None."""
    try:
        return task.example.trap
    except TrapQuestion.DoesNotExist:
        return None


def _repeat(task: PreferenceTask) -> Answer:
    """The answer already given to ``task`` (a repeat changes nothing)."""
    answer = Answer.objects.get(task=task)
    answer.task = task
    return answer
