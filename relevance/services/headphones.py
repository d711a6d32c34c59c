"""An assessor's headphone screen in a relevance campaign (``headphone_check``; issue 23, item 2).

Before their first candidate in a campaign that screens, an assessor sets the volume and
answers the six trials of :mod:`listening.services.headphones` (the crowd's, drawn, served
and checked the same way). The result is kept in their
:class:`~listening.models.AssessorScreen`: passing is once per assessor per campaign.
Failing deletes and excludes nothing already judged; it offers one immediate try more
(:func:`assessor_screen_again`), and after that the assessor judges no more in the
campaign until the organiser lets them try again (:func:`assessor_screen_reopen`).
:func:`relevance.services.campaigns.judgment_save` refuses every save of an assessor who
has not passed a screen the campaign asks for
(:func:`relevance.selectors.headphones_cleared`), whatever
page or queue sent it; turning the check on applies to the judgments after.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from listening.models import AssessorScreen, HeadphoneTrial
from listening.services.headphones import FAILED, PASSED, trial_answer, trial_audio, trial_current
from relevance.models import RelevanceCampaign


class HeadphonesFirst(Exception):
    """A judgment from an assessor who has not passed the campaign's headphone screen."""


def assessor_screen_start(*, campaign: RelevanceCampaign, assessor) -> AssessorScreen:
    """The assessor's screen in the campaign, made on the first call."""
    screen = AssessorScreen.objects.filter(campaign=campaign, assessor=assessor).first()
    if screen is None:
        try:
            with transaction.atomic():
                screen = AssessorScreen.objects.create(campaign=campaign, assessor=assessor)
        except IntegrityError:  # another request of the same assessor made it first
            screen = AssessorScreen.objects.get(campaign=campaign, assessor=assessor)
    return screen


def assessor_trial_current(*, screen: AssessorScreen) -> HeadphoneTrial | None:
    """The try's first unanswered trial (drawn on the first call); None when the try is
    decided."""
    return trial_current(owner=screen) if screen.result == "" else None


def assessor_trial_audio(*, screen: AssessorScreen, key: str) -> bytes | None:
    """The WAV of trial ``key`` of the try under way, None for any other key."""
    return trial_audio(owner=screen, key=key) if screen.result == "" else None


def assessor_headphone_answer(*, screen: AssessorScreen, key: str, interval: int) -> str:
    """Take an answer: ``next`` while trials remain, then ``passed`` (at least the
    campaign's pass mark right) or ``failed``; :class:`~listening.services.headphones.PlayFirst`
    before the trial's audio was sent."""
    return trial_answer(
        owner=screen, key=key, interval=interval, decide=lambda right: _decide(screen, right)
    )


def _decide(screen: AssessorScreen, right: int) -> str:
    outcome = PASSED if right >= screen.campaign.headphone_pass_mark else FAILED
    decided = AssessorScreen.objects.filter(pk=screen.pk, result="").update(
        result=outcome, right=right, tries=F("tries") + 1, decided_at=timezone.now()
    )
    if not decided:  # decided by another request of the same assessor
        return AssessorScreen.objects.filter(pk=screen.pk).values_list("result", flat=True).get()
    return outcome


def assessor_screen_again(*, screen: AssessorScreen) -> bool:
    """The assessor starts another try after failing, when one is left (the immediate
    retry, or one the organiser granted); False when none is."""
    with transaction.atomic():
        started = AssessorScreen.objects.filter(
            pk=screen.pk, result=AssessorScreen.FAILED, tries__lt=F("tries_allowed")
        ).update(result="")
        if started:
            HeadphoneTrial.objects.filter(screen=screen).delete()  # a new draw
    return bool(started)


def assessor_screen_reopen(*, campaign: RelevanceCampaign, assessor) -> bool:
    """The organiser lets an assessor who failed every try allowed try once more: the
    next visit starts a new try. False when they were not waiting for one."""
    screen = AssessorScreen.objects.filter(campaign=campaign, assessor=assessor)
    with transaction.atomic():
        reopened = screen.filter(
            result=AssessorScreen.FAILED, tries__gte=F("tries_allowed")
        ).update(result="", tries_allowed=F("tries") + 1)
        if reopened:
            HeadphoneTrial.objects.filter(screen__in=screen).delete()
    return bool(reopened)
