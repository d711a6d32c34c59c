"""Clips from a folder of audio files, with an optional metadata CSV."""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.db import transaction

from catalog.models import Clip, Collection
from common.files.csvfile import csv_records
from common.files.errors import ImportFailed
from common.files.inputs import Progress, check_has_data_lines, no_progress
from common.validation import column_length
from ingest.importers.index import BATCH_SIZE, check_field, check_id
from listening.loudness import AudioUnreadable, Loudness, loudness_measure
from listening.services.listening_copies import (
    HEARD_FIELDS,
    PreparedCopy,
    clip_limits,
    listening_copy_prepare,
    listening_copy_store,
)

AUDIO_SUFFIXES: tuple[str, ...] = (".wav", ".mp3", ".ogg", ".flac")
CSV_COLUMNS: tuple[str, ...] = ("id", "title", "artist", "genre")
METADATA_FIELDS: tuple[str, ...] = ("title", "artist", "genre")
MAX_LENGTHS = {name: column_length(Clip, name) for name in METADATA_FIELDS}


@dataclass(frozen=True)
class ClipsImportSummary:
    """What a clip import found and wrote."""

    audio_files: int
    metadata_rows: int
    clips_created: int
    clips_updated: int
    clips_present: int
    files_stored: int


def audio_files_find(folder: Path) -> dict[str, Path]:
    """The folder's audio files (top level only) by external id, i.e. file stem."""
    if not folder.is_dir():
        raise ImportFailed(folder, None, "no such folder")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.suffix.lower() not in AUDIO_SUFFIXES:
            continue
        if path.stem in found:
            raise ImportFailed(
                folder,
                None,
                f"two audio files for clip '{path.stem}': {found[path.stem].name}, {path.name}",
            )
        check_id(path, None, "the clip id (the file name without its extension)", path.stem)
        found[path.stem] = path
    return found


def _measured(path: Path) -> Loudness:
    """Length and loudness of an audio file (:func:`listening.loudness.loudness_measure`),
    within the clip limits: its size first, then its header's channels, sample rate and
    length before a sample is decoded, then decoded block by block; a file that cannot be
    decoded or is beyond a limit stops the import by its name (a RIFF/WAVE header
    followed by garbage once failed as "an unexpected error"; a 59 KB FLAC of 208 s of
    five-channel silence once took the worker to 3.6 GB)."""
    clip_size_check(path)
    try:
        return loudness_measure(path, limits=clip_limits())
    except AudioUnreadable as problem:
        raise ImportFailed(path.name, None, str(problem)) from None


def clip_size_check(path: Path) -> None:
    """Stop at a clip larger than a clip may be (``EARSHOT_CLIP_MAX_MB``; the defaults leave
    room for 30-second study clips)."""
    size, max_bytes = path.stat().st_size, settings.EARSHOT_CLIP_MAX_BYTES
    if size > max_bytes:
        raise ImportFailed(
            path.name, None,
            f"{size / 2**20:,.1f} MB: a clip may have at most {max_bytes / 2**20:,.1f} MB",
        )  # fmt: skip


def metadata_csv_read(path: Path) -> dict[str, dict[str, str]]:
    """``id,title,artist,genre`` rows (a header row first; any columns but ``id`` may be
    left out, in any order) → {id: {column: value}}. Blank rows and rows starting with
    ``#`` are skipped. A ``.tsv`` file is read with tabs between the cells."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise ImportFailed(path, None, "no such file") from None
    except OSError as error:
        raise ImportFailed(path, None, f"cannot be read ({error.strerror})") from None
    rows: dict[str, dict[str, str]] = {}
    first_line: dict[str, int] = {}
    header: list[str] | None = None
    with handle:
        delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
        for line, cells in csv_records(handle, path=path, delimiter=delimiter):
            if not any(cell.strip() for cell in cells) or cells[0].lstrip().startswith("#"):
                continue
            cells = [cell.strip() for cell in cells]
            if header is None:
                header = [cell.lower() for cell in cells]
                unknown = [name for name in header if name not in CSV_COLUMNS]
                if unknown or "id" not in header or len(set(header)) != len(header):
                    raise ImportFailed(
                        path,
                        line,
                        f"the header must name the columns {', '.join(CSV_COLUMNS)} "
                        f"(id required, each at most once), found: {', '.join(cells)}",
                    )
                continue
            if len(cells) != len(header):
                raise ImportFailed(path, line, f"expected {len(header)} cells, found {len(cells)}")
            values = dict(zip(header, cells, strict=True))
            clip_id = values.pop("id")
            if not clip_id:
                raise ImportFailed(path, line, "empty id")
            check_id(path, line, "id", clip_id)
            for name, value in values.items():
                if value:
                    check_field(path, line, name, value, kind="name", max_length=MAX_LENGTHS[name])
            if clip_id in rows:
                raise ImportFailed(
                    path, line, f"duplicate id '{clip_id}' (first on line {first_line[clip_id]})"
                )
            rows[clip_id] = values
            first_line[clip_id] = line
    check_has_data_lines(path, len(rows))  # no header row either: no data lines
    return rows


def _same_content(clip: Clip, path: Path) -> bool:
    """Whether the clip's stored audio file holds exactly the bytes of ``path``."""
    if not clip.audio:
        return False
    storage = clip.audio.storage
    if not storage.exists(clip.audio.name) or storage.size(clip.audio.name) != path.stat().st_size:
        return False
    stored, local = hashlib.sha256(), hashlib.sha256()
    with storage.open(clip.audio.name, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            stored.update(chunk)
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            local.update(chunk)
    return stored.digest() == local.digest()


def clips_import(
    *,
    collection: Collection,
    folder: str | Path,
    metadata_csv: str | Path | None = None,
    progress: Progress = no_progress,
) -> ClipsImportSummary:
    """Make every audio file of ``folder`` a clip of ``collection``, all or nothing.

    Audio files are the top-level ``.wav``, ``.mp3``, ``.ogg`` and ``.flac`` files (any
    case); the file stem is the clip's external id, and two files with one stem stop the
    import. The file is stored through Django's storage in the clip's ``audio`` field;
    it is decoded once to read its duration and loudness (:mod:`listening.loudness`), and a
    file that cannot be decoded, or is larger or longer than a clip may be, stops the
    import by its name. When the collection asks for it, the copy listeners hear (equal
    loudness, an excerpt) is made beside it (:mod:`listening.services.listening_copies`).

    ``metadata_csv`` (optional): a CSV file with a header row naming the columns
    ``id,title,artist,genre`` (``id`` required); each row sets those columns of the clip
    with that external id, which must be an audio file of the folder or a clip already
    in the collection.

    A clip whose metadata, duration and stored audio bytes already match is left
    untouched, so importing the same folder twice changes nothing; changed audio
    replaces the stored file (the old file is deleted once the transaction commits).
    Files stored before a failure inside this import are deleted again; a failure in an
    enclosing transaction leaves them behind as orphans. ``progress`` hears the share
    of the clips read ("clip 12 of 60"), then "storing".
    """
    folder = Path(folder)
    files = audio_files_find(folder)
    metadata = metadata_csv_read(Path(metadata_csv)) if metadata_csv is not None else {}
    with tempfile.TemporaryDirectory(prefix="earshot-copies-") as copies:
        prepared, unchanged = _prepare(collection, files, Path(copies), progress)
        progress(1.0, f"storing {len(files.keys() | metadata.keys()):,} clips")
        return _store(collection, folder, files, metadata, metadata_csv, prepared, unchanged)


def _prepare(
    collection: Collection, files: dict[str, Path], copies: Path, progress: Progress
) -> tuple[dict[str, tuple[Loudness, PreparedCopy | None]], dict[str, str]]:
    """The slow part of an import, before its transaction (whose writes nobody sees until it
    commits, the job's progress included: a zip of 60 clips showed "starting" throughout,
    issue 31): each new or changed file decoded once for its length and loudness, and the
    copy listeners hear written to ``copies``; "clip 12 of 60" as it goes. Also the stored
    audio file found identical to each unchanged file, by clip id."""
    stored = {
        clip.external_id: clip
        for clip in Clip.objects.filter(collection=collection, external_id__in=files.keys())
    }
    prepared, unchanged = {}, {}
    for number, (external_id, path) in enumerate(sorted(files.items())):
        progress(number / len(files), f"clip {number + 1:,} of {len(files):,}: reading its audio")
        clip = stored.get(external_id)
        if clip is not None and _same_content(clip, path):
            unchanged[external_id] = clip.audio.name
            continue
        measured = _measured(path)
        try:
            copy = listening_copy_prepare(collection=collection, source=path, folder=copies)
        except AudioUnreadable as problem:
            raise ImportFailed(path.name, None, str(problem)) from None
        prepared[external_id] = (measured, copy)
    return prepared, unchanged


def _store(
    collection, folder, files, metadata, metadata_csv, prepared, unchanged
) -> ClipsImportSummary:
    """Write the clips, all or nothing (see :func:`clips_import`), with what
    :func:`_prepare` measured and made (a clip whose stored file changed since is compared
    and read again)."""
    written: list[tuple[object, str]] = []
    try:
        with transaction.atomic():
            existing = {
                clip.external_id: clip
                for clip in Clip.objects.filter(
                    collection=collection, external_id__in=files.keys() | metadata.keys()
                )
            }
            unknown = sorted(metadata.keys() - files.keys() - existing.keys())
            if unknown:
                raise ImportFailed(
                    metadata_csv,
                    None,
                    f"unknown clip '{unknown[0]}': no audio file of that name in "
                    f"{folder.name or folder} and no such clip in collection '{collection.name}'",
                )
            created: list[Clip] = []
            updated: list[Clip] = []
            present = 0
            stored = 0
            for external_id in sorted(files.keys() | metadata.keys()):
                clip = existing.get(external_id)
                is_new = clip is None
                if is_new:
                    clip = Clip(collection=collection, external_id=external_id)
                changed = False
                for name, value in metadata.get(external_id, {}).items():
                    if getattr(clip, name) != value:
                        setattr(clip, name, value)
                        changed = True
                path = files.get(external_id)
                same = external_id in unchanged and unchanged[external_id] == clip.audio.name
                if path is not None and not same and not _same_content(clip, path):
                    measured, copy = prepared.get(external_id) or (_measured(path), None)
                    clip.duration, clip.loudness = measured.duration, measured.lufs
                    clip.true_peak = measured.true_peak_db
                    old_names = [clip.audio.name] if clip.audio else []
                    with path.open("rb") as handle:
                        clip.audio.save(path.name, File(handle), save=False)
                    written.append((clip.audio.storage, clip.audio.name))
                    old_names.append(
                        listening_copy_store(
                            clip=clip, collection=collection, source=path, prepared=copy
                        )
                    )
                    if clip.listening_audio:
                        written.append((clip.listening_audio.storage, clip.listening_audio.name))
                    for old_name in filter(None, old_names):
                        storage = clip.audio.storage
                        transaction.on_commit(
                            lambda storage=storage, name=old_name: storage.delete(name)
                        )
                    stored += 1
                    changed = True
                if is_new:
                    created.append(clip)
                elif changed:
                    updated.append(clip)
                else:
                    present += 1
            Clip.objects.bulk_create(created, batch_size=BATCH_SIZE)
            Clip.objects.bulk_update(
                updated,
                [*METADATA_FIELDS, "duration", "audio", "loudness", "true_peak", *HEARD_FIELDS],
                batch_size=BATCH_SIZE,
            )
    except BaseException:
        for storage, name in written:
            storage.delete(name)
        raise

    return ClipsImportSummary(
        audio_files=len(files),
        metadata_rows=len(metadata),
        clips_created=len(created),
        clips_updated=len(updated),
        clips_present=present,
        files_stored=stored,
    )
