"""Games whose rounds are logs of plays (Iceberg, Robber Rummy): one round read and replayed.

The stored truth of such a game is its plays, in ``plays`` (storage/plays.py says what a
row is), and the hands counted at the end of each round, in ``hands`` (entered one by
one as drafts, then confirmed together). A page reads one round, not the game: the
round being played (or, asked for, an earlier one) with the game as it stood before it,
kept beside the log for every finished round (storage/results.py). :func:`load` reads
them in one snapshot; :func:`replay` builds that round as the game file has it and
replays it with :func:`scorekeeper.gamefile.round_replay.replay_logged_round`, the same replay as
``scorekeeper score``; :class:`LogState` is what the table screen asks of it.

A play is checked by storage/log_checks.py, through this replay; the changes themselves
are storage/log_changes.py's.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import Standing, round_replay
from ..games.cards import Card
from ..games.contract import LogRound, RoundResult
from ..games.errors import GameFileError, ScorekeeperError
from ..games.variant import LogVariant
from ..games.words import Say
from ..games.worth import Worth
from . import kernel, results
from .kernel import NotFound, Refused
from .plays import ACE_CARDS, PlayRow, by_word, ended_by


def most_plays(round_: LogRound) -> int:
    """The most plays a round's log holds: four for each card of the decks. Every turn
    draws from the stock or puts cards on the table (taking the discard pile too puts its
    top card into a meld), and ends with one pass; the round ends before the stock runs
    out twice over."""
    return 4 * sum(round_.supply.limit.values())


# ---------------------------------------------------------------------------------------
# One round as stored.


@dataclass
class GameLog:
    """One game as stored, read for one round: seating, rules, the round's plays and its
    hands (counted, or being entered)."""

    id: int | None
    variant: LogVariant
    players: list[str]
    rules: dict[str, Any]  # as chosen (the replay resolves the defaults)
    first_dealer: int
    teams: list[list[str]] | None = None  # partnerships, as in the game file
    version: int = 0
    # The rows read (one round's), in order. Never changed in place: a change makes a new
    # log (with_play, without, replacing), so what is worked out from it stays true.
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

    def turns(self, round_no: int) -> tuple[list[int], frozenset[str]]:
        """Whose turn it is (a seat) before the round's first row and after each of its
        rows, and who sat out of the round by its last (``variant.sits_out``: Robber's
        renege). The player after the dealer starts; every pass moves the turn on to the
        next player who has not sat out."""
        count = len(self.players)
        seat, out, seats = (self.dealer_index(round_no) + 1) % count, set(), []
        seats.append(seat)
        for row in self.rows(round_no):
            if row.type in self.variant.sits_out:
                out.add(row.player)
            if row.type == "pass":
                seat = kernel.next_seat(self.players, seat, out)
            seats.append(seat)
        return seats, frozenset(out)

    def with_play(self, row: PlayRow) -> GameLog:
        """This log with one more play (nothing saved)."""
        return replace(self, plays=self.plays + (row,))

    def without(self, row: PlayRow) -> GameLog:
        return replace(self, plays=tuple(p for p in self.plays if p is not row))

    def replacing(self, old: PlayRow, new: PlayRow) -> GameLog:
        return replace(self, plays=tuple(new if p is old else p for p in self.plays))


@dataclass(frozen=True)
class Loaded:
    """A game read for one round (:func:`load`): its log of that round, the game as it
    stood before the round, and how many rounds are finished."""

    log: GameLog
    header: gamefile.Header
    before: Standing
    round_no: int
    finished: int


def load(db: Database, game_id: int, round_no: int | None = None) -> Loaded:
    """The game as stored, read for round ``round_no`` (by default the round being played;
    once the game is over, the last one played) in one snapshot: its version always
    matches its rows. NotFound for no game (or no such round), ValueError for a game whose
    rounds are not logs of plays."""
    with kernel.reading(db):
        game = kernel.header(db, game_id)
        if not isinstance(game["variant"], LogVariant):
            raise ValueError(f"game {game_id} is not kept as a log of plays")
        head = results.header(game)
        finished = results.finished(db, game_id)
        last = results.standing(db, game_id, head, finished)
        playing = finished if last.over else finished + 1
        focus = playing if round_no is None else round_no
        if not 1 <= focus <= max(playing, 1):
            raise NotFound(Say("round %(round)s is not in this game", round=focus))
        before = last if focus == finished + 1 else results.standing(db, game_id, head, focus - 1)
        plays = db.execute(
            "SELECT id, round_no, seq, type, player, cards, target, revision FROM plays "
            "WHERE game = ? AND round_no = ? ORDER BY seq", [game_id, focus]).fetchall()
        hands = db.execute(
            "SELECT round_no, player, cards, confirmed FROM hands WHERE game = ? AND round_no = ? "
            "ORDER BY id", [game_id, focus]).fetchall()
    log = GameLog(game_id, game["variant"], game["players"], game["rules"], game["first_dealer"],
                  game["teams"], game["version"])
    log.plays = rows_of(plays)
    for n, player, cards, confirmed in hands:
        book = log.hands if confirmed else log.drafts
        book.setdefault(n, {})[player] = tuple(json.loads(cards))
    return Loaded(log, head, before, focus, finished)


def round_of(db: Database, game_id: int, play_id: int) -> int | None:
    """The round a play of the game is in (None: no such play)."""
    if not -2**63 <= play_id < 2**63:  # no row has such an id (SQLite's integers)
        return None
    # ``+game``: found by the play's own index (play_entries_of), not by reading the game's entries.
    row = db.execute("SELECT round_no FROM plays WHERE id = ? AND +game = ?", [play_id, game_id]).fetchone()
    return None if row is None else row[0]


def rows_of(plays: list[tuple[int, int, int, str, str, str, int | None, int]]) -> tuple[PlayRow, ...]:
    """``plays`` rows as read (id, round, seq, type, player, cards, target, revision)."""
    if not plays:
        return ()
    cards_of = json.loads("[" + ",".join(row[5] for row in plays) + "]")  # one parse for all
    return tuple(PlayRow(i, r, seq, kind, player, tuple(cards), target, revision)
                 for (i, r, seq, kind, player, _text, target, revision), cards in zip(plays, cards_of))


# ---------------------------------------------------------------------------------------
# A round as the game file has it, replayed.


def round_data(log: GameLog, round_no: int,
               hands: Mapping[str, Iterable[str]] | None = None) -> tuple[dict[str, Any], list[PlayRow]]:
    """Round ``round_no`` of this log as the game file has it, and the rows behind its
    events (``events[e - 1]`` is the row of event e). ``hands``: the hands counted at its
    end (by default the log's; none while it is played)."""
    variant = log.variant
    rows = log.rows(round_no)
    data: dict[str, Any] = {"events": []}
    behind: list[PlayRow] = []
    meld_numbers: dict[int | None, int] = {}
    for row in rows:
        if row.type not in variant.events:
            continue
        event: dict[str, str | int | list[str]] = {"type": row.type, "player": row.player}
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
    data.update({key: named for key, named in round_lists(variant, rows).items() if named})
    hands = log.hands.get(round_no) if hands is None else hands
    if hands is not None:
        data["hands"] = {p: list(c) for p, c in hands.items()}
    return data, behind


def round_lists(variant: LogVariant, rows: Iterable[PlayRow]) -> dict[str, list[str]]:
    """A round's lists of players, as its rows name them (Robber's reneges: whoever
    reneged, in order)."""
    rows = list(rows)
    return {key: [r.player for r in rows if r.type == key] for key in variant.round_lists}


def _lost_meld(log: GameLog, row: PlayRow) -> Say:
    target = next((p for p in log.plays if p.id == row.target and p.id is not None), None)
    if target is None or target.type != "meld":
        return Say("%(play)s lies on a meld that is not on the table", play=row.describe())
    return Say("%(play)s lies on %(meld)s, which would then come after it", play=row.describe(),
               meld=target.describe())


def refusal(error: GameFileError, events: list[PlayRow], changed: PlayRow | None, log: GameLog,
             counted: bool) -> Refused:
    """The replay's complaint in plain words, saying which play it is about. ``counted``:
    the round's hands are counted."""
    # located() keeps the two together: a reason has its sentence
    reason = error.said_reason if error.reason and error.said_reason is not None else error.message
    if error.round_no and error.event_no:
        row = events[error.event_no - 1]
        if changed is None or row is changed:
            return Refused(reason)
        return Refused(by_word(
            log.variant,
            Say("that would make a later play illegal: %(play)s in round %(round)s — %(reason)s",
                play=row.describe(), round=error.round_no, reason=reason),
            Say("that would make a later play illegal: %(play)s in hand %(round)s — %(reason)s",
                play=row.describe(), round=error.round_no, reason=reason)))
    if error.round_no and counted:
        return Refused(by_word(
            log.variant,
            Say("that would clash with the hands counted at the end of round %(round)s: "
                "%(reason)s", round=error.round_no, reason=reason),
            Say("that would clash with the hands counted at the end of hand %(round)s: "
                "%(reason)s", round=error.round_no, reason=reason)))
    if error.round_no:  # the hands being entered: say whose
        return Refused(error.said_within or error.message)
    return Refused(reason)


def replay(loaded: Loaded, log: GameLog | None = None, changed: PlayRow | None = None,
           extra_hands: Mapping[str, Iterable[str]] | None = None) -> LogState:
    """Replay the round read (``log``: its rows as changed, by default as read) from the game
    as it stood before it; refuse (plain words) what the rules do not allow. ``changed``:
    the play being added or changed (a complaint about another play says that this one
    would make it illegal); ``extra_hands``: the hands being entered, counted as if
    confirmed."""
    log = loaded.log if log is None else log
    round_no = loaded.round_no
    counted = round_no in log.hands
    data, events = round_data(log, round_no, extra_hands)
    try:
        result, after = round_replay.replay_logged_round(loaded.header, loaded.before, data, round_no)
    except GameFileError as e:
        raise refusal(e, events, changed, log, counted) from None
    except ScorekeeperError as e:
        raise Refused(e.message) from None
    return LogState(log, loaded, result, after, events)


def before_play(state: LogState, row: PlayRow) -> LogState:
    """The round of ``row`` (``state``: that round, replayed) replayed up to the play before
    it: its table as it was then (the melds a lay-off being changed could lie on). A log
    that no longer replays in part gives the round as it ended."""
    earlier = tuple(p for p in state.log.plays if p.seq < row.seq)
    try:
        return replay(state.loaded, replace(state.log, plays=earlier, hands={}, drafts={}))
    except Refused:
        return state


# ---------------------------------------------------------------------------------------
# What the replay says, as the table screen asks it.


@dataclass(frozen=True)
class TablePlay:
    """A row of the log with what the replay made of it (None for a play the game file
    does not record: a pass, the discard pile taken …). A value: the pages key the line
    they draw of it by what it holds."""

    row: PlayRow
    play: object | None
    meld_number: int | None = None
    passed_to: str | None = None


@dataclass
class LogState:
    """A round of a game replayed: the round (being played, or the one asked for), whose
    turn, who dealt, the scores; the game as it stood before the round and after it."""

    log: GameLog
    loaded: Loaded
    scored_round: RoundResult  # the round as the variant scored it (the game file's round result)
    after: Standing
    events: list[PlayRow]  # the rows behind the round's events

    @property
    def variant(self) -> LogVariant:
        return self.log.variant

    @property
    def players(self) -> list[str]:
        return self.log.players

    @property
    def rules(self) -> Mapping[str, Any]:
        return self.loaded.header.rules

    @property
    def teams(self) -> list[list[str]] | None:
        return self.log.teams

    @property
    def before(self) -> Standing:
        return self.loaded.before

    @cached_property
    def game(self) -> gamefile.LogGame:
        """The game after this round, as the replay has it (its rounds are not read here:
        ``rounds`` holds this one only)."""
        game = gamefile.game_of(self.loaded.header, self.after, [self.scored_round])
        assert isinstance(game, gamefile.LogGame)  # a log of plays is a LogVariant's (load)
        return game

    @property
    def result(self) -> gamefile.LogGame:
        return self.game

    @property
    def finished_rounds(self) -> int:
        """The rounds of the game counted (the round read may be one of them)."""
        return self.loaded.finished

    @property
    def over(self) -> bool:
        return self.after.over

    @property
    def round_no(self) -> int:
        """The round read: the round being played; once the game is over, the last one."""
        return self.loaded.round_no

    @property
    def begun(self) -> bool:
        """The round has been played: it is counted, or it has a play (or a hand) logged."""
        return self.round_no <= self.finished_rounds or bool(self.rows() or self.drafts)

    @property
    def being_played(self) -> bool:
        """This is the round being played (not an earlier one, nor the last of a game over)."""
        return not self.over and self.round_no == self.loaded.finished + 1

    def round_result(self, round_no: int) -> RoundResult | None:
        """The result of round ``round_no``: this round's; None for another."""
        return self.scored_round if round_no == self.round_no else None

    @property
    def round(self) -> LogRound:
        """The table of the round."""
        return self.scored_round.round

    def rows(self, round_no: int | None = None) -> list[PlayRow]:
        return self.log.rows(round_no or self.round_no)

    def new_meld_worth(self) -> Worth | None:
        """What a new meld would score in the round being played, as a phone offline adds
        it up (games/worth.py); None where the game does not say."""
        worth_new = self.variant.worth_new
        return worth_new(self.round) if worth_new is not None else None

    def meld_worth(self) -> dict[int | None, Worth]:
        """What cards laid off on each meld of the round being played would score, by the
        id of the play that made it, as a phone offline adds them up; {} where the game
        does not say."""
        worth_melds = self.variant.worth_melds
        if worth_melds is None:
            return {}
        worth = worth_melds(self.round, round_lists(self.variant, self.rows()))
        return {pid: w for (pid, _meld), w in zip(self.melds(), worth)}

    def last_row(self) -> PlayRow | None:
        rows = self.rows()
        return rows[-1] if rows else None

    def dealer(self, round_no: int | None = None) -> str:
        return self.players[self.log.dealer_index(round_no or self.round_no)]

    @property
    def turn(self) -> str:
        return self.players[self.seating[0][-1]]

    @property
    def plays_now(self) -> str:
        """Who plays now: whose turn it is; while the round ends after a turn (Iceberg's
        last ace), the player finishing it."""
        finisher = getattr(self.round, "last_ace_by", None) if self.ending else None
        return finisher or self.turn

    @property
    def end_row(self) -> PlayRow | None:
        """The play that ended the round without an event (the stock ran out)."""
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
        """How the round ended, a sentence ("" while it goes on)."""
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

    def record(self) -> gamefile.RoundRecord:
        """This round's record, once its hands are counted (storage/results.py keeps it):
        how it ended in the table's words (the stock, and who drew its last card)."""
        return gamefile.record_of(self.variant, self.scored_round, self.end_reason() or None)

    def plays(self, round_no: int | None = None) -> list[TablePlay]:
        """Every row of the round, passes included, each with what the replay made of it."""
        if round_no not in (None, self.round_no):
            return []
        engine = list(self.round.plays)
        by_row = {row.id: play for row, play in zip(self.events, engine)}
        meld_numbers: dict[int | None, int] = {}
        table_plays = []
        seats = self.seating[0]
        for i, row in enumerate(self.log.rows(self.round_no)):
            if row.type == "pass":
                table_plays.append(TablePlay(row, None, passed_to=self.players[seats[i + 1]]))
                continue
            if row.type == "meld":
                meld_numbers[row.id] = len(meld_numbers) + 1
            number = meld_numbers.get(row.id if row.type == "meld" else row.target)
            table_plays.append(TablePlay(row, by_row.get(row.id), number))
        return table_plays

    def melds(self, round_no: int | None = None) -> list[tuple[int | None, object]]:
        """(play id, table meld) for each meld on the table, in the order they were made (a
        play not saved yet, as in a preview, has no id)."""
        if round_no not in (None, self.round_no):
            return []
        ids = [row.id for row in self.events if row.type == "meld"]
        return list(zip(ids, self.round.melds))

    def remaining(self, card: Card) -> int:
        return self.round.supply.remaining(card)

    def ace_suits(self) -> list[Card]:
        """The aces the decks still have this round."""
        return [c for c in ACE_CARDS if self.remaining(c) > 0]

    @cached_property
    def seating(self) -> tuple[list[int], frozenset[str]]:
        """The round's turns and who sat out of it (:meth:`GameLog.turns`), worked out once:
        whose turn it is, the passes' players passed to and the hands asked for read it."""
        return self.log.turns(self.round_no)

    @property
    def sat_out(self) -> frozenset[str]:
        """The players out of the round (Robber: who reneged): passed by, no hand asked."""
        return self.seating[1]

    @property
    def next_turn(self) -> str:
        """Whose turn a pass moves on to now."""
        seats, out = self.seating
        return self.players[kernel.next_seat(self.players, seats[-1], out)]

    def entering(self) -> list[str]:
        """The players whose cards left in hand are entered (not the one out: none; nor one
        who sat out of the round: theirs do not count)."""
        out = self.sat_out
        return [p for p in self.players if p != self.out and p not in out]

    def missing_hands(self) -> list[str]:
        """Players whose cards left in hand have not been entered yet (:meth:`entering`)."""
        return [p for p in self.entering() if p not in self.drafts]

    @property
    def drafts(self) -> dict[str, tuple[str, ...]]:
        return self.log.drafts.get(self.round_no, {})

    def counted(self) -> LogState | None:
        """The round with the hands entered so far counted, as confirming would count them
        (a player not entered yet holds nothing); None while the round is being played.
        Refused when those hands break the rules."""
        if not self.ended or self.round_no in self.log.hands:
            return None
        hands = dict(self.drafts)
        if self.out:
            hands[self.out] = ()
        return replay(self.loaded, self.log, extra_hands=hands)
