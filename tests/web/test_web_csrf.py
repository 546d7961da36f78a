"""Every POST needs a valid CSRF token: without one it gets 400 and nothing is saved."""
import re

import pytest

from scorekeeper import create_app


@pytest.fixture
def csrf_app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test",
                       "WTF_CSRF_ENABLED": True})


def token(client, path):
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html).group(1)


def test_new_game_with_a_token_works_and_without_one_is_400(csrf_app):
    client = csrf_app.test_client()
    data = {"seat_0": "A", "seat_1": "B"}
    refused = client.post("/games", data=data)
    assert refused.status_code == 400
    assert "nothing was saved" in refused.get_data(as_text=True)
    data["csrf_token"] = token(client, "/games/new")
    assert client.post("/games", data=data).status_code == 303


POSTS = ["/pass", "/plays", "/aces", "/out", "/undo", "/plays/1", "/plays/1/delete", "/hands", "/end"]


@pytest.mark.parametrize("path", POSTS)
def test_every_table_post_without_a_token_is_400(csrf_app, path):
    client = csrf_app.test_client()
    data = {"seat_0": "A", "seat_1": "B", "first_dealer": "1", "csrf_token": token(client, "/games/new")}
    created = client.post("/games", data=data)
    assert created.status_code == 303
    game = created.headers["Location"].removesuffix("/table")
    path = game + path
    good = token(client, game + "/table")
    assert client.post(game + "/plays", data={"player": "A", "cards": ["S2", "H2"], "confirm": "1",
                                              "csrf_token": good}).status_code == 303
    form = {"player": "A", "cards": ["S3", "H3"], "card": "SA", "round_no": "1", "confirm": "1", "save": "1"}
    assert client.post(path, data=form).status_code == 400
    assert client.post(path, data=form, headers={"X-CSRFToken": "forged"}).status_code == 400
    html = client.get(game + "/table").get_data(as_text=True)
    assert html.count("data-play=") == 1  # nothing saved


def test_fetch_style_header_token_is_accepted(csrf_app):
    client = csrf_app.test_client()
    good = token(client, "/games/new")
    response = client.post("/games", data={"seat_0": "A", "seat_1": "B"}, headers={"X-CSRFToken": good})
    assert response.status_code == 303
