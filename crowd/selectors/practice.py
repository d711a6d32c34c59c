"""What a worker reads after answering a quiz question or a practice task: the expected
answer and why (issue 23); and how long a campaign's practice step is.

With the quiz's feedback these are the only worker-side reads of
:class:`~crowd.models.TrapQuestion`: quiz and practice questions are not secret
(workers learn from them), and the feedback is read only for a task of the worker's
that is answered and is a quiz or practice task, so a work-pool trap question's answer
never reaches a worker's page.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog.selectors.query_lists import official_judgment_means
from crowd.explanations import explanation_shown
from crowd.models import (
    Answer,
    Example,
    ExampleItem,
    PracticeAnswer,
    PreferenceCampaign,
    TrapQuestion,
    Worker,
    choice_as_stored,
)
from crowd.selectors.campaigns import campaign_quiz_target, pool_target, worker_task

__all__ = ["Feedback", "answer_feedback", "campaign_practice_target"]


def campaign_practice_target(*, campaign: PreferenceCampaign) -> int:
    """How many practice tasks a worker gets: ``practice_length``, or fewer when the
    practice pool has fewer questions that are not forgiven (no statement without
    practice)."""
    return pool_target(
        campaign=campaign, pool=TrapQuestion.PRACTICE, length=campaign.practice_length
    )


@dataclass(frozen=True)
class Feedback:
    """After a quiz or practice answer: what was given, what was expected, and why."""

    practice: bool
    number: int
    """The task's place in its step: practice 1, 2…; quiz question 1, 2…"""
    total: int
    given: str
    correct: bool
    expected: list[str]
    """The accepted answers, about the lists as the worker saw them."""
    why: str
    """One line: the organiser's note in the worker's orientation
    (:func:`~crowd.explanations.explanation_shown`), else (practice) the lists' official
    judgments."""

    @property
    def shows_why(self) -> bool:
        """Practice says why every time; the quiz only after a wrong answer."""
        return bool(self.why) and (self.practice or not self.correct)

    @property
    def last(self) -> bool:
        return self.number >= self.total


def answer_feedback(*, worker: Worker, key: str) -> Feedback | None:
    """The feedback on the worker's answered quiz or practice task with ``key``; ``None``
    for any other task (a work task's answer is never revealed)."""
    task = worker_task(worker=worker, key=key)
    if task is None or task.answered_at is None or not (task.is_quiz or task.is_practice):
        return None
    answers = PracticeAnswer if task.is_practice else Answer
    answer = answers.objects.filter(task_id=task.pk).first()
    if answer is None:
        return None
    trap = TrapQuestion.objects.filter(example_id=task.example_id).first()
    label = worker.campaign.choice_label
    expected = [
        label(choice_as_stored(a, swapped=task.swapped))
        for a in (trap.accepted_answers if trap is not None else [])
    ]
    why = explanation_shown(trap.explanation, swapped=task.swapped) if trap is not None else ""
    if task.is_practice:
        number, total = task.position, campaign_practice_target(campaign=worker.campaign)
        why = why or _judged_lists(example_id=task.example_id, swapped=task.swapped)
    else:
        number = task.position - worker.practice_count
        total = campaign_quiz_target(campaign=worker.campaign)
    return Feedback(
        practice=task.is_practice, number=number, total=max(total, number),
        given=label(answer.choice), correct=bool(answer.correct), expected=expected,
        why=why,
    )  # fmt: skip


def _judged_lists(*, example_id: int, swapped: bool) -> str:
    """The lists' mean official Fine judgments (0–100), as the worker saw them, in one
    line; empty unless every clip of both lists is judged for the query."""
    query_id = Example.objects.values_list("query_id", flat=True).get(pk=example_id)
    items = list(ExampleItem.objects.filter(example_id=example_id).values_list("side", "clip_id"))
    judged = official_judgment_means(query_id=query_id, clip_ids=[c for _, c in items])
    means = {}
    for side in ("a", "b"):
        fine = [judged.get(clip, {}).get("fine") for s, clip in items if s == side]
        if not fine or any(f is None for f in fine):
            return ""
        means[side] = sum(fine) / len(fine)
    shown_a, shown_b = (means["b"], means["a"]) if swapped else (means["a"], means["b"])
    return (
        f"People who judged these clips rated how similar they sound to the query at "
        f"{shown_a:.0f} out of 100 on average for list A and {shown_b:.0f} for list B."
    )
