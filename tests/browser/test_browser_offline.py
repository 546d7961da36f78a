"""Offline that holds (issue 25, item 1, as far as it goes): the table pages a phone opened
and their files are kept by its service worker (static/sw.js), so a table reloaded with
the network gone is the table as this phone last saw it, with its plays waiting; once
the network is back they land, once each, in order, credited to whom they were tapped for.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager

from browser_table import PHONE, Phone, Routes, location, send
from playwright.sync_api import expect
from test_browser_robber import choose_meld, tap_cards, who_plays


def under_the_worker(page) -> None:
    """Until the page's service worker is in control of it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => new Promise(done => navigator.serviceWorker.controller"
                  " ? done() : navigator.serviceWorker.addEventListener('controllerchange', () => done())))")


@contextmanager
def a_table_kept(browser, server, players=("A", "B", "C")):
    """A phone whose service worker may keep pages, at a new game's table (A's turn), the
    worker in control of it: (page, phone)."""
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        phone = Phone(page)
        phone.new_game(list(players), dealer=len(players) - 1)  # A's turn
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
    page.locator("label:has(input[name=player][value='B']) > span").tap()
    page.locator("[name=card][value=SA]").tap()  # B's ace, tapped offline
    page.locator("[data-action=pass]").tap()  # and A's pass
    expect(page.locator("[data-waiting] li")).to_have_count(2)

    page.once("dialog", lambda dialog: dialog.accept())  # "leave with plays not sent?"
    page.reload()
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")  # A's pass waiting: moved on
    assert page.locator("body").get_attribute("data-version") == version  # the copy kept, as last seen
    expect(page.locator("[data-log] li[data-type=ace]")).to_have_count(0)
    expect(page.locator("[data-waiting] li")).to_have_count(2)
    expect(page.locator("[data-waiting]")).to_contain_text("Not sent yet")

    page.context.set_offline(False)
    page.evaluate("dispatchEvent(new Event('online'))")
    expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
    expect(page.locator("[data-log] li[data-type=ace]")).to_have_count(1)
    expect(page.locator("[data-log] li[data-type=ace][data-player='B']")).to_contain_text("A♠")
    expect(page.locator("[data-log]")).to_contain_text("A passed to B")
    expect(page.locator("[data-error]")).to_have_count(0)


def test_plays_waiting_while_another_phone_logs_them_are_not_logged_twice(browser, server):
    """This phone loses the network with A's meld and A's pass waiting; the table logs
    them again on another phone, and B's ace after them. Back online, both waiting
    plays are refused, each named: the table changed while they waited. Nothing is
    logged twice, and the turn is the server's (B's)."""
    with a_table_kept(browser, server) as (page, phone):
        page.context.set_offline(True)
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()  # A's meld, waiting
        page.locator("[data-action=pass]").tap()  # A's pass, waiting
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        other, routes = another_phone(browser, server, phone)
        try:
            routes.meld("A", "S7", "S8", "S9")
            routes.pass_turn()
            routes.ace("B", "SA")
        finally:
            other.close()
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        said = page.locator("[data-said]")
        expect(said).to_contain_text("A's meld (7♠ 8♠ 9♠) waited to be sent, and meanwhile the table changed on "
                                     "another phone: it was not saved.")
        expect(said).to_contain_text("A's pass waited to be sent")
        expect(page.locator("[data-log] li[data-type=meld]")).to_have_count(1)
        assert page.locator("[data-log]").inner_text().count("A passed to B") == 1
        expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
        expect(page.locator("[data-scores] td[data-round-score=A]")).to_have_text("30")


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
        strip = page.locator("[data-scores] th[aria-current=true]")  # the strip's column too
        expect(strip).to_have_count(1)
        expect(strip).to_have_attribute("data-player", "B")
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
    marked as waiting, its points already in the strip (round and total); a pair and a
    special meld tapped with no network at all, so no preview: their points too, as the
    game's worth data says (games/worth.py), never "+?". Reloaded offline, the same; back
    online, they land and the strip is the server's, the same numbers. Two lay-offs
    waiting on one meld: the second scores the place after the first."""
    with a_table_kept(browser, server) as (page, phone):
        round_a, total_a = page.locator("[data-round-score='A']"), page.locator("[data-total='A']")
        before = int(round_a.inner_text())
        phone.tap_cards("S7", "S8", "S9")
        seen = page.locator("[data-preview] [data-ok='1']")
        expect(seen).to_have_count(1)
        points = json.loads(seen.get_attribute("data-moves"))["A"]

        page.context.set_offline(True)
        page.locator("form#play [data-action=confirm]").tap()  # A's meld, waiting
        expect(page.locator("[data-waiting] li")).to_have_count(1)
        expect(round_a).to_have_text(str(before + points))
        expect(total_a).to_have_text("0")  # the rounds ended only
        waiting = page.locator("[data-melds] [data-waited]")
        expect(waiting).to_have_text("A: 7♠ 8♠ 9♠ (Not sent yet)")
        phone.tap_cards("D5", "C5")  # a pair, tapped with no network: no preview
        page.locator("form#play [data-action=confirm]").tap()
        expect(round_a).to_have_text(str(before + points + 10))
        phone.tap_cards("H3", "H5", "H7", "H9", "HJ", "HK")  # odds in one suit: 700
        page.locator("form#play [data-action=confirm]").tap()
        expected = before + points + 10 + 700
        expect(round_a).to_have_text(str(expected))
        expect(total_a).to_have_text("0")  # the game's total counts the rounds ended
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(3)

        page.once("dialog", lambda dialog: dialog.accept())  # "leave with plays not sent?"
        page.reload()
        expect(page.locator("[data-waiting] li")).to_have_count(3)
        expect(round_a).to_have_text(str(expected))
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(3)

        held = []  # the answers after the first held back: the plays still to land stay shown
        page.route(re.compile(r"/plays$"), lambda route: held.append(route) if held or route.request.method != "POST"
                   or page.locator("[data-log] li[data-type=meld]").count() else route.continue_())
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-log] li[data-type=meld]")).to_have_count(1)  # the first landed
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(2)
        expect(round_a).to_have_text(str(expected))
        held[0].continue_()  # the rest, as they come
        page.unroute(re.compile(r"/plays$"))
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(0)
        expect(page.locator("[data-log] li[data-type=meld]")).to_have_count(3)
        expect(round_a).to_have_text(str(expected))  # the server's now: the same
        expect(total_a).to_have_text("0")
        assert round_a.get_attribute("data-was") is None

        page.context.set_offline(True)  # two lay-offs waiting: drawn on their meld
        for card in ("S10", "SJ"):
            phone.tap_meld(1)
            phone.tap_cards(card)
            page.locator("form#play [data-action=confirm]").tap()
        meld = page.locator("[data-melds] label:has(input[data-meld-number='1'])")
        expect(meld.locator("[data-waited]")).to_have_text(["+ 10♠ (Not sent yet)", "+ J♠ (Not sent yet)"])
        expect(round_a).to_have_text(str(expected + 40 + 50))  # the 4th card of the run, then the 5th
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(meld).to_contain_text("J♠")
        expect(page.locator("[data-melds] [data-waited]")).to_have_count(0)
        expect(round_a).to_have_text(str(expected + 40 + 50))


def kept_now(page) -> None:
    """Until the worker keeps the page at the version it shows."""
    page.wait_for_function("caches.open('scorekeeper-tables').then(c => c.match(location.href))"
                           ".then(r => r && r.text()).then(t => !!t && t.includes('data-version=\"'"
                           " + document.body.dataset.version + '\"'))")


def another_phone(browser, server, phone):
    """Routes on a second phone, on the same game."""
    other = browser.new_context(base_url=server, **PHONE)
    routes = Routes(other.new_page())
    routes.key, routes.game_id = phone.key, phone.game_id
    return other, routes


def test_a_table_reloaded_offline_shows_what_it_heard_live_since_it_was_loaded(browser, server):
    """The worker kept the table as it was loaded; another phone's plays reach it live
    afterwards. Reloaded with no network, it is the table as last seen: those plays too,
    its version, their cards gone from the picker (two decks: each card's second copy
    drawn once)."""
    with a_table_kept(browser, server, ("A", "B", "C", "D", "E")) as (page, phone):
        phone.tap_cards("H2", "H3")  # picked as the change comes: the copy is kept so
        expect(page.locator("[data-preview] [data-ok]")).to_have_count(1)
        other, routes = another_phone(browser, server, phone)
        try:
            routes.ace("A", "CA")
            routes.meld("A", "S7", "S8", "S9")
        finally:
            other.close()
        meld = page.locator("[data-log] li[data-type=meld][data-player=A]")
        expect(meld).to_contain_text("7♠ 8♠ 9♠")
        version = page.locator("body").get_attribute("data-version")
        kept_now(page)
        phone.tap_cards("H2", "H3")  # unpicked again
        page.context.set_offline(True)
        page.reload()
        expect(meld).to_contain_text("7♠ 8♠ 9♠")
        expect(page.locator("[data-log] li[data-type=ace][data-player=A]")).to_have_count(1)
        expect(page.locator("[data-bar] [data-tally]")).to_have_text("")  # nothing picked, not the count kept
        expect(page.locator("[data-preview]")).to_have_text("")
        assert page.locator("body").get_attribute("data-version") == version
        expect(page.locator("form#play input[value=S8]:not([data-copy])")).to_be_enabled()  # its second copy
        seconds = page.locator("form#play [data-second] input:not([data-one],[data-copy])")
        expect(seconds).not_to_have_count(0)
        expect(page.locator("form#play label.two")).to_have_count(seconds.count())
        expect(page.locator("[data-waiting]")).to_have_count(0)


def test_a_pass_waiting_keeps_the_turn_moved_on_when_another_phones_play_arrives(browser, server):
    """A's pass waits (its request fails); C's ace, logged on another phone, reaches this
    one live and its regions replace the table's: the turn is still B's (the pass waiting
    moves the server's turn on again), so no second pass is offered for A. Sent at last,
    the pass is refused, named (the table changed while it waited), and the turn is A's
    again: A passes once more, and it lands once."""
    with a_table_kept(browser, server) as (page, phone):
        turn = page.locator("section[data-turn]")
        page.route("**/pass", lambda route: route.abort())
        page.locator("[data-action=pass]").tap()  # A's pass: no answer
        expect(page.locator("[data-waiting] li")).to_have_count(1)
        expect(turn).to_have_attribute("data-turn", "B")
        other, routes = another_phone(browser, server, phone)
        try:
            routes.ace("C", "CA")
        finally:
            other.close()
        expect(page.locator("[data-log] li[data-type=ace][data-player=C]")).to_have_count(1)
        expect(turn).to_have_attribute("data-turn", "B")
        expect(page.locator("[data-action=pass]")).to_contain_text("Pass to C")
        page.unroute("**/pass")
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-error]")).to_contain_text("A's pass waited to be sent")
        expect(turn).to_have_attribute("data-turn", "A")
        page.wait_for_timeout(700)  # not a double tap
        send(page, page.locator("[data-action=pass]"))
        expect(turn).to_have_attribute("data-turn", "B")
        assert page.locator("[data-log]").inner_text().count("A passed to B") == 1


def test_a_robber_hand_reloaded_offline_is_the_hand_as_last_seen(browser, server):
    """Robber's hand is a table page too: kept by the worker, and kept again as another
    phone's meld reaches it live; reloaded with no network, that meld is there. A steal
    tapped then, with no preview, moves the strip as the rules will: the meld's worth
    from its owner to the thief, its new card too; the thief's next card on it adds its
    own worth alone; a sequence after it scores double. Another player's card on that meld
    then is not known: every column says so ("+?")."""
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        routes = Routes(page)
        made = routes.post("/games", [("variant", "robber"), ("seat_0", "Ann"), ("seat_1", "Bob"),
                                      ("seat_2", "Cy"), ("first_dealer", "2")])
        hand = location(made)
        page.goto(hand)
        under_the_worker(page)
        page.goto(hand)
        other = browser.new_context(base_url=server, **PHONE)
        try:
            Routes(other.new_page()).post(hand.replace("/robber", "/robber/play"), [
                ("player", "Ann"), ("action", "play"), ("cards", "H4"), ("cards", "S4"), ("cards", "C4")])
        finally:
            other.close()
        meld = page.locator("[data-log] li[data-type=meld][data-player=Ann]")
        expect(meld).to_contain_text("4♥")
        kept_now(page)
        page.context.set_offline(True)
        page.reload()
        expect(meld).to_contain_text("4♥")
        ann, bob = page.locator("[data-round-score='Ann']"), page.locator("[data-round-score='Bob']")
        expect(page.locator("[data-live-scores]")).to_have_css("opacity", "1")
        expect(ann).to_have_text("15")
        who_plays(page, "Bob")
        choose_meld(page, 1)
        tap_cards(page, "D4")
        page.locator("form#play [data-action=confirm]").tap()
        expect(ann).to_have_text("0")
        expect(bob).to_have_text("20")
        who_plays(page, "Bob")
        choose_meld(page, 1)
        tap_cards(page, "H4")  # Bob's again, on the meld his steal waiting took: no second steal
        page.locator("form#play [data-action=confirm]").tap()
        expect(ann).to_have_text("0")
        expect(bob).to_have_text("25")
        who_plays(page, "Bob")
        tap_cards(page, "S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()
        expect(bob).to_have_text("55")
        expect(page.locator("[data-waiting] li")).to_have_count(3)
        expect(page.locator("[data-live-scores]")).to_have_css("opacity", "0.55")  # the server's: without them
        who_plays(page, "Ann")  # Ann on the meld Bob's play waiting took: not known, and said so
        choose_meld(page, 1)
        tap_cards(page, "C4")
        page.locator("form#play [data-action=confirm]").tap()
        expect(page.locator("td[data-round-score]")).to_have_text(["0+?", "55+?", "0+?"])
    finally:
        context.close()


def test_a_robber_renege_waiting_makes_the_passes_after_it_pass_the_reneger_by(browser, server):
    """Bob takes the pile; then, with no network, his renege and three passes wait: the
    pending card's note goes, the Pass shows, and the turn moves here as the server will
    move it (Bob to Cy, Cy to Ann, Ann to Cy: Bob is out of the hand), on a reload too;
    back online, every play lands, credited as tapped."""
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        made = Routes(page).post("/games", [("variant", "robber"), ("seat_0", "Ann"), ("seat_1", "Bob"),
                                            ("seat_2", "Cy"), ("first_dealer", "0")])  # Bob's turn
        hand = location(made)
        page.goto(hand)
        under_the_worker(page)
        page.goto(hand)
        who_plays(page, "Bob")
        tap_cards(page, "SK")
        send(page, page.locator("[data-action=take]"))
        expect(page.locator("[data-action=pass]")).to_be_hidden()  # SK must be melded first
        kept_now(page)
        turn = page.locator("section[data-turn]")
        page.context.set_offline(True)
        page.locator("[data-action=renege]").tap()
        expect(page.locator("[data-pending-take]")).to_be_hidden()
        for i, (passer, to) in enumerate([("Bob", "Cy"), ("Cy", "Ann"), ("Ann", "Cy")]):
            expect(turn).to_have_attribute("data-turn", passer)
            expect(page.locator("input[name=player]:checked")).to_have_value(passer)
            page.wait_for_timeout(700)  # not a double tap
            page.locator("[data-action=pass]").tap()
            expect(page.locator("[data-waiting] li")).to_have_count(i + 2)
            expect(turn).to_have_attribute("data-turn", to)
        page.reload()  # the page kept, its plays waiting on it again
        expect(page.locator("[data-waiting] li")).to_have_count(4)
        expect(turn).to_have_attribute("data-turn", "Cy")
        expect(page.locator("[data-action=pass]")).to_contain_text("Ann")
        page.context.set_offline(False)
        expect(page.locator("[data-waiting] li")).to_have_count(0)
        expect(page.locator("[data-error]")).to_have_count(0)
        expect(turn).to_have_attribute("data-turn", "Cy")
        log = page.locator("[data-log]")
        expect(log).to_contain_text("Bob reneged: −100 this hand · Bob discarded: Cy’s turn")
        expect(log).to_contain_text("Cy discarded: Ann’s turn")
        expect(log).to_contain_text("Ann discarded: Cy’s turn")
        expect(log.locator("li")).to_have_count(4)  # the take, the renege with Bob's pass, two passes
    finally:
        context.close()


def test_a_table_reloaded_offline_has_who_plays_on_whose_turn_it_is(browser, server):
    """The turn moved on live (another phone's pass) since the table was loaded: the page
    kept has who plays on the turn's player, not on the one of the page first loaded,
    so a meld tapped after a reload offline is credited to whose turn it is."""
    with a_table_kept(browser, server) as (page, phone):
        other, routes = another_phone(browser, server, phone)
        try:
            routes.pass_turn()  # A's pass
        finally:
            other.close()
        expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
        expect(page.locator("form#play input[name=player][value=B]")).to_be_checked()
        kept_now(page)
        page.context.set_offline(True)
        page.reload()
        expect(page.locator("form#play input[name=player][value=B]")).to_be_checked()
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()
        expect(page.locator("[data-waiting] li")).to_contain_text("B:")
        page.context.set_offline(False)
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-log] li[data-type=meld][data-player=B]")).to_contain_text("7♠ 8♠ 9♠")


def test_a_double_tap_on_an_ace_offline_waits_once(browser, server):
    """Two quick taps on the same ace with no network: one ace waiting, as for Pass; a
    tap on another ace at once is a play of its own."""
    with a_table_kept(browser, server) as (page, phone):
        page.context.set_offline(True)
        ace = page.locator("[name=card][value=SA]")
        ace.tap()
        ace.tap()
        page.locator("[name=card][value=HA]").tap()
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        page.context.set_offline(False)
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-error]")).to_have_count(0)
        expect(page.locator("[data-log] li[data-type=ace]")).to_have_count(2)


def test_a_table_opened_first_by_its_link_reopens_offline(browser, server):
    """A new phone whose first page is the table's link (the worker not there yet when
    it loaded): once the worker is in control it keeps that table, what a new meld scores
    there and the files it uses, so the table reopens with no network, its script running,
    a pass waiting on it and a meld after it, its points in the strip."""
    with a_table_kept(browser, server) as (_page, phone):
        url = phone.url + "/table"
    context = browser.new_context(base_url=server, **{**PHONE, "service_workers": "allow"})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(url)
        under_the_worker(page)
        kept_now(page)
        for kept in ("/static/app.js", phone.url + "/worth"):
            page.wait_for_function(f"caches.open('scorekeeper-tables').then(c => c.match(new URL('{kept}', "
                                   "location.href).href)).then(r => !!r)")
        page.context.set_offline(True)
        page.reload()
        expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")
        expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))  # its script ran
        page.locator("[data-action=pass]").tap()
        expect(page.locator("[data-waiting] li")).to_have_count(1)
        expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
        tap_cards(page, "S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()  # B's, no preview: the worth kept
        expect(page.locator("[data-round-score='B']")).to_have_text("30")
    finally:
        context.close()


def lose_the_first_answer(page):
    """The table's plays, sent: the first reaches the server, which saves it, and its
    answer is lost; every later one is lost on the way (no network)."""
    reached = []

    def lost(route):
        if not reached:
            reached.append(route.fetch())
        route.abort()
    page.route("**/plays", lost)


def logged_elsewhere_then_back_online(browser, server, page, phone, *cards):
    """Another phone logs A's meld of ``cards``; then this phone's network is back, and
    what waited on it is sent, till nothing waits."""
    other, routes = another_phone(browser, server, phone)
    try:
        routes.meld("A", *cards)
    finally:
        other.close()
    page.unroute("**/plays")
    page.evaluate("dispatchEvent(new Event('online'))")
    expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)


def two_melds_waiting_the_first_saved(page, phone):
    """A's 7♠ 8♠ 9♠ (saved, its answer lost) and 7♥ 8♥ 9♥ (not sent), both waiting."""
    lose_the_first_answer(page)
    phone.tap_cards("S7", "S8", "S9")
    page.locator("form#play [data-action=confirm]").tap()
    expect(page.locator("[data-waiting] li")).to_have_count(1)
    phone.tap_cards("H7", "H8", "H9")
    page.locator("form#play [data-action=confirm]").tap()
    expect(page.locator("[data-waiting] li")).to_have_count(2)


def test_two_decks_offline_a_card_in_a_play_waiting_leaves_its_other_copy(browser, server):
    """Two decks, no network: A's run takes one 7♠; its cell stays for the other copy (its
    second-copy cell goes), which B's set then takes, and then the cell is off; so after a
    reload offline. Back online both land, each scored as the strip said."""
    with a_table_kept(browser, server, ("A", "B", "C", "D")) as (page, phone):  # two decks
        page.context.set_offline(True)
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()
        expect(phone.card_input("S7")).to_be_enabled()
        expect(phone.card_input("S7", copy=2)).to_have_count(0)
        expect(phone.card_input("S8")).to_be_enabled()
        page.locator("label:has(input[name=player][value='B']) > span").tap()
        phone.tap_cards("S7", "H7", "D7")
        page.locator("form#play [data-action=confirm]").tap()
        expect(phone.card_input("S7")).to_be_disabled()
        page.once("dialog", lambda dialog: dialog.accept())
        page.reload()
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        expect(phone.card_input("S7")).to_be_disabled()
        expect(phone.card_input("H7")).to_be_enabled()
        expect(phone.card_input("H7", copy=2)).to_have_count(0)
        scores = page.locator("td[data-round-score]")
        expect(scores).to_have_text(["30", "30", "0", "0"])
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-error]")).to_have_count(0)
        expect(scores).to_have_text(["30", "30", "0", "0"])
        expect(phone.card_input("S7")).to_be_disabled()


def test_names_javascript_has_of_its_own_score_offline_and_an_undo_waiting_doubts(browser, server):
    """Players called "toString" and "__proto__" score offline as any other player does;
    an undo waiting is the server's to say: every column doubts ("+?") till it is answered
    (here it is refused: a play landed before it)."""
    with a_table_kept(browser, server, ("toString", "__proto__", "C")) as (page, phone):
        scores = page.locator("td[data-round-score]")
        phone.meld("S7", "S8", "S9", points=30)  # toString's, saved
        page.context.set_offline(True)
        who_plays(page, "__proto__")
        phone.tap_cards("H2", "H3", "H4")
        page.locator("form#play [data-action=confirm]").tap()
        expect(scores).to_have_text(["30", "30", "0"])
        page.locator("[data-action=undo]").tap()
        expect(scores).to_have_text(["30+?", "30+?", "0+?"])
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(scores).to_have_text(["30", "30", "0"])


def test_a_play_saved_whose_answer_was_lost_is_not_refused_when_sent_again(browser, server):
    """The first meld was saved but its answer never came: sent again after waiting, it is
    found saved already (not refused as if the table had changed), and the meld waiting
    after it, tapped on the table that meld made, lands too. Each is logged once."""
    with a_table_kept(browser, server, ("A", "B", "C", "D")) as (page, phone):  # two decks
        two_melds_waiting_the_first_saved(page, phone)
        page.unroute("**/plays")
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-error]")).to_have_count(0)
        melds = page.locator("[data-log] li[data-type=meld][data-player=A]")
        expect(melds).to_have_count(2)
        expect(melds.first).to_contain_text("7♠ 8♠ 9♠")
        expect(melds.last).to_contain_text("7♥ 8♥ 9♥")


def test_a_play_waiting_behind_one_saved_is_refused_if_another_phone_logged_it(browser, server):
    """As above, but meanwhile another phone logs A's 7♥ 8♥ 9♥: the first meld is found
    saved already, and the second, which waited while the table changed, is refused and
    named, not logged twice."""
    with a_table_kept(browser, server, ("A", "B", "C", "D")) as (page, phone):  # two decks
        two_melds_waiting_the_first_saved(page, phone)
        logged_elsewhere_then_back_online(browser, server, page, phone, "H7", "H8", "H9")
        expect(page.locator("[data-error]")).to_contain_text("A's meld (7♥ 8♥ 9♥) waited to be sent")
        melds = page.locator("[data-log] li[data-type=meld][data-player=A]")
        expect(melds).to_have_count(2)  # 7♠ 8♠ 9♠ once, 7♥ 8♥ 9♥ once (the other phone's)
        expect(page.locator("[data-picker] :checked")).to_have_count(0)  # not picked again: logged there


def test_a_play_tapped_while_an_earlier_one_hung_is_checked_as_waiting_too(browser, server):
    """7♠ 8♠ 9♠ hangs, 7♥ 8♥ 9♥ is tapped behind it, then the first fails: both waited.
    Another phone logs 7♥ 8♥ 9♥ meanwhile: back online, the first is refused (the table
    changed), and so is the second: nothing is logged twice."""
    with a_table_kept(browser, server, ("A", "B", "C", "D")) as (page, phone):  # two decks
        held = []
        page.route("**/plays", lambda route: held.append(route))  # no answer, for now
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()
        phone.tap_cards("H7", "H8", "H9")
        page.locator("form#play [data-action=confirm]").tap()
        page.wait_for_function("(JSON.parse(localStorage.getItem(Object.keys(localStorage)"
                               ".find(k => k.startsWith('waiting '))) || '[]')).length === 2")
        page.route("**/plays", lambda route: route.abort())  # sent again: still no network
        for route in held:
            route.abort()
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        logged_elsewhere_then_back_online(browser, server, page, phone, "H7", "H8", "H9")
        expect(page.locator("[data-log] li[data-type=meld][data-player=A]")).to_have_count(1)
        errors = page.locator("[data-error]")
        expect(errors).to_have_count(2)
        expect(errors.first).to_contain_text("A's meld (7♠ 8♠ 9♠) waited to be sent")
        expect(errors.last).to_contain_text("A's meld (7♥ 8♥ 9♥) waited to be sent")


def test_a_gateway_error_is_no_answer_and_the_play_waits(browser, server):
    """A proxy in front of the app answers 502 (the app did not): the meld is not refused
    and dropped, it waits, and lands once when the app answers again."""
    with a_table_kept(browser, server) as (page, phone):
        page.route("**/plays", lambda route: route.fulfill(status=502, content_type="text/html",
                                                            body="<html><body><p>Bad Gateway</p></body></html>"))
        phone.tap_cards("S7", "S8", "S9")
        page.locator("form#play [data-action=confirm]").tap()
        expect(page.locator("[data-waiting] li")).to_have_count(1)
        expect(page.locator("[data-error]")).to_have_count(0)
        page.unroute("**/plays")
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-log] li[data-type=meld][data-player=A]")).to_have_count(1)


def test_a_play_kept_from_a_page_that_went_is_checked_as_waiting(browser, server):
    """A meld sent by a page that went before its answer came (kept in the phone, marked
    as never having failed), and meanwhile another phone logs the same meld: the page
    opened again sends it at once, as a play that waited: refused and named, not logged
    twice."""
    with a_table_kept(browser, server, ("A", "B", "C", "D")) as (page, phone):  # two decks
        page.evaluate("""() => {
            const body = document.body.dataset, form = new FormData(document.querySelector("#play"));
            form.set("player", "A"); form.delete("cards");
            for (const c of ["S7", "S8", "S9"]) form.append("cards", c);
            form.set("confirm", "1"); form.set("request_id", "kept-1");
            form.set("csrf_token", document.querySelector("meta[name=csrf-token]").content);
            localStorage.setItem("waiting " + body.live, JSON.stringify([{
                url: new URL(document.querySelector("#play").action).pathname,
                body: new URLSearchParams(form) + "", text: "A: 7♠ 8♠ 9♠", picks: 1, player: "A",
                at: +body.version, waited: false}]));
        }""")
        other, routes = another_phone(browser, server, phone)
        try:
            routes.meld("A", "S7", "S8", "S9")
        finally:
            other.close()
        page.reload()
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-error]")).to_contain_text("A's meld (7♠ 8♠ 9♠) waited to be sent")
        expect(page.locator("[data-log] li[data-type=meld][data-player=A]")).to_have_count(1)


def test_a_refusal_answered_while_plays_waiting_land_stays_said(browser, server):
    """Offline, a pass tapped with cards still picked (it will be refused), then the meld
    they make: back online the pass is refused and the meld logged; the refusal stays on
    the screen beside the meld's words, not replaced by them."""
    with a_table_kept(browser, server) as (page, phone):
        page.context.set_offline(True)
        phone.tap_cards("S7", "S8", "S9")
        page.locator("[data-action=pass]").tap()
        page.locator("form#play [data-action=confirm]").tap()
        expect(page.locator("[data-waiting] li")).to_have_count(2)
        page.context.set_offline(False)
        page.evaluate("dispatchEvent(new Event('online'))")
        expect(page.locator("[data-waiting]")).to_have_count(0, timeout=10_000)
        expect(page.locator("[data-log] li[data-type=meld][data-player=A]")).to_contain_text("7♠ 8♠ 9♠")
        expect(page.locator("[data-error]")).to_have_text(
            "You picked 7♠ 8♠ 9♠: log them first (Confirm), then tap Pass. Nothing was saved.")
        expect(page.locator("[data-flash]")).to_have_count(1)
        expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")


def test_cards_picked_offline_leave_no_preview_of_other_cards_on_the_screen(page):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)  # A's turn
    box = page.locator("#play [data-preview]")
    phone.tap_cards("S7", "S8", "S9")
    phone.expect_preview(30)
    page.context.set_offline(True)
    phone.tap_cards("S10")  # its preview cannot be asked: the one of three cards goes
    expect(box).to_have_text("")
    expect(page.locator("#play [data-action=confirm]")).to_be_enabled()  # kept to send
    page.context.set_offline(False)
