from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from ingest.importers import judgments_import
from ingest.importers.command import count_lines, import_failures_as_command_errors
from ingest.importers.judgments import JUDGMENT_FORMATS, SCALES


class Command(BaseCommand):
    help = (
        "Import relevance judgments into a collection from TREC qrels (qid iter docno rel) "
        "or 'query doc fine [broad]' lines."
    )

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("path", help="the judgments file")
        parser.add_argument("--format", choices=JUDGMENT_FORMATS, default="auto")
        parser.add_argument(
            "--scale",
            choices=SCALES,
            default=None,
            help="scale of the single relevance column (default: broad for qrels, "
            "fine for 'query doc fine')",
        )
        parser.add_argument(
            "--source",
            help="the judgment source to import into (default: the file's name); "
            "other sources are never touched",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="change judgments the source already holds (without it, the import stops "
            "and says what it would change)",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="check the file and say what the import would do, writing nothing",
        )
        parser.add_argument(
            "--create-missing-clips",
            action="store_true",
            help="create a bare clip for a document id the collection does not have",
        )
        parser.add_argument(
            "--create-missing-queries",
            action="store_true",
            help="make a query of a query id the collection does not have (without it, "
            "import the runs first: their query ids become queries)",
        )

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = judgments_import(
                collection=collection,
                path=options["path"],
                format=options["format"],
                scale=options["scale"],
                source=options["source"],
                create_missing_clips=options["create_missing_clips"],
                create_missing_queries=options["create_missing_queries"],
                replace=options["replace"],
                dry_run=options["dry_run"],
            )
        verb = "Would read" if summary.dry_run else "Read"
        new = " (a new source)" if summary.source_created else ""
        self.stdout.write(
            f"{verb} {summary.lines:,} judgments ({summary.format} format, {summary.scale} "
            f"scale) into source '{summary.source}'{new} of collection '{collection.name}' "
            f"(id {collection.pk}):"
        )
        for line in count_lines(
            [("judgments", summary.judgments_created, summary.judgments_present)]
        ):
            self.stdout.write(line)
        if summary.judgments_updated:
            self.stdout.write(f"  changed {summary.judgments_updated:,} judgments:")
            for change in summary.changes:
                self.stdout.write(f"    {change}")
        if summary.judgments_kept:
            self.stdout.write(
                f"  kept {summary.judgments_kept:,} judgments of the source that the file "
                "does not list"
            )
        if summary.dry_run:
            self.stdout.write("Nothing was written (--dry-run).")
        if summary.clips_created:
            self.stdout.write(f"  also created {summary.clips_created:,} clips")
        if summary.queries_created:
            n = summary.queries_created
            self.stdout.write(f"  also made {n:,} clip{'s' if n != 1 else ''} into queries")
