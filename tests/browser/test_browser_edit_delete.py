"""Putting plays right at phone size (issue 15): passes told at the end of their turn
without an Edit link each; a play being changed shown against the table as it was just
before it, and saved back to its own round."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from browser_table import Phone, Routes, seed_round_by_routes


def test_a_pass_is_told_on_the_line_of_the_turn_it_ends_without_an_edit_link(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)  # A starts
    phone.pass_turn()  # A passes without playing: a line of its own, no Edit
    phone.meld("S9", "S8", "S7", points=30)  # B
    phone.pass_turn()
    phone.meld("DJ", "CJ", points=10)  # C
    phone.lay_off(1, "S6", points=40)
    phone.pass_turn()
    log = page.locator("ol[data-log]")
    expect(log.locator("> li")).to_have_count(4)  # 7 plays, 3 of them passes
    expect(log.locator("> li").first).to_have_text("· A passed to B")
    expect(log.locator("> li").first.get_by_role("link")).to_have_count(0)
    b_meld = phone.log_item(type="meld", player="B")
    expect(b_meld.locator("[data-passed]")).to_have_text("· B passed to C")
    expect(phone.log_item(type="layoff", player="C").locator("[data-passed]")).to_have_text("· C passed to A")
    expect(phone.log_item(type="meld", player="C").locator("[data-passed]")).to_have_count(0)
    expect(log.get_by_role("link", name="Edit")).to_have_count(3)  # one per play, none per pass
    expect(page.locator("section.log")).to_contain_text("Undo takes back a pass while it is the last play.")
    expect(page.locator("[data-action=undo]")).to_contain_text("C's pass")
    phone.undo()
    expect(phone.log_item(type="layoff", player="C").locator("[data-passed]")).to_have_count(0)
    assert phone.turn() == "C"


def test_editing_a_lay_off_shows_the_table_as_it_was_and_saves_back_to_its_round(page):
    """The pair 3♥ 3♣ grew into a set with B's 3♦: B's lay-off is shown laid on the pair,
    not on the set it made. A play of round 1 changed from round 2 goes back to round 1."""
    routes = Routes(page)
    routes.new_game(["A", "B", "C"], dealer=2)
    seed_round_by_routes(routes)
    routes.confirm_round(1)
    routes.meld("B", "H3", "C3")  # round 2: B starts
    routes.lay_off("C", 1, "D3")
    routes.lay_off("A", 1, "S3")
    phone = Phone(page)
    phone.key = routes.key
    phone.goto("/table")
    phone.tap_and_wait(phone.log_item(type="layoff", player="C").get_by_role("link", name="Edit"))
    melds = page.locator("[data-melds] label")
    expect(melds).to_have_count(1)
    expect(melds.first).to_contain_text("3♥ 3♣")
    expect(melds.first).not_to_contain_text("3♦")
    phone.tap_and_wait(page.get_by_role("link", name="Back to the table"))

    # Round 1's lay-off of 6♠ on 7♠ 8♠ 9♠, from round 1's page: the run had three cards.
    phone.goto("/rounds/1")
    phone.tap_and_wait(phone.log_item(type="layoff", player="C").filter(has_text="6♠").get_by_role("link", name="Edit"))
    expect(page.locator("[data-melds] label", has_text="9♠")).to_contain_text("7♠ 8♠ 9♠")
    expect(page.locator("[data-melds]")).not_to_contain_text("6♠")
    expect(page.get_by_role("link", name="Back to round 1")).to_be_visible()
    phone.tap_and_wait(page.locator("[data-action=save]"))
    assert re.search(r"/rounds/1$", page.url), page.url
    expect(page.locator("[data-flash]")).to_contain_text("in round 1: every score is recomputed")
