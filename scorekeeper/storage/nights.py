"""Club nights as the database keeps them (tables: storage/migrations.py, m012): a group's
evening of several tables, the games it played and who came.

A night belongs to a group, and so do its games and its players: its tables are games
of the group, started through :func:`start_table` in the same transaction that seats
them at the night, and its players are the group's players (a name said for the night
that the group does not know yet becomes a player of the group, with no game). What
the standings say is computed, never kept: from the games' own kept results
(``players.records``, read by the night's pages) by the night's rule (scorekeeper/nights.py). A night's own
changes (a player added or gone, a game abandoned or counted again, a table started)
bump its ``version``; with its games' versions, that is what a screen watching it asks
(:func:`version`).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .. import nights as rules_of_nights
from ..games import registry
from ..games.variant import Variant
from ..games.words import Say
from . import games, kernel
from .db import write
from .kernel import AlreadyHere, NotFound, Refused

NAME_LENGTH = kernel.NAME_LENGTH  # a night's name, kept as a player's is (kernel.clean_name)
MOST_PLAYERS = 64  # at a night: eight tables of eight
MOST_TABLES = 64  # tables in one night


@dataclass(frozen=True)
class Night:
    id: int
    group: int
    name: str
    variant: Variant
    rules: Mapping[str, str]  # the new-game form's rule fields as sent (each table's player count decides the rest)
    table_size: int
    ranking: str  # nights.PLACES or nights.SCORES
    places: tuple[int, ...]
    created: str
    version: int


@dataclass(frozen=True)
class Seat:
    """One of the night's players."""

    player: int
    name: str
    left: bool


@dataclass(frozen=True)
class TableRow:
    game: int
    round: int
    number: int
    abandoned: bool


_COLUMNS = "id, group_id, name, variant, rules, table_size, ranking, places, created, version"


def _night(row: Sequence[Any]) -> Night:
    variant = registry.get(row[3])
    assert variant is not None  # a night is opened with a variant of the registry
    return Night(row[0], row[1], row[2], variant, json.loads(row[4]), row[5], row[6],
                 tuple(json.loads(row[7])), row[8], row[9])


def check(variant: Variant, table_size: int, ranking: str, places: Sequence[int]) -> None:
    """Refused, in words, for a night's settings its games cannot have."""
    if not variant.min_players <= table_size <= variant.max_players:
        raise Refused(Say("%(game)s seats %(low)s to %(high)s players at a table",
                          game=variant.name, low=variant.min_players, high=variant.max_players))
    if ranking not in rules_of_nights.RULES:
        raise Refused(Say("choose how the standings rank the players"))
    if not 1 <= len(places) <= rules_of_nights.MOST_PLACES or any(
            not 0 <= p <= rules_of_nights.MOST_POINTS for p in places):
        raise Refused(Say("placing points are 1 to %(most)s whole numbers from 0 to %(high)s",
                          most=rules_of_nights.MOST_PLACES, high=rules_of_nights.MOST_POINTS))


def open_night(db: Database, group: int | None, name: str, variant: Variant, rules: Mapping[str, str],
               table_size: int, ranking: str, places: Sequence[int], names: Sequence[str],
               request_id: str | None = None, *, tables: Mapping[int, Mapping[str, Any]]) -> int:
    """A new night of ``group`` (None: a new group of its own) with its players (``names``,
    in the order given); its id. ``tables``: the rules a table of each size the night may
    seat starts with, each checked as a new game's (Refused, naming the size, for rules
    none of its tables could start with: one deck for eight players). The form sent twice
    opens one night (AlreadyHere, with its id)."""
    kernel.check_request_id(request_id)
    check(variant, table_size, ranking, places)
    if name:
        name = kernel.clean_name(name)
    for size, table_rules in sorted(tables.items()):
        try:
            games.check_new(variant, [str(n) for n in range(1, size + 1)], table_rules)
        except Refused as e:
            raise Refused(Say("a table of %(n)s players could not start: %(reason)s", n=size,
                              reason=e.said)) from None
    if len(names) > MOST_PLAYERS:
        raise Refused(Say("a night has at most %(most)s players", most=MOST_PLAYERS))
    with write(db):
        found = request_id and db.execute("SELECT id FROM nights WHERE made_by = ?", [request_id]).fetchone()
        if found:
            raise AlreadyHere(Say("this night was opened already (the form was sent twice)"), found[0])
        if group is None:
            group = kernel.add_group(db)
        night_id = kernel.inserted(db.execute(
            "INSERT INTO nights (group_id, name, variant, rules, table_size, ranking, places, created, made_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [group, name, variant.key, json.dumps(dict(rules)), table_size, ranking, json.dumps(list(places)),
             kernel.now(), request_id or None]))
        for player_name in names:
            _join(db, night_id, kernel.player_named(db, group, player_name))
    return night_id


def get(db: Database, group: int, night_id: int) -> Night:
    """A night of ``group``; NotFound for no such night, and alike for another group's."""
    row = db.execute(f"SELECT {_COLUMNS} FROM nights WHERE id = ? AND group_id = ?", [night_id, group]).fetchone()
    if row is None:
        raise NotFound(Say("there is no such night"))
    return _night(row)


def group_of(db: Database, night_id: int) -> int:
    """The group a night belongs to."""
    row = db.execute("SELECT group_id FROM nights WHERE id = ?", [night_id]).fetchone()
    if row is None:
        raise NotFound(Say("there is no such night"))
    return int(row[0])


def of_group(db: Database, group: int) -> list[Night]:
    """A group's nights, the latest first."""
    rows = db.execute(f"SELECT {_COLUMNS} FROM nights WHERE group_id = ? ORDER BY id DESC", [group]).fetchall()
    return [_night(row) for row in rows]


def of_player(db: Database, player_id: int) -> list[int]:
    """The nights a player came to (listed, or seated at one of its tables), the first first."""
    rows = db.execute(
        "SELECT night FROM night_players WHERE player = ? UNION "
        "SELECT t.night FROM night_tables t JOIN seats s ON s.game = t.game WHERE s.player = ? ORDER BY 1",
        [player_id, player_id]).fetchall()
    return [row[0] for row in rows]


def abandoned(db: Database, game_ids: Sequence[int]) -> set[int]:
    """Which of these games were abandoned at their night (the history list says so)."""
    ids = list(game_ids)
    rows = db.execute(f"SELECT game FROM night_tables WHERE abandoned AND game IN ({', '.join('?' * len(ids))})",
                      ids).fetchall() if ids else []
    return {int(row[0]) for row in rows}


def of_game(db: Database, game_id: int) -> tuple[int, int] | None:
    """(night, group) of the night a game is a table of; None for a game of no night."""
    row = db.execute("SELECT n.id, n.group_id FROM night_tables t JOIN nights n ON n.id = t.night "
                     "WHERE t.game = ?", [game_id]).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def seated(db: Database, night_id: int) -> list[Seat]:
    """The night's players in the order they joined it."""
    rows = db.execute(
        "SELECT p.id, p.name, n.left FROM night_players n JOIN players p ON p.id = n.player "
        "WHERE n.night = ? ORDER BY n.seq", [night_id]).fetchall()
    return [Seat(player, name, bool(left)) for player, name, left in rows]


def tables(db: Database, night_id: int) -> list[TableRow]:
    """The night's tables, by round of tables and in the order each round's were started."""
    rows = db.execute("SELECT game, round, abandoned FROM night_tables WHERE night = ? ORDER BY round, game",
                      [night_id]).fetchall()
    numbers: dict[int, int] = {}
    found = []
    for game, round_no, abandoned in rows:
        numbers[round_no] = numbers.get(round_no, 0) + 1
        found.append(TableRow(game, round_no, numbers[round_no], bool(abandoned)))
    return found


def version(db: Database, night: Night) -> int:
    """What a screen watching the night compares: it moves with every change of the night
    and of each of its games (each only ever goes up)."""
    row = db.execute("SELECT n.version + COALESCE((SELECT SUM(g.version) + COUNT(*) FROM night_tables t "
                     "JOIN games g ON g.id = t.game WHERE t.night = n.id), 0) FROM nights n WHERE n.id = ?",
                     [night.id]).fetchone()
    return int(row[0])


def renamed(db: Database, player_ids: Sequence[int]) -> None:
    """These players' names changed (storage/players.py, in its transaction): the nights
    they came to show them, so their versions move and a screen watching one redraws it."""
    ids = list(player_ids)
    db.execute(f"UPDATE nights SET version = version + 1 WHERE id IN (SELECT night FROM night_players "
               f"WHERE player IN ({', '.join('?' * len(ids))}))", ids)


def merged(db: Database, source: int, target: int) -> None:
    """Two players made one (storage/players.py, in its transaction): the nights ``source``
    came to are ``target``'s now (one line where both came), and they redraw."""
    renamed(db, [source, target])
    db.execute("UPDATE OR IGNORE night_players SET player = ? WHERE player = ?", [target, source])
    db.execute("DELETE FROM night_players WHERE player = ?", [source])


def _join(db: Database, night_id: int, player_id: int) -> bool:
    """The player is at the night (back if they had left); whether that changed anything."""
    row = db.execute("SELECT left FROM night_players WHERE night = ? AND player = ?",
                     [night_id, player_id]).fetchone()
    if row is not None:
        if row[0]:
            db.execute("UPDATE night_players SET left = 0 WHERE night = ? AND player = ?", [night_id, player_id])
        return bool(row[0])
    count = db.execute("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM night_players WHERE night = ?",
                       [night_id]).fetchone()
    if count[0] >= MOST_PLAYERS:
        raise Refused(Say("a night has at most %(most)s players", most=MOST_PLAYERS))
    db.execute("INSERT INTO night_players (night, player, seq) VALUES (?, ?, ?)", [night_id, player_id, count[1] + 1])
    return True


def _bump(db: Database, night_id: int) -> None:
    db.execute("UPDATE nights SET version = version + 1 WHERE id = ?", [night_id])


def add_player(db: Database, night: Night, name: str) -> bool:
    """A player joins the night (a name the group does not know yet: a new player of the
    group); whether anything changed (a player already there, and not gone, changes nothing)."""
    with write(db):
        changed = _join(db, night.id, kernel.player_named(db, night.group, name))
        if changed:
            _bump(db, night.id)
    return changed


def set_left(db: Database, night: Night, player_id: int, left: bool) -> None:
    """A player leaves the night early (they are seated at no later table; what they
    earned stays), or comes back."""
    with write(db):
        if not db.execute("SELECT 1 FROM night_players WHERE night = ? AND player = ?",
                          [night.id, player_id]).fetchone():
            raise NotFound(Say("that player is not at this night"))
        db.execute("UPDATE night_players SET left = ? WHERE night = ? AND player = ?",
                   [int(left), night.id, player_id])
        _bump(db, night.id)


def remove_player(db: Database, night: Night, player_id: int) -> str:
    """A player added by mistake (a name mistyped) taken off the night's list; only one
    who sat at none of its tables (what was played stays). Their name."""
    with write(db):
        row = db.execute("SELECT p.name FROM night_players n JOIN players p ON p.id = n.player "
                         "WHERE n.night = ? AND n.player = ?", [night.id, player_id]).fetchone()
        if row is None:
            raise NotFound(Say("that player is not at this night"))
        if db.execute("SELECT 1 FROM night_tables t JOIN seats s ON s.game = t.game WHERE t.night = ? "
                      "AND s.player = ?", [night.id, player_id]).fetchone():
            raise Refused(Say("%(player)s sat at a table tonight: what was played stays (they can leave early)",
                              player=row[0]))
        db.execute("DELETE FROM night_players WHERE night = ? AND player = ?", [night.id, player_id])
        _bump(db, night.id)
    return str(row[0])


def set_abandoned(db: Database, night: Night, game_id: int, abandoned: bool) -> None:
    """A table's game abandoned (it counts for nothing tonight; the game itself is kept as
    it is), or counted again."""
    with write(db):
        if not db.execute("SELECT 1 FROM night_tables WHERE night = ? AND game = ?", [night.id, game_id]).fetchone():
            raise NotFound(Say("that game is not one of this night's tables"))
        db.execute("UPDATE night_tables SET abandoned = ? WHERE night = ? AND game = ?",
                   [int(abandoned), night.id, game_id])
        _bump(db, night.id)


def start_table(db: Database, night: Night, round_no: int, variant: Variant, names: list[str],
                rules: Mapping[str, Any], first_dealer: int, teams: list[list[str]] | None = None,
                request_id: str | None = None, *, as_sent: Mapping[str, str]) -> int:
    """A new table of the night in round of tables ``round_no``: a game of the night's
    group (storage/games.py ``create``), its players at the night, in one transaction;
    the game's id. The form sent twice starts one table (AlreadyHere, with its game).

    Refused for a player already at a table of this round or at one still playing (a
    second phone, an old tab: one player, one table), and, where the standings add up
    the scores, for a table of another game or of other rules (``as_sent``: its rule
    fields as sent, compared with the night's)."""
    if night.ranking == rules_of_nights.SCORES and (variant.key != night.variant.key
                                                    or dict(as_sent) != dict(night.rules)):
        raise Refused(Say("tonight's standings add up the scores of %(game)s played by the night's rules, "
                          "so every table plays it by them", game=night.variant.name))
    last = db.execute("SELECT COALESCE(MAX(round), 0), COUNT(*) FROM night_tables WHERE night = ?",
                      [night.id]).fetchone()
    if not 1 <= round_no <= last[0] + 1:
        raise Refused(Say("there is no round %(n)s of tables yet", n=round_no))
    if last[1] >= MOST_TABLES:
        raise Refused(Say("a night has at most %(most)s tables", most=MOST_TABLES))

    def seat(db: Database, game_id: int) -> None:
        busy = db.execute(
            "SELECT p.name FROM seats s JOIN players p ON p.id = s.player WHERE s.game = ? AND s.player IN ("
            "SELECT o.player FROM night_tables t JOIN seats o ON o.game = t.game JOIN games g ON g.id = t.game "
            "WHERE t.night = ? AND NOT t.abandoned AND (t.round = ? OR NOT g.over)) ORDER BY s.seat",
            [game_id, night.id, round_no]).fetchall()
        if busy:
            raise Refused(Say("%(players)s: already at a table of this round, or at one still playing",
                              players=", ".join(row[0] for row in busy)))
        db.execute("INSERT INTO night_tables (night, game, round) VALUES (?, ?, ?)", [night.id, game_id, round_no])
        for (player_id,) in db.execute("SELECT player FROM seats WHERE game = ? ORDER BY seat", [game_id]).fetchall():
            _join(db, night.id, player_id)
        _bump(db, night.id)

    game_id, _secret = games.create(db, variant, names, rules, first_dealer, teams, request_id, night.group,
                                    also=seat)
    return game_id

