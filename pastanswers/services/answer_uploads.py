"""What the background job of an upload of past preference answers runs: the documented
CSV, or a CrowdFlower export translated through its column mapping, into
:func:`~pastanswers.importers.answers.preference_answers_import` (registered with the upload
pages by :func:`ingest.kinds.upload_kind_register`)."""

from __future__ import annotations

import io
import re
import tempfile
from pathlib import Path

from common.files.csvfile import csv_records
from ingest.models import Upload
from ingest.services.upload_runners import upload_files, upload_progress, upload_runner
from pastanswers.importers.answers import AnswersImportError, preference_answers_import
from pastanswers.importers.crowdflower import ColumnMapping, TranslationError, answers_csv_write
from work.jobs import JobFailed
from work.progress import Report

ANSWERS_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<problem>.*)$", re.S)
"""How :class:`AnswersImportError` names the place: ``<file>:<line>: <problem>``."""


@upload_runner
def upload_answers_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """Past preference answers: the documented CSV, or a CrowdFlower export through its
    column mapping (:mod:`pastanswers.importers.crowdflower`) → ``preference_answers_import``."""
    (name,) = upload_files(upload, "answers")
    options = upload.options
    notes = []
    path = folder / name
    with tempfile.TemporaryFile(mode="w+b", dir=folder) as translated:
        if options.get("format") == "crowdflower":
            mapping = ColumnMapping.from_dict(options.get("mapping") or {})
            text = io.TextIOWrapper(translated, encoding="utf-8", newline="")
            try:
                with path.open("rb") as export:
                    done = answers_csv_write(csv_records(export, path=name), mapping, text)
            except TranslationError as error:
                raise JobFailed(error.message, file=name, line=error.line) from None
            text.flush()
            text.detach()
            translated.seek(0)
            notes.append(f"{done.answers:,} answer(s) translated from the CrowdFlower export.")
            notes += [f"{n:,} row(s) left out: {column} is true." for column, n in done.left_out.items()]  # fmt: skip
            stream = translated
        else:
            stream = path.open("rb")
        try:
            summary = preference_answers_import(
                collection=upload.collection,
                filename=name,
                stream=stream,
                campaign_name=options.get("campaign", ""),
                replace=bool(options.get("replace")),
                create_missing_clips=bool(options.get("create_missing_clips")),
                progress=upload_progress(report),
            )
        except AnswersImportError as error:
            found = ANSWERS_ERROR.match(error.messages[0])
            if found:
                raise JobFailed(
                    found["problem"], file=found["file"], line=int(found["line"])
                ) from None
            raise JobFailed(error.messages[0].removeprefix(f"{name}: "), file=name) from None
        finally:
            if stream is not translated:
                stream.close()
    return {
        "campaign": summary.campaign.pk,
        "campaign_name": summary.campaign.name,
        "counts": [
            ["answers", summary.rows],
            ["answers created", summary.answers_created],
            ["answers already there", summary.answers_present],
            ["examples created", summary.examples_created],
            ["workers created", summary.workers_created],
            ["clips created", summary.clips_created],
            ["queries created", summary.queries_created],
            ["judgments created", summary.judgments_created],
            ["judgments changed", summary.judgments_updated],
            ["judgments unchanged", summary.judgments_present],
        ],
        "notes": notes + list(summary.notes),
    }
