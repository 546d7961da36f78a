"""The count of cards picked in a hand entry, in words ("7 of 10 cards: 2♠ 3♠ …" where
the game says how many cards a hand holds, "7 cards: …" where hands differ), in the bar
at the bottom of the round-end screens. The page's script keeps it up to date as cards
are tapped (static/app.js); without the script it is drawn with the page.
"""
from __future__ import annotations

from test_web_counted import Counted
from web_table import seed_round

from scorekeeper.web.views import counted


def test_the_round_end_bar_counts_the_cards_picked(table):
    """Iceberg's hands differ in size: "5 cards: K♠ J♠ 3♠ Q♥ 6♣", no count expected."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)  # A went out
    table.hand("B", "SK", "SJ", "S3", "HQ", "C6")
    html = table.page("/end?player=B")
    assert '<p class="count" data-tally="cards">5 cards: 3♠ J♠ K♠ Q♥ 6♣</p>' in html
    assert 'class="bar"' in html and 'data-action="save-hand"' in html


def test_a_hand_entry_counts_against_the_cards_a_hand_holds(client):
    """Where the game says how many cards a hand holds (Gin: 10), the count reads "7 of 10
    cards"; where it does not (Basic Rummy: what was left when someone went out), "7 cards"."""
    hand = "S2 S3 S4 S5 S6 S7 S8"
    gin = Counted(client, "gin", ["Ann", "Bob"])
    page = client.post(gin.url + "/counted/round",
                       data=gin.form("Ann", {"Ann": hand}, save=False)).get_data(as_text=True)
    assert 'data-expected="10" data-who="Ann">7 of 10 cards: 2♠ 3♠ 4♠' in page
    assert 'data-expected="10" data-who="Bob">0 of 10 cards<' in page
    rummy = Counted(client, "rummy", ["Ann", "Bob", "Cy"])
    page = client.post(rummy.url + "/counted/round",
                       data=rummy.form("Ann", {"Bob": hand}, save=False)).get_data(as_text=True)
    assert 'data-who="Bob">7 cards: 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠<' in page


def test_the_expected_count_is_asked_of_the_variant():
    from scorekeeper.games import registry

    assert counted.expected_cards(registry.get("gin"), 2) == 10
    assert counted.expected_cards(registry.get("rummy"), 3) is None
