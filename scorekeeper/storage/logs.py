"""Games whose rounds are logs of plays (Iceberg, Robber Rummy): rows ⇄ game file ⇄ scores.

The stored truth of such a game is its plays, in ``plays``, and the hands counted at the
end of each round, in ``hands`` (entered one by one as drafts, then confirmed together).
A row's ``type`` is one of its game's ``table_plays`` (games/variant.py):

- the game file's events (a meld, a lay-off, going out, an ace in Iceberg); a lay-off
  stores the play id of the meld it lies on, and the game file's meld numbers (1, 2, 3 …
  in the order melds were made within the round) are worked out from those;
- the game's round lists: a ``renege`` row puts its player in the round's ``"renege"``;
- plays the file does not record: a ``pass`` (the turn moves on), the discard pile
  taken (``take``, its top card in ``cards``), a round ended without an event (the
  stock running out: ``stock``).

Everything people see is computed by building the game file from those rows and
replaying it with :func:`scorekeeper.gamefile.replay`, the same replay as ``scorekeeper
score``. Every change is one ``write(db)`` transaction that reads the game, records the
form's request id, replays the changed log (what the rules refuse is :class:`Refused`
in plain words and nothing is saved), writes it and bumps the game's version.

Several phones log plays on one game at once. Each change is checked against the log
as it is then, not against the page the phone was shown, so another phone's play never
makes mine fail; only what depends on that page is checked: whose turn is passed on,
which play is undone, which revision of a play is changed or deleted.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Iterable, Mapping

from sqlite_utils import Database

from .. import gamefile
from ..games.cards import ACE, SUITS, Card, full_deck, parse_card, sort_key
from ..games.errors import GameFileError, ScorekeeperError
from ..games.variant import LogVariant
from . import kernel
from .db import write
from .kernel import NotFound, Refused, Repeated, Stale

ACE_CARDS = tuple(Card(ACE, suit) for suit in SUITS)
# What a play is called in a sentence ("Ann's meld (H3 H4 H5)").
PLAY_NAMES = {"ace": "ace", "meld": "meld", "layoff": "lay-off", "out": "going out",
              "pass": "pass", "take": "taking of the discard pile", "renege": "renege",
              "stock": "stock running out"}
WITH_CARDS = ("ace", "meld", "layoff", "take")  # the plays that name cards


# ---------------------------------------------------------------------------------------
# The log as stored.


@dataclass(frozen=True)
class PlayRow:
    id: int | None  # None for a play not saved yet
    round_no: int
    seq: int
    type: str
    player: str
    cards: tuple[str, ...] = ()
    target: int | None = None  # the play id of the meld a lay-off lies on
    revision: int = 0  # bumped by every change of the play

    def describe(self) -> str:
        """A few words for a play: "Ann's meld (H3 H4 H5)", "the stock running out"."""
        cards = f" ({' '.join(self.cards)})" if self.cards else ""
        name = PLAY_NAMES.get(self.type, self.type)
        return f"{self.player}'s {name}{cards}" if self.player else f"the {name}{cards}"


@dataclass
class GameLog:
    """One game as stored: seating, rules, the plays and the hands."""

    id: int | None
    variant: LogVariant
    players: list[str]
    rules: dict  # as chosen (the replay resolves the defaults)
    first_dealer: int
    teams: list[list[str]] | None = None  # partnerships, as in the game file
    version: int = 0
    # By round, then seq. Never changed in place: a change makes a new log
    # (with_play, without, replacing), so what is worked out from it stays true.
    plays: tuple[PlayRow, ...] = ()
    hands: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # counted
    drafts: dict[int, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # being entered

    def rows(self, round_no: int) -> list[PlayRow]:
        return self.rounds.get(round_no, [])

    @cached_property
    def rounds(self) -> dict[int, list[PlayRow]]:
        """Each round's rows, in order."""
        by_round: dict[int, list[PlayRow]] = {}
        for play in self.plays:
            by_round.setdefault(play.round_no, []).append(play)
        return by_round

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
        passes = sum(1 for p in self.rows(round_no) if p.type == "pass")
        return (self.dealer_index(round_no) + 1 + passes) % len(self.players)

    def with_play(self, row: PlayRow) -> "GameLog":
        """This log with one more play (nothing saved)."""
        return replace(self, plays=self.plays + (row,))

    def without(self, row: PlayRow) -> "GameLog":
        return replace(self, plays=tuple(p for p in self.plays if p is not row))

    def replacing(self, old: PlayRow, new: PlayRow) -> "GameLog":
        return replace(self, plays=tuple(new if p is old else p for p in self.plays))


def load(db: Database, game_id: int) -> GameLog:
    """The game as stored, read in one transaction (its version always matches its rows);
    NotFound, or ValueError for a game whose rounds are not logs of plays."""
    with kernel.reading(db):
        game = kernel.header(db, game_id)
        plays = db.execute(
            "SELECT id, round_no, seq, type, player, cards, target, revision FROM plays "
            "WHERE game = ? ORDER BY round_no, seq", [game_id]).fetchall()
        hands = db.execute(
            "SELECT round_no, player, cards, confirmed FROM hands WHERE game = ? "
            "ORDER BY round_no, id", [game_id]).fetchall()
    if not isinstance(game["variant"], LogVariant):
        raise ValueError(f"game {game_id} is not kept as a log of plays")
    log = GameLog(game_id, game["variant"], game["players"], game["rules"], game["first_dealer"],
                  game["teams"], game["version"])
    # Every row's cards (a JSON list) read in one go: a game has hundreds of rows.
    cards_of = json.loads("[" + ",".join(row[5] for row in plays) + "]")
    log.plays = tuple(PlayRow(i, r, seq, kind, player, tuple(cards), target, revision)
                      for (i, r, seq, kind, player, _text, target, revision), cards
                      in zip(plays, cards_of))
    for round_no, player, cards, confirmed in hands:
        book = log.hands if confirmed else log.drafts
        book.setdefault(round_no, {})[player] = tuple(json.loads(cards))
    return log


# ---------------------------------------------------------------------------------------
# The log as a game file.


def document(log: GameLog, extra_hands: Mapping[int, Mapping[str, Iterable[str]]] | None = None):
    """The game file of this log, and the rows behind its events.

    ``extra_hands`` adds hands for rounds not counted yet (the round end being entered).
    Returns ``(doc, events)`` where ``events[r - 1][e - 1]`` is the row of round r, event e.
    """
    variant = log.variant
    hands = dict(log.hands)
    hands.update(extra_hands or {})
    by_round = log.rounds
    last = max([*by_round, *hands], default=0)
    rounds, events = [], []
    for round_no in range(1, last + 1):
        rows = by_round.get(round_no, [])
        data: dict = {"events": []}
        behind, meld_numbers = [], {}
        for row in rows:
            if row.type not in variant.events:
                continue
            event = {"type": row.type, "player": row.player}
            if row.type != "out":
                event["cards"] = list(row.cards)
            if row.type == "meld":
                meld_numbers[row.id] = len(meld_numbers) + 1
            elif row.type == "layoff":
                if row.target not in meld_numbers:
                    raise Refused(_lost_meld(log, row))
                event["meld"] = meld_numbers[row.target]
            data["events"].append(event)
            behind.append(row)
        for key in variant.round_lists:
            named = [r.player for r in rows if r.type == key]
            if named:
                data[key] = named
        if round_no in hands:
            data["hands"] = {p: list(c) for p, c in hands[round_no].items()}
        rounds.append(data)
        events.append(behind)
    doc = {"format": gamefile.FORMAT, "variant": variant.key, "rules": dict(log.rules),
           "players": list(log.players), "teams": log.teams, "rounds": rounds}
    return doc, events


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
            f"that would make a later play illegal: {row.describe()} in "
            f"{log.variant.round_word} {error.round_no} — {reason}"
        )
    if error.round_no and error.round_no in log.hands:
        return Refused(f"that would clash with the hands counted at the end of "
                       f"{log.variant.round_word} {error.round_no}: {reason}")
    if error.round_no:  # the hands being entered: say whose
        return Refused(str(error).removeprefix(f"round {error.round_no}, "))
    return Refused(reason)


def replay(log: GameLog, changed: PlayRow | None = None,
           extra_hands: Mapping | None = None) -> "LogState":
    """Replay the log through the game file; refuse (plain words) what the rules do not
    allow. ``changed``: the play being added or changed (a complaint about another play
    says that this one would make it illegal)."""
    doc, events = document(log, extra_hands)
    try:
        game = gamefile.replay(doc)
    except GameFileError as e:
        raise _refusal(e, events, changed, log) from None
    except ScorekeeperError as e:
        raise Refused(str(e)) from None
    return LogState(log, doc, game, events)


# ---------------------------------------------------------------------------------------
# What the replay says, as the table screen asks it.


@dataclass
class TablePlay:
    """A row of the log with what the replay made of it (None for a play the game file
    does not record: a pass, the discard pile taken …)."""

    row: PlayRow
    play: object | None
    meld_number: int | None = None
    passed_to: str | None = None


@dataclass
class LogState:
    """A game replayed: the round being played, whose turn, who dealt, the scores."""

    log: GameLog
    doc: dict
    game: gamefile.LogGame
    events: list[list[PlayRow]]  # the rows behind each round's events

    @property
    def variant(self) -> LogVariant:
        return self.log.variant

    @property
    def players(self) -> list[str]:
        return self.log.players

    @property
    def rules(self) -> Mapping:
        return self.game.rules

    @property
    def result(self) -> gamefile.LogGame:
        return self.game

    @property
    def teams(self) -> list[list[str]] | None:
        return self.log.teams

    @property
    def finished_rounds(self) -> int:
        return sum(1 for r in self.game.rounds if r.finished)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def round_no(self) -> int:
        """The round being played; once the game is over, the last one played."""
        return self.finished_rounds if self.over else self.finished_rounds + 1

    def round_result(self, round_no: int):
        if 1 <= round_no <= len(self.game.rounds):
            return self.game.rounds[round_no - 1]
        return None

    @cached_property
    def round(self):
        """The table of the round being played (an empty one before its first play)."""
        result = self.round_result(self.round_no)
        if result is None:
            return self.variant.new_round(self.players, self.rules, self.game.teams)
        return result.round

    def rows(self, round_no: int | None = None) -> list[PlayRow]:
        return self.log.rows(round_no or self.round_no)

    def last_row(self) -> PlayRow | None:
        rows = self.rows()
        return rows[-1] if rows else None

    def dealer(self, round_no: int | None = None) -> str:
        return self.players[self.log.dealer_index(round_no or self.round_no)]

    @property
    def turn(self) -> str:
        return self.players[self.log.turn_index(self.round_no)]

    @property
    def end_row(self) -> PlayRow | None:
        """The play that ended the round being played without an event (the stock ran out)."""
        return next((r for r in self.rows() if r.type in self.variant.round_enders), None)

    @property
    def ending(self) -> bool:
        """The round ends after this turn (Iceberg: the last ace is out; its player finishes)."""
        return not self.over and self.round.finishing

    @property
    def ended(self) -> bool:
        """No more plays this round (someone went out, the last ace, the stock): count the hands."""
        return not self.over and (self.round.ended or self.end_row is not None)

    @property
    def out(self) -> str | None:
        return self.round.out

    def end_reason(self) -> str:
        """How the round being played ended ("" while it goes on)."""
        row = self.end_row
        if row is not None:
            return ended_by(row)
        return self.round.end_reason() or ""

    def status(self) -> str:
        """The game in a few words, for the history list."""
        if self.ended:  # the reason's first clause: "Ann exposed the last ace"
            return f"{str(self.end_reason()).partition(';')[0]}: hands to count"
        return self.game.status()

    def plays(self, round_no: int | None = None) -> list[TablePlay]:
        """Every row of the round, passes included, each with what the replay made of it."""
        round_no = round_no or self.round_no
        result = self.round_result(round_no)
        engine = list(result.round.plays) if result else []
        rows = self.events[round_no - 1] if round_no <= len(self.events) else []
        by_row = {row.id: play for row, play in zip(rows, engine)}
        meld_numbers: dict = {}
        table_plays = []
        turn = self.log.dealer_index(round_no) + 1
        for row in self.log.rows(round_no):
            if row.type == "pass":
                turn += 1
                table_plays.append(TablePlay(row, None, passed_to=self.players[turn % len(self.players)]))
                continue
            if row.type == "meld":
                meld_numbers[row.id] = len(meld_numbers) + 1
            number = meld_numbers.get(row.id if row.type == "meld" else row.target)
            table_plays.append(TablePlay(row, by_row.get(row.id), number))
        return table_plays

    def melds(self, round_no: int | None = None) -> list[tuple[int, object]]:
        """(play id, table meld) for each meld on the table, in the order they were made."""
        round_no = round_no or self.round_no
        result = self.round_result(round_no)
        if result is None:
            return []
        ids = [row.id for row in self.events[round_no - 1] if row.type == "meld"]
        return list(zip(ids, result.round.melds))

    def remaining(self, card: Card) -> int:
        return self.round.supply.remaining(card)

    def ace_suits(self) -> list[Card]:
        """The aces the decks still have this round."""
        return [c for c in ACE_CARDS if self.remaining(c) > 0]

    def missing_hands(self) -> list[str]:
        """Players whose cards left in hand have not been entered yet (the one out holds none)."""
        return [p for p in self.players if p not in self.drafts and p != self.out]

    @property
    def drafts(self) -> dict[str, tuple[str, ...]]:
        return self.log.drafts.get(self.round_no, {})

    def counted(self) -> "LogState | None":
        """The game with the hands entered so far counted, as confirming would count them
        (a player not entered yet holds nothing); None while the round is being played.
        Refused when those hands break the rules."""
        if not self.ended or self.round_no in self.log.hands:
            return None
        hands = dict(self.drafts)
        if self.out:
            hands[self.out] = ()
        return replay(self.log, extra_hands={self.round_no: hands})


def ended_by(row: PlayRow) -> str:
    """A round ended by a play the game file does not record, in words."""
    if row.type == "stock":
        return f"the stock ran out ({row.player} drew the last card)" if row.player else "the stock ran out"
    return row.describe()


# ---------------------------------------------------------------------------------------
# Reading what people picked, and the cards still to be had.


def read_cards(values: Iterable[str]) -> tuple[str, ...]:
    """Canonical names for picked cards, in the order given; an unknown card is refused."""
    cards = []
    for value in values:
        try:
            cards.append(str(parse_card(value)))
        except ScorekeeperError as e:
            raise Refused(str(e)) from None
    return tuple(cards)


def read_hand(values: Iterable[str]) -> tuple[str, ...]:
    """A hand's cards: canonical names, sorted (a hand has no order)."""
    return tuple(sorted(read_cards(values), key=lambda name: sort_key(parse_card(name))))


def availability(round_, give_back: Iterable[str] = (), holding: Iterable[str] = ()) -> Counter:
    """How many copies of each card may still be picked in this round.

    ``give_back``: cards of the play being edited (they return to the pool);
    ``holding``: cards already in other players' entered hands.
    """
    supply = round_.supply
    counts = Counter({card: supply.remaining(card) for card in full_deck(supply.decks)})
    counts.update(Counter(parse_card(n) for n in give_back))
    counts.subtract(Counter(parse_card(n) for n in holding))
    return counts


def _words(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


def check_supply(state: LogState, cards: Iterable[str]) -> None:
    """Refuse, in plain words, a card the decks no longer have in the round being played.

    Two phones can log the same physical card at the same moment; the second is told
    "S9 is already on the table (one deck has one S9)". The replay refuses it as well, in
    the game file's words (``scorekeeper score`` keeps those).
    """
    supply = state.round.supply
    for card, n in Counter(parse_card(c) for c in cards).items():
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


# ---------------------------------------------------------------------------------------
# A new play, checked (nothing saved).


def _playing(state: LogState) -> None:
    if state.over:
        raise Refused(f"the game is over: {state.game.status()}")
    if state.ended and not state.ending:
        raise Refused(f"the {state.variant.round_word} is over ({state.end_reason()}): count the hands")


def _check_order(variant: LogVariant, rows: list[PlayRow], rules: Mapping) -> None:
    if variant.check_plays is not None:
        try:
            variant.check_plays(rows, rules)
        except ScorekeeperError as e:
            raise Refused(str(e)) from None


def check_play(state: LogState, kind: str, player: str, cards: Iterable[str] = (),
               target: int | None = None) -> tuple[PlayRow, LogState]:
    """The row this play would add and the game after it; Refused (nothing saved) if the
    rules or the table do not allow it."""
    variant = state.variant
    _playing(state)
    if kind not in variant.table_plays:
        raise Refused(f"unknown kind of play {kind!r}")
    if player not in state.players:
        raise Refused(f"'{player}' is not playing in this game")
    cards = read_cards(cards) if kind in WITH_CARDS else ()
    if kind in WITH_CARDS and not cards:
        raise Refused("pick the cards first")
    if kind == "layoff" and target not in {pid for pid, _m in state.melds()}:
        raise Refused("tap a meld on the table to lay off on it")
    rows = state.rows()
    row = PlayRow(None, state.round_no, rows[-1].seq + 1 if rows else 1, kind, player, cards,
                  target if kind == "layoff" else None)
    _check_order(variant, rows + [row], state.rules)
    check_supply(state, row.cards)
    log = state.log.with_play(row)
    if kind in variant.events or kind in variant.round_lists:
        return row, replay(log, row)
    return row, LogState(log, state.doc, state.game, state.events)  # the game file is as it was


@dataclass
class Preview:
    """What a play would make and score, or why it is refused; nothing is saved."""

    row: PlayRow
    play: object | None = None
    error: str | None = None
    after: LogState | None = None
    last_ace: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and self.play is not None


def preview(state: LogState, kind: str, player: str, cards: Iterable[str],
            target: int | None = None) -> Preview:
    """Replay the log with this play added, without saving it."""
    try:
        row, after = check_play(state, kind, player, cards, target)
    except Refused as e:
        return Preview(PlayRow(None, state.round_no, 0, kind, player, tuple(cards), target),
                       error=e.message)
    played = after.plays(row.round_no)[-1].play
    return Preview(row, played, after=after, last_ace=after.ending and not state.ending)


# ---------------------------------------------------------------------------------------
# Changes to the log. Each is one transaction, checked by replaying the changed log.


def _insert_play(db: Database, game_id: int, row: PlayRow) -> int:
    return db.execute(
        "INSERT INTO plays (game, round_no, seq, type, player, cards, target, created) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [game_id, row.round_no, row.seq, row.type, row.player, json.dumps(list(row.cards)),
         row.target, kernel.now()],
    ).lastrowid


def save_summary(db: Database, log: GameLog, state: LogState) -> LogState:
    """Bump the version and keep what the history list shows (state: the log as saved)."""
    kernel.save_summary(db, log.id, log.version, over=state.over, status=state.status(),
                        round_no=state.round_no, totals=state.game.totals)
    return state


def _changing(db: Database, game_id: int, request_id: str | None) -> GameLog:
    """The start of every change, in its transaction: the game as it is now, and the
    form's request id claimed (a repeat raises Repeated)."""
    log = load(db, game_id)
    kernel.once(db, game_id, request_id)
    return log


def add_play(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
             cards: Iterable[str] = (), target: int | None = None,
             turn: str | None = None, round_no: int | None = None) -> tuple[PlayRow, LogState]:
    """Log a play of the round being played (one of its game's ``table_plays``).

    ``round_no``: the round the phone's page showed; a play made on a round that has
    ended since (an old tab) is refused, never logged in the next one. A pass is made by
    whoever's turn it is: ``turn``, whose turn the phone showed; if another phone passed
    it on meanwhile, the pass is refused rather than skipping a player.
    """
    with write(db):
        log = _changing(db, game_id, request_id)
        state = replay(log)
        if round_no is not None and round_no != state.round_no:
            word = log.variant.round_word
            raise Stale(f"that was made on the table of {word} {round_no}, and {word} "
                        f"{round_no} is over: nothing was saved. This is {word} {state.round_no}")
        if kind == "pass":
            _playing(state)
            if state.ended:
                raise Refused(f"the {log.variant.round_word} is over ({state.end_reason()}): "
                              "count the hands")
            if turn is not None and turn != state.turn:
                raise Stale(f"the turn already passed to {state.turn} (on another phone): "
                            "nothing was changed")
            player = state.turn
        row, after = check_play(state, kind, player, cards, target)
        saved = replace(row, id=_insert_play(db, game_id, row))
        after = LogState(after.log.replacing(row, saved), after.doc, after.game,
                         [[saved if r is row else r for r in rows] for rows in after.events])
        return saved, save_summary(db, log, after)


def undo(db: Database, game_id: int, request_id: str | None = None,
         last: int | None = None) -> str:
    """Take back the last play of the round; in a round with none, reopen the last round end.

    ``last``: the id of the last play the phone showed (0: none, the undo reopens a round
    end); if another phone logged or took back a play meanwhile, nothing is undone.
    """
    with write(db):
        log = _changing(db, game_id, request_id)
        state = replay(log)
        word = log.variant.round_word
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
            after = replay(log.without(row))
            db.execute("DELETE FROM plays WHERE id = ?", [row.id])
            save_summary(db, log, after)
            return f"took back {row.describe()}"
        if not log.hands:
            raise Refused("there is nothing to undo yet")
        round_no = max(log.hands)
        db.execute("UPDATE hands SET confirmed = 0 WHERE game = ? AND round_no = ?", [game_id, round_no])
        log.drafts[round_no] = log.hands.pop(round_no)
        save_summary(db, log, replay(log))
        return f"reopened the end of {word} {round_no}: the hands can be changed"


def _same_revision(db: Database, log: GameLog, play_id: int, revision: int | None) -> None:
    """Refuse to change or delete a play that someone else changed (or deleted) meanwhile."""
    if revision is None:
        return
    now_revision = kernel.revision_of(db, log.id, play_id)
    if now_revision is None:
        raise Stale("that play is not in the game any more (it was deleted on another "
                    "phone): nothing was changed")
    if now_revision != revision:
        raise Stale(f"this play was changed on another phone meanwhile; it is now "
                    f"{log.play(play_id).describe()}. Nothing was saved: look at it again")


def _edited(log: GameLog, play_id: int, player: str, cards: Iterable[str],
            target: int | None) -> tuple[PlayRow, PlayRow]:
    """(the play as logged, the play as changed); the type of a play never changes."""
    old = log.play(play_id)
    if old.type not in log.variant.events:
        raise Refused(f"a {PLAY_NAMES.get(old.type, old.type)} can only be deleted")
    if player not in log.players:
        raise Refused(f"'{player}' is not playing in this game")
    new_cards = () if old.type == "out" else read_cards(cards)
    if old.type != "out" and not new_cards:
        raise Refused("pick the cards first (or delete the play)")
    return old, replace(old, player=player, cards=new_cards,
                        target=target if old.type == "layoff" else None)


def preview_edit(state: LogState, play_id: int, player: str, cards: Iterable[str],
                 target: int | None = None) -> Preview:
    """What a play would make and score once changed, everything after it replayed."""
    try:
        old, row = _edited(state.log, play_id, player, cards, target)
        after = replay(state.log.replacing(old, row), row)
    except (Refused, NotFound) as e:
        message = e.message if isinstance(e, Refused) else kernel.sentence(str(e))
        return Preview(PlayRow(play_id, 0, 0, "meld", player, tuple(cards), target), error=message)
    played = next(tp.play for tp in after.plays(row.round_no) if tp.row is row)
    return Preview(row, played, after=after)


def edit_play(db: Database, game_id: int, request_id: str | None, play_id: int, player: str,
              cards: Iterable[str] = (), target: int | None = None,
              revision: int | None = None) -> PlayRow:
    """Change a play anywhere in the game; every later play and score is recomputed.

    ``revision``: the play's revision the phone showed; every edit bumps it.
    """
    with write(db):
        log = _changing(db, game_id, request_id)
        _same_revision(db, log, play_id, revision)
        old, row = _edited(log, play_id, player, cards, target)
        after = replay(log.replacing(old, row), row)
        _check_order(log.variant, after.log.rows(row.round_no), after.rules)
        db.execute(
            "UPDATE plays SET player = ?, cards = ?, target = ?, revision = revision + 1 "
            "WHERE id = ? AND game = ?",
            [row.player, json.dumps(list(row.cards)), row.target, play_id, game_id],
        )
        save_summary(db, log, after)
        return row


def delete_play(db: Database, game_id: int, request_id: str | None, play_id: int,
                revision: int | None = None) -> PlayRow:
    """Remove a play anywhere in the game, if everything after it still stands."""
    with write(db):
        log = _changing(db, game_id, request_id)
        _same_revision(db, log, play_id, revision)
        row = log.play(play_id)
        if row.type == "meld":
            on_it = [p for p in log.plays if p.target == row.id]
            if on_it:
                raise Refused(_lay_off_first(log.variant, on_it[0]))
        after = replay(log.without(row))
        _check_order(log.variant, after.log.rows(row.round_no), after.rules)
        db.execute("DELETE FROM plays WHERE id = ?", [play_id])
        save_summary(db, log, after)
        return row


def restore_play(db: Database, game_id: int, request_id: str | None, row: PlayRow) -> PlayRow:
    """Put a deleted play back where it was (its round and place in it), if everything
    around it still stands; a play logged in its place since is said, and nothing changes."""
    with write(db):
        log = _changing(db, game_id, request_id)
        if row.type not in log.variant.table_plays:
            raise Refused(f"unknown kind of play {row.type!r}")
        if any(p.round_no == row.round_no and p.seq == row.seq for p in log.plays):
            raise Refused("another play has been logged in its place since: log it again instead")
        plays = tuple(sorted(log.plays + (row,), key=lambda p: (p.round_no, p.seq)))
        after = replay(replace(log, plays=plays), row)
        _check_order(log.variant, after.log.rows(row.round_no), after.rules)
        saved = replace(row, id=_insert_play(db, game_id, row))
        save_summary(db, log, after)
        return saved


def _lay_off_first(variant: LogVariant, lay_off: PlayRow) -> str:
    if variant.edits:
        return f"{lay_off.describe()} lies on this meld: change or delete that lay-off first"
    return f"a lay-off lies on this meld ({lay_off.describe()}): delete that lay-off first"


# ---------------------------------------------------------------------------------------
# The end of a round: hands entered one by one (drafts), then counted together.


def _round_end(state: LogState, round_no: int) -> None:
    word = state.variant.round_word
    if state.over:
        raise Refused(f"the game is over: {state.game.status()}")
    if round_no != state.round_no:
        raise Refused(f"{word} {round_no} is not the {word} being played ({word} {state.round_no} is)")
    if not state.ended:
        raise Refused(f"the {word} is not over yet: {state.variant.how_rounds_end}")


CHECKS_BEFORE_THE_LOCK = 3  # tries at a hand's scoring while other phones change the game


def _scored_before_the_lock(db: Database, game_id: int, request_id: str | None, score, save):
    """A change whose check scores hands (the best last turn of each): the scoring is done
    before the write lock is taken, so no other phone's play waits behind it. ``score(log)``
    checks and scores the change against the game as read (Refused: nothing is saved);
    under the lock ``save(log, scored)`` writes it if the game is still at the version it
    was scored at, else it is scored again on the game as it now is (a few times: then
    the phone is told to try again)."""
    if kernel.acted_on(db, game_id, request_id):
        raise Repeated("this was saved already")
    for _try in range(CHECKS_BEFORE_THE_LOCK):
        log = load(db, game_id)
        scored = score(log)
        with write(db):
            if kernel.version_of(db, game_id) != log.version:
                continue  # changed meanwhile: this transaction writes nothing
            kernel.once(db, game_id, request_id)
            return save(log, scored)
    raise Stale("the game kept changing on other phones while this was checked: nothing was "
                "saved. Try again")


def save_hand(db: Database, game_id: int, request_id: str | None, round_no: int, player: str,
              cards: Iterable[str]) -> LogState:
    """Enter (or change) one player's cards left in hand at the end of the round.

    A hand holds no more cards than the decks leave once the table and the other hands
    entered are counted; each card as many times as the decks still hold it."""
    cards = read_hand(cards)

    def score(log: GameLog) -> LogState:
        state = replay(log)
        _round_end(state, round_no)
        if player not in log.players:
            raise Refused(f"'{player}' is not playing in this game")
        if player == state.out and cards:
            raise Refused(f"{player} went out and holds no cards")
        holding = [c for p, hand in state.drafts.items() if p != player for c in hand]
        left = sum(n for n in availability(state.round, holding=holding).values() if n > 0)
        if len(cards) > left:
            raise Refused(f"{player}'s hand cannot hold {len(cards)} cards: the decks leave {left} "
                          f"once the table and the other hands entered are counted")
        log.drafts.setdefault(round_no, {})[player] = cards
        after = replay(log)
        after.counted()  # the hands entered so far must be possible: scored here
        return after

    def save(log: GameLog, after: LogState) -> LogState:
        db.execute(
            "INSERT INTO hands (game, round_no, player, cards, confirmed, created) "
            "VALUES (?, ?, ?, ?, 0, ?) ON CONFLICT (game, round_no, player) DO UPDATE SET "
            "cards = excluded.cards, confirmed = 0",
            [game_id, round_no, player, json.dumps(list(cards)), kernel.now()],
        )
        return save_summary(db, log, after)

    return _scored_before_the_lock(db, game_id, request_id, score, save)


def _insert_hands(db: Database, game_id: int, round_no: int, hands: Mapping) -> None:
    for player, cards in hands.items():
        db.execute(
            "INSERT INTO hands (game, round_no, player, cards, confirmed, created) "
            "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (game, round_no, player) DO UPDATE SET "
            "cards = excluded.cards, confirmed = 1",
            [game_id, round_no, player, json.dumps(list(cards)), kernel.now()],
        )


def confirm_round(db: Database, game_id: int, request_id: str | None, round_no: int) -> LogState:
    """Count the entered hands: the round is scored and the next one starts with the next dealer.

    A round already counted (two phones confirming it) raises Repeated: nothing to do.
    """
    def score(log: GameLog) -> tuple[dict, LogState]:
        word = log.variant.round_word
        if round_no in log.hands:
            raise Repeated(f"{word} {round_no} was counted already")
        state = replay(log)
        _round_end(state, round_no)
        missing = state.missing_hands()
        if missing:
            raise Refused(f"enter the cards left in {', '.join(missing)}'s hand first")
        hands = dict(log.drafts.pop(round_no, {}))
        if state.out:
            hands[state.out] = ()
        log.hands[round_no] = hands
        return hands, replay(log)

    def save(log: GameLog, scored: tuple[dict, LogState]) -> LogState:
        hands, after = scored
        _insert_hands(db, game_id, round_no, hands)
        return save_summary(db, log, after)

    return _scored_before_the_lock(db, game_id, request_id, score, save)


# ---------------------------------------------------------------------------------------
# Game files in and out.


def export_document(db: Database, game_id: int) -> dict:
    return document(load(db, game_id))[0]


def import_document(db: Database, variant: LogVariant, doc: Mapping, game, source: str) -> int:
    """Add a game from its game file, already replayed (``game``); the first seat deals.

    Each event becomes a row; the round lists become their rows; a finished round that
    no one went out of ended by the game's way without an event (the stock ran out: the
    file does not say who drew the last card). The log is made and replayed first, as it
    will be stored; the write lock is held only to write it.
    """
    players = list(doc["players"])
    log = GameLog(None, variant, players, dict(doc.get("rules") or {}), 0, doc.get("teams"))
    rows: list[PlayRow] = []  # until they are stored, a row's id is its place in the game

    def add(round_no: int, seq: int, kind: str, player: str, cards=(), target=None) -> int:
        rows.append(PlayRow(len(rows) + 1, round_no, seq, kind, player, cards, target))
        return len(rows)

    for round_no, data in enumerate(doc.get("rounds", []), 1):
        melds: list[int] = []
        seq = 0
        for seq, event in enumerate(data.get("events", []), 1):
            cards = tuple(str(parse_card(c)) for c in event.get("cards", []))
            target = melds[event["meld"] - 1] if event["type"] == "layoff" else None
            row_id = add(round_no, seq, event["type"], event["player"], cards, target)
            if event["type"] == "meld":
                melds.append(row_id)
        for key in variant.round_lists:
            for player in data.get(key, []):
                seq += 1
                add(round_no, seq, key, player)
        if "hands" in data:
            if not game.rounds[round_no - 1].round.ended and variant.round_enders:
                add(round_no, seq + 1, variant.round_enders[0], "")
            log.hands[round_no] = {p: tuple(str(parse_card(c)) for c in data["hands"].get(p, []))
                                   for p in players}
    log.plays = tuple(rows)
    state = replay(log)
    with write(db):
        log.id, _secret = kernel.insert_game(db, variant, players, log.rules, 0, log.teams, source=source)
        ids: dict[int, int] = {}  # a row's place → its id as stored
        for row in rows:
            ids[row.id] = _insert_play(db, log.id, replace(row, target=ids.get(row.target)))
        for round_no, hands in log.hands.items():
            _insert_hands(db, log.id, round_no, hands)
        save_summary(db, log, state)
    return log.id
