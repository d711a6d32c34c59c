from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from ingest.importers import runs_import
from ingest.importers.command import count_lines, import_failures_as_command_errors
from ingest.importers.runs import RUN_FORMATS


class Command(BaseCommand):
    help = (
        "Import systems' ranked lists into a collection from a TREC run file "
        "(qid Q0 docid rank score tag) or a ranked-list file (system query doc)."
    )

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("path", help="the run file")
        parser.add_argument("--format", choices=RUN_FORMATS, default="auto")
        parser.add_argument(
            "--create-missing-clips",
            action="store_true",
            help="create a bare clip for a document id the collection does not have",
        )
        parser.add_argument(
            "--create-missing-queries",
            action="store_true",
            help="make a query of a query id the collection does not have",
        )
        parser.add_argument(
            "--replace", action="store_true", help="replace stored ranked lists that differ"
        )

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = runs_import(
                collection=collection,
                path=options["path"],
                format=options["format"],
                create_missing_clips=options["create_missing_clips"],
                create_missing_queries=options["create_missing_queries"],
                replace=options["replace"],
            )
        self.stdout.write(
            f"Read {summary.lines:,} lines ({summary.format} format) into collection "
            f"'{collection.name}' (id {collection.pk}):"
        )
        for line in count_lines(
            [
                ("systems", summary.systems_created, summary.systems_present),
                ("ranked lists", summary.lists_created, summary.lists_present),
                ("run entries", summary.run_entries_created, summary.run_entries_present),
            ]
        ):
            self.stdout.write(line)
        if summary.queries_created or summary.clips_created:
            self.stdout.write(
                f"  also created {summary.queries_created:,} queries "
                f"and {summary.clips_created:,} clips"
            )
        if summary.lists_replaced:
            self.stdout.write(
                f"  replaced {summary.lists_replaced:,} ranked lists "
                f"({summary.run_entries_deleted:,} old entries)"
            )
