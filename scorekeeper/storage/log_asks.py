"""A play asked for at the table of a game kept as a log, answered in one piece.

A phone asks for a meld, a lay-off, an ace, a pass or going out, to be checked (its
preview) or logged. What comes back is one :class:`Outcome`: the round as it now is, and
what became of the play: logged, previewed, refused (by the rules, or because another
phone changed the table first) or found logged already (the same form sent twice). So a
page makes one call down for a play and draws what it gets, whatever happened; a refused
play's round is read after the refusal, as it now is: another phone's play may be why.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from ..games.words import Say, Sentence
from .kernel import Refused, Repeated, Stale
from .log_changes import add_play
from .log_checks import Preview, preview
from .logs import LogState, load, replay
from .plays import PlayRow


@dataclass(frozen=True)
class Outcome:
    """What became of a play asked for. ``state``: the round as it now is (after the play,
    if it was logged), None for a play logged already (nothing more was read); ``saved``:
    the play as logged; ``preview``: what it would make and score, when it was only
    checked; ``refused``: why nothing was saved, with ``stale`` when another phone changed
    the table first."""

    state: LogState | None
    saved: PlayRow | None = None
    preview: Preview | None = None
    refused: Say | Sentence | None = None
    stale: bool = False


def ask(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
        cards: Iterable[str] = (), target: int | None = None, *, turn: str | None = None,
        round_no: int | None = None, seen: int | None = None, check: bool = False,
        refused: Say | Sentence | None = None) -> Outcome:
    """A play of the round being played: checked only (``check``) or logged
    (log_changes.add_play: ``turn``, ``round_no`` and ``seen`` are what the phone's page showed).
    ``refused``: the page refused it already (its form); the round is read to say so."""
    cards, stale = tuple(cards), False
    if refused is None and not check:
        try:
            row, after = add_play(db, game_id, request_id, kind, player, cards, target,
                                  turn=turn, round_no=round_no, seen=seen)
        except Repeated:
            return Outcome(None)
        except Refused as e:
            refused, stale = e.said, isinstance(e, Stale)
        else:
            return Outcome(after, saved=row)
    now = replay(load(db, game_id))
    shown = preview(now, kind, player, cards, target) if check and refused is None else None
    return Outcome(now, preview=shown, refused=refused, stale=stale)
