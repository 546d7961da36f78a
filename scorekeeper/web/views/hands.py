"""The hands left at the end of a round logged as it was played, entered one player at a
time with the card picker (Iceberg's views/round_end.py and Robber's views/steals.py).
"""
from __future__ import annotations

from ...games.words import SayN
from ...storage import logs, plays
from ..picker import grid


def hand_entry(state: logs.LogState, player: str | None, picked=None):
    """Who enters a hand at the round end (everyone but who went out, and who sat out of
    the round), whose hand is being entered (the one asked for, else the first missing)
    and its card picker: the cards on the table and in the other hands entered are not
    to be had."""
    drafts = state.drafts
    entering = state.entering()
    if player not in entering:
        missing = state.missing_hands()
        player = missing[0] if missing else None
    picker = hand_picker(state, drafts, player, picked) if player else None
    return entering, player, picker


def hand_picker(state: logs.LogState, hands, player: str, picked=None):
    """The card picker of ``player``'s hand (``hands``: the round's hands, entered or
    counted; ``picked``: the cards picked, by default the hand's): the cards on the table
    and in the other hands are not to be had."""
    holding = [c for p, cards in hands.items() if p != player for c in cards]
    available = plays.availability(state.round, holding=holding)
    return grid(available, hands.get(player, ()) if picked is None else picked, aces=True)


def cards_left(player: str, count: int) -> SayN:
    """What a hand saved holds, in words: "Ann: 3 cards left in hand."."""
    return SayN("%(player)s: %(num)s card left in hand.", "%(player)s: %(num)s cards left in hand.",
                count, player=player)
