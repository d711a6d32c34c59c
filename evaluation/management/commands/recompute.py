"""``manage.py recompute [--collection ID|NAME ...] [--campaign ID|NAME ...] [--force]``.

Computes results in the foreground, with progress, and needs no broker and no worker:

- no argument: everything queued — changes the broker did not take while the
  broker was down, recomputes left queued (their message lost or never sent) and
  recomputes left running by a dead worker (:mod:`evaluation.services.sweep`);
- ``--collection``: that collection's leaderboards and reliability studies;
- ``--campaign``: that preference campaign's satisfaction mapping, then its collection's
  leaderboards (which use the mapping).

Each target goes through the same state machine as a worker's task
(:mod:`evaluation.services.recompute`), so the results pages show the progress and a
worker never computes the same target at the same time. A target a live worker is
computing right now is skipped unless ``--force``. Exit status 1 when a computation
failed.
"""

from __future__ import annotations

import os
import socket
import time

from django.core.management.base import BaseCommand, CommandError
from django.db.models import F

from catalog.published import Collection, collection_from_argument, named_from_argument
from crowd.published import PreferenceCampaign
from evaluation.models import Recompute
from evaluation.services.computers import recompute_run
from evaluation.services.recompute import (
    RECOMPUTES,
    computed_in_the_foreground,
    recompute_request,
)
from evaluation.services.sweep import dead_recomputes_revive
from work import state
from work.handoff import pending_handoffs_hand_over


def campaign_from_argument(value: str) -> PreferenceCampaign:
    """The preference campaign with id ``value``, or else the one campaign named ``value``."""
    return named_from_argument(PreferenceCampaign.objects.all(), value, what="preference campaign")


class Printer:
    """Progress lines on stdout, at most every half second (and every forced report)."""

    def __init__(self, write, label: str) -> None:
        self.write, self.label, self.last = write, label, 0.0

    def __call__(self, fraction: float, message: str = "", *, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= 0.5:
            self.last = now
            self.write(f"  {self.label}: {100 * min(1.0, max(0.0, fraction)):3.0f}% {message}")


def _label(row: Recompute) -> str:
    model = Collection if row.kind == "collection" else PreferenceCampaign
    name = model.objects.filter(pk=row.target_id).values_list("name", flat=True).first()
    return f"{row.kind} {row.target_id}" + (f" “{name}”" if name else " (deleted)")


class Command(BaseCommand):
    help = "Compute results now, in this process, with progress; no broker or worker needed."

    def add_arguments(self, parser):
        parser.add_argument("--collection", action="append", default=[], metavar="ID|NAME",
                            help="a collection's leaderboards and reliability (repeatable)")  # fmt: skip
        parser.add_argument("--campaign", action="append", default=[], metavar="ID|NAME",
                            help="a preference campaign's mapping, then its collection's "
                            "leaderboards (repeatable)")  # fmt: skip
        parser.add_argument("--force", action="store_true",
                            help="compute even what a live worker is computing now")  # fmt: skip

    def handle(self, *args, **options):
        collections = [collection_from_argument(v) for v in options["collection"]]
        campaigns = [campaign_from_argument(v) for v in options["campaign"]]
        started = time.monotonic()
        me = f"manage.py recompute on {socket.gethostname()}, pid {os.getpid()}"
        failed: list[str] = []
        computed = 0
        with computed_in_the_foreground():  # requests mark rows queued; nothing is sent
            if collections or campaigns:
                for campaign in campaigns:
                    recompute_request(kind="campaign", target_id=campaign.pk)
                for collection in collections:
                    recompute_request(kind="collection", target_id=collection.pk)
                wanted = [("campaign", c.pk) for c in campaigns] + [
                    ("collection", c.pk) for c in collections
                ]
            else:
                handed = pending_handoffs_hand_over()
                revived = dead_recomputes_revive()
                if handed or revived:
                    self.stdout.write(
                        f"{handed} change(s) not handed over and {revived} recompute(s) of "
                        "dead workers taken up"
                    )
                wanted = None
            done: set[int] = set()
            for _ in range(1000):  # a campaign asks for its collection: follow, but bounded
                row = self._next(wanted, done)
                if row is None:
                    break
                done.add(row.pk)
                label = _label(row)
                if row.state == Recompute.RUNNING and not options["force"]:
                    self.stdout.write(
                        f"{label}: being computed by {row.claimed_by or 'a worker'} now; "
                        "skipped (--force computes it here too)"
                    )
                    continue
                if row.state == Recompute.RUNNING:  # taken over: its claims are kept
                    state.release(RECOMPUTES, row.pk, runs=F("runs"), message="taken over")
                self.stdout.write(f"{label}: computing")
                began = time.monotonic()
                recompute_run(recompute_id=row.pk, task_id=me, worker=me,
                              report=Printer(self.stdout.write, label))  # fmt: skip
                row.refresh_from_db()
                if row.state == Recompute.FAILED:
                    failed.append(f"{label}: {row.error}")
                    self.stdout.write(f"{label}: failed: {row.error}")
                else:
                    computed += 1
                    self.stdout.write(f"{label}: {row.state} in {time.monotonic() - began:.1f} s")
                if wanted is not None and row.kind == "campaign":
                    # Its collection's leaderboards use the new mapping: compute them too.
                    campaign = PreferenceCampaign.objects.filter(pk=row.target_id).first()
                    if campaign is not None:
                        wanted.append(("collection", campaign.collection_id))
        if not computed and not failed:
            self.stdout.write("Nothing to compute.")
        else:
            self.stdout.write(
                f"{computed} computed, {len(failed)} failed, in {time.monotonic() - started:.1f} s"
            )
        if failed:
            raise CommandError("; ".join(failed))

    def _next(self, wanted, done) -> Recompute | None:
        """The next row to compute: the wanted targets in order, or any queued row."""
        if wanted is None:
            return (
                Recompute.objects.filter(state=Recompute.QUEUED)
                .exclude(pk__in=done)
                .order_by("kind", "pk")  # campaigns before the collections they update
                .first()
            )
        for kind, target_id in wanted:
            row = Recompute.objects.filter(kind=kind, target_id=target_id).first()
            if row is not None and row.pk not in done:
                return row
        return None
