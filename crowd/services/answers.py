"""A crowd worker answers a task (thesis §3.2): idempotent, sides mapped by the server,
refused without the listening evidence the campaign asks for."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from common import sql
from crowd.models import (
    Answer,
    PracticeAnswer,
    PreferenceTask,
    TrapQuestion,
    Worker,
    choice_as_stored,
)
from crowd.services.listening import task_listening
from crowd.services.practice import practice_answer_of, practice_answer_record
from crowd.services.tasks import TaskError, task_answer_claim, task_is_live
from crowd.services.trust import worker_answer_count, worker_trust_update
from work import handoff


class ListenFirst(ValidationError):
    """An answer came before the server had the listening evidence the campaign asks for.

    Its message says what is missing; nothing was stored.
    """


def answer_submit(
    *, worker: Worker, key: str, choice: str, comment: str = ""
) -> Answer | PracticeAnswer:
    """Answer the task with idempotency key ``key``; a repeat returns the first answer.

    ``choice`` is about the lists as shown; the side mapping comes from the task, never
    from the browser. An answer without the listening evidence the campaign asks for
    raises :class:`ListenFirst` (and counts in the worker's ``listening_refusals``); a
    task of a closed campaign whose lease ran out raises :class:`TaskError`. Trust is
    recomputed after every answer, trap question or not.

    A practice task's answer is a :class:`~crowd.models.PracticeAnswer`
    (:func:`~crowd.services.practice.practice_answer_record`): the same checks,
    and nothing counted — no answer, trust, listening refusal or hand-over.
    """
    if choice not in dict(worker.campaign.answer_choices()):
        raise ValidationError(f"unknown answer {choice!r}")  # both_bad is none to a pair
    found = _task_of(worker, key)
    if found is None:
        raise TaskError("This task is not yours or does not exist.")
    task, trap = found.task, found.trap
    if found.answer is not None:
        return found.answer  # a repeat (a double click, a reload) changes nothing
    if task.answered_at is not None:
        return practice_answer_of(task) if task.is_practice else _repeat(task)
    if found.worker_status == Worker.STOPPED:
        raise TaskError("You can no longer answer in this study.")
    campaign = worker.campaign
    now = timezone.now()
    if not task_is_live(task, now=now, campaign_open=found.campaign_open):
        raise TaskError("This study has closed and this task has expired.")
    listening = task_listening(task=task, campaign=campaign, now=now, clips_heard=found.clips_heard)
    if not listening.enough:
        if not task.is_practice:  # practice is where the rule is learnt
            sql.run(
                "UPDATE judging_worker SET listening_refusals = listening_refusals + 1 "
                "WHERE id = %s",
                (worker.pk,),
            )
        raise ListenFirst(listening.message(campaign))
    if task.is_practice:
        return practice_answer_record(
            task=task, trap=trap, choice=choice, now=now, clips_heard=listening.clips_heard
        )
    with transaction.atomic():
        if not task_answer_claim(task, now=now):
            return _repeat(task)  # a repeat that arrived at the same time
        # Counts the answer and locks the worker's row until the commit: a worker stopped
        # meanwhile answers nothing (the transaction rolls back).
        counted = worker_answer_count(worker=worker)
        if counted is None:
            raise TaskError("You can no longer answer in this study.")
        outcome = choice_as_stored(choice, swapped=task.swapped)
        answer = sql.insert(
            Answer(
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
        )
        if task.released:  # answered after the lease: take the slot again
            sql.run(
                "UPDATE judging_preferencetask SET released = %s WHERE id = %s", (False, task.pk)
            )
            sql.run(
                "UPDATE judging_example SET slots_taken = slots_taken + 1 WHERE id = %s",
                (task.example_id,),
            )
        worker_trust_update(worker=counted, after_answer=True)
        # Announced after every answer, trap question or not, so that the work done
        # after the commit (a message to the broker) takes the same time either way.
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
    return answer


@dataclass(frozen=True)
class _Found:
    """A task as an answer finds it, with what its checks need, read in one statement."""

    task: PreferenceTask
    worker_status: str
    campaign_open: bool
    trap: TrapQuestion | None
    answer: Answer | None
    """The task's answer if it was answered (a repeat needs nothing more)."""
    clips_heard: int
    """Distinct clips whose audio the server sent for the task."""


def _task_of(worker: Worker, key: str) -> _Found | None:
    """The worker's task with idempotency key ``key`` and what answering it needs."""
    row = sql.one(
        f"SELECT {sql.columns(PreferenceTask, 't')}, {sql.columns(TrapQuestion, 'q')}, "
        f"{sql.columns(Answer, 'a')}, w.status, c.is_open, "
        "(SELECT COUNT(DISTINCT s.clip_id) FROM judging_audioserved s "
        "WHERE s.task_id = t.id AND s.bytes_sent > 0) "
        "FROM judging_preferencetask t "
        "INNER JOIN judging_worker w ON w.id = t.worker_id "
        "INNER JOIN judging_preferencecampaign c ON c.id = w.campaign_id "
        "LEFT OUTER JOIN judging_trapquestion q ON q.example_id = t.example_id "
        "LEFT OUTER JOIN judging_answer a ON a.task_id = t.id "
        "WHERE t.worker_id = %s AND t.key = %s",
        (worker.pk, key),
    )
    if row is None:
        return None
    (task, trap, answer), (worker_status, campaign_open, clips_heard) = sql.instances(
        row, PreferenceTask, TrapQuestion, Answer
    )
    PreferenceTask.worker.field.set_cached_value(task, worker)
    if answer is not None:
        answer.task = task
    return _Found(
        task=task,
        worker_status=worker_status,
        campaign_open=bool(campaign_open),  # SQLite gives 0 or 1
        trap=trap,
        answer=answer,
        clips_heard=clips_heard,
    )


def _repeat(task: PreferenceTask) -> Answer:
    """The answer already given to ``task`` (a repeat changes nothing)."""
    row = sql.one(
        f"SELECT {sql.columns(Answer, 'a')} FROM judging_answer a WHERE a.task_id = %s", (task.pk,)
    )
    if row is None:
        raise Answer.DoesNotExist(f"task {task.pk} has no answer")
    answer = sql.instance(Answer, row)
    answer.task = task
    return answer
