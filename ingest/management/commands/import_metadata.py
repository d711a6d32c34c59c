from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from ingest.importers import metadata_import
from ingest.importers.command import import_failures_as_command_errors


class Command(BaseCommand):
    help = "Set clips' artist and genre from 'doc artist genre' lines."

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("path", help="the metadata file")
        parser.add_argument(
            "--create-missing-clips",
            action="store_true",
            help="create a clip for a document id the collection does not have",
        )

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = metadata_import(
                collection=collection,
                path=options["path"],
                create_missing_clips=options["create_missing_clips"],
            )
        self.stdout.write(
            f"Read {summary.lines:,} lines into collection '{collection.name}' "
            f"(id {collection.pk}): {summary.clips_created:,} clips created, "
            f"{summary.clips_updated:,} updated, {summary.clips_present:,} already up to date"
        )
