"""Every game the app keeps, in the order the new-game page offers them.

One line per game: its module's ``VARIANT`` (games/variant.py says what that holds).
Everything else asks here: the game file's reader, the stores, the pages, the command
line and the statistics.
"""
from __future__ import annotations

from . import conquian, gin, iceberg, kalooki, manipulation, robber, rummy, rummy500
from .variant import Variant

VARIANTS: dict[str, Variant] = {v.key: v for v in (
    iceberg.VARIANT,
    robber.VARIANT,
    rummy.VARIANT,
    gin.VARIANT,
    kalooki.VARIANT,
    conquian.VARIANT,
    manipulation.VARIANT,
    rummy500.VARIANT,
)}


def get(key: str) -> Variant | None:
    """The game called ``key`` in game files (None if there is none)."""
    return VARIANTS.get(key)
