"""The people who play, across games: who sat where, renames and merges (database code).

Tables (db.py, migration m004): ``players`` (a name, and ``key``: the name compared
case-insensitively, unique) and ``seats`` (game, seat → player). Games keep the names
they were played with in their own rows (``games.players``/``teams``, ``plays.player``,
``hands.player``): the rules library works with names. So a rename rewrites the name in
every row of every game the player sat in, and a merge re-points every game of one
entry to the other, each in one transaction that bumps the version of every game it
touched (phones watching one see the new name at their next look).

Which games: the app has no accounts; this is the score pad of one table or household,
so the players and their statistics cover every game in this database. A game's link
is never shown here: pages list a game's date, type and result, and link to it only when
this phone already holds a link to it (the view does that, from ``links.remembered``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterable

from sqlite_utils import Database

from . import replay_cache, store
from .db import write

NAME_LENGTH = 40  # as the new-game form's seats (forms.NAME_LENGTH)


def key_of(name: str) -> str:
    """A name as players are matched: case and surrounding spaces ignored."""
    return " ".join(name.split()).casefold()


def _find_or_add(conn, name: str, taken: set[int]) -> int:
    """The player called ``name`` (any case), or a new one; never one in ``taken``.

    Two seats of one game whose names differ only in case ("Bob" and "bob", possible in
    games made before players were kept) are two people: the second gets his own entry,
    named with a number ("bob (2)") until someone renames or merges it.
    """
    base, n = name.strip(), 1
    candidate = base
    while True:
        row = conn.execute("SELECT id FROM players WHERE key = ?", [key_of(candidate)]).fetchone()
        if row is None:
            return conn.execute(
                "INSERT INTO players (name, key, created) VALUES (?, ?, ?)",
                [candidate, key_of(candidate), store.now()]).lastrowid
        if row[0] not in taken:
            return row[0]
        n += 1
        candidate = f"{base} ({n})"


def seat_players(conn, game_id: int, names: Iterable[str]) -> None:
    """Record who sits in each seat of a game (a game already seated is left alone).

    The hook every new game goes through, in the transaction that adds it
    (``store.create_game`` and the imports of every variant); migration m004 seated the
    games made before players existed.
    """
    if conn.execute("SELECT 1 FROM seats WHERE game = ? LIMIT 1", [game_id]).fetchone():
        return
    taken: set[int] = set()
    for seat, name in enumerate(names):
        player_id = _find_or_add(conn, name, taken)
        taken.add(player_id)
        conn.execute("INSERT INTO seats (game, seat, player) VALUES (?, ?, ?)",
                     [game_id, seat, player_id])


# ---------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    games: int = 0
    last_played: str = ""


def everyone(db: Database) -> list[Player]:
    """Every player, the most recently played first."""
    rows = db.execute(
        "SELECT p.id, p.name, count(s.game), coalesce(max(g.updated), '') FROM players p "
        "LEFT JOIN seats s ON s.player = p.id LEFT JOIN games g ON g.id = s.game "
        "GROUP BY p.id ORDER BY max(g.updated) DESC, p.name COLLATE NOCASE").fetchall()
    return [Player(*row) for row in rows]


def get(db: Database, player_id: int) -> Player:
    row = db.execute(
        "SELECT p.id, p.name, count(s.game), coalesce(max(g.updated), '') FROM players p "
        "LEFT JOIN seats s ON s.player = p.id LEFT JOIN games g ON g.id = s.game "
        "WHERE p.id = ? GROUP BY p.id", [player_id]).fetchone()
    if row is None:
        raise store.NotFound(f"there is no player {player_id}")
    return Player(*row)


def game_ids(db: Database, player_id: int) -> list[int]:
    return [r[0] for r in db.execute(
        "SELECT game FROM seats WHERE player = ? ORDER BY game", [player_id]).fetchall()]


def seat_map(db: Database) -> dict[int, dict[str, int]]:
    """Game id → {name in that game: player id}."""
    seats: dict[int, dict[str, int]] = {}
    rows = db.execute(
        "SELECT s.game, g.players, s.seat, s.player FROM seats s JOIN games g ON g.id = s.game")
    for game_id, names, seat, player_id in rows.fetchall():
        names = json.loads(names)
        if seat < len(names):
            seats.setdefault(game_id, {})[names[seat]] = player_id
    return seats


# ---------------------------------------------------------------------------------------
# Rename and merge: every past game follows.


def check_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise store.Refused("a player needs a name")
    if len(name) > NAME_LENGTH:
        raise store.Refused(f"keep names to {NAME_LENGTH} letters")
    return name


def _describe(game: dict) -> str:
    return f"the game of {game['created'][:10]} ({', '.join(game['players'])})"


def _rename_in_game(db: Database, game_id: int, seat: int, new: str) -> None:
    """One seat's name becomes ``new`` in every row of the game; caches refreshed."""
    conn = db.conn
    game = store.game_header(db, game_id)
    old = game["players"][seat]
    if old == new:
        return
    others = [p for i, p in enumerate(game["players"]) if i != seat]
    if key_of(new) in {key_of(p) for p in others}:
        raise store.Refused(f"{_describe(game)} already has a player called {new}")
    players = [new if i == seat else p for i, p in enumerate(game["players"])]
    teams = ([[new if p == old else p for p in team] for team in game["teams"]]
             if game["teams"] is not None else None)
    totals = {(new if p == old else p): t for p, t in game["totals"].items()}
    conn.execute(
        "UPDATE games SET players = ?, teams = ?, totals = ? WHERE id = ?",
        [json.dumps(players, ensure_ascii=False),
         json.dumps(teams, ensure_ascii=False) if teams is not None else None,
         json.dumps(totals, ensure_ascii=False), game_id])
    # A new revision for each play renamed: a page that shows it refuses a stale edit,
    # and the store's read of the game (which keeps the rounds before the last one while
    # their count and revisions hold) reads them again.
    conn.execute("UPDATE plays SET player = ?, revision = revision + 1 WHERE game = ? AND player = ?",
                 [new, game_id, old])
    conn.execute("UPDATE hands SET player = ? WHERE game = ? AND player = ?", [new, game_id, old])
    _refresh(db, game_id, game["variant"])


def _refresh(db: Database, game_id: int, variant: str) -> None:
    """Recompute the history list's cache (status, totals) and bump the game's version."""
    from . import counted_store

    if variant == store.VARIANT:
        store._save_cache(db, store.load(db, game_id))
        return
    if counted_store.is_counted(variant):
        game = counted_store.load(db, game_id)
        counted_store._save_cache(db, counted_store.score(game), game.version)
        return
    from . import robber_table  # the one variant left: Robber Rummy

    robber_table._save_cache(db, store.load(db, game_id))


def _seats_of(conn, player_id: int) -> list[tuple[int, int]]:
    return conn.execute("SELECT game, seat FROM seats WHERE player = ? ORDER BY game",
                        [player_id]).fetchall()


def _current(conn, player_id: int) -> tuple[str, str]:
    row = conn.execute("SELECT name, key FROM players WHERE id = ?", [player_id]).fetchone()
    if row is None:
        raise store.NotFound(f"there is no player {player_id}")
    return row


def rename(db: Database, player_id: int, new_name: str, expected: str | None = None) -> list[int]:
    """Rename a player, in every game he played; returns the games changed.

    ``expected``: the name the page showed; if another phone renamed the player
    meanwhile, this rename is refused (:class:`store.Stale`) rather than applied over it.
    """
    new_name = check_name(new_name)
    with write(db):
        conn = db.conn
        name, _key = _current(conn, player_id)
        if name == new_name:
            return []
        if expected is not None and expected != name:
            raise store.Stale(f"this player was renamed to {name} meanwhile (on another phone): "
                              "nothing was changed")
        other = conn.execute("SELECT name FROM players WHERE key = ? AND id != ?",
                             [key_of(new_name), player_id]).fetchone()
        if other is not None:
            raise store.Refused(f"there is already a player called {other[0]}. If they are the "
                                f"same person, merge {name} into {other[0]} instead")
        changed = []
        for game_id, seat in _seats_of(conn, player_id):
            _rename_in_game(db, game_id, seat, new_name)
            changed.append(game_id)
        conn.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                     [new_name, key_of(new_name), player_id])
    return changed


def merge(db: Database, source_id: int, target_id: int) -> list[int]:
    """Make two entries one person: every game of ``source`` now names ``target``, and
    ``source`` is gone. Refused when both played in the same game."""
    if source_id == target_id:
        raise store.Refused("choose two different players to merge")
    with write(db):
        conn = db.conn
        source, _ = _current(conn, source_id)
        target, _ = _current(conn, target_id)
        both = conn.execute(
            "SELECT game FROM seats WHERE player = ? INTERSECT SELECT game FROM seats WHERE player = ?",
            [source_id, target_id]).fetchall()
        if both:
            games = [_describe(store.game_header(db, g)) for (g,) in both[:3]]
            raise store.Refused(
                f"{source} and {target} both played in {' and in '.join(games)}"
                f"{' and more' if len(both) > 3 else ''}: they are two people, so they "
                "cannot be merged. Rename one of them instead")
        changed = []
        for game_id, seat in _seats_of(conn, source_id):
            _rename_in_game(db, game_id, seat, target)
            conn.execute("UPDATE seats SET player = ? WHERE game = ? AND seat = ?",
                         [target_id, game_id, seat])
            changed.append(game_id)
        conn.execute("DELETE FROM players WHERE id = ?", [source_id])
    return changed


# ---------------------------------------------------------------------------------------
# Games for the statistics: each scored from its game file (gamefile.score_document).


_scored_files = replay_cache.Memo(1024)  # (db, game, created, updated, version) → (doc, score)


def records(db: Database, ids: Iterable[int] | None = None):
    """(stats.GameRecord for each game that scores, ids of games that could not be read)."""
    from .gamefile import score_document
    from .stats import GameRecord

    seats = seat_map(db)
    query = "SELECT id, variant, created, updated, version FROM games"
    rows = db.execute(query + " ORDER BY created, id").fetchall()
    wanted = set(ids) if ids is not None else None
    path = getattr(db.conn, "path", "")
    found, unread = [], []
    for game_id, variant, created, updated, version in rows:
        if wanted is not None and game_id not in wanted:
            continue

        def scored(game_id=game_id):
            doc = store.export_document(db, game_id)
            return doc, score_document(doc)

        try:
            # Every change to a game bumps its version: a game file scored at a version is
            # kept for it (read, never changed) and not scored again by the next page.
            doc, score = (_scored_files.get((path, game_id, created, updated, version), scored)
                          if path else scored())
        except Exception:  # a variant whose store cannot export yet: left out, and said so
            unread.append(game_id)
            continue
        found.append(GameRecord(game_id, variant, created[:10], doc, score,
                                seats.get(game_id, {})))
    return found, unread


# ---------------------------------------------------------------------------------------
# The history list's filters: game type, player and date.

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def filter_history(games: list[dict], args) -> tuple[list[dict], dict, list[str]]:
    """The games the filters keep, the filters as understood, and what was not understood.

    ``args``: the query (``variant``, ``player``: a name in any case, ``since`` and
    ``until``: dates, both included). A filter not understood is said and left out."""
    from datetime import date

    from .variants import VARIANTS

    chosen = {k: (args.get(k) or "").strip() for k in ("variant", "player", "since", "until")}
    problems = []
    if chosen["variant"] and chosen["variant"] not in VARIANTS:
        problems.append("there is no such game type")
        chosen["variant"] = ""
    for k, word in (("since", "from"), ("until", "to")):
        value = chosen[k]
        if value:
            try:
                if not _DATE.fullmatch(value):
                    raise ValueError
                date.fromisoformat(value)
            except ValueError:
                problems.append(f"the '{word}' date must be a date like 2026-11-22")
                chosen[k] = ""
    if chosen["since"] and chosen["until"] and chosen["since"] > chosen["until"]:
        problems.append(f"the 'from' date ({chosen['since']}) is after the 'to' date "
                        f"({chosen['until']}), so no game can match: swap them")
    key = key_of(chosen["player"])
    kept = [
        g for g in games
        if (not chosen["variant"] or g["variant"] == chosen["variant"])
        and (not key or key in {key_of(p) for p in g["players"]})
        and (not chosen["since"] or g["created"][:10] >= chosen["since"])
        and (not chosen["until"] or g["created"][:10] <= chosen["until"])
    ]
    return kept, chosen, problems
