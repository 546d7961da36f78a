"""Picking cards on a phone (390 × 844, and 360 px wide): the bar at the bottom of the
screen keeps the cards picked, what they make and score, and Confirm (or Save) in view
while picking, and covers no card; each suit's cards are laid out in rows that divide
evenly (6 + 6, or 7 + 6 with the aces), none alone on a row, every cell at least 44 px.
"""
from __future__ import annotations

import pytest
from browser_table import PHONE, Phone, Routes, seed_round_by_routes
from playwright.sync_api import expect
from test_browser_counted import new_game
from test_browser_tap_targets import MINIMUM

from scorekeeper.games import registry
from scorekeeper.web.views import counted


@pytest.fixture
def phone(page) -> Phone:
    phone = Phone(page)
    phone.start_game(["A", "B", "C"], dealer=2)  # C deals, A starts
    return phone


def test_the_bar_keeps_the_picks_the_preview_and_confirm_in_view(phone):
    page = phone.page
    height = PHONE["viewport"]["height"]
    bar = page.locator("[data-bar]")
    confirm = page.locator("form#play [data-action=confirm]")
    phone.tap_cards("C7", "C8", "C9")  # the last row of the picker
    phone.expect_preview(30)
    expect(bar.locator(".count")).to_have_text("3 cards: 7♣ 8♣ 9♣")
    for where in ("0", "document.querySelector('[data-picker] legend').offsetTop"):
        page.evaluate(f"window.scrollTo(0, {where})")
        box = confirm.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        preview = page.locator("[data-preview] [data-ok='1']").bounding_box()
        assert preview["y"] >= 0 and preview["y"] + preview["height"] <= height
    # Scrolled to the end the bar sits under the picker: it covers no card.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = phone.card_cell("CK").bounding_box()
    assert last["y"] + last["height"] <= bar.bounding_box()["y"]
    expect(page.locator("[data-action=out]")).to_be_in_viewport()


CELLS = """() => [...document.querySelectorAll('[data-picker] .suit')].map(
  suit => [...suit.querySelectorAll('label:not(.two) > b')].map(b => {
    const r = b.getBoundingClientRect(); return [Math.round(r.top), r.width, r.height]; }))"""


def rows_of_cards(page) -> list[list[int]]:
    """For each suit of the picker(s) on the page, how many cards each of its rows holds
    (every cell checked to be a big enough tap target)."""
    counts = []
    for cells in page.evaluate(CELLS):
        lines: dict[int, int] = {}
        for top, width, height in cells:
            assert width >= MINIMUM and height >= MINIMUM, (page.url, width, height)
            lines[top] = lines.get(top, 0) + 1
        counts.append(sorted(lines.values(), reverse=True))
    return counts


@pytest.mark.parametrize("width", [360, 390])
def test_the_card_grids_fit_the_phone_without_a_lone_card(browser, server, width):
    """The table's picker (2 … K: 6 + 6), a hand's at the round end and Gin's two hands
    (A … K: 7 + 6), at 360 and 390 px wide: nothing wider than the phone, no card alone
    on a row, every card at least 44 px."""
    context = browser.new_context(base_url=server, **{**PHONE, "viewport": {"width": width, "height": 800}})
    try:
        page = context.new_page()
        routes = Routes(page)
        routes.new_game(["A", "B", "C"], dealer=2)
        page.goto(routes.url + "/table")
        assert rows_of_cards(page) == [[6, 6]] * 4
        # The table page, live, would go on to the round's end by itself once the round ends
        # below, and a goto meanwhile would be cut short by that navigation: it is left first.
        page.goto("about:blank")
        seed_round_by_routes(routes, hands=False)
        page.goto(routes.url + "/end")
        assert rows_of_cards(page) == [[7, 6]] * 4
        new_game(page, "gin", ["Ann", "Bob"])
        expect(page.locator("[data-hand-picker]")).to_have_count(2)
        assert rows_of_cards(page) == [[7, 6]] * 8
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_a_hand_entry_counts_the_cards_as_they_are_tapped(page):
    """Gin's two hands: each hand's count in the bar, with Save, as the cards are tapped
    ("3 of 10 cards: …" where the game says a hand holds 10, else "3 cards: …")."""
    new_game(page, "gin", ["Ann", "Bob"])
    expected = counted.expected_cards(registry.get("gin"), 2)
    of = f" of {expected} cards" if expected else " cards"
    for card in ("S2", "S3", "S4"):
        page.locator(f"[data-hand-picker='Ann'] label:has(input[value='{card}']) b").tap()
    ann, bob = page.locator("[data-bar] [data-who='Ann']"), page.locator("[data-bar] [data-who='Bob']")
    expect(ann).to_have_text(f"3{of}: 2♠ 3♠ 4♠")
    expect(bob).to_have_text(f"0 of {expected} cards" if expected else "")
    page.locator("[data-hand-picker='Ann'] label:has(input[value='S3']) b").tap()
    expect(ann).to_have_text(f"2{of}: 2♠ 4♠")
    expect(page.locator("[data-bar] [data-action=save-round]")).to_be_in_viewport()
