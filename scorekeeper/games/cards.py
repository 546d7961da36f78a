"""Playing cards: parsing, canonical names, suits and colours, and the supply check.

docs/game-file.md, "Cards": the canonical form is suit letter then rank (``S9``, ``HQ``,
``D10``, ``CA``; a joker is ``JK``). Input is forgiving: lower case, rank first, ``T``
for ten, and the suit symbols on either side. Anything else is an error naming the text.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .errors import ScorekeeperError
from .words import Reader, Say

SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SYMBOLS = {letter: symbol for symbol, letter in SUIT_SYMBOLS.items()}  # a suit as the pages draw it
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}
_RANK_BY_LABEL = {label: rank for rank, label in RANK_LABELS.items()}
_RANK_BY_LABEL["T"] = 10
JOKER_RANK = 0


class CardError(ScorekeeperError):
    """A piece of text that is not a card, or more copies of a card than the decks hold."""


class Card(NamedTuple):
    """One card. ``rank`` is 1 (ace) … 13 (king), 0 for a joker; ``suit`` is S H D C or ""."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_ace(self) -> bool:
        return self.rank == ACE

    @property
    def colour(self) -> str:
        return COLOURS.get(self.suit, "")

    @property
    def rank_label(self) -> str:
        return RANK_LABELS.get(self.rank, "JK")

    def __str__(self) -> str:
        return "JK" if self.is_joker else self.suit + RANK_LABELS[self.rank]

    def shown(self, reader: Reader) -> str:
        """As a sentence shows it (words.Reader.card: S9 in a game file, 9♠ on a page)."""
        return reader.card(self)


JOKER = Card(JOKER_RANK, "")
# Every card by its canonical name: the spelling stored, sent by the pages and read most.
_CANONICAL = {str(card): card for card in
              [Card(rank, suit) for suit in SUITS for rank in range(1, 14)] + [JOKER]}


def _quoted(value: object, limit: int = 24) -> str:
    """What was given for a card, as a refusal quotes it: cut short if it is long."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_card(text: object) -> Card:
    """Read one card in any accepted spelling; raise CardError naming the text otherwise."""
    if not isinstance(text, str):
        raise CardError(Say("%(given)s is not a card (expected text such as 'S9')", given=_quoted(text)))
    card = _CANONICAL.get(text)
    if card is not None:
        return card
    raw = text.strip()
    # Only the spellings docs/game-file.md lists: ASCII ranks and suits, or the suit symbols.
    # (Upper-casing other text first would turn e.g. the long s "ſ" into "S".)
    if not raw or any(not (ch.isascii() and ch.isalnum()) and ch not in SUIT_SYMBOLS for ch in raw):
        raise CardError(Say("'%(given)s' is not a card (write it like S9, HQ, D10, CA or 9♠)",
                            given=_quoted(text)))
    raw = raw.upper()
    if raw == "JK":
        return JOKER
    for symbol, letter in SUIT_SYMBOLS.items():
        raw = raw.replace(symbol, letter)
    for suit_first in (True, False):
        suit, rank = (raw[:1], raw[1:]) if suit_first else (raw[-1:], raw[:-1])
        if suit and suit in SUITS and rank in _RANK_BY_LABEL:
            return Card(_RANK_BY_LABEL[rank], suit)
    raise CardError(Say("'%(given)s' is not a card (write it like S9, HQ, D10, CA or 9♠)", given=_quoted(text)))


def parse_cards(texts: object, what: Say = Say("cards")) -> list[Card]:
    """Read a list of cards; the list itself must be a non-empty JSON array of text."""
    if not isinstance(texts, list) or not texts:
        raise CardError(Say("%(what)s must be a non-empty list of cards", what=what))
    return [parse_card(t) for t in texts]


def card_names(cards: Iterable[Card]) -> str:
    """Cards as canonical names separated by spaces: 'S7 S8 S9'."""
    return " ".join(str(c) for c in cards)


def sort_key(card: Card) -> tuple[int, int]:
    return (SUITS.index(card.suit) if card.suit else 4, card.rank)


def full_deck(decks: int = 1, jokers: int = 0, without_ranks: Iterable[int] = ()) -> Counter[Card]:
    """How many copies of each card the game's decks hold (``without_ranks``: ranks
    taken out of them, as Conquian's 8s, 9s and 10s)."""
    supply: Counter[Card] = Counter()
    for suit in SUITS:
        for rank in range(1, 14):
            if rank not in without_ranks:
                supply[Card(rank, suit)] = decks
    if jokers:
        supply[JOKER] = jokers
    return supply


class Supply:
    """Counts cards as they appear in a round and refuses one the decks no longer have."""

    def __init__(self, decks: int, jokers: int = 0, without_ranks: Iterable[int] = (), *,
                 hand: bool = False) -> None:
        self.decks = decks
        self.hand = hand  # the round is called a hand at this table (Robber Rummy): so said
        self.jokers = jokers
        self.without_ranks = tuple(without_ranks)
        self.limit = full_deck(decks, jokers, self.without_ranks)
        self.seen: Counter[Card] = Counter()

    def take(self, cards: Iterable[Card]) -> None:
        """Record cards; raise CardError (recording nothing) if any is one too many."""
        wanted = Counter(cards)
        for card, n in wanted.items():
            have = self.limit[card]
            if self.seen[card] + n > have:
                raise CardError(self.describe_excess(card, self.seen[card] + n))
        self.seen.update(wanted)

    def remaining(self, card: Card) -> int:
        return self.limit[card] - self.seen[card]

    def describe_excess(self, card: Card, count: int) -> Say:
        if card.is_joker and not self.jokers:
            return Say("%(card)s: this game is played without jokers", card=card)
        if card.rank in self.without_ranks:
            return Say("%(card)s: this game's deck has no %(rank)ss", card=card, rank=card.rank_label)
        if self.decks == 1 and self.limit[card] == 1:
            return Say("%(card)s appears %(count)s times in this round, but one deck holds only one",
                       card=card, count=count)
        if self.decks == 1:
            return Say("%(card)s appears %(count)s times in this round, but one deck holds only "
                       "%(copies)s", card=card, count=count, copies=self.limit[card])
        if self.hand:
            return Say("%(card)s appears %(count)s times in this hand, but %(decks)s decks hold only "
                       "%(copies)s", card=card, count=count, decks=self.decks, copies=self.limit[card])
        return Say("%(card)s appears %(count)s times in this round, but %(decks)s decks hold only "
                   "%(copies)s", card=card, count=count, decks=self.decks, copies=self.limit[card])
