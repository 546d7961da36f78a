"""Players across games (views/players.py): every route, renames and merges that every
past game follows, what a phone sees and may change (the games it holds links to),
refusals in plain words, escaping, CSRF, the score sheet, history filters."""
from __future__ import annotations

import json
import re
from html import unescape

import pytest
from db_dump import dump
from games_data import GIN_ANN_WINS
from page_text import shown

from scorekeeper import create_app
from scorekeeper.storage import games, kernel, players
from scorekeeper.storage.db import connect
from scorekeeper.storage.players import EVERY_GAME
from tests.conftest import EXAMPLES

XSS = "<script>alert(1)</script>"


def finished_seed(seed_example, names=("A", "B", "C")):
    """The seed example with target 50: A's 100 wins it. Names swapped in if asked."""
    # ensure_ascii=False: the placeholders must stay "§A" in the text to be found again.
    doc = json.loads(json.dumps(seed_example).replace('"A"', '"§A"').replace('"B"', '"§B"').replace('"C"', '"§C"'))
    for old, new in zip(("§A", "§B", "§C"), names):
        doc = json.loads(json.dumps(doc, ensure_ascii=False).replace(f'"{old}"', json.dumps(new)))
    doc["rules"] = {"target": 50}
    return doc


def gin_example(names=("A", "B")):
    text = (EXAMPLES / "gin-knock.json").read_text()
    doc = json.loads(text.replace('"A"', '"§A"').replace('"B"', '"§B"'))
    text = json.dumps(doc, ensure_ascii=False)
    return json.loads(text.replace('"§A"', json.dumps(names[0])).replace('"§B"', json.dumps(names[1])))


def pid(db, name):
    return next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == name)


def grouped(db, doc):
    """A game imported into the group of the database's first game (the people who play
    together at this test's table), or into a new group if there is no game yet."""
    first = db.execute("SELECT group_id FROM games ORDER BY id LIMIT 1").fetchone()
    return games.import_document(db, doc, first[0] if first else None)


def open_game(client, db, game_id, access="edit"):
    """This phone opens a game through its link (so its history knows it); with the edit
    link, also its group's edit link (what a rename or a merge needs)."""
    edit, view = kernel.secrets_of(db, game_id)
    key = f"{game_id}-{edit if access == 'edit' else view}"
    assert client.get(f"/g/{key}").status_code in (200, 302, 303)
    if access == "edit":
        open_group(client, db, game_id)
    return key


def open_group(client, db, game_id, access="edit"):
    """This phone opens the link of a game's group; the group's key."""
    group = kernel.group_of(db, game_id)
    edit, view = kernel.group_secrets(db, group)
    key = f"{group}-{edit if access == 'edit' else view}"
    assert client.get(f"/group/{key}").status_code == 200
    return key


def text(response):
    return response.get_data(as_text=True)


# -- starting a game offers the people who played before --------------------------------

def test_new_game_offers_everyone_who_played_before(client, table, db):
    table.new_game(["Ann", "Bob"])
    html = text(client.get("/games/new"))
    assert 'list="known-players"' in html
    options = re.findall(r'<option value="([^"]*)">', html.split("data-known-players")[1])
    assert sorted(options) == ["Ann", "Bob"]
    assert 'data-pick-name="Ann"' in html and "data-quick-pick hidden" in html  # shown by the script


@pytest.mark.parametrize("variant, seats", [("iceberg", ["ANN ", "cy"]), ("gin", ["ann", "Cy"]),
                                            ("rummy", ["Ann", "bob", "Cy"])])
def test_a_new_game_seats_the_same_people_matched_case_insensitively(client, table, db, variant, seats):
    table.new_game(["Ann", "Bob"])
    data = {"variant": variant, "first_dealer": "0", **{f"seat_{i}": n for i, n in enumerate(seats)}}
    response = client.post("/games", data=data)
    assert response.status_code == 303, text(response)
    names = {p.name: p.games for p in players.everyone(db, EVERY_GAME)}
    assert names["Ann"] == 2 and ("Bob" not in seats[1:] or names["Bob"] == 2)
    assert len(names) == 3  # Ann, Bob and Cy: no second Ann


def test_imported_games_get_their_players_too(client, db, seed_example):
    grouped(db, finished_seed(seed_example))
    grouped(db, gin_example())
    assert {p.name: p.games for p in players.everyone(db, EVERY_GAME)} == {"A": 2, "B": 2, "C": 1}


def test_an_import_seats_its_players_in_its_own_transaction(db, seed_example):
    """Every variant's import seats its people at once: reading the players writes nothing."""
    grouped(db, finished_seed(seed_example))
    grouped(db, gin_example())
    seats = db.execute("SELECT game, seat FROM seats ORDER BY game, seat").fetchall()
    assert seats == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]


# -- the pages ------------------------------------------------------------------------

def test_players_page_and_a_players_figures(client, db, seed_example):
    iceberg = grouped(db, finished_seed(seed_example))  # A wins with 100; C −20, B −120
    gin = grouped(db, gin_example())  # A knocks: in progress
    open_game(client, db, iceberg, "view")
    open_game(client, db, gin, "view")
    html = text(client.get("/players"))
    assert "Only the games this phone holds a link to count here" in html
    for name in ("A", "B", "C"):
        assert f"<strong>{name}</strong>" in html
    page = text(client.get(f"/players/{pid(db, 'A')}"))
    iceberg = re.search(r'<tr data-variant="iceberg">(.*?)</tr>', page).group(1)
    assert re.search(r"data-played>1<", iceberg) and "data-won>1<" in iceberg and "data-rate>100%<" in iceberg
    assert "data-average>100.0<" in iceberg and "data-best>100<" in iceberg
    for language, mean in (("de", "100,0"), ("es", "100,0")):  # as the page's language writes it
        page_in = text(client.get(f"/players/{pid(db, 'A')}", headers={"Accept-Language": language}))
        assert f"data-average>{mean}<" in re.search(r'<tr data-variant="iceberg">(.*?)</tr>', page_in).group(1)
    gin = re.search(r'<tr data-variant="gin">(.*?)</tr>', page).group(1)
    assert "data-played>0 <small data-unfinished>(1 in progress)</small>" in gin and "data-rate>—<" in gin
    assert 'data-record="aces"' in page and re.search(r"Aces collected</dt><dd>1<", page)
    assert re.search(r"Biggest meld</dt><dd>30 points", page)
    assert "data-timeline" in page and page.count('<circle class="mark won"') == 1
    b_page = text(client.get(f"/players/{pid(db, 'B')}"))
    assert re.search(r"Penalties paid for playable cards</dt><dd>80 points", b_page)


def test_a_players_page_links_only_the_games_this_phone_holds(app, client, db, seed_example):
    game_id = grouped(db, finished_seed(seed_example))
    edit, view = kernel.secrets_of(db, game_id)
    stranger = app.test_client()
    response = stranger.get(f"/players/{pid(db, 'A')}")
    page = text(response)
    assert edit not in page and view not in page and "/g/" not in page
    assert response.status_code == 404 and "data-game=" not in page  # a phone with no link sees nothing
    open_game(client, db, game_id, "view")
    page = text(client.get(f"/players/{pid(db, 'A')}"))
    assert f"/g/{game_id}-{view}" in page and edit not in page  # the link this phone has


def test_head_to_head(client, db, seed_example):
    game = grouped(db, finished_seed(seed_example))  # A 100, C −20, B −120: A wins
    open_game(client, db, game, "view")
    html = text(client.get("/players/head-to-head"))
    a, b, c = (pid(db, n) for n in "ABC")

    def cell(x, y):
        return re.search(rf'data-cell="{x}-{y}">([^<]*)<', html).group(1)

    assert (cell(a, b), cell(b, a), cell(c, b), cell(b, c)) == ("1–0", "0–1", "1–0", "0–1")


def test_unknown_player_is_404_everywhere(client):
    assert client.get("/players/99").status_code == 404
    assert client.post("/players/99/rename", data={"name": "X"}).status_code == 404
    assert client.post("/players/99/merge", data={"into": "1"}).status_code == 404


# -- what a phone sees, and who may change it: the games it holds links to -----------------

@pytest.fixture
def two_games(db, seed_example):
    """A played two games: with B and C (Iceberg, 2026-01-02), with Zed (Gin, 2026-03-04)."""
    iceberg = grouped(db, finished_seed(seed_example))
    gin = grouped(db, gin_example(("A", "Zed")))
    db.execute("UPDATE games SET created = '2026-01-02T10:00:00+00:00' WHERE id = ?", [iceberg])
    db.execute("UPDATE games SET created = '2026-03-04T10:00:00+00:00' WHERE id = ?", [gin])
    db.conn.commit()
    return iceberg, gin


def listed_players(html):
    return re.findall(r"<strong>([^<]*)</strong></a>", html.split("data-players")[1]) if "data-players" in html else []


def test_a_phone_with_no_link_sees_no_player(app, db, two_games):
    stranger = app.test_client()
    html = text(stranger.get("/players"))
    assert listed_players(html) == [] and "No players yet" in html
    # A CSRF token is signed with the second it was drawn in: pages a second apart differ
    # there (the forms' hidden field, and the page's own for its script, in the head).
    token = re.compile(r'name="csrf_token" value="[^"]*"|name="csrf-token" content="[^"]*"')
    nobody = token.sub("", text(stranger.get("/players/9999")))
    for name in ("A", "B", "C", "Zed"):
        asked = f"/players/{pid(db, name)}"
        response = stranger.get(asked)
        # The same page as no such player: nothing says that this one exists (only the
        # language switch's way back names the address asked for, as on every page).
        assert f'name="next" value="{asked}">' in text(response)
        page = token.sub("", text(response)).replace(f'value="{asked}"', 'value="/players/9999"')
        assert (response.status_code, page) == (404, nobody)
    h2h = text(stranger.get("/players/head-to-head"))
    assert "data-head-to-head" not in h2h and "data-cell" not in h2h
    assert not any(f">{name}<" in h2h for name in ("A", "B", "C", "Zed"))
    assert 'data-pick-name' not in text(stranger.get("/games/new"))
    datalist = text(stranger.get("/games/new")).split("data-known-players>")[1].split("</datalist>")[0]
    assert "<option" not in datalist


def test_a_phone_sees_only_its_games_and_their_players(client, db, two_games):
    iceberg, gin = two_games
    open_game(client, db, iceberg, "view")
    assert sorted(listed_players(text(client.get("/players")))) == ["A", "B", "C"]
    page = shown(client.get(f"/players/{pid(db, 'A')}"))
    assert re.findall(r'<li data-game="(\d+)"', page) == [str(iceberg)]
    assert 'data-variant="gin"' not in page and "Zed" not in page
    assert "1 game" in text(client.get("/players")).split("<strong>A</strong>")[1].split("</li>")[0]
    assert client.get(f"/players/{pid(db, 'Zed')}").status_code == 404
    h2h = shown(client.get("/players/head-to-head"))
    assert sorted(re.findall(r'<tr data-row="(\d+)"', h2h)) == sorted(str(pid(db, n)) for n in "ABC")
    assert "Zed" not in h2h
    new_game = text(client.get("/games/new"))
    assert sorted(re.findall(r'data-pick-name="([^"]*)"', new_game)) == ["A", "B", "C"]


def test_a_session_key_that_opens_nothing_shows_nothing(app, db, two_games):
    """The session is trusted only as far as its keys open their games today."""
    iceberg, gin = two_games
    edit, view = kernel.secrets_of(db, iceberg)
    stranger = app.test_client()
    with stranger.session_transaction() as session:
        session["games"] = {str(iceberg): [f"{iceberg}-not-the-secret", "edit"],
                            str(gin): [f"{iceberg}-{edit}", "edit"]}  # another game's key
    assert listed_players(text(stranger.get("/players"))) == []
    assert stranger.get(f"/players/{pid(db, 'A')}").status_code == 404
    with stranger.session_transaction() as session:  # a read-only key noted as "edit"
        session["games"] = {str(iceberg): [f"{iceberg}-{view}", "edit"]}
    before = dump(app.config["DATABASE"])
    response = stranger.post(f"/players/{pid(db, 'B')}/rename", data={"name": "Bea", "expected": "B"})
    assert response.status_code == 403 and dump(app.config["DATABASE"]) == before


def test_a_read_only_link_shows_the_players_but_cannot_rename_or_merge(app, client, db, two_games):
    iceberg, gin = two_games
    open_game(client, db, iceberg, "view")
    b = pid(db, "B")
    page = text(client.get(f"/players/{b}"))
    assert "data-rename" not in page and "data-merge" not in page and "data-no-change" in page
    assert "it needs this phone to hold the group's edit link" in unescape(page)
    before = dump(app.config["DATABASE"])
    response = client.post(f"/players/{b}/rename", data={"name": "Bea", "expected": "B"})
    assert response.status_code == 403
    message = unescape(text(response))
    assert ("The name was not changed: Renaming B changes every game B played in their group, so it "
            "needs this phone to hold the group's edit link: open the group's edit link first") in message
    assert "data-rename" not in message
    response = client.post(f"/players/{b}/merge", data={"into": str(pid(db, "C")), "sure": "y"})
    assert response.status_code == 403 and "Nothing was merged: Merging B into another player" in text(response)
    assert dump(app.config["DATABASE"]) == before


def test_a_games_edit_link_is_not_enough_the_groups_is(app, client, db, two_games):
    iceberg, gin = two_games
    edit, _view = kernel.secrets_of(db, iceberg)
    client.get(f"/g/{iceberg}-{edit}")  # the game's edit link, not its group's
    a = pid(db, "A")
    page = text(client.get(f"/players/{a}"))
    assert "data-rename" not in page and "data-merge" not in page
    before = dump(app.config["DATABASE"])
    for action, data, says in (("rename", {"name": "Alice", "expected": "A"}, "The name was not changed"),
                               ("merge", {"into": str(pid(db, "B")), "sure": "y"}, "Nothing was merged")):
        response = client.post(f"/players/{a}/{action}", data=data)
        assert response.status_code == 403, action
        message = unescape(text(response))
        assert f"{says}: " in message and "the group's edit link" in message
        gin_edit, gin_view = kernel.secrets_of(db, gin)  # the game it lacks is not described
        for secret in ("Zed", "Gin Rummy", "2026-03-04", gin_edit, gin_view, f"/g/{gin}-"):
            assert secret not in message, (action, secret)
    assert dump(app.config["DATABASE"]) == before
    open_group(client, db, iceberg)  # the group's edit link: all a rename needs
    response = client.post(f"/players/{a}/rename", data={"name": "Alice", "expected": "A"})
    assert response.status_code == 303
    assert [kernel.header(db, g)["players"][0] for g in two_games] == ["Alice", "Alice"]


def test_the_groups_read_only_link_shows_its_players_but_cannot_rename(app, client, db, two_games):
    iceberg, gin = two_games
    key = open_group(client, db, iceberg, "view")
    assert sorted(listed_players(text(client.get(f"/group/{key}/players")))) == ["A", "B", "C", "Zed"]
    assert "Only this group's games count here." in unescape(text(client.get(f"/group/{key}/players")))
    a = pid(db, "A")
    page = text(client.get(f"/group/{key}/players/{a}"))
    assert "data-rename" not in page and f'/g/{gin}-{kernel.secrets_of(db, gin)[1]}' in page
    before = dump(app.config["DATABASE"])
    assert client.post(f"/group/{key}/players/{a}/rename", data={"name": "Alice", "expected": "A"}).status_code == 403
    assert client.post(f"/players/{a}/rename", data={"name": "Alice", "expected": "A"}).status_code == 403
    assert client.post(f"/group/{key}/games", data={"variant": "gin", "seat_0": "A", "seat_1": "B",
                                                    "first_dealer": "0"}).status_code == 403
    assert client.get(f"/group/{key}/games/new").status_code == 403
    assert dump(app.config["DATABASE"]) == before


def test_a_merge_into_a_player_of_another_group_is_as_into_no_one(app, client, db, two_games):
    iceberg, gin = two_games
    games.import_document(db, gin_example(("Yan", "Xi")))  # another group's game
    open_game(client, db, iceberg, "edit")
    before = dump(app.config["DATABASE"])
    response = client.post(f"/players/{pid(db, 'B')}/merge", data={"into": str(pid(db, "Yan")), "sure": "y"})
    nobody = client.post(f"/players/{pid(db, 'B')}/merge", data={"into": "9999", "sure": "y"})
    assert response.status_code == nobody.status_code == 422

    def error(r):
        return re.search(r'data-error>(.*?)</p>', text(r), re.S).group(1)

    assert error(response) == error(nobody) and "That player is not here any more" in error(response)
    assert "Yan" not in shown(response)
    assert f'<option value="{pid(db, "Yan")}"' not in text(client.get(f"/players/{pid(db, 'B')}"))
    assert dump(app.config["DATABASE"]) == before
    with pytest.raises(kernel.NotFound):  # the store too: two groups' players are never one
        players.merge(db, pid(db, "B"), pid(db, "Yan"), editable=EVERY_GAME)


def test_a_rename_to_the_name_of_someone_in_another_group_is_as_to_a_free_name(app, client, db, two_games):
    iceberg, _gin = two_games
    yan_game = games.import_document(db, gin_example(("Yan", "Xi")))  # another group's game
    open_game(client, db, iceberg, "edit")
    response = client.post(f"/players/{pid(db, 'B')}/rename", data={"name": "yan", "expected": "B"})
    assert response.status_code == 303
    assert "Renamed to yan in 1 game." in text(client.get(response.headers["Location"]))
    assert kernel.header(db, yan_game)["players"] == ["Yan", "Xi"]  # the other group's Yan, untouched


def test_storage_renames_and_merges_only_within_the_games_given(db, two_games):
    iceberg, gin = two_games
    a, b = pid(db, "A"), pid(db, "B")
    before = [games.export_document(db, g) for g in two_games]
    with pytest.raises(players.Forbidden) as refused:
        players.rename(db, a, "Alice", editable=[iceberg])
    assert refused.value.games == [gin]
    with pytest.raises(players.Forbidden):
        players.merge(db, a, b, editable=[gin])
    with pytest.raises(TypeError):  # no games given is not every game
        players.everyone(db, None)
    assert [games.export_document(db, g) for g in two_games] == before
    assert players.get(db, a, [gin]).games == 1 and players.get(db, a, EVERY_GAME).games == 2
    with pytest.raises(kernel.NotFound):
        players.get(db, b, [gin])
    assert players.everyone(db, []) == [] and players.records(db, []) == ([], [])


# -- rename: every past game follows ------------------------------------------------------

def test_rename_rewrites_every_past_game(client, table, db, seed_example):
    iceberg = grouped(db, finished_seed(seed_example))
    gin = grouped(db, gin_example())
    versions = {g: kernel.header(db, g)["version"] for g in (iceberg, gin)}
    key = open_game(client, db, iceberg)
    open_game(client, db, gin)
    response = client.post(f"/players/{pid(db, 'A')}/rename", data={"name": "Alice", "expected": "A"})
    assert response.status_code == 303
    assert "Renamed to Alice in 2 games." in text(client.get(response.headers["Location"]))
    doc = games.export_document(db, iceberg)
    assert doc["players"] == ["Alice", "B", "C"]
    assert {e["player"] for r in doc["rounds"] for e in r["events"]} == {"Alice", "B", "C"}
    assert set(doc["rounds"][0]["hands"]) == {"Alice", "B", "C"}
    header = kernel.header(db, iceberg)
    assert header["totals"] == {"Alice": 100, "B": -120, "C": -20} and "Alice" in header["status"]
    gin_doc = games.export_document(db, gin)
    assert gin_doc["players"] == ["Alice", "B"] and gin_doc["rounds"][0]["knocker"] == "Alice"
    assert all(kernel.header(db, g)["version"] > versions[g] for g in (iceberg, gin))
    summary = text(client.get(f"/g/{key}"))
    assert "Alice" in summary and ">A<" not in summary
    assert "Alice" in text(client.get("/games"))
    assert [p.name for p in players.everyone(db, EVERY_GAME)].count("Alice") == 1


def test_rename_rewrites_a_robber_game_and_its_cached_summary(client, db):
    game = grouped(db, json.loads((EXAMPLES / "robber-seed-chart.json").read_text()))
    before = kernel.header(db, game)
    assert before["totals"] == {"A": -5, "B": 135}
    open_game(client, db, game)
    response = client.post(f"/players/{pid(db, 'B')}/rename", data={"name": "Bea", "expected": "B"})
    assert response.status_code == 303
    doc = games.export_document(db, game)
    assert doc["players"] == ["A", "Bea"]
    header = kernel.header(db, game)
    assert header["totals"] == {"A": -5, "Bea": 135} and header["version"] > before["version"]
    assert header["status"] == before["status"].replace("B", "Bea")


def test_a_players_figures_follow_a_change_to_a_game_already_counted(client, db, seed_example):
    """The scored game files are kept per game version: a rename (a new version) is
    scored again, never answered from the file as it was."""
    open_game(client, db, grouped(db, finished_seed(seed_example)))
    page = text(client.get(f"/players/{pid(db, 'A')}"))
    assert 'data-won>1<' in page
    client.post(f"/players/{pid(db, 'A')}/rename", data={"name": "Alice", "expected": "A"})
    page = text(client.get(f"/players/{pid(db, 'Alice')}"))
    assert 'data-won>1<' in page and "data-best>100<" in page


def test_rename_of_a_game_being_played_keeps_it_playable(client, table, db):
    table.new_game(["Ann", "Bob"])
    table.client.post(table.url + "/plays", data={"player": "Ann", "cards": ["S2", "H2"], "confirm": "1"})
    assert client.post(f"/players/{pid(db, 'Ann')}/rename", data={"name": "Anna"}).status_code == 303
    page = table.page()
    assert "Anna" in page and "Ann<" not in page
    response = table.client.post(table.url + "/plays", data={"player": "Bob", "cards": ["S5", "H5"], "confirm": "1"})
    assert response.status_code == 303
    assert [e["player"] for e in games.export_document(db, table.game_id)["rounds"][0]["events"]] == ["Anna", "Bob"]


@pytest.mark.parametrize("name, status, says", [
    ("", 422, "A player needs a name"),
    ("   ", 422, "A player needs a name"),
    ("x" * 41, 422, "Keep names to 40 letters"),
    ("b", 422, "There is already a player called B. If they are the same person, merge A into B instead."),
])
def test_rename_refusals_change_nothing(client, db, seed_example, name, status, says):
    game = grouped(db, finished_seed(seed_example))
    open_game(client, db, game)
    before = games.export_document(db, game), kernel.header(db, game)["version"]
    response = client.post(f"/players/{pid(db, 'A')}/rename", data={"name": name})
    assert response.status_code == status
    assert says in text(response) and "The name was not changed" in text(response)
    assert (games.export_document(db, game), kernel.header(db, game)["version"]) == before


def test_a_rename_made_meanwhile_is_not_overwritten(client, db, seed_example):
    open_game(client, db, grouped(db, finished_seed(seed_example)))
    a = pid(db, "A")
    assert client.post(f"/players/{a}/rename", data={"name": "Al", "expected": "A"}).status_code == 303
    stale = client.post(f"/players/{a}/rename", data={"name": "Alex", "expected": "A"})
    assert stale.status_code == 409 and "renamed to Al meanwhile" in text(stale)
    assert players.get(db, a, EVERY_GAME).name == "Al"
    # The same rename sent twice (a double tap) changes nothing more.
    assert client.post(f"/players/{a}/rename", data={"name": "Al", "expected": "A"}).status_code == 303


def test_changing_only_the_case_of_a_name(client, db, seed_example):
    game = grouped(db, finished_seed(seed_example, ("ann", "B", "C")))
    open_game(client, db, game)
    assert client.post(f"/players/{pid(db, 'ann')}/rename", data={"name": "Ann"}).status_code == 303
    assert kernel.header(db, game)["players"] == ["Ann", "B", "C"]


# -- merge -----------------------------------------------------------------------------

def test_merge_repoints_every_game(client, db, seed_example):
    one = grouped(db, finished_seed(seed_example, ("Annie", "B", "C")))
    two = grouped(db, gin_example(("Ann", "B")))
    open_game(client, db, one)
    open_game(client, db, two)
    annie, ann = pid(db, "Annie"), pid(db, "Ann")
    response = client.post(f"/players/{annie}/merge", data={"into": str(ann), "sure": "y"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/players/{ann}")
    assert "Annie and Ann are one player now: Ann, in 1 game more." in text(client.get(response.headers["Location"]))
    assert kernel.header(db, one)["players"] == ["Ann", "B", "C"]
    assert kernel.header(db, two)["players"] == ["Ann", "B"]
    assert players.game_ids(db, ann, EVERY_GAME) == [one, two]
    assert client.get(f"/players/{annie}").status_code == 404
    page = text(client.get(f"/players/{ann}"))
    assert re.search(r'<tr data-variant="iceberg">.*?data-won>1<', page)


def test_merge_refused_when_both_played_in_one_game(client, db, seed_example):
    game = grouped(db, finished_seed(seed_example))
    open_game(client, db, game)
    before = games.export_document(db, game)
    response = client.post(f"/players/{pid(db, 'A')}/merge", data={"into": str(pid(db, 'B')), "sure": "y"})
    assert response.status_code == 422
    page = text(response)
    assert "Nothing was merged: A and B both played in the game of" in page
    assert "they are two people, so they cannot be merged" in page
    assert games.export_document(db, game) == before and len(players.everyone(db, EVERY_GAME)) == 3


@pytest.mark.parametrize("into, says", [("", "choose the player to merge with"), ("abc", "choose the player"),
                                        ("999", "that player is not here any more"),
                                        ("self", "choose two different players to merge")])
def test_merge_bad_choices(client, db, seed_example, into, says):
    open_game(client, db, grouped(db, finished_seed(seed_example)))
    a = pid(db, "A")
    response = client.post(f"/players/{a}/merge", data={"into": str(a) if into == "self" else into, "sure": "y"})
    assert response.status_code == 422 and says in text(response).lower()
    assert len(players.everyone(db, EVERY_GAME)) == 3


def test_merge_page_chooses_nobody_and_asks_to_confirm(client, db, seed_example):
    open_game(client, db, grouped(db, finished_seed(seed_example, ("Uma", "B", "C"))))
    open_game(client, db, grouped(db, gin_example(("Kim", "B"))), "view")
    page = text(client.get(f"/players/{pid(db, 'Uma')}")).split("data-merge>")[1].split("</form>")[0]
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', page)
    assert options[0] == ("", " selected", "choose…")
    assert not any(selected for _v, selected, _n in options[1:])
    assert re.search(r'<input type="checkbox" name="sure" value="y" required data-merge-sure><span>Yes, Uma and the '
                     r'player chosen are the same person', page)


@pytest.mark.parametrize("sure", [None, "", "n"])
def test_merge_without_the_confirmation_changes_nothing(client, db, seed_example, sure):
    one = grouped(db, finished_seed(seed_example, ("Uma", "B", "C")))
    two = grouped(db, gin_example(("Kim", "B")))
    open_game(client, db, one)
    open_game(client, db, two)
    before = [games.export_document(db, g) for g in (one, two)]
    uma, kim = pid(db, "Uma"), pid(db, "Kim")
    data = {"into": str(kim)} if sure is None else {"into": str(kim), "sure": sure}
    response = client.post(f"/players/{uma}/merge", data=data)
    assert response.status_code == 422
    page = unescape(text(response))
    assert ("Nothing was merged: A merge cannot be undone, so tick “Yes, Uma and Kim are the same person” "
            "to confirm it.") in page
    assert f'<option value="{kim}" selected>Kim</option>' in page  # the choice is kept for the second try
    assert [games.export_document(db, g) for g in (one, two)] == before
    assert {p.name for p in players.everyone(db, EVERY_GAME)} == {"Uma", "Kim", "B", "C"}


# -- escaping ------------------------------------------------------------------------------

def test_names_are_escaped_everywhere(client, table, db):
    table.new_game([XSS, "Bob"])
    evil = pid(db, XSS)
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for path in ("/players", f"/players/{evil}", "/players/head-to-head", "/games/new", "/games",
                 f"/games?player={XSS}", f"{table.url}/sheet"):
        html = text(client.get(path))
        assert XSS not in html, path
        assert escaped in html or "&lt;script" in html, path
    response = client.post(f"/players/{pid(db, 'Bob')}/rename", data={"name": "<b>Bobby</b>"})
    assert response.status_code == 303
    assert "<b>Bobby</b>" not in text(client.get(response.headers["Location"]))
    assert kernel.header(db, table.game_id)["players"] == [XSS, "<b>Bobby</b>"]


# -- CSRF ---------------------------------------------------------------------------------

@pytest.fixture
def csrf_client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test",
                      "WTF_CSRF_ENABLED": True})
    return app.test_client(), connect(app.config["DATABASE"])


@pytest.mark.parametrize("action, data", [("rename", {"name": "Zed"}), ("merge", {"into": "TARGET", "sure": "y"})])
def test_rename_and_merge_need_the_token(csrf_client, seed_example, action, data):
    client, db = csrf_client
    for game in (grouped(db, finished_seed(seed_example)),
                 grouped(db, gin_example(("Zoe", "Yan")))):
        open_game(client, db, game)
    a = pid(db, "A")
    data = {k: (str(pid(db, "Zoe")) if v == "TARGET" else v) for k, v in data.items()}
    refused = client.post(f"/players/{a}/{action}", data=data)
    assert refused.status_code == 400 and "nothing was saved" in text(refused)
    assert players.get(db, a, EVERY_GAME).name == "A"
    page = text(client.get(f"/players/{a}"))
    form = page.split(f'action="/players/{a}/{action}"')[1]
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', form).group(1)
    assert client.post(f"/players/{a}/{action}", data={**data, "csrf_token": token}).status_code == 303


# -- the score sheet ---------------------------------------------------------------------

def test_score_sheet_by_either_link_shows_only_the_read_only_link(client, db, seed_example):
    game = grouped(db, finished_seed(seed_example))
    edit, view = kernel.secrets_of(db, game)
    for key in (f"{game}-{edit}", f"{game}-{view}"):
        html = text(client.get(f"/g/{key}/sheet"))
        assert edit not in html and f"/g/{game}-{view}/sheet" in html
        assert "read-only link" in html and "cannot change anything" in html
        assert re.search(r'data-total="A">100<', html) and 'data-winner="A"' in html
        assert "<svg" in html and "biggest meld 30" in html
    assert client.get(f"/g/{game}-wrong/sheet").status_code == 404
    assert client.post(f"/g/{game}-{view}/sheet").status_code in (403, 405)
    assert client.post(f"/g/{game}-{edit}/sheet").status_code == 405


def test_score_sheet_of_a_game_whose_log_no_longer_scores_says_so(table, client, db):
    """A round being played whose log does not replay (a play's entry added to the database
    by hand): its table, and a play sent to it, say the game cannot be read (in words, not a
    server error; nothing saved), and the score sheet, drawn from the rounds counted before
    it (none here), still answers."""
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    db.execute("INSERT INTO play_entries (play, game, round_no, seq, type, player, cards, target, revision, "
               "live, created) SELECT id, game, round_no, seq, type, player, ?, target, revision + 1, 1, created "
               "FROM plays WHERE game = ?", ['["S7", "H9"]', table.game_id])
    db.execute("UPDATE games SET version = version + 1 WHERE id = ?", [table.game_id])
    db.conn.commit()
    page = client.get(f"{table.url}/table")
    assert page.status_code == 500 and "This game cannot be read" in text(page)
    for path, data in (("/plays", {"player": "B", "cards": ["D2", "D3", "D4"], "confirm": "1"}),
                       ("/check", {"player": "B", "cards": ["D2", "D3", "D4"]}),
                       ("/aces", {"player": "B", "card": "DA"}), ("/pass", {}), ("/out", {"player": "B"})):
        posted = client.post(f"{table.url}{path}", data=data)
        assert posted.status_code == 500 and "This game cannot be read" in text(posted), path
    assert db.execute("SELECT count(*) FROM plays WHERE game = ?", [table.game_id]).fetchone()[0] == 1
    response = client.get(f"{table.url}/sheet")
    assert response.status_code == 200 and "In progress: 0 rounds played so far." in text(response)


def test_score_sheet_of_a_hand_count_game(client, db):
    game = grouped(db, gin_example())
    edit, _view = kernel.secrets_of(db, game)
    html = text(client.get(f"/g/{game}-{edit}/sheet"))
    assert "Gin Rummy" in html and re.search(r'data-total="A">\d+<', html) and "In progress" in html


# Gin, classic preset (games_data.GIN_ANN_WINS): hand 1 Ann goes gin, 88 to Ann; hand 2
# Bob knocks with 3, Ann holds 1: an undercut, 12 to Ann. Ann reaches 100: game bonus
# 100, shutout (Bob scored nothing) a further 100, a line bonus of 20 for each of her 2
# hands: bonuses 240, total 340.
def test_score_sheet_of_a_finished_gin_game_shows_the_bonuses(client, db):
    game = grouped(db, GIN_ANN_WINS)
    _edit, view = kernel.secrets_of(db, game)
    html = text(client.get(f"/g/{game}-{view}/sheet"))
    assert re.findall(r'<td data-player="Ann">([^<]*)<', html) == ["88", "12"]
    assert re.findall(r'<td data-player="Bob">([^<]*)<', html) == ["0", "0"]
    assert re.search(r'data-bonus="Ann">240<', html) and re.search(r'data-bonus="Bob">0<', html)
    assert re.search(r'data-total="Ann">340<', html) and 'data-winner="Ann"' in html
    assert "Ann</strong>: 1 gin, 1 undercut" in html
    assert re.findall(r"<small data-ended>([^<]*)</small>", html) == ["Ann went gin", "Bob knocked, Ann undercut"]


def robber_stock_ran_out():
    """The Robber example (hand 1: B went out) and a hand 2 whose stock ran out: unfinished."""
    doc = json.loads((EXAMPLES / "robber-seed-chart.json").read_text())
    doc["rounds"].append({"events": [], "hands": {"A": ["S2", "S3"], "B": ["HK"]}})
    return doc


def test_score_sheet_of_a_robber_game_in_progress_speaks_of_hands(client, db):
    game = grouped(db, robber_stock_ran_out())
    _edit, view = kernel.secrets_of(db, game)
    html = text(client.get(f"/g/{game}-{view}/sheet"))
    status = re.search(r"<p class=\"status\" data-status>(.*?)</p>", html, re.S).group(1)
    assert "In progress: 2 hands played so far." in status and "in progress." not in status
    assert '<thead><tr><th scope="col">Hand</th>' in html
    assert re.findall(r"<small data-ended>([^<]*)</small>", html) == ["B went out", "the stock ran out"]
    assert "hands counted" not in html


def test_score_sheet_of_an_iceberg_game_in_progress_speaks_of_rounds(client, db, seed_example):
    game = grouped(db, seed_example)
    _edit, view = kernel.secrets_of(db, game)
    html = text(client.get(f"/g/{game}-{view}/sheet"))
    assert "In progress: 1 round played so far." in html
    assert '<thead><tr><th scope="col">Round</th>' in html


def test_history_links_a_finished_games_score_sheet(client, db, seed_example):
    game = grouped(db, finished_seed(seed_example))
    open_game(client, db, game)
    html = text(client.get("/games"))
    assert 'data-action="sheet"' in html and f"/g/{game}-" in html
    key = open_game(client, db, game)
    page = text(client.get(f"/g/{key}"))  # the game's own page links it too
    assert re.search(rf'href="/g/{key}/sheet" data-action="sheet"', page)


# -- history filters ---------------------------------------------------------------------

@pytest.fixture
def history(client, db, seed_example):
    iceberg = grouped(db, finished_seed(seed_example))
    gin = grouped(db, gin_example(("A", "Zoe")))
    db.execute("UPDATE games SET created = '2026-01-02T10:00:00+00:00' WHERE id = ?", [iceberg])
    db.execute("UPDATE games SET created = '2026-03-04T10:00:00+00:00' WHERE id = ?", [gin])
    db.conn.commit()
    other = grouped(db, gin_example(("Zoe", "Yan")))  # this phone never opened it
    for game in (iceberg, gin):
        open_game(client, db, game)
    return {"iceberg": iceberg, "gin": gin, "other": other}


@pytest.mark.parametrize("query, shown", [
    ("", ["iceberg", "gin"]),
    ("?variant=gin", ["gin"]),
    ("?variant=iceberg", ["iceberg"]),
    ("?player=zoe", ["gin"]),
    ("?player=zO", ["gin"]),  # part of a name, in any case
    ("?player=a", ["iceberg", "gin"]),
    ("?player=Yan", []),  # only in a game this phone does not know
    ("?since=2026-02-01", ["gin"]),
    ("?until=2026-02-01", ["iceberg"]),
    ("?since=2026-01-02&until=2026-01-02", ["iceberg"]),
    ("?variant=gin&player=B", []),
])
def test_history_filters(client, history, query, shown):
    html = text(client.get("/games" + query))
    listed = [int(i) for i in re.findall(r'<li data-game="(\d+)"', html)]
    assert sorted(listed) == sorted(history[k] for k in shown)
    if not shown:
        assert "No game matches these filters." in html


def test_history_dates_the_wrong_way_round_are_said(client, history):
    response = client.get("/games?since=2026-03-01&until=2026-01-01")
    assert response.status_code == 200
    html = unescape(text(response))
    error = re.search(r'<div class="error" role="alert" data-error>(.*?)</div>', html, re.S).group(1)
    assert ("The 'from' date (2026-03-01) is after the 'to' date (2026-01-01), so no game can match: "
            "swap them.") in error
    assert "<li data-game=" not in html
    assert "No game matches" not in html and "No games yet" not in html  # the reason alone
    # The right way round, no complaint.
    assert "data-error" not in text(client.get("/games?since=2026-01-01&until=2026-03-01"))


@pytest.mark.parametrize("query, says", [("?since=yesterday", "The 'from' date must be a date like"),
                                         ("?until=2026-13-40", "The 'to' date must be a date like"),
                                         ("?variant=poker", "There is no such game type")])
def test_history_filters_not_understood_are_said_and_ignored(client, history, query, says):
    response = client.get("/games" + query)
    assert response.status_code == 200 and says in unescape(text(response))  # ' is escaped
    assert len(re.findall(r'<li data-game="', text(response))) == 2


def test_a_rename_or_a_merge_sent_twice_is_done_once(client, app, db):
    """Both forms carry a request id: the second of a double tap goes where the first went,
    says it was saved already, and changes nothing more."""
    import re

    from db_dump import dump

    for names in (["Ann", "Bob"], ["Annie", "Cy"]):
        made = client.post("/games", data={"seat_0": names[0], "seat_1": names[1], "first_dealer": "0"})
        assert made.status_code == 303
    ann, annie = pid(db, "Ann"), pid(db, "Annie")
    form = text(client.get(f"/players/{ann}"))
    request_id = re.search(r'name="request_id" value="([^"]+)"', form).group(1)
    rename = {"name": "Anna", "expected": "Ann", "request_id": request_id}
    assert client.post(f"/players/{ann}/rename", data=rename).status_code == 303
    before = dump(app.config["DATABASE"])
    again = client.post(f"/players/{ann}/rename", data=rename, follow_redirects=True)
    assert again.status_code == 200 and "Already saved" in text(again)
    assert dump(app.config["DATABASE"]) == before
    merge = {"into": str(ann), "sure": "y", "request_id": "merge-once"}
    assert client.post(f"/players/{annie}/merge", data=merge).status_code == 303
    before = dump(app.config["DATABASE"])
    again = client.post(f"/players/{annie}/merge", data=merge, follow_redirects=True)
    assert again.status_code == 200 and "Already saved" in text(again)
    assert dump(app.config["DATABASE"]) == before


def test_a_game_of_a_variant_this_release_lacks_is_left_out_of_the_figures_and_said(client, db, two_games):
    """A database written by another release may hold a game of a variant this one does
    not have: a player's page and the head-to-head leave it out of their figures and say
    so, as for a game the rules no longer allow; the pages still answer."""
    iceberg, gin = two_games
    open_game(client, db, iceberg)
    open_game(client, db, gin)
    db.execute("UPDATE games SET variant = 'gone' WHERE id = ?", [gin])
    db.conn.commit()
    page = client.get(f"/players/{pid(db, 'A')}")
    assert page.status_code == 200
    assert "1 game could not be read for these figures and is left out." in text(page)
    h2h = client.get("/players/head-to-head")
    assert h2h.status_code == 200 and "1 game could not be read and is left out." in text(h2h)


def test_the_player_filter_finds_part_of_a_name_as_written_and_a_look_alike_whole(client, db):
    tom = grouped(db, gin_example(("Tom", "Zoe")))
    open_game(client, db, tom)

    def shown(query):
        return [int(i) for i in re.findall(r'<li data-game="(\d+)"', text(client.get("/games" + query)))]
    assert shown("?player=to") == [tom]
    assert shown("?player=r") == []  # no name holds an r (Tom's look-alike key, "torn", does)
    assert shown("?player=T\u043em") == [tom]  # a Cyrillic о: the same name, whole
