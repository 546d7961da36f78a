"""Conquian (docs/rules/conquian.md): the oldest Western rummy.

40 cards (no 8, 9, 10), two players, ten cards each; the first to have eleven cards
melded wins the hand. There are no points: each hand is a stake. A hand whose stock
runs out is a tableau and raises the stake of the next decided hand by one: the winner
scores +stake, the loser −stake (stake = 1 + the tableaus just before it). A hand never
holds more than ten cards (a card taken is melded at once), and the hands with the
winner's eleven melded cards never come to more than the 40-card pack.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .errors import IllegalPlay
from .handcount import CountedGame, HandRound, RoundScore, check_out
from .options import LARGEST, Option, RuleBook, Rules
from .variant import CountVariant

NAME = "Conquian"
MIN_PLAYERS, MAX_PLAYERS = 2, 2
DECKS, JOKERS = 1, 0
WITHOUT_RANKS = (8, 9, 10)
SOURCE = "Nikki Katz's guide to rummy"
HAND_SIZE, WINNING_MELDS = 10, 11
PACK = 40  # 52 cards less the 8s, 9s and 10s

RULES = RuleBook(
    "conquian",
    [
        Option("target", None, "Stakes needed to win the match (none: play on without end).",
               SOURCE, minimum=1, maximum=LARGEST, nullable=True, label="Target"),
    ],
)


def resolve_rules(overrides: object, players: int) -> Rules:
    return RULES.resolve(overrides, players)


def check_hand_sizes(rnd: HandRound, players: Sequence[str]) -> None:
    """docs/rules/conquian.md: a hand never holds more than 10 cards (a card taken is melded
    at once), and the hands with the winner's 11 melded cards never more than the pack."""
    if rnd.out:
        held = sum(len(rnd.hand(p)) for p in players)
        if held + WINNING_MELDS > PACK:
            biggest = max(players, key=lambda p: len(rnd.hand(p)))
            raise IllegalPlay(f"{biggest}'s hand has {len(rnd.hand(biggest))} cards beside the "
                              f"{WINNING_MELDS} {rnd.out} melded: {held + WINNING_MELDS} cards, but the "
                              f"{NAME} pack has {PACK}")
    for p in players:
        if len(rnd.hand(p)) > HAND_SIZE:
            raise IllegalPlay(f"{p}'s hand has {len(rnd.hand(p))} cards, but {NAME} deals {HAND_SIZE} "
                              "each and a card taken is melded at once")


class Game(CountedGame):
    def __init__(self, players: Sequence[str], rules: Mapping) -> None:
        super().__init__(players, rules)
        self.tableaus = 0

    def play(self, rnd: HandRound) -> RoundScore:
        check_out(rnd, self.players)
        check_hand_sizes(rnd, self.players)
        scores = {p: 0 for p in self.players}
        if rnd.stalemate:
            self.tableaus += 1
            story = f"tableau: the stock ran out; the next decided hand is worth {1 + self.tableaus}"
            return RoundScore(scores, {p: {"score": 0, "story": [story]} for p in self.players},
                              words="tableau")
        if not rnd.out:
            return RoundScore(scores, {p: {"score": 0, "story": ["in progress"]} for p in self.players})
        stake = 1 + self.tableaus
        self.tableaus = 0
        for p in self.players:
            scores[p] = stake if p == rnd.out else -stake
        self.add(scores)
        target = self.rules["target"]
        if target is not None and max(self.totals.values()) >= target:
            self.over = True
            self.winners = [p for p in self.players if self.totals[p] == max(self.totals.values())]
        detail = {
            p: {"score": scores[p], "stake": stake,
                "story": [f"{'won' if p == rnd.out else 'lost'} a hand at stake {stake}"]}
            for p in self.players
        }
        return RoundScore(scores, detail)


def goal(rules: Mapping) -> str:
    """How the match is won, in a sentence, with this game's numbers."""
    return "Each hand is a stake; a tableau raises the next one. " + (
        f"{rules['target']} stakes win the match." if rules["target"] else
        "No target: the match goes on as long as you like.")


VARIANT = CountVariant(
    key="conquian",
    name=NAME,
    blurb="Two players, 40 cards; play for stakes.",
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    new_game=Game,
    decks=DECKS,
    jokers=JOKERS,
    without_ranks=WITHOUT_RANKS,
    counts_hands=False,
    who_ended="Who won the hand?",
    how_to_enter="say who won the hand (or that it was a tableau)",
    stalemate_choice="Tableau: the stock ran out (the next hand's stake goes up)",
    goal=goal,
)
