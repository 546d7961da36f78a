"""A database made by the previous schema upgrades itself (sqlite-utils migrations).

tests/fixtures/schema-m001.db was written by the app as it stood before migration
m002 (secret links, request ids, play revisions): the seed example imported as game 1,
and game 2 with a meld and an ace.
"""
import json
import shutil
from pathlib import Path

import pytest

from scorekeeper import create_app, gamefile
from scorekeeper.games import registry
from scorekeeper.storage import games, kernel
from scorekeeper.storage.db import connect
from scorekeeper.storage.migrations import migrations
from tests.command import run

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "schema-m001.db"


@pytest.fixture
def upgraded(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(OLD, path)
    before = connect(str(path))
    assert [m.name for m in migrations.applied(before)] == ["m001_games_plays_hands"]
    plays_before = [dict(r) for r in before.query(
        "SELECT id, game, round_no, seq, type, player, cards, target FROM plays")]
    before.close()
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "TESTING": True})
    return app, connect(str(path)), plays_before


def test_the_old_database_is_migrated_when_the_app_starts(upgraded):
    _app, db, plays_before = upgraded
    assert [m.name for m in migrations.applied(db)] == [
        "m001_games_plays_hands", "m002_links_requests_revisions", "m003_game_teams", "m004_players",
        "m005_game_origins", "m006_games_said_status", "m007_round_results", "m008_drawn_payloads", "m009_groups",
        "m010_names_that_look_alike", "m011_change_record", "m012_nights",
        "m013_group_names"]
    assert {r["teams"] for r in db.query("SELECT teams FROM games")} == {None}
    assert [dict(r) for r in db.query(
        "SELECT id, game, round_no, seq, type, player, cards, target FROM plays")] == plays_before
    assert {r["revision"] for r in db.query("SELECT revision FROM plays")} == {0}


def test_every_old_game_gets_its_finished_rounds_results_from_its_log(upgraded):
    """m007: the seed example's counted round is kept with its scores and the game after it;
    game 2's round, being played, has none."""
    _app, db, _plays = upgraded
    kept = [dict(r) for r in db.query("SELECT game, round_no FROM round_results ORDER BY game, round_no")]
    assert kept == [{"game": 1, "round_no": 1}]
    assert games.stored(db, 1).totals == {"A": 100, "B": -120, "C": -20}
    assert games.stored(db, 1).rounds[0].scores == gamefile.score_document(games.export_document(db, 1))[
        "rounds"][0]["scores"]


def test_every_old_game_gets_its_own_secret_links(upgraded):
    _app, db, _plays = upgraded
    secrets = [kernel.secrets_of(db, game_id) for game_id in (1, 2)]
    flat = [s for pair in secrets for s in pair]
    assert len(set(flat)) == 4 and all(len(s) >= 22 for s in flat)


def test_old_games_score_as_before_and_play_on_through_their_links(upgraded):
    app, db, _plays = upgraded
    doc = games.export_document(db, 1)
    assert gamefile.score_document(doc)["totals"] == {"A": 100, "B": -120, "C": -20}
    client = app.test_client()
    edit, view = kernel.secrets_of(db, 2)
    table = client.get(f"/g/2-{edit}/table").get_data(as_text=True)
    assert 'data-type="meld"' in table and 'data-type="ace"' in table
    response = client.post(f"/g/2-{edit}/plays", data={"player": "Ann", "cards": ["S10"], "meld": _meld_id(table),
                                                       "confirm": "1"})
    assert response.status_code == 303
    assert games.export_document(db, 2)["rounds"][0]["events"][-1] == {
        "type": "layoff", "player": "Ann", "cards": ["S10"], "meld": 1}
    assert client.get(f"/g/2-{view}/table").status_code == 200


def test_the_server_owner_finds_the_links_of_old_games(upgraded, tmp_path):
    _app, db, _plays = upgraded
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    listing = run("games", "--database", path)
    assert listing.returncode == 0, listing.stderr
    edit, view = kernel.secrets_of(db, 2)
    assert f"/g/2-{edit}/table" in listing.stdout and f"/g/2-{view}/table" in listing.stdout
    assert "Ann, Bob" in listing.stdout


def test_old_games_get_their_players_matched_by_name(upgraded):
    """m004: a player per name (case-insensitively), a seat per game; renames follow."""
    from scorekeeper.storage import players

    app, db, _plays = upgraded
    everyone = {p.name: p for p in players.everyone(db, players.EVERY_GAME)}
    assert sorted(everyone) == ["A", "Ann", "B", "Bob", "C"]
    assert {name: p.games for name, p in everyone.items()} == {"A": 1, "Ann": 1, "B": 1, "Bob": 1, "C": 1}
    assert db.execute("SELECT game, seat, player FROM seats ORDER BY game, seat").fetchall() == [
        (1, 0, everyone["A"].id), (1, 1, everyone["B"].id), (1, 2, everyone["C"].id),
        (2, 0, everyone["Ann"].id), (2, 1, everyone["Bob"].id)]
    # A new game of her group with "ANN" seats the same person; renaming her renames the
    # old game too.
    game_id, _secret = games.create(db, registry.get("iceberg"), ["ANN", "Zoe"], {}, 0,
                                    group=kernel.group_of(db, 2))
    assert players.game_ids(db, everyone["Ann"].id, players.EVERY_GAME) == [2, game_id]
    players.rename(db, everyone["Ann"].id, "Annabel", editable=players.EVERY_GAME)
    assert [e["player"] for e in games.export_document(db, 2)["rounds"][0]["events"]] == ["Bob", "Annabel"]
    assert kernel.header(db, game_id)["players"] == ["Annabel", "Zoe"]


def _meld_id(html: str) -> str:
    import re
    return re.search(r'data-meld="(\d+)" data-meld-number="1"', html).group(1)


# ---------------------------------------------------------------------------------------
# m009: groups, by docs/README.md's rule.


@pytest.fixture
def before_groups(tmp_path):
    """A database of the schema before groups (m001 … m008), made by those migrations, with
    games written as the app wrote them then: games 1, 2 and 4 linked by shared players
    (Ann and Bob in 1, Bob and Cy in 2, cy and Fay in 4), game 3 (Dee, Eve) and game 5
    (Gus, Hal) apart, and Ivy, who sat in no game."""
    path = str(tmp_path / "m008.db")
    db = connect(path)
    migrations.apply(db, stop_before="m009_groups")
    assert "group_id" not in db["games"].columns_dict
    seated = {1: ["Ann", "Bob"], 2: ["Bob", "Cy"], 3: ["Dee", "Eve"], 4: ["cy", "Fay"], 5: ["Gus", "Hal"]}
    for game_id, names in seated.items():
        db.execute(
            "INSERT INTO games (id, variant, players, rules, first_dealer, created, updated, edit_token, "
            "view_token) VALUES (?, 'gin', ?, '{}', 0, '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00', ?, ?)", [game_id, json.dumps(names), f"e{game_id}", f"v{game_id}"])
        kernel.seat_players(db, game_id, names, grouped=False)
    db.execute("INSERT INTO players (name, key, created) VALUES ('Ivy', 'ivy', '2026-01-01')")
    db.conn.commit()
    db.close()
    return path


def test_games_sharing_a_player_become_one_group_and_every_other_game_its_own(before_groups):
    create_app({"DATABASE": before_groups, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "TESTING": True})
    db = connect(before_groups)
    assert "m009_groups" in [m.name for m in migrations.applied(db)]
    group = {game_id: kernel.group_of(db, game_id) for game_id in range(1, 6)}
    assert group[1] == group[2] == group[4]
    assert len({group[1], group[3], group[5]}) == 3
    for game_id, name in ((1, "Ann"), (2, "Bob"), (4, "Fay"), (3, "Dee"), (5, "Hal")):
        assert db.execute("SELECT group_id FROM players WHERE name = ?", [name]).fetchone()[0] == group[game_id]
    ivy = db.execute("SELECT group_id FROM players WHERE name = 'Ivy'").fetchone()[0]
    assert ivy not in group.values()  # a group of her own
    assert db.execute("SELECT count(*) FROM groups").fetchone()[0] == 4
    secrets = [s for (i,) in db.execute("SELECT id FROM groups").fetchall() for s in kernel.group_secrets(db, i)]
    assert len(set(secrets)) == 8 and all(len(s) >= 22 for s in secrets)
    # A name is now unique within its group: a new group may have its own Ann.
    other, _ = games.create(db, registry.get("gin"), ["Ann", "Zoe"], {}, 0)
    assert kernel.group_of(db, other) not in group.values()
    anns = db.execute("SELECT id, group_id FROM players WHERE key = 'ann'").fetchall()
    assert len(anns) == 2 and len({g for _i, g in anns}) == 2


def test_a_groups_link_opens_its_old_games_after_the_upgrade(before_groups):
    app = create_app({"DATABASE": before_groups, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "TESTING": True})
    db = connect(before_groups)
    group = kernel.group_of(db, 1)
    edit, _view = kernel.group_secrets(db, group)
    client = app.test_client()
    page = client.get(f"/group/{group}-{edit}").get_data(as_text=True)
    listed = sorted(int(i) for i in __import__("re").findall(r'data-game="(\d+)"', page))
    assert listed == [1, 2, 4]
    players_page = client.get(f"/group/{group}-{edit}/players").get_data(as_text=True)
    for name in ("Ann", "Bob", "Cy", "Fay"):
        assert f"<strong>{name}</strong>" in players_page
    for name in ("Dee", "Gus", "Ivy"):
        assert f"<strong>{name}</strong>" not in players_page


# ---------------------------------------------------------------------------------------
# m011: the record of changes; the log becomes append-only.


def test_every_old_play_and_hand_becomes_its_first_entry_and_a_change_keeps_it(upgraded):
    """The rows of the schema before the record become each play's and hand's first entry
    (of no known phone); a change made after the upgrade is a new entry beside it, and
    the Changes page says it."""
    app, db, plays_before = upgraded
    first = [dict(r) for r in db.query(
        "SELECT play AS id, game, round_no, seq, type, player, cards, target FROM play_entries ORDER BY id")]
    assert first == plays_before
    assert {(r["play"], r["by"], r["change"]) == (r["id"], None, None)
            for r in db.query("SELECT id, play, by, change FROM play_entries")} == {True}
    assert db.execute("SELECT count(*) FROM hand_entries").fetchone()[0] == 3  # the seed example's hands
    assert db.execute("SELECT count(*) FROM changes").fetchone()[0] == 0
    client = app.test_client()
    edit, _view = kernel.secrets_of(db, 2)
    meld = plays_before[[p["game"] for p in plays_before].index(2)]
    response = client.post(f"/g/2-{edit}/plays/{meld['id']}", data={
        "player": meld["player"], "cards": [*json.loads(meld["cards"]), "S10"], "save": "1"})
    assert response.status_code == 303, response.get_data(as_text=True)
    versions = db.execute("SELECT cards FROM play_entries WHERE play = ? ORDER BY id", [meld["id"]]).fetchall()
    assert [json.loads(c) for (c,) in versions] == [json.loads(meld["cards"]), [*json.loads(meld["cards"]), "S10"]]
    assert "became" in client.get(f"/g/2-{edit}/changes").get_data(as_text=True)
