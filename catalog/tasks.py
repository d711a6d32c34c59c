"""Catalog's Celery task: forgetting deleted things past their time, on the beat schedule.

Its name is the one it had before issue 30 (``CELERY_BEAT_SCHEDULE`` sends it by name).
"""

from __future__ import annotations

from celery import shared_task

from catalog.services.trash import trash_sweep as trash_sweep_run


@shared_task(name="judging.trash_sweep")
def trash_sweep() -> int:
    """Forget deleted things older than ``EARSHOT_TRASH_DAYS`` (:mod:`catalog.services.trash`)."""
    return trash_sweep_run()
