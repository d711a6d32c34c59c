"""Audio counted by what reached the client, after it got there (issue 29, item 5).

The listening evidence (:func:`listening.services.audio_served.audio_served_record`) used to
be written when an audio response was *built*, before a byte left the server: a client
that closed the connection right after the response headers had the whole clip counted
as sent. Now an audio response for a crowd task or an assessor's assignment is a stream
(:func:`counted_audio_response`) that counts what it delivered as it goes and records
it — every :data:`RECORD_EVERY_SECONDS` or :data:`RECORD_EVERY_BYTES` while it streams,
and once more when it ends, whether it ends because the file was sent or because the
connection broke.

What "delivered" means depends on what the server lets the view see:

**the client's TCP acknowledged it** (:class:`TcpConnection`)
    Where the server hands the view the client's connection — gunicorn, the production
    recipe's server (``gunicorn.socket``), and Django's development server of ``make
    run`` and of the tests' live server (:mod:`config.devserver` adds
    :data:`CONNECTION_KEY`) — a byte counts once the client's TCP acknowledged it
    (Linux's ``TCP_INFO``: ``tcpi_bytes_acked``, less the bytes of this connection
    before the body). A write into the server's own socket buffer is not delivery: on
    the loopback it takes a whole 1 MB clip at once, before the client read anything.
    When the last chunk is written the stream waits (at most :data:`DRAIN_SECONDS`)
    until the client acknowledged it or the connection ended.
**the server asked for the next chunk**
    Elsewhere (Django's test client, a server that hides the connection, not Linux) a
    chunk counts once the server asks for the one after it: a WSGI server writes a chunk
    before it asks for the next, and a write into a broken connection raises instead,
    which ends the stream without counting that chunk. The kernel's socket buffers can
    still take a short clip whole before a client that closes at once is noticed:
    ``docs/benchmarks.md`` ("Audio counted by what was delivered") measured both.

What a client that closes right after the headers can still get counted is what its
own TCP acknowledged before it closed — its receive buffer's share of the body, one or
two chunks at most (113,152 bytes) in the measurements — far below the coverage rule's
half of a clip's first 30 seconds (580 KB for the demo's 1.16 MB clips; 240 KB for a 30 s
MP3 at 128 kbit/s). A client that keeps the connection open and does not read gets what
its receive buffer holds (128 KiB by default): those bytes did reach its machine. A client
may enlarge that buffer (``SO_RCVBUF``, up to its own kernel's limit) and so take a whole
clip into its machine without reading it: that is downloading the clip, which no server
can tell from listening to it; the time rule still asks for the clip's seconds.

Behind a reverse proxy the client is the proxy: ``X-Accel-Buffering: no`` asks nginx
not to read the whole response ahead of the browser (other proxies: turn response
buffering off for the audio URLs). Whitenoise serves only ``STATIC_URL`` and no
middleware rewrites the stream (``crowd/tests/test_clip_audio_for_workers.py``). Earshot is
served over WSGI; under ASGI Django would read a synchronous stream whole before sending
any of it, and everything would count at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import socket
import struct
import termios
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from django.http import HttpResponse
from django.utils import timezone

from catalog.models import Clip
from common.audio import ByteRange, file_range_response
from listening.services.audio_served import audio_served_record

if TYPE_CHECKING:  # the rows above listening, named as types only (issue 30's layers)
    from crowd.models import PreferenceTask
    from relevance.models import Assignment

logger = logging.getLogger(__name__)

CONNECTION_KEY = "earshot.connection"
"""The WSGI environ key under which :mod:`config.devserver` hands a view its connection."""
CONNECTION_KEYS = ("gunicorn.socket", CONNECTION_KEY)
RECORD_EVERY_SECONDS = 1.0
RECORD_EVERY_BYTES = 512 * 1024
"""While a response streams, what was delivered is recorded once a second or once this
many more bytes were delivered, whichever comes first: a browser that stops reading
once it has buffered enough (Chromium reads about 2 MB ahead) holds the stream inside
the server's write, where nothing can be recorded until it reads again."""
DRAIN_SECONDS = 2.0
"""After its last chunk, how long a response waits for the client to acknowledge it."""

_BYTES_ACKED = 120
"""Offset of ``tcpi_bytes_acked`` (unsigned 64 bits) in Linux's ``struct tcp_info`` (4.1+)."""
_TCP_INFO_LENGTH = 128
_STATES_STILL_RECEIVING = {1, 8}
"""``TCP_ESTABLISHED`` and ``TCP_CLOSE_WAIT``: the client can still acknowledge data."""

Record = Callable[[ByteRange, datetime, datetime, bool], None]
"""``record(delivered, first_at, now, new_request)``: ``delivered`` is the part of the
response's range delivered so far (from its first byte), ``first_at`` when the first of
it was seen delivered, ``new_request`` True on the response's first record only."""


class TcpConnection:
    """A client's TCP connection as Linux reports it: bytes acknowledged, still queued."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    @classmethod
    def of(cls, environ: dict) -> TcpConnection | None:
        """The request's connection, when the server hands it over and Linux reports on it."""
        for key in CONNECTION_KEYS:
            sock = environ.get(key)
            if sock is None:
                continue
            connection = cls(sock)
            try:
                connection._info()
                connection.queued()
            except (OSError, ValueError, AttributeError):
                return None  # not TCP (a unix socket behind a proxy), or not Linux
            return connection
        return None

    def _info(self) -> bytes:
        info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _TCP_INFO_LENGTH)
        if len(info) < _TCP_INFO_LENGTH:
            raise ValueError("this kernel's tcp_info has no tcpi_bytes_acked")
        return info

    def acknowledged(self) -> int:
        """Bytes of this connection the client's TCP acknowledged."""
        return struct.unpack_from("=Q", self._info(), _BYTES_ACKED)[0]

    def queued(self) -> int:
        """Bytes written to the socket and not yet acknowledged (``SIOCOUTQ``)."""
        raw = fcntl.ioctl(self.sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
        return struct.unpack("=i", raw)[0]

    def written(self) -> int:
        """Bytes written to this connection so far (acknowledged or still queued)."""
        return self.acknowledged() + self.queued()

    def receiving(self) -> bool:
        """Whether the client can still acknowledge what is queued."""
        return self._info()[0] in _STATES_STILL_RECEIVING


def delivered_chunks(
    chunks: Iterable[bytes],
    *,
    record: Record,
    connection: TcpConnection | None = None,
    record_every: float = RECORD_EVERY_SECONDS,
    record_bytes: int = RECORD_EVERY_BYTES,
    drain_seconds: float = DRAIN_SECONDS,
) -> Iterator[bytes]:
    """``chunks``, passed on one at a time, recording what reached the client (module doc).

    Runs inside the server's loop ``for chunk in response: write(chunk)``: the code after
    each ``yield`` runs once the server wrote that chunk; a broken connection makes the
    server close this generator at the ``yield`` instead, and ``finally`` records what
    was delivered until then. Recording never raises into the server (a failure is
    logged: the response's ``close`` would swallow it unseen).
    """
    written = 0
    body_start = None  # the connection's byte count where this response's body begins
    first_at = None
    recorded = 0
    last_record = time.monotonic()

    def delivered() -> int:
        if connection is None:
            return written
        if body_start is None:
            return 0
        return max(0, min(written, connection.acknowledged() - body_start))

    def write_down(count: int) -> None:
        nonlocal first_at, recorded, last_record
        if count <= recorded:
            return
        now = timezone.now()
        first_at = first_at or now
        try:
            record(ByteRange(0, count - 1), first_at, now, recorded == 0)
        except Exception:  # see the doc: the server would swallow it
            logger.exception("could not record %s delivered audio bytes", count)
        recorded, last_record = count, time.monotonic()

    try:
        for chunk in chunks:
            yield chunk
            written += len(chunk)
            if connection is not None and body_start is None:
                # Right after the first write, everything before this chunk is the
                # connection's earlier traffic and this response's headers. A client
                # already gone by then is counted nothing.
                receiving = connection.receiving()
                body_start = (
                    connection.written() - written if receiving else connection.acknowledged()
                )
            count = delivered()
            if first_at is None and count > 0:
                first_at = timezone.now()
            if count - recorded >= record_bytes or time.monotonic() - last_record >= record_every:
                write_down(count)
        if connection is not None:
            # A connection that ended oddly: what it acknowledged is counted.
            with contextlib.suppress(OSError):
                _drain(connection, lambda: delivered() >= written, drain_seconds)
    finally:
        try:
            count = delivered()
        except OSError:  # the connection is gone: what was recorded stands
            count = recorded
        write_down(count)


def _drain(connection: TcpConnection, done: Callable[[], bool], seconds: float) -> None:
    """Wait until ``done()``, the connection ends, or ``seconds`` pass."""
    deadline, pause = time.monotonic() + seconds, 0.002
    while not done() and connection.receiving() and time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def counted_audio_response(
    request, *, clip: Clip, task: PreferenceTask | None = None, assignment: Assignment | None = None
) -> HttpResponse:
    """The Range response for ``clip``'s audio (the file listeners hear,
    :attr:`~catalog.models.Clip.heard_file`; :func:`common.audio.file_range_response`)
    whose body records what it delivered for ``task`` or ``assignment``
    (:func:`listening.services.audio_served.audio_served_record`). A 416 or an empty file
    records nothing."""
    heard = clip.heard_file  # the collection's copy at equal loudness, when it makes one
    size = heard.size
    response, sent = file_range_response(heard, request.headers.get("Range"))
    if sent is None or not response.streaming:
        return response

    def record(part: ByteRange, first_at: datetime, now: datetime, new_request: bool) -> None:
        audio_served_record(
            clip=clip, size=size, byte_range=ByteRange(sent.start + part.start, sent.start + part.end),
            task=task, assignment=assignment, first_at=first_at, now=now, new_request=new_request,
        )  # fmt: skip

    response.streaming_content = delivered_chunks(
        response.streaming_content, record=record, connection=TcpConnection.of(request.META)
    )
    response["X-Accel-Buffering"] = "no"
    return response
