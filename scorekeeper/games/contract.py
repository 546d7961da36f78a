"""The game contract: what the rest of the app may ask of a game's round and its result.

A game logged as it is played (:class:`~scorekeeper.games.variant.LogVariant`) hands the
stores and the game file's reader a round to replay its events onto, and a result once
the round is scored; a game counted at the round's end hands them the running totals of
:class:`~scorekeeper.games.handcount.CountedGame`. These Protocols say exactly what those
objects offer to code outside their game, and the type checker holds every game to them
(``make test`` runs mypy): a page that needs more of one game (Robber's melds and owners,
Iceberg's aces) is that game's family of pages, and asks its module's own classes.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .cards import Card, Supply
from .words import Say

Teams = Mapping[str, str]  # player → the name of their partnership; empty without partnerships


class LoggedPlay(Protocol):
    """One play of a logged round, as the round recorded it."""

    @property
    def player(self) -> str: ...

    @property
    def kind(self) -> str: ...  # one of the variant's events: "meld", "layoff", "out", "ace"

    @property
    def cards(self) -> tuple[Card, ...]: ...


class LogRound(Protocol):
    """The table one round's log builds: every play checked before it counts.

    A refused play raises :class:`~scorekeeper.games.errors.IllegalPlay` (or a card error)
    and leaves the round as it was. ``supply`` counts the cards seen, so a hand entered at
    the end is checked against what the decks still hold. ``finishing``: the round has
    ended but one player still finishes the turn (Iceberg's last ace); ``ended``: no play
    but that turn's is taken any more.
    """

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def rules(self) -> Mapping[str, Any]: ...  # the game's rules (options.Rules)

    @property
    def supply(self) -> Supply: ...

    @property
    def plays(self) -> Sequence[LoggedPlay]: ...

    @property
    def melds(self) -> Sequence[object]: ...  # the melds on the table, in order (each game's own)

    @property
    def out(self) -> str | None: ...  # who went out, if anyone has

    @property
    def ended(self) -> bool: ...

    @property
    def finishing(self) -> bool: ...

    def end_reason(self) -> Say | None: ...

    def meld(self, player: str, cards: Sequence[Card]) -> LoggedPlay: ...

    def lay_off(self, player: str, number: int, cards: Sequence[Card]) -> LoggedPlay: ...

    def go_out(self, player: str) -> LoggedPlay: ...


class AceRound(LogRound, Protocol):
    """A round whose aces go face up as plays of their own (the variant's ``ace`` event)."""

    def ace(self, player: str, cards: Sequence[Card]) -> LoggedPlay: ...


class RoundResult(Protocol):
    """A logged round scored: while it is played (no hands yet) or once its hands are in."""

    @property
    def round(self) -> LogRound: ...

    @property
    def finished(self) -> bool: ...

    @property
    def scores(self) -> Mapping[str, int]: ...

    @property
    def ended(self) -> Say: ...  # how the round ended, as the game file's score says it

    @property
    def words(self) -> Say: ...  # the same as the table says it

    def as_json(self) -> dict[str, Any]: ...  # the game file's score of the round


# How a logged game makes, scores and judges its rounds (LogVariant's fields).
NewRound = Callable[[Sequence[str], Mapping[str, Any], Teams], LogRound]  # players, rules, teams
# The round new_round made (each game's own class: its scoring reads more of it than the
# contract says), hands by player (None while it is played), the round's lists of players.
ScoreRound = Callable[[Any, Mapping[str, Sequence[Card]] | None, Mapping[str, Sequence[str]]],
                      RoundResult]
# players, rules, totals, teams → (over, winners, tied at the top)
Standing = Callable[[Sequence[str], Mapping[str, Any], Mapping[str, int], Teams], tuple[bool, list[str], bool]]
