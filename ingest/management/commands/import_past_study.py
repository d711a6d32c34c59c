from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from catalog.models import JudgmentSource
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from ingest.importers.command import import_failures_as_command_errors
from ingest.importers.groups import past_study_import
from ingest.management.commands.import_groups import report


class Command(BaseCommand):
    help = (
        "Import a past pairwise preference study (a CSV of query, doc A, doc B, answer, "
        "worker; Mechanical Turk's batch results as they are) as ordered groups, by the "
        "three-way QuickSort of Urbano et al. (2010); a pilot source unless --status official."
    )

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("path", help="the answers CSV")
        parser.add_argument("--source", help="the source to import into (default: the file's name)")
        parser.add_argument(
            "--margin", type=int, default=DEFAULT_MARGIN,
            help=f"votes one candidate needs over the other to go above it (default {DEFAULT_MARGIN})",
        )  # fmt: skip
        parser.add_argument(
            "--status", choices=dict(JudgmentSource.STATUSES), default=JudgmentSource.PILOT,
            help="of a new source: pilot (left out of results, the default) or official",
        )  # fmt: skip
        parser.add_argument(
            "--replace", action="store_true", help="change groups the source already holds"
        )

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = past_study_import(
                collection=collection, path=options["path"], source=options["source"],
                status=options["status"], margin=options["margin"], replace=options["replace"],
            )  # fmt: skip
        self.stdout.write(
            f"{summary.answers:,} answers read ({summary.rejected:,} of rejected assignments "
            "left out)."
        )
        report(self.stdout, summary, collection)
