"""A crowd worker's headphone screen (campaigns with ``headphone_check``; issue 23, item 2).

After consent, before the quiz: a volume calibration (noise at the study's loudness, no
answer), then :data:`~judging.headphones.TRIALS` antiphase trials
(:mod:`judging.headphones`, Woods et al. 2017). The server draws every trial — which
interval is the quiet target, which the antiphase foil, the tones' phases — when the
screen starts, keeps them in :class:`~judging.models.HeadphoneTrial`, and names a trial
to the browser by an unguessable key only; the answer is never sent, and no answer is
taken for a trial whose audio was not sent. Nothing is said after a trial: after the
last one, a worker with at least the campaign's ``headphone_pass_mark`` right passes
and goes on to the quiz, any other is stopped (``stop_reason`` ``headphones``) and sees
the campaign's screen-out page. A stopped worker's device cannot start again under a
new id (:func:`~judging.services.crowd.workers.worker_arrive`).
"""

from __future__ import annotations

import secrets

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from judging import headphones as stimuli
from judging.loudness import TARGET_LUFS
from judging.models import Collection, HeadphoneTrial, PreferenceCampaign, Worker
from judging.services.crowd.trust import worker_trust_update

NEXT, PASSED, FAILED = "next", "passed", "failed"


class PlayFirst(Exception):
    """An answer to a trial whose audio the server has not sent."""


def study_lufs(campaign: PreferenceCampaign) -> float:
    """The loudness the study's clips are heard at: the collection's target when it has
    one (:mod:`judging.loudness`), EBU R128's −23 LUFS otherwise."""
    target = (
        Collection.objects.filter(pk=campaign.collection_id)
        .values_list("loudness_target", flat=True)
        .first()
    )
    return TARGET_LUFS if target is None else target


def headphone_trial_current(*, worker: Worker) -> HeadphoneTrial | None:
    """The worker's first unanswered trial, drawing all of them on the first call; None
    when every trial is answered."""
    trials = HeadphoneTrial.objects.filter(worker=worker).order_by("position")
    if not trials.exists():
        draws = []
        for position in range(1, stimuli.TRIALS + 1):
            target, antiphase = _two_of_three()
            seed = secrets.randbits(62)
            draws.append(
                HeadphoneTrial(
                    worker=worker, position=position, target=target, antiphase=antiphase, seed=seed
                )
            )
        try:
            with transaction.atomic():
                HeadphoneTrial.objects.bulk_create(draws)
        except IntegrityError:  # another request of the same browser drew them first
            pass
    return trials.filter(chosen__isnull=True).first()


def _two_of_three() -> tuple[int, int]:
    """The target and the foil: two different intervals, each placing equally likely."""
    target = 1 + secrets.randbelow(stimuli.INTERVALS)
    others = [i for i in range(1, stimuli.INTERVALS + 1) if i != target]
    return target, others[secrets.randbelow(len(others))]


def headphone_trial_audio(*, worker: Worker, key: str) -> bytes | None:
    """The WAV of the worker's unanswered trial ``key`` (None for any other key); the
    first time, the trial is marked as sent."""
    trial = HeadphoneTrial.objects.filter(worker=worker, key=key, chosen__isnull=True).first()
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
        lufs=study_lufs(worker.campaign),
    )
    return stimuli.wav_bytes(samples)


def calibration_audio(*, campaign: PreferenceCampaign) -> bytes:
    """The calibration noise at the study's loudness (the same for everyone)."""
    noise = stimuli.calibration_noise(rng=np.random.default_rng(0), lufs=study_lufs(campaign))
    return stimuli.wav_bytes(noise)


def headphone_answer(*, worker: Worker, key: str, interval: int) -> str:
    """Take the worker's answer to trial ``key``: :data:`NEXT` while trials remain, then
    :data:`PASSED` or :data:`FAILED` (the worker stopped). :class:`PlayFirst` if the
    trial's audio was never sent; an answered or unknown key changes nothing."""
    if interval not in range(1, stimuli.INTERVALS + 1):
        raise ValueError("an interval is 1, 2 or 3")
    trials = HeadphoneTrial.objects.filter(worker=worker)
    with transaction.atomic():
        taken = trials.filter(key=key, chosen__isnull=True, sent_at__isnull=False).update(
            chosen=interval, answered_at=timezone.now()
        )
        if not taken and trials.filter(key=key, chosen__isnull=True).exists():
            raise PlayFirst
        return _headphones_decide(worker=worker)


def _headphones_decide(*, worker: Worker) -> str:
    counts = HeadphoneTrial.objects.filter(worker=worker).aggregate(
        answered=Count("pk", filter=Q(chosen__isnull=False)),
        right=Count("pk", filter=Q(chosen=F("target"))),
    )
    if counts["answered"] < stimuli.TRIALS:
        return NEXT
    right = counts["right"]
    passed = right >= worker.campaign.headphone_pass_mark
    undecided = Worker.objects.filter(pk=worker.pk, headphones="")
    if passed:
        if not undecided.update(headphones=Worker.PASSED, headphones_right=right):
            return _decided(worker)
        return PASSED
    stopped = undecided.update(
        headphones=Worker.FAILED,
        headphones_right=right,
        status=Worker.STOPPED,
        stop_reason=Worker.HEADPHONES,
        stopped_at=timezone.now(),
    )
    if not stopped:  # decided by another request of the same browser
        return _decided(worker)
    # Answers given before the check was turned on are excluded, an open task freed.
    worker_trust_update(worker=worker, checkpoint=False)
    return FAILED


def _decided(worker: Worker) -> str:
    result = Worker.objects.filter(pk=worker.pk).values_list("headphones", flat=True).get()
    return PASSED if result == Worker.PASSED else FAILED
