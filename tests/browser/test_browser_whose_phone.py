"""Whose phone it is (issue 24, item 5): two phones at one table, one a player's (A's)
and one the table's, playing with the turn moved by both. On A's phone A plays every
play; logging another player's play is a choice for that play only. On the table's
phone "Who plays" follows whose turn it is after every play, pass and change from the
other phone. The Confirm bar says whose play it is.
"""
from __future__ import annotations

import pytest
from browser_table import Phone, another_phone
from playwright.sync_api import expect

LIVE = 2_000  # ms


def chosen(phone: Phone):
    return phone.page.locator("form#play input[name=player]:checked")


def say_whose(phone: Phone, words: str) -> None:
    phone.goto("/phone")
    phone.tap_and_wait(phone.page.get_by_role("button", name=words))
    assert phone.page.url.endswith("/table")


@pytest.fixture
def phones(browser, server, page):
    """A's phone (the test's page) starts a game (A, B, C; C deals, A starts) and opens
    its table; the table's phone opens its edit link."""
    mine = Phone(page)
    mine.start_game(["A", "B", "C"], dealer=2)
    with another_phone(browser, server, mine) as table:
        yield mine, table


def test_a_player_s_phone_and_the_table_s_phone_play_a_round(phones):
    mine, table = phones
    expect(mine.page.locator(".who .whose")).to_have_text("Whose phone is this?")
    say_whose(mine, "A’s phone")
    say_whose(table, "A phone for the whole table")
    expect(mine.page.locator(".who .whose")).to_have_text("A’s phone")
    expect(table.page.locator(".who .whose")).to_have_text("The table’s phone")

    mine.tap_cards("S9", "S8", "S7")
    expect(mine.page.locator("[data-preview] .pl")).to_have_text("A:")  # the Confirm bar says whose
    mine.expect_preview(30)
    mine.confirm()
    mine.pass_turn()  # A passes to B
    expect(chosen(mine)).to_have_value("A")
    expect(table.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B", timeout=LIVE)
    expect(chosen(table)).to_have_value("B")  # followed the turn moved on the other phone

    table.tap_cards("H9", "C9")
    expect(table.page.locator("[data-preview] .pl")).to_have_text("B:")
    table.expect_preview(10)
    table.confirm()
    table.pass_turn()  # B passes to C
    expect(chosen(table)).to_have_value("C")
    expect(mine.log_item(type="meld", player="B")).to_have_count(1, timeout=LIVE)
    expect(chosen(mine)).to_have_value("A")  # A's phone: still A

    # A's phone logs C's ace: a choice for that play only.
    mine.page.locator("label:has(input[name=player][value='C']) > span").tap()
    mine.ace("CA")
    expect(mine.log_item(type="ace", player="C")).to_have_count(1)
    expect(chosen(mine)).to_have_value("A")
    expect(table.log_item(type="ace", player="C")).to_have_count(1, timeout=LIVE)
    expect(chosen(table)).to_have_value("C")

    # The table's phone: a player chosen for a play, then a pass there: the turn's again.
    table.page.locator("label:has(input[name=player][value='A']) > span").tap()
    table.pass_turn()  # C passes to A
    expect(chosen(table)).to_have_value("A")
    mine.page.reload()  # a page drawn afresh: this phone's player chosen, whoever's turn it is
    table.pass_turn()  # A passes to B
    expect(chosen(table)).to_have_value("B")
    expect(mine.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B", timeout=LIVE)
    expect(chosen(mine)).to_have_value("A")
    mine.tap_cards("D4", "D5", "D6")
    expect(mine.page.locator("[data-preview] .pl")).to_have_text("A:")
