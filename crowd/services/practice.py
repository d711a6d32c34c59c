"""A worker's practice tasks (issue 23): answered like any task, counted nowhere.

Practice tasks are served first (:func:`~crowd.services.tasks.task_serve`), from
the campaign's **practice** pool of questions, with the same page and the same listening
rule as work; after each answer the worker reads the expected answer and why
(:func:`crowd.selectors.answer_feedback`). Their answers are
:class:`~crowd.models.PracticeAnswer` rows, never :class:`~crowd.models.Answer`
ones, so no export, trust, approval, bonus, mapping or result can count them, and
answering one counts nothing on the worker (``answer_count``, trust, the checkpoints)
and hands nothing over to evaluation. A practice question is public (every worker sees
its answer), so :func:`~crowd.services.traps.trap_question_mark` never lets one
that was shown become a quiz or work trap question.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from common import sql
from crowd.models import PracticeAnswer, PreferenceTask, TrapQuestion, choice_as_stored
from crowd.services.tasks import task_answer_claim


def practice_answer_record(
    *,
    task: PreferenceTask,
    trap: TrapQuestion | None,
    choice: str,
    now: datetime,
    clips_heard: int,
) -> PracticeAnswer:
    """Store the answer to practice ``task`` (already checked by
    :func:`~crowd.services.answers.answer_submit`: the worker's own live task,
    with the listening evidence); a repeat returns the first answer, as for any task.

    ``choice`` is about the lists as shown; ``correct`` says whether the practice
    question accepts it (``False`` for a question deleted since it was served).
    """
    with transaction.atomic():
        if not task_answer_claim(task, now=now):
            return practice_answer_of(task)  # a repeat that arrived at the same time
        outcome = choice_as_stored(choice, swapped=task.swapped)
        answer = sql.insert(
            PracticeAnswer(
                task=task,
                choice=choice,
                outcome=outcome,
                correct=trap is not None and trap.accepts(outcome),
                answered_at=now,
                seconds=(now - task.served_at).total_seconds(),
                clips_heard=clips_heard,
            )
        )
        if task.released:  # answered after its lease: count it open no more
            sql.run(
                "UPDATE judging_preferencetask SET released = %s WHERE id = %s", (False, task.pk)
            )
            sql.run(
                "UPDATE judging_example SET slots_taken = slots_taken + 1 WHERE id = %s",
                (task.example_id,),
            )
    return answer


def practice_answer_of(task: PreferenceTask) -> PracticeAnswer:
    """The answer already given to practice ``task`` (a reload or a double submit)."""
    answer = PracticeAnswer.objects.get(task_id=task.pk)
    answer.task = task
    return answer
