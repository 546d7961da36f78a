"""`scorekeeper backup` makes a consistent copy while others write (issue: safe storage).

A writer thread keeps importing the seed game — one transaction of a game row, nine
plays and two hands each time — while backups are taken. A consistent copy holds only
whole games: every game in it has all nine plays and its hands, and replays to the
seed's scores. A copy taken row by row (without SQLite's backup API) would sooner or
later catch an import half-way.
"""
import json
import threading

from scorekeeper import create_app, gamefile
from scorekeeper.storage import kernel
from scorekeeper.storage.db import connect
from scorekeeper.storage.games import export_document, import_document
from tests.conftest import EXAMPLES

SEED = json.loads((EXAMPLES / "iceberg-seed-example.json").read_text())
EVENTS = len(SEED["rounds"][0]["events"])


def test_backups_taken_during_writes_hold_only_whole_games(tmp_path):
    path = str(tmp_path / "live.db")
    create_app({"DATABASE": path, "SECRET_KEY": "x"})  # creates and migrates the database
    stop = threading.Event()
    imported = []

    def writer():
        db = connect(path)
        try:
            while not stop.is_set() and len(imported) < 200:
                # Each a game file of its own (one imported twice is refused): its target differs.
                doc = dict(SEED, rules={**SEED.get("rules", {}), "target": 5000 + len(imported)})
                imported.append(import_document(db, doc))
        finally:
            db.close()

    thread = threading.Thread(target=writer)
    thread.start()
    copies = []
    try:
        reader = connect(path)
        for i in range(8):
            while len(imported) < 5 * (i + 1) and thread.is_alive():
                stop.wait(0.01)
            copy = tmp_path / f"copy{i}.db"
            kernel.backup(reader, str(copy))
            copies.append(copy)
        reader.close()
    finally:
        stop.set()
        thread.join()
    assert len(imported) >= 40
    sizes = []
    for copy in copies:
        db = connect(str(copy))
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        games = [row["id"] for row in db.query("SELECT id FROM games")]
        sizes.append(len(games))
        for game_id in games:
            plays = db.execute("SELECT count(*) FROM plays WHERE game = ?", [game_id]).fetchone()[0]
            hands = db.execute("SELECT count(*) FROM hands WHERE game = ?", [game_id]).fetchone()[0]
            assert (plays, hands) == (EVENTS, 3), (copy.name, game_id)
        last = export_document(db, games[-1])
        assert gamefile.score_document(last)["totals"] == {"A": 100, "B": -120, "C": -20}
        db.close()
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]  # taken while the writes went on
