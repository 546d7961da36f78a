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
from ..games.words import Cards, Say, SayN, Sentence, joined
from . import kernel
from .db import write
from .kernel import NotFound, Refused, Repeated, Stale

ACE_CARDS = tuple(Card(ACE, suit) for suit in SUITS)
WITH_CARDS = ("ace", "meld", "layoff", "take")  # the plays that name cards

# A play in a few words ("Ann's meld (H3 H4 H5)"): one whole sentence per kind of play,
# by its player (p) and its cards (c). The plays that name cards have four: with both,
# with the player only, with the cards only, with neither; the others two (the player's,
# and none's).
PLAY_WORDS = {
    "ace": (lambda p, c: Say("%(player)s's ace (%(cards)s)", player=p, cards=c),
            lambda p, c: Say("%(player)s's ace", player=p),
            lambda p, c: Say("the ace (%(cards)s)", cards=c),
            lambda p, c: Say("the ace")),
    "meld": (lambda p, c: Say("%(player)s's meld (%(cards)s)", player=p, cards=c),
             lambda p, c: Say("%(player)s's meld", player=p),
             lambda p, c: Say("the meld (%(cards)s)", cards=c),
             lambda p, c: Say("the meld")),
    "layoff": (lambda p, c: Say("%(player)s's lay-off (%(cards)s)", player=p, cards=c),
               lambda p, c: Say("%(player)s's lay-off", player=p),
               lambda p, c: Say("the lay-off (%(cards)s)", cards=c),
               lambda p, c: Say("the lay-off")),
    "take": (lambda p, c: Say("%(player)s's taking of the discard pile (%(cards)s)", player=p, cards=c),
             lambda p, c: Say("%(player)s's taking of the discard pile", player=p),
             lambda p, c: Say("the taking of the discard pile (%(cards)s)", cards=c),
             lambda p, c: Say("the taking of the discard pile")),
    "out": (lambda p, c: Say("%(player)s's going out", player=p),
            lambda p, c: Say("the going out")),
    "pass": (lambda p, c: Say("%(player)s's pass", player=p),
             lambda p, c: Say("the pass")),
    "renege": (lambda p, c: Say("%(player)s's renege", player=p),
               lambda p, c: Say("the renege")),
    "stock": (lambda p, c: Say("%(player)s's stock running out", player=p),
              lambda p, c: Say("the stock running out")),
}
# A play that may only be deleted, said when it is asked to be changed.
ONLY_DELETED = {
    "pass": lambda: Say("a pass can only be deleted"),
    "take": lambda: Say("a taking of the discard pile can only be deleted"),
    "renege": lambda: Say("a renege can only be deleted"),
    "stock": lambda: Say("a stock running out can only be deleted"),
}


def _cards_said(names: Iterable[str]) -> Cards:
    """Card names as the value of a sentence (a name no card has stays as it was typed)."""
    cards = []
    for name in names:
        try:
            cards.append(parse_card(name))
        except ScorekeeperError:
            cards.append(name)
    return Cards(cards)


def _by_word(variant: LogVariant, round_said: Say, hand_said: Say) -> Say:
    """One of two whole sentences, as this game calls a round ("round"; "hand" in Robber
    Rummy: ``variant.round_word``)."""
    return hand_said if variant.round_word == "hand" else round_said


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

    def describe(self) -> Say:
        """A few words for a play: "Ann's meld (H3 H4 H5)", "the stock running out" (a
        sentence: PLAY_WORDS)."""
        forms = PLAY_WORDS.get(self.type)
        if forms is None:  # no kind of play the tables log: its name as the row has it
            if self.player:
                return Say("%(player)s's %(kind)s", player=self.player, kind=self.type)
            return Say("the %(kind)s", kind=self.type)
        cards = _cards_said(self.cards) if self.cards and len(forms) == 4 else None
        if len(forms) == 4:
            form = forms[(0 if self.player else 2) + (0 if cards is not None else 1)]
        else:
            form = forms[0 if self.player else 1]
        return form(self.player, cards)


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
        raise NotFound(Say("play %(play)s is not in this game", play=play_id))

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


def _lost_meld(log: GameLog, row: PlayRow) -> Say:
    target = next((p for p in log.plays if p.id == row.target and p.id is not None), None)
    if target is None or target.type != "meld":
        return Say("%(play)s lies on a meld that is not on the table", play=row.describe())
    return Say("%(play)s lies on %(meld)s, which would then come after it", play=row.describe(),
               meld=target.describe())


def _refusal(error: GameFileError, events: list[list[PlayRow]], changed: PlayRow | None,
             log: GameLog) -> Refused:
    """The replay's complaint in plain words, saying which play it is about."""
    reason = error.said_reason if error.reason else error.message
    if error.round_no and error.event_no:
        row = events[error.round_no - 1][error.event_no - 1]
        if changed is None or row is changed:
            return Refused(reason)
        return Refused(_by_word(
            log.variant,
            Say("that would make a later play illegal: %(play)s in round %(round)s — %(reason)s",
                play=row.describe(), round=error.round_no, reason=reason),
            Say("that would make a later play illegal: %(play)s in hand %(round)s — %(reason)s",
                play=row.describe(), round=error.round_no, reason=reason)))
    if error.round_no and error.round_no in log.hands:
        return Refused(_by_word(
            log.variant,
            Say("that would clash with the hands counted at the end of round %(round)s: "
                "%(reason)s", round=error.round_no, reason=reason),
            Say("that would clash with the hands counted at the end of hand %(round)s: "
                "%(reason)s", round=error.round_no, reason=reason)))
    if error.round_no:  # the hands being entered: say whose
        return Refused(kernel.within_round(error) or error.message)
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
        raise Refused(e.message) from None
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

    def end_reason(self) -> Say | str:
        """How the round being played ended, a sentence ("" while it goes on)."""
        row = self.end_row
        if row is not None:
            return ended_by(row)
        return self.round.end_reason() or ""

    def said_status(self) -> Say:
        """The game in a few words, for the history list: how the round ended while its
        hands are to be counted ("Ann went out: hands to count"), else the game's status."""
        if not self.ended:
            return self.game.said_status()
        row = self.end_row
        if row is not None and row.type == "stock":
            if row.player:
                return Say("the stock ran out (%(player)s drew the last card): hands to count",
                           player=row.player)
            return Say("the stock ran out: hands to count")
        if row is not None:
            return Say("%(play)s: hands to count", play=row.describe())
        if self.round.out:
            return Say("%(player)s went out: hands to count", player=self.round.out)
        last_ace = getattr(self.round, "last_ace_by", None)
        if last_ace:  # Iceberg: "Ann exposed the last ace", without the rest of its story
            return Say("%(player)s exposed the last ace: hands to count", player=last_ace)
        return Say("%(how)s: hands to count", how=self.end_reason())

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: what the games row keeps."""
        return str(self.said_status())

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


def ended_by(row: PlayRow) -> Say:
    """A round ended by a play the game file does not record, in words."""
    if row.type == "stock":
        if row.player:
            return Say("the stock ran out (%(player)s drew the last card)", player=row.player)
        return Say("the stock ran out")
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
            raise Refused(e.message) from None
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


def _decks_hold(decks: int, have: int, card: Card) -> Say:
    """How many of a card the decks hold: "one deck has one S9", "two decks have two S9s"."""
    if have == 1:
        return Say("one deck has one %(card)s", card=card)
    if decks == have == 2:
        return Say("two decks have two %(card)ss", card=card)
    if decks == have == 3:
        return Say("three decks have three %(card)ss", card=card)
    return Say("%(decks)s decks have %(copies)s %(card)ss", decks=decks, copies=have, card=card)


def _on_the_table(on_table: int, have: int, card: Card, deck: Say) -> Say:
    """That the decks' copies of a card are on the table already: "both S9s are …"."""
    if on_table == 1 and have == 1:
        return Say("%(card)s is already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 1:
        return Say("one %(card)s is already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 2 == have:
        return Say("both %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 2:
        return Say("two %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    if on_table == 3:
        return Say("three %(card)ss are already on the table (%(decks)s)", card=card, decks=deck)
    return Say("%(count)s %(card)ss are already on the table (%(decks)s)", count=on_table,
               card=card, decks=deck)


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
        deck = _decks_hold(supply.decks, have, card)
        on_table = have - left
        if not on_table:
            raise Refused(SayN("%(card)s is picked %(num)s time, but %(decks)s",
                               "%(card)s is picked %(num)s times, but %(decks)s", n,
                               card=card, decks=deck))
        raise Refused(_on_the_table(on_table, have, card, deck))


# ---------------------------------------------------------------------------------------
# A new play, checked (nothing saved).


def _game_over(status: Say) -> Say:
    return Say("the game is over: %(status)s", status=status)


def _round_over(state: LogState) -> Say:
    return _by_word(state.variant,
                    Say("the round is over (%(how)s): count the hands", how=state.end_reason()),
                    Say("the hand is over (%(how)s): count the hands", how=state.end_reason()))


def _playing(state: LogState) -> None:
    if state.over:
        raise Refused(_game_over(state.game.said_status()))
    if state.ended and not state.ending:
        raise Refused(_round_over(state))


def _check_order(variant: LogVariant, rows: list[PlayRow], rules: Mapping) -> None:
    if variant.check_plays is not None:
        try:
            variant.check_plays(rows, rules)
        except ScorekeeperError as e:
            raise Refused(e.message) from None


def _unknown_kind(kind: str) -> Say:
    return Say("unknown kind of play %(kind)s", kind=repr(kind))


def _not_playing(player: str) -> Say:
    return Say("'%(player)s' is not playing in this game", player=player)


def check_play(state: LogState, kind: str, player: str, cards: Iterable[str] = (),
               target: int | None = None) -> tuple[PlayRow, LogState]:
    """The row this play would add and the game after it; Refused (nothing saved) if the
    rules or the table do not allow it."""
    variant = state.variant
    _playing(state)
    if kind not in variant.table_plays:
        raise Refused(_unknown_kind(kind))
    if player not in state.players:
        raise Refused(_not_playing(player))
    cards = read_cards(cards) if kind in WITH_CARDS else ()
    if kind in WITH_CARDS and not cards:
        raise Refused(Say("pick the cards first"))
    if kind == "layoff" and target not in {pid for pid, _m in state.melds()}:
        raise Refused(Say("tap a meld on the table to lay off on it"))
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
    """What a play would make and score, or why it is refused; nothing is saved.

    ``error``: why, in the game file's English (a sentence, as a Refused's ``message``);
    ``said_error``: the same for a page (words.Sentence, as a Refused's ``said``)."""

    row: PlayRow
    play: object | None = None
    error: str | None = None
    after: LogState | None = None
    last_ace: bool = False
    said_error: Sentence | None = None

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
                       error=e.message, said_error=e.said)
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
    kernel.save_summary(db, log.id, log.version, over=state.over, status=state.said_status(),
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
            raise Stale(_by_word(
                log.variant,
                Say("that was made on the table of round %(round)s, and round %(round)s is over: "
                    "nothing was saved. This is round %(now)s", round=round_no, now=state.round_no),
                Say("that was made on the table of hand %(round)s, and hand %(round)s is over: "
                    "nothing was saved. This is hand %(now)s", round=round_no, now=state.round_no)))
        if kind == "pass":
            _playing(state)
            if state.ended:
                raise Refused(_round_over(state))
            if turn is not None and turn != state.turn:
                raise Stale(Say("the turn already passed to %(player)s (on another phone): "
                                "nothing was changed", player=state.turn))
            player = state.turn
        row, after = check_play(state, kind, player, cards, target)
        saved = replace(row, id=_insert_play(db, game_id, row))
        after = LogState(after.log.replacing(row, saved), after.doc, after.game,
                         [[saved if r is row else r for r in rows] for rows in after.events])
        return saved, save_summary(db, log, after)


def undo(db: Database, game_id: int, request_id: str | None = None,
         last: int | None = None) -> str:
    """:func:`undo_said`, what was undone in the game file's English ("took back …")."""
    return str(undo_said(db, game_id, request_id, last))


def undo_said(db: Database, game_id: int, request_id: str | None = None,
              last: int | None = None) -> Say:
    """Take back the last play of the round; in a round with none, reopen the last round
    end. Returns what was undone, a sentence ("took back Ann's meld (H3 H4 H5)").

    ``last``: the id of the last play the phone showed (0: none, the undo reopens a round
    end); if another phone logged or took back a play meanwhile, nothing is undone.
    """
    with write(db):
        log = _changing(db, game_id, request_id)
        state = replay(log)
        rows = [] if state.over else log.rows(state.round_no)
        now_last = rows[-1].id if rows else 0
        if last is not None and last != now_last:
            if last and not any(p.id == last for p in log.plays):
                raise Stale(Say("that play was taken back already (on another phone): "
                                "nothing more was undone"))
            if rows:
                raise Stale(Say("the last play is now %(play)s (the table changed on another "
                                "phone): nothing was undone; undo again to take it back",
                                play=rows[-1].describe()))
            raise Stale(Say("the table changed on another phone: nothing was undone"))
        if rows:
            row = rows[-1]
            after = replay(log.without(row))
            db.execute("DELETE FROM plays WHERE id = ?", [row.id])
            save_summary(db, log, after)
            return Say("took back %(play)s", play=row.describe())
        if not log.hands:
            raise Refused(Say("there is nothing to undo yet"))
        round_no = max(log.hands)
        db.execute("UPDATE hands SET confirmed = 0 WHERE game = ? AND round_no = ?", [game_id, round_no])
        log.drafts[round_no] = log.hands.pop(round_no)
        save_summary(db, log, replay(log))
        return _by_word(log.variant,
                        Say("reopened the end of round %(round)s: the hands can be changed",
                            round=round_no),
                        Say("reopened the end of hand %(round)s: the hands can be changed",
                            round=round_no))


def _same_revision(db: Database, log: GameLog, play_id: int, revision: int | None) -> None:
    """Refuse to change or delete a play that someone else changed (or deleted) meanwhile."""
    if revision is None:
        return
    now_revision = kernel.revision_of(db, log.id, play_id)
    if now_revision is None:
        raise Stale(Say("that play is not in the game any more (it was deleted on another "
                        "phone): nothing was changed"))
    if now_revision != revision:
        raise Stale(Say("this play was changed on another phone meanwhile; it is now %(play)s. "
                        "Nothing was saved: look at it again", play=log.play(play_id).describe()))


def _edited(log: GameLog, play_id: int, player: str, cards: Iterable[str],
            target: int | None) -> tuple[PlayRow, PlayRow]:
    """(the play as logged, the play as changed); the type of a play never changes."""
    old = log.play(play_id)
    if old.type not in log.variant.events:
        only = ONLY_DELETED.get(old.type)
        raise Refused(only() if only else Say("a %(kind)s can only be deleted", kind=old.type))
    if player not in log.players:
        raise Refused(_not_playing(player))
    new_cards = () if old.type == "out" else read_cards(cards)
    if old.type != "out" and not new_cards:
        raise Refused(Say("pick the cards first (or delete the play)"))
    return old, replace(old, player=player, cards=new_cards,
                        target=target if old.type == "layoff" else None)


def preview_edit(state: LogState, play_id: int, player: str, cards: Iterable[str],
                 target: int | None = None) -> Preview:
    """What a play would make and score once changed, everything after it replayed."""
    try:
        old, row = _edited(state.log, play_id, player, cards, target)
        after = replay(state.log.replacing(old, row), row)
    except (Refused, NotFound) as e:
        return Preview(PlayRow(play_id, 0, 0, "meld", player, tuple(cards), target),
                       error=e.message, said_error=e.said)
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
            raise Refused(_unknown_kind(row.type))
        if any(p.round_no == row.round_no and p.seq == row.seq for p in log.plays):
            raise Refused(Say("another play has been logged in its place since: log it again "
                              "instead"))
        plays = tuple(sorted(log.plays + (row,), key=lambda p: (p.round_no, p.seq)))
        after = replay(replace(log, plays=plays), row)
        _check_order(log.variant, after.log.rows(row.round_no), after.rules)
        saved = replace(row, id=_insert_play(db, game_id, row))
        save_summary(db, log, after)
        return saved


def _lay_off_first(variant: LogVariant, lay_off: PlayRow) -> Say:
    if variant.edits:
        return Say("%(play)s lies on this meld: change or delete that lay-off first",
                   play=lay_off.describe())
    return Say("a lay-off lies on this meld (%(play)s): delete that lay-off first",
               play=lay_off.describe())


# ---------------------------------------------------------------------------------------
# The end of a round: hands entered one by one (drafts), then counted together.


def _round_end(state: LogState, round_no: int) -> None:
    if state.over:
        raise Refused(_game_over(state.game.said_status()))
    if round_no != state.round_no:
        raise Refused(_by_word(
            state.variant,
            Say("round %(round)s is not the round being played (round %(playing)s is)",
                round=round_no, playing=state.round_no),
            Say("hand %(round)s is not the hand being played (hand %(playing)s is)",
                round=round_no, playing=state.round_no)))
    if not state.ended:
        raise Refused(_by_word(
            state.variant,
            Say("the round is not over yet: %(how)s", how=state.variant.how_rounds_end),
            Say("the hand is not over yet: %(how)s", how=state.variant.how_rounds_end)))


CHECKS_BEFORE_THE_LOCK = 3  # tries at a hand's scoring while other phones change the game


def _scored_before_the_lock(db: Database, game_id: int, request_id: str | None, score, save):
    """A change whose check scores hands (the best last turn of each): the scoring is done
    before the write lock is taken, so no other phone's play waits behind it. ``score(log)``
    checks and scores the change against the game as read (Refused: nothing is saved);
    under the lock ``save(log, scored)`` writes it if the game is still at the version it
    was scored at, else it is scored again on the game as it now is (a few times: then
    the phone is told to try again)."""
    if kernel.acted_on(db, game_id, request_id):
        raise Repeated(Say("this was saved already"))
    for _try in range(CHECKS_BEFORE_THE_LOCK):
        log = load(db, game_id)
        scored = score(log)
        with write(db):
            if kernel.version_of(db, game_id) != log.version:
                continue  # changed meanwhile: this transaction writes nothing
            kernel.once(db, game_id, request_id)
            return save(log, scored)
    raise Stale(Say("the game kept changing on other phones while this was checked: nothing "
                    "was saved. Try again"))


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
            raise Refused(_not_playing(player))
        if player == state.out and cards:
            raise Refused(Say("%(player)s went out and holds no cards", player=player))
        holding = [c for p, hand in state.drafts.items() if p != player for c in hand]
        left = sum(n for n in availability(state.round, holding=holding).values() if n > 0)
        if len(cards) > left:
            raise Refused(SayN("%(player)s's hand cannot hold %(num)s card: the decks leave "
                               "%(left)s once the table and the other hands entered are counted",
                               "%(player)s's hand cannot hold %(num)s cards: the decks leave "
                               "%(left)s once the table and the other hands entered are counted",
                               len(cards), player=player, left=left))
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
        if round_no in log.hands:
            raise Repeated(_by_word(log.variant,
                                    Say("round %(round)s was counted already", round=round_no),
                                    Say("hand %(round)s was counted already", round=round_no)))
        state = replay(log)
        _round_end(state, round_no)
        missing = state.missing_hands()
        if missing:
            raise Refused(Say("enter the cards left in %(players)s's hand first",
                              players=joined(missing, ", ")))
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
