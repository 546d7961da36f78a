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
