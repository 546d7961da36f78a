"""Phones that stall half way through sending a request must not stall the others.

Issues 13 and 14 (``benchmarks/stalled.py`` says what a stalled phone sends; the load
benchmark measures the same with 250 phones playing: ``load.py --stalled 10``). The
production server, started as ``benchmarks/server.py`` starts it (gunicorn with
``scorekeeper/serving.py``'s settings), gets a hundred connections that each send half
a request — half the header lines of a POST, or a POST's header and half its body — and
then nothing for a few seconds. Meanwhile another phone (a connection kept alive from
before, and new connections) asks for pages: each must be answered within a second,
where the app answers in milliseconds. Then the server closes them all: those stalled in
their header lines after its keep-alive time, those stalled in their body after
``BODY_SECONDS`` (answered 400 in words).

A worker that reads its requests on a pool of threads is held by as many stalled
requests as it has threads (gunicorn's ``gthread`` with 16 threads, two workers: 32 stalled
phones and the other phone's requests time out); a worker that gives each connection a
greenlet of its own (``gevent``) is not. About 13 s.
"""
from __future__ import annotations

import contextlib
import http.client
import threading
import time

import pytest

from benchmarks import server, stalled
from scorekeeper import serving
from scorekeeper.web.security import BODY_SECONDS

STALLED = 100  # connections that send half a request and stall
STALL_SECONDS = 4.0  # how long the other phone asks for pages while they stall
BOUND = 1.0  # seconds: each of its requests answered within this (milliseconds, normally)
GIVE_UP = 2.0  # seconds: a request not answered by then is counted as not answered


def _get(conn: http.client.HTTPConnection, path: str) -> float:
    """Seconds to a whole answer (200 expected), or infinity if none came in time."""
    started = time.perf_counter()
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
    except OSError:  # timed out, or the connection was dropped
        conn.close()
        return float("inf")
    assert answer.status == 200, answer.status
    return time.perf_counter() - started


def test_stalled_requests_do_not_hold_up_another_phone(tmp_path):
    port = server.free_port()
    process = server.start("gunicorn", port, tmp_path / "scorekeeper.db", tmp_path / "server.log")
    socks = []
    kept = http.client.HTTPConnection(server.HOST, port, timeout=GIVE_UP)
    try:
        server.wait_ready(port, process)
        assert _get(kept, "/games/new") < BOUND  # a phone with a connection kept alive
        socks = stalled.send(server.HOST, port, STALLED)
        stalled_at = time.monotonic()
        time.sleep(0.5)  # the server has read what they sent and waits for the rest
        times = []
        deadline = time.monotonic() + STALL_SECONDS
        while time.monotonic() < deadline:
            times.append(("kept", _get(kept, "/games/new")))
            new = http.client.HTTPConnection(server.HOST, port, timeout=GIVE_UP)
            times.append(("new", _get(new, "/")))
            new.close()
            time.sleep(0.1)
        # Then the server closes them: a request's header lines must arrive within its
        # keep-alive time, its body within BODY_SECONDS (a 400 in words first).
        time.sleep(max(0.0, stalled_at + max(serving.keepalive, BODY_SECONDS) + 1.5 - time.monotonic()))
        answers = [_closed(sock) for sock in socks]
        assert all(answer is not None for answer in answers), answers.count(None)
        assert {a[:12] for a in answers} <= {b"", b"HTTP/1.1 400"}, set(a[:12] for a in answers)
    finally:
        for sock in socks:
            sock.close()
        kept.close()
        server.stop(process)
    slow = [(how, round(seconds, 3)) for how, seconds in times if seconds >= BOUND]
    assert len(times) >= 4 and not slow, (
        f"{len(slow)} of {len(times)} requests took {BOUND:g} s or more (inf: no answer within "
        f"{GIVE_UP:g} s) while {STALLED} requests were stalled: {slow[:6]}")


def _closed(sock) -> bytes | None:
    """What the server sent before closing this connection (None: it is still open)."""
    sock.setblocking(False)
    got = b""
    try:
        while chunk := sock.recv(65536):
            got += chunk
    except BlockingIOError:
        return None
    except OSError:
        pass
    return got


def _send_until_closed(sock, data: bytes) -> None:
    with contextlib.suppress(OSError):  # the server answered and closed first: as it may
        sock.sendall(data)


@pytest.mark.parametrize("framing", ["length", "chunked"])
def test_an_upload_over_the_limit_is_answered_413_and_the_connection_closes(tmp_path, framing):
    """Issue 14, item 9: the answer to a body the app will not read says ``Connection:
    close`` (it said keep-alive, then the server closed the socket under the phone),
    whether the body's size is said first or it comes in chunks."""
    import socket

    port = server.free_port()
    process = server.start("gunicorn", port, tmp_path / "scorekeeper.db", tmp_path / "server.log")
    try:
        server.wait_ready(port, process)
        with socket.create_connection((server.HOST, port), timeout=5) as sock:
            size = 3 * 1024 * 1024
            head = (f"POST /games/import HTTP/1.1\r\nHost: {server.HOST}\r\nContent-Type: "
                    f"multipart/form-data; boundary=x\r\n")
            if framing == "length":
                sock.sendall(f"{head}Content-Length: {size}\r\n\r\n".encode() + b"x" * 65536)
            else:  # over the limit before the app can tell: sent while the answer is read
                chunk = b"x" * 65536
                body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(size // len(chunk)))
                threading.Thread(target=_send_until_closed, daemon=True,
                                 args=(sock, f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + body)).start()
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(65536)
                assert chunk, answer
                answer += chunk
            head = answer.split(b"\r\n\r\n")[0].decode("latin-1").lower()
            assert head.startswith("http/1.1 413")
            assert "connection: close" in head
        # The server goes on answering others.
        conn = http.client.HTTPConnection(server.HOST, port, timeout=GIVE_UP)
        assert _get(conn, "/games/new") < BOUND
        conn.close()
    finally:
        server.stop(process)


def test_a_body_in_chunks_that_cannot_be_read_is_refused_in_words(tmp_path):
    """Issue 23: a chunk with no size (or cut short) was a 500 on every form, gunicorn's
    reader failing inside the CSRF check: now a 400 that says so."""
    import socket

    port = server.free_port()
    process = server.start("gunicorn", port, tmp_path / "scorekeeper.db", tmp_path / "server.log")
    try:
        server.wait_ready(port, process)
        for body in (b"zz\r\nlang=de\r\n0\r\n\r\n", b"\r\n\r\n", b"5\r\nlang=\r\n", b"9\r\nlang"):
            with socket.create_connection((server.HOST, port), timeout=5) as sock:
                sock.sendall(b"POST /language HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-"
                             b"urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
                sock.shutdown(socket.SHUT_WR)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 400"), (body, answer[:200])
            assert b"did not arrive whole" in answer, (body, answer[-300:])
    finally:
        server.stop(process)
