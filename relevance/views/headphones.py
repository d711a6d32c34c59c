"""An assessor's headphone screen in a relevance campaign that asks for one (issue 23, item 2).

"Get next" or a query's judging page → ``/judge/campaigns/<pk>/headphones/`` (the volume
calibration; after a failed try, the page saying the campaign needs headphones, with a
button for a try more when one is left) → ``…/headphones/trial/`` (six trials, each one
audio URL ``…/headphones/audio/<key>``) → the assessor's query. The crowd's pages and
trial logic (:mod:`listening.views.headphones`), with this campaign's URLs; what is kept
and decided is :mod:`relevance.services.headphones`.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.roles import assessor_required
from listening.headphones import TRIALS
from listening.models import AssessorScreen
from listening.services.headphones import NEXT, PASSED, calibration_audio
from listening.views.headphones import trial_page, wav_response
from relevance import selectors
from relevance.models import RelevanceCampaign
from relevance.services.headphones import (
    assessor_headphone_answer,
    assessor_screen_again,
    assessor_screen_start,
    assessor_trial_audio,
    assessor_trial_current,
)
from relevance.views.assessors import work_next


def _campaign(request, pk: int) -> RelevanceCampaign:
    return selectors.campaign_for_assessor(user=request.user, campaign_id=pk)


def _due(campaign: RelevanceCampaign, assessor) -> AssessorScreen | None:
    """The assessor's screen when a try is due or under way (made on the first call);
    None when they passed, the campaign does not screen, or their last try failed."""
    if selectors.headphones_cleared(campaign=campaign, assessor=assessor):
        return None
    screen = assessor_screen_start(campaign=campaign, assessor=assessor)
    return screen if screen.result == "" else None


def _entry(campaign: RelevanceCampaign):
    return redirect("relevance:assessor_headphones", campaign.pk)


@require_GET
@assessor_required
def assessor_headphones(request, pk: int):
    """Volume calibration, then on to the trials; after a failed try, what now."""
    campaign = _campaign(request, pk)
    if selectors.headphones_cleared(campaign=campaign, assessor=request.user):
        return redirect("home")
    screen = assessor_screen_start(campaign=campaign, assessor=request.user)
    if screen.result == AssessorScreen.FAILED:
        context = {"campaign": campaign, "screen": screen, "trials": TRIALS}
        return render(request, "relevance/assessor_headphones_failed.html", context)
    context = {
        "campaign": campaign,
        "trials": TRIALS,
        "for_assessor": True,
        "calibration_url": reverse("relevance:assessor_headphones_calibration", args=(pk,)),
        "start_url": reverse("relevance:assessor_headphone_trial", args=(pk,)),
    }
    return render(request, "listening/task_headphones.html", context)


@require_GET
@assessor_required
def assessor_headphones_calibration(request, pk: int):
    campaign = _campaign(request, pk)
    if _due(campaign, request.user) is None:
        raise Http404("No calibration for you now.")
    return wav_response(calibration_audio(campaign=campaign))


@require_http_methods(["GET", "POST"])
@assessor_required
def assessor_headphone_trial(request, pk: int):
    campaign = _campaign(request, pk)
    screen = _due(campaign, request.user)
    if screen is None:
        return _entry(campaign)

    def after(outcome):
        if outcome == NEXT:
            return redirect("relevance:assessor_headphone_trial", pk)
        if outcome == PASSED:
            return work_next(request, campaign) if campaign.is_open else redirect("home")
        return _entry(campaign)  # failed, or decided already

    return trial_page(
        request,
        answer=lambda **given: assessor_headphone_answer(screen=screen, **given),
        current=lambda: assessor_trial_current(screen=screen),
        audio_url=lambda trial: reverse("relevance:assessor_headphone_audio", args=(pk, trial.key)),
        after=after,
        context={"campaign": campaign, "for_assessor": True},
    )


@require_GET
@assessor_required
def assessor_headphone_audio(request, pk: int, key: str):
    """The three tones of one of the assessor's unanswered trials; 404 for any other key."""
    screen = _due(_campaign(request, pk), request.user)
    data = None if screen is None else assessor_trial_audio(screen=screen, key=key)
    if data is None:
        raise Http404("No such audio.")
    return wav_response(data)


@require_POST
@assessor_required
def assessor_headphones_again(request, pk: int):
    """After a failed try, another one when one is left."""
    campaign = _campaign(request, pk)
    screen = AssessorScreen.objects.filter(campaign=campaign, assessor=request.user).first()
    if screen is not None:
        assessor_screen_again(screen=screen)
    return _entry(campaign)
