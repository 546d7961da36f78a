"""A game file's ``changes``: the record of every change made to the game's log, kept with
it (docs/game-file.md, "The record of changes").

Each change is an object: ``at`` (when, ISO 8601), ``by`` (whose phone: ``seat:N``,
``table``, ``phone``, ``command line``, or null), ``kind`` (:data:`KINDS`),
``round``, and what it changed: ``was`` and ``now`` (a play: its kind, player and cards;
a hand: its player and cards; a rename: the two names), ``scores`` (a player's round
score before and after), ``cards`` (another play's card whose points moved: player,
card, before, after), ``totals``. The record says what happened; it is never replayed:
the rounds are the game, and a file without ``changes`` (every file before them) is read
as before. Here it is checked, so that an import keeps only what the pages can say.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..games import registry
from ..games.cards import CardError, parse_card
from ..games.errors import GameFileError
from ..games.words import Say
from .document import MAX_ROUNDS, NAME_LENGTH

KINDS = ("edit", "delete", "undo", "restore", "hand", "reopen", "rename",
         "round edit", "round delete", "round restore")
BY = re.compile(r"seat:[0-9]|table|phone|command line")
AT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?([+-][0-9]{2}:[0-9]{2}|Z)?")
FIELDS = {"at", "by", "kind", "round", "was", "now", "scores", "cards", "totals"}
MOST_CARDS = 4 * 54  # the cards one play or hand names, at most: every card of four decks
MOST_PLAYERS = max(v.max_players for v in registry.VARIANTS.values())  # the players a change's scores name
TEXT = NAME_LENGTH  # the letters of a name (or of a kind of play, far shorter), at most


def _refuse(n: int, what: Say) -> GameFileError:
    return GameFileError(Say("changes, change %(n)s: %(what)s", n=n, what=what))


def _text(n: int, value: Any, field: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or not (0 if empty else 1) <= len(value) <= TEXT:
        raise _refuse(n, Say("%(field)s must be a name of at most %(most)s letters", field=field, most=TEXT))
    return value


def _number(n: int, value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
        raise _refuse(n, Say("%(field)s must be a whole number", field=field))
    return value


def _card(n: int, value: Any) -> str:
    try:
        return str(parse_card(value if isinstance(value, str) else ""))
    except CardError:
        raise _refuse(n, Say("%(given)s is not a card", given=repr(value)[:20])) from None


def _side(n: int, value: Any, field: str, kind: str) -> Any:
    if kind == "rename":
        return _text(n, value, field)
    if not isinstance(value, Mapping) or set(value) - {"kind", "player", "cards"}:
        raise _refuse(n, Say("%(field)s must be a play or a hand (its kind, player and cards)", field=field))
    # A play of no one's may be changed too: the stock running out at the end of a hand.
    side: dict[str, Any] = {"player": _text(n, value.get("player"), field + ".player", empty=True)}
    if "kind" in value:
        side["kind"] = _text(n, value["kind"], field + ".kind")
    cards = value.get("cards", [])
    if not isinstance(cards, list) or len(cards) > MOST_CARDS:
        raise _refuse(n, Say("%(field)s must list at most %(most)s cards", field=field + ".cards", most=MOST_CARDS))
    side["cards"] = [_card(n, c) for c in cards]
    return side


def _moved(n: int, value: Any, field: str) -> dict[str, list[int]]:
    if not isinstance(value, Mapping) or len(value) > MOST_PLAYERS:
        raise _refuse(n, Say("%(field)s must give each player's points before and after", field=field))
    moved = {}
    for player, pair in value.items():
        if not isinstance(pair, list) or len(pair) != 2:
            raise _refuse(n, Say("%(field)s must give each player's points before and after", field=field))
        moved[_text(n, player, field)] = [_number(n, p, field) for p in pair]
    return moved


def check(value: Any) -> list[dict[str, Any]]:
    """A game file's ``changes`` (absent: none), checked and in order; a GameFileError
    names the first change that is not one."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise GameFileError(Say("changes must be a list of changes"))
    kept = []
    for n, change in enumerate(value, 1):
        if not isinstance(change, Mapping):
            raise _refuse(n, Say("a change must be an object"))
        unknown = sorted(set(change) - FIELDS)
        if unknown:
            raise _refuse(n, Say("unknown field '%(field)s'", field=unknown[0][:20]))
        kind = change.get("kind")
        if kind not in KINDS:
            raise _refuse(n, Say("unknown kind of change %(given)s", given=repr(kind)[:30]))
        at = change.get("at")
        if not isinstance(at, str) or len(at) > 40 or not AT.fullmatch(at):
            raise _refuse(n, Say("at must be a date and time (2026-11-29T21:04:00+00:00)"))
        by = change.get("by")
        if by is not None and (not isinstance(by, str) or not BY.fullmatch(by)):
            raise _refuse(n, Say("by must say whose phone (seat:0, table, phone, command line)"))
        item: dict[str, Any] = {"at": at, "by": by, "kind": kind}
        if "round" in change:
            round_no = _number(n, change["round"], "round")
            if not 1 <= round_no <= MAX_ROUNDS:
                raise _refuse(n, Say("round must be a round of the game"))
            item["round"] = round_no
        for field in ("was", "now"):
            if field in change:
                item[field] = _side(n, change[field], field, str(kind))
        for field in ("scores", "totals"):
            if field in change:
                item[field] = _moved(n, change[field], field)
        if "cards" in change:
            cards = change["cards"]
            if not isinstance(cards, list) or len(cards) > MOST_CARDS:
                raise _refuse(n, Say("cards must list at most %(most)s cards", most=MOST_CARDS))
            item["cards"] = []
            for moved in cards:
                if not isinstance(moved, list) or len(moved) != 4:
                    raise _refuse(n, Say("cards must give each card's player, card, points before and after"))
                item["cards"].append([_text(n, moved[0], "cards"), _card(n, moved[1]),
                                      _number(n, moved[2], "cards"), _number(n, moved[3], "cards")])
        kept.append(item)
    return kept
