"""Background jobs with progress: start one, report progress from it, cancel it.

The life of a :class:`~work.models.Job` is the one state machine of background work
(:mod:`work.state`, with :data:`JOBS` naming the job's fields); this module says when a
job moves, ``work.state`` how::

    job_start ──(commit: handoff.job_queued → Celery "judging.job_run")──▶ queued
    queued ──job_run claims it──▶ running ──runner returns──▶ done (result)
                                          ├─runner raises JobFailed/ImportFailed──▶ failed (message, file, line)
                                          ├─report() finds cancel_requested──▶ cancelled
                                          └─anything else──▶ failed ("unexpected error", logged)
    queued ──broker unreachable──▶ failed ("the background worker could not be reached")
    running, its task redelivered (its worker died) ──job_claim──▶ running again, at once
    running, silent for STALE_AFTER (its worker died) ──jobs_sweep──▶ queued, sent again
        (its first run: another worker takes it over, or a redelivered task claims it) or
        failed (WORKER_LOST: it ran MAX_RUNS times, so it may be what kills its worker;
        the sweep or a late claim fails it); its files are kept
    queued, silent for STALE_AFTER (the message may be lost) ──jobs_sweep──▶ sent again
    failed (never sent, or WORKER_LOST) ──job_retry ("Try again")──▶ queued (sent on commit)

A **runner** is ``runner(*, job, report) -> dict``: it reads ``job.params``, calls
services, calls ``report(done, total, message)`` as it goes (:mod:`work.progress`, the
one progress protocol), and returns the JSON document the result page shows. Each app
registers its kinds' runners with :func:`work.kinds.kind_register`;
:func:`~work.job_runners.job_run` is the task's body. This module imports neither, so
they may all use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from work import handoff, state
from work.fairness import priority_after
from work.models import Job
from work.progress import WorkReport
from work.queues import INTERACTIVE, queue_position
from work.runs import TIMED_OUT

if TYPE_CHECKING:  # a job's collection: a type here, work imports no app
    from catalog.models import Collection

STALE_AFTER = timedelta(minutes=15)
"""A running job that reported nothing for this long is taken to have lost its worker."""

# work.runs.MAX_RUNS: times a worker may claim a job (``Job.runs``): its run, and one
# more after a worker died under it. A job that outlives two workers is failed
# (:data:`WORKER_LOST`) rather than run forever: it may be the job (a file too large for
# memory) that kills them.

WORKER_LOST = (
    "The background worker running this job stopped twice before it finished, so nothing "
    "was changed. The job and its files are kept: try again; if it stops again, ask an "
    "administrator to look at the worker's log (the file may need more memory than it has)."
)

JOBS = state.Machine(Job, lost=WORKER_LOST, stale_after=STALE_AFTER)
"""Where a job keeps its state, for the one state machine (:mod:`work.state`)."""

NOT_SENT = (
    "The background worker could not be reached, so the job never started and nothing "
    "was changed. Try again in a minute; if it fails again, ask an administrator to check "
    "that Redis and the Celery worker are running."
)


class JobFailed(Exception):
    """What a runner raises to fail with a clear message (and the file and line to blame)."""

    def __init__(self, message: str, *, file: str = "", line: int | None = None) -> None:
        super().__init__(message)
        self.message, self.file, self.line = message, file, line


class JobCancelled(Exception):
    """Raised by :class:`JobReport` when someone asked for the job to stop."""


def job_start(
    *,
    kind: str,
    owner,
    collection: Collection | None = None,
    key: str = "",
    params: dict | None = None,
    queue: str = INTERACTIVE,
) -> Job:
    """Create a queued job and send it to a Celery worker when the transaction commits.

    While a job of ``kind`` on ``key`` is queued or running, the same job is returned
    instead of a new one (a repeated submit starts nothing twice). ``queue`` is the
    Celery queue it waits in (:mod:`work.queues`: long work goes to ``heavy``).
    """
    if key:
        active = Job.objects.filter(kind=kind, key=key, state__in=Job.ACTIVE).first()
        if active is not None:
            return active
    try:
        with transaction.atomic():
            job = Job.objects.create(
                kind=kind, owner=owner, collection=collection, key=key, params=params or {},
                message="waiting for a worker", queue=queue,
            )  # fmt: skip
            _send(job.pk, queue=queue, owner_id=job.owner_id)
    except IntegrityError:  # another request started the same job a moment ago
        return Job.objects.get(kind=kind, key=key, state__in=Job.ACTIVE)
    return job


def _named(queue: str) -> str:
    """The queue a job's message names: none for the default (interactive) queue."""
    return "" if queue == INTERACTIVE else queue


def job_priority(*, job_id: int, owner_id: int) -> int:
    """The priority a job is sent with: its owner's other queued or running jobs
    (:func:`work.fairness.priority_after`), so that one organiser's burst of uploads does
    not hold another organiser's one upload (issue 28, item 6)."""
    others = Job.objects.filter(owner_id=owner_id, state__in=Job.ACTIVE).exclude(pk=job_id)
    return priority_after(others.count())


def _send(job_id: int, *, queue: str, owner_id: int) -> None:
    """Send the job's message once the transaction commits (the job fails, saying so, if
    the broker cannot be reached)."""
    handoff.job_queued(
        job_id=job_id, queue=_named(queue), priority=job_priority(job_id=job_id, owner_id=owner_id),
        on_error=lambda error: _not_sent(job_id),
    )  # fmt: skip


def _not_sent(job_id: int) -> None:
    state.fail(JOBS, job_id, error=NOT_SENT, only=Q(state=Job.QUEUED), message="not started")


RETRYABLE = (NOT_SENT, WORKER_LOST, TIMED_OUT)
"""The failures "Try again" sends again: nothing of the job was written, its files are kept."""


def job_retry(*, job: Job) -> Job:
    """Send again a job the broker never received (:data:`NOT_SENT`) or whose workers died
    under it (:data:`WORKER_LOST`): queued, then sent on commit ("Try again").

    Only such a job goes back to the queue, with its runs counted afresh; any other is
    returned as it is. Nothing is lost meanwhile: the job keeps its parameters (an
    upload keeps its files) until it is sent again. A dead worker's transaction was
    rolled back, so running the job again starts from nothing written.
    """
    try:
        with transaction.atomic():
            sent_again = state.enqueue(
                JOBS, Job.objects.filter(pk=job.pk), when=Q(state=Job.FAILED, error__in=RETRYABLE),
                error="", message="waiting for a worker", finished_at=None, runs=0,
            )  # fmt: skip
            if sent_again:
                _send(job.pk, queue=job.queue, owner_id=job.owner_id)
    except IntegrityError:  # the same work was started again meanwhile and is under way
        pass
    job.refresh_from_db()
    return job


def job_retryable(job: Job) -> bool:
    """Whether :func:`job_retry` would send the job again (never sent, or workers lost)."""
    return job.state == Job.FAILED and job.error in RETRYABLE


def job_claim(*, job_id: int, task_id: str = "") -> bool:
    """queued (or running but stale, or running for this very task redelivered: its worker
    died) → running, one more run counted; ``False`` if not claimable (a job out of runs
    is failed instead, :data:`WORKER_LOST`).

    Celery sends a task's message again, with its id, only when the worker running it
    died before it ended (``acks_late`` and ``task_reject_on_worker_lost``: ``kill -9``,
    out of memory, the hard time limit). So a running job whose ``task_id`` is the
    redelivered task's is taken over at once: after ``kill -9`` 1.1 s into an upload the
    redelivered message was dropped and the page said "running, 278/1000" for 15 minutes
    until the sweep sent it again (issue 28, item 7).
    """
    also = Q(state=Job.RUNNING, task_id=task_id) if task_id else None
    return state.claim(JOBS, job_id, also=also, task_id=task_id[:255])


def job_finish(*, job_id: int, result: dict) -> None:
    state.finish(JOBS, job_id, result=result, done=Coalesce(F("total"), F("done")))


def job_fail(*, job_id: int, error: str, file: str = "", line: int | None = None) -> None:
    state.fail(JOBS, job_id, error=error, file=file, line=line)


def job_mark_cancelled(*, job_id: int) -> None:
    state.mark_cancelled(JOBS, job_id)


def job_release(*, job_id: int) -> None:
    """running → queued again (before a retry after a transient database error): that run
    does not count against ``work.runs.MAX_RUNS``, its worker is alive."""
    state.release(JOBS, job_id, updated_at=timezone.now())


def job_cancel(*, job: Job) -> Job:
    """Ask a job to stop: a queued one stops at once, a running one at its next report.

    A running job whose worker went silent (:data:`STALE_AFTER`) is failed at once.
    Cancelling a finished job changes nothing.
    """
    state.cancel(JOBS, job.pk, silent_error="The worker running this job stopped answering.")
    job.refresh_from_db()
    return job


def job_queue_place(*, job: Job) -> dict:
    """Where a job waits: its queue, how many messages wait before its own in the broker
    (``ahead``; ``None`` when it is not waiting there or the broker cannot be read), and
    a sentence for its page (``place``; empty once it runs)."""
    ahead = None
    if job.state == Job.QUEUED:
        ahead = queue_position(job.queue, task=handoff.JOB_TASK, kwargs={"job_id": job.pk})
    if job.state != Job.QUEUED:
        place = ""
    elif ahead is None:
        place = f"Waiting in the {job.queue} queue."
    elif ahead == 0:
        place = f"Next in the {job.queue} queue."
    else:
        place = f"Waiting in the {job.queue} queue: {ahead:,} before it."
    return {"queue": job.queue, "ahead": ahead, "place": place}


NO_PROGRESS_AFTER = timedelta(minutes=1)
"""A running job whose progress has not moved for this long says so on its page."""


def job_progress_note(*, job: Job, now=None) -> dict:
    """Whether a running job's progress has stood still for over :data:`NO_PROGRESS_AFTER`
    (``no_progress_for``, seconds; ``None`` while it moves) and what its page says about it
    (``no_progress``; empty while it moves), so that the page never shows a figure that
    stopped moving as if it were moving."""
    now = now or timezone.now()
    still = now - job.updated_at if job.state == Job.RUNNING and job.updated_at else None
    if still is None or still < NO_PROGRESS_AFTER:
        return {"no_progress_for": None, "no_progress": ""}
    minutes = int(still.total_seconds() // 60)
    taken_over = max(1, int((STALE_AFTER - still).total_seconds() // 60) + 1)
    note = (
        f"No progress for {minutes} minute{'s' if minutes != 1 else ''}. One long step may "
        "still be under way; if the background worker stopped, the job is started again "
        + (f"within {taken_over} minutes." if still < STALE_AFTER else "at the next check.")
    )
    return {"no_progress_for": int(still.total_seconds()), "no_progress": note}


def job_status(*, job: Job) -> dict:
    """The document a job's page polls and the API gives: ``Job.to_dict``, where it waits
    (:func:`job_queue_place`) and whether its progress stands still (:func:`job_progress_note`)."""
    return {**job.to_dict(), **job_queue_place(job=job), **job_progress_note(job=job)}


@dataclass(frozen=True)
class JobSweep:
    sent_again: int
    failed: int


def jobs_sweep() -> JobSweep:
    """Jobs a dead worker or a lost message left behind (the jobs' step of the one sweep,
    :mod:`work.sweep`, at every worker start and on the beat schedule; written with
    :func:`work.state.revive` and :func:`work.state.resend`, as the recomputes' step is):
    nothing reported for :data:`STALE_AFTER`, and then

    - a running job that has a run left (``work.runs.MAX_RUNS``) is queued and sent again: a
      worker takes it over (the dead worker's transaction was rolled back);
    - a running job that has run out of runs is failed (:data:`WORKER_LOST`), its files
      kept, and "Try again" (:func:`job_retry`) sends it once more;
    - a queued job is sent again (its message may have been lost with Redis).

    Sending twice is harmless: :func:`job_claim` is a conditional update, so only one
    message runs the job. A job claimed for a resend is touched (``updated_at``), so the
    next sweep leaves it alone for another :data:`STALE_AFTER`.
    """
    failed, _ = state.revive(JOBS, JOBS.stale(timezone.now()))
    sent = state.resend(
        JOBS,
        lambda: Q(updated_at__lt=timezone.now() - STALE_AFTER),
        mark=lambda: {"message": "sent again: waiting for a worker", "updated_at": timezone.now()},
        send=_send_again,
    )
    return JobSweep(sent_again=sent, failed=failed)


def _send_again(pk: int) -> bool:
    queue, owner_id = Job.objects.filter(pk=pk).values_list("queue", "owner_id").first() or (
        INTERACTIVE, None,
    )  # fmt: skip
    _send(pk, queue=queue or INTERACTIVE, owner_id=owner_id)
    return True


def jobs_sweep_step(*, worker: str = "", started_at=None) -> dict[str, int]:
    """:func:`jobs_sweep` as a step of the one sweep (:mod:`work.sweep`)."""
    swept = jobs_sweep()
    return {"jobs_sent": swept.sent_again, "jobs_failed": swept.failed}


class JobReport(WorkReport):
    """Writes a running job's progress to its row (:class:`work.progress.WorkReport`), at
    most every ``interval`` seconds.

    Each write is one conditional ``UPDATE`` that also finds out whether someone asked
    the job to stop: then it raises :class:`JobCancelled`, which ends the runner.
    """

    def __init__(self, job_id: int, *, interval: float = 0.25) -> None:
        super().__init__(
            JOBS, job_id, only=Q(cancel_requested=False), stopped=JobCancelled, interval=interval
        )
        self.job_id = job_id
