"""The headphone screen's pages of the task link (campaigns with ``headphone_check``).

consent → ``/t/<token>/headphones/`` (volume calibration: a noise at the study's
loudness, no answer) → ``/t/<token>/headphones/trial/`` (six trials, each one audio
URL ``/t/<token>/headphones/audio/<key>`` and "which tone was the quietest?") → the task
(quiz first), or the screen-out page. What is drawn and checked is in
:mod:`crowd.services.headphones`; the page of a trial is the same, byte for byte
but its key, whatever the trial's answer (``crowd/tests/test_headphone_screening.py``).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from crowd.models import Worker
from crowd.services.headphones import (
    FAILED,
    NEXT,
    calibration_audio,
    headphone_answer,
    headphone_trial_audio,
    headphone_trial_current,
)
from crowd.views.tasks import task_page, worker_or_403
from listening.headphones import TRIALS
from listening.views.headphones import trial_page, wav_response


def _elsewhere(campaign, worker: Worker):
    """Where a worker who is not due for the screen goes instead, or None."""
    if worker.consented_at is None:
        return redirect("crowd:task_consent", campaign.token)
    if worker.status == Worker.STOPPED:
        return redirect("crowd:task_done", campaign.token)
    if not worker.headphones_pending():
        return redirect("crowd:task", campaign.token)
    return None


@require_GET
@task_page
def task_headphones(request, campaign, worker):
    """Volume calibration, then on to the trials."""
    worker = worker_or_403(worker)
    context = {
        "campaign": campaign,
        "trials": TRIALS,
        "calibration_url": reverse("crowd:task_headphones_calibration", args=(campaign.token,)),
        "start_url": reverse("crowd:task_headphone_trial", args=(campaign.token,)),
    }
    return _elsewhere(campaign, worker) or render(
        request, "listening/task_headphones.html", context
    )


@require_GET
@task_page
def task_headphones_calibration(request, campaign, worker):
    worker = worker_or_403(worker)
    if _elsewhere(campaign, worker) is not None:
        raise Http404("No calibration for you now.")
    return wav_response(calibration_audio(campaign=campaign))


@task_page
def task_headphone_trial(request, campaign, worker):
    worker = worker_or_403(worker)
    away = _elsewhere(campaign, worker)
    if away is not None:
        return away

    def after(outcome):
        if outcome == FAILED:
            return redirect("crowd:task_done", campaign.token)
        if outcome == NEXT:
            return redirect("crowd:task_headphone_trial", campaign.token)
        return redirect("crowd:task", campaign.token)  # passed, or decided already

    return trial_page(
        request,
        answer=lambda **given: headphone_answer(worker=worker, **given),
        current=lambda: headphone_trial_current(worker=worker),
        audio_url=lambda trial: reverse(
            "crowd:task_headphone_audio", args=(campaign.token, trial.key)
        ),
        after=after,
        context={"campaign": campaign},
    )


@require_GET
@task_page
def task_headphone_audio(request, campaign, worker, key: str):
    """The three tones of one of the worker's unanswered trials; 404 for any other key."""
    if worker is None or _elsewhere(campaign, worker) is not None:
        raise Http404("No such audio.")
    data = headphone_trial_audio(worker=worker, key=key)
    if data is None:
        raise Http404("No such audio.")
    return wav_response(data)
