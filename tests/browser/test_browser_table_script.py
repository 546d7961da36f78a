"""The table with its script, at phone size: plays sent in the background, plays that
wait while the server does not answer, cards picked kept when the page is left.

A play (Confirm, an ace, Pass, Undo) is sent in the background and the page updated in
place: the scroll position and the cards picked meanwhile stay. A play the server does
not answer waits on the phone (in the page and in localStorage), listed as not sent,
survives a reload and is sent when the server answers again, counted once even when the
server had it and only its answer was lost; leaving the page meanwhile warns.
"""
from __future__ import annotations

import re

import pytest
from browser_table import Phone, Routes, deaf
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible

WAITING = "[data-waiting] li"


@pytest.fixture
def phone(page) -> Phone:
    phone = Phone(page)
    phone.start_game(["A", "B", "C"], dealer=2)  # C deals, A starts
    page.evaluate("window.__sameDocument = true")
    return phone


def same_document(phone: Phone) -> bool:
    return phone.page.evaluate("window.__sameDocument === true")


def scroll_y(phone: Phone) -> float:
    return phone.page.evaluate("window.scrollY")


def stored_waiting(phone: Phone) -> list:
    return phone.page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('waiting ')).map(k => JSON.parse(localStorage[k]))")


def test_plays_in_the_background_keep_the_scroll_and_the_cards_half_picked(phone):
    page = phone.page
    # A's run: the cards at the foot of the picker, Confirm in the bar at the bottom.
    phone.tap_cards("S7", "S8", "S9")
    phone.expect_preview(30)
    phone.card_cell("CK").scroll_into_view_if_needed()
    before = scroll_y(phone)
    assert before > 0
    phone.confirm()
    expect(phone.log_item(type="meld", player="A")).to_have_count(1)
    expect(page.locator("[data-bar] [data-flash]")).to_contain_text("30 points.")
    assert scroll_y(phone) == before and same_document(phone)
    for card in ("S7", "S8", "S9"):
        expect(phone.card_input(card)).to_be_disabled()
    expect(page.locator("[data-round-score='A']")).to_have_text("30")

    # A card half picked for the next meld stays picked through an ace, a pass (refused
    # while a card is picked: it is to be logged first, not left to the next player) and an
    # undo (of the ace).
    phone.tap_cards("H5")
    for play in (page.locator("[name=card][value=DA]"), page.locator("[data-action=pass]"),
                 page.locator("[data-action=undo]")):
        play.evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the sticky strip
        before = scroll_y(phone)
        phone.send(play)
        bottom = page.evaluate("document.documentElement.scrollHeight - innerHeight")
        assert scroll_y(phone) == min(before, bottom)  # where it was (the log may be shorter)
        expect(phone.card_input("H5")).to_be_checked()
    assert phone.turn() == "A"  # the pass refused
    expect(phone.log_item(type="ace", player="A")).to_have_count(0)
    expect(page.locator("[data-flash]")).to_contain_text("Took back A's ace (A♦).")
    assert same_document(phone)
    assert_accessible(page, "table after plays sent in the background")


def test_a_refused_play_keeps_its_cards_picked_and_says_why(phone):
    page = phone.page
    routes = Routes(page)
    routes.key = phone.key
    phone.tap_cards("S7", "S8", "S9")
    phone.expect_preview(30)
    deaf(page)  # this phone hears nothing of it
    routes.meld("B", "S9", "H9", "D9")  # another phone lays S9 meanwhile
    phone.confirm()
    expect(page.locator("[data-bar] [data-error][role=alert]")).to_contain_text("already on the table")
    for card in ("S7", "S8", "S9"):
        expect(phone.card_input(card)).to_be_checked()  # still picked, to change
    expect(phone.log_item(type="meld", player="B")).to_have_count(1)  # the answer's regions
    expect(phone.log_item(type="meld", player="A")).to_have_count(0)


def test_a_play_the_server_does_not_answer_waits_survives_a_reload_and_counts_once(phone):
    page = phone.page
    attempts = []

    def server_unreachable(route):
        attempts.append(route.request.post_data)
        route.abort()

    page.route(re.compile(r"/plays$"), server_unreachable)
    phone.tap_cards("S7", "S8", "S9")
    phone.expect_preview(30)
    page.locator("form#play [data-action=confirm]").tap()
    expect(page.locator(WAITING)).to_have_text(["A: 7♠ 8♠ 9♠"])
    expect(page.locator("[data-waiting]")).to_contain_text("Not sent yet")
    # At the top, right under the score strip: in view, not below the picker (issue 25).
    expect(page.locator("[data-region=scores] + [data-waiting]")).to_have_count(1)
    assert page.locator("[data-waiting]").bounding_box()["y"] < 300
    for card in ("S7", "S8", "S9"):
        expect(phone.card_input(card)).to_be_disabled()  # on their way to the table
    assert [len(item) for item in stored_waiting(phone)] == [1]

    # Reloaded (the warning accepted): the play is still there, waiting.
    page.once("dialog", lambda dialog: dialog.accept())
    page.reload()
    expect(page.locator(WAITING)).to_have_text(["A: 7♠ 8♠ 9♠"])
    expect(page.locator("ol[data-log]")).to_have_count(0)

    # The server had the play, only its answer was lost; the phone sends it again.
    lost = []

    def answer_lost_once(route):
        if not lost:
            lost.append(route.fetch())  # the server logs the play …
            route.abort()  # … and its answer never reaches the phone
        else:
            route.continue_()

    page.unroute(re.compile(r"/plays$"))
    page.route(re.compile(r"/plays$"), answer_lost_once)
    expect(page.locator(WAITING)).to_have_count(0, timeout=10_000)
    assert lost and lost[0].status == 200
    expect(page.locator("[data-flash]")).to_contain_text("Already saved")
    expect(phone.log_item(type="meld", player="A")).to_have_count(1)  # once
    assert phone.round_scores()["A"] == 30
    assert stored_waiting(phone) == []
    ids = {re.search(r"request_id=([^&]+)", body).group(1) for body in attempts}
    assert len(ids) == 1  # every attempt carried the play's own request id


def test_plays_made_offline_are_sent_in_order_when_the_phone_is_back(phone, context):
    page = phone.page
    context.set_offline(True)
    page.locator("[name=card][value=DA]").tap()
    phone.tap_cards("S7", "S8", "S9")  # no preview without the server: Confirm stays on
    page.locator("form#play [data-action=confirm]").tap()
    page.locator("[data-action=pass]").tap()
    expect(page.locator(WAITING)).to_have_text(["A: A♦", "A: 7♠ 8♠ 9♠", "Pass to B"])
    context.set_offline(False)
    expect(page.locator(WAITING)).to_have_count(0, timeout=10_000)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")  # the pass
    ace, meld = phone.log_item(type="ace", player="A"), phone.log_item(type="meld", player="A")
    expect(ace).to_have_count(1)
    expect(meld).to_have_count(1)
    assert int(ace.get_attribute("data-play")) < int(meld.get_attribute("data-play"))  # in order
    assert same_document(phone)


def test_leaving_the_page_with_plays_not_sent_warns(phone):
    page = phone.page
    page.route(re.compile(r"/pass$"), lambda route: route.abort())
    page.locator("[data-action=pass]").tap()
    expect(page.locator(WAITING)).to_have_text(["Pass to B"])
    warned = []
    page.once("dialog", lambda dialog: (warned.append(dialog.type), dialog.dismiss()))
    page.get_by_role("link", name="Game page").tap(no_wait_after=True)
    expect(page.locator(WAITING)).to_have_count(1)
    page.evaluate("0")
    assert warned == ["beforeunload"]
    assert page.url.endswith("/table") and same_document(phone)


def test_cards_picked_are_kept_when_the_table_is_left_and_opened_again(phone):
    page = phone.page
    page.locator("label:has(input[name=player][value='B']) > span").tap()
    phone.tap_cards("H9", "C9")
    phone.expect_preview(10)
    phone.tap_and_wait(page.get_by_role("link", name="Game page"))
    phone.tap_and_wait(page.locator("[data-action=resume]"))  # back to the table
    for card in ("H9", "C9"):
        expect(phone.card_input(card)).to_be_checked()
    expect(page.locator("input[name=player][value='B']")).to_be_checked()
    expect(page.locator("[data-bar] .count")).to_have_text("2 cards: 9♥ 9♣")
    phone.expect_preview(10)
    phone.confirm()
    expect(phone.log_item(type="meld", player="B")).to_have_count(1)
    # Logged: nothing is picked again the next time the table is opened.
    page.reload()
    expect(page.locator("[data-picker] input:checked")).to_have_count(0)
