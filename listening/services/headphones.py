"""A headphone screen's trials, whoever takes them (issue 23, item 2).

The owner of a screen is a crowd :class:`~crowd.models.Worker` or an assessor's
:class:`~listening.models.AssessorScreen` (:mod:`listening.models.headphones`). For both the
server draws every trial — which interval is the quiet target, which the antiphase foil,
the tones' phases — when the screen starts, keeps them in
:class:`~listening.models.HeadphoneTrial`, and names a trial to the browser by an
unguessable key only; the answer is never sent, and no answer is taken for a trial whose
audio was not sent. Nothing is said after a trial. When the last trial is answered, the
caller's ``decide(right)`` says what the count means: the crowd's
(:mod:`crowd.services.headphones`) screens a worker out, the assessors'
(:mod:`relevance.services.headphones`) keeps them from judging.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Union

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from catalog.models import Collection
from listening import headphones as stimuli
from listening.headphones import TRIALS as HEADPHONE_TRIALS
from listening.loudness import TARGET_LUFS
from listening.models import AssessorScreen, HeadphoneTrial

NEXT, PASSED, FAILED = "next", "passed", "failed"

if TYPE_CHECKING:  # a crowd worker owns its trials itself; crowd sits above listening
    from crowd.models import Worker

Owner = Union["Worker", AssessorScreen]


class PlayFirst(Exception):
    """An answer to a trial whose audio the server has not sent."""


def study_lufs(campaign) -> float:
    """The loudness the study's clips are heard at: the collection's target when it has
    one (:mod:`listening.loudness`), EBU R128's −23 LUFS otherwise (any campaign: crowd or
    relevance)."""
    target = (
        Collection.objects.filter(pk=campaign.collection_id)
        .values_list("loudness_target", flat=True)
        .first()
    )
    return TARGET_LUFS if target is None else target


def trials_of(owner: Owner):
    """The owner's trials."""
    if isinstance(owner, AssessorScreen):
        return HeadphoneTrial.objects.filter(screen=owner)
    return HeadphoneTrial.objects.filter(worker=owner)


def trial_current(*, owner: Owner) -> HeadphoneTrial | None:
    """The owner's first unanswered trial, drawing all of them on the first call; None
    when every trial is answered."""
    trials = trials_of(owner).order_by("position")
    if not trials.exists():
        mine = {"screen": owner} if isinstance(owner, AssessorScreen) else {"worker": owner}
        draws = []
        for position in range(1, stimuli.TRIALS + 1):
            target, antiphase = two_of_three()
            seed = secrets.randbits(62)
            draws.append(
                HeadphoneTrial(
                    **mine, position=position, target=target, antiphase=antiphase, seed=seed
                )
            )
        try:
            with transaction.atomic():
                HeadphoneTrial.objects.bulk_create(draws)
        except IntegrityError:  # another request of the same browser drew them first
            pass
    return trials.filter(chosen__isnull=True).first()


def two_of_three() -> tuple[int, int]:
    """The target and the foil: two different intervals, each placing equally likely."""
    target = 1 + secrets.randbelow(stimuli.INTERVALS)
    others = [i for i in range(1, stimuli.INTERVALS + 1) if i != target]
    return target, others[secrets.randbelow(len(others))]


def trial_audio(*, owner: Owner, key: str) -> bytes | None:
    """The WAV of the owner's unanswered trial ``key`` (None for any other key); the
    first time, the trial is marked as sent."""
    trial = trials_of(owner).filter(key=key, chosen__isnull=True).first()
    if trial is None:
        return None
    if trial.sent_at is None:
        HeadphoneTrial.objects.filter(pk=trial.pk, sent_at__isnull=True).update(
            sent_at=timezone.now()
        )
    samples = stimuli.trial_samples(
        target=trial.target,
        antiphase=trial.antiphase,
        rng=np.random.default_rng(trial.seed),
        lufs=study_lufs(owner.campaign),
    )
    return stimuli.wav_bytes(samples)


def calibration_audio(*, campaign) -> bytes:
    """The calibration noise at the study's loudness (the same for everyone)."""
    noise = stimuli.calibration_noise(rng=np.random.default_rng(0), lufs=study_lufs(campaign))
    return stimuli.wav_bytes(noise)


def trial_answer(*, owner: Owner, key: str, interval: int, decide: Callable[[int], str]) -> str:
    """Take the owner's answer to trial ``key``: :data:`NEXT` while trials remain, then
    what ``decide(right)`` says (:data:`PASSED` or :data:`FAILED`), in the same
    transaction. :class:`PlayFirst` if the trial's audio was never sent; an answered or
    unknown key changes nothing."""
    if interval not in range(1, stimuli.INTERVALS + 1):
        raise ValueError("an interval is 1, 2 or 3")
    trials = trials_of(owner)
    with transaction.atomic():
        taken = trials.filter(key=key, chosen__isnull=True, sent_at__isnull=False).update(
            chosen=interval, answered_at=timezone.now()
        )
        if not taken and trials.filter(key=key, chosen__isnull=True).exists():
            raise PlayFirst
        counts = trials.aggregate(
            answered=Count("pk", filter=Q(chosen__isnull=False)),
            right=Count("pk", filter=Q(chosen=F("target"))),
        )
        if counts["answered"] < stimuli.TRIALS:
            return NEXT
        return decide(counts["right"])


def headphone_settings_errors(values: dict) -> dict[str, str]:
    """What is wrong with a campaign's headphone screen settings (crowd and relevance)."""
    if not 1 <= values.get("headphone_pass_mark", HEADPHONE_TRIALS) <= HEADPHONE_TRIALS:
        return {
            "headphone_pass_mark": f"The headphone screen has {HEADPHONE_TRIALS} trials: ask "
            f"for 1 to {HEADPHONE_TRIALS} right ({HEADPHONE_TRIALS - 1}, Woods et al.'s, by "
            "default)."
        }
    return {}
