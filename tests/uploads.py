"""Helpers for the upload tests: posting files as a browser does, running the jobs, hostile zips."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from judging.models import Job
from judging.services.job_runners import job_run
from tests.audio_files import sine_wav

MP3 = b"ID3\x03\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x64" + b"\x00" * 400
"""The start of an MP3 file: an ID3 tag, then a frame header (enough for the content check)."""


@pytest.fixture(autouse=True)
def upload_dirs(settings, tmp_path):
    """Uploaded files and stored audio go under the test's own folder."""
    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path


def files(**roles: list[tuple[str, bytes]] | tuple[str, bytes]) -> dict[str, list]:
    """``role=[(name, content), …]`` as the upload service receives files."""
    out = {}
    for role, given in roles.items():
        given = [given] if isinstance(given, tuple) else given
        out[role] = [SimpleUploadedFile(name, content) for name, content in given]
    return out


def form_data(options: dict | None = None, **roles) -> dict:
    """A multipart body for the test client: files by role, then the options."""
    data = {}
    for role, group in files(**roles).items():
        data[role] = group if len(group) > 1 else group[0]
    return {**data, **(options or {})}


def run_jobs() -> list[Job]:
    """Run every queued job as the Celery task would (the task's body), oldest first."""
    ran = []
    for job in Job.objects.filter(state=Job.QUEUED).order_by("pk"):
        job_run(job_id=job.pk)
        job.refresh_from_db()
        ran.append(job)
    return ran


def zip_of(*members: tuple[str, bytes], declared: dict[str, int] | None = None) -> bytes:
    """A zip of ``(name, content)`` members; ``declared`` overrides a member's stated size
    in the central directory (a zip that lies about what it holds)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=zipfile.ZIP_DEFLATED)
    data = buffer.getvalue()
    for name, size in (declared or {}).items():
        data = _declare(data, name, size)
    return data


def _declare(data: bytes, name: str, size: int) -> bytes:
    """Rewrite the uncompressed size of member ``name`` in both of the zip's headers
    (APPNOTE 4.3.7 and 4.3.12: size, name length and name at these offsets)."""
    raw, encoded = bytearray(data), name.encode()
    headers = {b"PK\x03\x04": (22, 26, 30), b"PK\x01\x02": (24, 28, 46)}
    for signature, (size_at, length_at, name_at) in headers.items():
        at = raw.find(signature)
        while at >= 0:
            length = int.from_bytes(raw[at + length_at : at + length_at + 2], "little")
            if bytes(raw[at + name_at : at + name_at + length]) == encoded:
                raw[at + size_at : at + size_at + 4] = size.to_bytes(4, "little")
            at = raw.find(signature, at + 4)
    return bytes(raw)


WAV = sine_wav(0.2)
