"""Scripted Iceberg rounds: the legal plays a table of phones logs, for the load benchmark.

Each round is dealt from a shuffled supply (a seeded RNG, so every run plays the same
rounds): ten cards to each player, the rest face down as the stock. On a turn the
player draws a card, then, as a keen player would:

- puts every ace held face up, one tap each (docs/rules/iceberg.md: aces are never melded);
- lays down every meld the hand holds: runs of 3 or more in one suit first, then sets
  and pairs of one rank (different suits; a card held twice stays in hand);
- lays off every card that fits a meld on the table, one card per play;
- passes the turn on, or goes out when the hand is empty.

The round ends when someone goes out, or when the last ace of the decks is exposed (its
player finishes the turn, and there is no pass). Then every phone enters the cards left
in its player's hand (the player who went out enters nothing) and the dealer's phone
counts the round. Every play is checked with the rules library while it is scripted
(``iceberg.Round``, the same checks the server's replay makes), so a correct server
accepts every one of them.

A step is a plain tuple, naming the seat whose phone sends it:

    ("ace", seat, card)                ("meld", seat, cards)
    ("layoff", seat, number, cards)    # number: the meld's number in this round (1, 2, …)
    ("pass", seat)                     ("out", seat)
    ("hand", seat, cards)              ("confirm", seat)
"""
from __future__ import annotations

import random
from collections import Counter

from scorekeeper.games import iceberg
from scorekeeper.games.cards import SUITS, Card, sort_key
from scorekeeper.games.errors import IllegalPlay

DEALT = 10  # cards per hand
PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve", "Flo")


def rules_for(players: int) -> iceberg.Rules:
    """The rules a new game gets by default (two decks for four players or more)."""
    return iceberg.resolve_rules({}, players)


def _runs(hand: list[Card]) -> list[list[Card]]:
    """Runs of 3+ cards of one suit in sequence, longest first (one copy of each card)."""
    found = []
    for suit in SUITS:
        ranks = sorted({c.rank for c in hand if c.suit == suit and not c.is_ace})
        start = 0
        for i in range(1, len(ranks) + 1):
            if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                if i - start >= 3:
                    found.append([Card(r, suit) for r in ranks[start:i]])
                start = i
    return sorted(found, key=len, reverse=True)


def _groups(hand: list[Card]) -> list[list[Card]]:
    """Sets and pairs: the cards of one rank in different suits, 2 or more."""
    by_rank: dict[int, dict[str, Card]] = {}
    for card in hand:
        if not card.is_ace:
            by_rank.setdefault(card.rank, {})[card.suit] = card
    return [sorted(cards.values(), key=sort_key) for cards in by_rank.values() if len(cards) >= 2]


def _take(hand: list[Card], cards: list[Card]) -> None:
    for card in cards:
        hand.remove(card)


def script_round(rng: random.Random, players: int, starter: int, dealer: int) -> list[tuple]:
    """One round's steps, from the deal to the round counted; ``starter`` plays first."""
    rules = rules_for(players)
    names = list(PLAYERS[:players])
    round_ = iceberg.Round(names, rules)
    stock = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)] * rules["decks"]
    rng.shuffle(stock)
    hands = [[stock.pop() for _ in range(DEALT)] for _ in range(players)]
    steps: list[tuple] = []

    def play(step: tuple, apply) -> bool:
        try:
            apply()
        except IllegalPlay:  # not a legal play after all: the player keeps the cards
            return False
        steps.append(step)
        return True

    seat = starter
    while True:
        hand = hands[seat]
        name = names[seat]
        if stock:
            hand.append(stock.pop())
        for card in [c for c in hand if c.is_ace]:
            play(("ace", seat, str(card)), lambda c=card, name=name: round_.ace(name, [c]))
            hand.remove(card)
        for meld in _runs(hand) + _groups(hand):
            if all(c in hand for c in meld) and play(
                ("meld", seat, [str(c) for c in meld]), lambda m=meld, name=name: round_.meld(name, m)
            ):
                _take(hand, meld)
        for card in sorted(hand, key=sort_key):
            for table in round_.melds:
                if play(("layoff", seat, table.number, [str(card)]),
                        lambda n=table.number, c=card, name=name: round_.lay_off(name, n, [c])):
                    hand.remove(card)
                    break
        if not hand or not stock:  # nothing left to hold, or nothing left to draw
            if round_.last_ace_by is None:
                round_.go_out(name)
                steps.append(("out", seat))
                hand.clear()
            break
        if round_.last_ace_by is not None:  # the last ace: the round ends after this turn
            break
        steps.append(("pass", seat))
        seat = (seat + 1) % players

    for i in range(players):
        if names[i] != round_.out:
            steps.append(("hand", i, [str(c) for c in sorted(hands[i], key=sort_key)]))
    steps.append(("confirm", dealer))
    return steps


def plays_per_round(seed: int = 0, players: int = 5, rounds: int = 200) -> Counter:
    """How many steps of each kind a scripted round has on average (for the README)."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    for r in range(rounds):
        counts.update(step[0] for step in script_round(rng, players, (r + 1) % players, r % players))
    return Counter({kind: n / rounds for kind, n in counts.items()})
