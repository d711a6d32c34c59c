"""The column-mapping step of a CrowdFlower export upload: read its columns, propose a
mapping (remembered, or guessed), remember the organiser's choice per campaign.

The translation itself is pure Python in :mod:`pastanswers.importers.crowdflower`.
"""

from __future__ import annotations

from itertools import islice

from common.files.csvfile import csv_records
from common.files.errors import ImportFailed
from ingest.models import AnswerColumnMapping, Upload
from ingest.services.uploads import UploadRefused, upload_folder
from pastanswers.importers.crowdflower import (
    MAX_VALUES,
    ColumnMapping,
    MappingError,
    mapping_propose,
)

SAMPLE_ROWS = 5000
"""Rows read for the answer values and the examples the mapping page shows."""


def _path(upload: Upload):
    (name,) = [f["name"] for f in upload.files if f["role"] == "answers"]
    return upload_folder(upload) / name, name


def export_columns(*, upload: Upload) -> tuple[list[str], list[list[str]]]:
    """The export's header and its first rows (at most :data:`SAMPLE_ROWS`)."""
    path, name = _path(upload)
    try:
        with path.open("rb") as handle:
            records = csv_records(handle, path=name)
            first = next(records, None)
            if first is None:
                raise UploadRefused(f"{name} is empty: no header row.")
            rows = [cells for _, cells in islice(records, SAMPLE_ROWS)]
    except ImportFailed as error:
        raise UploadRefused(str(error)) from None
    except FileNotFoundError:
        raise UploadRefused(
            "The uploaded file is no longer on the server; upload it again."
        ) from None
    return [h.strip() for h in first[1]], rows


def answer_values(header: list[str], rows: list[list[str]], column: str) -> list[str]:
    """The distinct values of ``column`` in ``rows`` (at most :data:`MAX_VALUES`), in order."""
    if column not in header:
        return []
    at = header.index(column)
    found = dict.fromkeys(row[at].strip() for row in rows if len(row) > at and row[at].strip())
    return list(found)[:MAX_VALUES]


def campaign_name_of(upload: Upload) -> str:
    _, name = _path(upload)
    return upload.options.get("campaign") or f"Imported: {name}"[:200]


def answer_mapping_proposal(
    *, upload: Upload, header: list[str], rows: list[list[str]]
) -> ColumnMapping:
    """The mapping this organiser chose for this campaign, else for an export with the same
    columns, else a guess (:func:`~pastanswers.importers.crowdflower.mapping_propose`)."""
    mine = AnswerColumnMapping.objects.filter(owner=upload.owner)
    remembered = (
        mine.filter(collection=upload.collection, campaign_name=campaign_name_of(upload)).first()
        or mine.filter(header=header).first()
    )
    if remembered is not None:
        mapping = ColumnMapping.from_dict(remembered.mapping)
        values = answer_values(header, rows, mapping.answer)
        guess = mapping_propose(header, values).answer_values
        mapping.answer_values = {
            v: mapping.answer_values.get(v) or guess.get(v, "") for v in values
        }
        return mapping
    proposal = mapping_propose(header)
    return mapping_propose(header, answer_values(header, rows, proposal.answer))


def answer_mapping_remember(*, upload: Upload, header: list[str], mapping: ColumnMapping) -> None:
    """Remember ``mapping`` for the upload's organiser, collection and campaign."""
    AnswerColumnMapping.objects.update_or_create(
        owner=upload.owner,
        collection=upload.collection,
        campaign_name=campaign_name_of(upload),
        defaults={"header": header, "mapping": mapping.to_dict()},
    )


def answer_mapping_for_api(*, upload: Upload, given: dict | None) -> ColumnMapping:
    """The mapping an API upload of a CrowdFlower export uses: ``given`` (checked against
    the file's columns), else the proposal; :class:`UploadRefused` (400) with every problem
    when it cannot translate the file."""
    header, rows = export_columns(upload=upload)
    try:
        if given is None:
            mapping = answer_mapping_proposal(upload=upload, header=header, rows=rows)
        else:
            mapping = ColumnMapping.from_dict(given)
        mapping.check(header)
        unmapped = [v for v in answer_values(header, rows, mapping.answer)
                    if not mapping.answer_values.get(v)]  # fmt: skip
        if unmapped:
            raise MappingError([f"say what the answer(s) {', '.join(unmapped[:10])} mean"])
    except MappingError as error:
        raise UploadRefused(
            f"The column mapping does not fit the file: {error}. See the proposal of "
            "POST …/uploads/answers/columns/."
        ) from None
    answer_mapping_remember(upload=upload, header=header, mapping=mapping)
    return mapping
