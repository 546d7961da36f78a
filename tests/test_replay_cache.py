"""The remembered replay gives what the plain one gives, refusals included (replay_cache.py).

Games are built play by play from the load benchmark's scripted rounds, so the memos are
exercised as the app uses them: each new play on the table the last one left, counted
rounds from the memo, the same game replayed again. After every play the result is
compared, field by field, with ``gamefile.replay_iceberg`` on the same document; broken
documents must be refused with the same words.
"""
from __future__ import annotations

import copy
import json
import random

import pytest

from benchmarks.table_script import PLAYERS, script_round
from scorekeeper import gamefile, replay_cache
from scorekeeper.games.errors import ScorekeeperError
from tests.conftest import EXAMPLES


def summary(result) -> dict:
    """Everything a replay says, as plain data."""
    return {
        "totals": result.totals, "winners": result.winners, "over": result.over,
        "tied": result.tied_at_target, "status": result.status(),
        "rounds": [
            {"finished": r.finished, "scores": r.scores, "end": r.round.end_reason(),
             "plays": [p.describe() for p in r.round.plays],
             "melds": [str(m.meld) for m in r.round.melds],
             "detail": {p: pr.as_detail() for p, pr in r.players.items()}}
            for r in result.rounds
        ],
    }


def outcome(replay, doc):
    try:
        return summary(replay(doc))
    except ScorekeeperError as e:
        return ("refused", type(e).__name__, str(e))


def same(doc) -> None:
    plain = outcome(gamefile.replay_iceberg, copy.deepcopy(doc))
    assert outcome(replay_cache.replay_iceberg, doc) == plain
    assert outcome(replay_cache.replay_iceberg, doc) == plain  # again, from the memos


def scripted_game(seed: int, rounds: int, players: int = 5):
    """(events, hands) of each scripted round, as the game file has them."""
    rng = random.Random(seed)
    for r in range(rounds):
        dealer = r % players
        events, hands = [], {}
        for step in script_round(rng, players, (dealer + 1) % players, dealer):
            kind, player = step[0], PLAYERS[step[1]]
            if kind == "ace":
                events.append({"type": "ace", "player": player, "cards": [step[2]]})
            elif kind == "meld":
                events.append({"type": "meld", "player": player, "cards": step[2]})
            elif kind == "layoff":
                events.append({"type": "layoff", "player": player, "cards": step[3], "meld": step[2]})
            elif kind == "out":
                events.append({"type": "out", "player": player})
            elif kind == "hand":
                hands[player] = step[2]
        yield events, hands


@pytest.fixture(autouse=True)
def empty_memos():
    for memo in (replay_cache.rounds, replay_cache.tables, replay_cache.games, replay_cache.resolved):
        memo.clear()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_replayed_play_by_play_scores_as_the_plain_replay(seed):
    doc = {"format": gamefile.FORMAT, "variant": "iceberg", "rules": {},
           "players": list(PLAYERS[:5]), "teams": None, "rounds": []}
    for events, hands in scripted_game(seed, rounds=3):
        data = {"events": []}
        doc["rounds"].append(data)
        for event in events:
            data["events"] = data["events"] + [event]  # a new list, as every load makes
            same(doc)
        data["hands"] = {}
        for player, cards in hands.items():  # the hands entered one by one
            data["hands"] = {**data["hands"], player: cards}
            same(doc)
    assert replay_cache.tables.hits and replay_cache.rounds.hits


def test_the_seed_example_under_other_rules():
    doc = json.loads((EXAMPLES / "iceberg-seed-example.json").read_text())
    same(doc)
    for rules in ({"card_penalty": 5}, {"playable_penalty": "single_card"}, {"target": 50}):
        same({**doc, "rules": rules})


def broken_variants(doc):
    """Documents the replay must refuse (or score) exactly as the plain one does."""
    events = doc["rounds"][0]["events"]
    for i in range(len(events)):
        cut = copy.deepcopy(doc)
        del cut["rounds"][0]["events"][i]  # a play missing: later plays may not stand
        yield cut
    twice = copy.deepcopy(doc)
    twice["rounds"][0]["events"].append(copy.deepcopy(events[1]))  # a card played twice
    yield twice
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["events"][-1]["cards"] = ["XX"]
    yield bad
    extra = copy.deepcopy(doc)
    extra["rounds"][0]["events"][0]["note"] = "?"
    yield extra
    early = copy.deepcopy(doc)
    early["rounds"].insert(0, {"events": []})  # an unfinished round before a counted one
    yield early
    hands = copy.deepcopy(doc)
    hands["rounds"][0]["hands"]["B"] = ["SA", "SA"]
    yield hands
    yield {**doc, "rounds": doc["rounds"] + [[]]}


def test_refusals_say_what_the_plain_replay_says():
    doc = json.loads((EXAMPLES / "iceberg-seed-example.json").read_text())
    for variant in broken_variants(doc):
        same(variant)
        # and after the good prefix of the same game sits in the memos
        same(doc)
        same(variant)


def test_plays_logged_by_another_process_are_applied_to_the_table_built_before_them(monkeypatch):
    # A second gunicorn worker logged the last few plays: this process built the table
    # a few plays back, never the ones in between. It builds on that table (no replay
    # of the round from its first play) and scores as the plain replay; a refused play
    # among those few is refused in the plain replay's words.
    doc = {"format": gamefile.FORMAT, "variant": "iceberg", "rules": {},
           "players": list(PLAYERS[:5]), "teams": None, "rounds": [{"events": []}]}
    events, _hands = next(scripted_game(3, rounds=1))
    assert len(events) >= 17
    doc["rounds"][0]["events"] = events[:6]
    same(doc)
    full = []
    real = replay_cache.replay_round
    monkeypatch.setattr(replay_cache, "replay_round", lambda *a: full.append(1) or real(*a))
    for n in (9, 10, 14):  # three plays on, then one, then four
        doc["rounds"][0]["events"] = events[:n]
        same(doc)
    assert full == []
    refused = copy.deepcopy(events[:17])
    refused[15]["cards"] = ["XX"]  # no such card, two plays from the end
    doc["rounds"][0]["events"] = refused
    plain = outcome(gamefile.replay_iceberg, copy.deepcopy(doc))
    assert plain[0] == "refused" and "event 16" in plain[2]
    same(doc)
    assert full  # refused on the way: the round was replayed in full, for its words


@pytest.mark.parametrize("back, replayed", [(replay_cache.LOOK_BACK, False),
                                             (replay_cache.LOOK_BACK + 1, True)])
def test_a_table_is_looked_for_as_far_back_as_the_look_back_and_no_further(
        monkeypatch, back, replayed):
    doc = {"format": gamefile.FORMAT, "variant": "iceberg", "rules": {},
           "players": list(PLAYERS[:5]), "teams": None, "rounds": [{"events": []}]}
    events, _hands = next(scripted_game(3, rounds=1))
    assert len(events) >= 2 + back
    doc["rounds"][0]["events"] = events[:2]
    same(doc)
    full = []
    real = replay_cache.replay_round
    monkeypatch.setattr(replay_cache, "replay_round", lambda *a: full.append(1) or real(*a))
    doc["rounds"][0]["events"] = events[:2 + back]
    same(doc)  # built on the table of two plays, or replayed from the first: the same
    assert bool(full) is replayed
