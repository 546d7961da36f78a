"""Many phones, one table: two phones on one game, each sees the other's plays live.

Two browser contexts at phone size (two phones, each with its own cookies) open the
same game's edit link. What one logs appears on the other within 2 seconds without a
reload, and the other keeps what it has picked. A card logged on one phone and picked
on the other is refused there, with the reason.

The changes come by the page's stream (Server-Sent Events, the browser's EventSource;
the server is gunicorn with its two workers, so the play and the stream are often on
different workers): no poll is made, an idle page makes one request, and a hidden page
holds none. Where the stream cannot be opened the page polls ``/live`` every second.
"""
from __future__ import annotations

import re

import pytest
from browser_table import PHONE, Phone, another_phone, deaf, send
from playwright.sync_api import expect

LIVE = 2_000  # ms: how soon every phone sees a play (issue: many phones, one table)


@pytest.fixture
def phones(browser, server, page):
    """Phone one (the test's page) starts a game (A, B, C; one deck; C deals, A starts)
    and opens its table; phone two opens its edit link."""
    one = Phone(page)
    one.start_game(["A", "B", "C"], dealer=2)
    with another_phone(browser, server, one) as two:
        yield one, two


def not_reloaded(phone: Phone) -> None:
    """Mark the page: the mark is gone if the page is loaded again."""
    phone.page.evaluate("window.__sameDocument = true")


def still_the_same_page(phone: Phone) -> bool:
    return phone.page.evaluate("window.__sameDocument === true")


def test_a_play_on_one_phone_appears_on_the_other_keeping_its_picks(phones):
    one, two = phones
    # Phone two is half way through B's pair of nines.
    two.page.locator("label:has(input[name=player][value='B']) > span").tap()
    two.tap_cards("H9", "C9")
    two.expect_preview(10)
    not_reloaded(two)

    one.meld("S9", "S8", "S7", points=30)

    meld = two.log_item(type="meld", player="A")
    expect(meld).to_have_count(1, timeout=LIVE)
    expect(meld).to_contain_text("+30")
    assert still_the_same_page(two)
    expect(two.page.locator("[data-round-score='A']")).to_have_text("30")
    expect(two.page.locator("label:has([data-meld-number='1'])")).to_be_visible()
    for card in ("S7", "S8", "S9"):
        expect(two.card_input(card)).to_be_disabled()
    # What phone two had picked is untouched, and it logs as it was.
    expect(two.page.locator("input[name=player][value='B']")).to_be_checked()
    expect(two.page.locator("input[name=meld][data-meld='']")).to_be_checked()
    for card in ("H9", "C9"):
        expect(two.card_input(card)).to_be_checked()
    two.expect_preview(10)
    two.confirm()
    expect(two.log_item(type="meld", player="B")).to_have_count(1)
    expect(one.log_item(type="meld", player="B")).to_have_count(1, timeout=LIVE)


def test_whose_turn_follows_the_other_phones_pass(phones):
    one, two = phones
    one.pass_turn()
    expect(two.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B", timeout=LIVE)
    expect(two.page.locator("input[name=player][value='B']")).to_be_checked()
    expect(two.page.locator("[data-action=pass]")).to_contain_text("Pass to C")
    # A pass tapped from the other phone's page now passes B's turn, not A's again.
    two.pass_turn()
    expect(one.page.locator("section[data-turn]")).to_have_attribute("data-turn", "C", timeout=LIVE)


def test_a_card_the_other_phone_logged_is_refused_with_the_reason(phones):
    one, two = phones
    two.page.locator("label:has(input[name=player][value='B']) > span").tap()
    two.tap_cards("S9", "H9", "C9")
    expect(two.page.locator("[data-preview] [data-ok='1']")).to_be_visible()

    one.meld("S9", "S8", "S7", points=30)

    # The live update keeps S9 picked; the preview says why it cannot be logged.
    refused = two.page.locator("[data-preview] [data-ok='0'][role=alert]")
    expect(refused).to_have_text("Not allowed: 9♠ is already on the table (one deck has one 9♠).",
                                 timeout=LIVE)
    expect(two.card_input("S9")).to_be_checked()
    expect(two.page.locator("[data-action=confirm]")).to_be_disabled()

    # Both at the same moment: phone two has not heard of phone one's play yet.
    two.tap_cards("S9")  # untapped: a pair of nines
    two.expect_preview(10)
    deaf(two.page)
    one.meld("H9", "D9", points=10)
    two.page.wait_for_timeout(1_200)  # what would have come by now, that does not arrive
    two.confirm()
    error = two.page.locator("[data-error][role=alert]")
    expect(error).to_have_text("9♥ is already on the table (one deck has one 9♥).")
    expect(two.log_item(type="meld", player="B")).to_have_count(0)
    expect(two.log_item(type="meld", player="A")).to_have_count(2)
    expect(two.card_input("H9")).to_be_checked()  # still picked, to change


def test_the_round_end_takes_every_phone_to_the_hands(phones):
    one, two = phones
    two.tap_cards("H9")
    one.out()
    expect(two.page.locator("h1[data-round-end='1']")).to_be_visible(timeout=LIVE + 1_000)
    assert two.page.url.endswith(f"/g/{one.key}/end")


def test_the_read_only_link_watches_the_table_live(phones, browser, server):
    one, _two = phones
    one.goto("")
    view = one.page.locator("[data-link=view]").input_value()
    context = browser.new_context(base_url=server, **PHONE)
    try:
        watcher = context.new_page()
        watcher.goto(view)
        expect(watcher.locator("[data-read-only]")).to_be_visible()
        one.goto("/table")
        one.meld("S9", "S8", "S7", points=30)
        expect(watcher.locator("ol[data-log] li[data-type=meld]")).to_have_count(1, timeout=LIVE)
        expect(watcher.locator("[data-round-score='A']")).to_have_text("30")
        expect(watcher.locator("[data-action]")).to_have_count(0)
    finally:
        context.close()


def live_requests(phone: Phone) -> list[str]:
    """The live updates this phone asks for from now on (its /live requests)."""
    asked = []
    phone.page.on("request", lambda r: asked.append(r.url) if "/live?" in r.url else None)
    return asked


def held_back(phone: Phone, pattern: str) -> list:
    """Requests to URLs matching ``pattern`` held back before they reach the server."""
    held = []
    phone.page.route(re.compile(pattern), lambda route: held.append(route))
    return held


def until(phone: Phone, condition) -> None:
    """Wait until ``condition()`` holds: each round trip to the page lets Playwright hand
    over the events that arrived meanwhile (a route, a request)."""
    for _ in range(1000):
        if condition():
            return
        phone.page.evaluate("0")
    raise AssertionError("the condition never held")


def test_a_live_update_does_not_overtake_a_play_on_its_way(phones):
    """While this phone's play is on its way it asks for no live update (the play's
    answer is fresher), and the answer is what it shows. Phone two's Pass is held back
    until the round has ended on phone one: its refusal says why, on the screen of the
    hands, where the answer takes phone two."""
    one, two = phones
    two.page.clock.install()  # its timers on a clock the test moves
    two.goto("/table")
    held, asked = held_back(two, r"/pass$"), live_requests(two)
    two.page.locator("[data-action=pass]").tap()
    until(two, lambda: held)
    heard = two.page.evaluate("window.__heard")
    one.out()  # the round ends: a live update would take phone two to the hands
    until(two, lambda: two.page.evaluate("window.__heard") > heard)  # its stream brought it
    two.page.clock.run_for(5_000)  # five polls' time: none asked while the Pass is on its way
    two.page.evaluate("0")
    assert asked == [] and two.page.url.endswith("/table")  # kept for after the answer
    with two.page.expect_navigation():
        held[0].continue_()
    assert two.page.url.endswith(f"/g/{one.key}/end")
    expect(two.page.locator("[data-error][role=alert]")).to_contain_text(
        "The round is over (A went out): count the hands.")


def test_a_page_whose_play_got_no_answer_is_live_again_30_seconds_on(phones):
    """A play sent and never answered (poor wifi): the live updates it held back come
    back 30 s on, not never, and the play is listed as not sent, to be sent again."""
    one, two = phones
    two.page.clock.install()
    two.goto("/table")
    held, asked = held_back(two, r"/pass$"), live_requests(two)  # never answered
    version = two.page.locator("body").get_attribute("data-version")
    two.page.locator("[data-action=pass]").tap()
    until(two, lambda: held)
    expect(two.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")  # the pass waiting moved it
    one.pass_turn()  # A's turn passed on by the other phone
    until(two, lambda: two.page.evaluate("window.__heard") > 0)  # its stream brought it, kept
    two.page.clock.run_for(5_000)
    two.page.evaluate("0")
    assert asked == []
    expect(two.page.locator("body")).to_have_attribute("data-version", version)  # held back
    two.page.clock.run_for(26_000)  # 30 s after the Pass: live again
    expect(two.page.locator("body")).not_to_have_attribute("data-version", version, timeout=LIVE)
    expect(two.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
    expect(two.page.locator("[data-waiting] li")).to_have_text(["Pass to B"])


def test_a_form_a_live_change_drew_is_sent_with_this_phone_s_own_keys(page, browser, server):
    """The regions a change brings are drawn once for every phone (web/live.py), with no
    phone's CSRF token or request id: the page's script puts in its own as a form is sent,
    here Robber Rummy's Delete (a form that loads the page, not a play in the background);
    two phones never send the same request id."""
    from test_browser_robber import tap_and_wait, tap_cards, who_plays

    page.goto("/games/new?variant=robber")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    tap_and_wait(page, form.locator("[data-action=create]"))
    context = browser.new_context(base_url=server, **PHONE)
    context.set_default_timeout(10_000)
    try:
        other = context.new_page()
        other.goto(page.url)
        sent = []
        for phone in (page, other):
            phone.on("request", lambda r: sent.append(r.post_data) if r.url.endswith("/delete") else None)
        who_plays(page, "Ann")
        tap_cards(page, "H3", "H4", "H5")
        send(page, page.locator("[data-action=confirm]"))
        delete = other.locator("[data-log] li[data-type=meld] [data-action=delete]")
        expect(delete).to_have_count(1, timeout=LIVE)  # drawn by the live change
        assert other.locator("[data-log] input[name=csrf_token]").input_value() == ""
        token = other.locator("meta[name=csrf-token]").get_attribute("content")
        tap_and_wait(other, delete)
        expect(other.locator("[data-flash]")).to_contain_text("Deleted")
        expect(other.locator("[data-log] li[data-type=meld]")).to_have_count(0)
        assert len(sent) == 1 and f"csrf_token={token}&" in sent[0]
        first_id = re.search(r"request_id=(\w+)", sent[0]).group(1)
        # Back on phone one (the play deleted comes back as a change): its own id.
        expect(page.locator("[data-log] li[data-type=meld]")).to_have_count(0, timeout=LIVE)
        who_plays(page, "Bob")
        tap_cards(page, "S3", "S4", "S5")
        send(page, page.locator("[data-action=confirm]"))
        expect(other.locator("[data-log] li[data-type=meld] [data-action=delete]")).to_have_count(1, timeout=LIVE)
        expect(page.locator("[data-log] li[data-type=meld] [data-action=delete]")).to_have_count(1)
        tap_and_wait(page, page.locator("[data-log] li[data-type=meld] [data-action=delete]"))
        assert len(sent) == 2 and re.search(r"request_id=(\w+)", sent[1]).group(1) != first_id
    finally:
        context.close()


def requests_of(phone: Phone) -> list[str]:
    """Every request this phone makes from now on (its URL)."""
    made = []
    phone.page.on("request", lambda r: made.append(r.url))
    return made


def streams_open(page) -> int:
    return page.evaluate("window.__streams.filter(s => s.readyState === 1).length")


def wait_until(page, expression: str, seconds: float = 5.0) -> None:
    """Until ``expression`` is true in the page (wait_for_function would need eval, which
    the pages' Content-Security-Policy forbids)."""
    for _ in range(int(seconds * 50)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"never true: {expression}")


def test_a_play_reaches_the_other_phone_by_its_stream(phones):
    one, two = phones
    made = requests_of(two)
    wait_until(two.page, "window.__streams.some(s => s.readyState === 1)")  # open
    one.meld("S9", "S8", "S7", points=30)
    expect(two.log_item(type="meld", player="A")).to_have_count(1, timeout=LIVE)
    expect(two.page.locator("[data-round-score='A']")).to_have_text("30")
    one.pass_turn()
    expect(two.page.locator("section[data-turn]")).to_have_attribute("data-turn", "B", timeout=LIVE)
    assert two.page.evaluate("window.__heard") == 2
    # By the stream it had: no other opened, no poll.
    assert not [url for url in made if "/live?" in url]
    assert two.page.evaluate("window.__streams.length") == 1 and streams_open(two.page) == 1


def test_with_the_stream_blocked_polling_brings_the_play(browser, server, page):
    """A server or a network that holds no stream (waitress answers 204; here the request
    fails): the page asks /live every second, as it always did."""
    one = Phone(page)
    one.start_game(["A", "B", "C"], dealer=2)
    context = browser.new_context(base_url=server, **PHONE)
    context.set_default_timeout(10_000)
    try:
        two = Phone(context.new_page())
        two.key, two.game_id = one.key, one.game_id
        refused = []
        two.page.route(re.compile(r"/events\?"), lambda route: (refused.append(route.request.url), route.abort()))
        made = requests_of(two)
        two.goto("/table")
        one.meld("S9", "S8", "S7", points=30)
        expect(two.log_item(type="meld", player="A")).to_have_count(1, timeout=LIVE + 1_000)
        assert len(refused) == 1 and any("/live?since=" in url for url in made)
    finally:
        context.close()


def test_an_idle_table_page_makes_at_most_2_requests_in_10_seconds(page):
    """Its stream, and nothing else: no poll. (The page's timers run on a clock the test
    moves: 10 s of them in no time.)"""
    phone = Phone(page)
    phone.start_game(["A", "B", "C"], dealer=2)
    page.clock.install()
    phone.goto("/table")
    page.wait_for_load_state("networkidle")
    made = requests_of(phone)
    page.clock.run_for(10_000)
    page.wait_for_timeout(300)
    page.evaluate("0")
    assert len(made) <= 2 and not [url for url in made if "/live" in url], made
    assert streams_open(page) == 1


def test_a_hidden_page_closes_its_stream_and_catches_up_when_shown(phones):
    """A phone put to sleep holds nothing on the server and asks nothing; shown again, it
    opens a stream from the version it has, which brings what it missed at once."""
    one, two = phones
    page = two.page
    wait_until(page, "window.__streams.some(s => s.readyState === 1)")
    made = requests_of(two)
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                  "document.dispatchEvent(new Event('visibilitychange'))")
    assert page.evaluate("window.__streams.every(s => s.readyState === 2)")  # closed
    one.meld("S9", "S8", "S7", points=30)
    page.wait_for_timeout(1_500)  # a poll's time, and more
    assert page.evaluate("window.__streams.length") == 1 and not [url for url in made if "/live?" in url]
    assert two.log_item(type="meld", player="A").count() == 0
    page.evaluate("Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
                  "document.dispatchEvent(new Event('visibilitychange'))")
    expect(two.log_item(type="meld", player="A")).to_have_count(1, timeout=LIVE)
    assert page.evaluate("window.__streams.map(s => s.url.replace(/^.*\\//, ''))") == [
        "events?since=0", "events?since=0"]  # the second from the version it had
    assert streams_open(page) == 1


def test_a_stream_the_server_ends_is_opened_again_at_once(page):
    """The server ends each stream after a while (event: bye): the page opens the next one
    at once, from the version it has, instead of waiting the stream's retry (60 s here)."""
    phone = Phone(page)
    phone.start_game(["A", "B", "C"], dealer=2)
    asked = []

    def first_ends(route):
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"},
                          body="retry: 60000\n\nevent: bye\ndata: 1\n\n")
        else:
            route.continue_()

    page.route(re.compile(r"/events\?"), first_ends)
    phone.goto("/table")
    wait_until(page, "window.__streams.length === 2 && window.__streams[1].readyState === 1")
    assert len(asked) == 2 and asked[1].endswith("/events?since=0")


def settled_round(one, two) -> None:
    """A meld and a pass each by A and B, and C's ace, all heard on phone two: A's line has
    been the same in the last few payloads (web/live.py BASES_KEPT), so the next change
    names it instead of sending it."""
    wait_until(two.page, "window.__streams.some(s => s.readyState === 1)")
    one.meld("S9", "S8", "S7", points=30)
    one.pass_turn()
    one.meld("H9", "C9", "D9", points=30)  # B's
    one.pass_turn()
    one.ace("CA")
    expect(two.log_item(type="ace", player="C")).to_have_count(1, timeout=LIVE)


def test_a_change_moves_the_lines_the_other_phone_shows_into_place(phones):
    """A change sends its own lines; the lines and melds the other phone already shows are
    named (web/live.py ``piece``), and the page keeps its own elements, in order."""
    one, two = phones
    settled_round(one, two)
    two.page.evaluate("window.__streams[0].addEventListener('change', e => window.__said = e.data)")
    two.page.evaluate("document.querySelector('[data-log] li').__kept = 1;"
                      "document.querySelector('label:has([data-meld-number=\"1\"])').__kept = 1")
    one.meld("D4", "D5", "D6", points=30)  # C's
    expect(two.log_item(type="meld", player="C")).to_have_count(1, timeout=LIVE)
    said = two.page.evaluate("window.__said")
    assert '<template data-k=' in said and "7♠" not in said and "4♦" in said
    assert two.page.evaluate("document.querySelector('[data-log] li').__kept === 1 && "
                             "document.querySelector('label:has([data-meld-number=\"1\"])').__kept === 1")
    expect(two.page.locator("[data-log] > li")).to_have_count(4)
    expect(two.page.locator("[data-log] > li").first).to_contain_text("passed to B")
    expect(two.page.locator("[data-melds] [data-meld-number]")).to_have_count(3)
    expect(two.page.locator("[data-round-score='C']")).to_have_text("30")


def test_a_phone_that_lacks_a_line_a_change_names_asks_for_every_line(phones):
    """A phone that does not show a piece a change names (it missed the change that drew
    it) asks for the payload whole, and then shows every line."""
    one, two = phones
    settled_round(one, two)
    two.page.evaluate("document.querySelector('[data-log] li').remove()")  # as if never drawn here
    made = requests_of(two)
    one.meld("D4", "D5", "D6", points=30)  # C's
    expect(two.log_item(type="meld", player="C")).to_have_count(1, timeout=LIVE)
    expect(two.log_item(type="meld", player="A")).to_have_count(1)
    assert [url for url in made if url.endswith("/live?whole=1")], made
    expect(two.page.locator("[data-round-score='C']")).to_have_text("30")
