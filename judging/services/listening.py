"""Listening evidence: what audio the server sent, recorded per clip and piece of work.

Every audio response for a crowd task (:func:`judging.views.crowd_tasks.task_audio`) or
an assessor's assignment (:func:`judging.views.assessors.assignment_audio`) calls
:func:`audio_served_record` with the byte range it sent. The must-listen rules read
those rows, never what a browser says it played: the assessors' rule through
:func:`seconds_heard`, the crowd's through :mod:`judging.services.crowd.listening`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

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
    lookup = {"task": task, "assignment": assignment, "clip": clip}
    for _attempt in range(2):
        try:
            with transaction.atomic():
                row, _ = AudioServed.objects.select_for_update().get_or_create(
                    **lookup, defaults={"size": size, "first_sent_at": now, "last_sent_at": now}
                )
                row.ranges = merge_range(row.ranges, first, last) if size else []
                row.bytes_sent = sum(end - start + 1 for start, end in row.ranges)
                row.size, row.requests, row.last_sent_at = size, row.requests + 1, now
                row.save(update_fields=["ranges", "bytes_sent", "size", "requests", "last_sent_at"])
                return row
        except IntegrityError:  # the first two requests for this clip arrived together
            continue
    raise RuntimeError("could not record the audio sent")  # pragma: no cover


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
