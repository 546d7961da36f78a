"""Groups: the people who play together (web/links.py, views/games.py, views/players.py).

Every route of a group's link, a game started or imported into a group, players and
names within a group (two groups' Kims, a name probe that says nothing about another
group), imports into a group, and a form's key that is this phone's, for one kind of
change, with one length limit on every route that takes one."""
from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from db_dump import dump
from page_text import shown

from scorekeeper.storage import kernel
from scorekeeper.storage.kernel import REQUEST_ID_LONGEST


def text(response):
    return response.get_data(as_text=True)


def start(client, names, path="/games", **more):
    """A game started through the new-game form; (its id, its edit key)."""
    data = {"variant": "gin", "first_dealer": "0", **{f"seat_{i}": n for i, n in enumerate(names)}, **more}
    response = client.post(path, data=data)
    assert response.status_code == 303, text(response)[-2000:]
    key = re.search(r"/g/([^/?]+)", response.headers["Location"]).group(1)
    return int(key.split("-")[0]), key


def group_keys(db, game_id):
    group = kernel.group_of(db, game_id)
    edit, view = kernel.group_secrets(db, group)
    return f"{group}-{edit}", f"{group}-{view}"


def player_id(db, game_id, seat=0):
    return db.execute("SELECT player FROM seats WHERE game = ? AND seat = ?", [game_id, seat]).fetchone()[0]


GIN = {"format": "scorekeeper/1", "variant": "gin", "players": ["Kim", "Lee"], "rounds": [{"stalemate": True}]}


def upload(client, doc, path="/games/import"):
    return client.post(path, data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                       content_type="multipart/form-data")


# -- a group and its links -----------------------------------------------------------------

def test_a_phone_with_no_group_starts_one_and_holds_its_links(client, db):
    game, _key = start(client, ["Kim", "Lee"])
    edit, view = group_keys(db, game)
    history = text(client.get("/games"))
    assert f"/group/{edit}" in history  # this phone's group, from its history
    page = text(client.get(f"/group/{edit}"))
    assert f'data-game="{game}"' in page
    assert page.count('class="qr"') == 2 and f"/group/{edit}" in page and f"/group/{view}" in page
    assert 'data-share="group-edit"' in page and 'data-share="group-view"' in page
    summary = text(client.get(f"/g/{_key}", follow_redirects=True))
    assert f"/group/{edit}" in summary  # the game page leads to its group


def test_a_group_is_named_on_its_page_and_called_so_where_it_is_linked(app, client, db):
    game, _key = start(client, ["Kim", "Lee"])
    edit, view = group_keys(db, game)
    assert '<h1 data-group-name>Group</h1>' in text(client.get(f"/group/{edit}"))
    response = client.post(f"/group/{edit}/name", data={"name": "  Thursday   club "})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/group/{edit}")
    page = text(client.get(response.headers["Location"]))
    assert '<h1 data-group-name>Thursday club</h1>' in page and "This group is called Thursday club." in page
    assert "<title>Thursday club" in page  # the browser's tab says it too
    assert "Thursday club: its games, players and links to share" in text(client.get("/games"))
    game_page = text(client.get(f"/g/{_key}", follow_redirects=True))
    assert "This game's group, Thursday club: its games, players and links to share" in game_page
    assert '<h1 data-group-name>Thursday club</h1>' in text(app.test_client().get(f"/group/{view}"))
    # The read-only link names nothing (403); a name too long or invisible is refused, said.
    assert app.test_client().post(f"/group/{view}/name", data={"name": "Spies"}).status_code == 403
    refused = client.post(f"/group/{edit}/name", data={"name": "x" * 41})
    assert refused.status_code == 422 and "keep names to 40 letters" in text(refused)
    refused = client.post(f"/group/{edit}/name", data={"name": "Club\u200b"})
    assert refused.status_code == 422 and "invisible character" in text(refused)
    assert 'value="Club' in text(refused)  # the name as typed, to mend
    assert kernel.group_names(db, [kernel.group_of(db, game)]) == {kernel.group_of(db, game): "Thursday club"}
    # Measured as kept: spaces around and between the words are not counted.
    assert client.post(f"/group/{edit}/name", data={"name": " " * 30 + "Thursday  club"}).status_code == 303
    # Emptied: no name, called by its number again.
    client.post(f"/group/{edit}/name", data={"name": " "})
    assert '<h1 data-group-name>Group</h1>' in text(client.get(f"/group/{edit}"))


def test_a_groups_links_open_its_history_players_statistics_and_new_game_form(app, client, db):
    game, _key = start(client, ["Kim", "Lee"])
    edit, view = group_keys(db, game)
    friend = app.test_client()  # another phone, given the group's edit link
    assert friend.get(f"/group/{edit}").status_code == 200
    assert f'data-game="{game}"' in text(friend.get(f"/group/{edit}"))
    players = text(friend.get(f"/group/{edit}/players"))
    assert "<strong>Kim</strong>" in players and "<strong>Lee</strong>" in players
    kim = player_id(db, game)
    assert "data-rename" in text(friend.get(f"/group/{edit}/players/{kim}"))
    assert friend.get(f"/group/{edit}/players/head-to-head").status_code == 200
    assert 'action="/group/' in text(friend.get(f"/group/{edit}/games/new"))
    second, _ = start(friend, ["kim", "Max"], f"/group/{edit}/games")
    assert kernel.group_of(db, second) == kernel.group_of(db, game)
    assert player_id(db, second) == kim  # the group's Kim, matched without case
    assert f'data-game="{second}"' in text(client.get(f"/group/{edit}"))  # in the group's history
    assert friend.get(f"/group/{edit}/games/import").status_code == 200
    # The read-only link: the same pages, no change.
    watcher = app.test_client()
    assert f'data-game="{second}"' in text(watcher.get(f"/group/{view}"))
    watched = text(watcher.get(f"/group/{view}"))
    assert 'data-share="group-edit"' not in watched and "data-import" not in watched
    assert 'href="/games/new"' in watched and f"/group/{view}/games" not in watched  # its own new game
    before = dump(app.config["DATABASE"])
    assert watcher.get(f"/group/{view}/games/new").status_code == 403
    assert watcher.get(f"/group/{view}/games/import").status_code == 403
    assert watcher.post(f"/group/{view}/games", data={"seat_0": "A", "seat_1": "B"}).status_code == 403
    assert upload(watcher, GIN, f"/group/{view}/games/import").status_code == 403
    assert watcher.post(f"/group/{view}/players/{kim}/rename", data={"name": "Kit"}).status_code == 403
    assert watcher.post(f"/group/{view}/players/{kim}/merge", data={"into": "2", "sure": "y"}).status_code == 403
    assert dump(app.config["DATABASE"]) == before


@pytest.mark.parametrize("path", ["", "/players", "/players/1", "/players/head-to-head", "/games/new",
                                  "/games/import"])
def test_a_group_key_that_opens_nothing_is_404(client, db, path):
    game, _key = start(client, ["Kim", "Lee"])
    edit, _view = group_keys(db, game)
    group = edit.split("-")[0]
    for key in (f"{group}-madeup", f"{group}", "0-x", f"{2**64}-x", f"{int(group) + 1}-{edit.split('-', 1)[1]}"):
        assert client.get(f"/group/{key}{path}").status_code == 404, key


def test_a_game_started_from_no_groups_page_joins_the_phones_group(client, db):
    first, _ = start(client, ["Kim", "Lee"])
    second, _ = start(client, ["Kim", "Max"])
    assert kernel.group_of(db, first) == kernel.group_of(db, second)
    assert player_id(db, first) == player_id(db, second)


# -- players within a group ----------------------------------------------------------------

def test_two_groups_each_with_a_kim_rename_independently(app, db):
    ours, theirs = app.test_client(), app.test_client()
    our_game, _ = start(ours, ["Kim", "Lee"])
    their_game, _ = start(theirs, ["Kim", "Ola"])
    assert kernel.group_of(db, our_game) != kernel.group_of(db, their_game)
    our_kim, their_kim = player_id(db, our_game), player_id(db, their_game)
    assert our_kim != their_kim
    response = ours.post(f"/players/{our_kim}/rename", data={"name": "Kimberly", "expected": "Kim"})
    assert response.status_code == 303
    response = theirs.post(f"/players/{their_kim}/rename", data={"name": "Kimi", "expected": "Kim"})
    assert response.status_code == 303
    assert kernel.header(db, our_game)["players"] == ["Kimberly", "Lee"]
    assert kernel.header(db, their_game)["players"] == ["Kimi", "Ola"]
    # Neither phone may rename the other group's Kim, nor see them.
    assert ours.get(f"/players/{their_kim}").status_code == 404
    assert ours.post(f"/players/{their_kim}/rename", data={"name": "X", "expected": "Kimi"}).status_code == 404


def test_a_name_probe_answers_nothing_about_other_groups(app, db):
    ours, theirs = app.test_client(), app.test_client()
    our_game, _ = start(ours, ["Kim", "Lee"])
    start(theirs, ["Zara", "Ola"])
    lee = player_id(db, our_game, 1)
    # A name another group uses is as free as one no one uses.
    taken = ours.post(f"/players/{lee}/rename", data={"name": "zara", "expected": "Lee"})
    assert taken.status_code == 303
    page = unescape(shown(ours.get(taken.headers["Location"])))
    assert "Renamed to zara in 1 game." in page and "Zara" not in page.replace("zara", "")
    free = ours.post(f"/players/{lee}/rename", data={"name": "Nobody Else", "expected": "zara"})
    assert free.status_code == 303
    # Only a name of the same group is taken, and said so.
    same = ours.post(f"/players/{lee}/rename", data={"name": "KIM", "expected": "Nobody Else"})
    assert same.status_code == 422
    assert "There is already a player called Kim." in unescape(text(same))
    assert "on this server" not in unescape(text(same))


def test_statistics_and_head_to_head_stay_within_the_group(app, db):
    ours, theirs = app.test_client(), app.test_client()
    start(ours, ["Kim", "Lee"])
    their_game, _ = start(theirs, ["Kim", "Ola"])
    their_edit, _view = group_keys(db, their_game)
    ours.get(f"/group/{their_edit}")  # this phone now holds both groups
    edit, _ = group_keys(db, 1)
    h2h = shown(ours.get(f"/group/{edit}/players/head-to-head"))
    assert "Ola" not in h2h and "Lee" in h2h
    assert "Ola" not in shown(ours.get(f"/group/{edit}/players"))
    kim = player_id(db, 1)
    page = text(ours.get(f"/group/{edit}/players/{kim}"))
    options = re.findall(r'<option value="(\d+)"', page)
    assert options == [str(player_id(db, 1, 1))]  # a merge only into a player of the group
    assert ours.get(f"/group/{edit}/players/{player_id(db, their_game, 1)}").status_code == 404


# -- imports go into a group ---------------------------------------------------------------

def test_the_same_file_twice_in_one_group_is_one_game(app, client, db):
    first = upload(client, GIN)
    assert first.status_code == 303
    before = dump(app.config["DATABASE"])
    again = upload(client, GIN)
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    assert "imported already" in text(client.get(again.headers["Location"], follow_redirects=True))
    assert dump(app.config["DATABASE"]) == before
    edit, _view = group_keys(db, 1)
    friend = app.test_client()  # through the group's link: the same group, the same game
    through = upload(friend, GIN, f"/group/{edit}/games/import")
    assert through.status_code == 303 and "/g/1-" in through.headers["Location"]
    assert dump(app.config["DATABASE"]) == before


def test_the_same_file_in_another_group_is_another_game_never_a_redirect_to_theirs(app, client, db):
    first = upload(client, GIN)
    stranger = app.test_client()  # holds no link: its own group, its own game
    own = upload(stranger, GIN)
    assert own.status_code == 303 and own.headers["Location"] != first.headers["Location"]
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    mine, theirs = (int(re.search(r"/g/(\d+)-", r.headers["Location"]).group(1)) for r in (own, first))
    assert kernel.group_of(db, mine) != kernel.group_of(db, theirs)
    history = text(stranger.get("/games"))
    assert f'data-game="{theirs}"' not in history and f'data-game="{mine}"' in history
    assert "imported already" not in text(stranger.get(own.headers["Location"]))


# -- a form's key: this phone's, one kind of change, one length limit -----------------------

def test_the_new_game_forms_key_from_another_phone_is_another_game(app, client, db):
    start(client, ["Kim", "Lee"], request_id="same")
    stranger = app.test_client()
    game, key = start(stranger, ["Kim", "Lee"], request_id="same")
    assert game == 2 and kernel.group_of(db, 2) != kernel.group_of(db, 1)
    assert "Already saved" not in text(stranger.get(f"/g/{key}/counted"))
    edit, _view = group_keys(db, 1)  # nor through the first phone's group
    third, _ = start(stranger, ["Kim", "Lee"], f"/group/{edit}/games", request_id="same")
    assert third == 3


def test_a_rename_with_a_key_a_play_used_is_done(client, db):
    game, key = start(client, ["Kim", "Lee"])
    response = client.post(f"/g/{key}/counted/round", data={"round_no": "1", "ended": "stalemate", "save": "1",
                                                            "request_id": "k"})
    assert response.status_code == 303
    kim = player_id(db, game)
    renamed = client.post(f"/players/{kim}/rename", data={"name": "Kit", "expected": "Kim", "request_id": "k"})
    assert renamed.status_code == 303 and kernel.header(db, game)["players"] == ["Kit", "Lee"]


def _routes(client, db):
    """Every kind of route that takes a form's key, with a form it would act on."""
    game, key = start(client, ["Kim", "Lee"])
    edit, _view = group_keys(db, game)
    kim = player_id(db, game)
    other, _ = start(client, ["Ann", "Bob"])
    ice = client.post("/games", data={"variant": "iceberg", "first_dealer": "0", "seat_0": "Kim",
                                      "seat_1": "Lee", "seat_2": "Max"})
    ice_key = re.search(r"/g/([^/]+)/table", ice.headers["Location"]).group(1)
    client.post(f"/g/{ice_key}/plays", data={"player": "Lee", "cards": ["S7", "S8", "S9"], "meld": "",
                                             "confirm": "1"})
    play = db.execute("SELECT max(id) FROM plays").fetchone()[0]
    return [
        ("/games", {"variant": "gin", "seat_0": "A", "seat_1": "B", "first_dealer": "0"}),
        (f"/group/{edit}/games", {"variant": "gin", "seat_0": "A", "seat_1": "B", "first_dealer": "0"}),
        (f"/g/{ice_key}/plays", {"player": "Lee", "cards": ["H7", "H8", "H9"], "meld": "", "confirm": "1"}),
        (f"/g/{ice_key}/pass", {}),
        (f"/g/{ice_key}/undo", {}),
        (f"/g/{ice_key}/plays/{play}/delete", {"revision": "0"}),
        (f"/g/{ice_key}/aces", {"player": "Lee", "card": "SA"}),
        (f"/g/{key}/counted/round", {"round_no": "1", "ended": "stalemate", "save": "1"}),
        (f"/players/{kim}/rename", {"name": "Kit", "expected": "Kim"}),
        (f"/group/{edit}/players/{kim}/rename", {"name": "Kit", "expected": "Kim"}),
        (f"/players/{player_id(db, other)}/merge", {"into": str(player_id(db, 3, 2)), "sure": "y"}),
    ]


def test_one_length_limit_on_every_route_that_takes_a_key(app, client, db):
    routes = _routes(client, db)
    before = dump(app.config["DATABASE"])
    for path, form in routes:
        response = client.post(path, data={**form, "request_id": "x" * (REQUEST_ID_LONGEST + 1)})
        assert 400 <= response.status_code < 500, (path, response.status_code)
        assert (f"This form's key is longer than {REQUEST_ID_LONGEST} characters: nothing was saved."
                in unescape(text(response))), path
        assert dump(app.config["DATABASE"]) == before, path
    for path, form in routes:  # the longest key a route takes is taken
        response = client.post(path, data={**form, "request_id": "y" * REQUEST_ID_LONGEST})
        assert response.status_code == 303, (path, text(response)[-1500:])


def test_a_merge_through_the_groups_edit_link(app, db):
    table = app.test_client()
    one, _ = start(table, ["Annie", "Lee"])
    two, _ = start(table, ["Ann", "Lee"])
    edit, _view = group_keys(db, one)
    friend = app.test_client()  # holds the group's edit link and no game's
    annie, ann = player_id(db, one), player_id(db, two)
    merged = friend.post(f"/group/{edit}/players/{annie}/merge", data={"into": str(ann), "sure": "y"})
    assert merged.status_code == 303 and merged.headers["Location"] == f"/group/{edit}/players/{ann}"
    assert kernel.header(db, one)["players"] == ["Ann", "Lee"]


def test_the_same_key_in_another_game_or_on_another_play_is_never_dropped(client, db):
    _one, first = start(client, ["Kim", "Lee"])
    _two, second = start(client, ["Kim", "Max"])
    for key in (first, second):  # the same form, the same key, two games: two rounds
        response = client.post(f"/g/{key}/counted/round", data={"round_no": "1", "ended": "stalemate",
                                                                "save": "1", "request_id": "k"})
        assert response.status_code == 303
        assert "Already saved" not in text(client.get(response.headers["Location"]))
    assert db.execute("SELECT count(*) FROM round_results").fetchone()[0] == 2
    ice = client.post("/games", data={"variant": "iceberg", "first_dealer": "0", "seat_0": "Kim",
                                      "seat_1": "Lee"})
    ice_key = re.search(r"/g/([^/]+)/table", ice.headers["Location"]).group(1)
    for cards in (["S7", "S8", "S9"], ["H7", "H8", "H9"]):  # two plays of one game, one key
        response = client.post(f"/g/{ice_key}/plays", data={"player": "Lee", "cards": cards, "meld": "",
                                                            "confirm": "1", "request_id": "k"})
        assert response.status_code == 303
    assert db.execute("SELECT count(*) FROM plays WHERE type = 'meld'").fetchone()[0] == 2
