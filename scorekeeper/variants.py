"""The games the app keeps, in the order the new-game page offers them.

Each variant names its rules module (``scorekeeper.games.*``: its name, player counts
and rule book) and how a round is kept:

- ``log``: a round is a log of plays made as they happen (Iceberg, Robber Rummy), kept
  on the table screen and scored from the cards;
- ``count``: a round is entered when it ends: who went out or knocked, and the cards
  left in each hand (Basic Rummy, Gin, Kalooki, Conquian, Manipulation).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .games import conquian, gin, iceberg, kalooki, manipulation, robber, rummy

LOG, COUNT = "log", "count"


@dataclass(frozen=True)
class Variant:
    key: str  # the game file's ``variant``
    module: ModuleType
    kind: str  # LOG or COUNT
    blurb: str  # one line for the new-game page

    @property
    def name(self) -> str:
        return self.module.NAME

    @property
    def rules(self):
        return self.module.RULES

    @property
    def min_players(self) -> int:
        return self.module.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.module.MAX_PLAYERS


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("iceberg", iceberg, LOG,
                "Melds grow in points; aces multiply; playable cards left in hand cost extra."),
        Variant("robber", robber, LOG,
                "Two decks; lay off on someone else's meld and it is yours."),
        Variant("rummy", rummy, COUNT,
                "Basic Rummy: who goes out scores the others' hands (or penalty scoring)."),
        Variant("gin", gin, COUNT,
                "Two players; knock at 10 or less, gin, undercuts and bonuses."),
        Variant("kalooki", kalooki, COUNT,
                "Jokers; above 150 you are out; the last player left wins."),
        Variant("conquian", conquian, COUNT,
                "Two players, 40 cards; play for stakes."),
        Variant("manipulation", manipulation, COUNT,
                "Rearrange the table; penalties for cards left; lowest total wins."),
    )
}


def get(key: str) -> Variant | None:
    return VARIANTS.get(key)
