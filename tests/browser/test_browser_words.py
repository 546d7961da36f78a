"""What a person at the table reads, at phone size (issue 15): the round end's score strip
says the same as the list below it, the new-game form speaks in plain words, and the game
pages, the history and a player's page name things as the table does."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_table import Phone, Routes, number
from test_browser_layout import NAMES, iceberg_round_one


def test_the_round_end_strip_shows_the_round_scores_the_list_shows(page):
    """Iceberg's strip showed the points before the penalties and the aces (700 where the
    list said +1380); now it shows what the list shows, as Robber's does."""
    routes = Routes(page)
    routes.new_game(NAMES)
    iceberg_round_one(routes, hands=False)
    routes.hand(NAMES[1], "H2")  # one hand entered: the others count as holding nothing yet
    phone = Phone(page)
    phone.key = routes.key
    phone.goto("/end")
    listed = phone.end_scores()
    assert listed[NAMES[1]] == 700 * 2 - 20  # the ace doubles 700 less the card in hand
    strip = phone.round_scores()
    assert {p: strip[p] for p in listed} == listed  # the list has the hands entered
    phone.enter_hand(NAMES[2], "D6", "C2")
    listed = phone.end_scores()
    assert listed[NAMES[2]] < 70  # a playable card and a card in hand cost points
    strip = phone.round_scores()
    assert {p: strip[p] for p in listed} == listed
