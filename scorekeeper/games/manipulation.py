"""Manipulation Rummy (Carousel) (docs/rules/manipulation.md; the published Carousel rules).

3–5 players, two decks, seven cards each, aces high only, no discard. When someone
goes out, the others take penalties for the cards left in hand: ace 15, 10 J Q K 10,
others 5. Penalties accumulate; once someone reaches ``target`` the lowest total wins.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import ACE, Card
from .handcount import CountedGame, HandRound, RoundScore, card_line, check_out, hand_detail, lowest_wins
from .options import LARGEST, Option, RuleBook, Rules
from .variant import CountVariant
from .words import Say

NAME = Say("Manipulation Rummy")
MIN_PLAYERS, MAX_PLAYERS = 3, 5
DECKS, JOKERS = 2, 0
SOURCE = Say("the published Carousel rules (Nikki Katz's guide stops before its scoring)")

RULES = RuleBook(
    "manipulation",
    [
        Option("target", 200, Say("Penalties at which the game ends (300 is common); the lowest total wins."),
               SOURCE, minimum=1, maximum=LARGEST, label=Say("Target")),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def lowest_total_wins(rules: Mapping[str, Any]) -> bool:
    """Penalties: the best round, and the best total, is the lowest."""
    return True


def card_value(card: Card) -> int:
    """Penalty for a card left in hand: ace 15, 10 J Q K 10, others 5."""
    if card.rank == ACE:
        return 15
    return 10 if card.rank >= 10 else 5


class Game(CountedGame):
    def play(self, rnd: HandRound) -> RoundScore:
        check_out(rnd, self.players)
        values = {p: [card_value(c) for c in rnd.hand(p)] for p in self.players}
        scores = {p: sum(values[p]) if rnd.out else 0 for p in self.players}
        if rnd.finished:
            self.add(scores)
            self.over, self.winners = lowest_wins(self.players, self.totals, self.rules["target"])
        stories = {p: [card_line(c, v) for c, v in zip(rnd.hand(p), values[p])]
                   + ([Say("went out")] if rnd.out == p else [])
                   + ([Say("stalemate: no penalties")] if rnd.stalemate else [])
                   for p in self.players}
        detail = {p: hand_detail(rnd.hand(p), values[p], scores[p], stories[p]) for p in self.players}
        return RoundScore(scores, detail, stories=stories)


VARIANT = CountVariant(
    key="manipulation",
    name=NAME,
    blurb=Say("Rearrange the table; penalties for cards left; lowest total wins."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    lowest_total_wins=lowest_total_wins,
    new_game=Game,
    decks=DECKS,
    jokers=JOKERS,
    goal=lambda rules: Say("Cards left in hand are penalty points; once someone reaches %(target)s, the "
                           "lowest total wins.", target=rules["target"]),
    how_won=lambda rules: Say("lowest total"),
)
