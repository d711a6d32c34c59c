"""Listening evidence: what audio the server sent, recorded per clip and piece of work.

Every audio response for a crowd task (:func:`judging.views.crowd_tasks.task_audio`) or
an assessor's assignment (:func:`judging.views.assessors.assignment_audio`) calls
:func:`audio_served_record` with the byte range it sent. The must-listen rules read
those rows, never what a browser says it played: the assessors' rule through
:func:`seconds_heard`, the crowd's through :mod:`judging.services.crowd.listening`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from judging import sql
from judging.audio import ByteRange
from judging.models import Assignment, AudioServed, Clip, PreferenceTask


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


def audio_served_record(
    *,
    clip: Clip,
    size: int,
    byte_range: ByteRange | None,
    task: PreferenceTask | None = None,
    assignment: Assignment | None = None,
    now: datetime | None = None,
) -> AudioServed:
    """Record that ``byte_range`` of ``clip`` (the whole file when None) was sent for
    ``task`` or ``assignment``. Safe when a browser sends several requests at once."""
    now = now or timezone.now()
    first, last = (0, size - 1) if byte_range is None else (byte_range.start, byte_range.end)
    owner, owner_id = ("task_id", task.pk) if task is not None else ("assignment_id", assignment.pk)
    with transaction.atomic():
        # Made if new, else locked until the commit (the no-op update): in one statement,
        # safe when a browser sends several requests at once (issue 14: plain SQL, 4
        # statements a response instead of 7).
        row = sql.one(
            f"INSERT INTO judging_audioserved ({owner}, clip_id, size, ranges, bytes_sent, "
            "requests, first_sent_at, last_sent_at) VALUES (%s, %s, %s, '[]', 0, 0, %s, %s) "
            f"ON CONFLICT ({owner}, clip_id) WHERE {owner} IS NOT NULL "
            "DO UPDATE SET requests = judging_audioserved.requests "
            f"RETURNING {sql.columns(AudioServed, 'judging_audioserved')}",
            (owner_id, clip.pk, size, sql.param(now), sql.param(now)),
        )
        served = sql.instance(AudioServed, row)
        served.ranges = merge_range(served.ranges, first, last) if size else []
        served.bytes_sent = sum(end - start + 1 for start, end in served.ranges)
        served.size, served.requests, served.last_sent_at = size, served.requests + 1, now
        sql.save(served, ["ranges", "bytes_sent", "size", "requests", "last_sent_at"])
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
