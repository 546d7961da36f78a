"""The schema's history: every migration since the first, and :func:`migrate`, which applies
the ones a database has not had yet (sqlite-utils' migrations, in order, each once).

A migration may need the stores themselves (seating players, replaying every game to
keep its rounds' results, the names compared as the app compares them), so they live
here, above the stores, and the stores' module of connections and transactions
(storage/db.py) needs none of them. The app (web/database.py) and the command line
migrate a database when they open it.
"""
from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
from datetime import UTC, datetime

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from . import games, results
from .kernel import Refused, key_of, seat_players

migrations = Migrations("scorekeeper")


@migrations()
def m001_games_plays_hands(db: Database) -> None:
    """Games, their plays (the log) and the hands counted at the end of each round."""
    db.table("games").create(
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
    db.table("plays").create(
        {
            "id": int,
            "game": int,
            "round_no": int,
            "seq": int,  # order within the round
            "type": str,  # what the table logged: a game file event, a pass, …
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
    db.table("plays").create_index(["game", "round_no", "seq"], unique=True)
    db.table("hands").create(
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
    db.table("hands").create_index(["game", "round_no", "player"], unique=True)


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
    db.table("games").add_column("edit_token", str)
    db.table("games").add_column("view_token", str)
    for row in list(db.table("games").rows):
        db.table("games").update(
            row["id"], {"edit_token": secrets.token_urlsafe(18), "view_token": secrets.token_urlsafe(18)}
        )
    db.table("plays").add_column("revision", int, not_null_default=0)
    db.table("requests").create(
        {"game": int, "request_id": str, "created": str},
        pk=("game", "request_id"),
        foreign_keys=[("game", "games", "id")],
    )


@migrations()
def m003_game_teams(db: Database) -> None:
    """Partnerships (Robber Rummy): ``games.teams``, the game file's ``teams`` as JSON
    (null when everyone plays for themselves, as every game made before this did)."""
    db.table("games").add_column("teams", str)


@migrations()
def m004_players(db: Database) -> None:
    """The people who play, across games (storage/players.py).

    - ``players``: one row per person; ``name`` as shown, ``key`` the name compared
      case-insensitively (unique: "ann" and "Ann" are one person);
    - ``seats``: which player sat in each seat of each game (one player once a game).

    Games keep their names (``games.players``, ``plays.player``, ``hands.player``): the
    rules library works with names. Every existing game gets its players here, matched
    by name case-insensitively.
    """

    db.table("players").create(
        {"id": int, "name": str, "key": str, "created": str},
        pk="id", not_null={"name", "key", "created"},
    )
    db.table("players").create_index(["key"], unique=True)
    db.table("seats").create(
        {"game": int, "seat": int, "player": int},
        pk=("game", "seat"),
        foreign_keys=[("game", "games", "id"), ("player", "players", "id")],
    )
    db.table("seats").create_index(["game", "player"], unique=True)
    db.table("seats").create_index(["player"])
    for game_id, names in db.execute("SELECT id, players FROM games ORDER BY id").fetchall():
        seat_players(db, game_id, json.loads(names), grouped=False)


@migrations()
def m005_game_origins(db: Database) -> None:
    """Where a game came from, so that it is made once: ``games.made_by``, the request id
    of the new-game form that made it (a double tap makes one game), and
    ``games.source``, the digest of the game file it was imported from (the same file
    imported again is said to be here already)."""
    db.table("games").add_column("made_by", str)
    db.table("games").add_column("source", str)
    db.table("games").create_index(["made_by"], unique=True)
    db.table("games").create_index(["source"])


@migrations()
def m006_games_said_status(db: Database) -> None:
    """The history list's status as a sentence (games/words.py ``to_data``: its template
    and values), so that each phone reads it in its own language; ``games.status`` keeps
    the English. Games saved before have none until their next change: their English
    status is shown meanwhile."""
    db.table("games").add_column("said_status", str)


@migrations()
def m007_round_results(db: Database) -> None:
    """Each finished round's results kept beside the log (storage/results.py), as JSON:
    its record in parts (``scores``; ``said``: how it ended in words; ``figures``: what the
    game page shows of each player; ``facts``: the card-level records of the statistics,
    read apart from the rest) and ``standing`` (the game after it). Every existing game's
    are made from its log; a game whose log no longer replays gets none."""

    db.table("round_results").create(
        {"game": int, "round_no": int, "scores": str, "said": str, "figures": str, "facts": str,
         "standing": str},
        pk=("game", "round_no"), not_null={"scores", "said", "figures", "facts", "standing"},
        foreign_keys=[("game", "games", "id")],
    )
    for (game_id,) in db.execute("SELECT id FROM games ORDER BY id").fetchall():
        with contextlib.suppress(Refused):
            results.write(db, game_id, 1, results.encode(games.replayed_rounds(db, game_id)))


@migrations()
def m008_drawn_payloads(db: Database) -> None:
    """What the pages drew of a game's latest version for one kind of phone, kept for the
    server's other processes (storage/drawn.py): derived, and never read as the game."""
    db.table("drawn_payloads").create(
        {"game": int, "kind": str, "version": int, "body": str, "stored": float},
        pk=("game", "kind"), not_null={"version", "body", "stored"},
        foreign_keys=[("game", "games", "id")],
    )
    db.table("drawn_payloads").create_index(["stored"])


@migrations()
def m009_groups(db: Database) -> None:
    """Groups: the people who play together (a household, a club). Every game belongs to
    one group (``games.group_id``), and so does every player (``players.group_id``): a
    name is unique within its group (``players.key`` unique per group, no longer on the
    server). A group has its own edit and read-only links (``groups.edit_token``,
    ``view_token``).

    Existing games are grouped by docs/groups.md's rule: games that share a player (the
    server-wide players before this) are one group, the connected components of the
    games and their players; every other game is a group of its own, and a player who
    sat in no game is one too.
    """
    db.table("groups").create(
        {"id": int, "edit_token": str, "view_token": str, "created": str},
        pk="id", not_null={"edit_token", "view_token", "created"},
    )
    db.table("games").add_column("group_id", int)
    db.table("players").add_column("group_id", int)
    db.execute("DROP INDEX IF EXISTS idx_players_key")
    db.table("players").create_index(["group_id", "key"], unique=True)
    db.table("games").create_index(["group_id"])
    db.table("players").create_index(["group_id"])
    # Connected components of the graph of games and players (union-find over players).
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for (game_id,) in db.execute("SELECT id FROM games ORDER BY id").fetchall():
        root(("game", game_id))
    for (player_id,) in db.execute("SELECT id FROM players ORDER BY id").fetchall():
        root(("player", player_id))
    for game_id, player_id in db.execute("SELECT game, player FROM seats").fetchall():
        a, b = root(("game", game_id)), root(("player", player_id))
        if a != b:
            parent[max(a, b)] = min(a, b)
    made: dict[tuple[str, int], int] = {}
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    for node in sorted(parent):  # games first, by id: group ids follow the games' order
        top = root(node)
        if top not in made:
            group_id = db.execute(
                "INSERT INTO groups (edit_token, view_token, created) VALUES (?, ?, ?)",
                [secrets.token_urlsafe(18), secrets.token_urlsafe(18), stamp]).lastrowid
            assert group_id is not None  # an INSERT's row id
            made[top] = group_id
        table = "games" if node[0] == "game" else "players"
        db.execute(f"UPDATE {table} SET group_id = ? WHERE id = ?", [made[top], node[1]])


@migrations()
def m010_names_that_look_alike(db: Database) -> None:
    """Players matched by their confusable skeleton (storage/kernel.py ``key_of``: Unicode
    TR 39), not by their name without case alone: each player's ``key`` made again. Two
    players of one group whose names look the same ("Ann" and "Аnn", with a Cyrillic А) were two; the
    later one keeps its games and its name there, and takes a number on its own page
    ("Аnn (2)") until someone renames or merges it, as m004 did for names that differed in case."""

    rows = db.execute("SELECT id, name FROM players ORDER BY id").fetchall()
    db.execute("UPDATE players SET key = '#' || id")  # out of the way while they are made again
    for player_id, name in rows:
        candidate, n = name, 1
        while True:
            try:
                db.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                           [candidate, key_of(candidate), player_id])
                break
            except sqlite3.IntegrityError:  # an earlier player's name looks the same
                n += 1
                candidate = f"{name} ({n})"


@migrations()
def m011_change_record(db: Database) -> None:
    """The record of every change (storage/entries.py, storage/record.py): the log becomes
    append-only. ``play_entries`` and ``hand_entries`` keep every version of every play
    and hand (``play``/``hand``: the play or hand it is a version of, its first entry's id;
    ``live`` 0: removed; ``by``: whose phone, storage/entries.py ``BY``; ``change``: the
    ``changes`` row that wrote it, none for a play as first logged). Triggers refuse
    every UPDATE and DELETE of them. ``plays`` and ``hands`` become views: each play's
    and hand's latest entry, unless it is a removal, under the names and columns the
    stores always read. ``changes``: one row per change (what it was, what it became,
    what it did to the scores, when and from whose phone), append-only too. Every existing row becomes its
    play's or hand's first entry, of no known phone; the changes before this were not kept."""
    db.execute("""
        CREATE TABLE play_entries (
            id INTEGER PRIMARY KEY, play INTEGER NOT NULL, game INTEGER NOT NULL REFERENCES games(id),
            round_no INTEGER NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, player TEXT NOT NULL,
            cards TEXT NOT NULL, target INTEGER REFERENCES play_entries(id), revision INTEGER NOT NULL DEFAULT 0,
            live INTEGER NOT NULL DEFAULT 1, created TEXT NOT NULL, by TEXT, change INTEGER)""")
    db.execute("""
        CREATE TABLE hand_entries (
            id INTEGER PRIMARY KEY, hand INTEGER NOT NULL, game INTEGER NOT NULL REFERENCES games(id),
            round_no INTEGER NOT NULL, player TEXT NOT NULL, cards TEXT NOT NULL,
            confirmed INTEGER NOT NULL DEFAULT 0, live INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL, by TEXT, change INTEGER)""")
    db.execute("""
        CREATE TABLE changes (
            id INTEGER PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id), at TEXT NOT NULL,
            by TEXT, kind TEXT NOT NULL, play INTEGER, round_no INTEGER, facts TEXT NOT NULL)""")
    db.execute("INSERT INTO play_entries (id, play, game, round_no, seq, type, player, cards, target, "
               "revision, created) SELECT id, id, game, round_no, seq, type, player, cards, target, "
               "revision, created FROM plays")
    db.execute("INSERT INTO hand_entries (id, hand, game, round_no, player, cards, confirmed, created) "
               "SELECT id, id, game, round_no, player, cards, confirmed, created FROM hands")
    db.execute("DROP TABLE plays")
    db.execute("DROP TABLE hands")
    for table, of in (("play_entries", "play"), ("hand_entries", "hand"), ("changes", None)):
        if of is not None:
            db.execute(f"CREATE INDEX {table}_of ON {table} ({of}, id)")
        for action in ("UPDATE", "DELETE"):
            db.execute(f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                       "BEGIN SELECT RAISE(ABORT, 'the log is append-only'); END")
    db.execute("CREATE INDEX play_entries_round ON play_entries (game, round_no, seq)")
    db.execute("CREATE INDEX hand_entries_round ON hand_entries (game, round_no)")
    db.execute("CREATE INDEX changes_game ON changes (game, id)")
    db.execute("CREATE INDEX changes_round ON changes (game, round_no)")
    db.execute("CREATE INDEX changes_play ON changes (game, play)")
    db.execute("""
        CREATE VIEW plays AS
        SELECT e.play AS id, e.game, e.round_no, e.seq, e.type, e.player, e.cards, e.target, e.revision,
               e.created
        FROM play_entries e
        WHERE e.live AND NOT EXISTS (SELECT 1 FROM play_entries l WHERE l.play = e.play AND l.id > e.id)""")
    db.execute("""
        CREATE VIEW hands AS
        SELECT e.hand AS id, e.game, e.round_no, e.player, e.cards, e.confirmed, e.created
        FROM hand_entries e
        WHERE e.live AND NOT EXISTS (SELECT 1 FROM hand_entries l WHERE l.hand = e.hand AND l.id > e.id)""")


@migrations()
def m012_nights(db: Database) -> None:
    """Club nights (storage/nights.py): ``nights``, a group's evening of several tables
    (its name, the variant and rules its tables start with, the players a table seats,
    how the standings rank; ``version``: bumped by each change of the night itself, as a
    game's is), ``night_tables`` (the games it played, each in its round of tables, and
    whether it was abandoned) and ``night_players`` (who came, and who left early)."""
    db.execute("""
        CREATE TABLE nights (
            id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL REFERENCES groups(id), name TEXT NOT NULL,
            variant TEXT NOT NULL, rules TEXT NOT NULL, table_size INTEGER NOT NULL, ranking TEXT NOT NULL,
            places TEXT NOT NULL, created TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
            made_by TEXT UNIQUE)""")
    db.execute("CREATE INDEX nights_group ON nights (group_id, id)")
    db.execute("""
        CREATE TABLE night_tables (
            night INTEGER NOT NULL REFERENCES nights(id), game INTEGER NOT NULL UNIQUE REFERENCES games(id),
            round INTEGER NOT NULL, abandoned INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (night, game))""")
    db.execute("""
        CREATE TABLE night_players (
            night INTEGER NOT NULL REFERENCES nights(id), player INTEGER NOT NULL REFERENCES players(id),
            seq INTEGER NOT NULL, left INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (night, player))""")
    db.execute("CREATE INDEX night_players_player ON night_players (player)")


@migrations()
def m013_group_names(db: Database) -> None:
    """A group's name (``groups.name``), as its people call themselves ("Thursday club"):
    empty until its page names it, and a group without one is called by its number."""
    db.execute("ALTER TABLE groups ADD COLUMN name TEXT NOT NULL DEFAULT ''")


def migrate(db: Database) -> list[str]:
    """Apply the migrations this database has not had yet; returns their names."""
    pending = [m.name for m in migrations.pending(db)]
    migrations.apply(db)
    db.conn.execute("PRAGMA foreign_keys = ON")  # a migration may have turned them off
    return pending
