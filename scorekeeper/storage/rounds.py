"""Games whose rounds are counted at the end (Basic Rummy, Gin, Kalooki, Conquian,
Manipulation): rows ⇄ game file ⇄ scores.

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

Every read builds the game file and replays it with :func:`scorekeeper.gamefile.replay`,
the same code as ``scorekeeper score``. Every change is one ``write(db)`` transaction
that replays the changed game first: what the rules refuse is :class:`Refused` in plain
words, and nothing is saved. The request ids, versions and the games row are the
kernel's (storage/kernel.py), as for the logs of plays.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from sqlite_utils import Database

from .. import gamefile
from ..games.cards import parse_card, sort_key
from ..games.errors import GameFileError, ScorekeeperError
from ..games.handcount import RUMMY
from ..games.variant import CountVariant
from ..games.words import Joined, Say, SayN, joined
from . import kernel
from .db import write
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

    def data(self) -> dict:
        """The round as the game file has it."""
        if self.how == "stalemate":
            data: dict = {"stalemate": True}
        elif self.how == "knock":
            data = {"knocker": self.player}
        else:
            data = {"out": self.player, RUMMY: self.how == RUMMY}
        if self.hands is not None:
            data["hands"] = {p: list(c) for p, c in self.hands.items()}
        return data

    @classmethod
    def from_data(cls, data: Mapping) -> "RecordedRound | None":
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
    """A hand-count game as stored: seating, rules, and its recorded rounds."""

    id: int | None
    variant: CountVariant
    players: list[str]
    rules: dict
    first_dealer: int
    version: int = 0
    rounds: list[RecordedRound] = field(default_factory=list)

    def document(self, rounds: list[RecordedRound] | None = None) -> dict:
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
    """A hand-count game and its replay: what the game pages show."""

    game: CountedLog
    result: gamefile.CountGame

    @property
    def variant(self) -> CountVariant:
        return self.game.variant

    @property
    def players(self) -> list[str]:
        return self.game.players

    @property
    def rules(self) -> Mapping:
        return self.result.rules

    @property
    def over(self) -> bool:
        return self.result.over

    @property
    def winners(self) -> list[str]:
        return self.result.winners

    @property
    def totals(self) -> dict[str, int]:
        return self.result.totals

    @property
    def rounds(self) -> list[gamefile.CountedRound]:
        return self.result.rounds

    @property
    def round_no(self) -> int:
        """The round to be recorded next; once the game is over, the last one played."""
        n = len(self.game.rounds)
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

    def how_won(self) -> str:
        """Why the winner won, once the game is over: "" when the highest total wins."""
        return self.variant.how_won(self.rules) if self.over else ""

    def eliminated(self, before: int | None = None) -> list[str]:
        """The players out of the game (Kalooki) by the end of the rounds before round
        ``before`` (of every round scored if None), as the rounds' details say."""
        rounds = self.rounds if before is None else self.rounds[:before - 1]
        if not rounds:
            return []
        last = rounds[-1].detail
        return [p for p in self.players if last.get(p, {}).get("eliminated")]

    def in_play(self, before: int | None = None) -> list[str]:
        """Who still plays (in round ``before``; after every round scored if None)."""
        out = set(self.eliminated(before))
        return [p for p in self.players if p not in out]

    def dealer(self, round_no: int | None = None) -> str:
        """The deal passes to the left each round (seating order, first dealer chosen at the start)."""
        round_no = round_no or self.round_no
        return self.players[(self.game.first_dealer + round_no - 1) % len(self.players)]

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


def load(db: Database, game_id: int) -> CountedLog:
    """The game as stored (NotFound if there is none, ValueError if not hand-count)."""
    with kernel.reading(db):
        game = kernel.header(db, game_id)
        plays = db.execute(
            "SELECT id, round_no, type, player, revision FROM plays WHERE game = ? "
            "ORDER BY round_no, seq", [game_id]).fetchall()
        hands = db.execute(
            "SELECT round_no, player, cards FROM hands WHERE game = ? AND confirmed = 1 "
            "ORDER BY round_no, id", [game_id]).fetchall()
    if not isinstance(game["variant"], CountVariant):
        raise ValueError(f"game {game_id} is not kept by its hands counted")  # a bug, not a refusal
    counted = CountedLog(game_id, game["variant"], game["players"], game["rules"],
                         game["first_dealer"], game["version"])
    by_round: dict[int, dict] = {}
    for round_no, player, cards in hands:
        by_round.setdefault(round_no, {})[player] = tuple(json.loads(cards))
    for play_id, round_no, kind, player, revision in plays:
        counted.rounds.append(RecordedRound(kind, player or "", by_round.get(round_no), play_id,
                                            revision or 0))
    return counted


def score(game: CountedLog, rounds: list[RecordedRound] | None = None,
          changed: int | None = None) -> Scored:
    """Replay the game (with ``rounds`` instead of its own); the rules' refusal in plain words.

    ``changed``: the round being recorded or edited; a complaint about another round says
    that the change would break it.
    """
    rounds = game.rounds if rounds is None else rounds
    try:
        result = gamefile.replay(game.document(rounds))
    except GameFileError as e:
        raise _refusal(e, changed) from None
    except ScorekeeperError as e:
        raise Refused(e.message) from None
    return Scored(replace(game, rounds=list(rounds)), result)


def _refusal(error: GameFileError, changed: int | None) -> Refused:
    """The replay's refusal, without its round where it is the round being changed."""
    round_no = error.round_no
    if round_no is None:
        return Refused(error.message)
    here = kernel.within_round(error) or error.said_reason or error.message
    if changed is None or round_no == changed:
        return Refused(here)
    if "already over" in str(error):  # the game file's "the game was already over after …"
        return Refused(Say("that would end the game before round %(round)s, which was played "
                           "after it: delete the later rounds first", round=round_no))
    return Refused(Say("that would make round %(round)s illegal: %(reason)s", round=round_no,
                       reason=here))


# ---------------------------------------------------------------------------------------
# A round as entered on the round-end screen.


def new_round(variant: CountVariant, players: list[str], ended: str, player: str | None,
              rummy: bool, hands: Mapping[str, Iterable[str]]) -> RecordedRound:
    """The round a form describes: ``ended`` "stalemate", or the game's way of ending a
    round (``variant.ender``: "out", or "knock") by ``player``; ``hands``: the cards picked
    for each player. The rules (hand sizes, the knock limit, cards the decks do not hold …)
    are checked by replaying the game with it (:func:`score`)."""
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
    kept = None
    if ended != "stalemate" and variant.counts_hands:
        kept = {p: picked.get(p, ()) for p in players if p in picked}
    return RecordedRound(RUMMY if rummy else ended, player if ended != "stalemate" else "", kept)


def preview(scored: Scored, round_no: int, rnd: RecordedRound) -> Scored:
    """The game scored with this round recorded (or changed), nothing saved."""
    rounds = list(scored.game.rounds)
    if round_no == len(rounds) + 1:
        if scored.over:
            raise Refused(Say("the game is over: %(status)s", status=scored.said_status()))
        rounds.append(rnd)
    elif 1 <= round_no <= len(rounds):
        rounds[round_no - 1] = replace(rnd, play_id=rounds[round_no - 1].play_id,
                                       revision=rounds[round_no - 1].revision)
    else:
        raise NotFound(Say("round %(round)s is not in this game", round=round_no))
    return score(scored.game, rounds, changed=round_no)


# ---------------------------------------------------------------------------------------
# Changes: each one transaction, checked by scoring the changed game first.


def _insert_round(db: Database, game_id: int, round_no: int, rnd: RecordedRound,
                  revision: int = 0) -> None:
    stamp = kernel.now()
    db.execute(
        "INSERT INTO plays (game, round_no, seq, type, player, cards, created, revision) "
        "VALUES (?, ?, 1, ?, ?, '[]', ?, ?)", [game_id, round_no, rnd.how, rnd.player, stamp, revision])
    for player, cards in (rnd.hands or {}).items():
        db.execute(
            "INSERT INTO hands (game, round_no, player, cards, confirmed, created) "
            "VALUES (?, ?, ?, ?, 1, ?)",
            [game_id, round_no, player, json.dumps(list(cards)), stamp])


def save_summary(db: Database, game: CountedLog, scored: Scored) -> Scored:
    """Bump the version and keep what the history list shows (status, round, totals)."""
    kernel.save_summary(db, game.id, game.version, over=scored.over, status=scored.said_status(),
                        round_no=scored.round_no, totals=scored.totals)
    return scored


def record_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 rnd: RecordedRound) -> Scored:
    """Record the round that just ended. ``round_no``: the round the page was entering;
    if another phone recorded it meanwhile, this one is refused (Stale), not added twice."""
    with write(db):
        game = load(db, game_id)
        kernel.once(db, game_id, request_id)
        if round_no <= len(game.rounds):
            raise Stale(Say("round %(round)s was recorded already (on another phone): nothing "
                            "was saved. Look at it on the game page", round=round_no))
        before = score(game)
        if before.over:
            raise Refused(Say("the game is over: %(status)s", status=before.said_status()))
        if round_no != len(game.rounds) + 1:
            raise Refused(Say("round %(round)s is not the round being played (round %(playing)s "
                              "is)", round=round_no, playing=len(game.rounds) + 1))
        after = score(game, game.rounds + [rnd], changed=round_no)
        _insert_round(db, game_id, round_no, rnd)
        return save_summary(db, game, after)


def _same_revision(game: CountedLog, round_no: int, revision: int | None) -> RecordedRound:
    if not 1 <= round_no <= len(game.rounds):
        raise Stale(Say("round %(round)s is not in the game any more (it was deleted on "
                        "another phone): nothing was changed", round=round_no))
    old = game.rounds[round_no - 1]
    if revision is not None and revision != old.revision:
        raise Stale(Say("round %(round)s was changed on another phone meanwhile: nothing "
                        "was saved. Look at it again", round=round_no))
    return old


def edit_round(db: Database, game_id: int, request_id: str | None, round_no: int,
               rnd: RecordedRound, revision: int | None = None) -> Scored:
    """Change a recorded round; every later round and total is recomputed."""
    with write(db):
        game = load(db, game_id)
        kernel.once(db, game_id, request_id)
        old = _same_revision(game, round_no, revision)
        rounds = list(game.rounds)
        rounds[round_no - 1] = rnd
        after = score(game, rounds, changed=round_no)
        db.execute("DELETE FROM hands WHERE game = ? AND round_no = ?", [game_id, round_no])
        db.execute("DELETE FROM plays WHERE id = ?", [old.play_id])
        _insert_round(db, game_id, round_no, rnd, revision=old.revision + 1)
        return save_summary(db, game, after)


def delete_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                 revision: int | None = None) -> Scored:
    """Remove a recorded round; the rounds after it move up one and everything is recomputed."""
    with write(db):
        game = load(db, game_id)
        kernel.once(db, game_id, request_id)
        _same_revision(game, round_no, revision)
        rounds = game.rounds[:round_no - 1] + game.rounds[round_no:]
        after = score(game, rounds, changed=round_no)
        for table in ("plays", "hands"):
            db.execute(f"DELETE FROM {table} WHERE game = ? AND round_no = ?", [game_id, round_no])
            # Two steps: the unique (game, round_no, …) indexes never see two rounds at once.
            db.execute(f"UPDATE {table} SET round_no = -round_no WHERE game = ? AND round_no > ?",
                       [game_id, round_no])
            db.execute(f"UPDATE {table} SET round_no = -round_no - 1 WHERE game = ? AND round_no < 0",
                       [game_id])
        return save_summary(db, game, after)


def restore_round(db: Database, game_id: int, request_id: str | None, round_no: int,
                  rnd: RecordedRound) -> Scored:
    """Put a deleted round back where it was; the rounds from there on move down one and
    everything is recomputed (refused, nothing changed, if the game no longer allows it)."""
    with write(db):
        game = load(db, game_id)
        kernel.once(db, game_id, request_id)
        if not 1 <= round_no <= len(game.rounds) + 1:
            raise Refused(SayN("the game has %(num)s round now: round %(round)s cannot come "
                               "back in its place",
                               "the game has %(num)s rounds now: round %(round)s cannot come "
                               "back in its place", len(game.rounds), round=round_no))
        rounds = game.rounds[:round_no - 1] + [rnd] + game.rounds[round_no - 1:]
        after = score(game, rounds, changed=round_no)
        for table in ("plays", "hands"):
            # Two steps: the unique (game, round_no, …) indexes never see two rounds at once.
            db.execute(f"UPDATE {table} SET round_no = -round_no - 1 WHERE game = ? AND round_no >= ?",
                       [game_id, round_no])
            db.execute(f"UPDATE {table} SET round_no = -round_no WHERE game = ? AND round_no < 0",
                       [game_id])
        _insert_round(db, game_id, round_no, rnd)
        return save_summary(db, game, after)


# ---------------------------------------------------------------------------------------
# Game files in and out.


def export_document(db: Database, game_id: int) -> dict:
    """The game file: what ``scorekeeper score`` and an import read back."""
    return load(db, game_id).document()


def import_document(db: Database, variant: CountVariant, doc: Mapping, _game, source: str) -> int:
    """Add a hand-count game from its game file, already replayed; the first seat deals.
    An unfinished last round (no one out, no knock, no stalemate) records nothing yet."""
    game = CountedLog(None, variant, list(doc["players"]), dict(doc.get("rules") or {}), 0)
    game.rounds = [r for r in (RecordedRound.from_data(d) for d in doc.get("rounds", [])) if r]
    scored = score(game)
    with write(db):
        game.id, _secret = kernel.insert_game(db, variant, game.players, game.rules, 0, source=source)
        for round_no, rnd in enumerate(game.rounds, 1):
            _insert_round(db, game.id, round_no, rnd)
        save_summary(db, game, scored)
    return game.id
