"""The log's rows, append-only: the only writes to the plays and hands of a game.

A play is a chain of entries in ``play_entries``: its first entry (the play as logged;
its id is the play's, the id a lay-off names its meld by) and one more for every change
of it: an edit, a rename, a delete or an undo (an entry that removes it: ``live`` 0), a
bring-back. A hand entered at a round's end is the same in ``hand_entries``: entered,
corrected, counted, reopened. Nothing is ever updated or deleted there (the database
refuses both: storage/migrations.py m011), so every version of every play stays, with
when it was written, from whose phone (:data:`BY`) and, for a change, the ``changes``
row that says it in words (storage/record.py). The stores read the views ``plays`` and
``hands``: each play's and hand's latest entry, unless it removed it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar

from sqlite_utils import Database

from . import kernel

# Who makes the changes of this request or command at a game (its id), as the record keeps
# it: "seat:N" (the phone of the player in seat N, 0 first), "table" (a phone for the whole
# table), "phone" (a phone that has not said whose it is there), "command line"; None: not
# known. The web layer sets it for each request (what the phone said at each game: a
# rename from the players' pages changes several), the command line for its run.
BY: ContextVar[Callable[[int], str | None]] = ContextVar("by", default=lambda _game_id: None)

_PLAY_COLUMNS = "game, round_no, seq, type, player, cards, target, revision, live, created, by, change"
_HAND_COLUMNS = "game, round_no, player, cards, confirmed, live, created, by, change"
_NEXT = "(SELECT coalesce(max(id), 0) + 1 FROM play_entries)"
_NEXT_HAND = "(SELECT coalesce(max(id), 0) + 1 FROM hand_entries)"


def next_play(db: Database) -> int:
    """The id the next play logged gets (in a write transaction: no other is logged first)."""
    found: int = db.execute(_NEXT[1:-1]).fetchone()[0]
    return found


def new_play(db: Database, game_id: int, round_no: int, seq: int, kind: str, player: str,
             cards: Iterable[str] = (), target: int | None = None, change: int | None = None) -> int:
    """A play logged: its first entry, whose id is the play's."""
    return kernel.inserted(db.execute(
        f"INSERT INTO play_entries (id, play, {_PLAY_COLUMNS}) "
        f"VALUES ({_NEXT}, {_NEXT}, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?, ?)",
        [game_id, round_no, seq, kind, player, json.dumps(list(cards)), target, kernel.now(), BY.get()(game_id),
         change]))


def plays_text(rows: Iterable[tuple[int, int, str, str, str, int | None]]) -> str:
    """Plays to log at once (a game imported), as :func:`new_plays` takes them: made
    before the write lock. Each row: (round, seq, kind, player, cards as JSON, target as
    the place of its meld among ``rows``, from 1, or None)."""
    return json.dumps(list(rows), ensure_ascii=False, separators=(",", ":"))


def new_plays(db: Database, game_id: int, text: str) -> int:
    """Plays logged at once (a game imported; ``text``: :func:`plays_text`'s), the id of
    the first, the others following in order. SQLite reads the rows itself (``json_each``),
    one statement for them all: the largest game a file holds (8,800 plays) holds the
    write lock about a quarter less than with a statement each (benchmarks/README.md,
    "write_lock.py")."""
    first: int = db.execute("SELECT coalesce(max(id), 0) + 1 FROM play_entries").fetchone()[0]
    db.execute(
        f"INSERT INTO play_entries (id, play, {_PLAY_COLUMNS}) "
        "SELECT ?1 + key, ?1 + key, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
        "json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'), "
        "?1 - 1 + json_extract(value, '$[5]'), 0, 1, ?3, ?4, NULL FROM json_each(?5)",  # ids given: in any order
        [first, game_id, kernel.now(), BY.get()(game_id), text])
    return first


class _Keep:
    """A field :func:`change_play` keeps as the play's latest entry has it."""


KEEP = _Keep()


def change_play(db: Database, game_id: int, play_id: int, change: int | None, *, live: bool = True,
                round_no: int | None = None, seq: int | None = None, kind: str | None = None,
                player: str | None = None, cards: Iterable[str] | None = None,
                target: int | None | _Keep = KEEP) -> None:
    """A new entry of a play: its latest with the fields given changed, its revision one
    more; ``live`` False removes it (a delete, an undo), True after a removal brings it
    back."""
    latest = db.execute(
        "SELECT round_no, seq, type, player, cards, target, revision FROM play_entries "
        "WHERE play = ? AND game = ? ORDER BY id DESC LIMIT 1", [play_id, game_id]).fetchone()
    if latest is None:
        raise ValueError(f"play {play_id} is not in game {game_id}")
    was_round, was_seq, was_kind, was_player, was_cards, was_target, revision = latest
    db.execute(
        f"INSERT INTO play_entries (play, {_PLAY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [play_id, game_id, was_round if round_no is None else round_no, was_seq if seq is None else seq,
         was_kind if kind is None else kind, was_player if player is None else player,
         was_cards if cards is None else json.dumps(list(cards)),
         was_target if isinstance(target, _Keep) else target, revision + 1, int(live), kernel.now(),
         BY.get()(game_id), change])


def removed(db: Database, game_id: int, play_id: int) -> bool:
    """Whether a play of the game was removed (deleted, undone) and not brought back."""
    return taken_out(db, game_id, play_id) is not None


def taken_out(db: Database, game_id: int,
              play_id: int) -> tuple[int, int, str, str, list[str], int | None, int | None] | None:
    """A play of the game out of it (deleted or undone, not brought back) as it was when
    taken out: (round, seq, kind, player, cards, the meld it lay on, the change that took it
    out); None for any other."""
    row = db.execute("SELECT live, round_no, seq, type, player, cards, target, change FROM play_entries "
                     "WHERE play = ? AND game = ? ORDER BY id DESC LIMIT 1", [play_id, game_id]).fetchone()
    if row is None or row[0]:
        return None
    _live, round_no, seq, kind, player, cards, target, change = row
    return round_no, seq, kind, player, json.loads(cards), target, change


def set_hand(db: Database, game_id: int, round_no: int, player: str, cards: Iterable[str], *,
             confirmed: bool, change: int | None = None) -> None:
    """A player's hand at a round's end entered (its first entry) or changed (a new one)."""
    found = db.execute("SELECT id FROM hands WHERE game = ? AND round_no = ? AND player = ?",
                       [game_id, round_no, player]).fetchone()
    hand = _NEXT_HAND if found is None else str(int(found[0]))
    db.execute(
        f"INSERT INTO hand_entries (id, hand, {_HAND_COLUMNS}) "
        f"VALUES ({_NEXT_HAND}, {hand}, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
        [game_id, round_no, player, json.dumps(list(cards)), int(confirmed), kernel.now(), BY.get()(game_id), change])


def new_hands(db: Database, game_id: int, hands: Iterable[tuple[int, str, Iterable[str]]]) -> None:
    """The hands of an imported game's rounds, confirmed: (round, player, cards) each, the
    hand's first entry. One statement for them all (as :func:`new_plays`): the game is
    new, so no hand of it is there to change."""
    text = json.dumps([[round_no, player, json.dumps(list(cards))] for round_no, player, cards in hands])
    first: int = db.execute("SELECT coalesce(max(id), 0) + 1 FROM hand_entries").fetchone()[0]
    db.execute(
        f"INSERT INTO hand_entries (id, hand, {_HAND_COLUMNS}) "
        "SELECT ?1 + key, ?1 + key, ?2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
        "json_extract(value, '$[2]'), 1, 1, ?3, ?4, NULL FROM json_each(?5)",
        [first, game_id, kernel.now(), BY.get()(game_id), text])


def set_hands(db: Database, game_id: int, round_no: int, hands: Mapping[str, Iterable[str]], *,
              confirmed: bool, change: int | None = None) -> None:
    """:func:`set_hand` for each of ``hands``."""
    for player, cards in hands.items():
        set_hand(db, game_id, round_no, player, cards, confirmed=confirmed, change=change)


def change_hands(db: Database, game_id: int, round_no: int, change: int | None, *, live: bool = True,
                 confirmed: bool | None = None) -> None:
    """A new entry of each hand of a round: ``confirmed`` changed, or removed (``live``
    False)."""
    db.execute(
        f"INSERT INTO hand_entries (hand, {_HAND_COLUMNS}) "
        "SELECT id, game, round_no, player, cards, coalesce(?, confirmed), ?, ?, ?, ? "
        "FROM hands WHERE game = ? AND round_no = ? ORDER BY id",
        [None if confirmed is None else int(confirmed), int(live), kernel.now(), BY.get()(game_id), change,
         game_id, round_no])


def rename(db: Database, game_id: int, old: str, new: str, change: int | None) -> None:
    """Every play and hand of a player in a game, a new entry under the new name (each
    play's revision one more: a page that shows it refuses a stale edit)."""
    now, who = kernel.now(), BY.get()(game_id)
    db.execute(
        f"INSERT INTO play_entries (play, {_PLAY_COLUMNS}) "
        "SELECT id, game, round_no, seq, type, ?, cards, target, revision + 1, 1, ?, ?, ? "
        "FROM plays WHERE game = ? AND player = ? ORDER BY round_no, seq",
        [new, now, who, change, game_id, old])
    db.execute(
        f"INSERT INTO hand_entries (hand, {_HAND_COLUMNS}) "
        "SELECT id, game, round_no, ?, cards, confirmed, 1, ?, ?, ? "
        "FROM hands WHERE game = ? AND player = ? ORDER BY round_no, id",
        [new, now, who, change, game_id, old])


def move_rounds(db: Database, game_id: int, first: int, by: int, change: int | None) -> None:
    """Rounds ``first`` on move ``by`` places (a counted round deleted: -1; brought back:
    +1), their plays and hands each a new entry in its new round."""
    now, who = kernel.now(), BY.get()(game_id)
    db.execute(
        f"INSERT INTO play_entries (play, {_PLAY_COLUMNS}) "
        "SELECT id, game, round_no + ?, seq, type, player, cards, target, revision, 1, ?, ?, ? "
        "FROM plays WHERE game = ? AND round_no >= ? ORDER BY round_no, seq",
        [by, now, who, change, game_id, first])
    db.execute(
        f"INSERT INTO hand_entries (hand, {_HAND_COLUMNS}) "
        "SELECT id, game, round_no + ?, player, cards, confirmed, 1, ?, ?, ? "
        "FROM hands WHERE game = ? AND round_no >= ? ORDER BY round_no, id",
        [by, now, who, change, game_id, first])
