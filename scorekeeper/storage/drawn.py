"""What the pages drew of a game, kept for the server's other processes.

gunicorn serves the app from two processes (one per core), and the phones of one table
hold their streams in either: a change was drawn into its live payload (web/live.py)
once by the process that took the play and once more by the other, for its own phones
(a third of the served app's CPU at the realistic load: benchmarks/README.md, "One
payload for both processes"). Here the process that draws a payload keeps it, and the
other reads it instead of reading the game and drawing it again.

One row per game and kind of phone (its link and language, which ``kind`` names): only
the latest version is kept, a row whose game has not moved for :data:`KEPT_SECONDS` is
dropped by the next one kept, and a row is only read for the version the game is at (a
newer one will do): versions only move on, so what is read is what would be drawn. The
rows are dropped whenever the app starts (:func:`forget`), since another release of
the app draws its pages otherwise. Keeping one is a courtesy: if another phone's change holds
the write lock, it waits a few ms for it (in steps, not sqlite's busy handler, which would
stop every request of a gevent worker), then gives up, and the other process draws its
own. Nothing here is the game, or read as it.
"""
from __future__ import annotations

import sqlite3
import time

from sqlite_utils import Database

from .db import BUSY_TIMEOUT_MS, write

# While another change holds the write lock, the payload waits for it this long, in steps
# (seconds; 30 ms in all): a change holds it a few ms.
LOCK_WAITS = (0.002, 0.004, 0.008, 0.016)
KEPT_SECONDS = 3600.0  # a payload of a game that has not moved for this long is dropped


def kept(db: Database, game_id: int, kind: str, version: int) -> tuple[int, str] | None:
    """(version, body) of the payload kept for ``kind`` at ``version`` or later, or None."""
    row = db.execute("SELECT version, body FROM drawn_payloads WHERE game = ? AND kind = ? AND version >= ?",
                     [game_id, kind, version]).fetchone()
    return (row[0], row[1]) if row is not None else None


def keep(db: Database, game_id: int, kind: str, version: int, body: str) -> bool:
    """Keep ``body`` as ``kind``'s payload at ``version`` (unless a newer one is kept), and
    drop those of games idle for long; False, and nothing kept, if the write lock stays
    held (:data:`LOCK_WAITS`) or the file takes no write."""
    db.conn.execute("PRAGMA busy_timeout = 0")
    try:
        for pause in (*LOCK_WAITS, None):
            try:
                db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError:  # another change is being written
                if pause is None:
                    return False  # still: not kept
                time.sleep(pause)  # gevent's in the served app: the worker's other requests go on
    finally:
        db.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    now = time.time()
    try:
        db.execute("INSERT INTO drawn_payloads (game, kind, version, body, stored) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT (game, kind) DO UPDATE SET version = excluded.version, body = excluded.body, "
                   "stored = excluded.stored WHERE excluded.version > drawn_payloads.version",
                   [game_id, kind, version, body, now])
        db.execute("DELETE FROM drawn_payloads WHERE stored < ?", [now - KEPT_SECONDS])
        db.conn.commit()
    except sqlite3.Error:  # a full disk, say: the payload was drawn all the same
        db.conn.rollback()
        return False
    except BaseException:
        db.conn.rollback()
        raise
    return True


def forget(db: Database) -> None:
    """Drop every kept payload: the app starting (its pages may be drawn otherwise now)."""
    with write(db):
        db.execute("DELETE FROM drawn_payloads")
