"""Trap questions (CrowdFlower's gold, thesis §3.2.2): mark, forgive, derive from judgments.

A trap question is an example with known accepted answers; a worker's answers to them
give the worker's trust (:mod:`judging.services.crowd.trust`). Changing a trap
question recomputes the trust of every worker who answered it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from judging import handoff
from judging.models import (
    Answer,
    Example,
    JudgmentSource,
    PreferenceCampaign,
    RelevanceJudgment,
    TrapQuestion,
    Worker,
)
from judging.models.crowd import A_BETTER, B_BETTER, BOTH_BAD, BOTH_GOOD, CHOICE_LABELS
from judging.selectors.crowd_integrity import PoolNeeds, campaign_pool_needs, work_pool_needed
from judging.services.crowd.trust import worker_trust_update

CLEAR_LEAD = 40
"""One list is clearly better when the mean Fine score of its clips is at least this many
points (of 100) above the other list's."""

BOTH_GOOD_FROM = 70
"""Both lists are clearly good when both means are at least this."""

BOTH_BAD_UP_TO = 25
"""Both lists are clearly bad when both means are at most this."""

EXPLANATIONS = {
    A_BETTER: "The clips of one list are far more similar to the query "
    "(mean Fine {better:.0f} against {worse:.0f}).",
    B_BETTER: "The clips of one list are far more similar to the query "
    "(mean Fine {better:.0f} against {worse:.0f}).",
    BOTH_GOOD: "Both lists sound very similar to the query (mean Fine {a:.0f} and {b:.0f}).",
    BOTH_BAD: "Neither list sounds similar to the query (mean Fine {a:.0f} and {b:.0f}).",
}
"""What a worker reads after missing a trap question made from judgments."""


def clear_cut_answer(mean_a: float, mean_b: float) -> str | None:
    """The one answer an example clearly deserves, from its lists' mean Fine scores.

    >>> clear_cut_answer(85, 40), clear_cut_answer(72, 90), clear_cut_answer(10, 25)
    ('a_better', 'both_good', 'both_bad')
    >>> clear_cut_answer(60, 40) is None  # not clear-cut: no trap question
    True
    """
    if mean_a - mean_b >= CLEAR_LEAD:
        return A_BETTER
    if mean_b - mean_a >= CLEAR_LEAD:
        return B_BETTER
    if min(mean_a, mean_b) >= BOTH_GOOD_FROM:
        return BOTH_GOOD
    if max(mean_a, mean_b) <= BOTH_BAD_UP_TO:
        return BOTH_BAD
    return None


def trap_question_mark(
    *,
    example: Example,
    accepted_answers: Sequence[str],
    explanation: str = "",
    pool: str = TrapQuestion.WORK,
) -> TrapQuestion:
    """Make ``example`` a trap question (or change its accepted answers or pool).

    Accepted answers speak of the stored lists a and b. ``pool`` is ``"quiz"`` (shown
    first, with feedback), ``"work"`` (mixed in, never revealed) or ``"practice"`` (the
    practice tasks before the quiz: shown to every worker with its answer, counting
    nowhere). Answers already given to the example are re-marked and their workers'
    trust recomputed.

    The practice pool stays apart (issue 23): a practice question once shown to a worker
    cannot become a quiz or work trap question (its answer is public), and an example
    already shown as a task cannot become a practice question (its answers count).
    """
    accepted = sorted(set(accepted_answers))
    if not accepted or any(a not in CHOICE_LABELS for a in accepted):
        raise ValidationError(
            f"accepted answers must be some of {', '.join(CHOICE_LABELS)}; got {accepted_answers!r}"
        )
    if pool not in dict(TrapQuestion.POOLS):
        raise ValidationError(f"pool must be quiz, work or practice; got {pool!r}")
    _practice_pool_check(example=example, pool=pool)
    with transaction.atomic():
        trap, _ = TrapQuestion.objects.update_or_create(
            example=example,
            defaults={"accepted_answers": accepted, "explanation": explanation, "pool": pool},
        )
        _trap_answers_remark(trap=trap)
    return trap


def _practice_pool_check(*, example: Example, pool: str) -> None:
    """Refuse moving a shown example into or out of the practice pool (see
    :func:`trap_question_mark`)."""
    was = TrapQuestion.objects.filter(example=example).values_list("pool", flat=True).first()
    if (was == TrapQuestion.PRACTICE) == (pool == TrapQuestion.PRACTICE):
        return
    if not example.tasks.exists():
        return
    if was == TrapQuestion.PRACTICE:
        raise ValidationError(
            f"Example {example.pk} was shown to workers as practice, with its answer: it "
            "cannot become a quiz or work trap question. Choose an example nobody has seen."
        )
    raise ValidationError(
        f"Example {example.pk} was already shown to workers and their answers count: it "
        "cannot become a practice question. Choose an example nobody has seen."
    )


def _trap_answers_remark(*, trap: TrapQuestion) -> None:
    answers = list(trap.example.answers.select_related("worker"))
    for answer in answers:
        answer.correct = trap.accepts(answer.outcome)
    Answer.objects.bulk_update(answers, ["correct"])
    for worker in {a.worker for a in answers}:
        worker_trust_update(worker=worker)


def trap_question_contest(*, trap: TrapQuestion, contested: bool = True) -> int:
    """Forgive (or un-forgive) a trap question; returns how many workers were recomputed.

    A contested trap question counts for nobody's trust and is no longer served. Every
    worker who answered it gets their trust, "missed" and accepted answers recomputed in
    one transaction, handed over to evaluation once. A worker it had stopped stays
    stopped (they were shown the screen-out page) until an organiser reinstates them.
    """
    with transaction.atomic():
        TrapQuestion.objects.filter(pk=trap.pk).update(contested=contested)
        workers = Worker.objects.filter(answers__example__trap=trap).distinct()
        for worker in workers:
            worker_trust_update(worker=worker)
        handoff.preference_answers_changed(campaign_id=trap.example.campaign_id)
        return len(workers)


def trap_questions_from_judgments(
    *, campaign: PreferenceCampaign, count: int, pool: str = TrapQuestion.WORK
) -> list[TrapQuestion]:
    """Mark up to ``count`` clear-cut examples as trap questions, from Fine judgments.

    Clear-cut (:func:`clear_cut_answer`): every clip of both lists has an official Fine
    judgment (a pilot source, left out of results, is left out here too)
    and either one list's mean is at least :data:`CLEAR_LEAD` points above the other's
    (that list is better), or both means are ≥ :data:`BOTH_GOOD_FROM` (both good) or
    both ≤ :data:`BOTH_BAD_UP_TO` (both bad). The four kinds are taken in turn, as the
    thesis gave CrowdFlower 5 trap examples for each of the four answers. They join
    ``pool`` (``"quiz"``, ``"work"`` or ``"practice"``; practice questions only from
    examples nobody has been shown).
    """
    fine: dict[tuple[int, int], list[int]] = {}
    official = RelevanceJudgment.objects.filter(
        query__collection=campaign.collection_id,
        source__status=JudgmentSource.OFFICIAL,
        fine__isnull=False,
    )
    for query_id, clip_id, value in official.values_list("query_id", "clip_id", "fine"):
        fine.setdefault((query_id, clip_id), []).append(value)
    kinds: dict[str, list[tuple[Example, str]]] = {}
    examples = campaign.examples.filter(trap__isnull=True).prefetch_related("items")
    if pool == TrapQuestion.PRACTICE:
        examples = examples.filter(tasks__isnull=True)
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
            kind = clear_cut_answer(a, b)
            if kind is None:
                continue
            why = EXPLANATIONS[kind].format(a=a, b=b, better=max(a, b), worse=min(a, b))
            kinds.setdefault(kind, []).append((example, why))
    marked: list[TrapQuestion] = []
    order = [A_BETTER, B_BETTER, BOTH_GOOD, BOTH_BAD]
    while len(marked) < count and any(kinds.get(k) for k in order):
        for kind in order:
            if kinds.get(kind) and len(marked) < count:
                example, why = kinds[kind].pop(0)
                marked.append(
                    trap_question_mark(
                        example=example, accepted_answers=[kind], explanation=why, pool=pool
                    )
                )
    return marked


@dataclass(frozen=True)
class PoolsFilled:
    """What :func:`trap_pools_fill` marked, by pool, and the campaign's needs after it."""

    marked: dict[str, int]
    needs: PoolNeeds

    @property
    def summary(self) -> str:
        """What was done, in the words of the campaign page."""
        names = {TrapQuestion.PRACTICE: "practice question", TrapQuestion.QUIZ: "quiz question",
                 TrapQuestion.WORK: "work trap question"}  # fmt: skip
        done = [f"{n} {names[pool]}{'s' if n != 1 else ''}" for pool, n in self.marked.items() if n]
        said = (
            f"Marked from the official judgments: {', '.join(done)}."
            if done
            else "No trap question was marked."
        )
        if self.needs.work_needed is None:
            said += " A trap rate of 1 leaves no ordinary work: lower it in the settings."
        elif self.needs.problems:
            said += (
                " Not enough clear-cut examples were left for every pool (every clip of both"
                " lists judged, and one list far better or both clearly good or bad): mark"
                " the rest by hand from the examples page."
            )
        elif not done:
            said += " Every pool already has what the settings need."
        return said


def trap_pools_fill(*, campaign: PreferenceCampaign) -> PoolsFilled:
    """Mark as many clear-cut examples (:func:`trap_questions_from_judgments`) as each of
    the campaign's pools lacks for its settings (:class:`PoolNeeds`), in one transaction.

    Practice first (it may take only examples nobody has been shown), then the quiz, then
    the work pool, whose need shrinks as ordinary examples become trap questions: with
    ``n`` ordinary examples and ``h`` work trap questions it marks the least ``k`` with
    ``h + k`` at least what ``n − k`` ordinary examples need. Pools short of clear-cut examples
    stay short; the needs returned say by how much.
    """
    marked: dict[str, int] = {}

    def mark(pool: str, count: int) -> None:
        if count > 0:
            done = trap_questions_from_judgments(campaign=campaign, count=count, pool=pool)
            marked[pool] = len(done)

    with transaction.atomic():
        needs = campaign_pool_needs(campaign=campaign)
        mark(TrapQuestion.PRACTICE, needs.practice_needed - needs.practice_have)
        mark(TrapQuestion.QUIZ, needs.quiz_needed - needs.quiz_have)
        needs = campaign_pool_needs(campaign=campaign)
        if needs.work_needed is not None and needs.work_have < needs.work_needed:
            plain = campaign.examples.filter(trap__isnull=True).count()
            k = next(
                k
                for k in range(plain + 1)
                if needs.work_have + k
                >= work_pool_needed(ordinary=plain - k, trap_rate=campaign.trap_rate)
            )
            mark(TrapQuestion.WORK, k)
        return PoolsFilled(marked=marked, needs=campaign_pool_needs(campaign=campaign))
