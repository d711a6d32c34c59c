"""The headphone screen's pages of the task link (campaigns with ``headphone_check``).

consent → ``/t/<token>/headphones/`` (volume calibration: a noise at the study's
loudness, no answer) → ``/t/<token>/headphones/trial/`` (six trials, each one audio
URL ``/t/<token>/headphones/audio/<key>`` and "which tone was the quietest?") → the task
(quiz first), or the screen-out page. What is drawn and checked is in
:mod:`judging.services.crowd.headphones`; the page of a trial is the same, byte for byte
but its key, whatever the trial's answer (``tests/test_headphone_screening.py``).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from judging.forms.crowd import HeadphoneAnswerForm
from judging.headphones import TRIALS
from judging.models import Worker
from judging.services.crowd.headphones import (
    FAILED,
    NEXT,
    PlayFirst,
    calibration_audio,
    headphone_answer,
    headphone_trial_audio,
    headphone_trial_current,
)
from judging.views.crowd_tasks import task_page, worker_or_403


def _elsewhere(campaign, worker: Worker):
    """Where a worker who is not due for the screen goes instead, or None."""
    if worker.consented_at is None:
        return redirect("judging:task_consent", campaign.token)
    if worker.status == Worker.STOPPED:
        return redirect("judging:task_done", campaign.token)
    if not worker.headphones_pending():
        return redirect("judging:task", campaign.token)
    return None


def _wav(data: bytes) -> HttpResponse:
    response = HttpResponse(data, content_type="audio/wav")
    response["Content-Length"] = str(len(data))
    return response


@require_GET
@task_page
def task_headphones(request, campaign, worker):
    """Volume calibration, then on to the trials."""
    worker = worker_or_403(worker)
    return _elsewhere(campaign, worker) or render(
        request, "judging/task_headphones.html", {"campaign": campaign, "trials": TRIALS}
    )


@require_GET
@task_page
def task_headphones_calibration(request, campaign, worker):
    worker = worker_or_403(worker)
    if _elsewhere(campaign, worker) is not None:
        raise Http404("No calibration for you now.")
    return _wav(calibration_audio(campaign=campaign))


@task_page
def task_headphone_trial(request, campaign, worker):
    worker = worker_or_403(worker)
    away = _elsewhere(campaign, worker)
    if away is not None:
        return away
    form, refusal = HeadphoneAnswerForm(request.POST or None), ""
    if request.method == "POST" and form.is_valid():
        try:
            outcome = headphone_answer(
                worker=worker,
                key=form.cleaned_data["key"],
                interval=form.cleaned_data["interval"],
            )
        except PlayFirst:
            refusal = "Please play the three tones before you answer."
        else:
            if outcome == FAILED:
                return redirect("judging:task_done", campaign.token)
            if outcome != NEXT:
                return redirect("judging:task", campaign.token)
            return redirect("judging:task_headphone_trial", campaign.token)
    trial = headphone_trial_current(worker=worker)
    if trial is None:  # every trial answered: decided already
        return redirect("judging:task", campaign.token)
    context = {
        "campaign": campaign,
        "trial": trial,
        "trials": TRIALS,
        "audio_url": reverse("judging:task_headphone_audio", args=(campaign.token, trial.key)),
        "refusal": refusal,
    }
    return render(
        request, "judging/task_headphone_trial.html", context, status=400 if refusal else 200
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
    return _wav(data)
