"""Uploaded audio: a name and a content check per file, and zips unpacked safely.

Pure Python (no Django): the upload service (:mod:`ingest.services.uploads`) puts the
uploaded files, or the members of an uploaded zip, into one folder, which
:func:`ingest.importers.clips.clips_import` then imports all or nothing.

What a hostile or broken upload gets, always as :class:`~common.files.errors.ImportFailed`
naming the file (and the zip member) and the problem, before anything is imported:

- a file whose extension is not an audio one (``.wav``, ``.mp3``, ``.ogg``, ``.flac``),
  or whose first bytes are not that kind of audio (a ``.wav`` that is a web page);
- a zip member whose name leaves the folder (``../x.wav``, ``/etc/x.wav``, ``C:\\x.wav``),
  is a link, is encrypted, or repeats another member's file name;
- a zip of more than ``max_members`` members or more than ``max_bytes`` bytes once
  unpacked (a zip bomb): the sizes the zip declares are checked before unpacking, and
  the bytes actually unpacked are counted too, so a member that lies about its size
  stops at the limit.

Folders inside the zip are flattened (``audio/x.wav`` becomes ``x.wav``: the clip id is
the file name without its extension, as for a folder on the command line). The files
macOS adds to zips (``__MACOSX/…``, ``._x.wav``, ``.DS_Store``) are left out.
"""

from __future__ import annotations

import shutil
import stat
import zipfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from common.files.errors import ImportFailed

AUDIO_SUFFIXES: tuple[str, ...] = (".wav", ".mp3", ".ogg", ".flac")
METADATA_SUFFIXES: tuple[str, ...] = (".csv", ".tsv")
IGNORED_NAMES: tuple[str, ...] = (".DS_Store", "Thumbs.db", "desktop.ini")
CHUNK = 1 << 20


def audio_problem(suffix: str, head: bytes) -> str | None:
    """Why the first bytes ``head`` of a file named ``*suffix`` are not that audio, or None.

    >>> audio_problem(".wav", b"RIFF\\x24\\x00\\x00\\x00WAVEfmt ")
    >>> audio_problem(".wav", b"<html><body>")
    'not WAV audio (a WAV file starts with RIFF…WAVE)'
    """
    suffix = suffix.lower()
    if suffix == ".wav":
        ok = head[:4] in (b"RIFF", b"RIFX", b"RF64") and head[8:12] == b"WAVE"
        return None if ok else "not WAV audio (a WAV file starts with RIFF…WAVE)"
    if suffix == ".flac":
        return None if head[:4] == b"fLaC" else "not FLAC audio (a FLAC file starts with fLaC)"
    if suffix == ".ogg":
        return None if head[:4] == b"OggS" else "not Ogg audio (an Ogg file starts with OggS)"
    if suffix == ".mp3":
        frame = len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0
        if head[:3] == b"ID3" or frame:
            return None
        return "not MP3 audio (an MP3 file starts with an ID3 tag or a frame header)"
    return f"'{suffix or 'no extension'}' is not an audio file: use {', '.join(AUDIO_SUFFIXES)}"


def audio_file_check(path: Path, *, shown: str | None = None) -> None:
    """Stop unless ``path`` has an audio extension and starts like that kind of audio."""
    with path.open("rb") as handle:
        head = handle.read(16)
    problem = audio_problem(path.suffix, head)
    if problem:
        raise ImportFailed(shown or path.name, None, problem)


def _ignored(parts: tuple[str, ...]) -> bool:
    return parts[0] == "__MACOSX" or parts[-1] in IGNORED_NAMES or parts[-1].startswith("._")


def _member_name(zip_name: str, info: zipfile.ZipInfo) -> str | None:
    """The flat file name a member unpacks to; None for a folder or a file left out."""
    raw = info.filename
    where = f"member '{raw}'"
    if not raw.strip("/"):
        raise ImportFailed(zip_name, None, f"{where}: a member without a name")
    if "\\" in raw or raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise ImportFailed(zip_name, None, f"{where}: an absolute or Windows path")
    parts = PurePosixPath(raw).parts
    if any(part == ".." for part in parts):
        raise ImportFailed(zip_name, None, f"{where}: its path leaves the folder ('..')")
    if info.is_dir() or not parts:
        return None
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise ImportFailed(zip_name, None, f"{where}: a link, not a file")
    if info.flag_bits & 0x1:
        raise ImportFailed(zip_name, None, f"{where}: encrypted")
    if _ignored(parts):
        return None
    return parts[-1]


def zip_unpack(
    zip_path: Path,
    folder: Path,
    *,
    max_members: int,
    max_bytes: int,
    allowed: Iterable[str] = AUDIO_SUFFIXES + METADATA_SUFFIXES,
    shown: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Unpack the files of ``zip_path`` into ``folder`` (flat) after checking every member.

    Returns the files written. Any problem (see the module) stops before a byte is
    written, except a member that turns out larger than it declared, which stops as
    soon as it passes the limit; ``folder`` is then emptied. ``progress(done, total)``
    hears each member unpacked.
    """
    name = shown or zip_path.name
    allowed = tuple(s.lower() for s in allowed)
    try:
        archive = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError):
        raise ImportFailed(name, None, "not a zip file, or a damaged one") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > max_members:
            raise ImportFailed(
                name, None, f"{len(infos):,} members: at most {max_members:,} in one zip"
            )
        declared = sum(info.file_size for info in infos)
        if declared > max_bytes:
            raise ImportFailed(
                name,
                None,
                f"{declared:,} bytes once unpacked: at most {max_bytes:,} in one upload",
            )
        plan: dict[str, zipfile.ZipInfo] = {}
        taken: set[str] = set()  # lower-cased: one clip id whatever the case of its file name
        for info in infos:
            target = _member_name(name, info)
            if target is None:
                continue
            suffix = PurePosixPath(target).suffix.lower()
            if suffix not in allowed:
                raise ImportFailed(
                    name,
                    None,
                    f"member '{info.filename}': '{suffix or 'no extension'}' files are not "
                    f"accepted (use {', '.join(allowed)})",
                )
            if target.lower() in taken:
                raise ImportFailed(
                    name, None, f"member '{info.filename}': a second file named {target}"
                )
            taken.add(target.lower())
            plan[target] = info
        if not plan:
            raise ImportFailed(name, None, "no files in the zip")
        written: list[Path] = []
        total = 0
        try:
            for number, (target, info) in enumerate(plan.items()):
                if progress is not None:
                    progress(number, len(plan))
                path = folder / target
                if path.exists():
                    raise ImportFailed(
                        name, None, f"member '{info.filename}': a second file named {target}"
                    )
                with archive.open(info) as source, path.open("wb") as out:
                    written.append(path)
                    while chunk := source.read(CHUNK):
                        total += len(chunk)
                        if total > max_bytes:
                            raise ImportFailed(
                                name,
                                None,
                                f"member '{info.filename}' unpacks to more bytes than the zip "
                                f"says: more than {max_bytes:,} in all",
                            )
                        out.write(chunk)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as error:
            _remove(written)
            raise ImportFailed(name, None, f"a damaged zip ({error})") from None
        except BaseException:
            _remove(written)
            raise
    return written


def _remove(paths: list[Path]) -> None:
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
