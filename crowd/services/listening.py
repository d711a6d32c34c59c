"""The crowd's listening check: an answer needs evidence the server recorded.

A campaign with ``listening_check`` on refuses an answer until the server has sent
(:class:`~listening.models.AudioServed`, recorded by the task's own audio URLs) enough of
the audio of the query and of at least ``min_clips_per_list`` clips of each list — half
of each clip's first 30 seconds by default (*coverage*, ``EARSHOT_LISTEN_COVERAGE`` of
``EARSHOT_LISTEN_WINDOW_SECONDS``) —, at least ``min_seconds_on_task`` seconds have
passed since the task was shown, and (*time*: one clip at a time) at least
``EARSHOT_LISTEN_SECONDS_PER_CLIP`` seconds for each of those clips (all of a shorter
clip) have passed since the task's first audio was sent (:mod:`listening.services.audio_served`). Clips without an
audio file are not asked for. The refusal tells the worker what is missing; nothing is
stored (:func:`crowd.services.answers.answer_submit`).

The same statements run whatever the task is, trap question or not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from crowd.models import PreferenceCampaign, PreferenceTask
from crowd.selectors import example_clips
from listening.selectors import clip_listening_seconds, coverage_in_words


@dataclass(frozen=True)
class Listening:
    """What the server sent for one task, against what the campaign asks for."""

    clips_heard: int
    """Distinct clips (the query included) whose audio was sent for the task."""
    query_missing: bool
    lists_missing: tuple[tuple[str, int], ...]
    """(list as shown, clips of it still to be played), for lists short of the minimum."""
    seconds_left: int
    listening_left: int = 0
    """Seconds still to pass since the task's first audio (one clip at a time)."""

    @property
    def enough(self) -> bool:
        return not (
            self.query_missing or self.lists_missing or self.seconds_left or self.listening_left
        )

    def message(self, campaign: PreferenceCampaign) -> str:
        """What the worker reads when their answer is refused."""
        parts = []
        if self.query_missing or self.lists_missing:
            n = campaign.min_clips_per_list
            clips = "one clip" if n == 1 else f"{n} clips"
            unit = "clip" if campaign.is_pairs else "list"
            missing = (["the query"] if self.query_missing else []) + [
                f"{unit} {label}" for label, _ in self.lists_missing
            ]
            what = (
                "clip A and clip B"
                if campaign.is_pairs
                else f"at least {clips} of list A and of list B"
            )
            parts.append(
                f"Please listen before answering: play the query and {what} (still to "
                f"play: {', '.join(missing)}). A clip counts once you have played "
                f"{coverage_in_words()}."
            )
        if self.seconds_left:
            parts.append(
                f"Please take at least {campaign.min_seconds_on_task} seconds over each task "
                f"({self.seconds_left} s to go)."
            )
        if self.listening_left and not self.seconds_left:
            parts.append(
                f"Please listen to the clips one at a time, about "
                f"{settings.EARSHOT_LISTEN_SECONDS_PER_CLIP} s each ({self.listening_left} s to go)."
            )
        parts.append("Your answer is not saved yet: it is kept below; submit it again then.")
        return " ".join(parts)


def task_listening(
    *, task: PreferenceTask, campaign: PreferenceCampaign, now: datetime, clips_heard: int = 0
) -> Listening:
    """The listening evidence of ``task`` (see the module doc), in one statement.

    Without the check, nothing is read: ``clips_heard`` is what the caller read with the
    task (the answer's own record of it).
    """
    if not campaign.listening_check:
        return Listening(clips_heard, query_missing=False, lists_missing=(), seconds_left=0)
    clips = example_clips(task.example_id, task_id=task.pk)
    heard = clips.heard
    shown = clips.shown(task.swapped)
    audible = {label: {c for c, audio in shown[label.lower()] if audio} for label in ("A", "B")}
    query_id, query_audio = clips.query
    query_missing = query_audio and query_id not in heard
    lists_missing: list[tuple[str, int]] = []
    for label in ("A", "B"):
        wanted = min(campaign.min_clips_per_list, len(audible[label]))
        got = len(audible[label] & heard)
        if got < wanted:
            lists_missing.append((label, wanted - got))
    waited = (now - task.served_at).total_seconds()
    seconds_left = max(0, math.ceil(campaign.min_seconds_on_task - waited))

    def need(clip_id: int) -> float:  # a clip shorter than the minimum: all of it
        return clip_listening_seconds(clips.durations.get(clip_id))

    needed = need(query_id) if query_audio else 0.0
    for label in ("A", "B"):  # the clips each list relies on: the quickest to hear
        wanted = min(campaign.min_clips_per_list, len(audible[label]))
        needed += sum(sorted(need(c) for c in audible[label])[:wanted])
    listened = (now - clips.first_audio_at).total_seconds() if clips.first_audio_at else 0.0
    return Listening(
        clips_heard=len(heard),
        query_missing=query_missing,
        lists_missing=tuple(lists_missing),
        seconds_left=seconds_left,
        listening_left=max(0, math.ceil(needed - listened)),
    )


def task_heard(*, task: PreferenceTask, campaign: PreferenceCampaign, now: datetime) -> dict:
    """What the task page shows of the server's evidence (issue 23): the slots it counts as
    played (``query``, ``a1`` …, as shown), and what the answer still waits for."""
    clips = example_clips(task.example_id, task_id=task.pk)
    shown = clips.shown(task.swapped)
    slots = ["query"] if clips.query[0] in clips.heard else []
    for side in ("a", "b"):
        slots += [f"{side}{n}" for n, (c, _) in enumerate(shown[side], start=1) if c in clips.heard]
    listening = task_listening(task=task, campaign=campaign, now=now)
    return {
        "heard": slots,
        "ready": listening.enough,
        "missing": ""
        if listening.enough
        else listening.message(campaign).removesuffix(
            " Your answer is not saved yet: it is kept below; submit it again then."
        ),
    }
