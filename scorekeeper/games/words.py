"""What the rules library says to people, kept as sentences with their values until shown.

A refusal ("S5 H2 is not a meld: …"), a card's cost, how a round ended: the library
never formats these for a reader itself. It makes a :class:`Say` (an English template
with named fields, ``%(cards)s is not a meld``) or a :class:`SayN` (a singular and a
plural template and the count that chooses), and gives the values as they are: cards,
whole numbers, signed points, ordinals, names, other sentences.

How a sentence is shown belongs to whoever shows it, through a :class:`Reader`:

- ``str()`` is the game file's English, with cards in their canonical spelling (``S9``):
  what ``scorekeeper score`` prints and what a game file holds. It is also what a
  sentence is compared by, so tests and messages read as before.
- the web app reads them its own way (``scorekeeper/web/words.py``): the template
  translated into the phone's language by Flask-Babel, the cards drawn as the pages
  draw them (``9♠``), numbers in the language's style.

The templates are ``%``-style (``%(name)s``), as Babel's catalogs check them, and are
found by Babel's extraction under the keywords ``Say`` and ``SayN:1,2``. A value that is
English words must itself be a sentence (a :class:`Say`), never text put together.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

# A value is shown by its own ``shown(reader)`` where it has one (a card: cards.Card;
# the kinds below), else as a whole number or as the text it is (a player's name).


class Shown(Protocol):
    """A value that says itself to a reader (a card, and the kinds below)."""

    def shown(self, reader: Reader) -> str: ...


class CardFace(Protocol):
    """What a reader needs of a card to name it (cards.Card is one): this module sits
    below the cards, and knows them only so."""

    @property
    def is_joker(self) -> bool: ...

    @property
    def rank_label(self) -> str: ...

    @property
    def suit(self) -> str: ...


@dataclass(frozen=True)
class Cards:
    """Cards shown together: ``S7 S8 S9`` (``7♠ 8♠ 9♠`` on the pages)."""

    cards: tuple[Shown | str, ...]  # a name no card has stays as it was typed (storage/plays.py)

    def __init__(self, cards: Iterable[Shown | str]) -> None:
        object.__setattr__(self, "cards", tuple(cards))

    def shown(self, reader: Reader) -> str:
        return reader.join(" ", (reader.value(c) for c in self.cards))

    def __str__(self) -> str:
        return self.shown(ENGLISH)


@dataclass(frozen=True)
class Signed:
    """Points with their sign: ``+30``, ``−10`` (a true minus), ``0``."""

    n: int

    def shown(self, reader: Reader) -> str:
        return reader.signed(self.n)

    def __str__(self) -> str:
        return self.shown(ENGLISH)


@dataclass(frozen=True)
class Ordinal:
    """A place in a row: ``3rd`` (card of a meld)."""

    n: int

    def shown(self, reader: Reader) -> str:
        return reader.ordinal(self.n)

    def __str__(self) -> str:
        return self.shown(ENGLISH)


@dataclass(frozen=True, eq=False)
class Sentence:
    """A clause said as a whole sentence, as a page or a message prints it: the first
    letter a capital, a full stop at the end where it has no closing mark (``that play
    was taken back`` → ``That play was taken back.``), in whatever language the reader
    reads the clause (a :class:`Say`, or text). Alike when it reads alike (a text too)."""

    clause: Any

    def shown(self, reader: Reader) -> str:
        text = reader.value(self.clause).strip()
        if not text:
            return text
        text = text[0].upper() + text[1:]
        return text if text[-1] in ".!?" else text + "."

    def __str__(self) -> str:
        return self.shown(ENGLISH)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Sentence, Say, str)):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


class Say:
    """One sentence: an English template and its values (see the module's docstring)."""

    __slots__ = ("template", "values")

    def __init__(self, template: str, /, **values: Any) -> None:
        self.template = template
        self.values = values

    def text(self, reader: Reader) -> str:
        """The template as ``reader`` reads it (translated), before the values go in."""
        return reader.gettext(self.template)

    def shown(self, reader: Reader) -> str:
        """This sentence as ``reader`` shows it."""
        template = self.text(reader)
        if not self.values:
            return template
        return template % {name: reader.value(value) for name, value in self.values.items()}

    def __str__(self) -> str:
        return self.shown(ENGLISH)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        """Sentences are alike when they read alike in the game file's English (a plain
        text too: ``IllegalPlay(...).message == "..."``)."""
        if isinstance(other, (Say, str)):
            return str(self) == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))


class SayN(Say):
    """A sentence whose words follow a count: ``1 ace`` / ``2 aces``. The count is also a
    value, named ``num`` unless given under another name."""

    __slots__ = ("plural", "count")

    def __init__(self, singular: str, plural: str, count: int, /, **values: Any) -> None:
        super().__init__(singular, **{"num": count, **values})
        self.plural = plural
        self.count = count

    def text(self, reader: Reader) -> str:
        return reader.ngettext(self.template, self.plural, self.count)


def joined(parts: Iterable[Any], separator: Any = "; ") -> Joined:
    """Sentences (or values) shown one after another, as one value; a separator of words
    is a sentence too (:data:`THEN`)."""
    return Joined(tuple(parts), separator)


THEN = Say(", then ")  # steps one after another: "S10 as 4th card 40, then SJ as 5th card 50"


@dataclass(frozen=True)
class Joined:
    parts: tuple[Any, ...]
    separator: Any

    def shown(self, reader: Reader) -> str:
        return reader.join(reader.value(self.separator), (reader.value(part) for part in self.parts))

    def __str__(self) -> str:
        return self.shown(ENGLISH)


class Reader:
    """How sentences and their values are shown: the game file's English, cards as ``S9``.
    The web app's reader (scorekeeper/web/words.py) overrides each of these."""

    def gettext(self, template: str) -> str:
        return template

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def card(self, card: CardFace) -> str:
        """A card (cards.Card): its canonical spelling."""
        return str(card)

    def number(self, n: int) -> str:
        return str(n)

    def signed(self, n: int) -> str:
        return f"−{self.number(-n)}" if n < 0 else (f"+{self.number(n)}" if n > 0 else self.number(0))

    def ordinal(self, n: int) -> str:
        if n % 100 in (11, 12, 13):
            return f"{n}th"
        return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"

    def join(self, separator: str, parts: Iterable[str]) -> str:
        """Values shown one after another (cards, sentences), ``separator`` between them."""
        return separator.join(parts)

    def value(self, value: Any) -> str:
        """One value of a sentence, shown."""
        shown: Callable[[Reader], str] | None = getattr(value, "shown", None)
        if shown is not None:
            return shown(self)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.number(value)
        return str(value)  # a name, as the players wrote it

    def __call__(self, value: Any) -> str:
        return self.value(value)


ENGLISH = Reader()


# The words of the cards, for sentences that name a suit or a rank.
SUIT_PLURALS = {"S": Say("spades"), "H": Say("hearts"), "D": Say("diamonds"), "C": Say("clubs")}
SUIT_SINGULARS = {"S": Say("spade"), "H": Say("heart"), "D": Say("diamond"), "C": Say("club")}
RANK_PLURALS = (None, Say("aces"), Say("twos"), Say("threes"), Say("fours"), Say("fives"),
                Say("sixes"), Say("sevens"), Say("eights"), Say("nines"), Say("tens"),
                Say("jacks"), Say("queens"), Say("kings"))


# ---------------------------------------------------------------------------------------
# A sentence kept as data (the history list keeps each game's status so, to show it in
# any language later): JSON-able dicts and lists, and back.


def to_data(value: Any) -> Any:
    """A sentence and its values as plain data: text and whole numbers as they are."""
    if isinstance(value, SayN):
        return {"say": value.template, "plural": value.plural, "count": value.count,
                "values": {k: to_data(v) for k, v in value.values.items() if k != "num"}}
    if isinstance(value, Say):
        return {"say": value.template, "values": {k: to_data(v) for k, v in value.values.items()}}
    if isinstance(value, Sentence):
        return {"sentence": to_data(value.clause)}
    if isinstance(value, Cards):
        return {"cards": [str(c) for c in value.cards]}
    if isinstance(value, Signed):
        return {"signed": value.n}
    if isinstance(value, Ordinal):
        return {"ordinal": value.n}
    if isinstance(value, Joined):
        return {"joined": [to_data(p) for p in value.parts], "separator": value.separator}
    if getattr(value, "shown", None) is not None:  # a card (cards.Card)
        return {"card": str(value)}
    return value


def from_data(data: Any, card: Any) -> Any:
    """:func:`to_data`'s data as the sentence it was; ``card`` reads a card's name
    (cards.parse_card)."""
    if isinstance(data, list):
        return [from_data(d, card) for d in data]
    if not isinstance(data, dict):
        return data
    if "say" in data:
        values = {k: from_data(v, card) for k, v in data.get("values", {}).items()}
        if "plural" in data:
            return SayN(data["say"], data["plural"], data["count"], **values)
        return Say(data["say"], **values)
    if "sentence" in data:
        return Sentence(from_data(data["sentence"], card))
    if "cards" in data:
        return Cards(card(c) for c in data["cards"])
    if "card" in data:
        return card(data["card"])
    if "signed" in data:
        return Signed(data["signed"])
    if "ordinal" in data:
        return Ordinal(data["ordinal"])
    if "joined" in data:
        return Joined(tuple(from_data(p, card) for p in data["joined"]), data["separator"])
    return data
