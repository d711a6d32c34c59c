"""``manage.py uploads_clean [--days 7]``: delete uploaded files left waiting (run it daily).

A finished upload's files are deleted by its job; this deletes those of a CrowdFlower
export whose columns were never chosen and of a job the broker never received that
nobody sent again (:func:`ingest.services.uploads.uploads_clean`).
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand

from ingest.services.uploads import uploads_clean


class Command(BaseCommand):
    help = "Delete the files of uploads left waiting for more than --days days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=7, help="how long an upload may wait")

    def handle(self, *args, days, **options):
        removed = uploads_clean(older_than=timedelta(days=max(days, 0)))
        self.stdout.write(f"Deleted the files of {removed} upload(s) left waiting.")
