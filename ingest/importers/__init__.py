"""Importers: services that read test-collection files into judging's models.

Every service is keyword-only, runs in one transaction (all or nothing), leaves
unchanged rows untouched (so the same file imported twice changes nothing), and raises
:class:`ImportFailed` naming the file, the line and the problem on bad input. The
management commands ``import_*`` and later the REST API call them.
"""

from common.files.errors import ImportFailed
from common.files.rows import Row, read_rows
from ingest.importers.clips import ClipsImportSummary, clips_import
from ingest.importers.judgments import JudgmentsImportSummary, judgments_import
from ingest.importers.metadata import MetadataImportSummary, metadata_import
from ingest.importers.mirex import ImportSummary, mirex_import
from ingest.importers.runs import RunsImportSummary, runs_import

__all__ = [
    "ClipsImportSummary",
    "ImportFailed",
    "ImportSummary",
    "JudgmentsImportSummary",
    "MetadataImportSummary",
    "Row",
    "RunsImportSummary",
    "clips_import",
    "judgments_import",
    "metadata_import",
    "mirex_import",
    "read_rows",
    "runs_import",
]
