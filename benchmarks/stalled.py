"""Stalled phones: connections that send half a request, then nothing, for a while.

A phone whose wifi drops while it sends a form leaves the server a request it cannot
finish reading; the phone may come back tens of seconds later, or never. Meanwhile the
server must go on answering every other phone (issue 13, item 5). Whatever reads a
request waits for the rest of it: gunicorn's parser for the header lines, the app for
the body (Flask-WTF's CSRF check reads the form of every POST). If that wait holds
the only thread a worker has, the worker's other phones wait as long.

Two kinds, taken in turn:

- ``headers``: half the header lines of a POST, without the blank line that ends them;
- ``body``: the whole header of a POST with its Content-Length, and half the body.

Used by the load benchmark (``load.py --stalled N``: :func:`hold`, on its event loop,
while the open-loop tables play) and by ``tests/test_stalled_phones.py`` (:func:`send`,
plain blocking sockets). Only the standard library.
"""
from __future__ import annotations

import asyncio
import socket
import time
from urllib.parse import urlencode

KINDS = ("headers", "body")


def half_request(host: str, port: int, kind: str) -> bytes:
    """The first half of a POST of a new game's form (``kind``: see above)."""
    body = urlencode([(f"seat_{i}", name) for i, name in enumerate(("Ann", "Ben", "Cy"))]
                     + [("first_dealer", "0"), ("csrf_token", "x" * 90)]).encode()
    lines = [b"POST /games HTTP/1.1", f"Host: {host}:{port}".encode(),
             b"Content-Type: application/x-www-form-urlencoded",
             f"Content-Length: {len(body)}".encode(), b"Accept: text/html",
             b"Accept-Language: en", b"User-Agent: a phone on poor wifi"]
    if kind == "headers":
        return b"\r\n".join(lines[:4]) + b"\r\n"
    return b"\r\n".join(lines) + b"\r\n\r\n" + body[: len(body) // 2]


def send(host: str, port: int, n: int) -> list[socket.socket]:
    """``n`` connections, each left with half a request sent (blocking sockets)."""
    socks = []
    for i in range(n):
        sock = socket.create_connection((host, port), timeout=5)
        sock.sendall(half_request(host, port, KINDS[i % 2]))
        socks.append(sock)
    return socks


async def _one(host: str, port: int, kind: str, seconds: float) -> float | None:
    """One stalled connection held ``seconds``; how long until the server answered or
    closed it, if it did so first (None: it waited the whole time)."""
    reader, writer = await asyncio.open_connection(host, port)
    started = time.perf_counter()
    try:
        writer.write(half_request(host, port, kind))
        await writer.drain()
        try:
            await asyncio.wait_for(reader.read(1), seconds)
            return time.perf_counter() - started  # an answer, or the connection closed
        except TimeoutError:
            return None
        except OSError:  # reset by the server
            return time.perf_counter() - started
    finally:
        writer.close()


async def hold(host: str, port: int, n: int, seconds: float) -> list[float | None]:
    """``n`` stalled connections held ``seconds`` at once (see :func:`_one`)."""
    return await asyncio.gather(*(_one(host, port, KINDS[i % 2], seconds) for i in range(n)))
