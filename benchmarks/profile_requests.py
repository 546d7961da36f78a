"""Where a request's CPU time goes, in one process: the load benchmark's workload, profiled.

Run from the repository root:

    .venv/bin/python benchmarks/profile_requests.py              # timings per kind of request
    .venv/bin/python benchmarks/profile_requests.py --profile    # and cProfile's top functions
    .venv/bin/python benchmarks/profile_requests.py --profile --only live --sort tottime

One table of phones (``benchmarks/phones.py``) plays the scripted rounds of the load
benchmark against the app itself, through the WSGI interface (no sockets, no server):
each phone's requests go to ``create_app()`` as werkzeug's test client builds them, on
a fresh database in a temporary folder. What is measured is the CPU time of the app's
own work per request (``time.thread_time``: other processes running meanwhile do not
count) — the part a faster server would not remove — by kind of request: the plays
(303s), the page loads and the live updates, and in units of a fixed piece of Python
work measured meanwhile (a busy machine slows both alike). The phones not playing ask
for live updates once every ``--live-every`` writes of the table rather than every
second. Only the standard library is used (cProfile); with ``--profile``, the
function calls and SQL statements per request are counted too.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import phones  # noqa: E402

READS = ("page", "live", "open")


class _Response:
    """What ``phones.Response`` offers the phones, from a test-client response."""

    def __init__(self, response) -> None:
        self.status = response.status_code
        self._headers = response.headers
        self._body = response.get_data()

    def getheader(self, name: str, default=None):
        return self._headers.get(name, default)

    def read(self) -> bytes:
        return self._body


def _reference() -> float:
    """CPU seconds of a fixed piece of Python work (about a millisecond on a quiet core).

    Other processes slow a process down even in CPU time (a shared core, its caches):
    the app's figures divided by this one compare across runs on a busy machine.
    """
    started = time.thread_time()
    data = {str(i): [i, str(i), {"k": i}] for i in range(300)}
    text = json.dumps(data)
    json.loads(text)
    sorted(data.items(), key=lambda kv: kv[1][1])
    sum(i * i for i in range(5000))
    return time.thread_time() - started


class _Connection:
    """A stand-in for ``phones.Connection``: requests go to the app in-process."""

    timings: dict = defaultdict(list)  # kind of request → CPU seconds the app took (this thread's)
    reference: list = []  # CPU seconds of _reference(), measured every 20 requests
    count = 0
    profiler: cProfile.Profile | None = None
    only: tuple = ()  # the kinds of request profiled (all if empty)
    profiled = 0
    kind = ""  # of the request being sent (set by the phones' _send)

    def __init__(self, app) -> None:
        self.client = app.test_client(use_cookies=False)
        self._response = None

    def request(self, method, path, body=None, headers=None) -> None:
        _Connection.count += 1
        if _Connection.count % 20 == 0:
            self.reference.append(_reference())
        kind = _Connection.kind or method
        profiler = self.profiler if not self.only or kind in self.only else None
        started = time.thread_time()
        if profiler is not None:
            _Connection.profiled += 1
            profiler.enable()
        try:
            response = self.client.open(path, method=method, data=body, headers=headers or {})
            self._response = _Response(response)
        finally:
            if profiler is not None:
                profiler.disable()
        self.timings[kind].append(time.thread_time() - started)

    def getresponse(self):
        return self._response

    def close(self) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=1500, help="writes to send (measured)")
    parser.add_argument("--warmup", type=int, default=300, help="writes first, not measured")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--live-every", type=int, default=28,
                        help="writes of its table between two live updates of a phone (0: none)")
    parser.add_argument("--profile", action="store_true", help="cProfile the app's requests")
    parser.add_argument("--only", action="append", default=[],
                        help="profile only this kind of request (page, live, layoff, pass…)")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--dump", type=Path, help="write the profile's stats here")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="scorekeeper-profile-") as folder:
        os.environ["SCOREKEEPER_DATABASE"] = str(Path(folder) / "scorekeeper.db")
        os.environ["SCOREKEEPER_SECRET_KEY"] = "profile"
        from scorekeeper import create_app

        app = create_app()

        # The phones send their requests to the app itself.
        original = phones.Connection
        phones.Connection = lambda host, port, timeout=None: _Connection(app)
        send = phones.Table._send

        def timed_send(self, phone, kind, method, path, fields=None, expect=200, keep_cookie=True):
            _Connection.kind = kind
            return send(self, phone, kind, method, path, fields, expect, keep_cookie)

        phones.Table._send = timed_send
        # Live updates by the count of writes, not by the clock: each phone not playing
        # asks once every ``--live-every`` writes of its table (about one second at the
        # load benchmark's ~28 plays/s per table with ten tables).
        every = args.live_every

        def live(self, acting):
            n = len(self.sent)
            for seat, phone in enumerate(self.phones):
                if seat == acting or not every or n - phone.polled < every:
                    continue
                phone.polled = n
                _Connection.kind = "live"
                _location, text = send(self, phone, "live", "GET",
                                       f"/g/{self.key}/live?since={phone.version}",
                                       expect=(200, 204))
                match = phones.re.search(r'"version":\s*(\d+)', text)
                if match:
                    phone.version = match.group(1)

        live_original = phones.Table._live
        phones.Table._live = live
        try:
            table = phones.Table("in-process", 0, seed=20240601, players=args.players,
                                 follow=False, watch=1.0)
            table.run(threading.Event(), max_writes=args.warmup, keep_going=False)
            _Connection.timings.clear()
            if args.profile:
                _Connection.profiler = cProfile.Profile()
                _Connection.only = tuple(args.only)
            table.run(threading.Event(), max_writes=args.warmup + args.writes, keep_going=False)
        finally:
            phones.Connection = original
            phones.Table._send = send
            phones.Table._live = live_original
        if table.errors:
            print("errors:", *table.errors[:5], sep="\n  ")
        timings = _Connection.timings
        total_n = sum(len(v) for v in timings.values())
        if not total_n:  # a table stops between rounds: the warm-up played past --warmup + --writes
            print("no request measured: a table plays whole rounds (about 70-120 writes each), so give "
                  "--writes more than a round's writes")
            return 1
        total_s = sum(sum(v) for v in timings.values())
        writes = {k: v for k, v in timings.items() if k not in READS}
        n_writes = sum(len(v) for v in writes.values())
        print(f"{total_n} requests, {n_writes} writes; app CPU {total_s * 1000 / total_n:.2f} ms "
              f"per request, {total_s * 1000 / max(n_writes, 1):.2f} ms per write (reads included)")
        reference = sorted(_Connection.reference)[len(_Connection.reference) // 2]
        print(f"  reference work {reference * 1000:.2f} ms (median): a request costs "
              f"{total_s / total_n / reference:.2f} references, a write "
              f"{total_s / max(n_writes, 1) / reference:.2f} (reads included)")
        for kind, values in sorted(timings.items(), key=lambda kv: -sum(kv[1])):
            values = sorted(values)
            print(f"  {kind:10} {len(values):6}  mean {sum(values) / len(values) * 1000:6.2f} ms"
                  f"  p50 {values[len(values) // 2] * 1000:6.2f}  max {values[-1] * 1000:6.1f}"
                  f"  share {sum(values) / total_s * 100:5.1f} %")
        if _Connection.profiler is not None and not _Connection.profiled:
            print(f"nothing profiled: no request of the kinds asked (--only {', '.join(args.only)}); "
                  f"the kinds sent: {', '.join(sorted(timings))}")
        elif _Connection.profiler is not None:
            stats = pstats.Stats(_Connection.profiler)
            # Counts, unlike times, do not change with what else the machine runs.
            sql = sum(v[1] for k, v in stats.stats.items()
                      if k[2] in ("<method 'execute' of 'sqlite3.Connection' objects>",)
                      or (k[0].endswith("db.py") and k[2] == "execute" and "scorekeeper" in k[0]))
            n = max(_Connection.profiled, 1)
            print(f"per request profiled ({n}): {stats.total_calls / n:.0f} function calls, "
                  f"{sql / n:.1f} SQL statements")
            if args.dump:
                stats.dump_stats(args.dump)
            stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
