from django.core.management.base import BaseCommand

from catalog.commands import add_collection_argument, collection_from_argument
from catalog.models import JudgmentSource
from ingest.importers.command import import_failures_as_command_errors
from ingest.importers.groups import groups_import


class Command(BaseCommand):
    help = (
        "Import a ground truth of ordered groups into a collection from 'NAME QUERY DOC GROUP' "
        "lines (group 1 the most similar); each NAME is a judgment source."
    )

    def add_arguments(self, parser):
        add_collection_argument(parser)
        parser.add_argument("path", help="the groups file")
        parser.add_argument(
            "--source", help="the source to import into (default: the NAME of the file's lines)"
        )
        parser.add_argument(
            "--status", choices=dict(JudgmentSource.STATUSES), default=None,
            help="of a new source: official (counts in results, the default) or pilot",
        )  # fmt: skip
        parser.add_argument(
            "--replace", action="store_true",
            help="change groups the source already holds for a query (without it, the import "
            "stops and names the queries)",
        )  # fmt: skip

    def handle(self, *args, **options):
        collection = collection_from_argument(options["collection"])
        with import_failures_as_command_errors():
            summary = groups_import(
                collection=collection, path=options["path"], source=options["source"],
                status=options["status"], replace=options["replace"],
            )  # fmt: skip
        report(self.stdout, summary, collection)


def report(stdout, summary, collection) -> None:
    """The counts of a groups import, as ``import_groups`` and ``import_past_study`` print them."""
    sources = ", ".join(f"'{name}'" for name in summary.sources)
    stdout.write(
        f"Read {summary.lines:,} lines into source {sources} ({summary.status}) of collection "
        f"'{collection.name}' (id {collection.pk}):"
    )
    stdout.write(f"  queries with new groups      {summary.queries_created:>8,}")
    stdout.write(f"  queries whose groups changed {summary.queries_replaced:>8,}")
    stdout.write(f"  queries unchanged            {summary.queries_unchanged:>8,}")
    stdout.write(f"  queries kept (not in file)   {summary.queries_kept:>8,}")
    stdout.write(f"  clips placed in groups       {summary.clips_written:>8,}")
