"""Changes pushed across the server's workers: a play taken by one reaches the streams
held by the other (issue 22, item 2).

The production server, started as ``benchmarks/server.py`` starts it (gunicorn with
``scorekeeper/serving.py``: two gevent workers), gets streams of one game's changes
(``/g/<key>/events``, held as the page's script holds them) until both workers hold some
(which worker holds a connection is read from ``/proc``); then one phone logs a play, and
every stream must be sent its new version within a second. The server is stopped with
the streams still open: its workers end them rather than wait for them (gunicorn would
wait 30 s). About 5 s.
"""
from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest

from benchmarks import server
from benchmarks.phones import KEY, EventStream, Phone

SOON = 1.0  # seconds: the bound for a change to reach the table's other phones
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc (Linux)")


def _workers(arbiter: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == arbiter:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _holder(stream: EventStream, port: int, workers: list[int]) -> int | None:
    """The worker that holds the server's end of ``stream``'s connection."""
    client_port = stream.sock.getsockname()[1]
    inode = None
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            local, remote = fields[1].split(":")[1], fields[2].split(":")[1]
            if int(local, 16) == port and int(remote, 16) == client_port:
                inode = fields[9]
    for pid in workers:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
        except OSError:
            continue
    return None


def _wait_for(stream: EventStream, wanted, seconds: float) -> dict | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stream.ended:
        for _at, fields in stream.read(timeout=max(0.01, deadline - time.monotonic())):
            if wanted(fields):
                return fields
    return None


def test_a_play_taken_by_one_worker_reaches_the_streams_held_by_both(tmp_path):
    port = server.free_port()
    process = server.start("gunicorn", port, tmp_path / "scorekeeper.db", tmp_path / "server.log")
    streams: list[EventStream] = []
    phone = Phone(server.HOST, port)
    try:
        server.wait_ready(port, process)
        status, _where, page = phone.request("GET", "/games/new")
        phone.remember_token(page)
        status, where, _page = phone.request("POST", "/games", [
            ("seat_0", "A"), ("seat_1", "B"), ("seat_2", "C"), ("first_dealer", "2"),
            ("csrf_token", phone.token)])
        assert status == 303, status
        key = KEY.search(where).group(1)
        phone.remember_token(phone.request("GET", f"/g/{key}/table")[2])
        workers = _workers(process.pid)
        assert len(workers) == 2, workers
        held: dict[int, list[EventStream]] = {pid: [] for pid in workers}
        # A worker still starting accepts nothing: the streams go to the other meanwhile.
        while min(len(s) for s in held.values()) < 2 and len(streams) < 200:
            time.sleep(0.02)
            stream = EventStream(server.HOST, port, f"/g/{key}/events?since=0")
            streams.append(stream)
            assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
            assert _wait_for(stream, lambda fields: "retry" in fields, 5.0)  # watched from here
            holder = _holder(stream, port, workers)
            assert holder in held, holder
            held[holder].append(stream)
        assert min(len(s) for s in held.values()) >= 2, {pid: len(s) for pid, s in held.items()}

        sent = time.monotonic()
        phone.accept = "application/json"
        status, _where, _answer = phone.request("POST", f"/g/{key}/plays", [
            ("player", "A"), ("meld", ""), ("confirm", "1"), ("round_no", "1"), ("cards", "S7"),
            ("cards", "S8"), ("cards", "S9"), ("csrf_token", phone.token), ("request_id", uuid.uuid4().hex)])
        assert status == 200, status
        late = []
        for stream in streams:
            event = _wait_for(stream, lambda fields: fields.get("event") == "change", SOON)
            if event is None or event["id"] != "1":
                late.append((stream.sock.getsockname()[1], event))
        assert not late and time.monotonic() - sent < SOON + 0.5, late
    finally:
        phone.close()  # an idle kept-alive connection holds a stopping worker 10 s (serving.py)
        stopping = time.monotonic()
        server.stop(process)  # the streams still open
        stopped_in = time.monotonic() - stopping
        for stream in streams:
            stream.close()
    assert stopped_in < 5, f"the server took {stopped_in:.1f} s to stop with streams open"
