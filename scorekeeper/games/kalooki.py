"""Kalooki (docs/rules/kalooki.md).

Two decks and four jokers; 15 cards each for 2–4 players, 13 for 5, 11 for 6. When
someone goes out, the others score their hands as penalty points: joker 25, ace 11,
J Q K 10 (a house value: no source gives one), pips face value. A player whose total
exceeds ``elimination`` is out of the game; the last one left wins.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import ACE, Card
from .errors import IllegalPlay
from .handcount import (
    CountedGame,
    HandRound,
    RoundScore,
    ScoredRound,
    card_line,
    check_hand_sizes,
    check_out,
    hand_detail,
)
from .options import LARGEST, Option, RuleBook, Rules
from .variant import CountVariant
from .words import Say

NAME = Say("Kalooki")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DECKS, JOKERS = 2, 4
SOURCE = Say("Nikki Katz's guide to rummy")

RULES = RuleBook(
    "kalooki",
    [
        Option("elimination", 150, Say("A player whose total goes above this is out of the game."),
               SOURCE, minimum=1, maximum=LARGEST, label=Say("Out above")),
        Option("court_card_value", 10, Say("What a J, Q or K left in hand costs."),
               Say("published tables; no source gives one"), minimum=0, maximum=LARGEST,
               house_value=True, label=Say("A court card left in hand")),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def lowest_total_wins(rules: Mapping[str, Any]) -> bool:
    """Penalty points: the best round, and the best total, is the lowest."""
    return True


def dealt(players: int) -> int:
    """Cards dealt to each player still in the game: 15 for two to four, 13 for five, 11 for six."""
    return {5: 13, 6: 11}.get(players, 15)


def card_value(card: Card, rules: Mapping[str, Any]) -> int:
    """Penalty for a card left in hand: joker 25, ace 11, J Q K 10, pips face value."""
    if card.is_joker:
        return 25
    if card.rank == ACE:
        return 11
    return rules["court_card_value"] if card.rank > 10 else card.rank


class Game(CountedGame):
    CARRIED = ("eliminated",)

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        super().__init__(players, rules)
        self.eliminated: list[str] = []

    def play(self, rnd: HandRound) -> RoundScore:
        check_out(rnd, self.players)
        for p in self.eliminated:
            if rnd.out == p or rnd.hand(p):
                raise IllegalPlay(Say("%(player)s was eliminated and no longer plays", player=p))
        playing = [p for p in self.players if p not in self.eliminated]
        check_hand_sizes(rnd, playing, dealt(len(playing)), NAME)  # fewer players, bigger hands
        values = {p: [card_value(c, self.rules) for c in rnd.hand(p)] for p in self.players}
        scores = {p: sum(values[p]) if rnd.out else 0 for p in self.players}
        detail, stories = {}, {}
        newly_out = []
        if rnd.finished:
            self.add(scores)
            newly_out = [p for p in self.players
                         if p not in self.eliminated and self.totals[p] > self.rules["elimination"]]
            self.eliminated += newly_out
            left = [p for p in self.players if p not in self.eliminated]
            if len(left) <= 1:
                self.over = True
                if left:
                    self.winners = left
                else:  # everyone went over at once: the lowest of them wins
                    low = min(self.totals[p] for p in newly_out)
                    self.winners = [p for p in newly_out if self.totals[p] == low]
        for p in self.players:
            story = [card_line(c, v) for c, v in zip(rnd.hand(p), values[p])]
            if rnd.out == p:
                story.append(Say("went out"))
            if p in newly_out:
                story.append(Say("total %(total)s is above %(limit)s: eliminated", total=self.totals[p],
                                 limit=self.rules["elimination"]))
            elif p in self.eliminated:
                story.append(Say("eliminated in an earlier round"))
            stories[p] = story
            detail[p] = hand_detail(rnd.hand(p), values[p], scores[p], story)
            detail[p]["eliminated"] = p in self.eliminated
        return RoundScore(scores, detail, stories=stories)


def round_figures(result: ScoredRound) -> dict[str, dict[str, int]]:
    """Who is out of the game once the round is counted (the game page marks them)."""
    return {p: {"eliminated": int(bool(d.get("eliminated")))} for p, d in result.detail.items()}


VARIANT = CountVariant(
    key="kalooki",
    name=NAME,
    blurb=Say("Jokers; above 150 you are out; the last player left wins."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    lowest_total_wins=lowest_total_wins,
    new_game=Game,
    round_figures=round_figures,
    decks=DECKS,
    jokers=JOKERS,
    goal=lambda rules: Say("Cards left in hand are penalty points; above %(limit)s a player is "
                           "eliminated, and the last player left wins.", limit=rules["elimination"]),
    ending_total=lambda rules: (rules["elimination"], "elimination"),
    # Who went out scored 0 that round: someone is always left.
    how_won=lambda rules: Say("the last player left"),
)
