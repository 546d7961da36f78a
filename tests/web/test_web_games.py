"""New game, rules pages, history and a game's page (summary, chart)."""
import re

import pytest
from web_table import seed_round

from scorekeeper.games import iceberg


def test_new_game_form_has_every_rule_option_with_its_default(client):
    html = client.get("/games/new").get_data(as_text=True)
    for option in iceberg.RULES:
        assert f'data-rule="{option.name}"' in html
    assert 'name="rule_target" value="5000"' in html
    assert 'name="rule_card_penalty" value="10"' in html
    assert re.search(r'name="rule_aces" value="multiplier" checked', html)
    assert re.search(r'name="rule_decks" value="auto" checked', html)


def test_house_values_are_marked_on_the_form_and_rules_page(client):
    house = [o.name for o in iceberg.RULES if o.house_value]
    assert house
    for path in ("/games/new", "/rules/iceberg"):
        html = client.get(path).get_data(as_text=True)
        for name in house:
            block = re.search(rf'data-rule="{name}"[^>]*>.*?</div>', html, re.S).group(0)
            assert "house value — confirm at the table" in block
        assert html.count("data-house-value") == len(house)


@pytest.mark.parametrize("players, decks", [(2, 1), (3, 1), (4, 2), (6, 2)])
def test_decks_default_by_player_count(table, client, players, decks):
    table.new_game([f"P{i}" for i in range(players)])
    html = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert re.search(rf'data-rule="decks">.*?This game: {decks} decks?</strong>', html, re.S)


def test_decks_can_be_changed(table, client):
    table.new_game(["A", "B"], decks=2)
    assert 'value=S9><b>' in table.page() and "data-second" in table.page()


def test_one_deck_offers_no_second_copies(table):
    table.new_game(["A", "B"])
    page = table.page()
    assert "data-second" not in page and "data-one" not in page  # nothing for the script to add


def test_rule_options_are_kept_for_the_game(table, client):
    table.new_game(["A", "B"], target=300, aces="bonus", set_duplicates=False)
    html = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert re.search(r'data-rule="target">.*?This game: 300</strong> \(changed from 5000\)', html, re.S)
    assert re.search(r'data-rule="aces">.*?This game: A bonus for each ace</strong>', html, re.S)
    assert re.search(r'data-rule="set_duplicates">.*?This game: no</strong>', html, re.S)


@pytest.mark.parametrize("data, message", [
    ({"seat_0": "A"}, "needs 2 to 6 players; 1 named"),
    ({"seat_0": "Ann", "seat_1": "ann"}, "Ann and ann look like one name"),
    ({"seat_0": "A", "seat_1": "B", "first_dealer": "4"}, "Seat 5 has no player"),
    ({"seat_0": "A", "seat_1": "B", "rule_target": "0"}, "Target: it takes a whole number from 1 to 1000000000."),
    ({"seat_0": "A", "seat_1": "B", "rule_aces": "double"}, "Aces: Not a valid choice"),
    ({"seat_0": "A", "seat_1": "B", "rule_decks": "3"}, "Decks: Not a valid choice"),
])
def test_a_bad_new_game_is_refused_and_says_why(client, db, data, message):
    response = client.post("/games", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    assert db["games"].count == 0


@pytest.mark.parametrize("variant, low", [("iceberg", 2), ("robber", 2), ("gin", 2), ("kalooki", 2)])
@pytest.mark.parametrize("names", [{}, {"seat_0": "  ", "seat_1": ""}, {"seat_2": "Ann"}])
def test_a_new_game_without_names_asks_for_the_names_first(client, db, variant, low, names):
    response = client.post("/games", data={"variant": variant, "first_dealer": "0", **names})
    assert response.status_code == 422
    html = response.get_data(as_text=True).replace("&#39;", "'")
    said = re.findall(r'<li[^>]*>([^<]*)</li>', html.split('data-error>')[1].split("</ul>")[0])
    assert len(said) == 1 and said[0].startswith(f"Enter at least {low} players' names: ")
    assert "has no player" not in html
    assert db["games"].count == 0


def test_seats_can_be_left_empty_and_the_dealer_follows(table):
    created = table.client.post("/games", data={"seat_1": "B", "seat_3": "D", "seat_4": "E", "first_dealer": "3"})
    table.key = created.headers["Location"].split("/")[2]
    assert table.dealer() == "D" and table.turn() == "E"


def test_history_says_when_a_round_waits_for_its_hands(table, client):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)  # A goes out; the hands are not entered yet
    html = client.get("/").get_data(as_text=True)
    assert "A went out: hands to count" in html
    assert "in progress" not in html


def test_history_lists_unfinished_games_first_and_they_resume(table, client):
    finished = table.new_game(["A", "B", "C"], dealer=2, target=50)
    seed_round(table)
    table.confirm_round(1)
    unfinished = table.new_game(["X", "Y"])
    html = client.get("/").get_data(as_text=True)
    order = [int(i) for i in re.findall(r'data-game="(\d+)"', html)]
    assert order == [unfinished, finished]
    assert f'href="{table.url}/table" data-action="resume"' in html
    assert "A wins" in html
    assert client.get("/games").get_data(as_text=True).count("data-game=") == 2


def test_history_lists_a_game_of_a_variant_this_release_lacks_without_links(table, client, db):
    """A database written by another release may hold a game of a variant this one does
    not have: the history still lists every game, that one without links to its pages."""
    gone = table.new_game(["A", "B", "C"], dealer=2)
    gone_url = table.url
    kept = table.new_game(["X", "Y"])
    db.execute("UPDATE games SET variant = 'gone' WHERE id = ?", [gone])
    db.conn.commit()
    answer = client.get("/games")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and f'data-game="{gone}"' in html
    assert f'href="{gone_url}' not in html
    assert f'href="{table.url}/table" data-action="resume"' in html and f'data-game="{kept}"' in html


def test_summary_has_rounds_players_and_an_accessible_svg_chart(table, client):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    html = client.get(table.url).get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and "<title id=\"chart-title\">" in svg and "<desc id=\"chart-desc\">" in svg
    assert "A 100, B −120, C −20" in svg
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]*)<', svg)
    assert any(t.startswith("−") for t in ticks) and not any(t.startswith("-") for t in ticks)  # a real minus
    assert svg.count("<polyline") == 3
    assert re.search(r'<tr data-round="1">.*?<td data-player="B">−120</td>', html, re.S)
    # The per-player table has a column per player (it fits a phone): B earned 10, lost
    # 50 for the cards in hand and 80 for the playable ones.
    assert ('<td data-earned="B">10</td>' in html and '<td data-cards="B">−50</td>' in html
            and '<td data-playable="B">−80</td>' in html)


def test_round_page_shows_plays_and_reasons(table, client):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    html = client.get(f"{table.url}/rounds/1").get_data(as_text=True)
    assert html.count("data-breakdown=") == 3 and 'data-score="B">−120<' in html
    assert client.get(f"{table.url}/rounds/2").status_code == 404


GAME_PAGES = ("", "/table", "/end", "/rules", "/export")
GAME_POSTS = ("/pass", "/plays", "/aces", "/out", "/undo", "/hands", "/end", "/plays/1", "/plays/1/delete")


def wrong_keys(table):
    """Keys that open nothing: an unknown game, a wrong secret, no secret, the old /games/ URL."""
    table.new_game(["A", "B"])
    secret = table.key.split("-", 1)[1]
    return [f"/g/99-{secret}", f"/g/{table.game_id}-{'x' * len(secret)}", f"/g/{table.game_id}",
            f"/g/{table.game_id}-", f"/games/{table.game_id}"]


def test_a_game_is_reachable_only_through_its_links(table, client):
    for base in wrong_keys(table):
        for path in GAME_PAGES:
            assert client.get(base + path).status_code == 404, base + path
    assert client.get(table.url + "/table").status_code == 200


def test_posting_without_a_game_link_is_404(table, client):
    for base in wrong_keys(table):
        for path in GAME_POSTS:
            response = client.post(base + path, data={"player": "A", "card": "SA", "round_no": "1"})
            assert response.status_code == 404, base + path


def test_an_unknown_play_is_404(table, client):
    table.new_game(["A", "B"])
    assert client.get(f"{table.url}/plays/99/edit").status_code == 404
    assert client.post(f"{table.url}/plays/99/delete").status_code == 404


def test_a_game_of_a_variant_this_release_lacks_has_no_page_and_breaks_none(table, client, db):
    """Its own pages answer 404 (nothing this version can draw of it), its forms change
    nothing, and the other games and the lists still answer."""
    gone = table.new_game(["A", "B", "C"], dealer=2)
    gone_url = table.url
    table.new_game(["X", "Y"])
    db.execute("UPDATE games SET variant = 'gone' WHERE id = ?", [gone])
    db.conn.commit()
    before = db.execute("SELECT count(*) FROM plays").fetchone()
    for path in ("", "/table", "/end", "/rules", "/export", "/export.csv", "/sheet", "/board", "/rounds/1"):
        assert client.get(gone_url + path).status_code == 404, path
    assert client.post(gone_url + "/pass", data={"player": "A"}).status_code == 404
    assert db.execute("SELECT count(*) FROM plays").fetchone() == before
    assert client.get(table.url + "/table").status_code == 200
    assert client.get("/players").status_code == 200 and client.get("/players/head-to-head").status_code == 200


def test_the_home_page_names_every_game_and_each_new_game_page_the_others(client):
    """The games are named from the registry, not from a list written in a page (Rummy 500
    was missing); the new-game page's "Playing something else?" names every other game,
    separated, with nothing after the last."""
    from scorekeeper.games import registry
    home = client.get("/").get_data(as_text=True)
    names = [str(v.name) for v in registry.VARIANTS.values()]
    assert "The score pad for rummy played with real cards: " + ", ".join(names) + "." in home
    for key in registry.VARIANTS:
        page = client.get(f"/games/new?variant={key}").get_data(as_text=True)
        others = re.search(r'Playing something else\?(.*?)</p>', page, re.S).group(1)
        assert others.count("data-variant-link=") == len(names) - 1
        assert not re.search(r"·\s*$", re.sub(r"<[^>]+>", "", others))


def test_a_rule_number_left_empty_is_its_default(table, client):
    """Target left empty: the game takes its default (5000), as the field's help says, not
    "not a whole number"."""
    table.new_game(["A", "B"], target="  ")
    html = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert re.search(r'data-rule="target"[^>]*>.*?This game: 5000</strong>\.', html, re.S)


def test_a_rules_help_says_its_default_once(client):
    """Rummy's Target: its help and "Leave empty for the default: …" said the numbers twice."""
    html = client.get("/games/new?variant=rummy").get_data(as_text=True)
    help_text = re.search(r'id="rule_target-help">(.*?)</p>', html, re.S).group(1)
    assert help_text.count("150 for 3") == 1 and "Leave empty for the default" in help_text


def test_the_home_page_names_the_games_in_the_phones_language(client):
    html = client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    line = re.search(r'<p class="help">[^<]*Iceberg[^<]*</p>', html).group(0)
    assert "Robber Rummy, Rommé, Gin Rummy" in line  # Basic Rummy as the game pages name it


def test_an_iceberg_games_rules_page_quotes_its_card_penalty_and_target(table, client):
    table.new_game(["A", "B"], card_penalty=5, target=2000)
    page = re.sub(r"<[^>]+>", "", client.get(f"{table.url}/rules").get_data(as_text=True))
    assert "Cards left in hand cost 5 each" in page and "reaches the target (2000)" in page
