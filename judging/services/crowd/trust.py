"""Worker trust from trap questions (CrowdFlower's gold, thesis §3.2.2) and what follows.

trust = correct ÷ answered among a worker's answers to trap questions that are not
contested (quiz and work pools alike), and "missed" = answered − correct: both come
from the same counts, stored on the worker. Trust is acted on only with enough
evidence: after the quiz in quiz mode (``quiz_length > 0``), otherwise after
``min_trap_answers`` trap answers. A worker below the threshold is **stopped**, and so
is one with ``stop_after_fast_answers`` answers faster than ``fast_answer_seconds``
(when the campaign asks for it). A stopped worker's answers are all flagged
``excluded`` (never deleted) and their redundancy slots are given back; a worker at or
above the threshold is **trusted**: their answers to examples that are not trap
questions are **accepted** and handed over to evaluation (:mod:`judging.handoff`).

A stopped worker stays stopped — forgiving a trap question recomputes their trust but
does not bring back someone who was shown the screen-out page — until an organiser
reinstates them (:func:`judging.services.crowd.workers.worker_reinstate`), which makes
them ``trusted_by_organiser``: the automatic rules no longer stop them.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from judging import handoff
from judging.models import Answer, Example, Worker
from judging.selectors.crowd import campaign_quiz_target


def worker_locked(pk: int) -> Worker:
    """The worker, row-locked until the transaction ends, with their campaign read (not locked).

    Only the worker's row is locked (``of=("self",)``): locking the campaign's row too,
    as a plain ``select_for_update()`` over the join does on PostgreSQL, made every
    answer of a campaign wait for the one before it to commit (issue 14: 18 ms a
    statement at 17 answers/s, most of the server's time).
    """
    return Worker.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=pk)


def worker_trust_update(*, worker: Worker) -> Worker:
    """Recompute a worker's trust, status and the flags of their answers.

    One transaction; inside a caller's transaction (an answer, a forgive, a reinstate)
    it is part of that one, without a savepoint of its own: an error here undoes the
    caller's whole transaction anyway.
    """
    with transaction.atomic(savepoint=False):
        worker = worker_locked(worker.pk)
        campaign = worker.campaign
        counts = Answer.objects.filter(
            worker=worker, example__trap__isnull=False, example__trap__contested=False
        ).aggregate(answered=Count("pk"), correct=Count("pk", filter=Q(correct=True)))
        answered, correct = counts["answered"], counts["correct"]
        trust = correct / answered if answered else None

        if campaign.quiz_length > 0:
            quiz_answered = worker.tasks.filter(is_quiz=True, answered_at__isnull=False).count()
            evidence = quiz_answered >= campaign_quiz_target(campaign=campaign)
        else:
            evidence = answered >= campaign.min_trap_answers
        below = evidence and trust is not None and trust < campaign.trust_threshold
        too_fast = bool(campaign.stop_after_fast_answers) and (
            Answer.objects.filter(worker=worker, seconds__lt=campaign.fast_answer_seconds).count()
            >= campaign.stop_after_fast_answers
        )

        fields = ["trap_answered", "trap_correct", "trust", "trusted"]
        if worker.trusted_by_organiser:
            trusted = True
        else:
            trusted = evidence and trust is not None and not below
            if worker.status != Worker.STOPPED and (below or too_fast):
                worker.status = Worker.STOPPED
                worker.stop_reason = Worker.LOW_TRUST if below else Worker.FAST_ANSWERS
                worker.stopped_at = timezone.now()
                fields += ["status", "stop_reason", "stopped_at"]
        worker.trap_answered, worker.trap_correct, worker.trust = answered, correct, trust
        worker.trusted = trusted
        worker.save(update_fields=fields)
        _answers_reconcile(worker=worker)
    return worker


def _answers_reconcile(*, worker: Worker) -> None:
    """Make the answers' ``excluded``/``accepted_at`` flags follow the worker's status."""
    # Unordered: Answer's default order (worker, then the campaign's date) adds joins.
    answers = Answer.objects.filter(worker=worker).order_by()
    changed = 0
    if worker.status == Worker.STOPPED:
        newly = list(answers.filter(excluded=False).values_list("pk", "example_id"))
        if newly:
            changed += answers.filter(accepted_at__isnull=False).count()
            answers.filter(pk__in=[pk for pk, _ in newly]).update(excluded=True, accepted_at=None)
            Example.objects.filter(pk__in=[e for _, e in newly]).update(
                slots_taken=F("slots_taken") - 1
            )
        open_ids = list(
            worker.tasks.filter(answered_at__isnull=True, released=False)
            .order_by()
            .values_list("example_id", flat=True)
        )
        if open_ids:
            worker.tasks.filter(answered_at__isnull=True).update(released=True)
            Example.objects.filter(pk__in=open_ids).update(slots_taken=F("slots_taken") - 1)
    else:
        back = list(answers.filter(excluded=True).values_list("example_id", flat=True))
        if back:
            answers.filter(excluded=True).update(excluded=False)
            Example.objects.filter(pk__in=back).update(slots_taken=F("slots_taken") + 1)
        countable = answers.filter(example__trap__isnull=True)
        if worker.trusted:
            changed += countable.filter(accepted_at__isnull=True).update(accepted_at=timezone.now())
            # An example turned into a trap question no longer counts.
            changed += answers.filter(
                example__trap__isnull=False, accepted_at__isnull=False
            ).update(accepted_at=None)
        else:
            changed += answers.filter(accepted_at__isnull=False).update(accepted_at=None)
    if changed:
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
