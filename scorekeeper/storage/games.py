"""A stored game, whatever its rounds hold: the one door to the two stores.

A game's variant says how its rounds are recorded (games/variant.py): as logs of plays,
kept by storage/logs.py, or counted at the end, kept by storage/rounds.py. What every
game needs (made, read and replayed, exported, imported, its summary kept) is asked
here, which hands it to the right store; nothing here knows a game by name.
"""
from __future__ import annotations

import hashlib
from typing import Any, Mapping

from sqlite_utils import Database

from .. import gamefile
from ..games.errors import ScorekeeperError
from ..games.variant import COUNT, LOG, Variant
from ..games.words import Say
from . import kernel, logs, rounds
from .db import write
from .kernel import Refused

STORES = {LOG: logs, COUNT: rounds}


def store_of(variant: Variant):
    return STORES[variant.recording]


def create(db: Database, variant: Variant, players: list[str], rules: Mapping,
           first_dealer: int, teams: list[list[str]] | None = None,
           request_id: str | None = None) -> tuple[int, str]:
    """A new game, checked by replaying its game file with no rounds; (id, edit secret).
    ``request_id``: the new-game form's; sent twice, it makes one game (AlreadyHere)."""
    if not 0 <= first_dealer < len(players):
        raise Refused(Say("the first dealer must be one of the players"))
    doc = {"format": gamefile.FORMAT, "variant": variant.key, "rules": dict(rules),
           "players": list(players), "teams": teams, "rounds": []}
    try:
        game = gamefile.replay(doc)
    except ScorekeeperError as e:
        raise Refused(e.message) from None  # its sentence, as the rules said it
    with write(db):
        return kernel.insert_game(db, variant, players, rules, first_dealer, teams,
                                  status=game.said_status(), totals=game.totals, made_by=request_id)


def state(db: Database, game_id: int):
    """The game as stored and replayed: a log's :class:`logs.LogState`, a counted game's
    :class:`rounds.Scored` (NotFound; Refused for a stored log the rules no longer allow)."""
    variant = kernel.header(db, game_id)["variant"]
    if variant.recording == LOG:
        return logs.replay(logs.load(db, game_id))
    return rounds.score(rounds.load(db, game_id))


def replayed(db: Database, game_id: int):
    """The game as the game file's replay has it (gamefile.LogGame or CountGame)."""
    found = state(db, game_id)
    return found.game if isinstance(found, logs.LogState) else found.result


def refresh(db: Database, game_id: int) -> None:
    """Recompute the summary the history list shows and bump the version (in the caller's
    transaction): after a change made outside the stores, such as a rename."""
    variant = kernel.header(db, game_id)["variant"]
    if variant.recording == LOG:
        log = logs.load(db, game_id)
        logs.save_summary(db, log, logs.replay(log))
    else:
        game = rounds.load(db, game_id)
        rounds.save_summary(db, game, rounds.score(game))


def export_document(db: Database, game_id: int) -> dict:
    """The game file of a game: what ``scorekeeper score`` and an import read back."""
    variant = kernel.header(db, game_id)["variant"]
    return store_of(variant).export_document(db, game_id)


def import_document(db: Database, doc: Any) -> int:
    """Add a game from a game file, checked in full first; a bad file changes nothing.

    The file does not say who dealt first or when turns passed: the first seat deals.
    """
    try:
        variant, _rounds = gamefile.read_header(doc)
        game = gamefile.replay(doc)
    except ScorekeeperError as e:
        raise Refused(e.message) from None  # its sentence, as the rules said it
    return store_of(variant).import_document(db, variant, doc, game, source_of(doc))


def source_of(doc: Any) -> str:
    """A game file's digest: the same game, however its keys were ordered or spaced, has
    the same one (an import of it twice is said to be here already)."""
    return hashlib.sha256(gamefile.canonical_text(doc).encode()).hexdigest()
