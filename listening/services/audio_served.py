"""Listening evidence: what audio the server sent, recorded per clip and piece of work.

Every audio response for a crowd task (:func:`crowd.views.tasks.task_audio`) or
an assessor's assignment (:func:`relevance.views.assessors.assignment_audio`) calls
:func:`audio_served_record` with the bytes that reached the client, as they reach it
(:mod:`listening.audio_delivery`: after they were delivered, never when the response is
built). The must-listen rules read
those rows, never what a browser says it played: the assessors' rule through
:func:`seconds_heard` and :func:`assignment_listening_problem`, the crowd's through
:mod:`crowd.services.listening`.

Both rules read two things the server observed itself (issue 23):

**coverage**
    the share of a clip's *listening window* — its first ``EARSHOT_LISTEN_WINDOW_SECONDS``
    (30 s), or the whole file when it is shorter or its length is unknown — whose bytes
    were sent. A clip counts as played once that share reaches ``EARSHOT_LISTEN_COVERAGE``
    (half): three one-byte ``Range`` requests no longer pass for listening.
**time**
    a person hears one clip at a time, so the time since the first audio of a task or
    assignment must be at least the sum of the minimum listening of every clip the answer
    or judgment relies on: fetching every candidate at once and waiting a few seconds no
    longer passes for hearing them all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from catalog.models import Clip
from common import sql
from common.audio import ByteRange
from listening.models import AudioServed
from listening.selectors import coverage_in_words

if TYPE_CHECKING:  # the rows listening records for sit above it: named, never imported
    from crowd.models import PreferenceTask
    from relevance.models import Assignment


def merge_range(ranges: list[list[int]], first: int, last: int) -> list[list[int]]:
    """``ranges`` (sorted, disjoint, inclusive) with ``[first, last]`` added, merged.

    >>> merge_range([[0, 99], [200, 299]], 100, 149)
    [[0, 149], [200, 299]]
    >>> merge_range([[0, 99]], 50, 250)
    [[0, 250]]
    """
    merged: list[list[int]] = []
    for start, end in sorted([*ranges, [first, last]]):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def window_bytes(*, size: int, duration: float | None) -> int:
    """Bytes of a clip's listening window: the first ``EARSHOT_LISTEN_WINDOW_SECONDS`` of a
    file of ``size`` bytes lasting ``duration`` seconds (all of it when shorter or unknown).

    >>> window_bytes(size=3_000_000, duration=90.0)  # 30 s of 90 s
    1000000
    >>> window_bytes(size=3_000_000, duration=None)
    3000000
    """
    window = settings.EARSHOT_LISTEN_WINDOW_SECONDS
    if not duration or duration <= window:
        return size
    return max(1, round(size * window / duration))


def bytes_within(ranges: list[list[int]], end: int) -> int:
    """Bytes of the merged inclusive ``ranges`` that lie before byte ``end``.

    >>> bytes_within([[0, 99], [200, 299]], 250)
    150
    """
    return sum(max(0, min(last, end - 1) - first + 1) for first, last in ranges if first < end)


def audio_served_record(
    *,
    clip: Clip,
    size: int,
    byte_range: ByteRange | None,
    task: PreferenceTask | None = None,
    assignment: Assignment | None = None,
    now: datetime | None = None,
    first_at: datetime | None = None,
    new_request: bool = True,
) -> AudioServed:
    """Record that ``byte_range`` of ``clip`` (the whole file when None) reached the client
    for ``task`` or ``assignment``: the first of it at ``first_at`` (``now`` when not
    given), the last at ``now``. An audio response calls it as it delivers
    (:func:`listening.audio_delivery.counted_audio_response`), several times for one long
    response: only the first (``new_request``) counts a request. Safe when a browser
    sends several requests at once."""
    now = now or timezone.now()
    first_at = first_at or now
    first, last = (0, size - 1) if byte_range is None else (byte_range.start, byte_range.end)
    owner, owner_id = ("task_id", task.pk) if task is not None else ("assignment_id", assignment.pk)
    with transaction.atomic():
        # Made if new, else locked until the commit (the no-op update): in one statement,
        # safe when a browser sends several requests at once (issue 14: plain SQL, 4
        # statements a response instead of 7).
        row = sql.one(
            f"INSERT INTO judging_audioserved ({owner}, clip_id, size, ranges, bytes_sent, "
            "window_bytes, window_bytes_sent, requests, first_sent_at, last_sent_at) "
            "VALUES (%s, %s, %s, '[]', 0, 0, 0, 0, %s, %s) "
            f"ON CONFLICT ({owner}, clip_id) WHERE {owner} IS NOT NULL "
            "DO UPDATE SET requests = judging_audioserved.requests "
            f"RETURNING {sql.columns(AudioServed, 'judging_audioserved')}",
            (owner_id, clip.pk, size, sql.param(first_at), sql.param(now)),
        )
        served = sql.instance(AudioServed, row)
        served.ranges = merge_range(served.ranges, first, last) if size else []
        served.bytes_sent = sum(end - start + 1 for start, end in served.ranges)
        served.window_bytes = window_bytes(size=size, duration=clip.duration)
        served.window_bytes_sent = bytes_within(served.ranges, served.window_bytes)
        served.size, served.requests = size, served.requests + new_request
        # A long response records as it goes: a later request may have recorded first.
        served.first_sent_at = min(served.first_sent_at, first_at)
        served.last_sent_at = max(served.last_sent_at, now)
        sql.save(
            served,
            ["ranges", "bytes_sent", "window_bytes", "window_bytes_sent", "size", "requests",
             "first_sent_at", "last_sent_at"],
        )  # fmt: skip
    return served


def seconds_heard(*, assignment: Assignment, clip: Clip, now: datetime | None = None) -> float:
    """How many seconds of ``clip`` the server can vouch for in ``assignment``.

    At most as much audio as it sent (the share of the file sent × the clip's duration,
    when the duration is known) and at most the time since it first sent any: nobody
    hears 5 s of a clip in less than 5 s, nor more of it than reached their browser.
    """
    now = now or timezone.now()
    served = AudioServed.objects.filter(assignment=assignment, clip=clip).first()
    if served is None or served.bytes_sent == 0:
        return 0.0
    elapsed = max(0.0, (now - served.first_sent_at).total_seconds())
    if clip.duration:
        return min(elapsed, served.fraction * clip.duration)
    return elapsed


CLAIM_SLACK_SECONDS = 1.0
"""What the judging page may report beyond the server's observed time: it starts counting
as the first audio plays, a moment before the server has seen the first bytes acknowledged
(:mod:`listening.audio_delivery`)."""
PLAYS_PER_SECOND = 2
"""At most this many plays a second of observed time (and one more): a play is a press of
play after a pause, and nobody presses it more often while listening."""


@dataclass(frozen=True)
class BoundedClaim:
    """What the judging page reported of one candidate, bounded by what the server saw."""

    listened_seconds: float
    plays: int
    impossible: bool
    """The page reported more than the server observed allows (the figures were cut)."""


def listening_claim_bounded(
    *, assignment: Assignment, clip: Clip, listened_seconds: float, plays: int, now: datetime
) -> BoundedClaim:
    """The page's ``listened_seconds`` and ``plays`` of ``clip`` in ``assignment``, bounded by
    the time the server observed: since the clip's first audio reached the assessor
    (:class:`~listening.models.AudioServed`'s ``first_sent_at``; none reached: no time).

    Nobody listens to a clip longer than the time since it first reached them (plus
    :data:`CLAIM_SLACK_SECONDS`), nor starts it more than :data:`PLAYS_PER_SECOND` times a
    second of it (plus one): a page reporting more is *impossible*, and what is kept is
    the bound. 86,400 s and 100,000 plays reported 16 s after the first audio are kept as
    17 s and 33 plays (16 + 1; 1 + 2 × 16), flagged.
    """
    served = AudioServed.objects.filter(assignment=assignment, clip=clip, bytes_sent__gt=0).first()
    observed = max(0.0, (now - served.first_sent_at).total_seconds()) if served else 0.0
    most_listened = observed + CLAIM_SLACK_SECONDS
    most_plays = 1 + math.floor(observed * PLAYS_PER_SECOND)
    return BoundedClaim(
        listened_seconds=min(float(listened_seconds), most_listened),
        plays=min(int(plays), most_plays),
        impossible=listened_seconds > most_listened or plays > most_plays,
    )


def assignment_listening_problem(
    *,
    assignment: Assignment,
    clip: Clip,
    must_listen_seconds: int,
    scored_before: int,
    now: datetime,
    tolerance: float = 0.0,
) -> str | None:
    """Why the server cannot vouch that ``clip`` was heard in ``assignment``, or None.

    Three things it observed itself (the module doc): the clip's own listening
    (:func:`seconds_heard`: ``must_listen_seconds`` of it), its *coverage* (enough of its
    listening window sent), and *time*: judging this candidate after ``scored_before``
    others needs ``(scored_before + 1) × must_listen_seconds`` since the assignment's
    first audio, since a person hears one clip at a time.
    """
    if must_listen_seconds <= 0:
        return None
    heard = seconds_heard(assignment=assignment, clip=clip, now=now)
    if heard + tolerance < must_listen_seconds:
        return (
            f"Listen to at least {must_listen_seconds} s of the clip first "
            f"(so far the server has sent {heard:.1f} s of it)."
        )
    served = AudioServed.objects.filter(assignment=assignment, clip=clip).first()
    if served is None or not served.covered:
        got = 0 if served is None else round(served.coverage * 100)
        return (
            f"Play more of this clip first: a clip counts once {coverage_in_words()} has "
            f"reached your browser (so far {got} %)."
        )
    first = AudioServed.objects.filter(assignment=assignment).order_by("first_sent_at").first()
    needed = (scored_before + 1) * must_listen_seconds
    elapsed = (now - first.first_sent_at).total_seconds()
    if elapsed + tolerance < needed:
        return (
            f"Listen to the candidates one at a time: judging {scored_before + 1} of them needs "
            f"at least {needed} s of listening since your first clip ({must_listen_seconds} s "
            f"each); {needed - elapsed:.0f} s to go."
        )
    return None
