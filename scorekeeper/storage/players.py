"""The people who play, across games: who sat where, renames and merges (database code).

Tables (storage/migrations.py, m004 and m009): ``players`` (a name, and ``key``: the name
compared case-insensitively, unique within the player's group) and ``seats`` (game, seat
→ player). A player belongs to one group (the people who play together), and every game
they sat in is one of its games: a rename looks for a name taken only in that group, and a
merge joins two players of one group, never of two. Games keep the names
they were played with in their own rows (``games.players``/``teams``, ``plays.player``,
``hands.player``): the rules library works with names. So a rename rewrites the name in
every row of every game the player sat in, and a merge re-points every game of one
entry to the other, each in one transaction that bumps the version of every game it
touched (phones watching one see the new name at their next look).

Which games: the app has no accounts, and a game's links are its only keys. So every
function here is told which games it covers: reading functions take the games the
caller may see (``within``), a rename or a merge the games it may change
(``editable``), and the caller says which: a phone's view the games this phone holds a
link to and those of the groups it holds a link to (web/links.py), the server's command
line :data:`EVERY_GAME`. A player is known
to a caller only through those games: a player none of them seats is :class:`NotFound`,
as one that does not exist; a rename or a merge that would change a game outside
``editable`` is refused whole (:class:`Forbidden`, naming those games by id).
"""
from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlite_utils import Database

from ..games import registry
from ..games.words import Say, joined
from . import entries, games, kernel, nights, record, results
from .db import write
from .kernel import NotFound, Refused, Stale, key_of

if TYPE_CHECKING:
    from ..stats import GameRecord

NAME_LENGTH = kernel.NAME_LENGTH


class _EveryGame:
    """Every game in the database: what the server's owner covers (the command line)."""

    def __repr__(self) -> str:
        return "EVERY_GAME"


EVERY_GAME = _EveryGame()
Games = Iterable[int] | _EveryGame  # which games a call covers: their ids, or EVERY_GAME


class Forbidden(Refused):
    """A rename or merge would change games the caller may not change; nothing was changed.

    ``games``: the ids of those games, for the caller to describe as it may."""

    def __init__(self, games: list[int]) -> None:
        super().__init__(Say("it would change games that may not be changed from here"))
        self.games = games


class NameTaken(Refused):
    """A rename to a name another player has (``other``: that player's id and name)."""

    def __init__(self, message: Say | str, other: tuple[int, str]) -> None:
        super().__init__(message)
        self.other = other


def _in(column: str, games: Games) -> tuple[str, list[int]]:
    """An SQL condition keeping the rows whose ``column`` is one of ``games``, and its
    parameters ("1" for EVERY_GAME). ``games`` must be ids or EVERY_GAME: None is refused
    rather than read as every game."""
    if isinstance(games, _EveryGame):  # EVERY_GAME, its one instance
        return "1", []
    if games is None or isinstance(games, (str, bytes)):
        raise TypeError("which games: give their ids, or EVERY_GAME")
    ids = sorted({int(i) for i in games})
    return f"{column} IN ({', '.join('?' * len(ids))})" if ids else "0", ids


# ---------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    games: int = 0
    last_played: str = ""


def everyone(db: Database, within: Games) -> list[Player]:
    """The players of the games ``within``, the most recently played first, each with
    their games and last game among those. (EVERY_GAME: every player, even one left with
    no game.)"""
    return [Player(*row) for row in _players(db, within)]


def get(db: Database, player_id: int, within: Games) -> Player:
    """A player of the games ``within`` (their figures among those games); NotFound for
    no such player and, alike, for one who sat in none of those games."""
    rows = _players(db, within, player_id)
    if not rows:
        raise NotFound(Say("there is no player %(player)s", player=player_id))
    return Player(*rows[0])


def _players(db: Database, within: Games,
             player_id: int | None = None) -> list[tuple[int, str, int, str]]:
    params: list[int]
    if within is EVERY_GAME:  # a player with no game at all is listed too
        join, where, params = "LEFT JOIN", "1", []
    else:
        join, (where, params) = "JOIN", _in("s.game", within)
    one = ""
    if player_id is not None:
        one, params = " AND p.id = ?", [*params, player_id]
    return db.execute(
        "SELECT p.id, p.name, count(s.game), coalesce(max(g.updated), '') FROM players p "
        f"{join} seats s ON s.player = p.id {join} games g ON g.id = s.game "
        f"WHERE {where}{one} GROUP BY p.id "
        "ORDER BY max(g.updated) DESC, p.name COLLATE NOCASE", params).fetchall()


def game_ids(db: Database, player_id: int, within: Games) -> list[int]:
    """The games ``within`` that this player sat in."""
    where, params = _in("game", within)
    return [r[0] for r in db.execute(
        f"SELECT game FROM seats WHERE player = ? AND {where} ORDER BY game",
        [player_id, *params]).fetchall()]


def seat_map(db: Database, within: Games) -> dict[int, dict[str, int]]:
    """Game id → {name in that game: player id}, for the games ``within``."""
    where, params = _in("s.game", within)
    seats: dict[int, dict[str, int]] = {}
    rows = db.execute(
        "SELECT s.game, g.players, s.seat, s.player FROM seats s JOIN games g ON g.id = s.game "
        f"WHERE {where}", params)
    for game_id, names, seat, player_id in rows.fetchall():
        names = json.loads(names)
        if seat < len(names):
            seats.setdefault(game_id, {})[names[seat]] = player_id
    return seats


def outside(db: Database, player_id: int, editable: Games) -> list[int]:
    """The games of this player that ``editable`` leaves out: a rename or a merge of the
    player would change each of them, so while there is one it is refused."""
    if editable is EVERY_GAME:
        return []
    allowed = set(_in("game", editable)[1])
    return [g for g in game_ids(db, player_id, EVERY_GAME) if g not in allowed]


# ---------------------------------------------------------------------------------------
# Rename and merge: every past game follows.


def check_name(name: str) -> str:
    return kernel.clean_name(name)


def _describe(game: Mapping[str, Any]) -> Say:
    return Say("the game of %(date)s (%(players)s)", date=game["created"][:10],
               players=joined(game["players"], ", "))


def _games_shared(games: list[Say]) -> Say:
    """Up to three games, said one after another: "the game of … and in the game of …"."""
    if len(games) == 1:
        return games[0]
    if len(games) == 2:
        return Say("%(first)s and in %(second)s", first=games[0], second=games[1])
    return Say("%(first)s and in %(second)s and in %(third)s", first=games[0], second=games[1],
               third=games[2])


def _rename_in_game(db: Database, game_id: int, seat: int, new: str) -> None:
    """One seat's name becomes ``new`` in every row of the game; caches refreshed."""
    conn = db.conn
    game = kernel.header(db, game_id)
    old = game["players"][seat]
    if old == new:
        return
    others = [p for i, p in enumerate(game["players"]) if i != seat]
    alike = next((p for p in others if key_of(p) == key_of(new)), None)
    if alike is not None:
        raise Refused(Say("%(game)s already has %(other)s, a name that looks like %(player)s",
                          game=_describe(game), other=alike, player=new))
    players = [new if i == seat else p for i, p in enumerate(game["players"])]
    teams = ([[new if p == old else p for p in team] for team in game["teams"]]
             if game["teams"] is not None else None)
    totals = {(new if p == old else p): t for p, t in game["totals"].items()}
    conn.execute(
        "UPDATE games SET players = ?, teams = ?, totals = ? WHERE id = ?",
        [json.dumps(players, ensure_ascii=False),
         json.dumps(teams, ensure_ascii=False) if teams is not None else None,
         json.dumps(totals, ensure_ascii=False), game_id])
    # A new entry of each play and hand renamed (its revision one more: a page that shows
    # it refuses a stale edit), and the rename in the game's record.
    entries.rename(db, game_id, old, new, record.note(db, game_id, {"kind": "rename", "was": old, "now": new}))
    results.rename(db, game_id, old, new)
    games.refresh(db, game_id)


def _seats_of(conn: sqlite3.Connection, player_id: int) -> list[tuple[int, int]]:
    return conn.execute("SELECT game, seat FROM seats WHERE player = ? ORDER BY game",
                        [player_id]).fetchall()


def _current(conn: sqlite3.Connection, player_id: int) -> tuple[str, str]:
    row: tuple[str, str] | None = conn.execute("SELECT name, key FROM players WHERE id = ?",
                                               [player_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no player %(player)s", player=player_id))
    return row


def group_of(db: Database, player_id: int) -> int | None:
    """The group a player belongs to (None: no such player)."""
    row = db.execute("SELECT group_id FROM players WHERE id = ?", [player_id]).fetchone()
    return None if row is None else row[0]


def rename(db: Database, player_id: int, new_name: str, expected: str | None = None, *,
           editable: Games, request_id: str | None = None) -> list[int]:
    """Rename a player, in every game they played; returns the games changed.

    ``editable``: the games the caller may change; a player who sat in any other game
    is not renamed (:class:`Forbidden`), checked in the same transaction as the change.
    ``expected``: the name the page showed; if another phone renamed the player
    meanwhile, this rename is refused (:class:`Stale`) rather than applied over it.
    ``request_id``: the form's key, kept with each game changed (sent twice: Repeated).
    """
    kernel.check_request_id(request_id)
    new_name = check_name(new_name)
    with write(db):
        conn = db.conn
        name, _key = _current(conn, player_id)
        lacking = outside(db, player_id, editable)
        if lacking:
            raise Forbidden(lacking)
        if name == new_name:
            return []
        if expected is not None and expected != name:
            raise Stale(Say("this player was renamed to %(player)s meanwhile (on another phone): "
                            "nothing was changed", player=name))
        other = conn.execute(  # a name is taken only within the player's group
            "SELECT id, name FROM players WHERE key = ? AND id != ? AND group_id IS "
            "(SELECT group_id FROM players WHERE id = ?)",
            [key_of(new_name), player_id, player_id]).fetchone()
        if other is not None:
            raise NameTaken(Say("there is already a player called %(other)s. If they are the "
                                "same person, merge %(player)s into %(other)s instead",
                                other=other[1], player=name), tuple(other))
        changed = []
        for game_id, seat in _seats_of(conn, player_id):
            kernel.once(db, game_id, request_id)
            _rename_in_game(db, game_id, seat, new_name)
            changed.append(game_id)
        conn.execute("UPDATE players SET name = ?, key = ? WHERE id = ?",
                     [new_name, key_of(new_name), player_id])
        nights.renamed(db, [player_id])
    return changed


def merge(db: Database, source_id: int, target_id: int, *, editable: Games,
          request_id: str | None = None) -> list[int]:
    """Make two entries one person: every game of ``source`` now names ``target``, and
    ``source`` is gone. Two players of one group only (a player of another group is as
    one that does not exist: NotFound). Refused when both played in the same game, and when ``source``
    sat in a game outside ``editable`` (the games the caller may change: :class:`Forbidden`).
    ``target``'s own games are not changed. ``request_id``: the form's key, kept with
    each game changed (sent twice: Repeated)."""
    kernel.check_request_id(request_id)
    if source_id == target_id:
        raise Refused(Say("choose two different players to merge"))
    with write(db):
        conn = db.conn
        source, _ = _current(conn, source_id)
        target, _ = _current(conn, target_id)
        lacking = outside(db, source_id, editable)
        if lacking:
            raise Forbidden(lacking)
        if group_of(db, source_id) != group_of(db, target_id):
            raise NotFound(Say("there is no player %(player)s", player=target_id))
        both = conn.execute(
            "SELECT game FROM seats WHERE player = ? INTERSECT SELECT game FROM seats WHERE player = ?",
            [source_id, target_id]).fetchall()
        if both:
            shared = _games_shared([_describe(kernel.header(db, g)) for (g,) in both[:3]])
            if len(both) > 3:
                raise Refused(Say(
                    "%(player)s and %(other)s both played in %(games)s and more: they are two "
                    "people, so they cannot be merged. Rename one of them instead",
                    player=source, other=target, games=shared))
            raise Refused(Say(
                "%(player)s and %(other)s both played in %(games)s: they are two people, so "
                "they cannot be merged. Rename one of them instead",
                player=source, other=target, games=shared))
        changed = []
        for game_id, seat in _seats_of(conn, source_id):
            kernel.once(db, game_id, request_id)
            _rename_in_game(db, game_id, seat, target)
            conn.execute("UPDATE seats SET player = ? WHERE game = ? AND seat = ?",
                         [target_id, game_id, seat])
            changed.append(game_id)
        nights.merged(db, source_id, target_id)
        conn.execute("DELETE FROM players WHERE id = ?", [source_id])
    return changed


# ---------------------------------------------------------------------------------------
# Games for the statistics: each as its finished rounds' kept results have it.


def records(db: Database, within: Games) -> tuple[list[GameRecord], list[int]]:
    """(stats.GameRecord for each game ``within`` that replays, ids of those that could
    not be read)."""
    from ..stats import GameRecord

    seats = seat_map(db, within)
    where, params = _in("id", within)
    rows = db.execute(f"SELECT id, variant, created FROM games WHERE {where} ORDER BY created, id",
                      params).fetchall()
    found: list[GameRecord] = []
    unread: list[int] = []
    for game_id, variant, created in rows:
        known = registry.get(variant)
        if known is None:  # a game of a variant this release lacks (written by another): said so
            unread.append(game_id)
            continue
        try:
            game = games.stored(db, game_id)
        except (Refused, LookupError):  # a stored game the rules no longer allow: left out, and said so
            unread.append(game_id)
            continue
        found.append(GameRecord(game_id, known, created[:10], game, seats.get(game_id, {})))
    return found, unread


# ---------------------------------------------------------------------------------------
# The history list's filters: game type, player and date.

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def filter_history(games: list[dict[str, Any]],
                   args: Mapping[str, str]) -> tuple[list[dict[str, Any]], dict[str, str], list[Say]]:
    """The games the filters keep, the filters as understood, and what was not understood.

    ``args``: the query (``variant``, ``player``: a name or part of one, in any case, ``since`` and
    ``until``: dates, both included). A filter not understood is said and left out."""
    from datetime import date

    chosen = {k: (args.get(k) or "").strip() for k in ("variant", "player", "since", "until")}
    problems = []
    if chosen["variant"] and registry.get(chosen["variant"]) is None:
        problems.append(Say("there is no such game type"))
        chosen["variant"] = ""
    for k in ("since", "until"):
        value = chosen[k]
        if value:
            try:
                if not _DATE.fullmatch(value):
                    raise ValueError
                date.fromisoformat(value)
            except ValueError:
                problems.append(Say("the 'from' date must be a date like 2026-11-22") if k == "since"
                                else Say("the 'to' date must be a date like 2026-11-22"))
                chosen[k] = ""
    if chosen["since"] and chosen["until"] and chosen["since"] > chosen["until"]:
        problems.append(Say("the 'from' date (%(since)s) is after the 'to' date (%(until)s), so no "
                            "game can match: swap them", since=chosen["since"], until=chosen["until"]))
    key = key_of(chosen["player"])
    part = unicodedata.normalize("NFC", chosen["player"]).casefold()
    kept = [
        g for g in games
        if (not chosen["variant"] or g["variant"] == chosen["variant"])
        and (not key or any(key == key_of(p) or part in unicodedata.normalize("NFC", p).casefold()
                            for p in g["players"]))  # the name, or part of it as it is written
        and (not chosen["since"] or g["created"][:10] >= chosen["since"])
        and (not chosen["until"] or g["created"][:10] <= chosen["until"])
    ]
    return kept, chosen, problems
