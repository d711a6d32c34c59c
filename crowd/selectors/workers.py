"""The organiser's view of a crowd campaign's workers: their speed, listening and
headphone figures, a page at a time (the workers page, the campaign page, the API)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from crowd.models import Answer, PreferenceCampaign, Worker
from crowd.selectors.listening import WorkerListening, workers_listening


@dataclass(frozen=True)
class WorkerRow:
    """One worker on the organiser's pages, with their speed and listening figures.

    Traps seen and missed are the worker's own counts (``trap_answered``,
    ``trap_missed``): the ones their trust is computed from, so the three always agree.
    """

    worker: Worker
    answers: int
    median_seconds: float | None
    fast_answers: int
    """Answers given sooner than the campaign's ``fast_answer_seconds``."""
    mean_clips_heard: float | None
    """Clips (query included) whose audio the server sent per answered task, on average."""
    comments: list[str]
    listening: WorkerListening
    """Coverage and listening time behind the answers (:mod:`listening.selectors`)."""

    @property
    def headphones(self) -> str:
        """The headphone screen's result in words: passed or failed with the right answers,
        not taken yet, or not screened (the campaign does not screen, or the organiser
        vouched for the worker)."""
        w = self.worker
        if w.headphones:
            return f"{w.get_headphones_display()}: {w.headphones_right} of 6 right"
        return "not taken yet" if w.headphones_pending() else "not screened"

    @property
    def trust_now_passes(self) -> bool:
        """Stopped for low trust, but trust is at the threshold now (a trap was forgiven)."""
        w = self.worker
        return (
            w.status == Worker.STOPPED
            and w.stop_reason == Worker.LOW_TRUST
            and w.trust is not None
            and w.trust >= w.campaign.trust_threshold
        )


WORKER_STATUSES = (Worker.ACTIVE, Worker.STOPPED, Worker.FINISHED)


def campaign_workers(*, campaign: PreferenceCampaign, status: str = "") -> QuerySet[Worker]:
    """The campaign's workers, first arrived first; only those with ``status`` if given."""
    workers = campaign.workers.select_related("campaign").order_by("created_at", "pk")
    return workers.filter(status=status) if status in WORKER_STATUSES else workers


def worker_rows(*, campaign: PreferenceCampaign, workers: Sequence[Worker]) -> list[WorkerRow]:
    """The figures of ``workers`` (one page of :func:`campaign_workers`), in four
    statements whatever their number (``listening/tests/test_listening_overview.py`` pins them)."""
    ids = [w.pk for w in workers]
    listening = workers_listening(worker_ids=ids)
    seconds: dict[int, list[float]] = {}
    heard: dict[int, list[int]] = {}
    comments: dict[int, list[str]] = {}
    rows = Answer.objects.filter(worker_id__in=ids).order_by("answered_at", "pk")
    for worker_id, secs, clips, comment in rows.values_list(
        "worker_id", "seconds", "clips_heard", "comment"
    ):
        seconds.setdefault(worker_id, []).append(secs)
        heard.setdefault(worker_id, []).append(clips)
        if comment:
            comments.setdefault(worker_id, []).append(comment)
    fast = campaign.fast_answer_seconds
    return [
        WorkerRow(
            worker=w,
            answers=len(seconds.get(w.pk, [])),
            median_seconds=statistics.median(seconds[w.pk]) if w.pk in seconds else None,
            fast_answers=sum(s < fast for s in seconds.get(w.pk, [])),
            mean_clips_heard=statistics.fmean(heard[w.pk]) if w.pk in heard else None,
            comments=comments.get(w.pk, []),
            listening=listening[w.pk],
        )
        for w in workers
    ]


def campaign_worker(*, campaign: PreferenceCampaign, worker_id: int) -> Worker:
    """One worker of ``campaign`` (a campaign that passed the access rule); else 404."""
    return get_object_or_404(campaign.workers.select_related("campaign"), pk=worker_id)
