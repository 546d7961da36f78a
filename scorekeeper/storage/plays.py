"""A play as the table logs it: its row, its words, and the cards it names.

A row of ``plays`` (:class:`PlayRow`) is one of its game's ``table_plays``
(games/variant.py): the game file's events (a meld, a lay-off, going out, an ace in
Iceberg), the game's round lists (a ``renege``), and plays the file does not record (a
``pass``, the discard pile taken: ``take``, the stock running out: ``stock``). A lay-off
names the play id of the meld it lies on. Here are the words every page and refusal says
of a play (one whole sentence per kind of play, for the translators), the reading of the
cards a phone picked, and how many of each the decks leave to pick (a picked card the
decks no longer hold is refused by storage/log_checks.py). Nothing here reads or writes
the database.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..games.cards import ACE, SUITS, Card, full_deck, parse_card, sort_key
from ..games.contract import LogRound
from ..games.errors import ScorekeeperError
from ..games.variant import LogVariant
from ..games.words import Cards, Say
from .kernel import Refused

ACE_CARDS = tuple(Card(ACE, suit) for suit in SUITS)
WITH_CARDS = ("ace", "meld", "layoff", "take")  # the plays that name cards

# A play in a few words ("Ann's meld (H3 H4 H5)"): one whole sentence per kind of play,
# by its player (p) and its cards (c). The plays that name cards have four: with both,
# with the player only, with the cards only, with neither; the others two (the player's,
# and none's).
PLAY_WORDS: dict[str, tuple[Callable[[str, Cards | None], Say], ...]] = {
    "ace": (lambda p, c: Say("%(player)s's ace (%(cards)s)", player=p, cards=c),
            lambda p, c: Say("%(player)s's ace", player=p),
            lambda p, c: Say("the ace (%(cards)s)", cards=c),
            lambda p, c: Say("the ace")),
    "meld": (lambda p, c: Say("%(player)s's meld (%(cards)s)", player=p, cards=c),
             lambda p, c: Say("%(player)s's meld", player=p),
             lambda p, c: Say("the meld (%(cards)s)", cards=c),
             lambda p, c: Say("the meld")),
    "layoff": (lambda p, c: Say("%(player)s's lay-off (%(cards)s)", player=p, cards=c),
               lambda p, c: Say("%(player)s's lay-off", player=p),
               lambda p, c: Say("the lay-off (%(cards)s)", cards=c),
               lambda p, c: Say("the lay-off")),
    "take": (lambda p, c: Say("%(player)s's taking of the discard pile (%(cards)s)", player=p, cards=c),
             lambda p, c: Say("%(player)s's taking of the discard pile", player=p),
             lambda p, c: Say("the taking of the discard pile (%(cards)s)", cards=c),
             lambda p, c: Say("the taking of the discard pile")),
    "out": (lambda p, c: Say("%(player)s's going out", player=p),
            lambda p, c: Say("the going out")),
    "pass": (lambda p, c: Say("%(player)s's pass", player=p),
             lambda p, c: Say("the pass")),
    "renege": (lambda p, c: Say("%(player)s's renege", player=p),
               lambda p, c: Say("the renege")),
    "stock": (lambda p, c: Say("%(player)s's stock running out", player=p),
              lambda p, c: Say("the stock running out")),
}
# A play that may only be deleted, said when it is asked to be changed.
ONLY_DELETED = {
    "pass": lambda: Say("a pass can only be deleted"),
    "take": lambda: Say("a taking of the discard pile can only be deleted"),
    "renege": lambda: Say("a renege can only be deleted"),
    "stock": lambda: Say("a stock running out can only be deleted"),
}


def cards_said(names: Iterable[str]) -> Cards:
    """Card names as the value of a sentence (a name no card has stays as it was typed)."""
    cards: list[Card | str] = []
    for name in names:
        try:
            cards.append(parse_card(name))
        except ScorekeeperError:
            cards.append(name)
    return Cards(cards)


def by_word(variant: LogVariant, round_said: Say, hand_said: Say) -> Say:
    """One of two whole sentences, as this game calls a round ("round"; "hand" in Robber
    Rummy: ``variant.round_word``)."""
    return hand_said if variant.round_word == "hand" else round_said


@dataclass(frozen=True)
class PlayRow:
    id: int | None  # None for a play not saved yet
    round_no: int
    seq: int
    type: str
    player: str
    cards: tuple[str, ...] = ()
    target: int | None = None  # the play id of the meld a lay-off lies on
    revision: int = 0  # bumped by every change of the play

    def describe(self) -> Say:
        """A few words for a play: "Ann's meld (H3 H4 H5)", "the stock running out" (a
        sentence: PLAY_WORDS)."""
        forms = PLAY_WORDS.get(self.type, ())
        cards = cards_said(self.cards) if self.cards and len(forms) == 4 else None
        if len(forms) == 4:
            form = forms[(0 if self.player else 2) + (0 if cards is not None else 1)]
        elif forms:
            form = forms[0 if self.player else 1]
        elif self.player:  # no kind of play the tables log: its name as the row has it
            return Say("%(player)s's %(kind)s", player=self.player, kind=self.type)
        else:
            return Say("the %(kind)s", kind=self.type)
        return form(self.player, cards)


def ended_by(row: PlayRow) -> Say:
    """A round ended by a play the game file does not record, in words."""
    if row.type == "stock":
        if row.player:
            return Say("the stock ran out (%(player)s drew the last card)", player=row.player)
        return Say("the stock ran out")
    return row.describe()


def read_cards(values: Iterable[str]) -> tuple[str, ...]:
    """Canonical names for picked cards, in the order given; an unknown card is refused."""
    cards = []
    for value in values:
        try:
            cards.append(str(parse_card(value)))
        except ScorekeeperError as e:
            raise Refused(e.message) from None
    return tuple(cards)


def read_hand(values: Iterable[str]) -> tuple[str, ...]:
    """A hand's cards: canonical names, sorted (a hand has no order)."""
    return tuple(sorted(read_cards(values), key=lambda name: sort_key(parse_card(name))))


def availability(round_: LogRound, give_back: Iterable[str] = (),
                 holding: Iterable[str] = ()) -> Counter[Card]:
    """How many copies of each card may still be picked in this round.

    ``give_back``: cards of the play being edited (they return to the pool);
    ``holding``: cards already in other players' entered hands.
    """
    supply = round_.supply
    counts = Counter({card: supply.remaining(card) for card in full_deck(supply.decks)})
    counts.update(Counter(parse_card(n) for n in give_back))
    counts.subtract(Counter(parse_card(n) for n in holding))
    return counts
