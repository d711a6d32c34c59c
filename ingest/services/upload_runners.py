"""What the background job of each kind of upload runs: the command line's importer.

Each runner reads ``job.params["upload"]``, calls the importer on the stored files with a
progress callback that writes the job's progress bar, and returns the counts the result
page shows (``{"counts": [[what, n], …], "notes": […]}``). Bad input fails the job with
the file, the line and the problem; the import's transaction rolled back, so nothing is
partly imported. The upload's files are deleted once its job has run (whatever the
outcome), except after a transient database error, when the job is retried.

Registered with :func:`work.kinds.kind_register` as ``upload_<kind>`` (:class:`ingest.apps.IngestConfig`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction

from catalog.models import JudgmentSource
from common.files.errors import ImportFailed
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from ingest.importers.audio_uploads import audio_file_check, zip_unpack
from ingest.importers.clips import AUDIO_SUFFIXES, clips_import
from ingest.importers.groups import GroupsImportSummary, groups_import, past_study_import
from ingest.importers.judgments import judgments_import
from ingest.importers.mirex import MIREX_FILES, mirex_import
from ingest.importers.runs import runs_read, runs_write
from ingest.models import Upload
from ingest.services.uploads import upload_discard, upload_folder
from work.jobs import JobFailed
from work.models import Job
from work.progress import Report

STEPS = 1000
"""The job's progress is counted in thousandths of the upload."""

Body = Callable[..., dict]


def upload_progress(report: Report, *, part: int = 0, parts: int = 1, start: float = 0.0):
    """An importer's ``progress(fraction, message)`` as the job's ``report`` (part of parts,
    in the share of the bar after ``start``)."""
    last = [round(start * STEPS)]

    def progress(fraction: float | None, message: str) -> None:
        if fraction is not None:
            share = (part + min(1.0, max(0.0, fraction))) / parts
            last[0] = round((start + (1 - start) * share) * STEPS)
        report(last[0], STEPS, message)

    return progress


def _counted(report: Report, *, part: int, parts: int, share: float, words: str):
    """``progress(n, total)`` of part ``part`` of ``parts`` in the first ``share`` of the bar,
    saying ``words`` (with ``{n}`` and ``{total}``): files unpacked, clips checked."""

    def progress(n: int, total: int) -> None:
        done = (part + n / max(total, 1)) / parts * share
        report(round(done * STEPS), STEPS, words.format(n=n + 1, total=total))

    return progress


def upload_runner(body: Body) -> Callable[..., dict]:
    """The runner of ``body(*, upload, folder, report) -> result``: finds the upload's files
    and deletes them once the job has run (kept for a retry after a transient error)."""

    @wraps(body)
    def run(*, job: Job, report: Report) -> dict:
        upload = Upload.objects.select_related("collection", "owner").get(pk=job.params["upload"])
        folder = upload_folder(upload)
        if not folder.is_dir():
            raise JobFailed("The uploaded files are no longer on the server; upload them again.")
        try:
            result = body(upload=upload, folder=folder, report=report)
        except DatabaseError:
            raise  # transient (job_runners.TRANSIENT_ERRORS): retried with the files
        except BaseException:
            upload_discard(upload=upload)
            raise
        upload_discard(upload=upload)
        return result

    return run


def upload_files(upload: Upload, role: str) -> list[str]:
    return [f["name"] for f in upload.files if f["role"] == role]


@upload_runner
def upload_clips_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """Audio files (and zips of them) with an optional metadata CSV/TSV → ``clips_import``."""
    audio = folder / "audio"
    audio.mkdir()
    metadata = [folder / name for name in upload_files(upload, "metadata")]
    zips = 0
    # Unpacking and checking the files come first: a tenth of the bar, with words.
    names = upload_files(upload, "audio")
    for part, name in enumerate(names):
        path = folder / name
        unpacking = _counted(report, part=part, parts=len(names), share=0.1,
                             words=f"unpacking {name}: file {{n:,}} of {{total:,}}")  # fmt: skip
        if path.suffix.lower() == ".zip":
            zips += 1
            for member in zip_unpack(
                path, audio,
                max_members=settings.EARSHOT_ZIP_MAX_MEMBERS,
                max_bytes=settings.EARSHOT_ZIP_MAX_BYTES, progress=unpacking,
            ):  # fmt: skip
                if member.suffix.lower() in AUDIO_SUFFIXES:
                    audio_file_check(member, shown=f"{name}: member {member.name}")
                elif metadata:
                    raise ImportFailed(name, None, f"{member.name}: a second metadata file")
                else:
                    metadata.append(member)
            path.unlink()
        else:
            audio_file_check(path)
            target = audio / name
            if target.exists():
                raise ImportFailed(name, None, "a second audio file of that name")
            path.rename(target)
    summary = clips_import(
        collection=upload.collection,
        folder=audio,
        metadata_csv=metadata[0] if metadata else None,
        progress=upload_progress(report, start=0.1),
    )
    return {
        "counts": [
            ["audio files", summary.audio_files],
            ["metadata rows", summary.metadata_rows],
            ["clips created", summary.clips_created],
            ["clips updated", summary.clips_updated],
            ["clips unchanged", summary.clips_present],
            ["audio files stored", summary.files_stored],
        ],
        "notes": [f"{zips} zip(s) unpacked."] if zips else [],
    }


@upload_runner
def upload_runs_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """One or more run files: each read and checked, then all written in one transaction."""
    names = upload_files(upload, "runs")
    options = upload.options
    totals: dict[str, int] = {}
    formats = []
    # Every file is read and checked first, outside any transaction (on SQLite a transaction
    # holds the one write lock from its start); then all are written in one transaction.
    reads = [
        runs_read(
            collection=upload.collection,
            path=folder / name,
            format=options.get("format", "auto"),
            create_missing_clips=bool(options.get("create_missing_clips")),
            create_missing_queries=bool(options.get("create_missing_queries")),
            progress=upload_progress(report, part=part, parts=len(names)),
        )
        for part, name in enumerate(names)
    ]
    with transaction.atomic():
        for name, read in zip(names, reads, strict=True):
            summary = runs_write(
                collection=upload.collection, read=read, replace=bool(options.get("replace")),
                progress=upload_progress(report),
            )  # fmt: skip
            formats.append(f"{name}: {summary.format}")
            for what in ("systems_created", "systems_present", "queries_created",
                         "clips_created", "lists_created", "lists_present", "lists_replaced",
                         "run_entries_created", "run_entries_present", "run_entries_deleted"):  # fmt: skip
                totals[what] = totals.get(what, 0) + getattr(summary, what)
    return {
        "counts": [[what.replace("_", " "), n] for what, n in totals.items()],
        "notes": [f"Format of {', '.join(formats)}."],
    }


@upload_runner
def upload_judgments_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """A qrels or ``query doc fine [broad]`` file → ``judgments_import`` into a named source."""
    (name,) = upload_files(upload, "judgments")
    options = upload.options
    # No transaction around it: the importer reads the file before its own (on SQLite a
    # transaction holds the one write lock from its start); a new source is made with its
    # status in that transaction.
    summary = judgments_import(
        collection=upload.collection,
        path=folder / name,
        name=name,  # the organiser's file, not the server's folder, names the source's origin
        format=options.get("format", "auto"),
        scale=options.get("scale") or None,
        source=options.get("source") or None,
        create_missing_clips=bool(options.get("create_missing_clips")),
        create_missing_queries=bool(options.get("create_missing_queries")),
        replace=bool(options.get("replace")),
        progress=upload_progress(report),
        new_source_status=options.get("status") or None,
    )
    source = upload.collection.judgment_sources.get(name=summary.source)
    notes = [
        f"Format {summary.format}, scale {summary.scale}; source “{summary.source}” "
        f"({'new' if summary.source_created else 'already there'}, "
        f"{'counts in results' if source.status == JudgmentSource.OFFICIAL else 'pilot: left out of results'})."
    ]
    if summary.changes:
        notes.append("Changed: " + "; ".join(summary.changes))
    return {
        "counts": [
            ["lines", summary.lines],
            ["judgments created", summary.judgments_created],
            ["judgments changed", summary.judgments_updated],
            ["judgments unchanged", summary.judgments_present],
            ["judgments of the source not in the file (kept)", summary.judgments_kept],
            ["clips created", summary.clips_created],
            ["queries created", summary.queries_created],
        ],
        "notes": notes,
    }


@upload_runner
def upload_mirex_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """runs.tsv, judgments.tsv and metadata.tsv (or a zip of them) → ``mirex_import``."""
    bundle = upload_files(upload, "bundle")
    if bundle:
        unpacked = folder / "bundle"
        unpacked.mkdir()
        zip_unpack(
            folder / bundle[0], unpacked, allowed=(".tsv",),
            max_members=settings.EARSHOT_ZIP_MAX_MEMBERS,
            max_bytes=settings.EARSHOT_ZIP_MAX_BYTES,
        )  # fmt: skip
        missing = [name for name in MIREX_FILES if not (unpacked / name).is_file()]
        if missing:
            raise ImportFailed(bundle[0], None, f"no {', '.join(missing)} in the zip")
        folder = unpacked
    summary = mirex_import(
        folder=folder, collection=upload.collection, progress=upload_progress(report), uploaded=True
    )
    return {
        "counts": [
            ["clips created", summary.clips_created],
            ["clips already there", summary.clips_present],
            ["clips with artist and genre", summary.clips_with_artist_and_genre],
            ["queries created", summary.queries_created],
            ["queries already there", summary.queries_present],
            ["systems created", summary.systems_created],
            ["systems already there", summary.systems_present],
            ["run entries created", summary.run_entries_created],
            ["run entries unchanged", summary.run_entries_present],
            ["judgments created", summary.judgments_created],
            ["judgments changed", summary.judgments_updated],
            ["judgments unchanged", summary.judgments_present],
            ["clips whose metadata changed", summary.metadata_updated],
        ],
        "notes": [f"Runs read as {summary.runs_format}, judgments as {summary.judgments_format}."],
    }


def _groups_result(summary: GroupsImportSummary) -> dict:
    counted = (
        "counts in results"
        if summary.status == JudgmentSource.OFFICIAL
        else "pilot: left out of results"
    )
    return {
        "counts": [
            ["queries with new groups", summary.queries_created],
            ["queries whose groups changed", summary.queries_replaced],
            ["queries unchanged", summary.queries_unchanged],
            ["queries of the source not in the file (kept)", summary.queries_kept],
            ["clips placed in groups", summary.clips_written],
        ],
        "notes": [f"Source “{name}” ({counted})." for name in summary.sources],
    }


@upload_runner
def upload_groups_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """A groups file ``NAME QUERY DOC GROUP`` → ``groups_import``."""
    (name,) = upload_files(upload, "groups")
    options = upload.options
    summary = groups_import(
        collection=upload.collection, path=folder / name, name=name,
        source=options.get("source") or None, status=options.get("status") or None,
        replace=bool(options.get("replace")), progress=upload_progress(report),
    )  # fmt: skip
    return _groups_result(summary)


@upload_runner
def upload_pairwise_run(*, upload: Upload, folder: Path, report: Report) -> dict:
    """A past pairwise study's answers CSV → ``past_study_import`` (its groups by QuickSort)."""
    (name,) = upload_files(upload, "answers")
    options = upload.options
    summary = past_study_import(
        collection=upload.collection, path=folder / name, name=name,
        source=options.get("source") or None,
        status=options.get("status") or JudgmentSource.PILOT,
        margin=int(options.get("margin") or DEFAULT_MARGIN),
        replace=bool(options.get("replace")), progress=upload_progress(report),
    )  # fmt: skip
    result = _groups_result(summary)
    result["counts"][:0] = [["answers read", summary.answers],
                            ["answers of rejected assignments (left out)", summary.rejected]]  # fmt: skip
    return result


UPLOAD_RUNNERS = (
    (Upload.CLIPS, upload_clips_run),
    (Upload.RUNS, upload_runs_run),
    (Upload.JUDGMENTS, upload_judgments_run),
    (Upload.GROUPS, upload_groups_run),
    (Upload.PAIRWISE, upload_pairwise_run),
    (Upload.MIREX, upload_mirex_run),
)
"""Ingest's own kinds of upload and what imports each: :class:`ingest.apps.IngestConfig`
registers each as the kind of background work ``upload_<kind>``
(:func:`work.kinds.kind_register`), the one registry of runners."""
