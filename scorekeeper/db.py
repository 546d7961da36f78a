"""The database: one connection per request, its schema, and write transactions.

A game is its log (STYLE.md): the tables hold who sits where, the rules, every play and
the hands counted at the end of each round. Scores are always recomputed from them;
the few summary columns on ``games`` are a cache for the history list, rewritten by
every write.

Connections run in WAL mode with a busy timeout, and every write goes through
``with write(db):``, which takes the write lock up front with ``BEGIN IMMEDIATE``: a
plain ``BEGIN`` that reads and then writes can fail at once with "database is locked"
when a second phone at the table writes at the same moment.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from typing import Iterator

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from . import writelock

BUSY_TIMEOUT_MS = 5000
# Pages read through a memory map, not copied by a read() each: every write of another
# connection (the other server process) empties this connection's page cache, so the
# next request reads its pages again (https://www.sqlite.org/mmap.html).
MMAP_BYTES = 256 * 2**20

migrations = Migrations("scorekeeper")


@migrations()
def m001_games_plays_hands(db: Database) -> None:
    """Games, their plays (the log) and the hands counted at the end of each round."""
    db["games"].create(
        {
            "id": int,
            "variant": str,
            "players": str,  # JSON list, seating order (clockwise)
            "rules": str,  # JSON object: the rule options chosen at the start
            "first_dealer": int,  # seat index of the first round's dealer
            "created": str,
            "updated": str,
            "version": int,  # bumped by every write: phones watching the table poll it
            # A cache of the replay, for the history list; never the only copy.
            "over": int,
            "status": str,
            "round_no": int,
            "totals": str,
        },
        pk="id",
        not_null={"variant", "players", "rules", "first_dealer", "created", "updated"},
        defaults={"version": 0, "over": 0, "status": "in progress", "round_no": 1, "totals": "{}"},
    )
    db["plays"].create(
        {
            "id": int,
            "game": int,
            "round_no": int,
            "seq": int,  # order within the round
            "type": str,  # ace, meld, layoff, out or pass (a turn passed on)
            "player": str,
            "cards": str,  # JSON list of canonical card names
            # A lay-off names the *play* that made its meld, so editing or deleting
            # other plays never re-points it; the game file's meld numbers are derived.
            "target": int,
            "created": str,
        },
        pk="id",
        not_null={"game", "round_no", "seq", "type", "player", "cards", "created"},
        foreign_keys=[("game", "games", "id"), ("target", "plays", "id")],
    )
    db["plays"].create_index(["game", "round_no", "seq"], unique=True)
    db["hands"].create(
        {
            "id": int,
            "game": int,
            "round_no": int,
            "player": str,
            "cards": str,  # JSON list of canonical card names
            "confirmed": int,  # 0 while the round end is being entered, 1 once counted
            "created": str,
        },
        pk="id",
        not_null={"game", "round_no", "player", "cards", "created"},
        defaults={"confirmed": 0},
        foreign_keys=[("game", "games", "id")],
    )
    db["hands"].create_index(["game", "round_no", "player"], unique=True)


@migrations()
def m002_links_requests_revisions(db: Database) -> None:
    """Secret links per game, one record per acted-on request, a revision per play.

    - ``edit_token`` / ``view_token``: the secrets in a game's edit and read-only links
      (every existing game gets its own);
    - ``requests``: the idempotency key of every form acted on, so a double tap or a
      resubmitted form records one play;
    - ``plays.revision``: bumped by every edit, so an edit of a play that someone else
      changed meanwhile is refused instead of applied over it.
    """
    import secrets

    db["games"].add_column("edit_token", str)
    db["games"].add_column("view_token", str)
    for row in list(db["games"].rows):
        db["games"].update(
            row["id"], {"edit_token": secrets.token_urlsafe(18), "view_token": secrets.token_urlsafe(18)}
        )
    db["plays"].add_column("revision", int, not_null_default=0)
    db["requests"].create(
        {"game": int, "request_id": str, "created": str},
        pk=("game", "request_id"),
        foreign_keys=[("game", "games", "id")],
    )



@migrations()
def m003_game_teams(db: Database) -> None:
    """Partnerships (Robber Rummy): ``games.teams``, the game file's ``teams`` as JSON
    (null when everyone plays for himself, as every game made before this did)."""
    db["games"].add_column("teams", str)


@migrations()
def m004_players(db: Database) -> None:
    """The people who play, across games (scorekeeper/players.py).

    - ``players``: one row per person; ``name`` as shown, ``key`` the name compared
      case-insensitively (unique: "ann" and "Ann" are one person);
    - ``seats``: which player sat in each seat of each game (one player once a game).

    Games keep their names (``games.players``, ``plays.player``, ``hands.player``): the
    rules library works with names. Every existing game gets its players here, matched
    by name case-insensitively.
    """
    db["players"].create(
        {"id": int, "name": str, "key": str, "created": str},
        pk="id", not_null={"name", "key", "created"},
    )
    db["players"].create_index(["key"], unique=True)
    db["seats"].create(
        {"game": int, "seat": int, "player": int},
        pk=("game", "seat"),
        foreign_keys=[("game", "games", "id"), ("player", "players", "id")],
    )
    db["seats"].create_index(["game", "player"], unique=True)
    db["seats"].create_index(["player"])
    import json

    from .players import seat_players

    for game_id, names in db.execute("SELECT id, players FROM games ORDER BY id").fetchall():
        seat_players(db.conn, game_id, json.loads(names))


def connect(path: str) -> Database:
    """A connection set up the way every request and command uses it.

    - WAL mode, a busy timeout, foreign keys on;
    - ``synchronous = NORMAL``: in WAL mode a commit then skips the fsync and is durable
      once it is in the WAL file, so a crashed or killed server loses nothing it
      acknowledged (``tests/test_crash.py``); a power cut may lose the last commits,
      never the database (https://www.sqlite.org/pragma.html#pragma_synchronous);
    - ``close()`` keeps it open for the next ``connect`` to the same file on the same
      thread (see :class:`_Connection`). When the last connection to a WAL database
      closes, SQLite checkpoints it and deletes the WAL file, and the next commit must
      sync a new one: with a connection per request that cost more than the requests.
      So a running app keeps its database files open: replace or delete them only
      through SQLite (``store.backup``) or under a new name.
    """
    conn = _reuse(path)
    if conn is None:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, factory=_Connection)
        db = Database(conn)
        if db.journal_mode != "wal":
            db.enable_wal()
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        conn.path = path
        conn.writers = writelock.queue_for(path)
        conn.database = db
    else:
        db = conn.database
        if not conn.settings_changed:  # its last user ran no PRAGMA: as set below
            return db
    # Whatever the connection's last user changed is put right.
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA foreign_keys = ON")
    conn.settings_changed = False
    return db


class _Connection(sqlite3.Connection):
    """The app's connection: it queues for the write lock, and outlives ``close()``.

    - ``BEGIN IMMEDIATE`` first waits its turn in the database's writer queue
      (:mod:`scorekeeper.writelock`), held until the transaction ends, so concurrent
      writers hand SQLite's lock on at once instead of sleeping in its busy handler.
    - ``close()`` leaves it open, idle, for its thread's next ``connect``. Each thread
      keeps at most one idle connection. It is handed on only to the next ``connect``
      on that thread to the same path while the files are still the ones it opened
      (never to two users at once, to another thread, or across a fork), with no
      transaction open. Any other close really closes it.
    """

    path = ""
    files: tuple = ()  # (device, inode) of the database and of its WAL, when made idle
    writers: writelock.WriterQueue | None = None
    _queued = False  # holding this database's turn to write
    _changes_at_begin = -1
    # A PRAGMA was run since ``connect`` set the busy timeout and foreign keys (a
    # migration turns foreign keys off): the next ``connect`` sets them again. Every
    # request reuses the connection, and two PRAGMAs a request were a tenth of its SQL.
    settings_changed = True

    def executescript(self, sql_script, /):
        self.settings_changed = True
        return super().executescript(sql_script)

    def cursor(self, *args, **kwargs):  # statements on a cursor are not seen here
        self.settings_changed = True
        return super().cursor(*args, **kwargs)

    def execute(self, sql, parameters=(), /):
        head = sql[:15].upper()
        if "PRAGMA" in head:
            self.settings_changed = True
        begin = head == "BEGIN IMMEDIATE"
        if begin and self.writers is not None and not self._queued:
            self._queued = self.writers.acquire(BUSY_TIMEOUT_MS / 1000)
        try:
            cursor = super().execute(sql, parameters)
            if begin:
                self._changes_at_begin = self.total_changes
            return cursor
        finally:
            self._done_writing()

    def unwritten(self) -> bool:
        """In a write transaction that has changed nothing yet: what it reads is committed."""
        return self.in_transaction and self.total_changes == self._changes_at_begin

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._done_writing()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._done_writing()

    def _done_writing(self) -> None:
        """The turn ends with the transaction (committed, rolled back, or never begun)."""
        if self._queued and not self.in_transaction:
            self._queued = False
            self.writers.release()

    def close(self) -> None:
        if getattr(_idle, "conn", None) is self:  # closed twice: idle already
            return
        if self.in_transaction:  # nothing half-done is ever handed on
            self.rollback()
        self._done_writing()
        if getattr(_idle, "conn", None) is None and self.path:
            self.files = _files(self.path)
            if self.files[0] is not None:
                self.row_factory, self.text_factory, self.isolation_level = None, str, ""
                self.set_trace_callback(None)
                self.pid = os.getpid()
                _idle.conn = self
                return
        super().close()


_idle = threading.local()  # .conn: this thread's idle connection, if any
_abandoned: list[sqlite3.Connection] = []  # see _retire


def _files(path: str) -> tuple:
    ids = []
    for name in (path, path + "-wal"):
        try:
            stat = os.stat(name)
            ids.append((stat.st_dev, stat.st_ino))
        except (OSError, ValueError):  # ":memory:", or no such file
            ids.append(None)
    return tuple(ids)


def _reuse(path: str) -> _Connection | None:
    """This thread's idle connection, if it is to this path and its files are unchanged."""
    conn = getattr(_idle, "conn", None)
    if conn is None:
        return None
    _idle.conn = None
    if conn.pid == os.getpid() and conn.path == path and _files(path) == conn.files:
        return conn
    _retire(conn)
    return None


def _retire(conn: _Connection) -> None:
    """Really close an idle connection, unless its files were swapped under it.

    Closing the last connection checkpoints its WAL into the database file. If that
    file is still there but its WAL was deleted or replaced (a copy put in place of the
    database while the app had it open), the checkpoint would write old pages into the
    new file: such a connection is left open instead, never used again.
    """
    database, wal = _files(conn.path)
    if database is not None and database == conn.files[0] and wal != conn.files[1]:
        _abandoned.append(conn)
    else:
        sqlite3.Connection.close(conn)


def _close_idle() -> None:
    """Before a fork (gunicorn --preload): the child must not inherit an open connection."""
    conn = getattr(_idle, "conn", None)
    if conn is not None:
        _idle.conn = None
        _retire(conn)


os.register_at_fork(before=_close_idle)


def migrate(db: Database) -> list[str]:
    """Apply the migrations this database has not had yet; returns their names."""
    pending = [m.name for m in migrations.pending(db)]
    migrations.apply(db)
    return pending


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """One user action, one transaction: ``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK``."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    else:
        db.commit()


# ---------------------------------------------------------------------------------------
# Flask glue: the connection lives on ``g`` for one request.


def get_db() -> Database:
    from flask import current_app, g

    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    from flask import g

    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app) -> None:
    """Close the connection after each request, add ``init-db``, migrate at start."""
    import click

    app.teardown_appcontext(close_db)

    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create the database, or bring an older one up to date."""
        db = connect(app.config["DATABASE"])
        try:
            applied = migrate(db)
        finally:
            db.close()
        click.echo(
            f"Applied {', '.join(applied)} to {app.config['DATABASE']}." if applied
            else f"{app.config['DATABASE']} is up to date."
        )

    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
    finally:
        db.close()
