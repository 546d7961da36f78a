"""What the route fuzz (test_web_fuzz_routes.py, test_web_fuzz_inputs.py) found, each
kept as a plain test: the request, and the answer it gets now (it was a server error,
or a refusal that had changed the database)."""
from __future__ import annotations

import io
import re

import pytest
from db_dump import dump
from web_table import seed_round


def database(client) -> str:
    return client.application.config["DATABASE"]


def text(response) -> str:
    return response.get_data(as_text=True)


@pytest.fixture
def game(client, table):
    """An Iceberg game at its second round, this phone holding its edit link."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    return table


# ---------------------------------------------------------------------------------------
# A JSON body, or a file where a text field goes: the pages send neither.

DEEP = "[" * 100_000 + "]" * 100_000
NOT_OBJECTS = ['"player"', "[1, 2]", '[["player", "C"]]', "5", "true", "null", DEEP, '{"player": ' + DEEP + "}"]


@pytest.mark.parametrize("body", NOT_OBJECTS, ids=["text", "list", "pairs", "number", "true", "null", "deep",
                                                   "deep-field"])
def test_a_json_body_on_any_form_is_an_empty_form_refused_with_nothing_saved(client, game, body):
    """Flask-WTF read a JSON body as the form: one that is no object failed inside it
    (ValueError, TypeError) and one nested deeper than Python's JSON reader goes raised
    RecursionError, a server error on every form of the app. Now it is answered as an
    empty form is (the round end's forms, mid-round, send the phone to the table)."""
    before = dump(database(client))
    player = re.search(r"/players/(\d+)", text(client.get("/players"))).group(1)
    for path, status in (("/games", 422), (game.url + "/plays", 422), (game.url + "/aces", 422),
                         (game.url + "/out", 422), (game.url + "/hands", 303), (game.url + "/end", 303),
                         ("/games/import", 422), (f"/players/{player}/rename", 422)):
        assert client.post(path, data={}).status_code == status, path
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == status, (path, response.status_code)
        assert dump(database(client)) == before


def test_a_json_object_is_not_read_as_a_form(client, game):
    """A JSON object was read as the form's fields; no page sends one, so none is acted on."""
    before = dump(database(client))
    response = client.post(game.url + "/aces", json={"player": "B", "card": "SA"})
    assert response.status_code == 422 and "Who plays" in text(response)
    assert dump(database(client)) == before


@pytest.mark.parametrize("field", ["request_id", "player", "card"])
def test_a_file_sent_for_a_text_field_is_no_value(client, game, field):
    """Multipart files were read as the form's fields: a file for a field with a Length
    check (every form's request id, a name) failed in the check (TypeError)."""
    before = dump(database(client))
    data = {"player": "B", "card": "SA", "request_id": "r1"}
    data[field] = (io.BytesIO(b"SA"), "SA.txt")
    response = client.post(game.url + "/aces", data=data, content_type="multipart/form-data")
    if field == "request_id":  # the file is no request id: the ace is logged without one
        assert response.status_code == 303
    else:
        assert response.status_code == 422
        assert dump(database(client)) == before


def test_a_file_for_a_new_name_or_a_seat_is_no_name(client, game):
    before = dump(database(client))
    player = re.search(r"/players/(\d+)", text(client.get("/players"))).group(1)
    renamed = client.post(f"/players/{player}/rename", data={"name": (io.BytesIO(b"Zed"), "Zed")},
                          content_type="multipart/form-data")
    assert renamed.status_code == 422 and "A player needs a name" in text(renamed)
    made = client.post("/games", data={"seat_0": (io.BytesIO(b"Ann"), "Ann"), "seat_1": "Bob"},
                       content_type="multipart/form-data")
    assert made.status_code == 422
    assert dump(database(client)) == before


def test_the_import_still_takes_its_file_and_nothing_else_as_a_file(client):
    from pathlib import Path
    body = (Path(__file__).resolve().parents[2] / "examples" / "rummy-basic.json").read_bytes()
    response = client.post("/games/import", data={"game_file": (io.BytesIO(body), "g.json"),
                                                  "upload": (io.BytesIO(b"1"), "x")},
                           content_type="multipart/form-data")
    assert response.status_code == 303


# ---------------------------------------------------------------------------------------
# A form of one family of pages posted on a game another family shows.


def counted_game(client) -> str:
    made = client.post("/games", data={"variant": "rummy", "seat_0": "A", "seat_1": "B", "first_dealer": "0"})
    return re.search(r"/g/([^/]+)/", made.headers["Location"]).group(1)


def robber_game(client) -> str:
    made = client.post("/games", data={"variant": "robber", "seat_0": "A", "seat_1": "B", "first_dealer": "0"})
    key = re.search(r"/g/([^/]+)/", made.headers["Location"]).group(1)
    assert client.post(f"/g/{key}/robber/play", data={"player": "B", "action": "play",
                                                      "cards": ["H4", "S4", "C4"]}).status_code == 303
    return key


@pytest.mark.parametrize("path,data", [
    ("/aces", {"player": "A", "card": "SA"}), ("/pass", {}), ("/undo", {}), ("/out", {"player": "A"}),
    ("/plays", {"player": "A", "cards": ["S2", "S3", "S4"], "confirm": "1"}), ("/plays/1/delete", {}),
    ("/robber/pass", {}), ("/robber/undo", {}), ("/robber/play", {"player": "A", "action": "out"}),
    ("/robber/plays/1/delete", {}),
])
def test_a_table_form_on_a_counted_game_is_refused(client, path, data):
    """The log stores raised ValueError for a game of counted rounds: a server error."""
    key = counted_game(client)
    before = dump(database(client))
    response = client.post(f"/g/{key}{path}", data=data)
    assert response.status_code == 409 and "Nothing was saved" in text(response)
    assert dump(database(client)) == before


@pytest.mark.parametrize("path,data", [
    ("/pass", {}), ("/undo", {}), ("/plays", {"player": "A", "cards": ["D5", "D6", "D7"], "confirm": "1"}),
    ("/counted/rounds/1/delete", {"sure": "y"}),
])
def test_another_familys_form_on_a_robber_game_changes_nothing(client, path, data):
    """Iceberg's forms acted on a Robber game: the turn passed, a play was logged, and its
    undo took the play back and then answered 409 "Nothing was saved" (its page was
    drawn as Iceberg's). A counted game's delete raised ValueError."""
    key = robber_game(client)
    before = dump(database(client))
    response = client.post(f"/g/{key}{path}", data=data)
    assert response.status_code == 409
    assert dump(database(client)) == before


@pytest.mark.parametrize("path,data", [
    ("/robber/pass", {}), ("/robber/play", {"player": "C", "action": "play", "cards": ["H4", "H5", "H6"]}),
    ("/counted/rounds/1/delete", {"sure": "y"}),
    ("/counted/round", {"round_no": "1", "ended": "p0", "save": "1"}),
])
def test_another_familys_form_on_an_iceberg_game_changes_nothing(client, game, path, data):
    """Robber's pass passed an Iceberg game's turn; its play failed after logging the
    meld (AttributeError); the counted delete raised ValueError."""
    before = dump(database(client))
    response = client.post(game.url + path, data=data)
    assert response.status_code == 409
    assert dump(database(client)) == before


def test_a_page_of_another_family_still_leads_to_the_games_own(client, game):
    response = client.get(game.url + "/robber")
    assert response.status_code == 303 and response.headers["Location"].endswith(game.url + "/table")
