"""Serving audio with HTTP Range requests (RFC 9110 §14), so that seeking works in browsers.

Chromium asks for ``Range: bytes=N-`` whenever the listener seeks; a server that
answers 200 with the whole file makes the seek bar useless. Single ranges get
206 Partial Content; a multi-range request gets the whole file (RFC 9110 lets a
server ignore Range); an unsatisfiable one gets 416 with ``Content-Range: bytes */size``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from django.http import HttpResponse, StreamingHttpResponse

CONTENT_TYPES = {
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".flac": "audio/flac",
}
AUDIO_SUFFIXES = tuple(CONTENT_TYPES)
MAX_POSITION_DIGITS = 18
"""A byte position of more digits than this (beyond 10¹⁸ bytes, an exabyte) is no position
of any file: the range is unsatisfiable, and Python never converts a 4,400-digit number
(which it refuses with ValueError beyond 4,300 digits)."""
_RANGE = re.compile(rf"^bytes=(\d{{0,{MAX_POSITION_DIGITS}}})-(\d{{0,{MAX_POSITION_DIGITS}}})$")
_CHUNK = 64 * 1024


class UnsatisfiableRange(Exception):
    """The Range header is syntactically fine but asks for bytes the file does not have."""


@dataclass(frozen=True)
class ByteRange:
    start: int
    end: int  # inclusive

    @property
    def length(self) -> int:
        return self.end - self.start + 1


def content_type_for(name: str) -> str:
    return CONTENT_TYPES.get(PurePath(name).suffix.lower(), "application/octet-stream")


def parse_range(header: str | None, size: int) -> ByteRange | None:
    """The single byte range a ``Range`` header asks for, or None to send the whole file.

    >>> parse_range("bytes=0-99", 1000)
    ByteRange(start=0, end=99)
    >>> parse_range("bytes=-100", 1000)
    ByteRange(start=900, end=999)
    >>> parse_range("bytes=0-1,5-9", 1000) is None
    True
    """
    if not header:
        return None
    match = _RANGE.match(header.strip())
    if match is None:
        if header.strip().startswith("bytes=") and "," in header:
            return None  # several ranges: answer with the whole file
        raise UnsatisfiableRange(header)
    first, last = match.groups()
    if first == "" and last == "":
        raise UnsatisfiableRange(header)
    if first == "":  # suffix range: the last N bytes
        suffix = int(last)
        if suffix == 0 or size == 0:
            raise UnsatisfiableRange(header)
        return ByteRange(max(size - suffix, 0), size - 1)
    start = int(first)
    end = size - 1 if last == "" else min(int(last), size - 1)
    if start >= size or start > end:
        raise UnsatisfiableRange(header)
    return ByteRange(start, end)


def _read_slice(handle, byte_range: ByteRange):
    try:
        handle.seek(byte_range.start)
        remaining = byte_range.length
        while remaining > 0:
            chunk = handle.read(min(_CHUNK, remaining))
            if not chunk:
                break
            remaining -= len(chunk)
            yield chunk
    finally:
        handle.close()


def ranged_file_response(field_file, range_header: str | None) -> HttpResponse:
    """A response for a stored file that honours one byte range; the caller checks access."""
    return file_range_response(field_file, range_header)[0]


def file_range_response(
    field_file, range_header: str | None
) -> tuple[HttpResponse, ByteRange | None]:
    """The response, and the bytes it sends (None when it sends none: 416).

    The whole file goes out as a stream like a range does, without the file's name in a
    ``Content-Disposition`` header: a worker's audio must say nothing about which clip
    it is (:mod:`crowd.views.tasks`).
    """
    size = field_file.size
    content_type = content_type_for(field_file.name)
    try:
        byte_range = parse_range(range_header, size)
    except UnsatisfiableRange:
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
        response["Accept-Ranges"] = "bytes"
        return response, None
    if size == 0:
        sent, response = None, HttpResponse(b"", content_type=content_type)
    else:
        sent = byte_range or ByteRange(0, size - 1)
        response = StreamingHttpResponse(
            _read_slice(field_file.open("rb"), sent),
            status=200 if byte_range is None else 206,
            content_type=content_type,
        )
        if byte_range is not None:
            response["Content-Range"] = f"bytes {sent.start}-{sent.end}/{size}"
        response["Content-Length"] = str(sent.length)
    response["Accept-Ranges"] = "bytes"
    response["Cache-Control"] = "private, max-age=3600"
    return response, sent
