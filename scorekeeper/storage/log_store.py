"""A game kept as a log of plays (Iceberg, Robber Rummy, Rummy 500), as storage/games.py asks
every store: the game read and replayed, its summary made again, every round replayed from
the log, and its game file out and in.

The other store (storage/count_store.py, rounds counted at the end) answers the same five
questions, so the door asks whichever the game's variant names and never branches. The
log itself is read by storage/logs.py and changed by storage/log_changes.py.
"""
from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from .. import gamefile
from ..gamefile import RoundRecord, Standing, round_replay
from ..games.cards import parse_card
from ..games.variant import LogVariant, Variant
from . import entries, kernel, record, results
from .db import write
from .kernel import Refused
from .log_changes import save_standing, save_summary
from .logs import GameLog, Loaded, LogState, load, replay, round_data, rows_of
from .plays import PlayRow


def state(db: Database, game_id: int, round_no: int | None = None) -> LogState:
    """The round being played (or round ``round_no``), replayed from the game before it."""
    return replay(load(db, game_id, round_no))


def refresh(db: Database, game_id: int) -> None:
    """The summary the history list shows made again, and the version bumped (in the
    caller's transaction)."""
    now = state(db, game_id)
    save_summary(db, now.log, now)


def _all_rounds(db: Database, game_id: int) -> tuple[GameLog, gamefile.Header]:
    """The whole log in one snapshot: every play, every hand."""
    with kernel.reading(db):
        game = kernel.header(db, game_id)
        plays = db.execute(
            "SELECT id, round_no, seq, type, player, cards, target, revision FROM plays "
            "WHERE game = ? ORDER BY round_no, seq", [game_id]).fetchall()
        hands = db.execute("SELECT round_no, player, cards, confirmed FROM hands WHERE game = ? "
                           "ORDER BY round_no, id", [game_id]).fetchall()
    if not isinstance(game["variant"], LogVariant):
        raise ValueError(f"game {game_id} is not kept as a log of plays")
    log = GameLog(game_id, game["variant"], game["players"], game["rules"], game["first_dealer"],
                  game["teams"], game["version"], rows_of(plays))
    for n, player, cards, confirmed in hands:
        (log.hands if confirmed else log.drafts).setdefault(n, {})[player] = tuple(json.loads(cards))
    return log, results.header(game)


def _counted_rounds(log: GameLog, head: gamefile.Header) -> list[tuple[RoundRecord, Standing]]:
    """Each counted round of a whole log replayed in turn from the game before it: its
    record and the game after it. Between two rounds other greenlets (or threads) may run:
    a long game's replay holds up no other game's request."""
    kept, standing = [], round_replay.start(head)
    for round_no in sorted(log.hands):
        loaded = Loaded(log, head, standing, round_no, standing.rounds)
        state = replay(loaded)
        kept.append((state.record(), state.after))
        standing = state.after
        time.sleep(0)  # a yield: gevent's sleep where the server runs gevent
    return kept


def replayed_rounds(db: Database, game_id: int) -> list[tuple[RoundRecord, Standing]]:
    """Every counted round's results, replayed from the log (storage/results.py's rebuild)."""
    return _counted_rounds(*_all_rounds(db, game_id))


def export_document(db: Database, game_id: int) -> dict[str, Any]:
    """The game file of the whole log (no replay: its rows as the file has them)."""
    log, _head = _all_rounds(db, game_id)
    rounds = [round_data(log, n)[0] for n in range(1, max([*log.rounds, *log.hands], default=0) + 1)]
    return {"format": gamefile.FORMAT, "variant": log.variant.key, "rules": dict(log.rules),
            "players": list(log.players), "teams": log.teams, "rounds": rounds}


def import_document(db: Database, variant: Variant, doc: Mapping[str, Any], source: str,
                    group: int | None = None, changes: Sequence[dict[str, Any]] = ()) -> int:
    """Add a game from its game file (already read: its header checked); the first seat
    deals. Each event becomes a row; the round lists become their rows; a finished round
    that no one went out of ended by the game's way without an event (the stock ran out:
    the file does not say who drew the last card).

    Every round is replayed before the write lock is taken, one at a time (the file's
    refusal is the replay's, in plain words), and its results kept; the lock is held only
    to write the game.
    """
    assert isinstance(variant, LogVariant)  # storage/games.py asks this store for these alone
    players = list(doc["players"])
    log = GameLog(None, variant, players, dict(doc.get("rules") or {}), 0, doc.get("teams"))
    head = gamefile.read_game(doc)
    rows: list[PlayRow] = []  # until they are stored, a row's id is its place in the game

    def add(round_no: int, seq: int, kind: str, player: str, cards: tuple[str, ...] = (),
            target: int | None = None) -> int:
        rows.append(PlayRow(len(rows) + 1, round_no, seq, kind, player, cards, target))
        return len(rows)

    counted_rounds: list[tuple[RoundRecord, Standing]] = []  # (its record, the game after it)
    standing, last = round_replay.start(head), len(doc.get("rounds", []))
    for round_no, data in enumerate(doc.get("rounds", []), 1):
        # The round replayed as the file has it first: its refusal in the file's words.
        try:
            result, after = round_replay.replay_logged_round(head, standing, data, round_no, last=round_no == last)
        except gamefile.GameFileError as e:
            raise Refused(e.message) from None
        melds: list[int] = []
        seq = 0
        for seq, event in enumerate(data.get("events", []), 1):
            cards = tuple(str(parse_card(c)) for c in event.get("cards", []))
            target = melds[event["meld"] - 1] if event["type"] == "layoff" else None
            row_id = add(round_no, seq, event["type"], event["player"], cards, target)
            if event["type"] == "meld":
                melds.append(row_id)
        for key in variant.round_lists:
            for player in data.get(key, []):
                seq += 1
                add(round_no, seq, key, player)
        if "hands" in data:
            if not result.round.ended and variant.round_enders:
                add(round_no, seq + 1, variant.round_enders[0], "")
            log.hands[round_no] = {p: tuple(str(parse_card(c)) for c in data["hands"].get(p, []))
                                   for p in players}
            log.plays = tuple(rows)
            counted = LogState(log, Loaded(log, head, standing, round_no, standing.rounds), result,
                               after, [])
            counted_rounds.append((counted.record(), after))
        standing = after
        time.sleep(0)  # a yield between rounds (gevent's, under the server)
    log.plays = tuple(rows)
    playing_now = None
    if not standing.over:
        playing_now = replay(Loaded(log, head, standing, standing.rounds + 1, standing.rounds))
    made = entries.plays_text((row.round_no, row.seq, row.type, row.player, json.dumps(list(row.cards)), row.target)
                              for row in rows)
    kept = results.encode(counted_rounds)
    holding = [(row.round_no, row.type, row.player, row.cards) for row in rows] if changes else []
    with write(db):
        log.id, _secret = kernel.insert_game(db, variant, players, log.rules, 0, log.teams, source=source, group=group)
        # The rows take the ids after the largest there is: a lay-off's meld (its place in
        # the game) is known before it is written.
        first = entries.new_plays(db, log.id, made)
        entries.new_hands(db, log.id, ((round_no, player, cards) for round_no, by_player in log.hands.items()
                                       for player, cards in by_player.items()))
        results.write(db, log.id, 1, kept)
        save_standing(db, log, head, standing, playing_now)
        record.import_changes(db, log.id, changes, ((held, first + place) for place, held in enumerate(holding)))
    return log.id
