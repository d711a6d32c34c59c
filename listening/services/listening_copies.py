"""What listeners hear of a collection: copies of its clips at equal loudness, or excerpts.

A collection's ``loudness_target`` (LUFS) and ``excerpt_start``/``excerpt_seconds`` say
what assessors and crowd workers are sent (:attr:`catalog.models.Clip.heard_file`); the
upload is kept as it came, for the organiser. Copies are made once per clip
(:mod:`listening.loudness`): by the clips import for the clips it stores, and by the job
``listening_copies`` for every clip when the settings change. With neither setting,
listeners hear the uploads and no copy is kept.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction

from catalog.models import Clip, Collection
from listening.loudness import AudioLimits, AudioUnreadable, Loudness, listening_copy_write
from work.jobs import JobFailed, JobReport, job_start
from work.models import Job
from work.queues import HEAVY

JOB_KIND = "listening_copies"


def clip_limits() -> AudioLimits:
    """What a clip may be (``EARSHOT_CLIP_MAX_SECONDS``, ``EARSHOT_CLIP_MAX_CHANNELS``,
    ``EARSHOT_CLIP_MAX_RATE``), read from a file's header before it is decoded."""
    return AudioLimits(
        max_seconds=settings.EARSHOT_CLIP_MAX_SECONDS,
        max_channels=settings.EARSHOT_CLIP_MAX_CHANNELS,
        max_rate=settings.EARSHOT_CLIP_MAX_RATE,
    )


@dataclass(frozen=True)
class PreparedCopy:
    """A copy for listeners written to a temporary file, and its measured loudness."""

    path: Path
    measured: Loudness


def listening_copy_prepare(
    *, collection: Collection, source: Path, folder: Path
) -> PreparedCopy | None:
    """Write the copy listeners will hear of the audio file ``source`` into ``folder`` (no
    storage, no database: the slow part, done before an import's transaction so that its
    progress shows), or ``None`` when the collection asks for none. Raises
    :class:`AudioUnreadable` for audio that cannot be decoded."""
    if not collection.listening_copies:
        return None
    target = folder / f"{source.stem}.flac"
    measured = listening_copy_write(
        source, target, target_lufs=collection.loudness_target,
        start=collection.excerpt_start or 0.0, length=collection.excerpt_seconds,
        limits=clip_limits(),
    )  # fmt: skip
    return PreparedCopy(target, measured)


def listening_copy_store(
    *,
    clip: Clip,
    collection: Collection,
    source: Path | None = None,
    prepared: PreparedCopy | None = None,
) -> str | None:
    """Write the copy ``clip``'s listeners hear into its ``listening_audio`` and its measured
    loudness into ``heard_loudness`` and ``heard_true_peak`` (not saved), or empty them when
    the collection asks for none; the earlier copy's name, if it changed.

    ``source``: the upload's file (default: the clip's stored audio); ``prepared``: its copy
    already written by :func:`listening_copy_prepare`. Raises :class:`AudioUnreadable` for
    audio that cannot be decoded.
    """
    old = clip.listening_audio.name if clip.listening_audio else None
    if not clip.audio or not collection.listening_copies:
        clip.listening_audio, clip.heard_loudness, clip.heard_true_peak = "", None, None
    else:
        name = f"{Path(clip.audio.name).stem}.flac"
        with tempfile.TemporaryDirectory(prefix="earshot-copy-") as folder:
            if prepared is None:
                prepared = listening_copy_prepare(
                    collection=collection, source=source or Path(clip.audio.path),
                    folder=Path(folder),
                )  # fmt: skip
            with prepared.path.open("rb") as handle:
                clip.listening_audio.save(name, File(handle), save=False)
        clip.heard_loudness = prepared.measured.lufs
        clip.heard_true_peak = prepared.measured.true_peak_db
    return old if old and old != clip.listening_audio.name else None


HEARD_FIELDS = ("listening_audio", "heard_loudness", "heard_true_peak")
"""What :func:`listening_copy_store` sets on a clip."""


def listening_copy_make(*, clip: Clip, collection: Collection) -> bool:
    """Make (or, with no setting, drop) and save the copy ``clip``'s listeners hear; whether
    there is one. An earlier copy's file is deleted once the transaction commits."""
    old = listening_copy_store(clip=clip, collection=collection)
    clip.save(update_fields=list(HEARD_FIELDS))
    if old:
        storage = clip.listening_audio.storage
        transaction.on_commit(lambda: storage.delete(old))
    return bool(clip.listening_audio)


def listening_settings_update(
    *,
    collection: Collection,
    owner,
    loudness_target: float | None,
    excerpt_start: float | None,
    excerpt_seconds: float | None,
) -> Job | None:
    """Change what listeners hear and start the job that remakes every clip's copy (the
    job, or ``None`` when nothing changed)."""
    if excerpt_start is not None and excerpt_seconds is None:
        raise ValidationError("Give the excerpt's length too, or leave its start empty.")
    values = {
        "loudness_target": loudness_target,
        "excerpt_start": excerpt_start if excerpt_seconds is not None else None,
        "excerpt_seconds": excerpt_seconds,
    }
    if all(getattr(collection, name) == value for name, value in values.items()):
        return None
    with transaction.atomic():
        for name, value in values.items():
            setattr(collection, name, value)
        collection.save(update_fields=list(values))
        return job_start(
            kind=JOB_KIND, owner=owner, collection=collection,
            key=f"listening:{collection.pk}", params={}, queue=HEAVY,  # ~1 s a clip
        )  # fmt: skip


def listening_copies_run(*, job: Job, report: JobReport) -> dict:
    """The job: every clip with audio gets the copy its collection's settings ask for."""
    collection = Collection.objects.get(pk=job.collection_id)
    clips = list(collection.clips.exclude(audio="").order_by("external_id"))
    made = 0
    for number, clip in enumerate(clips):
        report(number, len(clips), f"clip {number + 1:,} of {len(clips):,}")
        try:
            with transaction.atomic():
                made += listening_copy_make(clip=clip, collection=collection)
        except AudioUnreadable as problem:
            raise JobFailed(f"{clip.external_id}: {problem}") from None
    return {"clips": len(clips), "copies": made}
