"""One rule for names (storage/kernel.py ``key_of``): NFC, case-folded, compared by their
confusable skeleton (Unicode TR 39, ICU's spoof checker). The new-game form, an import
and a rename refuse two names that look alike, naming both; a database of the schema
before it upgrades itself (migration m010)."""
from __future__ import annotations

import io
import json
import unicodedata
from html import unescape

import pytest
from db_dump import dump

from scorekeeper import create_app
from scorekeeper.games import registry
from scorekeeper.storage import games, kernel, players
from scorekeeper.storage.db import connect
from scorekeeper.storage.migrations import migrations
from scorekeeper.storage.players import EVERY_GAME

CYRILLIC_ANN = "\u0410nn"  # А, Cyrillic
FULL_WIDTH_ANN = "\uff21nn"  # Ａ


@pytest.mark.parametrize("first, second, one", [
    ("Ann", "Ann", True),
    ("Ann", "ann", True),
    ("Ann", CYRILLIC_ANN, True),
    ("Ann", FULL_WIDTH_ANN, True),
    (CYRILLIC_ANN, FULL_WIDTH_ANN, True),
    ("Zoe\u0308", "zo\u00eb", True),  # decomposed and composed
    ("Ann", "Anna", False),
    ("Ann", "Ánn", False),  # an accent is a letter of its own
    ("Bob", "Rob", False),
])
def test_names_that_look_alike_are_one_name(first, second, one):
    assert (kernel.key_of(first) == kernel.key_of(second)) is one


@pytest.mark.parametrize("second", ["ann", CYRILLIC_ANN, FULL_WIDTH_ANN])
def test_the_new_game_form_refuses_two_names_that_look_alike_naming_both(client, app, second):
    before = dump(app.config["DATABASE"])
    response = client.post("/games", data={"seat_0": "Ann", "seat_1": "Bob", "seat_2": second, "first_dealer": "0"})
    assert response.status_code == 422
    assert f"Ann and {second} look like one name: give each player a different name." in unescape(
        response.get_data(as_text=True))
    assert dump(app.config["DATABASE"]) == before


def test_the_refusal_is_in_the_table_s_language(client):
    response = client.post("/games", data={"seat_0": "Ann", "seat_1": CYRILLIC_ANN, "first_dealer": "0"},
                           headers={"Accept-Language": "de"})
    assert f"Ann und {CYRILLIC_ANN} sehen wie derselbe Name aus" in unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("second", [CYRILLIC_ANN, FULL_WIDTH_ANN])
def test_an_import_refuses_two_names_that_look_alike_naming_both(client, app, second):
    doc = {"format": "scorekeeper/1", "variant": "rummy", "players": ["Ann", second], "rounds": []}
    before = dump(app.config["DATABASE"])
    response = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")})
    assert response.status_code == 422
    assert f"'Ann' and '{second}' look like one name" in unescape(response.get_data(as_text=True))
    assert dump(app.config["DATABASE"]) == before


def test_a_new_game_seats_the_player_whose_name_looks_the_same(db):
    first, _ = games.create(db, registry.get("iceberg"), ["Ann", "Bob"], {}, 0)
    second, _ = games.create(db, registry.get("iceberg"), [FULL_WIDTH_ANN, "Zoe"], {}, 0,
                             group=kernel.group_of(db, first))
    ann = next(p for p in players.everyone(db, EVERY_GAME) if p.name == "Ann")
    assert players.game_ids(db, ann.id, EVERY_GAME) == [first, second]


def test_a_rename_to_a_name_that_looks_like_another_player_s_is_refused_naming_it(db):
    games.create(db, registry.get("iceberg"), ["Ann", "Bob"], {}, 0)
    bob = next(p for p in players.everyone(db, EVERY_GAME) if p.name == "Bob")
    with pytest.raises(players.NameTaken) as refused:
        players.rename(db, bob.id, CYRILLIC_ANN, editable=EVERY_GAME)
    assert "There is already a player called Ann." in str(refused.value.said)
    assert {p.name for p in players.everyone(db, EVERY_GAME)} == {"Ann", "Bob"}


def test_a_database_of_the_schema_before_gets_the_rule_and_look_alikes_are_told_apart(tmp_path, monkeypatch):
    """m010: each player's key made again; of two players of a group whose names look
    alike (two people under the rule before), the later one takes a number on its own
    page, and its games keep the name they were played with. Another group's look-alike
    keeps its name: names are one within a group."""
    path = str(tmp_path / "m009.db")
    db = connect(path)
    migrations.apply(db, stop_before="m010_names_that_look_alike")
    with monkeypatch.context() as before:  # the rule before m010: without case, no more
        before.setattr(kernel, "key_of", lambda name: unicodedata.normalize("NFC", name).casefold())
        first, _ = games.create(db, registry.get("iceberg"), ["Ann", "Bob"], {}, 0)
        second, _ = games.create(db, registry.get("iceberg"), [CYRILLIC_ANN, "BOB", FULL_WIDTH_ANN], {}, 0,
                                 group=kernel.group_of(db, first))
        elsewhere, _ = games.create(db, registry.get("iceberg"), [CYRILLIC_ANN, "Zed"], {}, 0)  # another group
    assert sorted(p.name for p in players.everyone(db, EVERY_GAME)) == sorted(
        ["Ann", "Bob", CYRILLIC_ANN, FULL_WIDTH_ANN, CYRILLIC_ANN, "Zed"])
    db.close()

    create_app({"DATABASE": path, "SECRET_KEY": "x", "TESTING": True})  # upgrades it
    db = connect(path)
    assert "m010_names_that_look_alike" in [m.name for m in migrations.applied(db)]
    assert sorted(p.name for p in players.everyone(db, EVERY_GAME)) == sorted(
        ["Ann", "Bob", f"{CYRILLIC_ANN} (2)", f"{FULL_WIDTH_ANN} (3)", CYRILLIC_ANN, "Zed"])
    everyone = {p.name: p for p in players.everyone(db, EVERY_GAME) if kernel.group_of(db, first) in
                {kernel.group_of(db, g) for g in players.game_ids(db, p.id, EVERY_GAME)}}
    assert players.game_ids(db, everyone["Bob"].id, EVERY_GAME) == [first, second]
    assert players.game_ids(db, everyone[f"{CYRILLIC_ANN} (2)"].id, EVERY_GAME) == [second]
    assert kernel.header(db, second)["players"] == [CYRILLIC_ANN, "BOB", FULL_WIDTH_ANN]  # as played
    third, _ = games.create(db, registry.get("iceberg"), [FULL_WIDTH_ANN, "Zoe"], {}, 0,
                            group=kernel.group_of(db, first))
    assert players.game_ids(db, everyone["Ann"].id, EVERY_GAME) == [first, third]
