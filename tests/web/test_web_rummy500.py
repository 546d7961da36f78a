"""Rummy 500 at the table: Iceberg's table family without what only Iceberg has (ace
buttons, aces kept out of the picker, the playable penalty, the aces of a round), a
round played through the routes as the phones play it, and its pages."""
import json
import re

import pytest
from web_table import Table


class Rummy500Table(Table):
    def new_game(self, players, dealer=0, **rules):
        data = {"variant": "rummy500", "first_dealer": str(dealer),
                **{f"seat_{i}": name for i, name in enumerate(players)},
                **{f"rule_{name}": str(value) for name, value in rules.items()}}
        response = self.client.post("/games", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)[-2000:]
        self.key = re.search(r"/g/([^/]+)/table", response.headers["Location"]).group(1)
        self.game_id = int(self.key.split("-")[0])
        return self.game_id


@pytest.fixture
def table(client):
    return Rummy500Table(client)


def first_round(table):
    """The public example's first round (examples/rummy500-first-round.json): Cy deals."""
    table.new_game(["Ann", "Ben", "Cy"], dealer=2)
    table.meld("Ann", "C4", "C5", "C6")
    table.pass_turn()
    table.meld("Ben", "SQ", "HQ", "DQ")
    table.pass_turn()
    table.lay_off("Cy", 1, "C7", "C8")
    table.pass_turn()
    table.meld("Ann", "HA", "H2", "H3")
    table.pass_turn()
    table.pass_turn()
    table.out("Cy")
    table.hand("Ann", "SK")
    table.hand("Ben", "DA", "S6")


def test_the_table_has_no_ace_buttons_and_its_picker_has_the_aces(table):
    table.new_game(["Ann", "Ben", "Cy"])
    html = table.page()
    assert 'data-region="aces"' not in html and 'name="card"' not in html
    assert all(f'value={suit}A' in html for suit in "SHDC")
    assert 'data-action="out"' in html


def test_a_run_with_a_low_ace_scores_1_for_it(table):
    table.new_game(["Ann", "Ben", "Cy"], dealer=2)
    table.meld("Ann", "HA", "H2", "H3")
    assert table.round_scores() == {"Ann": 6, "Ben": 0, "Cy": 0}
    table.meld("Ann", "SQ", "SK", "SA")
    assert table.round_scores() == {"Ann": 41, "Ben": 0, "Cy": 0}


def test_a_lay_off_onto_anyone_s_meld_scores_for_who_laid_it(table):
    table.new_game(["Ann", "Ben", "Cy"], dealer=2)
    table.meld("Ann", "D4", "D5", "D6")
    table.lay_off("Ben", 1, "D7")
    table.lay_off("Cy", 1, "D8")
    table.lay_off("Ann", 1, "D3", "D2", "DA")
    assert table.round_scores() == {"Ann": 21, "Ben": 7, "Cy": 8}


@pytest.mark.parametrize("cards, message", [
    (["SK", "SA", "S2"], "is not a meld: a set is 3 or more cards of one rank, a run 3 or more of one suit in "
                         "sequence (the ace low or high, never K-A-2)"),
    (["S7", "H7"], "a meld needs at least three cards"),
])
def test_an_illegal_meld_is_refused_and_nothing_is_saved(table, db, cards, message):
    table.new_game(["Ann", "Ben"])
    response = table.post("/plays", {"player": "Ann", "cards": cards, "meld": "", "confirm": "1"}, expect=422)
    html = response.get_data(as_text=True)
    assert 'role="alert"' in html and message in html and "Traceback" not in html
    assert db.execute("SELECT count(*) FROM plays").fetchone()[0] == 0


def test_a_lay_off_around_the_corner_is_refused(table):
    table.new_game(["Ann", "Ben"])
    table.meld("Ann", "SQ", "SK", "SA")
    html = table.lay_off("Ben", 1, "S2", expect=422).get_data(as_text=True)
    assert "2♠ does not fit Q♠ K♠ A♠" in html and "never around the corner" in html


def test_each_play_is_told_with_each_card_s_points(table):
    table.new_game(["Ann", "Ben"], dealer=1)
    table.page()  # the new game's own message
    told = []
    for write in (lambda: table.meld("Ann", "H3", "H2", "HA"), lambda: table.lay_off("Ben", 1, "H4", "H5")):
        html = table.client.get(write().headers["Location"]).get_data(as_text=True)
        box = re.search(r"<div class=\"flash\"[^>]*>(.*?)</div>", html, re.S).group(1)
        told += [re.sub(r"<[^>]+>", "", p) for p in re.findall(r"<p>(.*?)</p>", box)]
    assert told == ["Ann: new run of hearts: A♥ 2♥ 3♥ (meld 1): A♥ low 1 + 2♥ 2 + 3♥ 3, 6 points.",
                    "Ben: on meld 1 (A♥ 2♥ 3♥): 4♥ 4 + 5♥ 5, 9 points."]


def test_the_log_tells_a_lay_off_by_each_card_s_points_not_its_place(table):
    """Rummy 500 scores a card by its value, not its place in the meld: the log says
    "4♥ 4 + 5♥ 5", never Iceberg's "as 4th card" (a tester read "J♠ as 4th card 10")."""
    table.new_game(["Ann", "Ben"], dealer=1)
    table.meld("Ann", "H3", "H2", "HA")
    table.lay_off("Ben", 1, "H4", "H5")
    line = re.search(r'<li data-play="\d+" data-type="layoff".*?</li>', table.page(), re.S).group(0)
    shown = " ".join(re.sub(r"<[^>]+>", "", line).split())
    assert "on meld 1: 4♥ 4 + 5♥ 5 +9" in shown and " card " not in shown


def test_the_preview_says_each_card_s_points(table, client):
    table.new_game(["Ann", "Ben"])
    table.meld("Ann", "S2", "S3", "S4")
    target = table.meld_id(1)
    html = client.get(f"{table.url}/preview", query_string={"cards": ["SA", "S5"], "meld": target,
                                                             "player": "Ben"}).get_data(as_text=True)
    assert 'data-moves=\'{"Ben": 6}\'' in html  # how it moves the strip


def test_a_round_played_through_the_pages_scores_as_the_example(table):
    first_round(table)
    assert table.end_scores() == {"Ann": 11, "Ben": 9, "Cy": 15}
    html = table.page("/end")
    for iceberg_only in ("Playable", "playable", "Aces", "multiplier", "face up"):
        assert iceberg_only not in html, iceberg_only
    assert "A♦ an ace left in hand counts 15 points: −15" in re.sub(r"<[^>]+>", "", html)
    assert "Earned +30, cards in hand −21: round score +9" in re.sub(r"<[^>]+>", "", html)  # Ben's sum
    table.confirm_round(1)
    assert table.totals() == {"Ann": 11, "Ben": 9, "Cy": 15}
    assert table.dealer() == "Ann" and table.turn() == "Ben"  # round 2


def test_the_game_page_and_the_round_page_show_no_aces_or_playable_rows(table, client):
    first_round(table)
    table.confirm_round(1)
    summary = table.page("")
    assert "data-earned=" in summary and "data-cards=" in summary
    assert "data-playable=" not in summary and "data-aces=" not in summary and "data-from-aces" not in summary
    detail = table.page("/rounds/1")
    text = re.sub(r"<[^>]+>", "", detail)
    assert "new run of hearts: A♥ 2♥ 3♥ (meld 3): A♥ low 1 + 2♥ 2 + 3♥ 3 = 6" in text
    assert "Playable" not in detail


def test_the_export_is_the_example_s_game_file(table, client):
    first_round(table)
    table.confirm_round(1)
    doc = json.loads(client.get(f"{table.url}/export").get_data(as_text=True))
    assert doc["variant"] == "rummy500"
    assert doc["rounds"][0]["events"][2] == {"type": "layoff", "player": "Cy", "meld": 1, "cards": ["C7", "C8"]}
    assert doc["rounds"][0]["hands"] == {"Ann": ["SK"], "Ben": ["S6", "DA"], "Cy": []}


def test_an_ace_left_in_hand_costs_1_with_the_house_value(table):
    table.new_game(["Ann", "Ben"], ace_in_hand=1)
    table.out("Ann")
    table.hand("Ben", "SA", "S2")
    assert table.end_scores() == {"Ann": 0, "Ben": -3}


def test_a_tie_at_the_target_is_won_by_both(table, client):
    table.new_game(["Ann", "Ben"], dealer=1, target=30)
    table.meld("Ann", "SK", "HK", "DK")
    table.meld("Ben", "SQ", "HQ", "DQ")
    table.out("Ann")
    table.hand("Ben")
    table.confirm_round(1)
    summary = table.page("")
    assert 'data-winner="Ann,Ben"' in summary


def test_one_deck_for_eight_is_refused_on_the_new_game_form(client):
    data = {"variant": "rummy500", "first_dealer": "0", "rule_decks": "1",
            **{f"seat_{i}": f"P{i}" for i in range(8)}}
    response = client.post("/games", data=data)
    assert response.status_code == 422
    assert "one deck cannot deal 7 cards to each of 8 players: play with two decks" in response.get_data(as_text=True)


def test_the_rules_page_shows_its_options_and_the_house_value(client):
    html = client.get("/rules/rummy500").get_data(as_text=True)
    # 15 is the sources' value, so the option is no house value; its other value, 1, is.
    assert 'data-rule="ace_in_hand"' in html and "data-house-value" not in html
    assert "1 point (a house value)" in html
    assert "1 at the low end of a run" in html
    assert "ace_in_hand" not in re.sub(r"<[^>]+>", "", html)  # no option key in the words


def test_the_rules_page_in_spanish_and_german(client):
    for language, words in (("es", "Un as que queda en la mano"), ("de", "Ein Ass auf der Hand")):
        html = client.get("/rules/rummy500", headers={"Accept-Language": language}).get_data(as_text=True)
        assert words in html


def test_a_game_s_rules_page_quotes_its_own_target(table, client):
    """How the game is scored quotes the rules as this game has them (target 150), the
    rules page of the game in general its default (500); the list of the other games
    ends with a game, not a separator."""
    table.new_game(["Ann", "Bea"], target=150)
    mine = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert "someone reaches the target (150)." in mine and "target (500)" not in mine
    general = client.get("/rules/rummy500").get_data(as_text=True)
    assert "someone reaches the target (500)." in general
    others = re.search(r'<nav class="variants"[^>]*>(.*?)</nav>', general, re.S).group(1)
    assert not re.search(r"·\s*</p>", others) and others.count("<a ") == others.count(" · ") + 1
