"""Background jobs with progress: start one, report progress from it, cancel it.

The life of a :class:`~judging.models.Job`::

    job_start ──(commit: handoff.job_queued → Celery "judging.job_run")──▶ queued
    queued ──job_run claims it──▶ running ──runner returns──▶ done (result)
                                          ├─runner raises JobFailed/ImportFailed──▶ failed (message, file, line)
                                          ├─report() finds cancel_requested──▶ cancelled
                                          └─anything else──▶ failed ("unexpected error", logged)
    queued ──broker unreachable──▶ failed ("the background worker could not be reached")
    running, silent for STALE_AFTER (its worker died) ──jobs_sweep──▶ queued, sent again
        (its first run: another worker takes it over) or failed (WORKER_LOST: it ran
        MAX_RUNS times, so it may be what kills its worker); its files are kept
    queued, silent for STALE_AFTER (the message may be lost) ──jobs_sweep──▶ sent again
    failed (never sent, or WORKER_LOST) ──job_retry ("Try again")──▶ queued (sent on commit)

A **runner** is ``runner(*, job, report) -> dict``: it reads ``job.params``, calls
services, calls ``report(done, total, message)`` as it goes, and returns the JSON
document the result page shows. Runners are listed in
:data:`judging.services.job_runners.JOB_RUNNERS` (one line per kind), which also holds
:func:`~judging.services.job_runners.job_run`, the task's body. This module imports
neither, so they may all use it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from judging import handoff
from judging.models import Collection, Job
from work.queues import INTERACTIVE, queue_position
from work.runs import MAX_RUNS, TIMED_OUT

STALE_AFTER = timedelta(minutes=15)
"""A running job that reported nothing for this long is taken to have lost its worker."""

# MAX_RUNS (work.runs): times a worker may claim a job (``Job.runs``): its run, and one
# more after a worker died under it. A job that outlives two workers is failed
# (:data:`WORKER_LOST`) rather than run forever: it may be the job (a file too large for
# memory) that kills them.

WORKER_LOST = (
    "The background worker running this job stopped twice before it finished, so nothing "
    "was changed. The job and its files are kept: try again; if it stops again, ask an "
    "administrator to look at the worker's log (the file may need more memory than it has)."
)

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


class Report(Protocol):
    """How a runner reports progress: ``done`` of ``total`` (``None``: unknown), a message."""

    def __call__(
        self, done: int, total: int | None = None, message: str = "", *, force: bool = False
    ) -> None: ...


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
            handoff.job_queued(
                job_id=job.pk, queue=_named(queue), on_error=lambda error: _not_sent(job.pk)
            )
    except IntegrityError:  # another request started the same job a moment ago
        return Job.objects.get(kind=kind, key=key, state__in=Job.ACTIVE)
    return job


def _named(queue: str) -> str:
    """The queue a job's message names: none for the default (interactive) queue."""
    return "" if queue == INTERACTIVE else queue


def _not_sent(job_id: int) -> None:
    Job.objects.filter(pk=job_id, state=Job.QUEUED).update(
        state=Job.FAILED, error=NOT_SENT, message="not started", finished_at=timezone.now()
    )


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
            sent_again = Job.objects.filter(pk=job.pk, state=Job.FAILED, error__in=RETRYABLE).update(
                state=Job.QUEUED, error="", message="waiting for a worker", finished_at=None,
                runs=0,
            )  # fmt: skip
            if sent_again:
                handoff.job_queued(
                    job_id=job.pk, queue=_named(job.queue), on_error=lambda error: _not_sent(job.pk)
                )
    except IntegrityError:  # the same work was started again meanwhile and is under way
        pass
    job.refresh_from_db()
    return job


def job_retryable(job: Job) -> bool:
    """Whether :func:`job_retry` would send the job again (never sent, or workers lost)."""
    return job.state == Job.FAILED and job.error in RETRYABLE


def job_claim(*, job_id: int) -> bool:
    """queued (or running but stale: its worker died, and it has a run left) → running,
    one more run counted; ``False`` if not claimable."""
    now = timezone.now()
    stale = Q(state=Job.RUNNING, updated_at__lt=now - STALE_AFTER, runs__lt=MAX_RUNS)
    return bool(
        Job.objects.filter(Q(state=Job.QUEUED) | stale, pk=job_id).update(
            state=Job.RUNNING,
            started_at=now,
            updated_at=now,
            message="starting",
            runs=F("runs") + 1,
        )
    )


def job_finish(*, job_id: int, result: dict) -> None:
    now = timezone.now()
    Job.objects.filter(pk=job_id, state=Job.RUNNING).update(
        state=Job.DONE, result=result, message="", finished_at=now, updated_at=now
    )
    Job.objects.filter(pk=job_id, total__isnull=False).update(done=F("total"))


def job_fail(*, job_id: int, error: str, file: str = "", line: int | None = None) -> None:
    now = timezone.now()
    Job.objects.filter(pk=job_id, state__in=Job.ACTIVE).update(
        state=Job.FAILED, error=error, error_file=file[:300], error_line=line,
        message="failed", finished_at=now, updated_at=now,
    )  # fmt: skip


def job_mark_cancelled(*, job_id: int) -> None:
    now = timezone.now()
    Job.objects.filter(pk=job_id, state__in=Job.ACTIVE).update(
        state=Job.CANCELLED, message="cancelled", finished_at=now, updated_at=now
    )


def job_release(*, job_id: int) -> None:
    """running → queued again (before a retry after a transient database error): that run
    does not count against :data:`MAX_RUNS`, its worker is alive."""
    Job.objects.filter(pk=job_id, state=Job.RUNNING).update(
        state=Job.QUEUED, message="retrying", updated_at=timezone.now(), runs=F("runs") - 1
    )


def job_cancel(*, job: Job) -> Job:
    """Ask a job to stop: a queued one stops at once, a running one at its next report.

    A running job whose worker went silent (:data:`STALE_AFTER`) is failed at once.
    Cancelling a finished job changes nothing.
    """
    now = timezone.now()
    rows = Job.objects.filter(pk=job.pk)
    if not rows.filter(state=Job.QUEUED).update(
        state=Job.CANCELLED, cancel_requested=True, message="cancelled", finished_at=now
    ):
        rows.filter(state=Job.RUNNING).update(cancel_requested=True)
        rows.filter(state=Job.RUNNING, updated_at__lt=now - STALE_AFTER).update(
            state=Job.FAILED, error="The worker running this job stopped answering.",
            message="failed", finished_at=now,
        )  # fmt: skip
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


@dataclass(frozen=True)
class JobSweep:
    sent_again: int
    failed: int


def jobs_sweep() -> JobSweep:
    """Jobs a dead worker or a lost message left behind, as the recomputes' sweep does
    for recomputes (:mod:`evaluation.services.sweep` calls it, at every worker start and
    on the beat schedule): nothing reported for :data:`STALE_AFTER`, and then

    - a running job that has a run left (:data:`MAX_RUNS`) is queued and sent again: a
      worker takes it over (the dead worker's transaction was rolled back);
    - a running job that has run out of runs is failed (:data:`WORKER_LOST`), its files
      kept, and "Try again" (:func:`job_retry`) sends it once more;
    - a queued job is sent again (its message may have been lost with Redis).

    Sending twice is harmless: :func:`job_claim` is a conditional update, so only one
    message runs the job. A job claimed for a resend is touched (``updated_at``), so the
    next sweep leaves it alone for another :data:`STALE_AFTER`.
    """
    now = timezone.now()
    silent = Q(updated_at__lt=now - STALE_AFTER)
    failed = Job.objects.filter(silent, state=Job.RUNNING, runs__gte=MAX_RUNS).update(
        state=Job.FAILED, error=WORKER_LOST, message="failed", finished_at=now, updated_at=now
    )
    resend = Q(state=Job.QUEUED) | Q(state=Job.RUNNING, runs__lt=MAX_RUNS)
    sent = 0
    for pk, queue in Job.objects.filter(silent, resend).values_list("pk", "queue"):
        with transaction.atomic():
            if Job.objects.filter(silent, resend, pk=pk).update(
                state=Job.QUEUED, message="sent again: waiting for a worker",
                updated_at=timezone.now(),
            ):  # fmt: skip
                handoff.job_queued(
                    job_id=pk, queue=_named(queue), on_error=lambda error, pk=pk: _not_sent(pk)
                )
                sent += 1
    return JobSweep(sent_again=sent, failed=failed)


class JobReport:
    """Writes a running job's progress to its row, at most every ``interval`` seconds.

    Each write is one conditional ``UPDATE`` that also finds out whether someone asked
    the job to stop: then it raises :class:`JobCancelled`, which ends the runner.
    """

    def __init__(self, job_id: int, *, interval: float = 0.25) -> None:
        self.job_id = job_id
        self.interval = interval
        self._last = 0.0

    def __call__(
        self, done: int, total: int | None = None, message: str = "", *, force: bool = False
    ) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        done = max(0, int(done))
        changes = {"message": message[:300], "updated_at": timezone.now()}
        if total is not None:
            changes["done"], changes["total"] = done, max(int(total), done)
        else:  # never past the total said earlier
            changes["done"] = Case(When(total__lt=done, then=F("total")), default=Value(done))
        written = Job.objects.filter(
            pk=self.job_id, state=Job.RUNNING, cancel_requested=False
        ).update(**changes)
        if not written:
            raise JobCancelled
