"""``manage.py seed_demo``: create the demo users and collection if they are missing."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from demo.plan import DEFAULT_SEED
from demo.seed import COLLECTION_NAME, DEMO_LOGINS, DemoCounts, demo_seed


def _describe(counts: DemoCounts) -> str:
    return ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in counts.items() if n)


class Command(BaseCommand):
    help = "Create the demo collection with generated audio and the demo logins (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--seed", type=int, default=DEFAULT_SEED, help="seed of a new demo's content"
        )
        parser.add_argument(
            "--no-audio", action="store_true", help="leave the clips without audio files"
        )

    def handle(self, *args, seed: int, no_audio: bool, **options):
        started = time.perf_counter()
        summary = demo_seed(seed=seed, audio=not no_audio)
        seconds = time.perf_counter() - started
        name = f'"{COLLECTION_NAME}" (collection {summary.collection_id})'
        if summary.created.anything:
            self.stdout.write(
                self.style.SUCCESS(f"Seeded the demo {name} in {seconds:.1f} s.")
                + f"\n  created: {_describe(summary.created)}"
            )
        else:
            self.stdout.write(
                f"The demo {name} was already there; nothing changed ({seconds:.1f} s)."
            )
        self.stdout.write(f"  holds:   {_describe(summary.total)}")
        self.stdout.write("Demo logins (local use only):")
        for role, username, password in DEMO_LOGINS:
            self.stdout.write(f"  {role:<10} {username} / {password}")
