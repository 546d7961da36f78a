"""Conquian (docs/rules/conquian.md): the oldest Western rummy.

40 cards (no 8, 9, 10), two players, ten cards each; the first to have eleven cards
melded wins the hand. There are no points: each hand is a stake. A hand whose stock
runs out is a tableau and raises the stake of the next decided hand by one: the winner
scores +stake, the loser −stake (stake = 1 + the tableaus just before it). A hand never
holds more than ten cards (a card taken is melded at once), and the hands with the
winner's eleven melded cards never come to more than the 40-card pack.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import IllegalPlay
from .handcount import CountedGame, HandRound, RoundScore, check_out
from .options import LARGEST, Option, RuleBook, Rules
from .variant import CountVariant
from .words import Say, SayN

NAME = Say("Conquian")
MIN_PLAYERS, MAX_PLAYERS = 2, 2
DECKS, JOKERS = 1, 0
WITHOUT_RANKS = (8, 9, 10)
SOURCE = Say("Nikki Katz's guide to rummy")
HAND_SIZE, WINNING_MELDS = 10, 11
PACK = 40  # 52 cards less the 8s, 9s and 10s

RULES = RuleBook(
    "conquian",
    [
        Option("target", None, Say("Stakes needed to win the match (none: play on without end)."),
               SOURCE, minimum=1, maximum=LARGEST, nullable=True, label=Say("Target")),
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
            raise IllegalPlay(SayN("%(player)s's hand has %(num)s card beside the %(melded)s %(winner)s "
                                   "melded: %(total)s cards, but the %(game)s pack has %(pack)s",
                                   "%(player)s's hand has %(num)s cards beside the %(melded)s %(winner)s "
                                   "melded: %(total)s cards, but the %(game)s pack has %(pack)s",
                                   len(rnd.hand(biggest)), player=biggest, melded=WINNING_MELDS,
                                   winner=rnd.out, total=held + WINNING_MELDS, game=NAME, pack=PACK))
    for p in players:
        if len(rnd.hand(p)) > HAND_SIZE:
            raise IllegalPlay(SayN("%(player)s's hand has %(num)s card, but %(game)s deals %(dealt)s each "
                                   "and a card taken is melded at once",
                                   "%(player)s's hand has %(num)s cards, but %(game)s deals %(dealt)s each "
                                   "and a card taken is melded at once",
                                   len(rnd.hand(p)), player=p, game=NAME, dealt=HAND_SIZE))


class Game(CountedGame):
    CARRIED = ("tableaus",)

    def __init__(self, players: Sequence[str], rules: Mapping[str, Any]) -> None:
        super().__init__(players, rules)
        self.tableaus = 0

    def play(self, rnd: HandRound) -> RoundScore:
        check_out(rnd, self.players)
        check_hand_sizes(rnd, self.players)
        scores = {p: 0 for p in self.players}
        if rnd.stalemate:
            self.tableaus += 1
            story = Say("tableau: the stock ran out; the next decided hand is worth %(stake)s",
                        stake=1 + self.tableaus)
            return RoundScore(scores, {p: {"score": 0, "story": [str(story)]} for p in self.players},
                              words=Say("tableau"), stories={p: [story] for p in self.players})
        if not rnd.out:
            story = Say("in progress")
            return RoundScore(scores, {p: {"score": 0, "story": [str(story)]} for p in self.players},
                              stories={p: [story] for p in self.players})
        stake = 1 + self.tableaus
        self.tableaus = 0
        for p in self.players:
            scores[p] = stake if p == rnd.out else -stake
        self.add(scores)
        target = self.rules["target"]
        if target is not None and max(self.totals.values()) >= target:
            self.over = True
            self.winners = [p for p in self.players if self.totals[p] == max(self.totals.values())]
        stories = {p: [Say("won a hand at stake %(stake)s", stake=stake) if p == rnd.out else
                       Say("lost a hand at stake %(stake)s", stake=stake)]
                   for p in self.players}
        detail = {p: {"score": scores[p], "stake": stake, "story": [str(line) for line in stories[p]]}
                  for p in self.players}
        return RoundScore(scores, detail, stories=stories)


def goal(rules: Mapping[str, Any]) -> Say:
    """How the match is won, in a sentence, with this game's numbers."""
    if rules["target"]:  # always "stakes" ("1 stakes" too), as it has said: not a SayN
        return Say("Each hand is a stake; a tableau raises the next one. %(target)s stakes win the match.",
                   target=rules["target"])
    return Say("Each hand is a stake; a tableau raises the next one. No target: the match goes on as "
               "long as you like.")


def round_note(carry: Mapping[str, Any]) -> SayN | None:
    """The stake of the hand to enter, once tableaus have raised it."""
    tableaus = int(carry.get("tableaus", 0))
    if not tableaus:
        return None
    return SayN("This hand is worth %(stake)s: %(num)s tableau before it.",
                "This hand is worth %(stake)s: %(num)s tableaus before it.", tableaus, stake=1 + tableaus)


VARIANT = CountVariant(
    key="conquian",
    name=NAME,
    blurb=Say("Two players, 40 cards; play for stakes."),
    rules=RULES,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    screens="hands",
    new_game=Game,
    decks=DECKS,
    jokers=JOKERS,
    without_ranks=WITHOUT_RANKS,
    counts_hands=False,
    who_ended=Say("Who won the hand?"),
    say_how=Say("say how the round ended: who won the hand, or a stalemate"),
    say_who=Say("say who won the hand"),
    how_to_enter=Say("say who won the hand (or that it was a tableau)"),
    stalemate_choice=Say("Tableau: the stock ran out (the next hand's stake goes up)"),
    goal=goal,
    round_note=round_note,
)
