"""Taps and bytes at the table (issue 15): what a phone costs the people holding it.

Taps: every touch the page receives is counted (test_browser_picker's COUNT_TAPS, kept
across page loads), for each kind of play and for a whole scripted Iceberg round
(benchmarks/table_script.py: the plays a keen player makes, the hands, the count), tapped
through the screens at 390 × 844. The counts are asserted, so a change that adds a tap
fails here, and printed; benchmarks/README.md keeps them ("Taps and bytes at the table").

Bytes: what the phone receives for one play (a meld, mid-round), headers included, as
Chromium counts it (the DevTools protocol's encodedDataLength): with the page's script,
the play's answer (JSON: the regions that changed, the pieces the phone shows named, and
what it did); without it, the 303
and the table page it leads to.
"""
from __future__ import annotations

import random

from browser_table import Phone, Routes, seed_round_by_routes
from playwright.sync_api import expect
from test_browser_picker import COUNT_TAPS, taps

from benchmarks.table_script import PLAYERS, script_round

SEED, SEATS = 3, 3  # a round of 32 plays with a meld, lay-offs, aces, passes and going out


def counting(page) -> Phone:
    page.add_init_script(COUNT_TAPS)
    return Phone(page)


def taps_for(page, action) -> int:
    before = taps(page)
    action()
    return taps(page) - before


def expected_taps(steps) -> int:
    """The taps the script's steps take: a card each, Confirm, the meld laid off on, Save."""
    per_step = {"ace": lambda s: 1, "pass": lambda s: 1, "out": lambda s: 1, "confirm": lambda s: 1,
                "meld": lambda s: len(s[2]) + 1, "layoff": lambda s: 1 + len(s[3]) + 1,
                "hand": lambda s: len(s[2]) + 1}
    ended_by_ace = not any(step[0] == "out" for step in steps)  # "End of turn: count the hands"
    return sum(per_step[step[0]](step) for step in steps) + ended_by_ace


def play_step(phone: Phone, step) -> None:
    page, kind = phone.page, step[0]
    if kind == "ace":
        phone.ace(step[2])
    elif kind in ("meld", "layoff"):
        if kind == "layoff":
            phone.tap_meld(step[2])
        phone.tap_cards(*step[-1])
        expect(page.locator("[data-preview] [data-ok='1']")).to_be_visible()
        phone.confirm()
    elif kind == "pass":
        phone.pass_turn()
    elif kind == "out":
        phone.out()
    elif kind == "hand":
        if page.locator("[data-action=count]").count():  # the last ace's turn is over
            phone.tap_and_wait(page.locator("[data-action=count]"))
        phone.enter_hand(PLAYERS[step[1]], *step[2])
    else:
        phone.tap_and_wait(page.locator("[data-action=confirm-round]"))


def test_taps_per_kind_of_play_and_for_a_scripted_round(page, capsys):
    phone = counting(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    page.reload()  # the counter installed
    counts = {
        "3-card meld": taps_for(page, lambda: phone.meld("S9", "S8", "S7", points=30)),
        "lay-off": taps_for(page, lambda: phone.lay_off(1, "S10", points=40)),
        "ace": taps_for(page, lambda: phone.ace("DA")),
        "pass": taps_for(page, phone.pass_turn),
    }
    routes = Routes(page)
    routes.new_game(["A", "B", "C"], dealer=2)
    seed_round_by_routes(routes, hands=False)  # A went out: B's hand is open first
    phone.key = routes.key
    phone.goto("/end")
    counts["3-card hand at the round end"] = taps_for(page, lambda: phone.enter_hand("B", "SK", "SJ", "S3"))

    steps = script_round(random.Random(SEED), SEATS, 1, 0)
    phone.new_game(list(PLAYERS[:SEATS]), dealer=0)
    before = taps(page)
    for step in steps:
        play_step(phone, step)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-round", "2")
    counts[f"scripted Iceberg round ({len(steps)} plays, seed {SEED})"] = taps(page) - before

    with capsys.disabled():
        print("\nTaps at the table (390 × 844, with the page's script):")
        for what, n in counts.items():
            print(f"  {what:45} {n}")
    assert counts == {
        "3-card meld": 4, "lay-off": 3, "ace": 1, "pass": 1, "3-card hand at the round end": 4,
        f"scripted Iceberg round ({len(steps)} plays, seed {SEED})": expected_taps(steps),
    }
    assert expected_taps(steps) == 77


class Received:
    """The bytes the phone receives (headers and bodies, as the network delivers them),
    by URL, counted by Chromium (the DevTools protocol)."""

    def __init__(self, page):
        self.page, self.sizes, self.urls = page, {}, {}
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def _sent(self, event):
        redirect = event.get("redirectResponse")
        if redirect:  # a 303: its bytes come with the request it leads to
            self.sizes[event["requestId"] + " 303"] = redirect.get("encodedDataLength", 0)
            self.urls[event["requestId"] + " 303"] = redirect["url"]

    def _response(self, event):
        self.urls[event["requestId"]] = event["response"]["url"]

    def _finished(self, event):
        self.sizes[event["requestId"]] = event["encodedDataLength"]

    def total(self, leave_out=("/live?", "/preview?")) -> int:
        self.page.evaluate("0")  # the events that arrived meanwhile are handed over
        return sum(n for rid, n in self.sizes.items()
                   if not any(part in self.urls.get(rid, "") for part in leave_out))

    def previews(self) -> list[int]:
        """The previews' sizes, once the first has finished loading: the page shows a
        preview as its body arrives, and Chromium's event saying it finished may come to
        this process a moment later (on a busy machine it had not yet)."""
        for _ in range(250):  # 5 s at most
            self.page.evaluate("0")  # the events that arrived meanwhile are handed over
            found = [n for rid, n in self.sizes.items() if "/preview?" in self.urls.get(rid, "")]
            if found:
                return found
            self.page.wait_for_timeout(20)
        return []

    def clear(self) -> None:
        self.page.evaluate("0")
        self.sizes.clear()


def mid_round(page) -> Phone:
    """A game half way through its first round (four melds, two aces, passes)."""
    routes = Routes(page)
    routes.new_game(["A", "B", "C"], dealer=2)
    seed_round_by_routes(routes, out=False)
    phone = Phone(page)
    phone.key, phone.game_id = routes.key, routes.game_id
    phone.goto("/table")
    return phone


def test_bytes_a_phone_receives_for_one_play(page, no_script_page, capsys):
    phone = mid_round(page)
    phone.tap_cards("S5", "D5", "C5")  # a play before it, as at a table: its answer names what it drew
    phone.confirm()
    received = Received(page)
    phone.tap_cards("H5", "H6", "H7")
    phone.expect_preview(30)
    previews = received.previews()
    received.clear()
    phone.confirm()
    with_script = received.total()

    plain = mid_round(no_script_page)
    received = Received(no_script_page)
    plain.tap_cards("H5", "H6", "H7")
    plain.confirm()  # the 303, then the table page (its style sheet from the cache)
    expect(plain.log_item(type="meld", player="A")).to_have_count(4)
    without_script = received.total()
    page_bytes = len(no_script_page.content().encode())

    with capsys.disabled():
        print(f"\nBytes a phone receives for one play (a meld, mid-round, headers included):"
              f"\n  with the page's script: {with_script} (the answer: the regions that changed)"
              f"\n  without it:             {without_script} (the 303 and the table page, "
              f"{page_bytes} bytes of HTML)"
              f"\n  each preview while picking: {', '.join(map(str, previews))}")
    assert 2_000 < with_script < 7_000  # the log's and melds' earlier pieces named, not sent
    assert without_script > 12_000 and with_script * 3 < without_script * 2
    assert previews and max(previews) < 2_000
