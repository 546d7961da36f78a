"""The game file (docs/game-file.md): read it, check it, replay it, and score it.

One JSON document describes a whole game: seating, rules and every round. The app
exports and imports it, ``scorekeeper score`` recomputes every score from it, the web
pages and the statistics are drawn from its replay: :func:`replay` is the one place a
game is scored. It is a public format: anything not understood is refused with one
sentence naming the round, the event and what is wrong.

What a game's rounds hold is said by the game (its ``VARIANT``, games/variant.py): a
log of plays or hands counted at the end. This package knows those two shapes, never a
game by name. Its modules: ``document`` (what every file is checked for before its
rounds), ``round_replay`` (one round replayed, and a refusal placed in the file), ``changes``
(the record of changes), and here the whole game. It is pure: no Flask, no database.

A game is replayed a round at a time: ``replay_round`` replays one round from the game
as it stood before it (a ``Standing``: the totals, whether it is over, and a counted
game's own state), and :func:`replay` is every round of a file in turn. The app
keeps each finished round's standing beside its log (storage/results.py), so that a page
replays the round being played, not the game; what it keeps is what these functions
return, and one command rebuilds it from the log.

What it says to people is sentences (games/words.py): a refusal's message, a round's
``said_ended``, a game's ``said_status()``. The score (``as_json()``), ``status()`` and
a refusal's ``reason`` are the same in the game file's English, as plain text.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.cards import parse_card
from ..games.errors import GameFileError
from ..games.variant import CountVariant, LogVariant, Variant
from ..games.words import Say, SayN, from_data, joined, to_data
from . import changes
from .document import FORMAT, MAX_ROUNDS, Header, canonical_text, parse_json, read_game, read_header
from .round_replay import CountedRound, Standing, figures_of, replay_round, resumed, start

# What the rest of the app asks of the game file (those from .document too); a round
# replayed on its own, and a refusal placed in the file: round_replay.
__all__ = [
    "FORMAT", "MAX_ROUNDS", "CountedRound", "CountGame", "GameFileError", "Header", "LogGame", "RoundRecord",
    "Standing", "canonical_text", "game_of", "parse_json", "read_game", "read_header", "record_of", "replay",
    "score_document", "score_text",
]


def replay(doc: Any) -> LogGame | CountGame:
    """The whole game a document describes, replayed and scored (or GameFileError): each
    round in turn (:func:`replay_round`).

    A log game (:class:`LogGame`) or a counted one (:class:`CountGame`): each has the
    players, rules, rounds (``scores``, ``finished``, ``ended``), totals, winners and
    ``as_json()``, the output of ``scorekeeper score``.
    """
    header = read_game(doc)
    changes.check(doc.get("changes"))  # the record of changes: checked, never replayed
    rounds = doc.get("rounds", [])
    standing, results = start(header), []
    for round_no, data in enumerate(rounds, 1):
        result, standing = replay_round(header, standing, data, round_no, last=round_no == len(rounds))
        results.append(result)
    return game_of(header, standing, results)


def score_document(doc: Any) -> dict[str, Any]:
    """The ``scorekeeper score`` output for a parsed game document."""
    return replay(doc).as_json()


def score_text(text: str) -> dict[str, Any]:
    return score_document(parse_json(text))


def game_of(header: Header, standing: Standing, results: list[Any]) -> LogGame | CountGame:
    """The game of these rounds' results, ending at ``standing``: a LogGame or a CountGame."""
    if isinstance(header.variant, CountVariant):
        game = resumed(header, standing)
        return CountGame(header.variant, header.players, header.rules, results, game.final_totals(),
                         list(game.winners), game.bonuses())
    return LogGame(header.variant, header.players, header.rules, dict(header.teams), header.teams_listed,
                   results, dict(standing.totals), list(standing.winners), standing.over, standing.tied)


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the app keeps it beside its log (storage/results.py): its
    scores, how it ended in words (``said``: a sentence), what the game page shows of each
    player (``figures``: the variant's ``round_figures``) and the card-level records of
    the statistics (``facts``: its ``round_facts``). Everything in it is derived from the
    round's replay (:func:`record_of`)."""

    scores: Mapping[str, int]
    said: Any
    figures: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    facts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    finished = True  # only finished rounds are kept

    @property
    def said_words(self) -> Any:  # as a counted round's result names it
        return self.said

    @property
    def words(self) -> str:
        return str(self.said)

    def as_data(self) -> dict[str, Any]:
        """Plain JSON data (sentences and titles as words.to_data has them)."""
        facts = {p: {k: ([[m[0], list(m[1]), to_data(m[2])] for m in v] if k == "melds" else v)
                     for k, v in of.items()} for p, of in self.facts.items()}
        return {"scores": dict(self.scores), "said": to_data(self.said), "figures": dict(self.figures),
                "facts": facts}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoundRecord:
        facts = {p: {k: ([(m[0], tuple(m[1]), from_data(m[2], parse_card)) for m in v] if k == "melds" else v)
                     for k, v in of.items()} for p, of in data["facts"].items()}
        return cls(data["scores"], from_data(data["said"], parse_card), data["figures"], facts)


def record_of(variant: Variant, result: Any, said: Any = None) -> RoundRecord:
    """The record of a finished round from its result (``said``: how it ended, where the
    table knows it better than the game file, e.g. who drew the last card)."""
    if said is None:
        said = getattr(result, "said_words", None) or result.words
    return RoundRecord(dict(result.scores), said, figures_of(variant, result),
                       variant.round_facts(result) if variant.round_facts else {})


@dataclass
class LogGame:
    """A game of logged rounds, replayed: each round's table, plays and scores."""

    variant: LogVariant
    players: list[str]
    rules: Mapping[str, Any]
    teams: dict[str, str]  # player → team name (empty without partnerships)
    teams_listed: Any  # the game file's ``teams``, as it was
    # The variant's round results (scores, finished, ended, round, as_json()); a game built
    # from the kept results (storage/results.py) holds their RoundRecords instead.
    rounds: list[Any]
    totals: dict[str, int]
    winners: list[str]
    over: bool
    tied_at_target: bool = False

    def said_status(self) -> Say:
        """The game in a few words: who won, a tie at the top, or in progress."""
        if self.winners:  # partners: "Ann & Cy win"
            return SayN("%(players)s wins", "%(players)s win", len(self.winners),
                        players=joined(self.winners, " & "))
        if self.tied_at_target and self.variant.round_word == "hand":
            return Say("tie at the top at %(target)s or more: play another hand", target=self.rules["target"])
        if self.tied_at_target:
            return Say("tie at the top at %(target)s or more: play another round", target=self.rules["target"])
        return Say("in progress")

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: the score's ``status``, and
        what the history list keeps."""
        return str(self.said_status())

    def as_json(self) -> dict[str, Any]:
        out = {"variant": self.variant.key, "rules": dict(self.rules)}
        if self.variant.partnerships:
            out["teams"] = self.teams_listed
        out.update(rounds=[r.as_json() for r in self.rounds], totals=self.totals,
                   winners=self.winners, status=self.status())
        return out


@dataclass
class CountGame:
    """A hand-count game, replayed: each round's scores and why, the totals, the winner."""

    variant: CountVariant
    players: list[str]
    rules: Mapping[str, Any]
    # Each round as replayed; a game built from the kept results (storage/results.py) holds
    # their RoundRecords instead, which keep no detail: as_json() is a replay's.
    rounds: list[Any]
    totals: dict[str, int]
    winners: list[str]
    bonuses: dict[str, list[tuple[str, int]]]  # bonuses the totals add to the rounds (Gin)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def said_status(self) -> Say:
        """The game in a few words: who won, or in progress."""
        if not self.winners:
            return Say("in progress")
        return SayN("%(players)s wins", "%(players)s win", len(self.winners), players=_and(self.winners))

    def status(self) -> str:
        """:meth:`said_status` in the game file's English: the score's ``status``, and
        what the history list keeps."""
        return str(self.said_status())

    def as_json(self) -> dict[str, Any]:
        return {"variant": self.variant.key, "rules": dict(self.rules),
                "rounds": [r.as_json() for r in self.rounds], "totals": self.totals,
                "winners": self.winners, "status": self.status()}


def _and(names: list[str]) -> Say | str:
    """Names one after another: "Ann", "Ann and Bob", "Ann and Bob and Cy"."""
    if len(names) == 1:
        return names[0]
    return Say("%(first)s and %(rest)s", first=names[0], rest=_and(names[1:]))

