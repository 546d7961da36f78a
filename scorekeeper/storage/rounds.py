"""Games whose rounds are counted at the end (Basic Rummy, Gin, Kalooki, Conquian,
Manipulation): their rows read, replayed and changed (game files in and out: storage/count_store.py).

Such a round is not logged play by play: it is recorded when it ends (docs/game-file.md,
"Rounds counted at the end"), by how it ended and the cards left in each hand, in the tables
every game uses:

- one ``plays`` row per round says how it ended (``seq`` 1): ``type`` ``out`` (``player``
  went out), ``rummy`` (went out in one turn: the game file's ``"rummy": true``),
  ``knock`` (``player`` knocked) or ``stalemate`` (``player`` empty); ``cards`` is ``[]``.
  Its ``revision`` is bumped by every edit of the round, so an edit or delete made from
  a page that another phone has since changed is refused;
- the ``hands`` table holds each hand entered for the round (``confirmed`` 1). A round
  without hand rows has no ``hands`` in the game file (Conquian, stalemates).

A page reads the rounds' kept results (storage/results.py), not the rounds: each
recorded round's scores and words, and the game after the last (its totals, who is out,
Gin's hands won). A round's whole detail is replayed from the game as it stood before it
(:func:`detail`), with :func:`scorekeeper.gamefile.round_replay.replay_round`, the same code as
``scorekeeper score``. Every change is checked before the write lock and written under
it (kernel.change): a round recorded is replayed from the game before it; a round changed,
deleted or brought back, and every round after it, are replayed from the game before it
(a counted game carries its state from round to round). What the rules refuse is
:class:`Refused` in plain words, and nothing is saved.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import CountedRound, RoundRecord, Standing, round_replay
from ..games.cards import parse_card, sort_key
from ..games.errors import GameFileError, ScorekeeperError
from ..games.handcount import RUMMY
from ..games.variant import CountVariant
from ..games.words import Cards, Joined, Say, SayN, joined
from . import entries, kernel, record, results
from .kernel import NotFound, Refused, Stale

ENDINGS = ("out", RUMMY, "knock", "stalemate")
# The bonuses a game gives at its end (Gin's), each said by its word.
BONUS_WORDS = {"game": Say("game"), "shutout": Say("shutout"), "lines": Say("lines")}


@dataclass
class RecordedRound:
    """One recorded round: how it ended, and the hands entered (player → card names)."""

    how: str  # one of ENDINGS
    player: str = ""  # who went out or knocked ("" for a stalemate)
    hands: dict[str, tuple[str, ...]] | None = None  # None: no hands recorded
    play_id: int | None = None
    revision: int = 0

    def holding_nothing(self) -> list[str]:
        """The players who did not end the round and hold nothing as entered, where someone
        went out (a hand left to enter, or a tap missed: counted as none, so the page says so)."""
        if self.how not in ("out", RUMMY) or self.hands is None:
            return []
        return [p for p, cards in self.hands.items() if p != self.player and not cards]

    def data(self) -> dict[str, Any]:
        """The round as the game file has it."""
        if self.how == "stalemate":
            data: dict[str, Any] = {"stalemate": True}
        elif self.how == "knock":
            data = {"knocker": self.player}
        else:
            data = {"out": self.player, RUMMY: self.how == RUMMY}
        if self.hands is not None:
            data["hands"] = {p: list(c) for p, c in self.hands.items()}
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RecordedRound | None:
        """A checked game file's round (None: an unfinished round, nothing to keep)."""
        if data.get("stalemate"):
            how, player = "stalemate", ""
        elif data.get("knocker"):
            how, player = "knock", data["knocker"]
        elif data.get("out"):
            how, player = (RUMMY if data.get(RUMMY) else "out"), data["out"]
        else:
            return None
        hands = None
        if "hands" in data:
            hands = {p: canonical(cards) for p, cards in data["hands"].items()}
        return cls(how, player, hands)


def canonical(cards: Iterable[str]) -> tuple[str, ...]:
    """Card names as stored: canonical, sorted by suit and rank (docs/game-file.md, Cards)."""
    return tuple(str(c) for c in sorted((parse_card(c) for c in cards), key=sort_key))


@dataclass
class CountedLog:
    """A hand-count game as stored: seating, rules, and its recorded rounds (those read:
    all of them for a change or the game file, none for a page)."""

    id: int | None
    variant: CountVariant
    players: list[str]
    rules: dict[str, Any]
    first_dealer: int
    version: int = 0
    rounds: list[RecordedRound] = field(default_factory=list)

    def document(self, rounds: list[RecordedRound] | None = None) -> dict[str, Any]:
        return {
            "format": gamefile.FORMAT,
            "variant": self.variant.key,
            "rules": dict(self.rules),
            "players": list(self.players),
            "teams": None,
            "rounds": [r.data() for r in (self.rounds if rounds is None else rounds)],
        }


@dataclass
class Scored:
    """A hand-count game as its pages show it: each recorded round's kept record (scores,
    how it ended, what the page shows of each player) and the game after the last one."""

    game: CountedLog
    header: gamefile.Header
    records: list[RoundRecord]
    standing: Standing

    @property
    def variant(self) -> CountVariant:
        return self.game.variant

    @property
    def round_note(self) -> Say | SayN | None:
        """What the round to enter is worth, where the game says (Conquian after a tableau)."""
        return None if self.standing.over else self.variant.round_note(self.standing.carry)

    @property
    def players(self) -> list[str]:
        return self.game.players

    @property
    def rules(self) -> Mapping[str, Any]:
        return self.header.rules

    @property
    def over(self) -> bool:
        return self.standing.over

    @property
    def winners(self) -> list[str]:
        return list(self.standing.winners)

    @property
    def rounds(self) -> list[RoundRecord]:
        return self.records

    @property
    def recorded(self) -> int:
        """How many rounds are recorded."""
        return self.standing.rounds

    @property
    def result(self) -> gamefile.CountGame:
        """The game as the game file's replay has it (its rounds: the kept records)."""
        game = gamefile.game_of(self.header, self.standing, self.records)
        assert isinstance(game, gamefile.CountGame)  # the header's variant is a counted one (header_of)
        return game

    @property
    def totals(self) -> dict[str, int]:
        return self.result.totals

    @property
    def round_no(self) -> int:
        """The round to be recorded next; once the game is over, the last one played."""
        n = self.recorded
        return n if self.over else n + 1

    def bonuses(self) -> dict[str, int]:
        """What the totals add to the rounds' scores, per player (Gin's bonuses)."""
        return {p: sum(points for _name, points in given)
                for p, given in self.result.bonuses.items()}

    def bonus_names(self) -> list[str]:
        """The bonuses given, by their names in the game ("game", "shutout", "lines"), only
        those worth something."""
        names = [name for given in self.result.bonuses.values() for name, _points in given]
        order = {name: i for i, name in enumerate(dict.fromkeys(names))}
        return sorted(order, key=lambda n: ("game", "shutout", "lines").index(n)
                      if n in ("game", "shutout", "lines") else len(order) + order[n])

    def bonus_words(self) -> str:
        """:meth:`said_bonus_words` in English: "game, shutout, lines"."""
        return str(self.said_bonus_words())

    def said_bonus_words(self) -> Joined:
        """Which bonuses were given ("game, shutout, lines"): each bonus's word a sentence
        (BONUS_WORDS), shown one after another."""
        return joined([BONUS_WORDS.get(n, n) for n in self.bonus_names()], ", ")

    @property
    def lowest_wins(self) -> bool:
        return self.variant.lowest_total_wins(self.rules)

    def how_won(self) -> Say | str | None:
        """Why the winner won, once the game is over: "" when the highest total wins."""
        return self.variant.how_won(self.rules) if self.over else ""

    def eliminated(self, before: int | None = None) -> list[str]:
        """The players out of the game (Kalooki) by the end of the rounds before round
        ``before`` (of every round recorded if None), as the rounds' figures say."""
        rounds = self.records if before is None else self.records[:before - 1]
        if not rounds:
            return []
        last = rounds[-1].figures
        return [p for p in self.players if last.get(p, {}).get("eliminated")]

    def in_play(self, before: int | None = None) -> list[str]:
        """Who still plays (in round ``before``; after every round recorded if None)."""
        out = set(self.eliminated(before))
        return [p for p in self.players if p not in out]

    def dealer(self, round_no: int | None = None) -> str:
        """The deal passes to the left each round (seating order, first dealer chosen at the
        start), to the next player still in the game (Kalooki: never one eliminated)."""
        seat = self.game.first_dealer
        for before in range(2, (round_no or self.round_no) + 1):
            seat = kernel.next_seat(self.players, seat, self.eliminated(before))
        return self.players[seat]

    def said_status(self) -> Say:
        """The game in a few words, for the history list: who won, or "in progress" (and
        who is eliminated)."""
        if self.over:
            return self.result.said_status()
        gone = self.eliminated()
        if gone:
            return Say("in progress; eliminated: %(players)s", players=joined(gone, ", "))
        return Say("in progress")

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: what the games row keeps."""
        return str(self.said_status())


# ---------------------------------------------------------------------------------------
# Reading the rows.


def header_of(db: Database, game_id: int) -> tuple[CountedLog, gamefile.Header]:
    game = kernel.header(db, game_id)
    if not isinstance(game["variant"], CountVariant):
        raise ValueError(f"game {game_id} is not kept by its hands counted")  # a bug, not a refusal
    return (CountedLog(game_id, game["variant"], game["players"], game["rules"], game["first_dealer"],
                       game["version"]), results.header(game))


def load(db: Database, game_id: int) -> Scored:
    """The game as its pages show it, in one snapshot (NotFound if there is none,
    ValueError if not hand-count): the kept records, not the rounds."""
    with kernel.reading(db):
        game, head = header_of(db, game_id)
        records = results.records(db, game_id, facts=False)
        standing = results.standing(db, game_id, head, len(records))
    return Scored(game, head, records, standing)


def recorded(db: Database, game_id: int, first: int = 1) -> list[RecordedRound]:
    """The recorded rounds from round ``first`` on, as stored."""
    plays = db.execute(
        "SELECT id, round_no, type, player, revision FROM plays WHERE game = ? AND round_no >= ? "
        "ORDER BY round_no, seq", [game_id, first]).fetchall()
    hands = db.execute(
        "SELECT round_no, player, cards FROM hands WHERE game = ? AND confirmed = 1 AND round_no >= ? "
        "ORDER BY round_no, id", [game_id, first]).fetchall()
    by_round: dict[int, dict[str, tuple[str, ...]]] = {}
    for round_no, player, cards in hands:
        by_round.setdefault(round_no, {})[player] = tuple(json.loads(cards))
    return [RecordedRound(kind, player or "", by_round.get(round_no), play_id, revision or 0)
            for play_id, round_no, kind, player, revision in plays]


def recorded_round(db: Database, game_id: int, round_no: int) -> RecordedRound:
    """Round ``round_no`` as stored (NotFound if it is not recorded)."""
    found = db.execute("SELECT 1 FROM plays WHERE game = ? AND round_no = ?", [game_id, round_no]).fetchone()
    if found is None:
        raise NotFound(Say("round %(round)s is not in this game", round=round_no))
    return recorded(db, game_id, round_no)[0]


def replayed(head: gamefile.Header, before: Standing, rounds: list[RecordedRound], first: int,
              changed: int | None) -> list[tuple[CountedRound, Standing]]:
    """Rounds ``first``, ``first + 1`` … replayed in turn from the game before them: each
    result and the game after it; the rules' refusal in plain words (``changed``: the
    round being recorded or changed: a complaint about another round says that the change
    would break it)."""
    done, standing = [], before
    for round_no, rnd in enumerate(rounds, first):
        if standing.over:
            raise Refused(Say("that would end the game before round %(round)s, which was played "
                              "after it: delete the later rounds first", round=round_no))
        try:
            result, standing = round_replay.replay_round(head, standing, rnd.data(), round_no)
        except GameFileError as e:
            raise _refusal(e, changed) from None
        except ScorekeeperError as e:
            raise Refused(e.message) from None
        done.append((result, standing))
        time.sleep(0)  # a yield between rounds (gevent's, under the server)
    return done


def _refusal(error: GameFileError, changed: int | None) -> Refused:
    """The replay's refusal, without its round where it is the round being changed."""
    round_no = error.round_no
    if round_no is None:
        return Refused(error.message)
    here = error.said_within or error.said_reason or error.message
    if changed is None or round_no == changed:
        return Refused(here)
    return Refused(Say("that would make round %(round)s illegal: %(reason)s", round=round_no,
                       reason=here))


def detail(db: Database, scored: Scored, round_no: int) -> CountedRound:
    """A recorded round's whole detail (each hand's melds, deadwood, points and story),
    replayed from the game as it stood before it."""
    assert scored.game.id is not None  # a stored game's
    rnd = recorded_round(db, scored.game.id, round_no)
    before = results.standing(db, scored.game.id, scored.header, round_no - 1)
    return replayed(scored.header, before, [rnd], round_no, None)[0][0]


# ---------------------------------------------------------------------------------------
# A round as entered on the round-end screen.


def new_round(variant: CountVariant, players: list[str], ended: str, player: str | None,
              rummy: bool, hands: Mapping[str, Iterable[str]]) -> RecordedRound:
    """The round a form describes: ``ended`` "stalemate", or the game's way of ending a
    round (``variant.ender``: "out", or "knock") by ``player``; ``hands``: the cards picked
    for each player. The rules (hand sizes, the knock limit, cards the decks do not hold …)
    are checked by replaying the game with it (:func:`preview`, and every change)."""
    how, who = variant.say_how, variant.say_who
    if ended not in (variant.ender, "stalemate"):
        raise Refused(how)
    if ended != "stalemate" and player not in players:
        raise Refused(who)
    if rummy and not (variant.rummy_bonus and ended == "out"):
        raise Refused(Say("rummy means going out in one turn: say who went out"))
    try:
        picked = {p: canonical(cards) for p, cards in hands.items()}
    except ScorekeeperError as e:
        raise Refused(e.message) from None
    if variant.counts_hands:
        _hands_as_ended(ended, picked)
    kept = None
    if ended != "stalemate" and variant.counts_hands:
        kept = {p: picked.get(p, ()) for p in players if p in picked}
    # Whoever ended it is one of ``players`` (checked above): never None.
    return RecordedRound(RUMMY if rummy else ended, (player or "") if ended != "stalemate" else "", kept)


def _hands_as_ended(ended: str, picked: Mapping[str, tuple[str, ...]]) -> None:
    """Refuse hands a round so ended cannot have: cards picked for a stalemate, which counts
    none (they would be dropped unsaid)."""
    if ended == "stalemate":
        held = sorted((parse_card(c) for cards in picked.values() for c in cards), key=sort_key)
        if held:
            raise Refused(Say("a stalemate counts no hands: take off the cards picked (%(cards)s), or "
                              "say who went out", cards=Cards(list(held))))


def _from(db: Database, scored: Scored, round_no: int,
          rounds: list[RecordedRound]) -> list[tuple[CountedRound, Standing]]:
    """Rounds ``round_no`` on as ``rounds`` (the game's, changed), replayed from the game
    before them: [(result, the game after it)]."""
    assert scored.game.id is not None  # a stored game's
    before = results.standing(db, scored.game.id, scored.header, round_no - 1)
    return replayed(scored.header, before, rounds, round_no, changed=round_no)


def _changed_rounds(db: Database, scored: Scored, round_no: int, rnd: RecordedRound) -> list[RecordedRound]:
    """Rounds ``round_no`` on with round ``round_no`` recorded (the next one) or changed."""
    if round_no == scored.recorded + 1:
        if scored.over:
            raise Refused(Say("the game is over: %(status)s", status=scored.said_status()))
        return [rnd]
    if 1 <= round_no <= scored.recorded:
        assert scored.game.id is not None  # a stored game's
        later = recorded(db, scored.game.id, round_no)
        return [replace(rnd, play_id=later[0].play_id, revision=later[0].revision)] + later[1:]
    raise NotFound(Say("round %(round)s is not in this game", round=round_no))


def preview(db: Database, scored: Scored, round_no: int,
            rnd: RecordedRound) -> tuple[CountedRound, dict[str, int]]:
    """The round as it would be scored recorded (or changed), and the totals after the
    last round then; nothing is saved."""
    done = _from(db, scored, round_no, _changed_rounds(db, scored, round_no, rnd))
    last = gamefile.game_of(scored.header, done[-1][1], [])
    return done[0][0], last.totals


# ---------------------------------------------------------------------------------------
# Changes: each checked before the lock, by replaying the rounds it changes.


def insert_round(db: Database, game_id: int, round_no: int, rnd: RecordedRound, change: int | None = None) -> int:
    """A round recorded: its row (how it ended, by whom; its id returned) and its hands, new
    entries of the log."""
    play_id = entries.new_play(db, game_id, round_no, 1, rnd.how, rnd.player or "", change=change)
    entries.set_hands(db, game_id, round_no, rnd.hands or {}, confirmed=True, change=change)
    return play_id


def _noted(db: Database, game_id: int, kind: str, round_no: int, before: Scored, after: Standing,
           play: int | None = None, scores: dict[str, list[int]] | None = None) -> int:
    """A change of the recorded rounds kept in the record (storage/record.py): what it did
    to the round's scores (``scores``, an edit's) and to the totals."""
    facts: dict[str, Any] = {"kind": kind, "round": round_no}
    if scores:
        facts["scores"] = scores
    moved = record.score_facts(before.totals, after.totals)
    if moved:
        facts["totals"] = moved
    return record.note(db, game_id, facts, play=play)


def save_summary(db: Database, scored: Scored, after: Standing) -> Scored:
    """Bump the version and keep what the history list shows (status, round, totals), as
    ``after`` leaves the game (its rounds' results written first); the game at its new
    version."""
    assert scored.game.id is not None  # a stored game's (an imported one once inserted)
    now = Scored(replace(scored.game, version=scored.game.version + 1), scored.header,
                 results.records(db, scored.game.id, facts=False), after)
    kernel.save_summary(db, scored.game.id, scored.game.version, over=now.over, status=now.said_status(),
                        round_no=now.round_no, totals=now.totals)
    return now


def kept_records(done: list[tuple[CountedRound, Standing]],
                 variant: CountVariant) -> list[tuple[RoundRecord, Standing]]:
    """Each round replayed as its kept record, with the game after it."""
    return [(gamefile.record_of(variant, result), after) for result, after in done]


def encoded_results(done: list[tuple[CountedRound, Standing]], variant: CountVariant) -> list[tuple[str, ...]]:
    """The rounds' results as the rows keep them (made before the lock)."""
    return results.encode(kept_records(done, variant))


def record_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 rnd: RecordedRound) -> Scored:
    """Record the round that just ended. ``round_no``: the round the page was entering;
    if another phone recorded it meanwhile, this one is refused (Stale), not added twice."""
    def plan() -> tuple[int, Callable[[], Scored]]:
        scored = load(db, game_id)
        if round_no <= scored.recorded:
            raise Stale(Say("round %(round)s was recorded already (on another phone): nothing "
                            "was saved. Look at it on the game page", round=round_no))
        if scored.over:
            raise Refused(Say("the game is over: %(status)s", status=scored.said_status()))
        if round_no != scored.recorded + 1:
            raise Refused(Say("round %(round)s is not the round being played (round %(playing)s "
                              "is)", round=round_no, playing=scored.recorded + 1))
        if round_no > gamefile.MAX_ROUNDS:
            raise Refused(Say("a game holds at most %(most)s rounds: start a new game to play on",
                              most=gamefile.MAX_ROUNDS))
        done = _from(db, scored, round_no, [rnd])
        kept = encoded_results(done, scored.variant)

        def save() -> Scored:
            insert_round(db, game_id, round_no, rnd)
            results.write(db, game_id, round_no, kept)
            return save_summary(db, scored, done[-1][1])
        return scored.game.version, save

    return kernel.change(db, game_id, request_id, plan)


def _same_revision(scored: Scored, round_no: int, revision: int | None, rounds: list[RecordedRound]) -> RecordedRound:
    if not 1 <= round_no <= scored.recorded or not rounds:
        raise Stale(Say("round %(round)s is not in the game any more (it was deleted on "
                        "another phone): nothing was changed", round=round_no))
    old = rounds[0]
    if revision is not None and revision != old.revision:
        raise Stale(Say("round %(round)s was changed on another phone meanwhile: nothing "
                        "was saved. Look at it again", round=round_no))
    return old


def edit_round(db: Database, game_id: int, request_id: str | None, round_no: int,
               rnd: RecordedRound, revision: int | None = None) -> Scored:
    """Change a recorded round; every later round and total is recomputed."""
    def plan() -> tuple[int, Callable[[], Scored]]:
        scored = load(db, game_id)
        later = recorded(db, game_id, round_no) if 1 <= round_no <= scored.recorded else []
        old = _same_revision(scored, round_no, revision, later)
        done = _from(db, scored, round_no, [rnd] + later[1:])
        kept = encoded_results(done, scored.variant)
        moved = record.score_facts(results.scores(db, game_id, round_no)[0],
                                   gamefile.record_of(scored.variant, done[0][0]).scores)

        def save() -> Scored:
            assert old.play_id is not None  # a stored round's
            change = _noted(db, game_id, "round edit", round_no, scored, done[-1][1], old.play_id, moved)
            entries.change_hands(db, game_id, round_no, change, live=False)
            entries.change_play(db, game_id, old.play_id, change, kind=rnd.how, player=rnd.player or "")
            entries.set_hands(db, game_id, round_no, rnd.hands or {}, confirmed=True, change=change)
            results.write(db, game_id, round_no, kept)
            return save_summary(db, scored, done[-1][1])
        return scored.game.version, save

    return kernel.change(db, game_id, request_id, plan)


def delete_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 revision: int | None = None) -> Scored:
    """Remove a recorded round; the rounds after it move up one and everything is recomputed."""
    def plan() -> tuple[int, Callable[[], Scored]]:
        scored = load(db, game_id)
        later = recorded(db, game_id, round_no) if 1 <= round_no <= scored.recorded else []
        old = _same_revision(scored, round_no, revision, later)
        done = _from(db, scored, round_no, later[1:])
        after = done[-1][1] if done else results.standing(db, game_id, scored.header, round_no - 1)
        kept = encoded_results(done, scored.variant)

        def save() -> Scored:
            assert old.play_id is not None  # a stored round's
            change = _noted(db, game_id, "round delete", round_no, scored, after, old.play_id)
            entries.change_play(db, game_id, old.play_id, change, live=False)
            entries.change_hands(db, game_id, round_no, change, live=False)
            entries.move_rounds(db, game_id, round_no + 1, -1, change)
            results.write(db, game_id, round_no, kept)
            return save_summary(db, scored, after)
        return scored.game.version, save

    return kernel.change(db, game_id, request_id, plan)


def restore_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                  rnd: RecordedRound) -> Scored:
    """Put a deleted round back where it was; the rounds from there on move down one and
    everything is recomputed (refused, nothing changed, if the game no longer allows it)."""
    def plan() -> tuple[int, Callable[[], Scored]]:
        scored = load(db, game_id)
        if not 1 <= round_no <= scored.recorded + 1:
            raise Refused(SayN("the game has %(num)s round now: round %(round)s cannot come "
                               "back in its place",
                               "the game has %(num)s rounds now: round %(round)s cannot come "
                               "back in its place", scored.recorded, round=round_no))
        if scored.recorded >= gamefile.MAX_ROUNDS:
            raise Refused(Say("a game holds at most %(most)s rounds: start a new game to play on",
                              most=gamefile.MAX_ROUNDS))
        done = _from(db, scored, round_no, [rnd] + recorded(db, game_id, round_no))
        kept = encoded_results(done, scored.variant)

        def save() -> Scored:
            # The change names the round's row (found by it as it moves): the deleted round's,
            # brought back as itself (its history one), else the id a new row will have, after
            # one new entry for each round's row that moves down to make room.
            again = rnd.play_id is not None and entries.removed(db, game_id, rnd.play_id)
            moving = db.execute("SELECT count(*) FROM plays WHERE game = ? AND round_no >= ?",
                                [game_id, round_no]).fetchone()[0]
            play_id = rnd.play_id if again and rnd.play_id is not None else entries.next_play(db) + moving
            change = _noted(db, game_id, "round restore", round_no, scored, done[-1][1], play_id)
            entries.move_rounds(db, game_id, round_no, 1, change)
            if again:
                entries.change_play(db, game_id, play_id, change, round_no=round_no, kind=rnd.how,
                                    player=rnd.player or "")
                entries.set_hands(db, game_id, round_no, rnd.hands or {}, confirmed=True, change=change)
            else:
                made = insert_round(db, game_id, round_no, rnd, change)
                assert made == play_id  # each moved round's row one entry, then this one
            results.write(db, game_id, round_no, kept)
            return save_summary(db, scored, done[-1][1])
        return scored.game.version, save

    return kernel.change(db, game_id, request_id, plan)




