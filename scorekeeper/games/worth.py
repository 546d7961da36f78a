"""What a play would score, as data a page can add up without the rules.

A phone that has lost the network still takes plays: they wait on the phone and go once
the server answers again (static/app.js). Meanwhile the score strip moves as each play
will, and the rules stay here: each logged game says, for a new meld and for each meld on
the table, what cards laid there would score (its variant's ``worth_new`` and
``worth_melds``), the pages carry it, and the page's script reads it exactly as
:meth:`Worth.points` and :meth:`Worth.moves_of` do:

- ``plays``: a play of exactly these cards (their names sorted, one space apart) scores
  this, whatever else is said (Iceberg's special melds);
- else ``steps``: the n-th card laid there scores the n-th number, whatever the card,
  counting the cards laid there before it (Iceberg: a card scores its place in the meld);
- else ``cards``: each card scores the points of its first entry, ``(points, *with)``,
  whose other cards are all in the play or laid there before; the most particular come
  first (Rummy 500 and Robber: an ace beside the 2 scores low, a card in a sequence
  doubles in Robber);
- a card of ``once`` laid twice (here or before) is not known: which copy lies where
  (an ace low, the other high) the data does not say;
- anything not said is not known: the page says so ("+?") rather than guess.

It says what a play scores if the rules take it: a play they will refuse (a card that
does not fit) may still get a number, until the server refuses it.

``to``: whose columns of the score strip the points go to, by who plays: the player's
side (Robber's partners share one score; the player alone if not said; carried as
pairs). ``moves``: what else the first play there changes, by who plays (Robber: a
lay-off on another side's meld takes its worth); after a play there by the same side,
nothing; after one by another side, not known.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card

Entry = tuple[int, tuple[str, ...]]  # a card's points, and the cards it needs beside it


@dataclass(frozen=True)
class Worth:
    """What the cards of one play would score on one meld, or as a new meld."""

    steps: tuple[int, ...] = ()
    cards: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    plays: Mapping[str, int] = field(default_factory=dict)
    once: tuple[str, ...] = ()
    to: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    moves: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def points(self, cards: Sequence[str], before: Sequence[str] = ()) -> int | None:
        """What a play of ``cards`` scores here after ``before`` were laid here; None if
        this does not say."""
        whole = self.plays.get(" ".join(sorted(cards)))
        if whole is not None:
            return whole
        if self.steps:
            places = self.steps[len(before):len(before) + len(cards)]
            return sum(places) if len(places) == len(cards) else None
        total, laid = 0, [*cards, *before]
        for card in cards:
            entries = self.cards.get(card, ())
            points = next((p for p, needs in entries if set(laid).issuperset(needs)), None)
            if points is None or (laid.count(card) > 1 and card in self.once):
                return None
            total += points
        return total

    def moves_of(self, player: str, cards: Sequence[str], before: Sequence[str] = (),
                 by: Sequence[str] = ()) -> dict[str, int] | None:
        """How a play by ``player`` moves each column of the score strip, after plays by
        ``by`` laid ``before`` here; None if not known. A play here by the player's side
        before it has taken what ``moves`` says already; another side's may have taken the
        meld from them (not known)."""
        points = self.points(cards, before)
        side = self.to.get(player, (player,))
        if points is None or (self.moves and any(p not in side for p in by)):
            return None
        moved = {} if by else dict(self.moves.get(player, {}))
        for column in side:
            moved[column] = moved.get(column, 0) + points
        return moved

    def as_json(self) -> Any:
        """As the pages carry it: the steps alone as a list, else what is said."""
        if self.steps and not (self.cards or self.plays or self.once or self.to or self.moves):
            return list(self.steps)
        said = dict(steps=list(self.steps), plays=dict(self.plays), once=list(self.once),
                    to=[[p, list(c)] for p, c in self.to.items()],  # pairs: a name is never read as a JS built-in
                    moves={p: dict(m) for p, m in self.moves.items()},
                    cards={c: [[points, *beside] for points, beside in entries] for c, entries in self.cards.items()})
        return {k: v for k, v in said.items() if v}


def play_key(cards: Iterable[Card]) -> str:
    """A play's cards as ``plays`` names them: sorted, one space apart."""
    return " ".join(sorted(str(c) for c in cards))


def by_card(found: Iterable[tuple[Card, Sequence[Card], int]]) -> dict[str, tuple[Entry, ...]]:
    """Each card's entries from what it scored in plays tried with the rules: ``(card, the
    cards it needed beside it, its points)``, a later try with the same cards beside it
    standing for the earlier. A card that scored the same in every play needs nothing
    beside it; where it scored otherwise, each way keeps what it needed, the most needed
    first."""
    tried: dict[str, dict[tuple[str, ...], int]] = {}
    for card, beside, points in found:
        tried.setdefault(str(card), {})[tuple(sorted(str(c) for c in beside))] = points
    entries: dict[str, tuple[Entry, ...]] = {}
    for name, ways in tried.items():
        if len(set(ways.values())) == 1:
            entries[name] = ((next(iter(ways.values())), ()),)
        else:
            entries[name] = tuple(sorted(((p, b) for b, p in ways.items()), key=lambda e: (-len(e[1]), e)))
    return entries
