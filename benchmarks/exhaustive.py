"""A plain exhaustive search for Iceberg's best last turn: the oracle for the fast optimizer.

docs/rules/iceberg.md, ``playable_penalty: best_turn``: the most a hand could score in one
more turn against the final table, lay-offs, new melds and chains included, each card
used once; among equal totals, the turn that uses the most cards.

This module deliberately shares nothing with ``scorekeeper.games.iceberg_last_turn``
except the rules themselves: legality comes from ``make_meld`` and ``lay_off``, points
from ``Meld.value`` and ``lay_off_points``. The search is the game, played literally:

- from the current (hand, table), every legal play is tried: lay off any non-empty
  group of hand cards on any meld (the final table's melds and the melds laid down
  earlier in this same turn alike; special melds are never extended), or lay down any
  group of 2+ hand cards that ``make_meld`` accepts (pair, set, run, special meld);
- each play is followed by the best continuation from the position it leaves;
- the answer is the best (points, cards used), compared as a pair: most points first,
  then most cards. Stopping is always allowed and scores (0, 0).

Positions are memoised: the hand as a sorted tuple of cards, the table as a sorted tuple
of melds (which meld is which does not change what can still be scored). Three
shortcuts, none of which changes an answer:

- a lay-off on a pair or set is offered only cards of its rank, one on a run only cards
  of its suit; so a meld that no card left in hand matches that way (and any special
  meld) can take no more cards this turn, and is dropped from the position;
- a new meld is looked for only among cards of one rank, of one suit, or six cards of
  one colour (every pair, set, run and special meld is one of those);
- what ``make_meld`` and ``lay_off`` answer for a group of cards (on a given meld) is
  remembered for the rest of the search: many positions ask the same question.

Aces are never playable (they go face up at once), so they are left out of the search.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from scorekeeper.games.cards import Card
from scorekeeper.games.errors import IllegalPlay
from scorekeeper.games.iceberg_melds import (
    PAIR,
    SET,
    SPECIAL,
    Meld,
    lay_off,
    lay_off_points,
    make_meld,
)

Position = tuple[tuple[Card, ...], tuple[Meld, ...]]


def _meld_key(meld: Meld) -> tuple:
    return (meld.kind, meld.cards)


def _takes(meld: Meld, card: Card) -> bool:
    """Whether ``lay_off`` could accept this card here at all: right rank or right suit."""
    if meld.kind == SPECIAL:
        return False
    if meld.kind in (PAIR, SET):
        return card.rank == meld.rank
    return card.suit == meld.suit


def _position(hand, melds) -> Position:
    """The position, keeping only the melds some card left in hand could still go on."""
    hand = tuple(sorted(hand))
    ranks, suits = {c.rank for c in hand}, {c.suit for c in hand}
    live = [
        m for m in melds
        if m.kind != SPECIAL and (m.rank in ranks if m.kind in (PAIR, SET) else m.suit in suits)
    ]  # the same test as _takes, for the whole hand at once
    return hand, tuple(sorted(live, key=_meld_key))


def _groups(cards: Sequence[Card], sizes: range) -> Iterator[tuple[Card, ...]]:
    """Every distinct sub-multiset of ``cards`` (sorted) whose size is in ``sizes``."""
    seen = set()
    for size in sizes:
        for group in combinations(cards, size):  # cards are sorted, so groups are too
            if group not in seen:
                seen.add(group)
                yield group


def _without(hand: tuple[Card, ...], group: tuple[Card, ...]) -> tuple[Card, ...]:
    left = list(hand)
    for card in group:
        left.remove(card)
    return tuple(left)


class _Rulebook:
    """make_meld and lay_off for one search, remembered: many positions ask the same."""

    def __init__(self, rules: Mapping) -> None:
        self.rules = rules
        self.made: dict[tuple, Meld | None] = {}
        self.grown: dict[tuple, Meld | None] = {}

    def make_meld(self, group: tuple[Card, ...]) -> Meld | None:
        if group not in self.made:
            try:
                self.made[group] = make_meld(list(group), self.rules)
            except IllegalPlay:
                self.made[group] = None
        return self.made[group]

    def lay_off(self, meld: Meld, group: tuple[Card, ...]) -> Meld | None:
        key = (_meld_key(meld), group)
        if key not in self.grown:
            try:
                self.grown[key] = lay_off(meld, list(group), self.rules)
            except IllegalPlay:
                self.grown[key] = None
        return self.grown[key]


def _plays(hand: tuple[Card, ...], table: tuple[Meld, ...], book: _Rulebook):
    """Every legal play from this position: (points, cards used, position after)."""
    # Lay-offs: any non-empty group of hand cards on any meld but a special one.
    for i, meld in enumerate(table):
        if i and table[i - 1] == meld:  # an identical meld (the table is sorted): same plays
            continue
        fitting = [c for c in hand if _takes(meld, c)]
        for group in _groups(fitting, range(1, len(fitting) + 1)):
            grown = book.lay_off(meld, group)
            if grown is None:
                continue
            points = sum(lay_off_points(meld, len(group)))
            after = _position(_without(hand, group), table[:i] + (grown,) + table[i + 1:])
            yield points, len(group), after
    # New melds: groups of 2+ cards that could be a meld (one rank, one suit, or six
    # cards of one colour), checked by make_meld.
    candidates: set[tuple[Card, ...]] = set()
    for same in (
        [[c for c in hand if c.rank == r] for r in {c.rank for c in hand}]
        + [[c for c in hand if c.suit == s] for s in {c.suit for c in hand}]
    ):
        candidates.update(_groups(same, range(2, len(same) + 1)))
    for colour in {c.colour for c in hand}:
        same = [c for c in hand if c.colour == colour]
        candidates.update(_groups(same, range(6, 7)))
    for group in sorted(candidates):
        meld = book.make_meld(group)
        if meld is None:
            continue
        yield meld.value(book.rules), len(group), _position(_without(hand, group), table + (meld,))


def exhaustive_best(hand: Sequence[Card], table: Sequence[Meld], rules: Mapping) -> tuple[int, int]:
    """The best (points, cards used) one more turn could score, by trying every play."""
    memo: dict[tuple, tuple[int, int]] = {}
    book = _Rulebook(rules)

    def best(position: Position) -> tuple[int, int]:
        key = (position[0], tuple(_meld_key(m) for m in position[1]))
        if key in memo:
            return memo[key]
        result = (0, 0)  # stop here
        for points, used, after in _plays(*position, book):
            more_points, more_cards = best(after)
            result = max(result, (points + more_points, used + more_cards))
        memo[key] = result
        return result

    return best(_position((c for c in hand if not c.is_ace), table))
