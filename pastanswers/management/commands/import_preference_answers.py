"""``manage.py import_preference_answers COLLECTION FILE [--campaign NAME]``.

Imports preference answers collected elsewhere into a campaign of the collection, as
accepted answers; see ``docs/preference-answers-import.md``. All or nothing: a bad
line stops the import with ``FILE:LINE: what`` and exit status 1.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from catalog.commands import add_collection_argument, collection_from_argument
from pastanswers.importers.answers import preference_answers_import


class Command(BaseCommand):
    help = "Import preference answers collected elsewhere (CSV) into a campaign, as accepted."

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("file", type=Path, help="the CSV file of answers")
        parser.add_argument(
            "--campaign", default="", help="campaign name (default: 'Imported: <file name>')"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="change judgments an earlier import of this campaign stored differently",
        )
        parser.add_argument(
            "--create-missing-clips",
            action="store_true",
            help="create (without audio) the clips the answers name that the collection lacks",
        )

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        path: Path = options["file"]
        try:
            with path.open("rb") as stream:  # read a record at a time, never whole
                report = preference_answers_import(
                    collection=collection, stream=stream, filename=str(path),
                    campaign_name=options["campaign"], replace=options["replace"],
                    create_missing_clips=options["create_missing_clips"],
                )  # fmt: skip
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}") from error
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        campaign = report.campaign
        self.stdout.write(
            f"{'Created' if report.campaign_created else 'Added to'} campaign "
            f"{campaign.name!r} (id {campaign.pk}) of {collection.name!r}: "
            f"{report.answers_created} answers imported, {report.answers_present} already present, "
            f"{report.examples_created} new examples, {report.workers_created} new workers, "
            f"{report.clips_created} new clips, {report.queries_created} new queries, "
            f"{report.judgments_created} judgments created "
            f"and {report.judgments_updated} updated. The mapping is recomputed in the background."
        )
