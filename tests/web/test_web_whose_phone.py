"""Whose phone it is at a game (issue 24, item 5; views/games.py whose_phone): said once
beside "Who plays", kept for that phone and game by seat, changed in one tap."""
from __future__ import annotations

import re

import pytest
from db_dump import dump


def checked(html: str) -> str:
    return re.search(r'name="player" value="([^"]+)" checked', html).group(1)


@pytest.fixture
def game(table):
    table.new_game(["A", "B", "C"], dealer=2)  # A's turn
    return table


def test_a_phone_that_has_not_said_is_asked_and_plays_whose_turn_it_is(game):
    html = game.page()
    assert re.search(r'<a class="whose" href="[^"]+/phone">Whose phone is this\?</a>', html)
    assert checked(html) == "A" and "data-me=" not in html
    page = game.client.get(f"{game.url}/phone").get_data(as_text=True)
    assert [b for b in re.findall(r'<button name="seat" value="(\w+)"', page)] == ["1", "2", "3", "table"]
    assert "B’s phone" in page and "A phone for the whole table" in page


def test_a_player_s_phone_chooses_that_player_whoever_s_turn_it_is(game, client):
    answer = game.client.post(f"{game.url}/phone", data={"seat": "2"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/table")
    html = game.page()
    assert checked(html) == "B" and 'data-me="B"' in html and ">B’s phone</a>" in html
    assert 'aria-current="true">B’s phone' in game.client.get(f"{game.url}/phone").get_data(as_text=True)
    # The preview says whose play it is.
    preview = game.client.get(f"{game.url}/preview?player=B&cards=S7&cards=S8&cards=S9").get_data(as_text=True)
    assert '<span class="pl">B:</span>' in preview
    # Another phone has not said.
    other = client.application.test_client()
    assert "Whose phone is this?" in other.get(f"{game.url}/table").get_data(as_text=True)


def test_the_table_s_phone_chooses_whose_turn_it_is(game):
    game.client.post(f"{game.url}/phone", data={"seat": "2"})
    game.client.post(f"{game.url}/phone", data={"seat": "table"})
    html = game.page()
    assert checked(html) == "A" and "data-me=" not in html and ">The table’s phone</a>" in html
    game.pass_turn()
    assert checked(game.page()) == "B"


def test_a_player_renamed_keeps_their_phone(game, client, db):
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    game.client.post(f"{game.url}/phone", data={"seat": "2"})
    b = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "B")
    assert client.post(f"/players/{b}/rename", data={"name": "Bea", "expected": "B"}).status_code == 303
    assert 'data-me="Bea"' in game.page()


@pytest.mark.parametrize("seat", ["0", "4", "-1", "x", "", "2\n", "²"])
def test_a_seat_that_is_not_one_is_refused_and_nothing_changes(game, seat):
    answer = game.client.post(f"{game.url}/phone", data={"seat": seat})
    assert answer.status_code == 422
    assert "Choose one of the players, or the whole table." in answer.get_data(as_text=True)
    assert "Whose phone is this?" in game.page()


def test_the_read_only_link_has_no_phone_to_say(game, client, app):
    html = game.client.get(game.url).get_data(as_text=True)
    view = re.search(r'value="([^"]+)" data-link="view"', html).group(1)
    view = view.removeprefix("http://localhost").removesuffix("/table")
    before = dump(app.config["DATABASE"])
    assert client.post(f"{view}/phone", data={"seat": "1"}).status_code == 403
    assert "whose" not in client.get(f"{view}/table").get_data(as_text=True)
    assert dump(app.config["DATABASE"]) == before
