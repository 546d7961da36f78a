"""Every page works without JavaScript: Check shows the preview, Confirm logs the play."""
from __future__ import annotations

import pytest
from browser_table import Phone, scores
from playwright.sync_api import expect


@pytest.fixture
def page(no_script_page):
    """Every test here on a phone with JavaScript off."""
    return no_script_page


def start(page) -> Phone:
    """The new-game form without the script: the dealer choices read "Seat N"."""
    phone = Phone(page)
    page.goto("/games/new")
    expect(page.locator("html")).not_to_have_class("js")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(["A", "B", "C"]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    form.get_by_label("Seat 3", exact=True).check(force=True)  # C deals, A starts
    phone.tap_and_wait(form.locator("[data-action=create]"))
    phone.key = page.url.rsplit("/", 2)[-2]
    return phone


def test_a_meld_is_logged_without_javascript(page, screenshot):
    phone = start(page)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")
    phone.tap_cards("S9", "S8", "S7")
    check = page.locator("[data-action=check]")
    expect(check).to_be_visible()
    phone.tap_and_wait(check)
    # The preview, with the picked cards kept.
    preview = page.locator("[data-preview] [data-ok='1']")
    expect(preview).to_have_attribute("data-moves", scores(30))
    expect(preview).to_contain_text("30 points")
    for card in ("S9", "S8", "S7"):
        expect(phone.card_input(card)).to_be_checked()
    assert phone.round_scores()["A"] == 0  # nothing saved yet
    screenshot(page, "table-no-js-checked")
    phone.confirm()
    expect(page.locator("[data-flash]")).to_contain_text("A: ")
    expect(phone.log_item(type="meld", player="A")).to_contain_text("9♠")
    assert phone.round_scores() == {"A": 30, "B": 0, "C": 0}
    expect(phone.card_input("S9")).to_be_disabled()


def test_an_illegal_meld_shows_the_reason_and_saves_nothing(page):
    phone = start(page)
    phone.tap_cards("S9", "H8")
    phone.confirm()
    expect(page.locator("[data-error][role=alert]")).to_have_text(
        "9♠ 8♥ is not a meld: two cards make a pair only if they are one rank.")
    expect(phone.card_input("S9")).to_be_checked()  # kept, to correct
    expect(page.locator("[data-preview]")).to_have_text("Tap Check to see what the picked cards make.")
    page.goto(phone.url + "/table")
    expect(page.locator("ol[data-log]")).to_have_count(0)
    assert phone.round_scores() == {"A": 0, "B": 0, "C": 0}


def test_two_decks_show_the_second_copy_as_its_own_cell(page):
    """A card picked once, then Check: its second copy has a cell of its own beside it."""
    phone = Phone(page)
    phone.new_game(["A", "B", "C", "D"], dealer=3)
    two = phone.card_cell("S9", copy=2)
    expect(two).to_have_count(0)
    expect(page.locator("[data-picker] .help")).to_contain_text("To pick a card twice, pick it and tap Check")
    phone.card_cell("S9").tap()
    phone.tap_and_wait(page.locator("[data-action=check]"))
    expect(two).to_be_visible()
    two.tap()
    phone.tap_cards("H9")
    phone.tap_and_wait(page.locator("[data-action=check]"))
    expect(page.locator("[data-preview] [data-ok='1']")).to_have_attribute("data-moves", scores(30))
    phone.confirm()
    expect(phone.log_item(type="meld")).to_contain_text("9♠ 9♠ 9♥")
    expect(phone.card_input("S9")).to_be_disabled()
