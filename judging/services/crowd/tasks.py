"""Serving crowd tasks: a worker's next comparison, and slots of tasks left unanswered.

(Crowd *tasks* are :class:`~judging.models.PreferenceTask` rows, one example shown to
one worker; Celery tasks are in ``evaluation/tasks.py``.)
"""

from __future__ import annotations

import hashlib
import random
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from judging import sql
from judging.models import PreferenceCampaign, PreferenceTask, TrapQuestion, Worker
from judging.selectors.crowd import campaign_quiz_target
from judging.services.crowd.trust import worker_trust_update

TASK_LEASE = timedelta(minutes=30)
"""A task on screen when its campaign closes can still be answered this long after it
was served."""

TASK_HEARTBEAT_LEASE = timedelta(minutes=3)
"""An unanswered task holds its example's redundancy slot until its page has been silent
this long: the task page beats every :data:`TASK_HEARTBEAT_SECONDS` while it is open
(``static/judging/task.js`` → :func:`task_alive`), so a worker who holds a task without
looking at it holds its slot for minutes, not for the half-hour lease of before (issue 22:
identities holding one task each took every slot)."""

TASK_HEARTBEAT_SECONDS = 45
"""How often an open task page says it is still open (handed to the page's script)."""

_UNLIMITED = 2**31 - 1
_CANDIDATES = 20
"""Examples tried in turn when the first ones' slots were taken by workers served meanwhile."""


class TaskError(Exception):
    """A worker's request that cannot be honoured (unknown task, stopped worker...)."""


_PRIME = 2_147_483_647
"""2**31 - 1, a prime: x -> (x * m) mod p permutes the residues for any m in [1, p - 1]."""


def _order_key(seed: int) -> tuple[str, tuple[int, int]]:
    """A worker's random but stable order of the examples, computed by the database.

    ``((pk + offset) * multiplier) mod (2**31 - 1)``, both drawn from a hash of the
    worker's secret seed: a different permutation for each worker (not a rotation of one order),
    the same for one worker on every request. The database sorts and returns only the
    few candidates needed, instead of every example of the campaign for Python to hash
    and sort (issue 14). Products stay below 2**63 for primary keys below 2**32, on
    SQLite and PostgreSQL alike. Returns the SQL expression over ``e.id`` and its two
    parameters.
    """
    digest = hashlib.blake2b(str(seed).encode(), digest_size=16).digest()
    multiplier = 1 + int.from_bytes(digest[:8], "big") % (_PRIME - 1)
    offset = int.from_bytes(digest[8:], "big") % _PRIME
    return f"((e.id + %s) * %s) %% {_PRIME}", (offset, multiplier)


class _NothingToServe(Exception):
    pass


_SERVING_FIELDS = ["status", "served_count", "practice_count", "consented_at"]
"""What serving reads of the worker, read again when a retry needs it fresh."""


def task_serve(*, worker: Worker, campaign_open: bool | None = None) -> PreferenceTask | None:
    """The worker's current task: the open one, or a new one; ``None`` when they are done.

    Practice (``practice_length`` > 0): before anything else, that many questions of
    the practice pool, each followed by its expected answer; they count nowhere (not in
    ``served_count``, the cap, trust or pay: :mod:`~judging.services.crowd.practice`).
    Quiz mode: the first Q tasks are trap questions of the quiz pool. Work mode: a task
    is a trap question of the work pool with probability ``trap_rate`` (the two pools
    never mix: what the quiz's feedback reveals is never a work-mode trap; thesis
    §3.2.2, CrowdFlower's quiz and work modes). Examples come in a random order per
    worker (least-answered first), never twice to a worker, to at most
    ``answers_per_example`` workers, and at most ``max_answers_per_worker`` tasks per
    worker. Both kinds of candidates are always looked up, so serving a trap question
    costs the same as serving any example.

    Trap questions of the work pool take redundancy slots as any example does, so a
    trap question is shown to no more workers than an ordinary example (issue 22:
    sighting counts across identities no longer single them out); quiz questions are
    shown to every worker, from a pool large enough that each sees a small share of it
    (:func:`~judging.selectors.crowd_integrity.campaign_pool_needs`).

    Slots held by tasks whose page has been silent longer than
    :data:`TASK_HEARTBEAT_LEASE` are given back (:func:`tasks_release_stale`) when
    nothing else can be served: until then such an example only counts as one answer
    more when ordering by least answered, and a task page does not scan the campaign for
    them every time (issue 14). If every slot is still leased, an example that still
    lacks answers, its slots held by tasks open longer than :data:`TASK_BEYOND_AFTER`, is
    served beyond its redundancy rather than leaving the worker idle.
    A worker who ran out of work reaches a trust checkpoint
    (:func:`~judging.services.crowd.trust.worker_trust_update`) before being finished.

    A closed campaign serves nothing new: only the task already on screen, while its
    lease lasts (:func:`task_is_live`). ``campaign_open`` is the campaign's state when
    the caller has just read it (a request reads it with the worker); otherwise it is
    read here.
    """
    campaign = worker.campaign
    now = timezone.now()
    released = False
    if campaign_open is None:
        campaign_open = PreferenceCampaign.objects.filter(pk=campaign.pk, is_open=True).exists()
    if not campaign_open:
        current = _open_task(worker)
        return current if current is not None and task_is_live(current, now=now) else None
    for attempt in range(4):
        current = _open_task(worker)
        if current is not None:
            return current
        if attempt:  # the caller's worker was read in this request; a retry reads it again
            worker.refresh_from_db(fields=_SERVING_FIELDS)
        if worker.status != Worker.ACTIVE or worker.consented_at is None:
            return None
        try:
            with transaction.atomic():
                return _serve_new(worker, campaign)
        except IntegrityError:
            continue  # another request of this worker served a task at the same moment
        except _NothingToServe:
            if not released:
                released = True
                if tasks_release_stale(campaign=campaign, older_than=now - TASK_HEARTBEAT_LEASE):
                    continue  # slots came back: try again
            worker.refresh_from_db(fields=_SERVING_FIELDS)
            try:
                with transaction.atomic():
                    return _serve_new(worker, campaign, beyond=True)
            except (IntegrityError, _NothingToServe):
                pass
            worker_trust_update(worker=worker, checkpoint=True)  # the end is a checkpoint
            Worker.objects.filter(pk=worker.pk, status=Worker.ACTIVE).update(status=Worker.FINISHED)
            worker.refresh_from_db(fields=["status"])
            return _open_task(worker)
    return _open_task(worker)


def task_alive(*, worker: Worker, key: str) -> bool:
    """The worker's open task with ``key`` is still on screen: its lease starts again.

    One statement; ``False`` for a task that is not theirs, answered, or released.
    """
    return bool(
        sql.run(
            "UPDATE judging_preferencetask SET alive_at = %s WHERE worker_id = %s AND key = %s "
            "AND answered_at IS NULL AND NOT released",
            (sql.param(timezone.now()), worker.pk, key),
        )
    )


def task_is_live(task: PreferenceTask, *, now=None, campaign_open: bool | None = None) -> bool:
    """Can the task still be answered (and its audio heard)? Unanswered, and either its
    campaign is open (``campaign_open`` when the caller has just read it) or its lease
    has not run out."""
    if task.answered_at is not None:
        return False
    if campaign_open is None:
        campaign_open = PreferenceCampaign.objects.filter(
            workers__tasks=task, is_open=True
        ).exists()
    if campaign_open:
        return True
    return task.served_at >= (now or timezone.now()) - TASK_LEASE


def task_answer_claim(task: PreferenceTask, *, now) -> bool:
    """Mark ``task`` answered at ``now`` if nothing answered it first; False for a repeat
    that arrived at the same time (one statement: the first answer wins, on any database).
    Call it inside the transaction that stores the answer."""
    return bool(
        sql.run(
            "UPDATE judging_preferencetask SET answered_at = %s "
            "WHERE id = %s AND answered_at IS NULL",
            (sql.param(now), task.pk),
        )
    )


def _open_task(worker: Worker) -> PreferenceTask | None:
    row = sql.one(
        f"SELECT {sql.columns(PreferenceTask, 't')} FROM judging_preferencetask t "
        "WHERE t.worker_id = %s AND t.answered_at IS NULL ORDER BY t.position LIMIT 1",
        (worker.pk,),
    )
    return sql.instance(PreferenceTask, row) if row is not None else None


_UNSEEN = (
    "e.campaign_id = %s AND e.id NOT IN "
    "(SELECT s.example_id FROM judging_preferencetask s WHERE s.worker_id = %s)"
)
"""The campaign's examples the worker has not been served (parameters: campaign, worker)."""


TASK_BEYOND_AFTER = timedelta(minutes=2)
"""A task open longer than this (a slow worker, or one holding it while its page beats) no
longer keeps its example from being served beyond redundancy to a worker who would
otherwise idle; a task served more recently still does (a worker answering now)."""

_ANSWERS_LEFT = (
    "(SELECT COUNT(*) FROM judging_answer a WHERE a.example_id = e.id AND NOT a.excluded) "
    "+ (SELECT COUNT(*) FROM judging_preferencetask h WHERE h.example_id = e.id "
    "AND h.answered_at IS NULL AND NOT h.released AND h.served_at >= %s) < %s"
)
"""The example still lacks answers (redundancy not met) counting only tasks served within
:data:`TASK_BEYOND_AFTER` as taking a slot (parameters: that time, the redundancy)."""


def _candidates(
    worker: Worker, campaign: PreferenceCampaign, pool: str, *, beyond: bool = False
) -> tuple[list, list]:
    """Up to :data:`_CANDIDATES` unseen trap questions of ``pool`` (in the worker's order;
    a work-pool one only with a slot left) and as many unseen examples that are not trap
    questions and have a slot left (least answered first, then the worker's order), in
    one statement: both are always looked up, so serving a trap question costs the same
    as serving any example. ``beyond``: examples that still lack answers although every
    slot is leased."""
    order, order_params = _order_key(worker.seed)
    unseen = (campaign.pk, worker.pk)
    work_left = _ANSWERS_LEFT if beyond else "e.slots_taken < %s"
    recent = (sql.param(timezone.now() - TASK_BEYOND_AFTER),) if beyond else ()
    found = sql.rows(
        "SELECT * FROM ("
        f"SELECT 1, e.id, 0, {order} FROM judging_example e "
        "INNER JOIN judging_trapquestion q ON q.example_id = e.id "
        f"WHERE {_UNSEEN} AND NOT q.contested AND q.pool = %s "
        "AND (q.pool = %s OR e.slots_taken < %s) "
        f"ORDER BY 4 LIMIT {_CANDIDATES}) traps "
        "UNION ALL SELECT * FROM ("
        f"SELECT 0, e.id, e.slots_taken, {order} FROM judging_example e "
        f"WHERE {_UNSEEN} AND {work_left} "
        "AND NOT EXISTS (SELECT 1 FROM judging_trapquestion q WHERE q.example_id = e.id) "
        f"ORDER BY 3, 4 LIMIT {_CANDIDATES}) work",
        (
            *order_params, *unseen, pool, TrapQuestion.QUIZ, campaign.answers_per_example,
            *order_params, *unseen, *recent, campaign.answers_per_example,
        ),
    )  # fmt: skip
    found.sort(key=lambda row: (row[0], row[2], row[3]))
    traps = [pk for is_trap, pk, _, _ in found if is_trap]
    work = [pk for is_trap, pk, _, _ in found if not is_trap]
    return traps, work


def _serve_practice(worker: Worker, campaign: PreferenceCampaign) -> PreferenceTask | None:
    """The worker's next practice task, or ``None`` when it is not due: practice comes
    before any other task (``served_count`` 0), ``practice_length`` times at most, while
    the practice pool has a question the worker has not had (in their own order). Nothing
    is read when the campaign has no practice or the worker is past it.

    A practice task takes no slot of anyone's (its example is shown to every worker, as a
    quiz question is), but it is counted in the example's ``slots_taken`` like any open
    task, so that giving back the slots of tasks left silent stays balanced.
    """
    if worker.served_count or worker.practice_count >= campaign.practice_length:
        return None
    order, order_params = _order_key(worker.seed)
    row = sql.one(
        "SELECT e.id FROM judging_example e "
        "INNER JOIN judging_trapquestion q ON q.example_id = e.id "
        f"WHERE {_UNSEEN} AND NOT q.contested AND q.pool = %s ORDER BY {order} LIMIT 1",
        (campaign.pk, worker.pk, TrapQuestion.PRACTICE, *order_params),
    )
    if row is None:
        return None  # the pool ran short (a question forgiven or moved): on to the quiz
    if not sql.run(
        "UPDATE judging_worker SET practice_count = practice_count + 1 "
        "WHERE id = %s AND status = %s AND served_count = 0 AND practice_count = %s",
        (worker.pk, Worker.ACTIVE, worker.practice_count),
    ):  # another request of this worker served a task meanwhile: task_serve tries again
        raise IntegrityError("the worker was served a task meanwhile")
    sql.run("UPDATE judging_example SET slots_taken = slots_taken + 1 WHERE id = %s", row)
    worker.practice_count += 1
    now = timezone.now()
    rng = random.Random(f"{worker.seed}:practice:{worker.practice_count}")
    return sql.insert(
        PreferenceTask(
            worker=worker, example_id=row[0], position=worker.practice_count,
            swapped=rng.random() < 0.5, is_practice=True, served_at=now, alive_at=now,
        )
    )  # fmt: skip


def _serve_new(
    worker: Worker, campaign: PreferenceCampaign, *, beyond: bool = False
) -> PreferenceTask:
    practice = None if beyond else _serve_practice(worker, campaign)
    if practice is not None:
        return practice
    position = worker.served_count + worker.practice_count + 1  # practice tasks come first
    rng = random.Random(f"{worker.seed}:{position}")
    # Without a quiz (the same for every task of the campaign) nothing needs counting.
    quiz_target = campaign_quiz_target(campaign=campaign)
    in_quiz = bool(quiz_target) and worker.tasks.filter(is_quiz=True).count() < quiz_target
    pool = TrapQuestion.QUIZ if in_quiz else TrapQuestion.WORK
    if beyond and (in_quiz or worker.served_count >= campaign.max_answers_per_worker):
        raise _NothingToServe  # the quiz is never short of questions; the cap is the cap
    traps, work = _candidates(worker, campaign, pool, beyond=beyond)
    roll = rng.random()
    # With no ordinary example left, the work traps' remaining slots are served too (in a
    # campaign with traps in work mode), so that every trap question ends up shown to as
    # many workers as an ordinary example, no fewer: fewer would single them out as well.
    fill = not work and campaign.trap_rate > 0
    if not work and not in_quiz and not (traps and fill):
        raise _NothingToServe
    use_trap = bool(traps) and (in_quiz or roll < campaign.trap_rate or fill)
    # A work-pool trap question takes a slot as any example does (exposure parity);
    # beyond redundancy, an ordinary example is claimed whatever its slots say.
    unlimited = (in_quiz and use_trap) or (beyond and not use_trap)
    limit = _UNLIMITED if unlimited else campaign.answers_per_example
    example_id = None
    for pk in traps if use_trap else work:
        if sql.run(
            "UPDATE judging_example SET slots_taken = slots_taken + 1 "
            "WHERE id = %s AND slots_taken < %s",
            (pk, limit),
        ):
            example_id = pk
            break
    if example_id is None:
        raise _NothingToServe
    now = timezone.now()
    if not sql.run(
        "UPDATE judging_worker SET served_count = served_count + 1 "
        "WHERE id = %s AND status = %s AND served_count < %s",
        (worker.pk, Worker.ACTIVE, campaign.max_answers_per_worker),
    ):
        raise _NothingToServe
    return sql.insert(
        PreferenceTask(
            worker=worker,
            example_id=example_id,
            position=position,
            swapped=rng.random() < 0.5,
            is_quiz=in_quiz and use_trap,
            served_at=now,
            alive_at=now,
        )
    )


def tasks_release_stale(*, campaign: PreferenceCampaign, older_than) -> int:
    """Give back the redundancy slots of open tasks whose page was last alive before
    ``older_than``.

    The worker keeps the task (a reload still shows it); if they answer it later the
    slot is taken again, so an example may then get one answer more than asked for.
    """
    released = 0
    stale = sql.rows(
        "SELECT t.id, t.example_id FROM judging_preferencetask t "
        "INNER JOIN judging_worker w ON w.id = t.worker_id "
        "WHERE w.campaign_id = %s AND t.answered_at IS NULL AND NOT t.released "
        "AND t.alive_at < %s",
        (campaign.pk, sql.param(older_than)),
    )  # on every task page: plain SQL (issue 14)
    for pk, example_id in stale:
        with transaction.atomic():
            if sql.run(
                "UPDATE judging_preferencetask SET released = %s "
                "WHERE id = %s AND answered_at IS NULL AND NOT released",
                (True, pk),
            ):
                sql.run(
                    "UPDATE judging_example SET slots_taken = slots_taken - 1 WHERE id = %s",
                    (example_id,),
                )
                released += 1
    return released
