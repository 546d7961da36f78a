"""Load benchmark: many phones logging plays at once against the production server.

Run from the repository root:

    .venv/bin/python benchmarks/load.py            # the full run (about 40 s)
    .venv/bin/python benchmarks/load.py --quick    # a smoke run (about 15 s)

The server is started as it is run for real (gunicorn, ``scorekeeper:create_app()``,
the settings of ``benchmarks/server.py``; ``--server waitress`` for waitress) on a free
loopback port with a fresh database in a temporary folder, and stopped at the end.

The workload (``benchmarks/table_script.py``, ``benchmarks/phones.py``): 10 tables of
5 phones, 50 phones in all, each with its own keep-alive connection and session. Each
table plays Iceberg games of five players: the phone of the player whose turn it is
logs that player's plays of a scripted round — aces, melds, lay-offs, then the pass,
or going out — every one legal; at the end of the round every phone enters its
player's hand and the dealer's phone counts the round; when someone reaches 5000 a new
game starts. A play is sent as the table page's form sends it (CSRF token, request id)
and must be answered 303; a phone loads the table page after each of its melds (it lays
off on a meld by its id, read from the page) and, every second, each of the four phones
not playing asks for live updates as the page's script does (``/live``, 200 or 204). The
phones at one table take turns, so a table has one request in flight at a time: ten
tables, at most ten at once, as fast as the server answers (a closed loop). With
``--follow`` every phone loads the page every 303 names, as a browser without the
live script does; with ``--no-pages`` none (writes and live updates only: a phone takes
a meld's id from the ``?saved=<play id>`` its 303 names).

Everything the phones send counts: an answer other than the expected one, or none, is
an error. The first ``--warmup`` seconds are not measured. It prints the plays per
second (every write: table plays, hands, round counts, new games), their latency (p50,
p90, p99, slowest), the page loads and live updates, the errors, and the server's CPU
time per request (user + system time of the server's processes over the measured
requests). Before the main run, one table plays alone for a few seconds: the same
requests without concurrency, the baseline of what one request costs. Then the targets
and whether they are met.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(ROOT))

from benchmarks import server  # noqa: E402
from benchmarks.phones import Request, Table  # noqa: E402

TARGET_PLAYS = 500.0  # plays per second
TARGET_P99_MS = 50.0  # 99th percentile latency of a play
SEED = 20240601
READS = ("page", "live", "open")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered))) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def run_tables(port: int, process, *, tables: int, players: int, seconds: float,
               warmup: float, follow: bool, meld_pages: bool, watch: float, seed: int) -> dict:
    """Tables playing for ``warmup + seconds``; what the measured part did and cost."""
    drivers = [Table(server.HOST, port, seed=seed + i, players=players, follow=follow,
                     meld_pages=meld_pages, watch=watch) for i in range(tables)]
    stop = threading.Event()
    threads = [threading.Thread(target=t.run, args=(stop,), daemon=True) for t in drivers]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(warmup)
    measured_from = time.perf_counter()
    cpu_server, cpu_client = server.cpu_seconds(process), time.process_time()
    time.sleep(seconds)
    measured_to = time.perf_counter()
    cpu_server = server.cpu_seconds(process) - cpu_server
    cpu_client = time.process_time() - cpu_client
    stop.set()
    for thread in threads:
        thread.join(timeout=30)  # each request times out after 10 s: this always ends
    stuck = sum(thread.is_alive() for thread in threads)
    window = measured_to - measured_from
    measured: list[Request] = [
        r for t in drivers for r in t.requests
        if r.started >= measured_from and r.started + r.seconds <= measured_to
    ]
    errors = [e for t in drivers for e in t.errors]
    failed = [r for r in measured if r.status == 0 or r.status >= 400]
    return {
        "window": window,
        "elapsed": measured_to - started,
        "requests": measured,
        "writes": [r for r in measured if r.kind not in READS],
        "reads": [r for r in measured if r.kind in READS],
        "errors": errors,
        "failed": failed,
        "stuck": stuck,
        "cpu_server": cpu_server,
        "cpu_client": cpu_client,
        "rounds": sum(t.rounds_counted for t in drivers),
        "games": sum(len(t.games) for t in drivers),
    }


def describe(result: dict, label: str) -> None:
    window, writes, reads = result["window"], result["writes"], result["reads"]
    n_all = len(result["requests"]) or 1
    print(f"{label}: {len(writes)} plays and {len(reads)} reads in {window:.1f} s")
    if writes:
        lat = [r.seconds for r in writes]
        print(f"  plays/s {len(writes) / window:8.1f}    latency ms: p50 {ms(percentile(lat, 50))}"
              f"  p90 {ms(percentile(lat, 90))}  p99 {ms(percentile(lat, 99))}  max {ms(max(lat))}")
    for kind in ("page", "live"):
        these = [r.seconds for r in reads if r.kind == kind]
        if these:
            print(f"  {kind + 's/s':8} {len(these) / window:8.1f}    latency ms: p50 {ms(percentile(these, 50))}"
                  f"  p99 {ms(percentile(these, 99))}")
    print(f"  server CPU {result['cpu_server'] / window:.2f} cores: "
          f"{result['cpu_server'] / n_all * 1000:.2f} ms per request, "
          f"{result['cpu_server'] / max(len(writes), 1) * 1000:.2f} ms per play (reads included); "
          f"the phones (this process) {result['cpu_client'] / window:.2f} cores")
    kinds: dict[str, int] = {}
    for r in writes:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    print("  plays by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])))
    print(f"  errors: {len(result['errors'])} (answers other than expected, or none: "
          f"{len(result['failed'])} in the measured part)")
    for error in result["errors"][:5]:
        print(f"    {error}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5 s measured")
    parser.add_argument("--seconds", type=float, default=None, help="measured time (default 30)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured first")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=5, help="phones per table (2-6)")
    parser.add_argument("--server", choices=("gunicorn", "waitress"), default="gunicorn")
    parser.add_argument("--workers", type=int, default=server.GUNICORN_WORKERS)
    parser.add_argument("--worker-class", default=server.GUNICORN_CLASS, help="gunicorn's")
    parser.add_argument("--threads", type=int, default=None,
                        help=f"per worker (default {server.GUNICORN_THREADS} for gunicorn, "
                             f"{server.WAITRESS_THREADS} for waitress)")
    parser.add_argument("--follow", action="store_true",
                        help="every phone loads the page each 303 names (no live script)")
    parser.add_argument("--no-pages", action="store_true",
                        help="no page loads at all: a meld's id from its 303 (?saved=)")
    parser.add_argument("--watch", type=float, default=1.0,
                        help="seconds between live updates of a phone not playing (0: none)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the one-table run")
    parser.add_argument("--src", type=Path, default=ROOT,
                        help="serve the app from another checkout (e.g. a git worktree)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    seconds = args.seconds or (5.0 if args.quick else 30.0)
    if args.follow and args.no_pages:
        parser.error("--follow and --no-pages: one or the other")
    if not 2 <= args.players <= 6:
        parser.error("--players: Iceberg is played by 2 to 6")

    print(f"Load benchmark — {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, Python "
          f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    threads = args.threads or (server.GUNICORN_THREADS if args.server == "gunicorn"
                               else server.WAITRESS_THREADS)
    setup = (f"gunicorn, {args.workers} {args.worker_class} workers × {threads} "
             f"thread{'s' if threads > 1 else ''}"
             if args.server == "gunicorn" else f"waitress, {threads} threads")
    print(f"Server: {setup}, serving {args.src}")
    print(f"Phones: {args.tables} tables × {args.players} phones = {args.tables * args.players}, "
          f"{'following every redirect' if args.follow else 'no page loads' if args.no_pages else 'table page after each meld'}"
          f"{f', live updates every {args.watch:g} s' if args.watch else ''}; "
          f"{seconds:g} s measured after {args.warmup:g} s of warm-up\n")

    with tempfile.TemporaryDirectory(prefix="scorekeeper-load-") as folder:
        folder = Path(folder)
        port = server.free_port()
        process = server.start(args.server, port, folder / "scorekeeper.db", folder / "server.log",
                               src=args.src, workers=args.workers, threads=threads,
                               worker_class=args.worker_class)
        try:
            server.wait_ready(port, process)
            common = dict(players=args.players, follow=args.follow, meld_pages=not args.no_pages,
                          watch=args.watch)
            if not args.no_baseline:
                alone = run_tables(port, process, tables=1, seconds=min(5.0, seconds), warmup=1.0,
                                   seed=args.seed + 1000, **common)
                describe(alone, "Baseline, one table alone (no concurrency)")
                print()
            result = run_tables(port, process, tables=args.tables, seconds=seconds,
                                warmup=args.warmup, seed=args.seed, **common)
            describe(result, f"{args.tables} tables at once")
            print(f"  {result['rounds']} rounds counted, {result['games']} games started "
                  f"in {result['elapsed']:.1f} s")
            if result["stuck"]:
                print(f"  {result['stuck']} table(s) did not stop within 30 s")
        finally:
            server.stop(process)
            log = (folder / "server.log").read_text(errors="replace")
            if "Traceback" in log:
                print("\nThe server logged an error:\n" + log[log.index("Traceback"):][:3000])

    writes = result["writes"]
    plays_per_s = len(writes) / result["window"]
    p99 = percentile([r.seconds for r in writes], 99) * 1000 if writes else float("inf")
    errors = len(result["errors"])  # every unexpected answer, warm-up and baseline aside
    checks = [
        (f"at least {TARGET_PLAYS:g} plays/s", f"{plays_per_s:.0f}", plays_per_s >= TARGET_PLAYS),
        (f"p99 latency under {TARGET_P99_MS:g} ms", f"{p99:.1f} ms", p99 < TARGET_P99_MS),
        ("no errors", str(errors), errors == 0),
    ]
    print("\nTargets (issue \"Many phones, one table\", on this 2-core machine):")
    for what, got, ok in checks:
        print(f"  [{'met' if ok else 'NOT MET'}] {what}: {got}")
    return 0 if errors == 0 else 1  # a report; only errors (a broken server) fail it


if __name__ == "__main__":
    sys.exit(main())
