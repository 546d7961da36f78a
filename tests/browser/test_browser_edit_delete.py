"""Putting plays right at phone size (issue 15): passes told at the end of their turn
without an Edit link each."""
from __future__ import annotations

from playwright.sync_api import expect

from browser_table import Phone


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
