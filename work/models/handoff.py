"""Changes judging could not hand over to evaluation because the broker was unreachable."""

from __future__ import annotations

from django.db import models


class PendingHandoff(models.Model):
    """A handoff task (:mod:`work.handoff`) whose sending failed after its data committed.

    One row per (task, target): work's sweep (``work.handoff.pending_handoffs_hand_over``: at every worker start, on a
    schedule, and in ``manage.py recompute``) does what the task would have done and
    deletes the row, so a change made while Redis was down is computed once it is back.
    """

    task = models.CharField(max_length=100)
    target_id = models.PositiveBigIntegerField()
    failed_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "judging_pendinghandoff"  # the table of before issue 30
        ordering = ["failed_at"]
        constraints = [
            models.UniqueConstraint(fields=["task", "target_id"], name="pending_handoff_once")
        ]

    def __str__(self) -> str:
        return f"{self.task}({self.target_id})"
