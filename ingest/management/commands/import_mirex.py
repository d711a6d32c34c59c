import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from common.roles import ORGANISER, grant_role
from common.usernames import user_named
from ingest.importers import mirex_import
from ingest.importers.command import count_lines, import_failures_as_command_errors

DEFAULT_OWNER = "organiser"


class Command(BaseCommand):
    help = (
        "Import a MIREX Audio Music Similarity folder (runs.tsv, judgments.tsv, "
        "metadata.tsv) as one collection, and print what it created."
    )

    def add_arguments(self, parser):
        parser.add_argument("folder", help="e.g. ../shared/data/mirex2011-ams")
        parser.add_argument(
            "--owner",
            help=f"username of the collection's owner (default: '{DEFAULT_OWNER}', "
            "created with the organiser role when missing)",
        )
        parser.add_argument("--name", help="the collection's name (default: the folder's)")

    def handle(self, *args, **options):
        users = get_user_model()
        if options["owner"]:
            owner = user_named(options["owner"])
            if owner is None:
                raise CommandError(f"no user '{options['owner']}'")
        else:
            owner, created = users.objects.get_or_create(username=DEFAULT_OWNER)
            if created:
                owner.set_unusable_password()
                owner.save(update_fields=["password"])
            grant_role(owner, ORGANISER)
        started = time.perf_counter()
        with import_failures_as_command_errors():
            summary = mirex_import(owner=owner, folder=options["folder"], name=options["name"])
        seconds = time.perf_counter() - started
        state = "new" if summary.collection_created else "existing"
        self.stdout.write(
            f"Collection '{summary.collection_name}' (id {summary.collection_id}, {state}, "
            f"owner {owner.get_username()}): runs.tsv in {summary.runs_format} format, "
            f"judgments.tsv in {summary.judgments_format} format, {seconds:.1f} s"
        )
        for line in count_lines(
            [
                ("clips", summary.clips_created, summary.clips_present),
                ("queries", summary.queries_created, summary.queries_present),
                ("systems", summary.systems_created, summary.systems_present),
                ("run entries", summary.run_entries_created, summary.run_entries_present),
                ("judgments", summary.judgments_created, summary.judgments_present),
            ]
        ):
            self.stdout.write(line)
        self.stdout.write(
            f"  {summary.clips_with_artist_and_genre:,} clips have an artist and a genre"
        )
        if summary.judgments_updated or summary.metadata_updated:
            self.stdout.write(
                f"  updated {summary.judgments_updated:,} judgments and "
                f"{summary.metadata_updated:,} clips' metadata"
            )
        if not summary.created_anything:
            self.stdout.write("Nothing new: everything was already imported.")
