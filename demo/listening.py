"""The demo assessors' listening, as the server would have recorded it (the evidence the
must-listen rules read: :mod:`listening.services.audio_served`)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from listening.models import AudioServed
from listening.services.audio_served import audio_served_record


def demo_heard(assignment, clip, *, seconds: float) -> None:
    """Record the clip's whole audio as sent for the assignment ``seconds`` ago: the
    evidence the must-listen rule reads (:mod:`listening.services.audio_served`), as if the
    demo assessor had played it. A clip without a file counts as one byte.

    A person hears one clip at a time: the assignment's first audio is moved back to
    ``k × seconds`` ago for its ``k``-th clip, as if each had been played in turn."""
    size = clip.audio.size if clip.audio else 1
    now = timezone.now()
    audio_served_record(
        clip=clip, size=size, byte_range=None, assignment=assignment,
        now=now - timedelta(seconds=seconds),
    )  # fmt: skip
    served = AudioServed.objects.filter(assignment=assignment)
    first = served.order_by("first_sent_at").first()
    earliest = now - timedelta(seconds=seconds * served.count())
    if first.first_sent_at > earliest:
        served.filter(pk=first.pk).update(first_sent_at=earliest)
