"""Offline that holds (issue 25, item 1, as far as it goes): the table pages a phone opened
and their files are kept by its service worker (static/sw.js), so a table reloaded with
the network gone is the table as this phone last saw it, with its plays waiting; once
the network is back they land, once each, in order, credited to whom they were tapped for.
"""
from __future__ import annotations

from contextlib import contextmanager

from browser_table import PHONE, Phone, Routes
from playwright.sync_api import expect


def under_the_worker(page) -> None:
    """Until the page's service worker is in control of it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => new Promise(done => navigator.serviceWorker.controller"
                  " ? done() : navigator.serviceWorker.addEventListener('controllerchange', () => done())))")


@contextmanager
def a_table_kept(browser, server):
    """A phone whose service worker may keep pages, at a new game's table (A's turn), the
    worker in control of it: (page, phone)."""
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        phone = Phone(page)
        phone.new_game(["A", "B", "C"], dealer=2)  # A's turn
        under_the_worker(page)
        phone.goto("/table")
        yield page, phone
    finally:
        context.close()


def test_a_table_reloaded_offline_is_the_table_as_last_seen_with_its_plays_waiting(browser, server):
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        check_offline(context.new_page(), browser, server)
    finally:
        context.close()


def check_offline(page, browser, server) -> None:
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)  # A's turn
    under_the_worker(page)
    phone.goto("/table")  # through the worker: a copy kept
    version = page.locator("body").get_attribute("data-version")

    page.context.set_offline(True)
    # Meanwhile another phone logs an ace: the server moves on, this phone cannot know.
    other = browser.new_context(base_url=server, **PHONE)
    try:
        routes = Routes(other.new_page())
        routes.key, routes.game_id = phone.key, phone.game_id
        routes.ace("C", "CA")
    finally:
        other.close()
    page.locator("label:has(input[data-player='B']) > span").tap()
    page.locator("[data-ace='SA']").tap()  # B's ace, tapped offline
    page.locator("[data-action=pass]").tap()  # and A's pass
    expect(page.locator("[data-waiting] li")).to_have_count(2)

    page.once("dialog", lambda dialog: dialog.accept())  # "leave with plays not sent?"
    page.reload()
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")  # A's pass waiting: moved on
    assert page.locator("body").get_attribute("data-version") == version  # the copy kept, not the server's
    expect(page.locator("[data-log] li[data-type=ace]")).to_have_count(0)
    expect(page.locator("[data-waiting] li")).to_have_count(2)
    expect(page.locator("[data-waiting]")).to_contain_text("Not sent yet")

    page.context.set_offline(False)
    page.evaluate("dispatchEvent(new Event('online'))")
    expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
    aces = page.locator("[data-log] li[data-type=ace]")
    expect(aces).to_have_count(2)
    expect(page.locator("[data-log] li[data-type=ace][data-player='B']")).to_contain_text("A♠")
    expect(page.locator("[data-log] li[data-type=ace][data-player='C']")).to_contain_text("A♣")


def test_passes_waiting_move_the_turn_so_the_next_plays_are_credited_right(browser, server):
    """A table phone offline: A passes, B melds, B passes, and a reload in between. Each
    waiting pass moves the turn on the page at once (the heading, the Pass button, who
    plays), so the next play is B's and the second pass names B's turn; back online,
    every play lands once, in order, credited to whom it was tapped for."""
    with a_table_kept(browser, server) as (page, phone):
        turn = page.locator("section[data-turn]")
        page.context.set_offline(True)

        page.locator("[data-action=pass]").tap()  # A's pass, waiting
        expect(turn).to_have_attribute("data-turn", "B")
        expect(turn.locator("h1")).to_contain_text("B’s turn")
        expect(page.locator("[data-action=pass]")).to_contain_text("Pass to C")
        expect(page.locator("form#play input[name=player][value=B]")).to_be_checked()
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()  # B's meld, waiting
        page.locator("[data-action=pass]").tap()  # B's pass, waiting
        expect(turn).to_have_attribute("data-turn", "C")
        expect(page.locator("[data-waiting] li")).to_have_count(3)

        page.once("dialog", lambda dialog: dialog.accept())  # "leave with plays not sent?"
        page.reload()  # offline: the copy kept, the waiting passes moved on again
        expect(turn).to_have_attribute("data-turn", "C")
        expect(page.locator("[data-action=pass]")).to_contain_text("Pass to A")
        expect(page.locator("form#play input[name=player][value=C]")).to_be_checked()
        expect(page.locator("[data-waiting] li")).to_have_count(3)

        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(turn).to_have_attribute("data-turn", "C")
        expect(page.locator("[data-log] li[data-type=meld][data-player=B]")).to_contain_text("7♠ 8♠ 9♠")
        expect(page.locator("[data-log]")).to_contain_text("A passed to B")
        expect(page.locator("[data-log]")).to_contain_text("B passed to C")
        expect(page.locator("[data-error]")).to_have_count(0)


def test_a_meld_waiting_shows_among_the_melds_and_moves_the_strip_by_its_points(browser, server):
    """A meld whose preview was seen before the network went: drawn among the melds,
    marked as waiting, its points already in the strip (round and total); a pair tapped
    with no network at all, so no preview: the strip says "+?" rather than guess. Reloaded
    offline, the same; back online, both land and the strip is the server's again."""
    with a_table_kept(browser, server) as (page, phone):
        round_a, total_a = page.locator("[data-round-score='A']"), page.locator("[data-total='A']")
        before = int(round_a.inner_text())
        phone.tap_cards("S7", "S8", "S9")
        seen = page.locator("[data-preview] [data-ok='1']")
        expect(seen).to_have_count(1)
        points = int(seen.get_attribute("data-points"))

        page.context.set_offline(True)
        page.locator("form#play [data-action=confirm]").tap()  # A's meld, waiting
        expect(page.locator("[data-waiting] li")).to_have_count(1)
        expect(round_a).to_have_text(str(before + points))
        expect(total_a).to_have_text(str(points))
        waiting = page.locator("[data-melds] [data-waited]")
        expect(waiting).to_have_text("A: 7♠ 8♠ 9♠ (Not sent yet)")
        phone.tap_cards("D5", "C5")  # a pair, tapped with no network: no preview
        page.locator("form#play [data-action=confirm]").tap()
        expect(round_a).to_have_text(f"{before + points}+?")
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(2)

        page.once("dialog", lambda dialog: dialog.accept())  # "leave with plays not sent?"
        page.reload()
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        expect(round_a).to_have_text(f"{before + points}+?")
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(2)

        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(0)
        expect(page.locator("[data-log] li[data-type=meld]")).to_have_count(2)
        landed = int(round_a.inner_text())
        assert landed > before + points  # the server's, the pair's points in it
        assert round_a.get_attribute("data-was") is None

        page.context.set_offline(True)  # a lay-off waiting: drawn on its meld
        phone.tap_meld(1)
        phone.tap_cards("S10")
        page.locator("form#play [data-action=confirm]").tap()
        meld = page.locator("[data-melds] label:has(input[data-meld-number='1'])")
        expect(meld.locator("[data-waited]")).to_have_text("+ 10♠ (Not sent yet)")
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(meld).to_contain_text("10♠")
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(0)
