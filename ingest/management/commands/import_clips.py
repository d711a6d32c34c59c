from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from ingest.importers import clips_import
from ingest.importers.command import import_failures_as_command_errors


class Command(BaseCommand):
    help = (
        "Make every audio file (wav, mp3, ogg, flac) of a folder a clip of a collection, "
        "with an optional metadata CSV (id,title,artist,genre)."
    )

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("folder", help="the folder of audio files")
        parser.add_argument("--metadata", help="CSV with a header row: id,title,artist,genre")

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = clips_import(
                collection=collection,
                folder=options["folder"],
                metadata_csv=options["metadata"],
            )
        self.stdout.write(
            f"Read {summary.audio_files:,} audio files and {summary.metadata_rows:,} metadata "
            f"rows into collection '{collection.name}' (id {collection.pk}): "
            f"{summary.clips_created:,} clips created, {summary.clips_updated:,} updated, "
            f"{summary.clips_present:,} already up to date; {summary.files_stored:,} files stored"
        )
