"""Listening as the server saw it: which audio it sent, for which piece of work, and when.

A browser can claim anything about listening (``JudgmentActivity.listened_seconds`` is
the judging page's own count); what the server *sent* it knows. One
:class:`AudioServed` row per clip and piece of work — a crowd worker's task or an
assessor's assignment — holds the byte ranges sent (merged), how many requests asked
for them, and when the first and the last were sent. The must-listen rules read these
rows (:mod:`listening.services.audio_served`).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from catalog.models import Clip
from listening.selectors import window_coverage, window_covered


class AudioServed(models.Model):
    """Audio of one clip sent for one crowd task or one assessor's assignment."""

    task = models.ForeignKey(  # by name: crowd and relevance sit above listening
        "crowd.PreferenceTask", null=True, blank=True, on_delete=models.CASCADE,
        related_name="audio_served",
    )  # fmt: skip
    assignment = models.ForeignKey(
        "relevance.Assignment", null=True, blank=True, on_delete=models.CASCADE,
        related_name="audio_served",
    )  # fmt: skip
    clip = models.ForeignKey(Clip, on_delete=models.CASCADE, related_name="+")
    size = models.PositiveBigIntegerField(help_text="Bytes in the clip's file.")
    ranges = models.JSONField(
        default=list, help_text="Byte ranges sent, merged: [[first, last], …], inclusive."
    )
    bytes_sent = models.PositiveBigIntegerField(
        default=0, help_text="Distinct bytes of the file sent (the ranges' total length)."
    )
    window_bytes = models.PositiveBigIntegerField(
        default=0,
        help_text="Bytes of the clip's listening window: its first EARSHOT_LISTEN_WINDOW_SECONDS "
        "(the whole file when shorter or of unknown length).",
    )
    window_bytes_sent = models.PositiveBigIntegerField(
        default=0, help_text="Distinct bytes of the listening window sent."
    )
    requests = models.PositiveIntegerField(default=0)
    first_sent_at = models.DateTimeField()
    last_sent_at = models.DateTimeField()

    class Meta:
        db_table = "judging_audioserved"  # the table of before issue 30
        ordering = ["first_sent_at", "pk"]
        verbose_name_plural = "audio served"
        constraints = [
            models.CheckConstraint(
                condition=(Q(task__isnull=False) & Q(assignment__isnull=True))
                | (Q(task__isnull=True) & Q(assignment__isnull=False)),
                name="audio_served_for_one_piece_of_work",
            ),
            models.UniqueConstraint(
                fields=["task", "clip"], condition=Q(task__isnull=False),
                name="audio_served_once_per_task_clip",
            ),
            models.UniqueConstraint(
                fields=["assignment", "clip"], condition=Q(assignment__isnull=False),
                name="audio_served_once_per_assignment_clip",
            ),
        ]  # fmt: skip

    def __str__(self) -> str:
        return f"{self.bytes_sent} of {self.size} bytes of {self.clip_id}"

    @property
    def fraction(self) -> float:
        """Share of the clip's file sent, 0–1."""
        return min(1.0, self.bytes_sent / self.size) if self.size else 0.0

    @property
    def coverage(self) -> float:
        """Share of the clip's listening window sent, 0–1 (what pages show)."""
        return window_coverage(self.window_bytes, self.window_bytes_sent)

    @property
    def covered(self) -> bool:
        """Whether enough of the window was sent for the clip to count as played (the
        coverage rule: :func:`listening.selectors.window_covered`)."""
        return window_covered(
            window_bytes=self.window_bytes, window_bytes_sent=self.window_bytes_sent
        )
