"""Uploads with progress: files from the browser or the API, imported by a background job.

An upload runs the importer the command line runs (:mod:`ingest.importers`), all or
nothing and idempotent, in the background job mechanism (:mod:`work.jobs`)::

    page or API ──upload_create──▶ Upload (files stored under EARSHOT_UPLOAD_ROOT/<folder>/)
               ──upload_start───▶ Job "upload_<kind>" (key: the collection and the files' digest)
    Celery judging.job_run ──▶ ingest.services.upload_runners.<kind> ──▶ the importer
                                       └─ the files are deleted once the job has run

Limits, stated on every upload page (:func:`upload_limits`) and enforced here: the
bytes of one request (413, before it is read), files per upload, the extension of each
file, the bytes of a text file; the importers stop at their stated ``MAX_LINES`` (and
1 MiB a line); a zip stops at :data:`~config.settings.EARSHOT_ZIP_MAX_MEMBERS` members
and :data:`~config.settings.EARSHOT_ZIP_MAX_BYTES` unpacked bytes
(:mod:`ingest.importers.audio_uploads`).

Double submits start nothing twice: the same files with the same options into the same
collection while their job is queued or running get that job; once it has run, the
same upload again imports again, and the importers find everything unchanged.

A broker that cannot be reached fails the job with :data:`~work.jobs.NOT_SENT`
and keeps its files: :func:`work.jobs.job_retry` sends it again later.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import shutil
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path, PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from catalog.models import Collection
from ingest.importers import groups, judgments, runs
from ingest.importers.audio_uploads import AUDIO_SUFFIXES, METADATA_SUFFIXES
from ingest.models import Upload
from listening.loudness import AudioUnreadable, audio_header_check
from work.jobs import job_start
from work.models import Job
from work.queues import HEAVY, INTERACTIVE

TEXT_SUFFIXES = (".tsv", ".txt", ".csv", ".trec", ".qrels", ".qrel", ".run", ".res", "")
"""Extensions accepted for runs and judgments: the names the field gives them (TREC runs
``.trec``, ``.run``, ``.res``, qrels ``.qrels``; often none). The format is read from the
content (:mod:`common.files.rows`), never from the name."""
SLACK = 64 * 1024
"""Bytes a multipart request carries beside its files (boundaries, the other fields)."""


@dataclass(frozen=True)
class Role:
    """One file input of an upload kind: its name, extensions, and how many files."""

    name: str
    label: str
    suffixes: tuple[str, ...]
    required: bool = True
    many: bool = False
    text: bool = True


ROLES: dict[str, tuple[Role, ...]] = {
    Upload.CLIPS: (
        Role("audio", "Audio files or a zip of them", (*AUDIO_SUFFIXES, ".zip"), many=True,
             text=False),
        Role("metadata", "Metadata (CSV or TSV: id, title, artist, genre)", METADATA_SUFFIXES,
             required=False),
    ),
    Upload.RUNS: (Role("runs", "Run files", TEXT_SUFFIXES, many=True),),
    Upload.JUDGMENTS: (Role("judgments", "Judgments file", TEXT_SUFFIXES),),
    Upload.GROUPS: (Role("groups", "Groups file", TEXT_SUFFIXES),),
    Upload.PAIRWISE: (Role("answers", "Answers of the past study (CSV)", (".csv", ".txt", "")),),
    Upload.MIREX: (
        Role("runs", "runs.tsv", TEXT_SUFFIXES, required=False),
        Role("judgments", "judgments.tsv", TEXT_SUFFIXES, required=False),
        Role("metadata", "metadata.tsv", TEXT_SUFFIXES, required=False),
        Role("bundle", "or one zip holding the three", (".zip",), required=False, text=False),
    ),
}  # fmt: skip
"""The file inputs of each kind of upload (the apps above add theirs:
:func:`ingest.kinds.upload_kind_register`)."""

MAX_LINES = {
    Upload.RUNS: runs.MAX_LINES,
    Upload.JUDGMENTS: judgments.MAX_LINES,
    Upload.GROUPS: groups.MAX_LINES,
    Upload.PAIRWISE: groups.MAX_LINES,
    Upload.MIREX: min(runs.MAX_LINES, judgments.MAX_LINES),
}
"""The importers' stated limits of data lines per file (registered kinds add theirs)."""


class UploadRefused(Exception):
    """An upload refused before anything is stored: HTTP ``status`` (400 or 413) and why."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def upload_limits(kind: str) -> dict:
    """What the page of ``kind`` states (and :func:`upload_create` enforces)."""
    return {
        "max_bytes": settings.EARSHOT_UPLOAD_MAX_BYTES,
        "text_max_bytes": settings.EARSHOT_UPLOAD_TEXT_MAX_BYTES,
        "max_files": settings.EARSHOT_UPLOAD_MAX_FILES,
        "max_lines": MAX_LINES.get(kind),
        "zip_max_members": settings.EARSHOT_ZIP_MAX_MEMBERS,
        "zip_max_bytes": settings.EARSHOT_ZIP_MAX_BYTES,
        "clip_max_bytes": settings.EARSHOT_CLIP_MAX_BYTES,
        "clip_max_seconds": settings.EARSHOT_CLIP_MAX_SECONDS,
        "roles": ROLES[kind],
    }


def upload_request_check(*, content_length: str | int | None) -> None:
    """Refuse (413) a request larger than one upload may be, before its body is read."""
    try:
        length = int(content_length or 0)
    except (TypeError, ValueError):
        raise UploadRefused("The request's Content-Length is not a number.") from None
    limit = settings.EARSHOT_UPLOAD_MAX_BYTES
    if length > limit + SLACK:
        raise UploadRefused(
            f"The upload is {_size(length)}; one upload may be at most {_size(limit)}. "
            "Split it (several zips of audio, runs file by file) and upload the parts.",
            status=413,
        )


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:,.1f} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


NAME_MAX_BYTES = 200
"""A stored file's name in UTF-8, well within the 255 bytes every file system allows."""


def _safe_name(name: str) -> str:
    """The base name of an uploaded file, without a path, as messages show it."""
    base = PurePath(name.replace("\\", "/")).name.strip()
    if (
        not base
        or base in (".", "..")
        or any(ord(c) < 32 or 0xD800 <= ord(c) < 0xE000 for c in base)
    ):
        raise UploadRefused(f"The file name {name[:80]!r} cannot be used; rename the file.")
    size = len(base.encode("utf-8"))
    if size > NAME_MAX_BYTES:
        raise UploadRefused(
            f"The file name {base[:40]}… is {size} bytes long; at most {NAME_MAX_BYTES} "
            "(fewer letters outside English count more): rename the file."
        )
    return base


def upload_root() -> Path:
    return Path(settings.EARSHOT_UPLOAD_ROOT)


def upload_folder(upload: Upload) -> Path:
    return upload_root() / upload.folder


def _check(kind: str, files: dict[str, list[UploadedFile]]) -> None:
    roles = {role.name: role for role in ROLES[kind]}
    unknown = sorted(set(files) - set(roles))
    if unknown:
        raise UploadRefused(f"Unexpected file field(s): {', '.join(unknown)}.")
    count = sum(len(group) for group in files.values())
    if count > settings.EARSHOT_UPLOAD_MAX_FILES:
        raise UploadRefused(
            f"{count:,} files: at most {settings.EARSHOT_UPLOAD_MAX_FILES:,} in one upload "
            "(or put them in a zip)."
        )
    total = 0
    for role in roles.values():
        group = files.get(role.name, [])
        if role.required and not group:
            raise UploadRefused(f"Choose the {role.label.lower()}.")
        if len(group) > 1 and not role.many:
            raise UploadRefused(f"Choose one file for {role.label}, not {len(group)}.")
        for uploaded in group:
            name = _safe_name(uploaded.name or "")
            suffix = PurePath(name).suffix.lower()
            if suffix not in role.suffixes:
                accepted = ", ".join(s or "no extension" for s in role.suffixes)
                raise UploadRefused(
                    f"{name}: '{suffix}' files are not accepted for {role.label} (use {accepted})."
                )
            if role.text and uploaded.size > settings.EARSHOT_UPLOAD_TEXT_MAX_BYTES:
                raise UploadRefused(
                    f"{name} is {_size(uploaded.size)}; a text file may be at most "
                    f"{_size(settings.EARSHOT_UPLOAD_TEXT_MAX_BYTES)}.",
                    status=413,
                )
            total += uploaded.size
    if total > settings.EARSHOT_UPLOAD_MAX_BYTES:
        raise UploadRefused(
            f"The files are {_size(total)}; one upload may be at most "
            f"{_size(settings.EARSHOT_UPLOAD_MAX_BYTES)}.",
            status=413,
        )
    if kind == Upload.MIREX:
        given = {role for role in ("runs", "judgments", "metadata") if files.get(role)}
        if files.get("bundle") and given:
            raise UploadRefused("Give either the three files or one zip holding them, not both.")
        if not files.get("bundle") and given != {"runs", "judgments", "metadata"}:
            raise UploadRefused(
                "A MIREX bundle is runs.tsv, judgments.tsv and metadata.tsv (or one zip of them)."
            )


def upload_create(
    *,
    kind: str,
    owner,
    collection: Collection,
    files: dict[str, list[UploadedFile]],
    options: dict | None = None,
) -> Upload:
    """Check and store the files of an upload (not yet imported); :class:`UploadRefused` if not.

    The files are written to a new folder under ``EARSHOT_UPLOAD_ROOT``, each with its
    own base name (a MIREX bundle's with the names ``import_mirex`` reads).
    """
    if kind not in ROLES:
        raise UploadRefused(f"Unknown kind of upload {kind!r}.")
    files = {role: [f for f in group if f is not None] for role, group in files.items()}
    files = {role: group for role, group in files.items() if group}
    _check(kind, files)
    options = options or {}
    folder_name = secrets.token_hex(16)
    folder = upload_root() / folder_name
    folder.mkdir(parents=True, exist_ok=False)
    digest = hashlib.sha256(json.dumps([kind, options], sort_keys=True).encode())
    stored: list[dict] = []
    try:
        taken: set[str] = set()
        for role in ROLES[kind]:
            for uploaded in files.get(role.name, []):
                name = _safe_name(uploaded.name)
                if kind == Upload.MIREX and role.name != "bundle":
                    name = f"{role.name}.tsv"
                if name.lower() in taken:
                    raise UploadRefused(f"Two files are named {name}; rename one.")
                taken.add(name.lower())
                content = hashlib.sha256()
                with (folder / name).open("wb") as out:
                    for chunk in uploaded.chunks():
                        content.update(chunk)
                        out.write(chunk)
                digest.update(f"{role.name}\0{name}\0{content.hexdigest()}\0".encode())
                stored.append({"role": role.name, "name": name, "size": uploaded.size,
                               "uploaded_as": uploaded.name[:200]})  # fmt: skip
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return Upload.objects.create(
        kind=kind, owner=owner, collection=collection, folder=folder_name, files=stored,
        digest=digest.hexdigest(), options=options,
    )  # fmt: skip


DECODED_SHARE = 8
"""An audio file weighs at least this share of its decoded samples (16-bit): a 30-second
CD-quality clip, 5.3 MB decoded, weighs 660 KB whatever its format."""


def upload_weight(*, upload: Upload) -> int:
    """What importing ``upload`` costs, in bytes: its files' sizes, an audio file weighing
    at least :data:`DECODED_SHARE` of what its header says it decodes to, so that a small
    compressed file of long, many-channel audio (a 59 KB FLAC of 208 s of silence in five
    channels, issue 28) is no small upload. A header that cannot be read counts its size."""
    folder = upload_folder(upload)
    weight = 0
    for entry in upload.files:
        size = entry.get("size") or 0
        if PurePath(entry["name"]).suffix.lower() in AUDIO_SUFFIXES:
            try:
                header = audio_header_check(folder / entry["name"])
            except AudioUnreadable:
                pass  # the import says why
            else:
                size = max(size, header.frames * header.channels * 2 // DECODED_SHARE)
        weight += size
    return weight


def upload_queue(*, upload: Upload) -> str:
    """The queue an upload's import waits in (:mod:`work.queues`): ``heavy`` when it weighs
    more than ``EARSHOT_INTERACTIVE_UPLOAD_MAX_KB`` (:func:`upload_weight`), so a small
    upload never waits behind a big one."""
    heavy = upload_weight(upload=upload) > settings.EARSHOT_INTERACTIVE_UPLOAD_MAX_BYTES
    return HEAVY if heavy else INTERACTIVE


def upload_start(*, upload: Upload, options: dict | None = None) -> Job:
    """Start (once) the background job that imports ``upload``.

    ``options`` (the column mapping chosen after the upload) are added to the upload's
    and counted in the digest. While the same upload is being imported, its job is
    returned and this upload's copy of the files is deleted.
    """
    # One transaction: the job is sent when it commits, so the worker never holds the
    # database (SQLite's one write lock, for a whole import) before the upload names its job.
    with transaction.atomic():
        if options:
            upload.options = {**upload.options, **options}
            extra = json.dumps(options, sort_keys=True).encode()
            upload.digest = hashlib.sha256(upload.digest.encode() + extra).hexdigest()
            upload.save(update_fields=["options", "digest"])
        job = job_start(
            kind=f"upload_{upload.kind}",
            owner=upload.owner,
            collection=upload.collection,
            key=f"upload:{upload.collection_id}:{upload.digest}",
            params={"upload": upload.pk},
            queue=upload_queue(upload=upload),
        )
        if job.params.get("upload") != upload.pk:
            upload_discard(upload=upload)  # a double submit: this copy of the files goes
            upload.delete()
            return job
        Upload.objects.filter(pk=upload.pk).update(job=job)
    return job


def upload_discard(*, upload: Upload) -> None:
    """Delete the upload's stored files (after its job, or when it was a double submit)."""
    shutil.rmtree(upload_folder(upload), ignore_errors=True)


def uploads_clean(*, older_than: timedelta) -> int:
    """Delete the files (and rows) of uploads left waiting longer than ``older_than``: a
    CrowdFlower export whose columns were never chosen, a job the broker never received
    and nobody sent again. Files of a queued or running job are kept. Returns how many."""
    stale = Upload.objects.filter(created_at__lt=timezone.now() - older_than).exclude(
        job__state__in=Job.ACTIVE
    )
    count = 0
    for upload in stale.iterator():
        upload_discard(upload=upload)
        upload.delete()
        count += 1
    return count
