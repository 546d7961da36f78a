"""The database: migrations, WAL, write transactions, the init-db command, the secret key."""
import sqlite3

import pytest

from scorekeeper import create_app
from scorekeeper.storage.db import connect, write
from scorekeeper.storage.migrations import migrate, migrations
from scorekeeper.web import _secret_key


def test_a_fresh_database_is_created_and_migrated(tmp_path):
    path = tmp_path / "fresh.db"
    create_app({"DATABASE": str(path), "SECRET_KEY": "x"})
    db = connect(str(path))
    assert {"games", "play_entries", "hand_entries", "changes", "groups"} <= set(db.table_names())
    assert {"plays", "hands"} <= set(db.view_names())  # the log as it stands
    assert [m.name for m in migrations.applied(db)] == [
        "m001_games_plays_hands", "m002_links_requests_revisions", "m003_game_teams", "m004_players",
        "m005_game_origins", "m006_games_said_status", "m007_round_results", "m008_drawn_payloads", "m009_groups",
        "m010_names_that_look_alike", "m011_change_record", "m012_nights",
        "m013_group_names"]
    assert migrate(db) == []  # nothing left to apply


def test_connections_use_wal_and_a_busy_timeout(db):
    assert db.journal_mode == "wal"
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_write_rolls_back_on_error(db):
    with pytest.raises(RuntimeError), write(db):
        db["games"].insert({"variant": "iceberg", "players": "[]", "rules": "{}", "first_dealer": 0,
                            "created": "t", "updated": "t"})
        raise RuntimeError("boom")
    assert db["games"].count == 0


def test_write_takes_the_lock_up_front(app, db):
    other = sqlite3.connect(app.config["DATABASE"], timeout=0)
    try:
        with write(db), pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    finally:
        other.close()


def test_init_db_command(runner):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0 and "up to date" in result.output


def test_secret_key_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    first = _secret_key(tmp_path)
    assert len(first) >= 32 and _secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    assert _secret_key(tmp_path) == "from-env"


def test_database_path_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "env.db"))
    app = create_app({"SECRET_KEY": "x"})
    assert app.config["DATABASE"] == str(tmp_path / "env.db")
    assert (tmp_path / "env.db").exists()


def test_a_connection_is_kept_for_the_next_request_without_what_a_failed_one_left(app, table):
    """web/database.py keeps a request's connection open for the next one: what a request
    left half-done (an open transaction) is rolled back first, and a database file named
    anew closes the connections of the one before."""
    from scorekeeper.web.database import close_db, get_db

    table.new_game(["A", "B"])
    with app.test_request_context():
        db = get_db()
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE games SET version = version + 100")
        close_db()  # a request that failed half-way
    with app.test_request_context():
        again = get_db()
        assert again is db and not again.conn.in_transaction
        assert again.execute("SELECT version FROM games").fetchone()[0] < 100
        close_db()
    app.config["DATABASE"] = app.config["DATABASE"] + "-other"
    with app.test_request_context():
        assert get_db() is not db
        close_db()
    with pytest.raises(sqlite3.ProgrammingError):  # closed, not left open
        db.execute("SELECT 1")
