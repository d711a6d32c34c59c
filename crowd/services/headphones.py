"""A crowd worker's headphone screen (campaigns with ``headphone_check``; issue 23, item 2).

After consent, before the quiz: a volume calibration (noise at the study's loudness, no
answer), then :data:`~listening.headphones.TRIALS` antiphase trials
(:mod:`listening.headphones`, Woods et al. 2017), drawn, served and checked by
:mod:`listening.services.headphones` as an assessor's are. After the last one, a worker
with at least the campaign's ``headphone_pass_mark`` right passes and goes on to the
quiz, any other is stopped (``stop_reason`` ``headphones``) and sees
the campaign's screen-out page. A stopped worker's device cannot start again under a
new id (:func:`~crowd.services.workers.worker_arrive`).
"""

from __future__ import annotations

from django.utils import timezone

from crowd.models import Worker
from crowd.services.trust import worker_trust_update
from listening.models import HeadphoneTrial
from listening.services.headphones import (
    FAILED,
    NEXT,
    PASSED,
    PlayFirst,
    calibration_audio,
    study_lufs,
    trial_answer,
    trial_audio,
    trial_current,
)
from listening.services.headphones import two_of_three as _two_of_three

__all__ = [
    "FAILED",
    "NEXT",
    "PASSED",
    "PlayFirst",
    "_two_of_three",
    "calibration_audio",
    "headphone_answer",
    "headphone_trial_audio",
    "headphone_trial_current",
    "study_lufs",
]


def headphone_trial_current(*, worker: Worker) -> HeadphoneTrial | None:
    """The worker's first unanswered trial, drawing all of them on the first call; None
    when every trial is answered."""
    return trial_current(owner=worker)


def headphone_trial_audio(*, worker: Worker, key: str) -> bytes | None:
    """The WAV of the worker's unanswered trial ``key`` (None for any other key); the
    first time, the trial is marked as sent."""
    return trial_audio(owner=worker, key=key)


def headphone_answer(*, worker: Worker, key: str, interval: int) -> str:
    """Take the worker's answer to trial ``key``: :data:`NEXT` while trials remain, then
    :data:`PASSED` or :data:`FAILED` (the worker stopped). :class:`PlayFirst` if the
    trial's audio was never sent; an answered or unknown key changes nothing."""
    return trial_answer(
        owner=worker,
        key=key,
        interval=interval,
        decide=lambda right: _headphones_decide(worker=worker, right=right),
    )


def _headphones_decide(*, worker: Worker, right: int) -> str:
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
