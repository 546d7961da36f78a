"""The card picker's model: a ranks × suits grid, each card with how many copies may be picked.

Cards the decks no longer have this round are shown disabled; in a two-deck game a card
whose two copies are both still available can be picked twice.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..games.cards import ACE, COLOURS, RANK_LABELS, SUITS, SYMBOLS, Card
from ..games.words import SUIT_PLURALS, Say, SayN
from .words import said

JOKER_WORD = Say("joker")  # a joker, as the pages draw it (its card chip, its picker cell)
# A card in words for screen readers ("9 of spades"): its rank in words, and a whole
# sentence per suit (a language may put the rank after the suit, or inflect it).
RANK_NAMES = {1: Say("ace"), 11: Say("jack"), 12: Say("queen"), 13: Say("king"),
              **{n: str(n) for n in range(2, 11)}}
CARD_WORDS = {
    "S": lambda rank: Say("%(rank)s of spades", rank=rank),
    "H": lambda rank: Say("%(rank)s of hearts", rank=rank),
    "D": lambda rank: Say("%(rank)s of diamonds", rank=rank),
    "C": lambda rank: Say("%(rank)s of clubs", rank=rank),
}


@dataclass(frozen=True)
class Cell:
    card: str  # canonical name, the value posted: S9
    rank: str  # as printed on the card: 9, J, A
    symbol: str
    name: str  # for screen readers: "9 of spades" (in the phone's language)
    copies: int  # how many copies may be picked now (0: disabled)
    picked: int  # how many are picked


@dataclass(frozen=True)
class SuitRow:
    suit: str
    name: str
    symbol: str
    colour: str
    cells: tuple[Cell, ...]


def card_label(card: Card) -> str:
    """A card in words, in the phone's language: "9 of spades", "ace of hearts"."""
    return said(CARD_WORDS[card.suit](RANK_NAMES[card.rank]))


def grid(available: Mapping[Card, int], picked: Iterable[str] = (), aces: bool = False,
         limit: int = 2) -> list[SuitRow]:
    """The picker's rows, one per suit; ``aces``: include the aces (hands hold them)."""
    chosen = Counter(str(c) for c in picked)
    ranks = ([ACE] if aces else []) + list(range(2, 14))
    rows = []
    for suit in SUITS:
        cells = []
        for rank in ranks:
            card = Card(rank, suit)
            name = str(card)
            copies = min(limit, max(available.get(card, 0), chosen[name], 0))
            cells.append(Cell(name, RANK_LABELS[rank], SYMBOLS[suit], card_label(card), copies,
                              min(chosen[name], copies)))
        rows.append(SuitRow(suit, said(SUIT_PLURALS[suit]), SYMBOLS[suit], COLOURS[suit], tuple(cells)))
    return rows


def picked_cards(rows: Iterable[SuitRow], jokers: int = 0) -> list[str]:
    """The cards picked in a picker's rows, as the cells show them (9♠, a joker in the
    page's words), each copy."""
    shown = [f"{c.rank}{row.symbol}" for row in rows for c in row.cells for _ in range(c.picked)]
    return shown + [said(JOKER_WORD)] * jokers


def count_line(rows: Iterable[SuitRow] | None, expected: int | None = None, jokers: int = 0) -> str:
    """How many cards are picked, and which: "7 of 10 cards: 2♠ 3♠ …" where a hand holds
    ``expected`` cards, else "7 cards: …" (nothing when none is picked). static/app.js
    writes the same words as cards are tapped."""
    cards = picked_cards(rows or (), jokers)
    n = len(cards)
    shown = " ".join(cards)
    if expected and n:
        return said(SayN("%(num)s of %(expected)s card: %(cards)s", "%(num)s of %(expected)s cards: %(cards)s",
                         expected, num=n, expected=expected, cards=shown))
    if expected:
        return said(SayN("%(num)s of %(expected)s card", "%(num)s of %(expected)s cards", expected,
                         num=n, expected=expected))
    if n:
        return said(SayN("%(num)s card: %(cards)s", "%(num)s cards: %(cards)s", n, cards=shown))
    return ""
