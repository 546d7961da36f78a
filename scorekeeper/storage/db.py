"""The database: a connection set up the app's way, and write transactions (the schema and
its history, every migration: storage/migrations.py).

A game is its log: the tables hold who sits where, the rules, every play and
the hands counted at the end of each round. Scores are computed from them; what is kept
besides is derived and rebuilt from them: each finished round's results (``round_results``,
storage/results.py) and the few summary columns on ``games`` that the history list shows,
both rewritten by the change that alters them; and what the pages last drew of a game
(``drawn_payloads``, storage/drawn.py), shared by the server's processes and never
read as the game.

Connections run in WAL mode with a busy timeout, and every write goes through
``with write(db):``, which takes the write lock up front with ``BEGIN IMMEDIATE``: a
plain ``BEGIN`` that reads and then writes can fail at once with "database is locked"
when a second phone at the table writes at the same moment.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from sqlite_utils import Database

BUSY_TIMEOUT_MS = 5000


def connect(path: str, *, any_thread: bool = False) -> Database:
    """A connection set up the way every request and command uses it.

    ``any_thread``: usable from another thread than the one that opened it (the web app
    keeps connections between requests, each used by one request at a time, in whichever
    thread serves it: web/database.py).

    WAL mode, a busy timeout, foreign keys on, and ``synchronous = NORMAL``: in WAL mode
    a commit then skips the fsync and is durable once it is in the WAL file, so a crashed
    or killed server loses nothing it acknowledged (``tests/test_crash.py``); a power cut
    may lose the last commits, never the database
    (https://www.sqlite.org/pragma.html#pragma_synchronous).
    """
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=not any_thread)
    db = Database(conn)
    if db.journal_mode != "wal":
        db.enable_wal()
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return db


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """One user action, one transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK``."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    else:
        db.conn.commit()
