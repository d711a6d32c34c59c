"""A background job's pages: progress (polling a small JSON document), result, cancel.

Anyone who may read the job's collection sees its progress and result
(:func:`catalog.selectors.job_for_organiser`); cancelling needs ``write``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from catalog import selectors
from catalog.job_pages import job_page_of
from common.roles import organiser_required
from work import jobs
from work.jobs import job_cancel, job_retry, job_retryable


def _job(request, pk: int, *, need="read"):
    return selectors.job_for_organiser(user=request.user, job_id=pk, need=need)


@require_GET
@organiser_required
def job_page(request, pk: int):
    job = _job(request, pk)
    if not job.active:
        return redirect("catalog:job_result", job.pk)  # nothing left to watch
    context = {
        "job": job,
        "title": job_page_of(job.kind).title,
        "status": jobs.job_status(job=job),
        "can_write": selectors.job_writable(user=request.user, job=job),
        # An upload counts in thousandths of its files; its message says "clip 12 of 60".
        "counted": not job.kind.startswith("upload_"),
    }
    return render(request, "catalog/job.html", context)


@never_cache
@require_GET
@organiser_required
def job_status(request, pk: int):
    """What the job page polls (:func:`~work.jobs.job_status`): state,
    done/total, message, error, where it waits in its queue, whether it stands still."""
    return JsonResponse(jobs.job_status(job=_job(request, pk)))


@require_GET
@organiser_required
def job_result(request, pk: int):
    job = _job(request, pk)
    if job.active:
        return redirect(job)
    page = job_page_of(job.kind)
    can_write = selectors.job_writable(user=request.user, job=job)
    context = {
        "job": job,
        "title": page.title,
        "result": job.result,
        "can_write": can_write,
        "retryable": can_write and job_retryable(job),
        **(page.context(job=job) if page.context else {}),
    }
    return render(request, page.result_template, context)


@require_POST
@organiser_required
def job_cancel_view(request, pk: int):
    job = job_cancel(job=_job(request, pk, need="write"))
    if job.state == job.CANCELLED:
        messages.success(request, "The job was cancelled.")
    elif job.active:
        messages.info(request, "The job stops at its next step.")
    return redirect(job)


@require_POST
@organiser_required
def job_retry_view(request, pk: int):
    """Send again a job the broker never received (it keeps its parameters and files)."""
    job = job_retry(job=_job(request, pk, need="write"))
    if job.active:
        messages.success(request, "The job was sent to the background worker again.")
    else:
        messages.error(request, "The job could not be sent again.")
    return redirect(job)
