"""Redundancy slots given back: an example's slot held by a task or an answer that will
not bring it an answer that counts comes back, so that the example is served to someone
else (``task_serve`` calls these when nothing is left to serve).

- an open task whose page has been silent for ``crowd.services.tasks.TASK_HEARTBEAT_LEASE``
  (:func:`tasks_release_stale`: the worker closed the page, or hoards it);
- an answer that does not count, of a worker who left untrusted
  (:func:`answers_release_gone`: a pairs round waits for every vote of its pairs).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from common import sql
from crowd.models import PreferenceCampaign, Worker

ANSWER_WAIT_LEASE = timedelta(minutes=5)
"""An answer that does not count yet (its worker has not been trusted) holds its example's
slot while the worker is around; once none of the worker's tasks has been served, alive
or answered for this long, the slot is given back (:func:`answers_release_gone`)."""


def tasks_release_stale(*, campaign: PreferenceCampaign, older_than) -> int:
    """Give back the redundancy slots of open tasks whose page was last alive before
    ``older_than``.

    The worker keeps the task (a reload still shows it); if they answer it later the
    slot is taken again, so an example may then get one answer more than asked for.
    """
    stale = sql.rows(
        "SELECT t.id, t.example_id FROM judging_preferencetask t "
        "INNER JOIN judging_worker w ON w.id = t.worker_id "
        "WHERE w.campaign_id = %s AND t.answered_at IS NULL AND NOT t.released "
        "AND t.alive_at < %s",
        (campaign.pk, sql.param(older_than)),
    )  # on every task page: plain SQL (issue 14)
    return _release(stale, answered=False)


def answers_release_gone(*, campaign: PreferenceCampaign, older_than) -> int:
    """Give back the redundancy slots of answers that do not count and may never: those of
    workers not trusted (nor stopped) none of whose tasks was served, alive or answered
    since ``older_than`` — they left before a trust checkpoint. Without this, an example
    would keep such an answer as one of its slots and never get the answers it asked for:
    a pairs campaign's round, which waits for every vote of its pairs, would never end.

    The answered task is marked ``released`` (its answer holds no slot any more; stopping
    or reinstating the worker then leaves that slot alone). The answer is kept: it counts if
    the worker comes back and is trusted, so the example may then have one answer more
    than asked for, as when a lapsed task is answered late.
    """
    gone = sql.rows(
        "SELECT t.id, t.example_id FROM judging_preferencetask t "
        "INNER JOIN judging_answer a ON a.task_id = t.id "
        "INNER JOIN judging_worker w ON w.id = t.worker_id "
        "WHERE w.campaign_id = %s AND NOT t.released AND NOT t.is_quiz AND NOT a.excluded "
        "AND a.accepted_at IS NULL AND NOT w.trusted AND w.status <> %s "
        "AND NOT EXISTS (SELECT 1 FROM judging_preferencetask u WHERE u.worker_id = w.id "
        "AND (u.served_at >= %s OR u.alive_at >= %s OR u.answered_at >= %s))",
        (campaign.pk, Worker.STOPPED, *[sql.param(older_than)] * 3),
    )  # only when nothing is left to serve
    return _release(gone, answered=True)


def _release(tasks: list[tuple[int, int]], *, answered: bool) -> int:
    """Mark each ``(task, example)`` released and give its example's slot back, once: a
    task another request released meanwhile (or, open, answered meanwhile) is left alone."""
    released = 0
    state = "NOT NULL" if answered else "NULL"
    for pk, example_id in tasks:
        with transaction.atomic():
            if sql.run(
                "UPDATE judging_preferencetask SET released = %s "
                f"WHERE id = %s AND answered_at IS {state} AND NOT released",
                (True, pk),
            ):
                sql.run(
                    "UPDATE judging_example SET slots_taken = slots_taken - 1 WHERE id = %s",
                    (example_id,),
                )
                released += 1
    return released
