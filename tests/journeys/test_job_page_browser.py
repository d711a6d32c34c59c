"""In Chromium: a job page says when the job's progress has stood still for over a minute,
and stops saying it once the progress moves again (issue 28, item 7: the page showed
"running, 278/1000" for 15 minutes as if the worker were at it)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.helpers.browser import log_in
from tests.helpers.personas import PASSWORD
from work import state
from work.jobs import JOBS, job_claim, job_start
from work.models import Job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_job_page_says_when_progress_stands_still_and_when_it_moves_again(page, personas):
    job = job_start(kind="upload_runs", owner=personas.organiser, collection=personas.collection)
    job_claim(job_id=job.pk, task_id="task-1")
    Job.objects.filter(pk=job.pk).update(
        done=278, total=1000, updated_at=timezone.now() - timedelta(minutes=3)
    )
    log_in(page, personas.organiser.username, PASSWORD)
    page.goto(f"/jobs/{job.pk}/")
    note = page.get_by_role("status").filter(has_text="No progress for 3 minutes")
    expect(note).to_be_visible()
    bar = page.get_by_role("progressbar", name="Progress")
    expect(bar).to_have_text("28%")  # an upload's counts are in its message (issue 31)

    state.progress(JOBS, job.pk, done=500, message="line 500")  # the worker reports again
    expect(bar).to_have_text("50%")
    expect(page.get_by_text("line 500")).to_be_visible()
    expect(note).to_be_hidden()
