"""Who to approve and pay (issues 22 and 31): one row per worker with the platform's
action that agrees with what the worker's own pages showed them, and why in words.

What a worker was shown is recorded by the worker's pages (``Worker.end_shown``,
:func:`crowd.services.workers.worker_end_shown`): the completion code (or Mechanical
Turk's submission), the screen-out page (its code, except on Mechanical Turk), or the
no-consent code. Each platform's actions:

- **Prolific**: ``approve`` whoever was shown the completion code (even if stopped
  afterwards: they were given it), or did the work it needs and left before their end
  page (they may submit without the code); ``screen_out`` whoever was shown the screen-out code —
  the quiz failed, the headphone check failed, or stopped later by the trust or speed
  rules or by the organiser — whom Prolific pays the study's fixed screen-out reward for
  that code and who must never be rejected (Prolific lists "screened out" among the
  reasons a rejection is not allowed); ``not_earned`` (ask them to **return** the study:
  nothing to pay) whoever declined consent or left with no code.
- **Mechanical Turk**: ``approve`` whoever was shown the completion code (their browser
  submitted the assignment); there is no screen-out: a stopped worker is shown no code and
  asked to return the HIT, so there is nothing to approve (``not_earned``, the reason says
  what to do if they submitted it anyway).
- **other platforms**: as Prolific, in general words.

``reject`` is kept for API clients that read it, but nothing Earshot shows a worker
leads to it any more: every stop shows the screen-out page, and a worker who was shown
the completion code is approved. A participant who submits a code they were never shown
(a Prolific completion code is the same for the whole study) is the case to reject: the
reason of every row not approved says which code, if any, the person saw.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q

from crowd.models import Answer, PreferenceCampaign, Worker

APPROVE, REJECT, NOT_EARNED, SCREEN_OUT = "approve", "reject", "not_earned", "screen_out"
RECOMMENDATIONS = (APPROVE, SCREEN_OUT, NOT_EARNED, REJECT)
"""Every value of ``recommendation``; ``not_earned`` means "ask them to return"."""


@dataclass(frozen=True)
class ApprovalRow:
    """One platform submission (a worker) with what an organiser checks before paying.

    ``recommendation``: one of :data:`RECOMMENDATIONS` (see the module doc), with
    ``reason`` in words. ``bonus``: ``bonus_per_answer`` for every work answer beyond the
    minimum, for an approved worker only. ``code``: the completion code the worker was
    shown, for an approved worker only.
    """

    worker: Worker
    answers: int
    work_answers: int
    quiz_answers: int
    median_seconds: float | None
    mean_clips_heard: float | None
    recommendation: str
    reason: str
    bonus: Decimal
    code: str


def _stop_words(worker: Worker, work_answers: int) -> str:
    """Why Earshot (or the organiser) stopped ``worker``, in words."""
    reason = worker.stop_reason
    if reason == Worker.HEADPHONES:
        return "failed the headphone check"
    if reason == Worker.LOW_TRUST:
        if work_answers == 0:
            return "failed the qualification quiz"
        return "missed too many check questions during the work"
    if reason == Worker.FAST_ANSWERS:
        return "gave too many fast answers"
    if reason == Worker.LOW_AGREEMENT:
        return "answered the opposite of the other workers"
    if reason == Worker.BY_ORGANISER:
        return "excluded by you"
    return "earlier; reinstated by you since"


def end_shown(worker: Worker, work_answers: int, min_work_answers: int) -> str:
    """The end page ``worker`` was shown; for a worker who arrived before it was recorded
    (``unrecorded``), the one their status leads to (a stopped worker's end is the
    screen-out page, a worker with the minimum of work answers the completion code)."""
    if worker.end_shown != Worker.UNRECORDED:
        return worker.end_shown
    if worker.status == Worker.STOPPED:
        return Worker.SCREEN_OUT
    return Worker.COMPLETION if work_answers >= min_work_answers else ""


def recommendation(worker: Worker, *, work_answers: int, min_work_answers: int) -> tuple[str, str]:
    """``(recommendation, reason)`` for one worker on their platform (the module doc)."""
    shown = end_shown(worker, work_answers, min_work_answers)
    stopped = worker.status == Worker.STOPPED
    mturk = worker.platform == Worker.MTURK
    prolific = worker.platform == Worker.PROLIFIC
    back = "the HIT" if mturk else "the study"
    if shown == Worker.COMPLETION:
        reason = "earned the completion code"
        if stopped:
            reason += (
                f"; stopped afterwards ({_stop_words(worker, work_answers)}): their answers "
                "do not count, but they were given the code"
            )
        return APPROVE, reason
    if shown == Worker.SCREEN_OUT:
        why = _stop_words(worker, work_answers)
        if mturk:
            return NOT_EARNED, (
                f"screened out ({why}): shown no code and asked to return the HIT, so there "
                "is nothing to approve; if they submitted it anyway, approve it or ask them "
                "to return it, do not reject"
            )
        pay = (
            "Prolific pays the study's fixed screen-out reward for that code"
            if prolific
            else "pay what your study pays for a screen-out"
        )
        return SCREEN_OUT, f"screened out ({why}): shown the screen-out code; {pay}; never reject"
    if stopped:
        return NOT_EARNED, (
            f"stopped ({_stop_words(worker, work_answers)}) and left before their end page: "
            f"shown no code; ask them to return {back}, nothing to pay"
        )
    if work_answers >= min_work_answers:
        return APPROVE, (
            "did the work the completion code needs, and left before their end page "
            "showed it: they may submit without it"
        )
    if shown == Worker.NO_CONSENT:
        code = "" if mturk else ": shown the no-consent code"
        return NOT_EARNED, f"declined to take part{code}; ask them to return {back}, nothing to pay"
    return NOT_EARNED, (
        f"{work_answers} of {min_work_answers} work answers: shown no code; ask them to "
        f"return {back}, nothing to pay"
    )


def _shown_anything(campaign: PreferenceCampaign):
    """Workers with an answer or an end page: answer_count counts every answer given,
    excluded ones too; someone who declined or failed the headphone check has none."""
    return campaign.workers.filter(Q(answer_count__gt=0) | ~Q(end_shown=""))


def campaign_approvals(*, campaign: PreferenceCampaign) -> list[ApprovalRow]:
    """Every worker of the campaign with an answer or an end page (a decliner, a failed
    headphone check), first arrived first (see :class:`ApprovalRow`); two statements
    whatever the number of workers."""
    workers = list(_shown_anything(campaign).order_by("created_at", "pk"))
    seconds: dict[int, list[float]] = {}
    heard: dict[int, list[int]] = {}
    quiz: dict[int, int] = {}
    rows = Answer.objects.filter(worker__campaign=campaign).order_by()
    for worker_id, secs, clips, is_quiz in rows.values_list(
        "worker_id", "seconds", "clips_heard", "task__is_quiz"
    ):
        seconds.setdefault(worker_id, []).append(secs)
        heard.setdefault(worker_id, []).append(clips)
        quiz[worker_id] = quiz.get(worker_id, 0) + bool(is_quiz)
    result = []
    for w in workers:
        Worker.campaign.field.set_cached_value(w, campaign)
        answers = len(seconds.get(w.pk, []))
        work = answers - quiz.get(w.pk, 0)
        advice, reason = recommendation(
            w, work_answers=work, min_work_answers=campaign.min_work_answers
        )
        extra = max(work - campaign.min_work_answers, 0) if advice == APPROVE else 0
        result.append(
            ApprovalRow(
                worker=w,
                answers=answers,
                work_answers=work,
                quiz_answers=quiz.get(w.pk, 0),
                median_seconds=statistics.median(seconds[w.pk]) if answers else None,
                mean_clips_heard=statistics.fmean(heard[w.pk]) if answers else None,
                recommendation=advice,
                reason=reason,
                bonus=(Decimal(extra) * campaign.bonus_per_answer).quantize(Decimal("0.01")),
                code=w.completion_code_shown() if advice == APPROVE else "",
            )
        )
    return result
