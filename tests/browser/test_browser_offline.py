"""Offline that holds (issue 25, item 1, as far as it goes): the table pages a phone opened
and their files are kept by its service worker (static/sw.js), so a table reloaded with
the network gone is the table as this phone last saw it, with its plays waiting; once
the network is back they land, once each, in order, credited to whom they were tapped for.
"""
from __future__ import annotations

from browser_table import PHONE, Phone, Routes
from playwright.sync_api import expect


def under_the_worker(page) -> None:
    """Until the page's service worker is in control of it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => new Promise(done => navigator.serviceWorker.controller"
                  " ? done() : navigator.serviceWorker.addEventListener('controllerchange', () => done())))")


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
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")
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
