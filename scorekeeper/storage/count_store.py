"""A game whose rounds are counted at the end (Basic Rummy, Gin, Kalooki, Conquian,
Manipulation), as storage/games.py asks every store: the game read, its summary made
again, every round replayed from the rounds as stored, and its game file out and in.

The other store (storage/log_store.py, logs of plays) answers the same five questions, so
the door asks whichever the game's variant names and never branches. The rounds
themselves are read and changed by storage/rounds.py.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import GameFileError, RoundRecord, Standing, round_replay
from ..games.variant import CountVariant, Variant
from . import kernel, record, results
from .db import write
from .kernel import Refused
from .rounds import (
    CountedLog,
    RecordedRound,
    Scored,
    encoded_results,
    header_of,
    insert_round,
    kept_records,
    load,
    recorded,
    replayed,
    save_summary,
)


def state(db: Database, game_id: int, round_no: int | None = None) -> Scored:
    """The game's kept rounds and the game after the last (every page reads the whole game:
    ``round_no`` is the log store's)."""
    return load(db, game_id)


def refresh(db: Database, game_id: int) -> None:
    """The summary the history list shows made again, and the version bumped (in the
    caller's transaction)."""
    scored = load(db, game_id)
    save_summary(db, scored, scored.standing)


def export_document(db: Database, game_id: int) -> dict[str, Any]:
    """The game file: what ``scorekeeper score`` and an import read back."""
    with kernel.reading(db):
        game, _head = header_of(db, game_id)
        game.rounds = recorded(db, game_id)
    return game.document()


def replayed_rounds(db: Database, game_id: int) -> list[tuple[RoundRecord, Standing]]:
    """Every recorded round's results, replayed from the rounds as stored (storage/results.py's
    rebuild)."""
    with kernel.reading(db):
        game, head = header_of(db, game_id)
        rounds = recorded(db, game_id)
    return kept_records(replayed(head, round_replay.start(head), rounds, 1, None), game.variant)


def import_document(db: Database, variant: Variant, doc: Mapping[str, Any], source: str,
                    group: int | None = None, changes: Sequence[dict[str, Any]] = ()) -> int:
    """Add a hand-count game from its game file (its header checked); the first seat
    deals. An unfinished last round (no one out, no knock, no stalemate) records nothing
    yet. Every round is replayed before the write lock (the file's refusal in its words)."""
    assert isinstance(variant, CountVariant)  # storage/games.py asks this store for these alone
    head = gamefile.read_game(doc)
    game = CountedLog(None, variant, list(doc["players"]), dict(doc.get("rules") or {}), 0)
    standing, done = round_replay.start(head), []
    rounds = doc.get("rounds", [])
    for round_no, data in enumerate(rounds, 1):
        try:
            result, standing = round_replay.replay_round(head, standing, data, round_no, last=round_no == len(rounds))
        except GameFileError as e:
            raise Refused(e.message) from None
        rnd = RecordedRound.from_data(data)
        if rnd is not None:
            game.rounds.append(rnd)
            done.append((result, standing))
        time.sleep(0)  # a yield between rounds (gevent's, under the server)
    scored = Scored(game, head, [], standing)
    kept = encoded_results(done, variant)
    with write(db):
        game.id, _secret = kernel.insert_game(db, variant, game.players, game.rules, 0, source=source, group=group)
        for round_no, rnd in enumerate(game.rounds, 1):
            insert_round(db, game.id, round_no, rnd)
        results.write(db, game.id, 1, kept)
        save_summary(db, scored, standing)
        record.import_changes(db, game.id, changes)
    return game.id
