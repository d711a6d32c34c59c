"""What each kind of background job runs, and the body of the task that runs one.

:data:`JOB_RUNNERS` is a registry: the app that owns a kind of job registers its runner,
``runner(*, job, report) -> dict`` (see :mod:`work.jobs`), from its
``AppConfig.ready()`` with :func:`job_runner_register` (work sits below every app and
imports none). The Celery task ``judging.job_run`` (:mod:`work.tasks`) calls
:func:`job_run`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ValidationError
from django.db import DatabaseError

from common.files.errors import ImportFailed
from work.jobs import (
    JobCancelled,
    JobFailed,
    JobReport,
    job_claim,
    job_fail,
    job_finish,
    job_mark_cancelled,
    job_release,
)
from work.models import Job
from work.runs import TIMED_OUT

logger = logging.getLogger(__name__)

Runner = Callable[..., dict]

JOB_RUNNERS: dict[str, Runner] = {}
"""``Job.kind`` → ``runner(*, job, report) -> result``: ``generate_examples`` (crowd),
``listening_copies`` (listening), ``upload_<kind>`` (ingest, and pastanswers' ``upload_answers``)."""


def job_runner_register(kind: str, runner: Runner) -> None:
    """Let jobs of ``kind`` be run by ``runner`` (from the owning app's ``ready()``)."""
    JOB_RUNNERS[kind] = runner


TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (DatabaseError,)
"""Errors worth a retry (a locked SQLite file, a dropped connection): the job is queued again."""


def job_run(*, job_id: int, task_id: str = "") -> bool:
    """Claim and run one job; ``False`` if it is not there to run (done, cancelled, taken).
    ``task_id``: the Celery task's (:func:`~work.jobs.job_claim`)."""
    if not job_claim(job_id=job_id, task_id=task_id):
        return False
    job = Job.objects.select_related("owner", "collection").get(pk=job_id)
    runner = JOB_RUNNERS.get(job.kind)
    if runner is None:
        job_fail(job_id=job_id, error=f"Nothing runs jobs of kind {job.kind!r}.")
        return True
    if job.cancel_requested:
        job_mark_cancelled(job_id=job_id)
        return True
    try:
        result = runner(job=job, report=JobReport(job_id))
    except JobCancelled:
        job_mark_cancelled(job_id=job_id)
    except JobFailed as failure:
        job_fail(job_id=job_id, error=failure.message, file=failure.file, line=failure.line)
    except ImportFailed as failure:
        job_fail(job_id=job_id, error=failure.message, file=failure.path.name, line=failure.line)
    except ValidationError as failure:
        job_fail(job_id=job_id, error=" ".join(failure.messages))
    except TRANSIENT_ERRORS:
        job_release(job_id=job_id)
        raise
    except SoftTimeLimitExceeded:  # the task's time limit: failed cleanly, "Try again"
        logger.warning("job %s (%s) ran out of time", job_id, job.kind)
        job_fail(job_id=job_id, error=TIMED_OUT)
    except Exception:
        logger.exception("job %s (%s) failed", job_id, job.kind)
        job_fail(
            job_id=job_id,
            error="An unexpected error stopped the job; the server's log has the details.",
        )
    else:
        job_finish(job_id=job_id, result=result)
    return True
