"""Worker trust from trap questions (CrowdFlower's gold, thesis §3.2.2) and what follows.

trust = correct ÷ answered among a worker's answers to trap questions that are not
contested (quiz and work pools alike; practice tasks never count: their answers are
:class:`~crowd.models.PracticeAnswer` rows), and "missed" = answered − correct: both come
from the same counts, stored on the worker. Trust is acted on only with enough
evidence: after the quiz in quiz mode (``quiz_length > 0``), otherwise after
``min_trap_answers`` trap answers. A worker below the threshold is **stopped**, and so
is one with ``stop_after_fast_answers`` answers faster than ``fast_answer_seconds``
(when the campaign asks for it). A stopped worker's answers are all flagged
``excluded`` (never deleted) and their redundancy slots are given back; a worker at or
above the threshold is **trusted**: their answers to examples that are not trap
questions are **accepted** and handed over to evaluation (:mod:`work.handoff`).

**No oracle** (issue 22): trust and acceptance follow every answer, but an answer never
stops its worker on the spot — being stopped on the next request would tell a worker
(or a crowd of throwaway identities) that the answer just given was a missed trap
question. A worker is stopped only at **checkpoints**: the end of the quiz (whose
answers are shown anyway), every ``trust_check_every`` work answers, and the end of
their work (:func:`~crowd.services.tasks.task_serve` finding nothing more). The
same rule holds after a trap question and after any other answer.

**Agreement with the others** (issue 29): trap questions alone let a worker who finds
them (or is lucky) answer anything elsewhere — the opposite of what they hear, say. At a
checkpoint the worker's answers are also compared with the other workers' answers to the
same examples, anchored by the trap and quiz questions' keys
(:func:`crowd.selectors.agreement.worker_agreement`, the mathematics in
:mod:`evaluation.core.worker_agreement`); a worker who answers the opposite of the others
more often than chance — over everything, or on the examples that are not trap or quiz
questions, where answering the keys right cannot dilute it — is stopped
(``low_agreement``; the lines in :attr:`~evaluation.core.worker_agreement.WorkerAgreement.disagrees`).
The estimate is stored on the worker (``crowd.services.agreement.AGREEMENT_FIELDS``):
the workers page shows it, and the other workers' checkpoints weigh their answers by it.

A stopped worker stays stopped — forgiving a trap question recomputes their trust but
does not bring back someone who was shown the screen-out page — until an organiser
reinstates them (:func:`crowd.services.workers.worker_reinstate`), which makes
them ``trusted_by_organiser``: the automatic rules no longer stop them.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common import sql
from crowd.models import Answer, Example, PreferenceCampaign, TrapQuestion, Worker
from crowd.selectors import campaign_quiz_target, worker_with_campaign
from crowd.selectors.agreement import worker_agreement
from crowd.services.agreement import AGREEMENT_FIELDS, worker_agreement_set
from work import handoff


def worker_locked(pk: int) -> Worker:
    """The worker, row-locked until the transaction ends, with their campaign read (not
    locked: see :func:`~crowd.selectors.worker_with_campaign`)."""
    worker = worker_with_campaign(pk, lock=True)
    if worker is None:
        raise Worker.DoesNotExist(f"no worker {pk}")
    return worker


def worker_answer_count(*, worker: Worker) -> Worker | None:
    """Count an answer of ``worker`` and lock their row until the transaction ends.

    Returns the worker as stored now (their campaign taken from ``worker``), or None if
    they were stopped meanwhile: a stopped worker answers nothing (the caller rolls
    back). One statement, the lock included (issue 14).
    """
    row = sql.one(
        "UPDATE judging_worker SET answer_count = answer_count + 1 "
        f"WHERE id = %s AND status <> %s RETURNING {sql.columns(Worker, 'judging_worker')}",
        (worker.pk, Worker.STOPPED),
    )
    if row is None:
        return None
    counted = sql.instance(Worker, row)
    Worker.campaign.field.set_cached_value(counted, worker.campaign)
    return counted


def _trap_counts(worker: Worker, campaign: PreferenceCampaign) -> tuple[int, int, int, int]:
    """(trap answers, correct ones, quiz answers, fast answers) of the worker, in one
    statement: the quiz and fast counts only when the campaign uses them (else 0)."""
    quiz = (
        "(SELECT COUNT(*) FROM judging_preferencetask t "
        "WHERE t.worker_id = %s AND t.is_quiz AND t.answered_at IS NOT NULL)"
        if campaign.quiz_length > 0
        else "0"
    )
    fast = (
        "(SELECT COUNT(*) FROM judging_answer f WHERE f.worker_id = %s AND f.seconds < %s)"
        if campaign.stop_after_fast_answers
        else "0"
    )
    params = [worker.pk] * (campaign.quiz_length > 0)
    params += [worker.pk, campaign.fast_answer_seconds] * bool(campaign.stop_after_fast_answers)
    return sql.one(
        "SELECT COUNT(a.id), COUNT(CASE WHEN a.correct THEN 1 END), "
        f"{quiz}, {fast} "
        "FROM judging_answer a INNER JOIN judging_trapquestion q ON q.example_id = a.example_id "
        "WHERE a.worker_id = %s AND NOT q.contested AND q.pool <> %s",
        [*params, worker.pk, TrapQuestion.PRACTICE],
    )  # practice answers are never Answer rows; a practice question counts for nobody anyway


def worker_trust_update(
    *, worker: Worker, after_answer: bool = False, checkpoint: bool | None = None
) -> Worker:
    """Recompute a worker's trust, status and the flags of their answers.

    Stopping (low trust, fast answers) happens only at a checkpoint: after an answer
    (``after_answer``) when it ends the quiz or a batch of ``trust_check_every`` work
    answers; ``checkpoint=True`` at the end of a worker's work; an organiser's action
    or a change of settings (``checkpoint`` None) decides at once.

    One transaction; inside a caller's transaction (an answer, a forgive, a reinstate)
    it is part of that one, without a savepoint of its own: an error here undoes the
    caller's whole transaction anyway. ``after_answer``: the caller has just counted an
    answer of the worker in this transaction (:func:`worker_answer_count`), which locked
    and read their row and proved they were not stopped — so none of their answers is
    excluded (only stopping excludes answers, and every change of status reconciles
    them in its own transaction).
    """
    with transaction.atomic(savepoint=False):
        if not after_answer:
            worker = worker_locked(worker.pk)
        campaign = worker.campaign
        answered, correct, quiz_answered, fast = _trap_counts(worker, campaign)
        trust = correct / answered if answered else None

        quiz_target = campaign_quiz_target(campaign=campaign) if campaign.quiz_length else 0
        if campaign.quiz_length > 0:
            # The quiz is over (its last question answered, or cut short when no question
            # was left to give: the worker has work answers).
            evidence = quiz_answered >= quiz_target or worker.answer_count > quiz_answered
        else:
            evidence = answered >= campaign.min_trap_answers
        if after_answer:
            work_answers = worker.answer_count - quiz_answered
            checkpoint = (
                work_answers % campaign.trust_check_every == 0
                if work_answers
                else bool(quiz_target) and quiz_answered == quiz_target  # the quiz ended
            )
        elif checkpoint is None:
            checkpoint = True
        below = evidence and trust is not None and trust < campaign.trust_threshold
        too_fast = bool(campaign.stop_after_fast_answers) and (
            fast >= campaign.stop_after_fast_answers
        )

        fields = ["trap_answered", "trap_correct", "trust", "trusted"]
        opposite = False
        if checkpoint and worker.status != Worker.STOPPED and not worker.trusted_by_organiser:
            agreement = worker_agreement(worker=worker)  # one statement, at checkpoints only
            worker_agreement_set(worker, agreement)
            fields += AGREEMENT_FIELDS
            opposite = agreement.disagrees
        if worker.trusted_by_organiser:
            trusted = True
        else:
            trusted = evidence and trust is not None and not below
            if checkpoint and worker.status != Worker.STOPPED and (below or opposite or too_fast):
                worker.status = Worker.STOPPED
                worker.stop_reason = (
                    Worker.LOW_TRUST if below
                    else Worker.LOW_AGREEMENT if opposite
                    else Worker.FAST_ANSWERS
                )  # fmt: skip
                worker.stopped_at = timezone.now()
                fields += ["status", "stop_reason", "stopped_at"]
        worker.trap_answered, worker.trap_correct, worker.trust = answered, correct, trust
        worker.trusted = trusted
        sql.save(worker, fields)
        _answers_reconcile(worker=worker, none_excluded=after_answer)
    return worker


def _answers_reconcile(*, worker: Worker, none_excluded: bool = False) -> None:
    """Make the answers' ``excluded``/``accepted_at`` flags follow the worker's status.

    ``none_excluded``: the caller knows that no answer of the worker is excluded (after
    an answer: one statement fewer on every answer).
    """
    # Unordered: Answer's default order (worker, then the campaign's date) adds joins.
    answers = Answer.objects.filter(worker=worker).order_by()
    changed = 0
    if worker.status == Worker.STOPPED:
        newly = list(
            answers.filter(excluded=False).values_list("pk", "example_id", "task__released")
        )
        if newly:
            changed += answers.filter(accepted_at__isnull=False).count()
            answers.filter(pk__in=[pk for pk, _, _ in newly]).update(
                excluded=True, accepted_at=None
            )
            # an answer whose slot was given back (answers_release_gone) holds none
            Example.objects.filter(pk__in=[e for _, e, gone in newly if not gone]).update(
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
    else:  # after every answer: plain SQL, two statements (issue 14)
        back = (
            []
            if none_excluded
            else sql.rows(
                "UPDATE judging_answer SET excluded = %s WHERE worker_id = %s AND excluded "
                "RETURNING example_id, task_id",
                (False, worker.pk),
            )
        )
        if back:
            gone = set(
                worker.tasks.filter(pk__in=[t for _, t in back], released=True).values_list(
                    "pk", flat=True
                )
            )  # their slots were given back before the worker was stopped
            Example.objects.filter(pk__in=[e for e, t in back if t not in gone]).update(
                slots_taken=F("slots_taken") + 1
            )
        if worker.trusted:
            # Accept the answers to examples that are not trap questions; an example
            # turned into a trap question no longer counts.
            trap = "EXISTS (SELECT 1 FROM judging_trapquestion q WHERE q.example_id = a.example_id)"
            changed += sql.run(
                f"UPDATE judging_answer AS a SET accepted_at = CASE WHEN {trap} THEN NULL "
                f"ELSE %s END WHERE a.worker_id = %s AND (a.accepted_at IS NULL) <> {trap}",
                (sql.param(timezone.now()), worker.pk),
            )
        else:
            changed += sql.run(
                "UPDATE judging_answer SET accepted_at = NULL "
                "WHERE worker_id = %s AND accepted_at IS NOT NULL",
                (worker.pk,),
            )
    if changed:
        handoff.preference_answers_changed(campaign_id=worker.campaign_id)
