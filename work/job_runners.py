"""The body of the task that runs a background job: claim it, run what its kind
registered (:func:`work.kinds.kind_register`, ``runner(*, job, report) -> dict``, see
:mod:`work.jobs`), and end it done, failed or cancelled. The Celery task
``judging.job_run`` (:mod:`work.tasks`) calls :func:`job_run`.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ValidationError

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
from work.kinds import JOB, kind_runner
from work.models import Job
from work.runs import TIMED_OUT, TRANSIENT_ERRORS

logger = logging.getLogger(__name__)


def job_run(*, job_id: int, task_id: str = "") -> bool:
    """Claim and run one job; ``False`` if it is not there to run (done, cancelled, taken).
    ``task_id``: the Celery task's (:func:`~work.jobs.job_claim`)."""
    if not job_claim(job_id=job_id, task_id=task_id):
        return False
    job = Job.objects.select_related("owner", "collection").get(pk=job_id)
    runner = kind_runner(job.kind, table=JOB)
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
