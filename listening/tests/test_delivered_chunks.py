"""What an audio stream counts as delivered (:func:`listening.audio_delivery.delivered_chunks`),
on a real TCP connection over the loopback, in one process: a thread writes the stream
as a WSGI server does (the response's head with the first chunk, then each chunk in
turn, closing the stream when a write fails) and the test's client reads all, some or
none of it. No database: what is recorded is the list the ``record`` callback is given.

The live servers (Django's development server, gunicorn) are in
``listening/tests/test_audio_delivery.py``.
"""

from __future__ import annotations

import socket
import threading

from listening.audio_delivery import TcpConnection, delivered_chunks

CHUNK = 64 * 1024
BODY = bytes(range(256)) * (1_146_644 // 256)  # about the 1.15 MB of a 13 s clip
HEAD = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(BODY)


def chunks():
    for start in range(0, len(BODY), CHUNK):
        yield BODY[start : start + CHUNK]


def connected_pair() -> tuple[socket.socket, socket.socket]:
    """A TCP connection over the loopback: (the server's end, the client's end)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    return server, client


def serve(stream, sock: socket.socket) -> threading.Thread:
    """Write ``stream`` to ``sock`` as a WSGI server does, in a thread of its own."""

    def run():
        try:
            for n, chunk in enumerate(stream):
                sock.sendall((HEAD if n == 0 else b"") + chunk)
        except OSError:
            stream.close()  # a broken connection: the server closes the response
        finally:
            sock.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def read_head(client: socket.socket) -> bytes:
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += client.recv(1)  # one byte at a time: nothing of the body
    return head


def streamed(*, ask_the_connection: bool = True, server_buffer: int = 0):
    """The body served on a new loopback connection, in a thread: ``(records, the server's
    thread, the client's end)``; ``server_buffer`` bytes for the server's send buffer."""
    server, client = connected_pair()
    if server_buffer:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, server_buffer)
    records = []
    stream = delivered_chunks(
        chunks(),
        record=lambda *call: records.append(call),
        connection=TcpConnection(server) if ask_the_connection else None,
    )
    return records, serve(stream, server), client


def counted(records) -> int:
    """The bytes of the body the last record counts as delivered."""
    return records[-1][0].end + 1 if records else 0


def test_a_client_that_reads_everything_has_every_byte_counted_and_no_header_byte():
    records, thread, client = streamed()
    received = b""
    while block := client.recv(1 << 16):
        received += block
    thread.join()
    client.close()
    assert received == HEAD + BODY
    # Recorded at the end (and once a second before, on a slow machine): every byte of
    # the body, none of the head; one request.
    assert (records[-1][0].start, records[-1][0].end) == (0, len(BODY) - 1)
    assert [r[3] for r in records] == [True] + [False] * (len(records) - 1)


def test_a_client_that_hangs_up_after_the_headers_has_less_than_half_counted():
    records, thread, client = streamed()
    assert read_head(client) == HEAD
    client.close()  # with the body unread: the kernel answers with a reset
    thread.join()
    assert counted(records) < len(BODY) // 2  # the coverage rule's half of a short clip


def test_what_the_server_wrote_into_its_own_buffers_is_not_delivery():
    """The same hang-up, counting chunks written instead (no connection to ask): the
    loopback's buffers take the whole clip before the reset arrives — why the views ask
    the connection (the module doc of listening.audio_delivery)."""
    written, thread, client = streamed(ask_the_connection=False, server_buffer=4 * len(BODY))
    read_head(client)
    thread.join()  # every write went into the buffers before the client hung up
    client.close()
    assert counted(written) == len(BODY)

    acknowledged, thread, client = streamed(server_buffer=4 * len(BODY))
    read_head(client)
    client.close()
    thread.join()
    assert counted(acknowledged) < len(BODY) // 2


def test_without_a_connection_a_chunk_counts_once_the_server_asks_for_the_next():
    records = []
    stream = delivered_chunks(chunks(), record=lambda *call: records.append(call))
    next(stream), next(stream)  # the server wrote the first and took the second ...
    stream.close()  # ... whose write failed: the server closes the response
    assert [(r[0].start, r[0].end) for r in records] == [(0, CHUNK - 1)]


def test_a_long_stream_records_as_it_goes_first_time_kept_one_request():
    records = []
    stream = delivered_chunks(
        chunks(), record=lambda *call: records.append(call), record_bytes=4 * CHUNK,
        record_every=3600,
    )  # fmt: skip
    assert b"".join(stream) == BODY
    # 18 chunks (17 of 64 KiB and the rest): a record every 4 chunks, and the last.
    assert [r[0].end + 1 for r in records] == [4 * CHUNK, 8 * CHUNK, 12 * CHUNK, 16 * CHUNK,
                                              len(BODY)]  # fmt: skip
    assert {r[1] for r in records} == {records[0][1]}  # the first delivery's time, each time
    assert [r[3] for r in records] == [True, False, False, False, False]


def test_a_stream_never_read_records_nothing():
    records = []
    stream = delivered_chunks(chunks(), record=lambda *call: records.append(call))
    stream.close()
    assert records == []
