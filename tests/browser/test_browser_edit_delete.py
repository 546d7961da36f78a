"""Putting plays right at phone size (issue 15, items 7, 8 and 9): passes told at the end
of their turn without an Edit link each; a delete in one tap, brought back from the notice
that says so, in every game; a play being changed shown against the table as it was just
before it, and saved back to its own round."""
from __future__ import annotations

import re

from browser_table import Phone, Routes, location, seed_round_by_routes
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_layout import GIN_ANN, GIN_BOB, counted_game


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
    expect(log.locator("> li").first).to_have_text("A passed to B")  # no dot: a line of its own
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
    assert_accessible(page, "a lay-off being changed")
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


def test_a_deleted_ace_comes_back_from_the_notice(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    phone.ace("DA")
    phone.meld("S9", "S8", "S7", points=30)
    assert phone.round_scores()["A"] == 30
    phone.tap_and_wait(phone.log_item(type="ace").get_by_role("link", name="Edit"))
    phone.tap_and_wait(page.locator("[data-action=delete]"))  # one tap, no question
    notice = page.locator("[data-flash]")
    expect(notice).to_contain_text("Deleted A's ace")
    expect(phone.log_item(type="ace")).to_have_count(0)
    assert_accessible(page, "the notice of a deleted ace")
    phone.tap_and_wait(notice.get_by_role("button", name="Bring it back"))
    expect(page.locator("[data-flash]")).to_contain_text("Brought back A's ace")
    expect(phone.log_item(type="ace")).to_have_count(1)
    expect(page.locator("ol[data-log] > li").first).to_have_attribute("data-type", "ace")  # where it was
    page.go_back()  # the notice again: it brings it back no second time
    page.reload()
    phone.tap_and_wait(page.locator("[data-flash]").get_by_role("button", name="Bring it back"))
    expect(page.locator("[data-flash]")).to_contain_text("Already brought back")
    expect(phone.log_item(type="ace")).to_have_count(1)


def test_a_deleted_robber_play_comes_back_from_the_notice(page):
    routes = Routes(page)
    made = routes.post("/games", [("variant", "robber"), ("first_dealer", "0"),
                                  *((f"seat_{i}", n) for i, n in enumerate(["Ann", "Bob", "Cy"]))])
    url = re.search(r"(/g/[^/]+/robber)$", location(made)).group(1)
    routes.post(url + "/play", [("player", "Bob"), ("action", "play"),
                                ("cards", "H4"), ("cards", "S4"), ("cards", "C4")])
    page.goto(url)
    line = page.locator("ol[data-log] > li[data-type=meld]")
    with page.expect_navigation():
        line.get_by_role("button", name=re.compile("^Delete")).tap()
    notice = page.locator("[data-flash]")
    expect(notice).to_contain_text("Deleted Bob's meld")
    expect(line).to_have_count(0)
    with page.expect_navigation():
        notice.get_by_role("button", name="Bring it back").tap()
    expect(line).to_have_count(1)
    expect(page.locator("[data-live-score]").first).to_be_visible()


def test_a_deleted_gin_round_comes_back_from_the_notice(page):
    routes = Routes(page)
    game = counted_game(routes, "gin", ["Ann", "Bob"], [("Ann", {"Ann": GIN_ANN, "Bob": GIN_BOB})])
    page.goto(game + "/rounds/1")
    expect(page.locator("[data-delete-sure]")).to_have_count(0)  # one tap, as in every game
    with page.expect_navigation():
        page.locator("[data-action=delete-round]").tap()
    notice = page.locator("[data-flash]")
    expect(notice).to_contain_text("Round 1 deleted")
    expect(page.locator("[data-total='Ann']")).to_have_text("0")
    assert_accessible(page, "the notice of a deleted round")
    with page.expect_navigation():
        notice.get_by_role("button", name="Bring it back").tap()
    expect(page.locator("[data-round-detail='1']")).to_be_visible()
    page.goto(game)
    expect(page.locator("[data-total='Ann']")).to_have_text("11")


def test_a_change_is_said_on_the_changes_page_in_the_phones_own_time(page):
    """The record of changes (issue 24, item 6) at phone size: an edit is said with what it
    did to the scores; the time is the phone's own (the page says UTC only without its
    script); the round's page links the play's history."""
    phone = Phone(page)
    phone.new_game(["Mia", "Zoe"], dealer=1)  # Mia starts
    phone.meld("H5", "H6", "H7", points=30)
    phone.lay_off(1, "H8", points=40)  # Mia's turn still
    phone.tap_and_wait(phone.log_item(type="meld", player="Mia").get_by_role("link", name="Edit"))
    phone.tap_cards("H4")
    phone.tap_and_wait(page.locator("[data-action=save]"))
    phone.goto("")
    phone.tap_and_wait(page.locator("[data-action=changes]"))
    line = page.locator("[data-change]")
    expect(line).to_have_count(1)
    expect(line).to_contain_text(
        "A phone · Round 1: Mia's meld (5♥ 6♥ 7♥) became 4♥ 5♥ 6♥ 7♥ · Mia +50, Mia's 8♥ 40 → 50")
    expect(line.locator("time")).not_to_contain_text("UTC")  # changes.js wrote the phone's own time
    assert_accessible(page, "the changes page")
    phone.goto("/rounds/1")
    phone.tap_and_wait(phone.log_item(type="meld", player="Mia").get_by_role("link", name="History"))
    assert re.search(r"/changes\?play=\d+$", page.url), page.url
    expect(page.locator("h1")).to_have_text("The history of a play")
    expect(page.locator("[data-change]")).to_have_count(1)
