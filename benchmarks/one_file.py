"""Benchmark: what one SQLite file holds on this machine (issue 22, item 6; docs/scaling.md).

Run from the repository root:

    .venv/bin/python benchmarks/one_file.py            # about a minute
    .venv/bin/python benchmarks/one_file.py --games 2000

The stores alone, in one process (no pages, no server: those are benchmarks/load.py's),
on a fresh database file with the app's settings (WAL, synchronous NORMAL):

- **Plays a second.** Tables of five play the load benchmark's scripted Iceberg rounds
  (``table_script.py``: aces, melds, lay-offs, passes, the hands, the count) through the
  stores, one play after another as fast as they go: plays a second, and how long each
  write held the write lock (the lock's share of the time: what is left for other writers).
- **Games in one file.** The file is filled with games of ten rounds each (imported, as a
  file of the same rounds), and its size per game and per round is said; then a round's
  table and a game page's reads are timed with 10 games in the file and with ``--games``:
  the indexes (game, round) keep a game's reads from growing with the others.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import table_script  # noqa: E402 -- after the sys.path.insert
from scorekeeper.games import registry  # noqa: E402 -- after the sys.path.insert
from scorekeeper.storage import db as database  # noqa: E402 -- after the sys.path.insert
from scorekeeper.storage import (  # noqa: E402 -- after the sys.path.insert
    games,
    kernel,
    log_changes,
    logs,
    migrations,  # noqa: E402 -- after the sys.path.insert
    results,
)

PLAYERS = 5


def script_game(rng: random.Random, rounds: int) -> list[list[tuple]]:
    return [table_script.script_round(rng, PLAYERS, (r + 1) % PLAYERS, r % PLAYERS) for r in range(rounds)]


def as_file(scripted: list[list[tuple]]) -> dict:
    """The scripted rounds as a game file (the steps the game file records)."""
    names = list(table_script.PLAYERS[:PLAYERS])
    rounds = []
    for steps in scripted:
        events, hands = [], {}
        for step in steps:
            kind, seat = step[0], step[1]
            if kind == "ace":
                events.append({"type": "ace", "player": names[seat], "cards": [step[2]]})
            elif kind == "meld":
                events.append({"type": "meld", "player": names[seat], "cards": step[2]})
            elif kind == "layoff":
                events.append({"type": "layoff", "player": names[seat], "meld": step[2], "cards": step[3]})
            elif kind == "out":
                events.append({"type": "out", "player": names[seat]})
            elif kind == "hand":
                hands[names[seat]] = step[2]
        rounds.append({"events": events, "hands": hands})
    return {"format": "scorekeeper/1", "variant": "iceberg", "rules": {"target": 10**9}, "players": names,
            "teams": None, "rounds": rounds}


def play(db, game_id: int, steps: list[tuple], round_no: int, n: list[int]) -> None:
    """One scripted round through the stores, as the phones send it."""
    names = table_script.PLAYERS[:PLAYERS]
    melds: list[int] = []
    for step in steps:
        n[0] += 1
        rid = f"r{n[0]}"
        kind, seat = step[0], step[1]
        if kind == "ace":
            log_changes.add_play(db, game_id, rid, "ace", names[seat], [step[2]])
        elif kind == "meld":
            row, _ = log_changes.add_play(db, game_id, rid, "meld", names[seat], step[2])
            melds.append(row.id)
        elif kind == "layoff":
            log_changes.add_play(db, game_id, rid, "layoff", names[seat], step[3], melds[step[2] - 1])
        elif kind == "pass":
            log_changes.add_play(db, game_id, rid, "pass", "")
        elif kind == "out":
            log_changes.add_play(db, game_id, rid, "out", names[seat])
        elif kind == "hand":
            log_changes.save_hand(db, game_id, rid, round_no, names[seat], step[2])
        elif kind == "confirm":
            log_changes.confirm_round(db, game_id, rid, round_no)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of ten rounds in the full file (1000)")
    parser.add_argument("--seconds", type=float, default=15, help="the plays' part, measured (15)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "one.db")
    db = database.connect(path)
    migrations.migrate(db)
    rng = random.Random(11)

    held: list[float] = []
    plain_write = database.write

    @contextmanager
    def timed(conn):
        with plain_write(conn) as inside:
            start = time.perf_counter()
            yield inside
        held.append(time.perf_counter() - start)

    for module in (kernel, log_changes, games):
        module.write = timed

    # Plays a second, through the stores.
    iceberg = registry.get("iceberg")
    game_id, _secret = games.create(db, iceberg, list(table_script.PLAYERS[:PLAYERS]), {"target": 10**9}, 4)
    n, plays, round_no = [0], 0, 1
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        steps = table_script.script_round(rng, PLAYERS, round_no % PLAYERS, (round_no - 1) % PLAYERS)
        before = n[0]
        play(db, game_id, steps, round_no, n)
        plays += n[0] - before
        round_no += 1
        if round_no > 100:  # a game holds 100 rounds: the next game
            game_id, _secret = games.create(db, iceberg, list(table_script.PLAYERS[:PLAYERS]),
                                            {"target": 10**9}, 4)
            round_no = 1
    elapsed = time.perf_counter() - started
    lock = sum(held)
    per_play = [h * 1000 for h in held]

    # Games in one file.
    scripted = [as_file(script_game(rng, 10)) for _ in range(5)]
    size_before = os.path.getsize(path) + os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0

    made = [0]

    def fill(count: int) -> None:
        for _ in range(count):
            made[0] += 1  # each a file of its own (the same file twice is one game)
            games.import_document(db, dict(scripted[made[0] % len(scripted)], rules={"target": 10**8 + made[0]}))

    def reads(game: int) -> tuple[float, float]:
        table = min(_timed(lambda: logs.replay(logs.load(db, game))) for _ in range(30))
        page = min(_timed(lambda: (results.scores(db, game), logs.replay(logs.load(db, game)))) for _ in range(30))
        return table * 1000, page * 1000

    fill(10)
    probe = db.execute("SELECT max(id) FROM games").fetchone()[0]
    few = reads(probe)
    fill(args.games - 10)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    many = reads(probe)
    total_games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    total_rounds = db.execute("SELECT count(*) FROM round_results").fetchone()[0]
    size = os.path.getsize(path)

    print(f"One SQLite file — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.1f}, {path}")
    print(f"plays through the stores, one after another: {plays} in {elapsed:.1f} s = {plays / elapsed:.0f} a second")
    print(f"  the write lock held {lock:.1f} s of {elapsed:.1f} ({100 * lock / elapsed:.0f}%); a write: median "
          f"{statistics.median(per_play):.2f} ms, p99 {sorted(per_play)[int(len(per_play) * 0.99)]:.2f} ms, "
          f"longest {max(per_play):.2f} ms")
    print(f"  at the realistic load's 25 plays a second (load.py: 50 tables): the lock held "
          f"{25 * statistics.mean(per_play) / 10:.1f}% of the time")
    print(f"games in the file: {total_games} ({total_rounds} rounds kept), {size / 2**20:.1f} MB: "
          f"{size / total_rounds / 1024:.1f} KB a round, {size / total_games / 1024:.0f} KB a game of ten rounds"
          f"{'' if not size_before else ''}")
    print(f"a game's reads with {10} games and with {total_games} in the file (fastest of 30):")
    print(f"  its round being played, read and replayed: {few[0]:.2f} → {many[0]:.2f} ms")
    print(f"  and its rounds' scores (a game page's):    {few[1]:.2f} → {many[1]:.2f} ms")
    return 0


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
