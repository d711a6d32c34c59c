from django.core.management.base import BaseCommand

from judging.importers import judgments_import
from judging.importers.command import (
    add_collection_argument,
    collection_from_argument,
    count_lines,
    import_failures_as_command_errors,
)
from judging.importers.judgments import JUDGMENT_FORMATS, SCALES


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
        parser.add_argument("--source", help="where they came from (default: import:<file name>)")
        parser.add_argument(
            "--create-missing-clips",
            action="store_true",
            help="create a bare clip for a document id the collection does not have",
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
            )
        self.stdout.write(
            f"Read {summary.lines:,} judgments ({summary.format} format, {summary.scale} "
            f"scale, source '{summary.source}') into collection '{collection.name}' "
            f"(id {collection.pk}):"
        )
        for line in count_lines(
            [("judgments", summary.judgments_created, summary.judgments_present)]
        ):
            self.stdout.write(line)
        if summary.judgments_updated:
            self.stdout.write(f"  updated {summary.judgments_updated:,} judgments")
        if summary.clips_created:
            self.stdout.write(f"  also created {summary.clips_created:,} clips")
