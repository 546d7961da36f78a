"""A play asked for at the table of a game kept as a log, answered in one piece.

A phone asks for a meld, a lay-off, an ace, a pass or going out, to be logged
(:func:`ask`) or only checked (:func:`check`: its preview). What comes back is one
:class:`Outcome`: the round as it now is, and what became of the play: logged, previewed,
refused (by the rules, or because another phone changed the table first) or found logged
already (the same form sent twice). So a page makes one call down for a play and draws
what it gets, whatever happened. A play refused comes back with the round as the store
read it to refuse it (another phone's play may be why): a play reads and replays its
round once, logged or not.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database

from ..games.words import Say, Sentence
from .kernel import Refused, Repeated, Stale, Unreadable
from .log_changes import add_play
from .log_checks import Preview, preview
from .logs import LogState, load, replay
from .plays import PlayRow


@dataclass(frozen=True)
class Outcome:
    """What became of a play asked for. ``state``: the round as it now is (after the play,
    if it was logged); None for a play logged already, or refused before its round was
    read (the page's form, or a form key no page makes): the page reads it if it needs
    it. ``saved``: the play as logged; ``preview``: what it would make and score, when it
    was only checked; ``refused``: why nothing was saved, with ``stale`` when another
    phone changed the table first."""

    state: LogState | None
    saved: PlayRow | None = None
    preview: Preview | None = None
    refused: Say | Sentence | None = None
    stale: bool = False


def ask(db: Database, game_id: int, request_id: str | None, kind: str, player: str,
        cards: Iterable[str] = (), target: int | None = None, *, turn: str | None = None,
        round_no: int | None = None, seen: int | None = None,
        refused: Say | Sentence | None = None) -> Outcome:
    """A play of the round being played, logged (log_changes.add_play: ``turn``,
    ``round_no`` and ``seen`` are what the phone's page showed). ``refused``: the page
    refused it already (its form): nothing is read. Unreadable: a game whose log the
    rules no longer allow."""
    if refused is not None:
        return Outcome(None, refused=refused)
    try:
        row, after = add_play(db, game_id, request_id, kind, player, tuple(cards), target,
                              turn=turn, round_no=round_no, seen=seen)
    except Repeated:
        return Outcome(None)
    except Unreadable:
        raise
    except Refused as e:
        return Outcome(e.read, refused=e.said, stale=isinstance(e, Stale))
    return Outcome(after, saved=row)


def check(db: Database, game_id: int, kind: str, player: str, cards: Iterable[str] = (),
          target: int | None = None) -> Outcome:
    """A play of the round being played, checked only: the round read, and what the play
    would make and score there, or why the rules refuse it (nothing is saved)."""
    now = replay(load(db, game_id))
    return Outcome(now, preview=preview(now, kind, player, tuple(cards), target))
