"""Reads for a crowd campaign's integrity (issue 22): how many trap questions its settings
need and how the headphone screen went (issue 23); who to approve and pay is
:mod:`crowd.selectors.approvals`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db.models import Count, Q

from crowd.models import Example, PreferenceCampaign, TrapQuestion, Worker
from crowd.selectors.judged_levels import quiz_makeable
from listening.selectors import HeadphoneRates


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class PoolNeeds:
    """How many trap questions a campaign's settings need, and how many it has.

    Work pool: trap questions are served like every example, ``r`` times each (issue
    29), so with ``n`` ordinary examples and ``t`` work trap questions a share
    ``t / (t + n)`` of work tasks are trap questions; the trap rate ``p`` needs
    ``t = n·p / (1 − p)``, rounded up. Quiz pool: every quiz question is shown to one
    worker only, and when the official judgments make quiz questions
    (:func:`~crowd.selectors.judged_levels.quiz_makeable`) the campaign makes one for
    each worker who needs it, so the pool needs nothing; otherwise it needs at least one
    worker's quiz, ``Q`` questions, and quizzes ``⌊have / Q⌋`` workers in all.
    Practice pool (issue 23): every worker gets the same ``practice_length`` questions
    at most, so it needs that many (its answers are public anyway: no share to keep).
    """

    work_needed: int | None
    """None: a trap rate of 1 leaves no ordinary work, no pool is large enough."""
    work_have: int
    quiz_needed: int
    quiz_have: int
    practice_needed: int = 0
    practice_have: int = 0
    quiz_made: bool = False
    """The official judgments make quiz questions, one for each worker who needs one."""

    def worse_than(self, before: PoolNeeds) -> bool:
        """Do these needs go beyond the pools where ``before``'s did not already?"""
        work = self.work_needed is None or self.work_have < self.work_needed
        if work and before.work_needed is not None:
            work = self.work_needed is None or self.work_needed > before.work_needed
        quiz = self.quiz_have < self.quiz_needed and self.quiz_needed > before.quiz_needed
        practice = (
            self.practice_have < self.practice_needed
            and self.practice_needed > before.practice_needed
        )
        return work or quiz or practice

    @property
    def problems(self) -> list[str]:
        found = []
        if self.work_needed is None:
            found.append(
                "A trap rate of 1 makes every work task a trap question: lower the trap rate."
            )
        elif self.work_have < self.work_needed:
            found.append(
                f"The work pool has {_count(self.work_have, 'trap question')} and needs "
                f"{self.work_needed} for the trap rate: mark more, or lower the trap rate."
            )
        if self.quiz_have < self.quiz_needed:
            found.append(
                "The official judgments cannot make quiz questions (no query has enough "
                "clips judged clearly similar or clearly dissimilar to it), and the quiz "
                f"pool has {_count(self.quiz_have, 'question')}; each is shown to one "
                f"worker only, so one quiz needs {self.quiz_needed}: mark more, or "
                "shorten the quiz."
            )
        if self.practice_have < self.practice_needed:
            found.append(
                f"The practice pool has {_count(self.practice_have, 'question')} and the "
                f"practice step needs {self.practice_needed}: mark more questions for "
                "practice, or shorten the practice."
            )
        return found


def work_pool_needed(*, ordinary: int, trap_rate: float) -> int | None:
    """Work trap questions needed beside ``ordinary`` examples at ``trap_rate`` (see
    :class:`PoolNeeds`: ``⌈n·p / (1 − p)⌉``); None when the rate is 1.

    >>> work_pool_needed(ordinary=90, trap_rate=0.1), work_pool_needed(ordinary=91, trap_rate=0.1)
    (10, 11)
    """
    if trap_rate >= 1:
        return None
    return math.ceil(ordinary * trap_rate / (1 - trap_rate) - 1e-9)


def campaign_pool_needs(
    *,
    campaign: PreferenceCampaign,
    trap_rate: float | None = None,
    quiz_length: int | None = None,
    practice_length: int | None = None,
) -> PoolNeeds:
    """What the campaign's pools need for its settings (see :class:`PoolNeeds`), or for
    the ``trap_rate``, ``quiz_length`` and ``practice_length`` given instead."""
    unshown = Q(tasks__isnull=True) & ~Q(source=Example.SOURCE_QUIZ)
    counts = campaign.examples.aggregate(
        plain=Count("pk", distinct=True, filter=Q(trap__isnull=True)),
        work=Count(
            "pk", distinct=True, filter=Q(trap__pool=TrapQuestion.WORK, trap__contested=False)
        ),
        quiz=Count(
            "pk",
            distinct=True,
            filter=Q(trap__pool=TrapQuestion.QUIZ, trap__contested=False) & unshown,
        ),
        practice=Count(
            "pk",
            distinct=True,
            filter=Q(trap__pool=TrapQuestion.PRACTICE, trap__contested=False),
        ),
    )
    p = campaign.trap_rate if trap_rate is None else trap_rate
    quiz_length = campaign.quiz_length if quiz_length is None else quiz_length
    practice = campaign.practice_length if practice_length is None else practice_length
    work_needed = work_pool_needed(ordinary=counts["plain"], trap_rate=p)
    made = bool(quiz_length) and quiz_makeable(campaign=campaign)
    quiz_needed = 0 if made else quiz_length
    return PoolNeeds(
        work_needed, counts["work"], quiz_needed, counts["quiz"], practice, counts["practice"],
        quiz_made=made,
    )  # fmt: skip


def worker_work_answers(*, worker: Worker) -> int:
    """The worker's answers outside the quiz (what earns the completion code); practice
    answers are not :class:`~crowd.models.Answer` rows, so they never count here."""
    return worker.answers.filter(task__is_quiz=False).order_by().count()


def campaign_headphone_rates(*, campaign: PreferenceCampaign) -> HeadphoneRates:
    """How many workers took the headphone screen, passed it, and are taking it."""
    counts = (
        Worker.objects.filter(campaign=campaign)
        .order_by()
        .aggregate(
            # distinct: the join to the trials repeats each worker once per trial
            taken=Count("pk", distinct=True, filter=~Q(headphones="")),
            passed=Count("pk", distinct=True, filter=Q(headphones=Worker.PASSED)),
            started=Count(
                "pk", distinct=True, filter=Q(headphones="", headphone_trials__isnull=False)
            ),
        )
    )
    return HeadphoneRates(
        taken=counts["taken"], passed=counts["passed"], in_progress=counts["started"]
    )
