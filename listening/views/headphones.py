"""What the headphone screen's pages share, for crowd workers and assessors alike.

A trial page takes the posted answer, then shows the owner's current trial
(``listening/templates/listening/task_headphone_trial.html``); a WAV goes out with its length. Where
each outcome leads is the caller's: :mod:`crowd.views.headphones` (the task
link) and :mod:`relevance.views.headphones` (an assessor's campaign).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from django.shortcuts import render

from listening.forms import HeadphoneAnswerForm
from listening.headphones import TRIALS
from listening.models import HeadphoneTrial
from listening.services.headphones import PlayFirst


def wav_response(data: bytes) -> HttpResponse:
    response = HttpResponse(data, content_type="audio/wav")
    response["Content-Length"] = str(len(data))
    return response


def trial_page(
    request,
    *,
    answer: Callable[..., str],
    current: Callable[[], HeadphoneTrial | None],
    audio_url: Callable[[HeadphoneTrial], str],
    after: Callable[[str | None], HttpResponse],
    context: dict,
) -> HttpResponse:
    """Take a POSTed answer (``answer(key=…, interval=…)`` → ``next``, ``passed`` or
    ``failed``) and go where ``after(outcome)`` says, or show the ``current()`` trial;
    ``after(None)`` when no trial is left. An answer before the trial's audio was sent is
    refused (400) on the same trial."""
    form, refusal = HeadphoneAnswerForm(request.POST or None), ""
    if request.method == "POST" and form.is_valid():
        try:
            outcome = answer(key=form.cleaned_data["key"], interval=form.cleaned_data["interval"])
        except PlayFirst:
            refusal = "Please play the three tones before you answer."
        else:
            return after(outcome)
    trial = current()
    if trial is None:  # every trial answered: decided already
        return after(None)
    context = {
        **context,
        "trial": trial,
        "trials": TRIALS,
        "audio_url": audio_url(trial),
        "refusal": refusal,
    }
    return render(
        request, "listening/task_headphone_trial.html", context, status=400 if refusal else 200
    )
