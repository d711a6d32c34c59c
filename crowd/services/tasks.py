"""Serving crowd tasks: a worker's next comparison, and slots of tasks left unanswered.

(Crowd *tasks* are :class:`~crowd.models.PreferenceTask` rows, one example shown to
one worker; Celery tasks are in ``work/tasks.py``.)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from common import sql
from crowd.models import Example, PreferenceCampaign, PreferenceTask, TrapQuestion, Worker
from crowd.selectors import ANSWERED, UNSHOWN_QUIZ, WORK, campaign_quiz_target
from crowd.services.quiz import quiz_question_make
from crowd.services.slots import ANSWER_WAIT_LEASE, answers_release_gone, tasks_release_stale
from crowd.services.trust import worker_trust_update

TASK_LEASE = timedelta(minutes=30)
"""A task on screen when its campaign closes can still be answered this long after it
was served."""

TASK_HEARTBEAT_LEASE = timedelta(seconds=60)
"""An unanswered task holds its example's redundancy slot until its page has been silent
this long: the task page beats every :data:`TASK_HEARTBEAT_SECONDS` while it is open
(``crowd/static/crowd/task.js`` → :func:`task_alive`), so a slot held by a page that went
quiet comes back within a minute (issue 29; 3 minutes before, 30 before issue 22)."""

TASK_HEARTBEAT_SECONDS = 20
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
    ``served_count``, the cap, trust or pay: :mod:`~crowd.services.practice`).
    Quiz mode: the first Q tasks are quiz questions, each shown to this worker only — a
    question of the quiz pool nobody was shown, else one made for them from the official
    judgments (:mod:`~crowd.services.quiz`; thesis §3.2.2, CrowdFlower's quiz
    mode). Then work, at most ``max_answers_per_worker`` tasks in all.

    **Work is one draw, trap questions or not** (issue 29). The work pool's trap
    questions are examples of the campaign's own ordinary work (drawn from it:
    :func:`~crowd.services.traps.trap_questions_from_judgments`), and a worker's
    next work task is the first of the examples they have not been shown that still has a
    redundancy slot (``answers_per_example``), least taken first, then in the worker's
    own random order — the same statement and the same rule for every example, so that
    a trap question is shown as often, to as many workers, at the same places in their
    sequences as any example, and a worker meets trap questions in the proportion the
    pool has (the trap rate). There is no separate roll for trap questions and no trap
    question served on its own once ordinary work ran out.

    **Exposure at saturation.** When no example has a free slot: the slots of tasks
    whose page has been silent for :data:`TASK_HEARTBEAT_LEASE` come back
    (:func:`tasks_release_stale`); then an example that still lacks answers, its slots
    held by tasks open longer than :data:`TASK_BEYOND_AFTER`, may be served beyond its
    slots; and a worker who passed the quiz but has fewer work tasks than the campaign's
    ``min_work_answers`` is **owed** them: they get the examples with the fewest answers
    and open tasks, beyond redundancy if they must, so that the completion code they
    were promised is never held back by identities holding every slot (issue 29). No
    example goes beyond its redundancy while another still lacks answers, except for
    that owed minimum.

    **Full, before the quiz.** The task pages tell a worker who has not been served a
    task yet (practice aside) that the study is full when there is no room for them
    (:func:`~crowd.selectors.campaign_room`: fewer examples than
    ``min_work_answers`` still lack answers, or no quiz can be given them): before the
    quiz, never after it. A worker who ran out of work reaches a trust checkpoint
    (:func:`~crowd.services.trust.worker_trust_update`) before being finished.

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
                if tasks_release_stale(
                    campaign=campaign, older_than=now - TASK_HEARTBEAT_LEASE
                ) + answers_release_gone(campaign=campaign, older_than=now - ANSWER_WAIT_LEASE):
                    continue  # slots came back: try again
            worker.refresh_from_db(fields=_SERVING_FIELDS)
            for mode in (_BEYOND, _OWED):
                try:
                    with transaction.atomic():
                        return _serve_new(worker, campaign, mode=mode)
                except (IntegrityError, _NothingToServe):
                    pass
            worker_trust_update(worker=worker, checkpoint=True)  # the end is a checkpoint
            if _work_coming(campaign):
                return None  # not finished: the next visit may find new work
            Worker.objects.filter(pk=worker.pk, status=Worker.ACTIVE).update(status=Worker.FINISHED)
            worker.refresh_from_db(fields=["status"])
            return _open_task(worker)
    return _open_task(worker)


_WORK_COMING: dict[str, Callable[[PreferenceCampaign], bool]] = {}


def work_coming_register(kind: str, coming: Callable[[PreferenceCampaign], bool]) -> None:
    """Let an app above say whether a campaign of ``kind`` will have new work later (a
    pairs campaign's next round: ``pairwise``, from its ``ready()``): a worker who runs out
    of work meanwhile reaches a trust checkpoint and is not finished, so the end page's
    "look for more tasks" serves the new work (their code stays theirs to take)."""
    _WORK_COMING[kind] = coming


def _work_coming(campaign: PreferenceCampaign) -> bool:
    coming = _WORK_COMING.get(campaign.kind)
    return coming is not None and coming(campaign)


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
    f"{ANSWERED} + (SELECT COUNT(*) FROM judging_preferencetask h WHERE h.example_id = e.id "
    "AND h.answered_at IS NULL AND NOT h.released AND h.served_at >= %s) < %s"
)
"""The example still lacks answers (redundancy not met) counting only tasks served within
:data:`TASK_BEYOND_AFTER` as taking a slot (parameters: that time, the redundancy)."""

_BEYOND, _OWED = "beyond", "owed"
"""How far :func:`_serve_new` may go: examples lacking answers whose slots are held
(beyond), or any example, fewest answers and open tasks first (owed work)."""


def _work_candidates(worker: Worker, campaign: PreferenceCampaign, mode: str | None) -> list[int]:
    """Up to :data:`_CANDIDATES` examples of work the worker has not been served, fewest
    slots taken first, then in the worker's order; one statement whatever the example is
    (a trap question of the work pool or not). ``mode``: None, only examples with a free
    slot; :data:`_BEYOND`, examples that still lack answers although every slot is held;
    :data:`_OWED`, any example."""
    order, order_params = _order_key(worker.seed)
    if mode is None:
        left, params = "e.slots_taken < %s", (campaign.answers_per_example,)
    elif mode == _BEYOND:
        recent = sql.param(timezone.now() - TASK_BEYOND_AFTER)
        left, params = _ANSWERS_LEFT, (recent, campaign.answers_per_example)
    else:
        left, params = "1 = 1", ()
    found = sql.rows(
        f"SELECT e.id FROM judging_example e WHERE {_UNSEEN} AND {WORK} AND {left} "
        f"ORDER BY e.slots_taken, {order} LIMIT {_CANDIDATES}",
        (campaign.pk, worker.pk, TrapQuestion.WORK, *params, *order_params),
    )  # fmt: skip
    return [pk for (pk,) in found]


def _quiz_question(worker: Worker, campaign: PreferenceCampaign) -> int | None:
    """A quiz question for this worker alone: the first of the quiz pool's questions
    nobody was shown (in the worker's order), claimed by one conditional statement, else
    one made for them now (:func:`~crowd.services.quiz.quiz_question_make`);
    None when neither is left."""
    order, order_params = _order_key(worker.seed)
    for (pk,) in sql.rows(
        f"{UNSHOWN_QUIZ} ORDER BY {order} LIMIT {_CANDIDATES}",
        (campaign.pk, TrapQuestion.QUIZ, Example.SOURCE_QUIZ, *order_params),
    ):
        # Nobody was shown it, so nothing took its slot: the first claim wins it for good
        # (a question once shown is never unseen again, whatever its slots say later).
        if sql.run(
            "UPDATE judging_example SET slots_taken = slots_taken + 1 "
            "WHERE id = %s AND slots_taken = 0",
            (pk,),
        ):
            return pk
    made = quiz_question_make(campaign=campaign)
    if made is None:
        return None
    sql.run("UPDATE judging_example SET slots_taken = slots_taken + 1 WHERE id = %s", (made.pk,))
    return made.pk


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
    worker: Worker, campaign: PreferenceCampaign, *, mode: str | None = None
) -> PreferenceTask:
    practice = _serve_practice(worker, campaign) if mode is None else None
    if practice is not None:
        return practice
    if worker.served_count >= campaign.max_answers_per_worker:
        raise _NothingToServe  # the cap is the cap
    position = worker.served_count + worker.practice_count + 1  # practice tasks come first
    rng = random.Random(f"{worker.seed}:{position}")
    # Without a quiz (the same for every task of the campaign) nothing needs counting.
    quizzed = worker.tasks.filter(is_quiz=True).count() if campaign.quiz_length else 0
    example_id, is_quiz = None, False
    if quizzed < campaign_quiz_target(campaign=campaign):
        if mode is not None:
            raise _NothingToServe  # beyond redundancy is for work only
        example_id = _quiz_question(worker, campaign)
        is_quiz = example_id is not None  # else no question is left: the quiz ends here
    if example_id is None:
        if mode == _OWED and (
            not worker.served_count or campaign.completion_earned(worker.served_count - quizzed)
        ):
            raise _NothingToServe  # owed to a worker who started, up to what earns the code
        # Beyond redundancy, an example is claimed whatever its slots say.
        limit = campaign.answers_per_example if mode is None else _UNLIMITED
        for pk in _work_candidates(worker, campaign, mode):
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
    worker.served_count += 1  # as stored now (a caller serving again reads no stale count)
    return sql.insert(
        PreferenceTask(
            worker=worker,
            example_id=example_id,
            position=position,
            swapped=rng.random() < 0.5,
            is_quiz=is_quiz,
            served_at=now,
            alive_at=now,
        )
    )
