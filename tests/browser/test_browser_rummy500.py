"""Rummy 500 tapped through the table family's screens: no ace buttons, aces in the card
picker, each card scored as it is laid, and the public example's first round: Ann 11,
Ben 9, Cy 15 (docs/rules/rummy500.md)."""
from __future__ import annotations

from browser_table import Phone
from playwright.sync_api import expect


def test_the_example_round_tapped_through_the_screens(page, screenshot):
    phone = Phone(page)
    phone.new_game(["Ann", "Ben", "Cy"], dealer=2, variant="rummy500")  # Cy deals, Ann starts
    expect(page.locator("button[name=card]")).to_have_count(0)
    expect(phone.card_cell("HA")).to_be_visible()

    phone.meld("C4", "C5", "C6", points=15)
    phone.pass_turn()
    phone.meld("SQ", "HQ", "DQ", points=30)
    phone.pass_turn()
    phone.lay_off(1, "C7", "C8", points=15)
    phone.pass_turn()
    phone.meld("HA", "H2", "H3", points=6)  # the ace low: 1
    assert phone.round_scores() == {"Ann": 21, "Ben": 30, "Cy": 15}
    expect(phone.log_item(type="meld", player="Ann").last).to_contain_text("+6")
    screenshot(page, "rummy500-table")
    phone.pass_turn()
    phone.pass_turn()
    phone.out()

    phone.enter_hand("Ann", "SK")
    phone.enter_hand("Ben", "DA", "S6")
    assert phone.end_scores() == {"Ann": 11, "Ben": 9, "Cy": 15}
    ben = phone.open_breakdown("Ben")
    expect(ben.locator("[data-card-costs] li").filter(has_text="A♦")).to_contain_text("15")
    expect(ben.locator("[data-playable]")).to_have_count(0)
    expect(ben).not_to_contain_text("Aces")
    screenshot(page, "rummy500-round-end")
