"""Helpers and fixtures of the upload tests (a plugin of tests/helpers/fixtures.py): posting files as a
browser does, running the jobs, hostile zips, a small MIREX bundle and a CrowdFlower export."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.helpers.audio_files import sine_wav, tone
from work.job_runners import job_run
from work.models import Job

MP3 = tone(".mp3", 0.5)
"""A real MP3 (half a second of a tone): uploads are decoded."""


@pytest.fixture
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


BUNDLE = {  # a MIREX bundle: 2 systems × 1 query × 2 documents, every pair judged
    "runs": ("runs.tsv", b"S1\tc1\tc2\r\nS1\tc1\tc3\r\nS2\tc1\tc3\r\nS2\tc1\tn4\r\n"),
    "judgments": ("judgments.tsv", b"c1\tc2\t80\r\nc1\tc3\t40\r\nc1\tn4\t10\r\n"),
    "metadata": ("metadata.tsv", b"c2\tart1\tgen1\r\nc3\tart2\tgen1\r\nn4\tart3\tgen2\r\n"),
}

EXPORT = (
    b"_unit_id,_created_at,_golden,_started_at,_tainted,_worker_id,q,d1a,d2a,d1b,d2b,"
    b"f1a,f2a,f1b,f2b,what_service_gives_better_results,comments\n"
    b"101,1/23/2012 10:11:12,false,1/23/2012 10:10:12,false,7,q9,n1,n2,n3,n4,90,80,10,20,System A,\n"
    b"102,1/23/2012 10:12:12,true,1/23/2012 10:11:42,false,8,q9,n1,n2,n3,n4,90,80,10,20,System A,gold\n"
    b'103,1/23/2012 10:13:12,false,1/23/2012 10:12:42,false,9,q9,n3,n4,n1,n2,10,20,90,80,Both are good,"nice\n'
    b'songs"\n'
    b"104,1/23/2012 10:14:12,false,1/23/2012 10:13:42,false,10,q9,n1,n2,n3,n4,90,80,10,20,Service B,\n"
)
"""A CrowdFlower full report as the thesis' study had it (§3.2.2): platform columns,
``q``, ``d1a``…, ``f1a``…, the answer; the second row is a trap (``_golden``)."""


def counts(job: Job) -> dict[str, int]:
    return dict(job.result["counts"])


def post(client, collection, kind: str, data: dict):
    return client.post(f"/collections/{collection.pk}/uploads/{kind}/", data)


def upload_dirs_root():
    return settings.EARSHOT_UPLOAD_ROOT
