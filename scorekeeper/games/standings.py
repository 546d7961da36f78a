"""Who has won: the game-level rule most rummies share.

Iceberg and Robber Rummy (docs/rules/): play rounds until someone reaches ``target``; the
highest total wins; on a tie at the top, play another round. With partnerships a side
is its members together, and each member shows the side's total.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence


def highest_wins(
    players: Sequence[str], totals: Mapping[str, int], target: int, sides: Mapping[str, str] | None = None
) -> tuple[bool, list[str], bool]:
    """(over, winners, tied): over once a total reaches ``target`` with one side on top."""
    sides = sides or {}
    top = max(totals.values())
    if top < target:
        return False, [], False
    leaders = [p for p in players if totals[p] == top]
    if len({sides.get(p, p) for p in leaders}) > 1:
        return False, [], True
    return True, leaders, False
