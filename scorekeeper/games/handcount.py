"""What the hand-count rummies share: how a round ended and what was left in hands.

docs/game-file.md, "Rounds counted at the end": a round says how it ended — ``out`` (who went out),
``knocker`` (Gin) or ``stalemate`` — and lists the cards the other players held. A
player left out of ``hands`` held nothing. Each game module (rummy, gin, kalooki,
conquian, manipulation) scores such rounds and decides when its game is over.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .cards import Card
from .errors import IllegalPlay
from .words import Cards, Say, SayN

# The round's field (and a counted round's stored ending) for going out "rummy": in one
# turn, having melded or laid off nothing before (Basic Rummy's bonus).
RUMMY = "rummy"


@dataclass(frozen=True)
class HandRound:
    out: str | None = None
    knocker: str | None = None
    stalemate: bool = False
    rummy: bool = False
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    has_hands: bool = False

    @property
    def finished(self) -> bool:
        return bool(self.out or self.knocker or self.stalemate)

    def hand(self, player: str) -> tuple[Card, ...]:
        return tuple(self.hands.get(player, ()))

    def ended(self) -> Say:
        """How the round ended, as the game file's score says it ("Ann knocked")."""
        if self.stalemate:
            return Say("stalemate")
        if self.knocker:
            return Say("%(player)s knocked", player=self.knocker)
        if self.out and self.rummy:
            return Say("%(player)s went out (rummy)", player=self.out)
        if self.out:
            return Say("%(player)s went out", player=self.out)
        return Say("in progress")


@dataclass
class RoundScore:
    """A round as a game scored it. ``detail`` is the game file's (its texts in the game
    file's English); ``stories`` the same lines as sentences, for a reader of its own."""

    scores: dict[str, int]
    detail: dict[str, dict[str, Any]]
    words: Say | None = None  # how the round ended, as the table says it, where not the file's word
    how: str = ""  # what came of it, where the game says: "gin", "undercut", "knock" (a code)
    stories: dict[str, list[Say]] = field(default_factory=dict)  # each player's lines, as in detail


class ScoredRound(Protocol):
    """A counted round as the game file scored it (gamefile.CountedRound), as a game's
    ``round_facts`` and ``round_figures`` read it."""

    @property
    def detail(self) -> Mapping[str, Mapping[str, Any]]: ...

    @property
    def how(self) -> str: ...


def check_out(rnd: HandRound, players: Sequence[str], allow_knock: bool = False) -> None:
    """The common checks: one way of ending, and the player who went out holds nothing."""
    if rnd.knocker and not allow_knock:
        raise IllegalPlay(Say("only Gin rounds end with a knock: say who went out (\"out\")"))
    if rnd.stalemate and (rnd.out or rnd.knocker):
        raise IllegalPlay(Say("a stalemate round has no one going out"))
    if rnd.out and rnd.hand(rnd.out):
        raise IllegalPlay(Say("%(player)s went out, so cannot still hold %(cards)s", player=rnd.out,
                              cards=Cards(rnd.hand(rnd.out))))


def check_hand_sizes(rnd: HandRound, players: Sequence[str], dealt: int, game: Say) -> None:
    """No hand left at the end can be bigger than a hand as dealt: a player draws one card
    and discards one each turn, so between turns they hold at most what they were dealt.
    ``game``: the game's name."""
    for p in players:
        if len(rnd.hand(p)) > dealt:
            raise IllegalPlay(SayN("%(player)s's hand has %(num)s card, but %(game)s with %(players)s "
                                   "players deals %(dealt)s each",
                                   "%(player)s's hand has %(num)s cards, but %(game)s with %(players)s "
                                   "players deals %(dealt)s each",
                                   len(rnd.hand(p)), player=p, game=game, players=len(players), dealt=dealt))


def card_line(card: Card, points: int) -> Say:
    """A card left in hand and what it counts: ``S9: 9``."""
    return Say("%(card)s: %(points)s", card=card, points=points)


def hand_detail(cards: Sequence[Card], values: Sequence[int], score: int, story: list[Say]) -> dict[str, Any]:
    """A player's part of the round as the game file's score has it (the story's lines
    in its English)."""
    return {
        "hand": [str(c) for c in cards],
        "cards": [{"card": str(c), "points": v} for c, v in zip(cards, values)],
        "hand_value": sum(values),
        "score": score,
        "story": [str(line) for line in story],
    }


def lowest_wins(players: Sequence[str], totals: Mapping[str, int], target: int | None) -> tuple[bool, list[str]]:
    """Penalty games: once a total reaches ``target``, the lowest total wins (ties share it)."""
    if target is None or max(totals.values()) < target:
        return False, []
    low = min(totals.values())
    return True, [p for p in players if totals[p] == low]


class CountedGame:
    """A game's running totals and whether it is over; each game module scores its rounds.

    What a game keeps from one round to the next beyond its totals, its subclass names in
    ``CARRIED`` (Gin's hands won, Kalooki's eliminated players): :meth:`carry` gives it as
    plain data and :meth:`resume` takes it back, so a round can be scored from the game
    as it stood before it (gamefile.Standing) without the rounds before.
    """

    CARRIED: tuple[str, ...] = ()

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        self.players = list(players)
        self.rules = rules
        self.totals = {p: 0 for p in players}
        self.over = False
        self.winners: list[str] = []

    def carry(self) -> dict[str, Any]:
        """What the next round needs besides the totals, as plain data (a copy)."""
        return {name: copy.deepcopy(getattr(self, name)) for name in self.CARRIED}

    @classmethod
    def resume(cls, players: Sequence[str], rules: Mapping[str, Any], totals: Mapping[str, int], over: bool,
               winners: Sequence[str], carried: Mapping[str, Any]) -> CountedGame:
        """The game as it stood: its totals, over and won by whom, and what it carries."""
        game = cls(players, rules)
        game.totals, game.over, game.winners = dict(totals), over, list(winners)
        for name in cls.CARRIED:
            setattr(game, name, copy.deepcopy(carried[name]))
        return game

    def play(self, rnd: HandRound) -> RoundScore:
        """Score one round by the game's rules and add it to the totals."""
        raise NotImplementedError(f"{type(self).__name__} scores no rounds")

    def add(self, scores: Mapping[str, int]) -> None:
        self.totals = {p: self.totals[p] + scores[p] for p in self.players}

    def final_totals(self) -> dict[str, int]:
        """The totals as the game file reports them (Gin adds its bonuses at the end)."""
        return dict(self.totals)

    def bonuses(self) -> dict[str, list[tuple[str, int]]]:
        """What the final totals add to the rounds' scores, per player: (bonus, points)."""
        return {p: [] for p in self.players}
