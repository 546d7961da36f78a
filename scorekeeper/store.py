"""A game is its log: rows in the database ⇄ the CONTRACT.md game document ⇄ scores.

The stored truth of a game is its plays and the hands counted at the end of each round.
Everything people see is computed by building the game document from those rows and
replaying it with :func:`scorekeeper.gamefile.replay_iceberg`, the same replay the CLI
uses, so the app, the export and ``scorekeeper score`` always agree.

Every change (a new play, an edit, a delete, a hand entered, a round confirmed) is
made to a copy of the log first and replayed: if the replay refuses it, :class:`Refused`
says why in plain words and nothing is saved.

Rows to document:

- ``pass`` rows are turns passed on: they decide whose turn it is, and are not part of
  the document;
- a lay-off stores the play id of the meld it lies on; in the document, melds are
  numbered 1, 2, 3 … in the order they were made within the round.
"""
from __future__ import annotations

import json
import operator
import sqlite3
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from sqlite_utils import Database

from .db import write
from .links import new_secret
from . import replay_cache
from .gamefile import FORMAT
from .games import iceberg
from .games.cards import ACE, SUITS, Card, full_deck, parse_card, sort_key
from .games.errors import GameFileError, ScorekeeperError

VARIANT = "iceberg"
PLAY_TYPES = ("ace", "meld", "layoff", "out", "pass")
ACE_CARDS = tuple(Card(ACE, suit) for suit in SUITS)


class Refused(Exception):
    """A change the rules (or the state of the table) do not allow; nothing was saved."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = sentence(message)


class NotFound(Exception):
    """No such game, play or round."""


class Stale(Refused):
    """The phone acted on a table that another phone has changed since; nothing was saved."""


class Repeated(Exception):
    """This form was acted on already (a double tap, a resubmitted form): nothing more to do."""


def sentence(text: str) -> str:
    """The engine's reasons are lower-case clauses; people read sentences."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------
# The log as read from the database.


@dataclass
class PlayRow:
    id: int | None  # None for a play not saved yet
    round_no: int
    seq: int
    type: str
    player: str
    cards: tuple[str, ...] = ()
    target: int | None = None  # the play id of the meld a lay-off lies on

    def describe(self) -> str:
        """A few words for a play, used when a change would break it."""
        what = {"ace": "ace", "meld": "meld", "layoff": "lay-off", "out": "going out", "pass": "pass"}
        cards = f" ({' '.join(self.cards)})" if self.cards else ""
        return f"{self.player}'s {what[self.type]}{cards}"


@dataclass
class GameLog:
    """One game as stored: seating, rules, the plays and the hands."""

    id: int | None
    players: list[str]
    rules: dict
    first_dealer: int
    created: str = ""
    updated: str = ""
    version: int = 0
    plays: list[PlayRow] = field(default_factory=list)
    hands: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # confirmed
    drafts: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # being entered
    variant: str = VARIANT  # the game file's variant
    teams: list[list[str]] | None = None  # partnerships (Robber Rummy), as in the game file

    def rows(self, round_no: int) -> list[PlayRow]:
        return list(self._by_round().get(round_no, ()))

    def _by_round(self) -> dict[int, list[PlayRow]]:
        """Each round's rows in order, worked out once for the rows ``plays`` holds.

        A page asks for whose turn it is (every pass of the round counted) a dozen times,
        and for the round's rows; a game has hundreds of plays. ``plays`` is changed in
        place by the writes (a row added, removed or replaced), so what was worked out
        is kept with the rows it was made from (compared by identity), and made again
        when they differ. Rows are not changed in place (but for the id a new row gets
        when it is saved), and the kept rows stay alive, so an identity is never reused.
        A loaded log starts from what its read worked out once for every request
        (``_Rows.grouped``): only rows added since are sorted in.
        """
        plays = self.plays
        kept = self.__dict__.get("_rounds_kept")
        if kept is None or len(kept[0]) != len(plays) or not all(map(operator.is_, plays, kept[0])):
            read = self.__dict__.get("read")
            n = len(read.rows) if read is not None else 0
            if read is not None and len(plays) >= n and all(map(operator.is_, plays, read.rows)):
                by_round, passes = _group_rows(read.grouped, plays[n:])
            else:
                by_round, passes = _group_rows(None, plays)
            kept = self.__dict__["_rounds_kept"] = (list(plays), by_round, passes)
        return kept[1]
    def play(self, play_id: int) -> PlayRow:
        for play in self.plays:
            if play.id == play_id:
                return play
        raise NotFound(f"play {play_id} is not in this game")

    def dealer_index(self, round_no: int) -> int:
        """Each round the deal passes to the next player in seating order."""
        return (self.first_dealer + round_no - 1) % len(self.players)

    def turn_index(self, round_no: int) -> int:
        """The player after the dealer starts; every pass moves the turn on by one."""
        self._by_round()
        passes = self.__dict__["_rounds_kept"][2].get(round_no, 0)
        return (self.dealer_index(round_no) + 1 + passes) % len(self.players)


@lru_cache(maxsize=16384)
def _card_names(text: str) -> tuple[str, ...]:
    """A row's cards column read: the same few thousand texts come back on every load."""
    return tuple(json.loads(text))


def _group_rows(base: tuple | None, added: Iterable[PlayRow]) -> tuple[dict, dict]:
    """(each round's rows in order, each round's passes): ``base`` (the same pair, never
    changed) with ``added`` in. Only the rounds they land in are copied and sorted again."""
    by_round, passes = (dict(base[0]), dict(base[1])) if base else ({}, {})
    touched = set()
    for play in added:
        r = play.round_no
        if r not in touched:
            by_round[r] = list(by_round.get(r, ()))
            touched.add(r)
        by_round[r].append(play)
        if play.type == "pass":
            passes[r] = passes.get(r, 0) + 1
    for r in touched:
        by_round[r].sort(key=_seq)
    return by_round, passes


@dataclass(frozen=True)
class _Rows:
    """A game as one read found it, kept so that the next read can build on it.

    ``game``: its row in ``games``; ``raw``: its plays as SQLite returned them; ``rows``:
    the plays as PlayRows, shared by every log read from them (a PlayRow is never
    changed in place: an edit makes a new one with ``dataclasses.replace``); ``rounds``:
    each round's rows that are events (not passes), in order, and ``keys`` their
    content (see ``_round_key``); ``hands``: its hands as SQLite returned them;
    ``split``: the last round with plays, and ``head`` (how many plays the rounds
    before it have, the sum of their revisions).
    """

    game: tuple
    raw: tuple
    rows: tuple
    rounds: tuple
    keys: tuple
    hands: tuple
    split: int
    head: tuple
    grouped: tuple = ((), ())  # (rows by round, passes by round): see GameLog._by_round


_read = replay_cache.Memo(64)  # (database path, game id) → _Rows: the games being played
PLAYS = ("SELECT id, round_no, seq, type, player, cards, target, revision FROM plays "
         "WHERE game = ?")


def _rows_of(known: _Rows | None, game: tuple, raw: list, hands: list) -> _Rows:
    """The rows read, built on the last read of the same game where it still holds.

    Rows are compared as read: a read that only adds plays to the last one (the usual
    case: a play was logged) makes PlayRows and keys for the new plays only; anything
    else is built afresh.
    """
    raw = tuple(raw)
    n = len(known.raw) if known is not None else 0
    if known is not None and len(raw) >= n and raw[:n] == known.raw:
        base, new = known, raw[n:]
    else:
        base, new = None, raw
    added = [PlayRow(i, r, seq, kind, player, _card_names(cards), target)
             for i, r, seq, kind, player, cards, target, _revision in new]
    rounds, keys = _grouped(base.rounds if base else (), base.keys if base else (), added)
    # Plays are read in (round, seq) order: the last round's are at the end, and the
    # rounds before it are the rows before those (a game has hundreds: not scanned).
    split = raw[-1][1] if raw else 1
    cut = len(raw)
    while cut and raw[cut - 1][1] >= split:
        cut -= 1
    if base is not None and base.head[0] <= cut:  # the last read's head, and what follows
        head = (cut, base.head[1] + sum(r[7] for r in raw[base.head[0]:cut]))
    else:
        head = (cut, sum(r[7] for r in raw[:cut]))
    return _Rows(game, raw, (base.rows if base else ()) + tuple(added), rounds, keys,
                 tuple(hands), split, head, _group_rows(base.grouped if base else None, added))


def _plays(conn, game_id: int, known: _Rows | None) -> list:
    """The game's plays as stored; the rounds before the last one read again only if changed.

    Those rounds are done: a play is added to the round being played, so they change only
    when a play in them is edited (which bumps its ``revision``, db.py m002) or deleted
    (one play fewer). Their count and the sum of their revisions, read from SQLite, say
    whether the plays kept from the last read still stand; the last round is always read.
    """
    if known is not None and known.raw:
        head = conn.execute(
            "SELECT count(*), total(revision) FROM plays WHERE game = ? AND round_no < ?",
            [game_id, known.split]).fetchone()
        if head == known.head:
            return list(known.raw[:head[0]]) + conn.execute(
                PLAYS + " AND round_no >= ? ORDER BY round_no, seq", [game_id, known.split]
            ).fetchall()
    return conn.execute(PLAYS + " ORDER BY round_no, seq", [game_id]).fetchall()


def _game_row(conn, game_id: int) -> tuple:
    """(the cursor, for its column names; the game's row), or NotFound."""
    cursor = conn.execute("SELECT * FROM games WHERE id = ?", [game_id])
    game = cursor.fetchone()
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return cursor, game


def load(db: Database, game_id: int) -> GameLog:
    """The game as stored, read in one transaction: its version always matches its plays.

    Plain SQL on the connection (sqlite-utils' table helpers look the schema up again on
    every call), and a game read before is not read again: every change to a game's
    plays or hands bumps its version in the same transaction (``_save_cache``), so the
    same ``games`` row means the same plays and hands. Only what a transaction has
    committed is kept (a read after this transaction's own writes is neither kept nor
    answered from what was). A new version's plays are read from the round being played
    on (see ``_plays``) and compared with the last read: only plays added are parsed.
    """
    conn = db.conn
    snapshot = not conn.in_transaction  # inside write() the write transaction is the snapshot
    committed = snapshot or getattr(conn, "unwritten", lambda: False)()
    key = (getattr(conn, "path", ""), game_id)
    known = _read.peek(key) if key[0] else None
    game = None
    if snapshot and known is not None:
        # The usual case: a game read before. One SELECT is a snapshot of its own; if it
        # finds the row the kept read was made from, that read stands, and no
        # transaction is needed around more reads.
        cursor, game = _game_row(conn, game_id)
        if game != known.game:
            game = None  # changed: read it all again in one transaction
        else:
            snapshot = False
    if snapshot:
        conn.execute("BEGIN")
    try:
        if game is None:
            cursor, game = _game_row(conn, game_id)
        if not (committed and known is not None and known.game == game):
            plays = _plays(conn, game_id, known)
            hands = conn.execute(
                "SELECT round_no, player, cards, confirmed FROM hands WHERE game = ? "
                "ORDER BY round_no, id", [game_id]).fetchall()
            known = _rows_of(known, game, plays, hands)
            if committed and key[0]:
                _read.put(key, known)
    finally:
        if snapshot:
            conn.execute("COMMIT")
    row = dict(zip([c[0] for c in cursor.description], game))
    log = GameLog(row["id"], json.loads(row["players"]), json.loads(row["rules"]),
                  row["first_dealer"], row["created"], row["updated"], row["version"],
                  variant=row["variant"], teams=json.loads(row["teams"]) if row.get("teams") else None)
    log.plays = list(known.rows)
    log.read = known  # what replay() builds on while log.plays starts with these rows
    for round_no, player, cards, confirmed in known.hands:
        book = log.hands if confirmed else log.drafts
        book.setdefault(round_no, {})[player] = _card_names(cards)
    return log


# ---------------------------------------------------------------------------------------
# The log as a game document, and its replay.


def document(log: GameLog, extra_hands: Mapping[int, Mapping[str, Iterable[str]]] | None = None):
    """The CONTRACT.md document for this log, and the play rows behind each event.

    ``extra_hands`` adds hands for rounds not confirmed yet (the round end being entered).
    Returns ``(doc, events)`` where ``events[r - 1][e - 1]`` is the row of round r, event e.
    """
    hands = _hands_with(log, extra_hands)
    rounds, keys = _rounds_of(log, hands)
    return _document(log, hands, rounds, keys, fresh=True), [list(r) for r in rounds]


def _hands_with(log: GameLog, extra_hands: Mapping | None) -> dict:
    hands = dict(log.hands)
    hands.update(extra_hands or {})
    return hands


def _seq(row: PlayRow) -> int:
    return row.seq


class _Key(tuple):
    """A tuple that works its hash out once: a round's key is looked up on every replay."""

    def __hash__(self) -> int:
        known = self.__dict__.get("hash")
        if known is None:
            known = self.__dict__["hash"] = tuple.__hash__(self)
        return known


def _round_key(rows: tuple) -> tuple:
    """What a round's events say, one tuple per event: (type, player, cards, meld number).

    Equal keys make equal events in the game document: a lay-off's meld is the number
    ``_document`` derives from play ids (None when its meld is not before it: a key no
    valid document has), and play ids themselves are left out (a new play has none
    until it is saved).
    """
    numbers: dict = {}
    events = []
    for row in rows:
        if row.type == "meld":
            numbers[row.id] = len(numbers) + 1
        events.append((row.type, row.player, tuple(row.cards),
                       numbers.get(row.target) if row.type == "layoff" else 0))
    return _Key(events)


def _grouped(rounds: tuple, keys: tuple, added: Iterable[PlayRow]) -> tuple[tuple, tuple]:
    """``rounds`` (each round's event rows, in order) and their keys, with ``added`` in.

    Only the rounds a new row lands in are sorted and keyed again; a pass is not an
    event, but a round it is in exists (rounds run 1 … the last round with a row).
    """
    rounds, keys = list(rounds), list(keys)
    touched = set()
    for row in added:
        while len(rounds) < row.round_no:
            rounds.append(())
            keys.append(())
        if row.type != "pass" and row.round_no >= 1:
            rounds[row.round_no - 1] += (row,)
            touched.add(row.round_no - 1)
    for i in touched:
        rounds[i] = tuple(sorted(rounds[i], key=_seq))
        keys[i] = _round_key(rounds[i])
    return tuple(rounds), tuple(keys)


def _rounds_of(log: GameLog, hands: Mapping) -> tuple[tuple, tuple]:
    """Each round's event rows, in order, and their keys, for rounds 1 … last.

    A loaded log whose plays still begin with the rows it was read with (``log.read``)
    is built on what the read worked out: only plays added since are looked at. Any
    other log is worked out from all its plays.
    """
    read = log.__dict__.get("read")
    n = len(read.rows) if read is not None else 0
    if read is not None and len(log.plays) >= n and all(map(operator.is_, log.plays, read.rows)):
        rounds, keys = _grouped(read.rounds, read.keys, log.plays[n:])
    else:
        rounds, keys = _grouped((), (), log.plays)
    last = max(hands, default=0)
    if last > len(rounds):  # hands for a round with no plays yet
        rounds += ((),) * (last - len(rounds))
        keys += ((),) * (last - len(keys))
    return rounds, keys


_event_lists = replay_cache.Memo(4096)  # round key → that round's events as JSON data


def _events_json(log: GameLog, rows: tuple, key: tuple, fresh: bool = False) -> list:
    """A round's events as the game document has them, kept by key for the replays (which
    never change them); ``fresh``: a new list, not kept, for a document handed out."""
    def build() -> list:
        events, meld_numbers = [], {}
        for row in rows:
            event = {"type": row.type, "player": row.player}
            if row.type != "out":
                event["cards"] = list(row.cards)
            if row.type == "meld":
                meld_numbers[row.id] = len(meld_numbers) + 1
            elif row.type == "layoff":
                if row.target not in meld_numbers:
                    raise Refused(_lost_meld(log, row))
                event["meld"] = meld_numbers[row.target]
            events.append(event)
        return events
    return build() if fresh else _event_lists.get(key, build)


def _document(log: GameLog, hands: Mapping, rounds: tuple, keys: tuple,
              fresh: bool = False) -> dict:
    doc_rounds = []
    for round_no, (rows, key) in enumerate(zip(rounds, keys), 1):
        data = {"events": _events_json(log, rows, key, fresh)}
        if round_no in hands:
            data["hands"] = {p: list(c) for p, c in hands[round_no].items()}
        doc_rounds.append(data)
    return {
        "format": FORMAT,
        "variant": log.variant,
        "rules": dict(log.rules),
        "players": list(log.players),
        "teams": log.teams,
        "rounds": doc_rounds,
    }


def _lost_meld(log: GameLog, row: PlayRow) -> str:
    target = next((p for p in log.plays if p.id == row.target and p.id is not None), None)
    if target is None or target.type != "meld":
        return f"{row.describe()} lies on a meld that is not on the table"
    return f"{row.describe()} lies on {target.describe()}, which would then come after it"


def _refusal(error: GameFileError, events: list[list[PlayRow]], changed: PlayRow | None,
             log: GameLog) -> Refused:
    """The replay's complaint in plain words, saying which play it is about."""
    reason = error.reason or str(error)
    if error.round_no and error.event_no:
        row = events[error.round_no - 1][error.event_no - 1]
        if changed is None or row is changed:
            return Refused(reason)
        return Refused(
            f"that would make a later play illegal: {row.describe()} in round "
            f"{error.round_no} — {reason}"
        )
    if error.round_no and error.round_no in log.hands:
        return Refused(
            f"that would clash with the hands counted at the end of round {error.round_no}: {reason}"
        )
    if error.round_no:  # the hands being entered: say whose
        return Refused(str(error).removeprefix(f"round {error.round_no}, "))
    return Refused(reason)


def _hands_key(hands: Mapping) -> tuple:
    """The hands of every round as one hashable value (hands are tuples of card names, as
    read: no copy is made of them; a hand given as a list is made a tuple)."""
    key = tuple([(r, tuple(h.items())) for r, h in hands.items()])
    try:
        hash(key)
    except TypeError:
        key = tuple((r, tuple((p, tuple(c)) for p, c in h.items())) for r, h in hands.items())
    return key


def replay(log: GameLog, changed: PlayRow | None = None, with_drafts: bool = False) -> "GameState":
    """Replay the log; refuse (plain words) if the rules do not allow it."""
    extra = {}
    if with_drafts:
        state = replay(log, changed)
        round_no = state.round_no
        if state.ended and round_no not in log.hands:
            drafts = dict(log.drafts.get(round_no, {}))
            if state.round.out:
                drafts[state.round.out] = ()
            extra = {round_no: drafts}
    hands = _hands_with(log, extra)
    rounds, keys = _rounds_of(log, hands)
    events = list(rounds)  # each round's rows, a tuple: read, never changed
    # The same log is replayed several times per request (the page, the write, the
    # history list's cache): the replay is remembered by what the document says.
    key = (tuple(log.players), json.dumps(log.rules, default=repr), keys, _hands_key(hands))
    known = replay_cache.games.peek(key)
    if known is not None:
        doc, result = known
    else:
        doc = _document(log, hands, rounds, keys)
        try:
            result = replay_cache.replay_iceberg(doc, keys)  # gamefile.replay_iceberg, by round
        except GameFileError as e:
            raise _refusal(e, events, changed, log) from None
        except ScorekeeperError as e:
            raise Refused(str(e)) from None
        replay_cache.games.put(key, (doc, result))
    return GameState(log, doc, result, events)


@dataclass
class TablePlay:
    """A row of the log with what the replay made of it (None for a pass)."""

    row: PlayRow
    play: iceberg.Play | None
    meld_number: int | None = None
    passed_to: str | None = None


@dataclass
class GameState:
    """What the replay says about a game: the current round, whose turn, scores, winner."""

    log: GameLog
    doc: dict
    result: iceberg.GameResult
    events: list[list[PlayRow]]

    @property
    def players(self) -> list[str]:
        return self.log.players

    @property
    def rules(self) -> Mapping:
        return self.result.rules

    @property
    def finished_rounds(self) -> int:
        # Asked for by round_no, turn, ended… dozens of times a page: counted once (a
        # state's result is never replaced).
        n = self.__dict__.get("_finished")
        if n is None:
            n = self.__dict__["_finished"] = sum(1 for r in self.result.rounds if r.finished)
        return n

    @property
    def over(self) -> bool:
        return self.result.over

    @property
    def round_no(self) -> int:
        """The round being played; once the game is over, the last one played."""
        return self.finished_rounds if self.over else self.finished_rounds + 1

    def round_result(self, round_no: int) -> iceberg.RoundResult | None:
        if 1 <= round_no <= len(self.result.rounds):
            return self.result.rounds[round_no - 1]
        return None

    @property
    def current(self) -> iceberg.RoundResult | None:
        """The round in progress, if it has any plays yet."""
        result = self.round_result(self.round_no)
        return result if result and not result.finished else None

    @property
    def round(self) -> iceberg.Round:
        """The table of the round being played (an empty one before its first play)."""
        result = self.round_result(self.round_no)
        if result is None:  # made once: a page asks for it a dozen times
            empty = self.__dict__.get("_empty_round")
            if empty is None:
                empty = self.__dict__["_empty_round"] = iceberg.Round(self.players, self.rules)
            return empty
        return result.round

    def dealer(self, round_no: int | None = None) -> str:
        return self.players[self.log.dealer_index(round_no or self.round_no)]

    @property
    def turn(self) -> str:
        return self.players[self.log.turn_index(self.round_no)]

    @property
    def ending(self) -> bool:
        """The last ace is out: its player finishes the turn, then the round ends."""
        r = self.round
        return r.out is None and r.last_ace_by is not None

    @property
    def ended(self) -> bool:
        """No more plays this round: someone went out, or the last ace was exposed."""
        r = self.round
        return not self.over and (r.out is not None or r.last_ace_by is not None)

    def remaining(self, card: Card) -> int:
        return self.round.supply.remaining(card)

    def status(self) -> str:
        """The game in a few words, for the history list."""
        if self.ended:
            r = self.round
            why = f"{r.out} went out" if r.out else f"{r.last_ace_by} exposed the last ace"
            return f"{why}: hands to count"
        return self.result.status()

    def plays(self, round_no: int) -> list[TablePlay]:
        """Every row of the round, passes included, each with what it scored."""
        result = self.round_result(round_no)
        engine = list(result.round.plays) if result else []
        rows = self.events[round_no - 1] if round_no <= len(self.events) else []
        by_row = {id(row): play for row, play in zip(rows, engine)}
        meld_numbers = {}
        table_plays = []
        turn = self.log.dealer_index(round_no) + 1
        for row in self.log.rows(round_no):
            if row.type == "pass":
                turn += 1
                table_plays.append(TablePlay(row, None, passed_to=self.players[turn % len(self.players)]))
                continue
            play = by_row.get(id(row))
            if row.type == "meld":
                meld_numbers[row.id] = len(meld_numbers) + 1
            number = meld_numbers.get(row.id if row.type == "meld" else row.target)
            table_plays.append(TablePlay(row, play, number))
        return table_plays

    def melds(self, round_no: int | None = None) -> list[tuple[int, iceberg.TableMeld]]:
        """(play id, table meld) for each meld on the table, in the order they were made."""
        round_no = round_no or self.round_no
        result = self.round_result(round_no)
        if result is None:
            return []
        ids = [row.id for row in self.events[round_no - 1] if row.type == "meld"]
        return list(zip(ids, result.round.melds))

    def last_row(self) -> PlayRow | None:
        rows = self.log.rows(self.round_no)
        return rows[-1] if rows else None

    def ace_suits(self) -> list[Card]:
        """The aces the decks still have this round."""
        return [c for c in ACE_CARDS if self.remaining(c) > 0]

    def round_earned(self) -> dict[str, int]:
        r = self.round
        return {p: r.earned(p) for p in self.players}


# ---------------------------------------------------------------------------------------
# Reading what people picked.


def read_cards(values: Iterable[str]) -> tuple[str, ...]:
    """Canonical names for picked cards, sorted; an unknown card is refused."""
    cards = []
    for value in values:
        try:
            cards.append(parse_card(value))
        except ScorekeeperError as e:
            raise Refused(str(e)) from None
    return tuple(str(c) for c in sorted(cards, key=sort_key))


def cards_of(names: Iterable[str]) -> list[Card]:
    return [parse_card(n) for n in names]


def availability(round_: iceberg.Round, give_back: Iterable[str] = (),
                 holding: Iterable[str] = ()) -> Counter:
    """How many copies of each card may still be picked in this round.

    ``give_back``: cards of the play being edited (they return to the pool);
    ``holding``: cards already in other players' entered hands.
    """
    supply = round_.supply
    counts = Counter({card: supply.remaining(card) for card in full_deck(supply.decks)})
    counts.update(Counter(cards_of(give_back)))
    counts.subtract(Counter(cards_of(holding)))
    return counts


# ---------------------------------------------------------------------------------------
# Changes to the log. Each is one transaction, checked by replaying the changed log.
#
# Several phones log plays on one game at once. The writes are put in one order by
# ``BEGIN IMMEDIATE``; each is checked against the log as it is then, not against the
# page the phone was shown, so another phone's play never makes mine fail. Only what
# depends on that page is checked: whose turn is passed on, which play is undone, which
# revision of a play is edited. Every form carries a random ``request_id``, recorded in
# the same transaction, so a double tap or a resubmitted form is acted on once.


def _once(db: Database, game_id: int, request_id: str | None) -> None:
    """Record this form's key with the change; a key acted on before raises Repeated."""
    if not request_id:
        return
    cursor = db.execute(
        "INSERT OR IGNORE INTO requests (game, request_id, created) VALUES (?, ?, ?)",
        [game_id, str(request_id), now()],
    )
    if cursor.rowcount == 0:
        raise Repeated("this was saved already")


def version_of(db: Database, game_id: int) -> int:
    """The game's version, bumped by every change: a phone watching the table polls it."""
    # On the connection itself: it is asked every second by every phone watching a table.
    row = db.conn.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
    if row is None:
        raise NotFound(f"there is no game {game_id}")
    return row[0]


def play_revision(db: Database, game_id: int, play_id: int) -> int | None:
    """How many times a play has been edited (None: no such play in this game)."""
    row = next(db.query("SELECT revision FROM plays WHERE id = ? AND game = ?",
                        [play_id, game_id]), None)
    return None if row is None else row["revision"]


def _words(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


def check_supply(state: GameState, cards: Iterable[str]) -> None:
    """Refuse, in plain words, a card the decks no longer have in the round being played.

    Two phones can log the same physical card at the same moment; the second is told
    "S9 is already on the table (one deck has one S9)". The replay refuses it as well, in
    the game file's words (``scorekeeper score`` keeps those).
    """
    supply = state.round.supply
    for card, n in Counter(cards_of(cards)).items():
        have, left = supply.limit[card], supply.remaining(card)
        if not have or n <= left:
            continue
        deck = (f"one deck has one {card}" if have == 1
                else f"{_words(supply.decks)} decks have {_words(have)} {card}s")
        on_table = have - left
        if not on_table:
            raise Refused(f"{card} is picked {n} times, but {deck}")
        if on_table == 1:
            already = f"{card} is" if have == 1 else f"one {card} is"
        else:
            already = f"{'both' if on_table == 2 == have else _words(on_table)} {card}s are"
        raise Refused(f"{already} already on the table ({deck})")


def _save_cache(db: Database, log: GameLog, state: GameState | None = None) -> GameState:
    """Bump the game's version and refresh the history list's cache of the saved log.

    ``state``: the replay of this very log, when the caller has just made it to check the
    change (it is not replayed again); otherwise the log is replayed here.
    """
    if state is None:
        state = replay(log)
    saved = db.conn.execute(
        "UPDATE games SET updated = ?, version = ?, over = ?, status = ?, round_no = ?, "
        "totals = ? WHERE id = ?" + _RETURNING,
        [now(), log.version + 1, int(state.over), state.status(), state.round_no,
         json.dumps(state.result.totals), log.id],
    ).fetchall()
    log.__dict__["saved"] = saved[0] if saved else None  # the games row now (_read_after)
    return state


# The row an UPDATE leaves, without a SELECT after it (SQLite 3.35 and later).
_RETURNING = " RETURNING *" if sqlite3.sqlite_version_info >= (3, 35) else ""


def _read_after(db: Database, log: GameLog) -> tuple | None:
    """What the next ``load`` of this game will read, made in the write transaction that
    added plays to ``log`` (its rows as read, then the new rows, saved: they have ids).

    Every write bumps the version, so the next request would read the game again (the
    round being played, the hands: half of a request's SQL). The write knows what it
    wrote: the games row is read back here, and the rows are the read's with the new
    ones after it. It is kept (``_publish``) only once the transaction has committed.
    None when the log is anything but its read with rows added at the end.
    """
    read = log.__dict__.get("read")
    path = getattr(db.conn, "path", "")
    n = len(read.rows) if read is not None else 0
    if read is None or not path or len(log.plays) <= n \
            or not all(map(operator.is_, log.plays, read.rows)):
        return None
    added = log.plays[n:]
    last = (read.raw[-1][1], read.raw[-1][2]) if read.raw else (0, 0)
    for row in added:
        if row.id is None or (row.round_no, row.seq) <= last:  # not in the order read
            return None
        last = (row.round_no, row.seq)
    game = log.__dict__.get("saved")  # as _save_cache left it
    if game is None:
        game = db.conn.execute("SELECT * FROM games WHERE id = ?", [log.id]).fetchone()
    raw = list(read.raw) + [(r.id, r.round_no, r.seq, r.type, r.player,
                             json.dumps(list(r.cards)), r.target, 0) for r in added]
    return (path, log.id), _rows_of(read, game, raw, list(read.hands))


def _publish(fresh: tuple | None) -> None:
    """Keep a read made by ``_read_after``, once its transaction has committed."""
    if fresh is not None:
        _read.put(*fresh)


def new_game_log(players: list[str], rules: dict, first_dealer: int) -> GameLog:
    return GameLog(None, players, rules, first_dealer)


def check_new_game(players: list[str], rules: dict, first_dealer: int) -> GameState:
    if not 0 <= first_dealer < len(players):
        raise Refused("the first dealer must be one of the players")
    return replay(new_game_log(players, rules, first_dealer))


def check_other_game(variant: str, players: list[str], rules: dict, first_dealer: int,
                     teams: list[list[str]] | None = None) -> dict:
    """A new game of a variant other than Iceberg, checked by scoring its empty game file;
    returns that score (totals of zero, no winners)."""
    from .gamefile import score_document

    if not 0 <= first_dealer < len(players):
        raise Refused("the first dealer must be one of the players")
    doc = {"format": FORMAT, "variant": variant, "rules": rules, "players": players,
           "teams": teams, "rounds": []}
    try:
        return score_document(doc)
    except ScorekeeperError as e:
        raise Refused(str(e)) from None


def create_game(db: Database, players: list[str], rules: dict, first_dealer: int,
                variant: str = VARIANT, teams: list[list[str]] | None = None) -> tuple[int, str]:
    """A new game; returns its id and the secret of its edit link."""
    if variant == VARIANT:
        if teams is not None:
            raise Refused("Iceberg Rummy is played without partnerships")
        result = check_new_game(players, rules, first_dealer).result
        totals, status = result.totals, result.status()
    else:
        totals = check_other_game(variant, players, rules, first_dealer, teams)["totals"]
        status = "in progress"
    stamp = now()
    secret = new_secret()
    with write(db):
        game_id = db["games"].insert(
            {
                "edit_token": secret,
                "view_token": new_secret(),
                "variant": variant,
                "players": json.dumps(players, ensure_ascii=False),
                "rules": json.dumps(rules),
                "teams": json.dumps(teams, ensure_ascii=False) if teams is not None else None,
                "first_dealer": first_dealer,
                "created": stamp,
                "updated": stamp,
                "version": 0,
                "over": 0,
                "status": status,
                "round_no": 1,
                "totals": json.dumps(totals),
            }
        ).last_pk
        _seat_players(db.conn, game_id, players)
    return game_id, secret


def _seat_players(conn, game_id: int, names: list[str]) -> None:
    """The hook every new game goes through: who sits where, as people (players.py)."""
    from .players import seat_players

    seat_players(conn, game_id, names)


def game_header(db: Database, game_id: int) -> dict:
    """A game's row without its plays: variant, players, rules, teams, first dealer, and
    the cached status (never replayed here)."""
    cursor, row = _game_row(db.conn, game_id)
    game = dict(zip([c[0] for c in cursor.description], row))
    for name in ("players", "rules", "totals"):
        game[name] = json.loads(game[name] or "{}")
    game["teams"] = json.loads(game["teams"]) if game.get("teams") else None
    game["over"] = bool(game["over"])
    return game


def candidate_play(state: GameState, kind: str, player: str, cards: Iterable[str] = (),
                   target: int | None = None) -> PlayRow:
    """A new row for the round being played (not saved)."""
    if kind not in PLAY_TYPES:
        raise Refused(f"unknown kind of play {kind!r}")
    if player not in state.players:
        raise Refused(f"'{player}' is not playing in this game")
    rows = state.log.rows(state.round_no)
    seq = rows[-1].seq + 1 if rows else 1
    return PlayRow(None, state.round_no, seq, kind, player, tuple(cards),
                   target if kind == "layoff" else None)


def _playable(state: GameState) -> None:
    if state.over:
        raise Refused(f"the game is over: {state.result.status()}")


@dataclass
class Preview:
    """What a play would make and score, or why it is refused; nothing is saved."""

    row: PlayRow
    play: iceberg.Play | None = None
    error: str | None = None
    last_ace: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and self.play is not None


def preview(state: GameState, kind: str, player: str, cards: Iterable[str],
            target: int | None = None) -> Preview:
    """Replay the log with this play added, without saving it."""
    try:
        _playable(state)
        row = candidate_play(state, kind, player, read_cards(cards), target)
        if kind != "out" and not row.cards:
            raise Refused("pick the cards first")
        check_supply(state, row.cards)
        log = replace(state.log, plays=state.log.plays + [row])
        after = replay(log, row)
    except Refused as e:
        return Preview(PlayRow(None, state.round_no, 0, kind, player, tuple(cards), target), error=e.message)
    played = after.plays(row.round_no)[-1].play
    return Preview(row, played, last_ace=after.ending and not state.ending)


def _before_the_lock(db: Database, game_id: int, check: Callable[[GameLog], object]) -> tuple | None:
    """A write's reading and checking, done once before it takes the write lock.

    Writers take turns (``db.write``, writelock.py), and every other writer waits while
    one holds the lock: the less it does there, the more phones are served. So the
    write first reads the game and replays it with the change outside the lock, where
    nothing is saved and whatever it finds is dropped; under the lock it then does it
    all again, as the only answer that counts, and finds it done: the game read
    (``load`` keeps a read whose ``games`` row is unchanged: every change bumps the
    version) and the replays (``replay`` keeps them by content). If another phone
    changed the game meanwhile, the write simply does the work under the lock.

    Returns (the log read, ``check``'s answer), or None if either raised: a write whose
    read under the lock is the very read it checked here takes that answer as it is
    (``_under_the_lock``).
    """
    try:
        log = load(db, game_id)
        return log, check(log)
    except Exception:  # noqa: BLE001 - refusals and all: the checks under the lock decide
        return None


def _under_the_lock(db: Database, game_id: int, request_id: str | None, early: tuple | None,
                    check: Callable[[GameLog], object]) -> tuple:
    """A write's reading and checking under the write lock: the game as it is now, the
    request id claimed (a repeat is refused), and (the log, ``check``'s answer) — the
    answer found before the lock when it was made from this very read (``_same_read``)."""
    log = load(db, game_id)
    _once(db, game_id, request_id)
    if _same_read(early, log):
        return early
    return log, check(log)


def _same_read(early: tuple | None, log: GameLog) -> bool:
    """``early`` (a log read before the lock, …) was read as ``log`` is, under the lock.

    The same ``_Rows`` object: ``load`` hands it on only while the ``games`` row is the
    one it was read with, and every change to a game bumps its version. So nothing has
    changed the game since: checked again, the log would give the same answer.
    """
    read = log.__dict__.get("read")
    return early is not None and read is not None and early[0].__dict__.get("read") is read


def _insert_play(db: Database, game_id: int, row: PlayRow) -> int:
    """Store a new row of the log; its id. One INSERT (sqlite-utils' ``insert`` looks the
    schema up again on every call, three more queries on the hottest write)."""
    return db.conn.execute(
        "INSERT INTO plays (game, round_no, seq, type, player, cards, target, created) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, row.round_no, row.seq, row.type, row.player, json.dumps(list(row.cards)),
         row.target, now()],
    ).lastrowid


def add_play(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
             cards: Iterable[str] = (), target: int | None = None) -> tuple[PlayRow, GameState]:
    """Log a play (meld, lay-off, ace, out) for the round being played.

    It is checked against the log as it is now, whatever other phones logged since this
    one's page was shown; a card another phone has just logged is refused in plain words.
    """
    def check(log: GameLog) -> tuple[PlayRow, GameState]:
        state = replay(log)
        _playable(state)
        row = candidate_play(state, kind, player, read_cards(cards), target)
        if kind in ("ace", "meld", "layoff") and not row.cards:
            raise Refused("pick the cards first")
        if kind == "layoff" and target not in {pid for pid, _m in state.melds()}:
            raise Refused("tap a meld on the table to lay off on it")
        check_supply(state, row.cards)
        log.plays.append(row)
        return row, replay(log, row)

    early = _before_the_lock(db, game_id, check)
    with write(db):
        log, (row, after) = _under_the_lock(db, game_id, request_id, early, check)
        row.id = _insert_play(db, game_id, row)
        state = _save_cache(db, log, after)
        fresh = _read_after(db, log)
    _publish(fresh)
    return row, state


def pass_turn(db: Database, game_id: int, request_id: str | None = None,
              turn: str | None = None) -> GameState:
    """The turn passes to the next player in seating order.

    ``turn``: whose turn the phone showed; if another phone passed it on meanwhile,
    this pass is refused rather than skipping a player.
    """
    early = _before_the_lock(db, game_id, replay)
    with write(db):
        log, state = _under_the_lock(db, game_id, request_id, early, replay)
        _playable(state)
        if state.ended:
            raise Refused(f"the round is over ({state.round.end_reason()}): count the hands")
        if turn is not None and turn != state.turn:
            raise Stale(f"the turn already passed to {state.turn} (on another phone): "
                        "nothing was changed")
        row = candidate_play(state, "pass", state.turn)
        row.id = _insert_play(db, game_id, row)
        # A pass is no event of the game document: the replay stands as it is, and
        # ``state.log`` is this log, whose turn the new row moves on.
        log.plays.append(row)
        state = _save_cache(db, log, state)
        fresh = _read_after(db, log)
    _publish(fresh)
    return state


def undo(db: Database, game_id: int, request_id: str | None = None,
         last: int | None = None) -> str:
    """Take back the last play of the round; in a round with none, reopen the last round end.

    ``last``: the id of the last play the phone showed (0: none, the undo reopens a round
    end); if another phone logged or took back a play meanwhile, nothing is undone.
    """
    with write(db):
        log = load(db, game_id)
        _once(db, game_id, request_id)
        state = replay(log)
        rows = [] if state.over else log.rows(state.round_no)
        now_last = rows[-1].id if rows else 0
        if last is not None and last != now_last:
            if last and not any(p.id == last for p in log.plays):
                raise Stale("that play was taken back already (on another phone): "
                            "nothing more was undone")
            if rows:
                raise Stale(f"the last play is now {rows[-1].describe()} (the table changed on "
                            "another phone): nothing was undone; undo again to take it back")
            raise Stale("the table changed on another phone: nothing was undone")
        if rows:
            row = rows[-1]
            log.plays.remove(row)
            replay(log, None)
            db["plays"].delete(row.id)
            _save_cache(db, log)
            return f"took back {row.describe()}"
        if not log.hands:
            raise Refused("there is nothing to undo yet")
        round_no = max(log.hands)
        db.execute("UPDATE hands SET confirmed = 0 WHERE game = ? AND round_no = ?", [game_id, round_no])
        log.drafts[round_no] = log.hands.pop(round_no)
        _save_cache(db, log)
        return f"reopened the end of round {round_no}: the hands can be changed"


def _edited(log: GameLog, play_id: int, player: str, cards: Iterable[str],
            target: int | None) -> tuple[PlayRow, PlayRow]:
    """(the play as logged, the play as changed); the type of a play never changes."""
    old = log.play(play_id)
    if old.type == "pass":
        raise Refused("a pass can only be deleted")
    if player not in log.players:
        raise Refused(f"'{player}' is not playing in this game")
    new_cards = () if old.type == "out" else read_cards(cards)
    if old.type != "out" and not new_cards:
        raise Refused("pick the cards first (or delete the play)")
    return old, replace(old, player=player, cards=new_cards,
                        target=target if old.type == "layoff" else None)


def preview_edit(state: GameState, play_id: int, player: str, cards: Iterable[str],
                 target: int | None = None) -> Preview:
    """What a play would make and score once changed, everything after it replayed."""
    try:
        old, row = _edited(state.log, play_id, player, cards, target)
        plays = [row if p is old else p for p in state.log.plays]
        after = replay(replace(state.log, plays=plays), row)
    except (Refused, NotFound) as e:
        message = e.message if isinstance(e, Refused) else sentence(str(e))
        return Preview(PlayRow(play_id, 0, 0, "meld", player, tuple(cards), target), error=message)
    played = next(tp.play for tp in after.plays(row.round_no) if tp.row is row)
    return Preview(row, played)


def _same_revision(db: Database, log: GameLog, play_id: int, revision: int | None) -> None:
    """Refuse to edit or delete a play that someone else changed (or deleted) meanwhile."""
    if revision is None:
        return
    now_revision = play_revision(db, log.id, play_id)
    if now_revision is None:
        raise Stale("that play is not in the game any more (it was deleted on another "
                    "phone): nothing was changed")
    if now_revision != revision:
        raise Stale(f"this play was changed on another phone meanwhile; it is now "
                    f"{log.play(play_id).describe()}. Nothing was saved: look at it again")


def edit_play(db: Database, game_id: int, request_id: str | None, play_id: int, player: str,
              cards: Iterable[str] = (), target: int | None = None,
              revision: int | None = None) -> PlayRow:
    """Change a play anywhere in the game; every later play and score is recomputed.

    ``revision``: the play's revision the phone showed; every edit bumps it.
    """
    with write(db):
        log = load(db, game_id)
        _once(db, game_id, request_id)
        _same_revision(db, log, play_id, revision)
        old, row = _edited(log, play_id, player, cards, target)
        log.plays[log.plays.index(old)] = row
        replay(log, row)
        db.execute(
            "UPDATE plays SET player = ?, cards = ?, target = ?, revision = revision + 1 "
            "WHERE id = ? AND game = ?",
            [row.player, json.dumps(list(row.cards)), row.target, play_id, game_id],
        )
        _save_cache(db, log)
        return row


def delete_play(db: Database, game_id: int, request_id: str | None, play_id: int,
                revision: int | None = None) -> PlayRow:
    """Remove a play anywhere in the game, if everything after it still stands."""
    with write(db):
        log = load(db, game_id)
        _once(db, game_id, request_id)
        _same_revision(db, log, play_id, revision)
        row = log.play(play_id)
        if row.type == "meld":
            on_it = [p for p in log.plays if p.target == row.id]
            if on_it:
                raise Refused(
                    f"{on_it[0].describe()} lies on this meld: change or delete that lay-off first"
                )
        log.plays.remove(row)
        replay(log, None)
        db["plays"].delete(play_id)
        _save_cache(db, log)
        return row


# ---------------------------------------------------------------------------------------
# The end of a round: hands entered one by one (drafts), then confirmed together.


def _round_end(state: GameState, round_no: int) -> None:
    if state.over:
        raise Refused(f"the game is over: {state.result.status()}")
    if round_no != state.round_no:
        raise Refused(f"round {round_no} is not the round being played (round {state.round_no} is)")
    if not state.ended:
        raise Refused(
            "the round is not over yet: someone goes out, or the last ace is exposed"
        )


def save_hand(db: Database, game_id: int, request_id: str | None, round_no: int, player: str,
              cards: Iterable[str]) -> GameState:
    """Enter (or change) one player's cards left in hand at the end of the round."""
    with write(db):
        log = load(db, game_id)
        _once(db, game_id, request_id)
        state = replay(log)
        _round_end(state, round_no)
        if player not in log.players:
            raise Refused(f"'{player}' is not playing in this game")
        cards = read_cards(cards)
        if player == state.round.out and cards:
            raise Refused(f"{player} went out and holds no cards")
        log.drafts.setdefault(round_no, {})[player] = cards
        after = replay(log, with_drafts=True)
        _upsert_hand(db, game_id, round_no, player, cards, 0)
        _save_cache(db, log)
        return after


def _upsert_hand(db: Database, game_id: int, round_no: int, player: str, cards, confirmed: int) -> None:
    db.execute(
        "INSERT INTO hands (game, round_no, player, cards, confirmed, created) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game, round_no, player) DO UPDATE SET cards = excluded.cards, "
        "confirmed = excluded.confirmed",
        [game_id, round_no, player, json.dumps(list(cards)), confirmed, now()],
    )


def missing_hands(state: GameState) -> list[str]:
    """Players whose cards left in hand have not been entered yet (the one out holds none)."""
    drafts = state.log.drafts.get(state.round_no, {})
    return [p for p in state.players if p not in drafts and p != state.round.out]


def confirm_round(db: Database, game_id: int, request_id: str | None, round_no: int) -> GameState:
    """Count the entered hands: the round is scored and the next one starts with the next dealer.

    A round already counted (two phones confirming it) raises Repeated: nothing to do.
    """
    with write(db):
        log = load(db, game_id)
        _once(db, game_id, request_id)
        if round_no in log.hands:
            raise Repeated(f"round {round_no} was counted already")
        state = replay(log)
        _round_end(state, round_no)
        missing = missing_hands(state)
        if missing:
            raise Refused(f"enter the cards left in {', '.join(missing)}'s hand first")
        hands = dict(log.drafts.pop(round_no))
        if state.round.out:
            hands[state.round.out] = ()
        log.hands[round_no] = hands
        replay(log)
        for player, cards in hands.items():
            _upsert_hand(db, game_id, round_no, player, cards, 1)
        return _save_cache(db, log)


# ---------------------------------------------------------------------------------------
# The history list.


def list_games(db: Database, ids: list[int]) -> list[dict]:
    """These games, unfinished first, the most recently played first within each."""
    games = []
    marks = ", ".join("?" * len(ids))
    query = f"SELECT * FROM games WHERE id IN ({marks}) ORDER BY over, updated DESC, id DESC"
    for row in db.query(query, ids) if ids else ():
        row = dict(row)
        row["players"] = json.loads(row["players"])
        row["totals"] = json.loads(row["totals"] or "{}")
        games.append(row)
    return games


def describe_play(tp: TablePlay) -> str:
    """One line for the log on the table screen."""
    row, play = tp.row, tp.play
    if row.type == "pass":
        return f"passed the turn to {tp.passed_to}"
    if play is None:
        return " ".join(row.cards)
    return play.describe(points=False)


# ---------------------------------------------------------------------------------------
# Game files in and out (CONTRACT.md): export, import, and a consistent backup.


def export_document(db: Database, game_id: int) -> dict:
    """The game file of a game: what ``scorekeeper score`` and an import read back."""
    from . import counted_store

    if counted_store.is_counted(game_header(db, game_id)["variant"]):  # rounds, not plays
        return counted_store.export_document(db, game_id)
    log = load(db, game_id)
    if log.variant == "robber":  # its own rows (take, renege, stock): robber_table.py
        from . import robber_table

        return robber_table.document(log)
    doc, _events = document(log)
    return doc


def import_document(db: Database, doc: object) -> int:
    """Add a game from a game file, checked in full first; a bad file changes nothing.

    The file does not say who dealt first or when turns passed: the first seat deals.
    """
    from .gamefile import read_header, score_document

    variant, _rounds = read_header(doc)
    from . import counted_store

    if counted_store.is_counted(variant):  # hand-count rummies: rounds, not plays
        return counted_store.import_document(db, doc)
    if variant == "robber":
        from . import robber_table

        return robber_table.import_document(db, doc)
    if variant != VARIANT:
        raise Refused(
            f"this app keeps Iceberg Rummy games; a {variant} file can be scored with "
            "'scorekeeper score'"
        )
    try:
        score_document(doc)
    except ScorekeeperError as e:
        raise Refused(str(e)) from None
    players = list(doc["players"])
    rules = dict(doc.get("rules") or {})
    state = check_new_game(players, rules, 0)
    stamp = now()
    with write(db):
        game_id = db["games"].insert(
            {"variant": VARIANT, "players": json.dumps(players, ensure_ascii=False),
             "rules": json.dumps(rules), "first_dealer": 0, "created": stamp, "updated": stamp,
             "version": 0, "over": 0, "status": state.result.status(), "round_no": 1,
             "totals": "{}", "edit_token": new_secret(), "view_token": new_secret()}
        ).last_pk
        for round_no, data in enumerate(doc.get("rounds", []), 1):
            meld_ids: list[int] = []
            for seq, event in enumerate(data.get("events", []), 1):
                cards = [str(parse_card(c)) for c in event.get("cards", [])]
                target = meld_ids[event["meld"] - 1] if event["type"] == "layoff" else None
                play_id = db["plays"].insert(
                    {"game": game_id, "round_no": round_no, "seq": seq, "type": event["type"],
                     "player": event["player"], "cards": json.dumps(cards), "target": target,
                     "created": stamp}
                ).last_pk
                if event["type"] == "meld":
                    meld_ids.append(play_id)
            if "hands" in data:
                hands = {p: data["hands"].get(p, []) for p in players}
                for player, cards in hands.items():
                    _upsert_hand(db, game_id, round_no, player,
                                 [str(parse_card(c)) for c in cards], 1)
        _save_cache(db, load(db, game_id))
        _seat_players(db.conn, game_id, players)
    return game_id


def backup(db: Database, path: str) -> None:
    """A consistent copy of the whole database, safe while the server runs (SQLite backup)."""
    import sqlite3

    target = sqlite3.connect(path)
    try:
        db.conn.backup(target)
    finally:
        target.close()


def secrets_of(db: Database, game_id: int) -> tuple[str, str]:
    """The secrets of a game's edit link and read-only link."""
    row = db["games"].get(game_id)
    return row["edit_token"], row["view_token"]
