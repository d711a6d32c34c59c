"""Uploaded audio checks and safe zips (ingest/importers/audio_uploads.py), without a database."""

from __future__ import annotations

import zipfile

import pytest

from common.files.errors import ImportFailed
from ingest.importers.audio_uploads import audio_problem, zip_unpack
from tests.helpers.uploads import MP3, WAV, zip_of


@pytest.mark.parametrize(
    ("suffix", "head", "ok"),
    [(".wav", WAV[:16], True), (".WAV", WAV[:16], True), (".mp3", MP3[:16], True),
     (".mp3", b"\xff\xfb\x90\x64", True), (".ogg", b"OggS\0", True), (".flac", b"fLaC", True),
     (".wav", b"<!DOCTYPE html>", False), (".mp3", b"RIFF", False), (".ogg", b"fLaC", False),
     (".flac", b"", False), (".exe", b"MZ", False)],
)  # fmt: skip
def test_audio_is_told_by_its_first_bytes(suffix, head, ok):
    assert (audio_problem(suffix, head) is None) == ok


def test_members_are_flattened_and_macos_extras_left_out(tmp_path):
    archive = tmp_path / "a.zip"
    archive.write_bytes(zip_of(("x/y/s1.wav", WAV), ("__MACOSX/x/._s1.wav", b"?"),
                               (".DS_Store", b"?"), ("meta.tsv", b"id\ttitle\n")))  # fmt: skip
    out = tmp_path / "out"
    out.mkdir()
    written = zip_unpack(archive, out, max_members=10, max_bytes=10**6)
    assert sorted(p.name for p in written) == ["meta.tsv", "s1.wav"]
    assert sorted(p.name for p in out.iterdir()) == ["meta.tsv", "s1.wav"]


def test_a_link_member_and_an_encrypted_member_are_refused(tmp_path):
    archive = tmp_path / "a.zip"
    link = zipfile.ZipInfo("s1.wav")
    link.external_attr = 0o120777 << 16  # a symbolic link (to /etc/passwd, say)
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr(link, "/etc/passwd")
    with pytest.raises(ImportFailed, match=r"member 's1\.wav': a link, not a file"):
        zip_unpack(archive, tmp_path, max_members=10, max_bytes=10**6)
    # zipfile cannot write encrypted members: set the flag in the central directory
    # (APPNOTE 4.3.12: general purpose bit 0 at offset 8).
    data = bytearray(zip_of(("s2.wav", WAV)))
    at = data.find(b"PK\x01\x02")
    data[at + 8] |= 0x1
    archive.write_bytes(bytes(data))
    with pytest.raises(ImportFailed, match=r"member 's2\.wav': encrypted"):
        zip_unpack(archive, tmp_path, max_members=10, max_bytes=10**6)


def test_a_file_that_is_not_a_zip_and_an_empty_zip_are_refused(tmp_path):
    bad = tmp_path / "a.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ImportFailed, match="not a zip file"):
        zip_unpack(bad, tmp_path, max_members=10, max_bytes=10**6)
    bad.write_bytes(zip_of(("folder/", b"")))
    with pytest.raises(ImportFailed, match="no files in the zip"):
        zip_unpack(bad, tmp_path, max_members=10, max_bytes=10**6)
