"""The task that runs a background job: thin, ids in. Sent by name (:mod:`work.handoff`)."""

from __future__ import annotations

from celery import shared_task

from work.handoff import JOB_TASK
from work.job_runners import TRANSIENT_ERRORS, job_run
from work.jobs import job_fail
from work.queues import delivered_on, running_on

MAX_RETRIES = 5


@shared_task(name=JOB_TASK, bind=True, max_retries=MAX_RETRIES, acks_late=True)
def run_job(self, job_id: int) -> bool:
    """Run one background job (:func:`work.job_runners.job_run`).

    Transient database errors put the job back in the queue and retry with backoff
    (1, 2, 4, … s, at most 5 times); then it fails with the error.
    """
    try:
        with running_on(delivered_on(self.request)):
            return job_run(job_id=job_id, task_id=self.request.id or "")
    except TRANSIENT_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            job_fail(job_id=job_id, error=f"The database kept failing: {exc}")
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
