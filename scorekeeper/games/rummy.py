"""Basic Rummy and its common variations (docs/rules/rummy.md; cardgames.io and Nikki Katz's guide).

2–4 players, one deck, aces low. Hand values: ace 1, pips face value, J Q K 10.
``winner_takes_all``: whoever goes out scores the sum of the others' hands.
``penalty``: each player scores their own hand as penalty points; when someone reaches
the target the lowest total wins. Going "rummy" (out in one turn, nothing melded or laid
off before) doubles the win or adds 10; under penalty scoring it doubles every other
player's penalty for that round, or takes 10 off the winner's total. A stalemate scores 0 for everyone.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import Card
from .handcount import (
    CountedGame,
    HandRound,
    RoundScore,
    card_line,
    check_hand_sizes,
    check_out,
    hand_detail,
    lowest_wins,
)
from .options import LARGEST, Option, RuleBook, Rules
from .standings import highest_wins
from .variant import CountVariant
from .words import Say

NAME = Say("Rummy")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DECKS, JOKERS = 1, 0
SOURCE = Say("cardgames.io's Basic Rummy")


def _default_target(players: int, rules: Mapping[str, Any]) -> int:
    if rules.get("scoring") == "penalty":
        return 100
    return {2: 100, 3: 150}.get(players, 200)


RULES = RuleBook(
    "rummy",
    [
        Option("scoring", "winner_takes_all",
               Say("Who goes out scores the others' hands; or each player scores their own hand "
                   "as penalty points and the lowest total wins."),
               Say("cardgames.io's Basic Rummy; the penalty variation from Nikki Katz's guide"), kind="choice",
               choices=("winner_takes_all", "penalty"), label=Say("Scoring"),
               choice_labels=(Say("The winner takes all"), Say("Penalty points: the lowest total wins"))),
        Option("rummy_bonus", "double",
               Say("Going out in one turn without having melded or laid off before: double the "
                   "win, add 10, or nothing. With penalty scoring, doubling doubles the others' "
                   "penalties and adding 10 takes 10 off the winner's."),
               Say("cardgames.io's Basic Rummy (double); Nikki Katz's guide (ten points)"), kind="choice",
               choices=("double", "plus10", "none"), label=Say("Going out rummy"),
               choice_labels=(Say("Doubles the win"), Say("Adds 10"), Say("Nothing more"))),
        Option("target", 100,
               Say("The game score that ends the game; by default it depends on the players and the scoring."),
               SOURCE, minimum=1, maximum=LARGEST, default_for=_default_target,
               label=Say("Target"),
               default_text=Say("100 for 2 players, 150 for 3, 200 for 4; 100 with penalty scoring")),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def lowest_total_wins(rules: Mapping[str, Any]) -> bool:
    """With penalty scoring each player's own hand counts against them: lowest wins."""
    return rules.get("scoring") == "penalty"


def dealt(players: int) -> int:
    """Cards dealt to each player: 10 for two players, 7 for three or four (cardgames.io)."""
    return 10 if players == 2 else 7


def card_value(card: Card) -> int:
    """Ace 1, pips their number, J Q K 10."""
    return min(card.rank, 10)


class Game(CountedGame):
    def play(self, rnd: HandRound) -> RoundScore:
        check_out(rnd, self.players)
        check_hand_sizes(rnd, self.players, dealt(len(self.players)), NAME)
        values = {p: [card_value(c) for c in rnd.hand(p)] for p in self.players}
        scores = {p: 0 for p in self.players}
        stories: dict[str, list[Say]] = {p: [] for p in self.players}
        if rnd.out:
            others = sum(sum(v) for p, v in values.items() if p != rnd.out)
            bonus = self.rules["rummy_bonus"] if rnd.rummy else "none"
            if self.rules["scoring"] == "winner_takes_all":
                win = others * 2 if bonus == "double" else others + (10 if bonus == "plus10" else 0)
                scores[rnd.out] = win
                stories[rnd.out].append(Say("went out: the others' hands come to %(points)s", points=others))
                if bonus == "double":
                    stories[rnd.out].append(Say("went out in one turn (rummy): doubled, %(points)s", points=win))
                elif bonus == "plus10":
                    stories[rnd.out].append(Say("went out in one turn (rummy): 10 added, %(points)s", points=win))
            else:
                for p in self.players:
                    own = sum(values[p])
                    scores[p] = own * 2 if (bonus == "double" and p != rnd.out) else own
                    if p == rnd.out and bonus == "plus10":
                        scores[p] = -10
                        stories[p].append(Say("went out in one turn (rummy): 10 taken off, %(points)s",
                                              points=scores[p]))
                    elif bonus == "double" and p != rnd.out:
                        stories[p].append(Say("penalty points %(own)s, doubled: %(player)s went out in one "
                                              "turn (rummy), %(points)s", own=own, player=rnd.out,
                                              points=scores[p]))
                    else:
                        stories[p].append(Say("penalty points %(points)s", points=scores[p]))
        elif rnd.stalemate:
            for p in self.players:
                stories[p].append(Say("stalemate: no one scores"))
        if rnd.finished:
            self.add(scores)
            if self.rules["scoring"] == "winner_takes_all":
                self.over, self.winners, _tied = highest_wins(self.players, self.totals, self.rules["target"])
                if _tied:  # no play-on rule here: the tied leaders share the game
                    top = max(self.totals.values())
                    self.over, self.winners = True, [p for p in self.players if self.totals[p] == top]
            else:
                self.over, self.winners = lowest_wins(self.players, self.totals, self.rules["target"])
        stories = {p: [card_line(c, v) for c, v in zip(rnd.hand(p), values[p])] + stories[p]
                   for p in self.players}
        detail = {p: hand_detail(rnd.hand(p), values[p], scores[p], stories[p]) for p in self.players}
        return RoundScore(scores, detail, stories=stories)


def goal(rules: Mapping[str, Any]) -> Say:
    """How the game is won, in a sentence, with this game's numbers."""
    if rules["scoring"] == "penalty":
        return Say("Each player scores their own hand as penalty points; once someone reaches "
                   "%(target)s, the lowest total wins.", target=rules["target"])
    return Say("Whoever goes out scores the others' hands; the first to %(target)s wins (the "
               "highest total).", target=rules["target"])


VARIANT = CountVariant(
    key="rummy",
    name=NAME,
    blurb=Say("Basic Rummy: who goes out scores the others' hands (or penalty scoring)."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    lowest_total_wins=lowest_total_wins,
    new_game=Game,
    decks=DECKS,
    jokers=JOKERS,
    rummy_bonus=True,
    goal=goal,
    how_won=lambda rules: Say("lowest total") if lowest_total_wins(rules) else None,
)
