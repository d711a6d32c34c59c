"""The listening behind answers, as the organiser sees it (issue 23, item 5).

What the server sent (:class:`~listening.models.AudioServed`) read back for whole sets of
answers at once, in a fixed number of statements whatever their number: the workers
page, the answers export and the satisfaction mapping (evaluation, "answers with every
clip heard") all read it here, by the rule of :mod:`listening.selectors`, so they agree
on what was heard.

An answer had **every clip heard** (:attr:`AnswerListening.full`) when, for the task it
answered, both rules of :mod:`listening.services.audio_served` hold for *every* clip the task
showed (the query and each clip of list A and list B; clips without audio are not asked
for, as the crowd's check does not ask for them):

- *coverage*: at least ``EARSHOT_LISTEN_COVERAGE`` of each clip's listening window was
  sent (the same test as the task page's marks, :func:`crowd.selectors.example_clips`);
- *time*: from the task's first audio to the answer, at least the sum of every clip's
  minimum listening (:func:`clip_listening_seconds`), since a person hears one clip at a
  time.

That is more than the campaign's listening check asks before it accepts an answer (the
query and ``min_clips_per_list`` clips of each list): the check refuses answers with no
evidence; this tells which accepted answers rest on hearing everything they compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from crowd.models import Answer, ExampleItem
from listening.models import AudioServed
from listening.selectors import (
    clip_listening_seconds,
    median_or_none,
    window_coverage,
    window_covered,
)

__all__ = [
    "LISTENING_CHUNK",
    "AnswerListening",
    "WorkerListening",
    "answers_fully_heard",
    "answers_listening",
    "workers_listening",
]


@dataclass(frozen=True)
class AnswerListening:
    """What the server sent for the task of one answer (see the module doc)."""

    worker_id: int
    coverages: tuple[float, ...]
    """Share of each clip's listening window sent (0–1), one per clip with audio shown."""
    heard: int
    """Of those clips, how many met the coverage rule."""
    seconds: float
    """From the task's first audio to the answer; 0 when no audio was sent."""
    needed: float
    """Seconds to hear every clip with audio, one at a time."""

    @property
    def clips(self) -> int:
        return len(self.coverages)

    @property
    def full(self) -> bool:
        """Every clip heard: all of them covered, and time enough for them one at a time."""
        return self.heard == self.clips and self.seconds >= self.needed


LISTENING_CHUNK = 2000
"""Answers whose audio records are read back at a time: a campaign's every answer (the
mapping, the answers export) reads about 11 records per answer, so memory stays bounded
by this many answers' records, whatever the campaign's size."""


def answers_listening(*, answers: QuerySet[Answer]) -> dict[int, AnswerListening]:
    """``{answer id: AnswerListening}`` for every answer of ``answers``, in three statements
    up to :data:`LISTENING_CHUNK` answers (the answers with their query clips, the
    examples' lists, the audio sent), two more per chunk beyond."""
    return dict(_listening(answers))


def answers_fully_heard(*, answers: QuerySet[Answer]) -> set[int]:
    """The ids of ``answers`` whose every clip was heard (:attr:`AnswerListening.full`)."""
    return {pk for pk, heard in _listening(answers) if heard.full}


def _listening(answers: QuerySet[Answer]) -> Iterator[tuple[int, AnswerListening]]:
    rows = list(
        answers.order_by("pk").values_list(
            "pk", "worker_id", "task_id", "example_id", "answered_at",
            "example__query__clip_id", "example__query__clip__audio",
            "example__query__clip__duration",
        )
    )  # fmt: skip
    for start in range(0, len(rows), LISTENING_CHUNK):
        yield from _listening_of(rows[start : start + LISTENING_CHUNK])


def _listening_of(rows: list[tuple]) -> Iterator[tuple[int, AnswerListening]]:
    audible: dict[int, dict[int, float | None]] = {}  # example → {clip with audio: duration}
    for *_, example_id, _, clip_id, audio, duration in rows:
        audible[example_id] = {clip_id: duration} if audio else {}
    items = ExampleItem.objects.filter(example_id__in=list(audible)).order_by()
    for example_id, clip_id, audio, duration in items.values_list(
        "example_id", "clip_id", "clip__audio", "clip__duration"
    ):
        if audio:
            audible[example_id][clip_id] = duration
    served: dict[int, dict[int, tuple[int, int]]] = {}
    first: dict[int, datetime] = {}
    sent = AudioServed.objects.filter(task_id__in=[row[2] for row in rows]).order_by()
    for task_id, clip_id, window, window_sent, sent_at in sent.values_list(
        "task_id", "clip_id", "window_bytes", "window_bytes_sent", "first_sent_at"
    ):
        served.setdefault(task_id, {})[clip_id] = (window, window_sent)
        first[task_id] = min(first.get(task_id, sent_at), sent_at)
    for pk, worker_id, task_id, example_id, answered_at, *_ in rows:
        clips = audible[example_id]
        windows = [served.get(task_id, {}).get(clip, (0, 0)) for clip in clips]
        started = first.get(task_id)
        yield (
            pk,
            AnswerListening(
                worker_id=worker_id,
                coverages=tuple(window_coverage(*w) for w in windows),
                heard=sum(window_covered(window_bytes=w, window_bytes_sent=s) for w, s in windows),
                seconds=max(0.0, (answered_at - started).total_seconds()) if started else 0.0,
                needed=sum(clip_listening_seconds(d) for d in clips.values()),
            ),
        )


@dataclass(frozen=True)
class WorkerListening:
    """The listening behind one worker's answers (the workers page, the API)."""

    answers: int
    full: int
    """Answers with every clip heard."""
    median_coverage: float | None
    """Median share of a clip's listening window sent, over every clip of every answer."""
    median_seconds: float | None
    """Median seconds from a task's first audio to its answer."""
    median_needed: float | None
    """Median seconds every clip of a task needs, heard one at a time."""

    @classmethod
    def of(cls, heard: Iterable[AnswerListening]) -> WorkerListening:
        heard = list(heard)
        return cls(
            answers=len(heard),
            full=sum(h.full for h in heard),
            median_coverage=median_or_none([c for h in heard for c in h.coverages]),
            median_seconds=median_or_none([h.seconds for h in heard]),
            median_needed=median_or_none([h.needed for h in heard]),
        )


def workers_listening(*, worker_ids: Sequence[int]) -> dict[int, WorkerListening]:
    """``{worker id: WorkerListening}`` over all of each worker's answers (quiz, trap
    questions and excluded answers included: it describes the worker), in three statements."""
    answers = Answer.objects.filter(worker_id__in=list(worker_ids))
    by_worker: dict[int, list[AnswerListening]] = {pk: [] for pk in worker_ids}
    for heard in answers_listening(answers=answers).values():
        by_worker[heard.worker_id].append(heard)
    return {pk: WorkerListening.of(rows) for pk, rows in by_worker.items()}
