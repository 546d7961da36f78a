"""Iceberg Rummy melds: what may be laid down, what may be laid off, and what it scores.

docs/rules/iceberg.md, "Melds" and "Points":

- a pair is 2 cards of one rank in different suits; it grows into a set only;
- a set is 3 or more cards of one rank (both copies of a card allowed in a two-deck
  game unless ``set_duplicates`` is false);
- a run is 3 or more cards of one suit in sequence; aces never meld, so a run lies
  within 2…K;
- the four special melds are laid down whole and never extended;
- a new pair scores 10, the 3rd card on a pair 20, the 3 cards of a new set or run 30,
  and the n-th card of a set or run 10 × n.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from .cards import ACE, COLOURS, SUITS, Card, card_names, sort_key
from .errors import IllegalPlay
from .words import RANK_PLURALS, SUIT_PLURALS, SUIT_SINGULARS, Cards, Ordinal, Say
from .worth import Worth, play_key

PAIR, SET, RUN, SPECIAL = "pair", "set", "run", "special"

ODDS = (3, 5, 7, 9, 11, 13)
EVENS = (2, 4, 6, 8, 10, 12)


@dataclass(frozen=True)
class Special:
    name: str  # the rule option that gives its points
    ranks: tuple[int, ...]
    one_suit: bool  # True: all one suit; False: one colour, mixed suits
    title: Say
    house: bool  # its points are a house value (no source gives them): said wherever they are scored


SPECIALS = (
    Special("special_odds_suit", ODDS, True, Say("odds in one suit (3-5-7-9-J-K)"), False),
    Special("special_evens_suit", EVENS, True, Say("evens in one suit (2-4-6-8-10-Q)"), True),
    Special("special_odds_colour", ODDS, False, Say("odds in one colour (3-5-7-9-J-K, mixed suits)"), True),
    Special("special_evens_colour", EVENS, False, Say("evens in one colour (2-4-6-8-10-Q, mixed suits)"), True),
)
SPECIAL_BY_NAME = {s.name: s for s in SPECIALS}
KIND_WORDS = {PAIR: Say("pair"), SET: Say("set"), RUN: Say("run"), SPECIAL: Say("special meld")}


def meld_points(size: int) -> int:
    """What a meld of this many cards is worth in all: 10 for a pair, then 30, 70, 120 …

    Building card by card scores the same as laying it down at once: a pair (10) and a
    3rd card (20) make 30; the n-th card of a set or run adds 10 × n.
    """
    if size < 2:
        return 0
    if size == 2:
        return 10
    return 10 * (size * (size + 1) // 2 - 3)


def position_points(position: int) -> int:
    """What the card that becomes the n-th of a meld scores (on a pair, 3rd = 20; the 2nd
    card of a new pair 10, its 1st nothing)."""
    return meld_points(position) - meld_points(position - 1)


def ordinal(n: int) -> Ordinal:
    return Ordinal(n)


def rank_plural(rank: int) -> Say:
    plural = RANK_PLURALS[rank]
    assert plural is not None  # melds hold no jokers (rank 0, the only one without a plural)
    return plural


@dataclass(frozen=True)
class Meld:
    """A meld on the table: its shape and its cards (sorted)."""

    kind: str
    cards: tuple[Card, ...]
    special: Special | None = None

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def rank(self) -> int:
        return self.cards[0].rank

    @property
    def suit(self) -> str:
        return self.cards[0].suit

    @property
    def low(self) -> int:
        return self.cards[0].rank

    @property
    def high(self) -> int:
        return self.cards[-1].rank

    def __str__(self) -> str:
        return card_names(self.cards)

    def describe(self) -> Say:
        if self.kind == SPECIAL:
            assert self.special is not None  # a special meld always has its Special
            if self.special.house:
                return Say("special meld: %(title)s — house value", title=self.special.title)
            return Say("special meld: %(title)s", title=self.special.title)
        if self.kind == RUN:
            return Say("run of %(suits)s", suits=SUIT_PLURALS[self.suit])
        if self.kind == PAIR:
            return Say("pair of %(ranks)s", ranks=rank_plural(self.rank))
        return Say("set of %(ranks)s", ranks=rank_plural(self.rank))

    def kind_word(self) -> Say:
        """What kind of meld it is, in a word: pair, set, run, special meld."""
        return KIND_WORDS[self.kind]

    def value(self, rules: Mapping[str, Any]) -> int:
        """What the whole meld is worth when laid down at once."""
        if self.kind == SPECIAL:
            assert self.special is not None  # a special meld always has its Special
            points: int = rules[self.special.name]
            return points
        return meld_points(self.size)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c.rank, sort_key(c))))


def find_special(cards: list[Card], rules: Mapping[str, Any]) -> Special | None:
    """The special meld these six cards make, if the table plays it (points above 0)."""
    ranks = sorted(c.rank for c in cards)
    suits = {c.suit for c in cards}
    colours = {c.colour for c in cards}
    for special in SPECIALS:
        if tuple(ranks) != special.ranks or not rules[special.name]:
            continue
        if special.one_suit and len(suits) == 1:
            return special
        if not special.one_suit and len(colours) == 1 and len(suits) > 1:
            return special
    return None


def _check_no_aces(cards: list[Card]) -> None:
    aces = [c for c in cards if c.rank == ACE]
    if aces:
        raise IllegalPlay(Say("%(cards)s: aces never take part in melds; they are put face up as aces",
                              cards=Cards(aces)))


def _is_sequence(ranks: list[int]) -> bool:
    ranks = sorted(ranks)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


def _check_set_suits(cards: Iterable[Card], rules: Mapping[str, Any]) -> None:
    if rules["set_duplicates"]:
        return
    seen: set[str] = set()
    for card in cards:
        if card.suit in seen:
            raise IllegalPlay(Say(
                "%(card)s would be a second %(suit)s in one set, and this game plays without "
                "duplicates in sets", card=card, suit=SUIT_SINGULARS[card.suit]))
        seen.add(card.suit)


def make_meld(cards: list[Card], rules: Mapping[str, Any]) -> Meld:
    """The meld these cards make when laid down together, or IllegalPlay saying why not."""
    _check_no_aces(cards)
    names = Cards(cards)
    if len(cards) < 2:
        raise IllegalPlay(Say("%(cards)s is not a meld: a meld needs at least two cards (a pair)", cards=names))
    if len(cards) == 6 and (special := find_special(cards, rules)):
        return Meld(SPECIAL, _sorted(cards), special)
    ranks = {c.rank for c in cards}
    suits = {c.suit for c in cards}
    if len(cards) == 2:
        if len(ranks) != 1:
            raise IllegalPlay(Say("%(cards)s is not a meld: two cards make a pair only if they are one rank",
                                  cards=names))
        if len(suits) != 2:
            raise IllegalPlay(Say("%(cards)s is not a pair: a pair's two cards must be different suits",
                                  cards=names))
        return Meld(PAIR, _sorted(cards))
    if len(ranks) == 1:
        _check_set_suits(cards, rules)
        return Meld(SET, _sorted(cards))
    if len(suits) == 1 and len(ranks) == len(cards) and _is_sequence(list(ranks)):
        return Meld(RUN, _sorted(cards))
    if len(cards) == 6:
        raise IllegalPlay(Say("%(cards)s is not a meld: a set is one rank, a run is one suit in "
                              "sequence, and the special melds are six cards", cards=names))
    raise IllegalPlay(Say("%(cards)s is not a meld: a set is one rank, a run is one suit in sequence",
                          cards=names))


def lay_off(meld: Meld, cards: list[Card], rules: Mapping[str, Any]) -> Meld:
    """The meld after these cards are added to it, or IllegalPlay saying why they do not fit."""
    _check_no_aces(cards)
    names = Cards(cards)
    if meld.kind == SPECIAL:
        raise IllegalPlay(Say("special melds are laid down whole and never extended (%(meld)s)",
                              meld=Cards(meld.cards)))
    if meld.kind in (PAIR, SET):
        wrong = [c for c in cards if c.rank != meld.rank]
        if wrong:
            values = dict(cards=Cards(wrong), meld=Cards(meld.cards), ranks=rank_plural(meld.rank))
            raise IllegalPlay(
                Say("%(cards)s does not fit %(meld)s: a pair of %(ranks)s takes only %(ranks)s", **values)
                if meld.kind == PAIR else
                Say("%(cards)s does not fit %(meld)s: a set of %(ranks)s takes only %(ranks)s", **values))
        _check_set_suits(meld.cards + tuple(cards), rules)
        return Meld(SET, _sorted(meld.cards + tuple(cards)))
    wrong = [c for c in cards if c.suit != meld.suit]
    if wrong:
        raise IllegalPlay(Say("%(cards)s does not fit %(meld)s: a run of %(suits)s takes only %(suits)s",
                              cards=Cards(wrong), meld=Cards(meld.cards), suits=SUIT_PLURALS[meld.suit]))
    ranks = [c.rank for c in meld.cards + tuple(cards)]
    if len(set(ranks)) != len(ranks) or not _is_sequence(ranks):
        raise IllegalPlay(Say("%(cards)s does not fit %(meld)s: a run grows only at its ends, one rank "
                              "after another", cards=names, meld=Cards(meld.cards)))
    return Meld(RUN, _sorted(meld.cards + tuple(cards)))


def lay_off_points(meld: Meld, added: int) -> list[int]:
    """Points for each card added to a meld, in order: positions size+1 … size+added."""
    return [position_points(meld.size + i) for i in range(1, added + 1)]


LONGEST = 12  # the longest meld: a run 2 to K (a set holds 8 at most)


def worth_new(rules: Mapping[str, Any]) -> Worth:
    """A new meld, as a phone offline adds it up (games/worth.py): by its size, and a
    special meld by its six cards (each way its suits may fall)."""
    plays = {}
    for special in SPECIALS:
        suits = [[s] for s in SUITS] if special.one_suit else [
            [s for s in SUITS if COLOURS[s] == colour] for colour in sorted(set(COLOURS.values()))]
        for among in suits:
            for picked in product(among, repeat=len(special.ranks)):
                cards = [Card(rank, suit) for rank, suit in zip(special.ranks, picked)]
                try:
                    plays[play_key(cards)] = make_meld(cards, rules).value(rules)
                except IllegalPlay:  # not played at this table, or the other special's suits
                    continue
    return Worth(steps=tuple(position_points(n) for n in range(1, LONGEST + 1)),
                 plays=plays)


def worth_on(meld: Meld, rules: Mapping[str, Any]) -> Worth:
    """Cards laid off on this meld, as a phone offline adds them up: each scores its new
    place, up to all the meld could hold (a run 2 to K; a set every copy of its rank the
    decks have, or one of each suit without duplicates). A special meld takes none."""
    if meld.kind == SPECIAL:
        return Worth()
    most = LONGEST if meld.kind == RUN else 4 * (rules["decks"] if rules["set_duplicates"] else 1)
    return Worth(steps=tuple(lay_off_points(meld, most - meld.size)))


def fits(meld: Meld, card: Card, rules: Mapping[str, Any]) -> bool:
    """Whether one card may be laid off on this meld."""
    try:
        lay_off(meld, [card], rules)
    except IllegalPlay:
        return False
    return True
