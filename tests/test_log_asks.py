"""A play asked for at a table, through the store alone (storage/log_asks.py): one outcome
for each thing that can become of it, and the round it comes with as the log now has it."""
from __future__ import annotations

import pytest

from scorekeeper.games import registry
from scorekeeper.games.cards import parse_card
from scorekeeper.games.words import Say
from scorekeeper.storage import games, log_asks
from scorekeeper.storage.db import connect
from scorekeeper.storage.migrations import migrate


@pytest.fixture
def db(tmp_path):
    db = connect(str(tmp_path / "asks.db"))
    migrate(db)
    return db


@pytest.fixture
def game(db):
    """Iceberg for Ann, Bob and Cy; Cy deals, so Ann plays first."""
    game_id, _secret = games.create(db, registry.get("iceberg"), ["Ann", "Bob", "Cy"], {}, 2)
    return game_id


def plays(db, game_id):
    return db.execute("SELECT type, player, cards FROM plays WHERE game = ? ORDER BY seq", [game_id]).fetchall()


def test_a_play_logged_comes_with_the_round_after_it(db, game):
    outcome = log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"], round_no=1)
    assert outcome.saved is not None and outcome.saved.cards == ("S7", "S8", "S9")
    assert outcome.refused is None and outcome.preview is None and not outcome.stale
    assert outcome.state is not None and [r.id for r in outcome.state.rows()] == [outcome.saved.id]
    assert outcome.state.log.version == games.state(db, game).log.version  # the version it made
    assert plays(db, game) == [("meld", "Ann", '["S7", "S8", "S9"]')]


def test_the_same_request_twice_is_logged_once_and_reads_nothing(db, game):
    first = log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"])
    again = log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"])
    assert first.saved is not None and again.state is None and again.saved is None
    assert len(plays(db, game)) == 1


def test_a_play_the_rules_refuse_saves_nothing_and_says_why(db, game):
    log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"])
    outcome = log_asks.ask(db, game, "r2", "meld", "Bob", ["S9", "D9", "C9"])  # one deck: S9 is melded
    assert outcome.saved is None and not outcome.stale
    assert str(outcome.refused) == "S9 is already on the table (one deck has one S9)."
    assert outcome.state is not None and len(outcome.state.rows()) == 1
    assert len(plays(db, game)) == 1
    retried = log_asks.ask(db, game, "r2", "meld", "Bob", ["H9", "D9", "C9"])  # its id is not spent
    assert retried.saved is not None


def test_a_play_on_a_table_another_phone_changed_is_stale(db, game):
    log_asks.ask(db, game, "r1", "pass", "", turn="Ann")
    outcome = log_asks.ask(db, game, "r2", "pass", "", turn="Ann")  # the turn is Bob's now
    assert outcome.stale and "The turn already passed to Bob" in str(outcome.refused)
    assert [t for t, _p, _c in plays(db, game)] == ["pass"]
    old_tab = log_asks.ask(db, game, "r3", "meld", "Bob", ["H2", "H3", "H4"], round_no=2)
    assert old_tab.stale and old_tab.saved is None


def test_a_check_previews_and_saves_nothing(db, game):
    outcome = log_asks.check(db, game, "meld", "Ann", ["S7", "S8", "S9", "S10"])
    assert outcome.preview is not None and outcome.preview.ok and outcome.preview.play.points == 70
    assert outcome.saved is None and outcome.refused is None and plays(db, game) == []
    refused = log_asks.check(db, game, "meld", "Ann", ["S7", "D8", "C2"])
    assert refused.preview is not None and not refused.preview.ok and refused.refused is None


def test_a_play_refused_comes_with_the_round_the_store_read_to_refuse_it(db, game):
    """One read for a play, refused or not: the round a refusal comes with is the one the
    store read under its lock (the other phone's play that is why is in it), untouched by
    the play refused."""
    meld = log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"]).saved
    assert meld is not None
    outcome = log_asks.ask(db, game, "r2", "layoff", "Bob", ["S10", "H2"], target=meld.id)
    assert str(outcome.refused) == "H2 does not fit S7 S8 S9: a run of spades takes only spades."
    assert outcome.state is not None and [r.type for r in outcome.state.rows()] == ["meld"]
    (_id, on_table), = outcome.state.melds()
    assert len(on_table.meld.cards) == 3 and outcome.state.remaining(parse_card("S10")) == 1  # not laid


def test_a_play_the_page_refused_reads_nothing_and_says_why(db, game):
    why = Say("Pick the cards first.")
    outcome = log_asks.ask(db, game, "r1", "meld", "Ann", [], refused=why)
    assert outcome.refused is why and outcome.state is None and outcome.saved is None
    assert plays(db, game) == []
    later = log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"])  # its id is not spent
    assert later.saved is not None


def test_a_play_reads_its_round_once_logged_or_refused(db, game, monkeypatch):
    """Down to the store and back once: a play logged, refused by the rules, or stale reads
    the game once (the refusal's round is the one read), and a form refused reads nothing."""
    from scorekeeper.storage import log_changes, logs
    reads = []
    monkeypatch.setattr(log_changes, "load", lambda *a, **k: reads.append(a[1]) or logs.load(*a, **k))
    monkeypatch.setattr(log_asks, "load", lambda *a, **k: reads.append(a[1]) or logs.load(*a, **k))
    asked = [lambda: log_asks.ask(db, game, "r1", "meld", "Ann", ["S7", "S8", "S9"]),
             lambda: log_asks.ask(db, game, "r2", "meld", "Bob", ["S9", "D9", "C9"]),  # S9 is melded
             lambda: log_asks.ask(db, game, "r3", "pass", "", turn="Cy"),  # Ann's turn: stale
             lambda: log_asks.ask(db, game, "r4", "meld", "Ann", [], refused=Say("Pick the cards first."))]
    for ask, expected in zip(asked, (1, 1, 1, 0)):
        reads.clear()
        outcome = ask()
        assert len(reads) == expected and (expected == 0 or outcome.state is not None)
