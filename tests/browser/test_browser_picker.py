"""The card picker: few taps, cards on the table disabled, two copies with two decks."""
from __future__ import annotations

from browser_table import Phone
from playwright.sync_api import expect

# Every touch the page receives is counted (kept across page loads in sessionStorage).
# A touch counted as it bubbles up to the window, once it has reached what it touched:
# Playwright stops a touch that would land on something else than the element tapped
# (the page redrawn under it) at the window, before it gets there, and taps again; a
# listener on the way down would count that touch too (a scripted round read 78 taps
# for 77 on a busy machine).
COUNT_TAPS = """
addEventListener("pointerdown", function (e) {
  if (e.pointerType === "touch") sessionStorage.taps = (+sessionStorage.taps || 0) + 1;
});
"""


def taps(page) -> int:
    return page.evaluate("+sessionStorage.taps || 0")


def test_a_three_card_meld_takes_at_most_five_taps(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    page.add_init_script(COUNT_TAPS)
    page.reload()
    assert taps(page) == 0
    # Whose turn it is and "new meld" are already chosen: the cards, then Confirm.
    expect(page.locator("input[name=player][value='A']")).to_be_checked()
    expect(page.locator("input[name=meld][data-meld='']")).to_be_checked()
    phone.meld("S9", "S8", "S7", points=30)
    expect(phone.log_item(type="meld", player="A")).to_have_count(1)
    assert 4 <= taps(page) <= 5  # three cards and Confirm


def test_cards_on_the_table_are_disabled(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    phone.meld("S9", "S8", "S7", points=30)
    phone.ace("DA")
    for card in ("S9", "S8", "S7"):
        expect(phone.card_input(card)).to_be_disabled()
    expect(phone.card_input("S10")).to_be_enabled()
    expect(page.locator("[name=card][value=DA]")).to_have_count(0)  # face up already
    # A tap on a card that is gone does nothing.
    phone.card_cell("S9").tap(force=True)
    expect(phone.card_input("S9")).not_to_be_checked()


def test_two_decks_a_card_tapped_again_is_unpicked_and_its_second_copy_has_a_cell(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C", "D"], dealer=3)  # 4 players: two decks
    one, two = phone.card_input("S9"), phone.card_input("S9", copy=2)
    cell, second = phone.card_cell("S9"), phone.card_cell("S9", copy=2)
    # The second copy's cell is shown beside the card once it is picked; a picked card
    # tapped again is unpicked (issue 25), both copies with it.
    expect(second).to_be_hidden()
    expect(two).to_have_attribute("aria-label", "9 of spades, second copy")
    cell.tap()
    expect(one).to_be_checked()
    expect(two).not_to_be_checked()
    expect(second).to_be_visible()
    # Shown, the second copy takes a cell of the suit's grid: no card is left alone on a row.
    rows = page.locator("[data-picker] .suit.b").first.evaluate(
        "s => Object.values([...s.querySelectorAll('label > b')].filter(b => b.offsetParent)"
        ".reduce((n, b) => (n[Math.round(b.getBoundingClientRect().top)] = "
        "(n[Math.round(b.getBoundingClientRect().top)] || 0) + 1, n), {}))")
    assert sorted(rows) == [6, 7], rows
    cell.tap()
    expect(one).not_to_be_checked()
    expect(second).to_be_hidden()
    cell.tap()
    second.tap()
    expect(one).to_be_checked()
    expect(two).to_be_checked()
    expect(page.locator("[data-tally]")).to_have_text("2 cards: 9♠ 9♠")
    cell.tap()
    expect(one).not_to_be_checked()
    expect(two).not_to_be_checked()
    expect(page.locator("[data-tally]")).to_have_text("")  # nothing picked: no count
    cell.tap()
    second.tap()
    phone.meld("H9", points=30)  # S9 twice and H9: a set of three
    expect(phone.log_item(type="meld", player="A")).to_contain_text("9♠ 9♠ 9♥")
    expect(one).to_be_disabled()
    expect(two).to_be_disabled()
    expect(phone.card_input("H9", copy=2)).to_be_disabled()  # one H9 left
    expect(phone.card_input("H9")).to_be_enabled()
    page.reload()  # drawn again: one H9 left, no second copy to pick
    expect(phone.card_input("H9", copy=2)).to_have_count(0)
    expect(phone.card_input("H9")).to_be_enabled()


def test_a_hand_saved_with_nothing_picked_says_so_before_it_is_saved(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    phone.meld("S9", "S8", "S7", points=30)
    phone.out()
    bar = page.locator("form#hand [data-bar] .count")
    expect(page.locator("form#hand [data-action=save-hand]")).to_contain_text("B")
    expect(bar).to_have_text("Nothing picked yet: saving now records that B holds no cards.")
    phone.tap_cards("HK")
    expect(bar).to_have_text("1 card: K♥")
    phone.tap_cards("HK")  # unpicked: nothing again
    expect(bar).to_have_text("Nothing picked yet: saving now records that B holds no cards.")
