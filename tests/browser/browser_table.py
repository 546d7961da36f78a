"""Playing at the table in a real browser, as a phone does: taps, not form posts.

``Phone`` drives the screens (tap the cards, the meld, Confirm, Pass, Went out, the
hands at the end); ``Routes`` sets a game up quickly through the same HTTP routes, the
way ``tests/web/web_table.py`` does, for tests that only look at the result.
"""
from __future__ import annotations

import re
import time
from contextlib import contextmanager
from urllib.parse import urlencode

from playwright.sync_api import Page, expect

# A phone held upright (an iPhone 12–15 sized screen), touch, 2× pixels.
# A phone at the table. Its service worker (static/sw.js) is blocked: requests a worker
# controls are not seen by Playwright's routing, which tests use to cut the network
# (browser tests of the worker itself allow it: test_browser_offline.py).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True, "service_workers": "block"}
DOUBLE_TAP = 0.7  # seconds: a second pass this soon after a pass is a double tap (static/app.js)
MINUS = "\u2212"  # scores are printed with a real minus sign: −120

# The page's streams of live changes (EventSource) as a test sees them: each one opened
# (window.__streams) and the changes they brought (window.__heard). Installed before the
# page's own script (Context.add_init_script); the page works as without it.
STREAMS = """(() => {
  const Real = window.EventSource;
  if (!Real) return;
  window.__streams = [];
  window.__heard = 0;
  window.EventSource = class extends Real {
    constructor(url, options) {
      super(url, options);
      window.__streams.push(this);
      this.addEventListener("change", () => { window.__heard++; });
    }
  };
})();"""


@contextmanager
def another_phone(browser, server: str, first: Phone):
    """A second phone (a context of its own: its own cookies) on the first one's game by
    its edit link, at the table; closed after."""
    context = browser.new_context(base_url=server, **PHONE)
    context.set_default_timeout(10_000)
    context.add_init_script(STREAMS)
    try:
        phone = Phone(context.new_page())
        phone.key, phone.game_id = first.key, first.game_id
        phone.goto("/table")
        yield phone
    finally:
        context.close()


def deaf(page: Page) -> None:
    """This phone hears nothing more of the other phones' plays, as on wifi that stops
    delivering: its stream closed under the page's script (which does not know it), and
    no other stream or poll let through."""
    page.route(re.compile(r"/events\?|/live\?"), lambda route: route.abort())
    page.evaluate("(window.__streams || []).forEach(s => s.close())")


def location(response) -> str:
    """Where a form's 303 sends the phone (``Routes.post``)."""
    return response.headers["location"]


def number(text: str) -> int:
    """A score as printed (−120, +40, -20) as an int."""
    return int(text.strip().replace(MINUS, "-").replace("+", ""))


def send(page: Page, locator) -> None:
    """Tap a play (Confirm, an ace, Pass, Undo, a refused Went out). With the page's
    script it is sent in the background: wait for its answer, the page updated in place
    (the page counts its answers in data-sent). Without the script the form is sent:
    wait for the page its answer leads to."""
    if not page.locator("html.js").count():
        with page.expect_navigation():
            locator.tap()
        return
    sent = int(page.locator("body").get_attribute("data-sent") or 0)
    locator.tap()
    expect(page.locator("body")).to_have_attribute("data-sent", str(sent + 1))


class Phone:
    """One phone at the table: every action is a tap on what the screen shows."""

    def __init__(self, page: Page):
        self.page = page
        self.game_id: int | None = None
        self.key: str | None = None  # the game's edit link: "<id>-<secret>"
        self._passed = -DOUBLE_TAP  # when this phone last passed (time.monotonic)

    # -- where we are -------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"/g/{self.key}"

    def goto(self, path: str = "/table"):
        self.page.goto(self.url + path)

    def tap_and_wait(self, locator) -> None:
        """Tap something that sends a form or follows a link, and wait for the new page."""
        with self.page.expect_navigation():
            locator.tap()

    def send(self, locator) -> None:
        send(self.page, locator)

    # -- setting up ---------------------------------------------------------------------
    def new_game(self, players, dealer: int = 0, variant: str | None = None) -> int:
        """The new-game form (of ``variant``, by default the first game): names by seat,
        the first dealer by seat, the default rules."""
        page = self.page
        page.goto("/games/new" + (f"?variant={variant}" if variant else ""))
        form = page.locator("form[data-new-game]")
        for i, name in enumerate(players):
            form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
        # With JavaScript the dealer choices show the names as they are typed; the radio
        # itself keeps its seat number.
        form.locator(f"label:has([data-dealer-seat='{dealer}']) > span").tap()
        expect(form.locator(f"[data-dealer-seat='{dealer}']")).to_be_checked()
        self.tap_and_wait(form.locator("[data-action=create]"))
        match = re.search(r"/g/((\d+)-[^/]+)/table$", page.url)
        assert match, page.url
        self.key, self.game_id = match.group(1), int(match.group(2))
        return self.game_id

    def start_game(self, players, dealer: int = 0) -> int:
        """The game made by this phone through the new-game route (its cookies: the game is
        this phone's, as after the form), then its table opened: for tests that begin at the
        table. The form itself is tapped through by ``new_game``, in the tests that use it."""
        routes = Routes(self.page)
        routes.new_game(players, dealer)
        self.key, self.game_id = routes.key, routes.game_id
        self.goto("/table")
        return self.game_id

    # -- the table screen ---------------------------------------------------------------
    def turn(self) -> str:
        return self.page.locator("section[data-turn]").get_attribute("data-turn")

    def card_cell(self, card: str, copy: int = 1):
        """The visible cell of a card in the picker (its checkbox is visually hidden)."""
        extra = "[data-copy='2']" if copy == 2 else ":not([data-copy])"
        return self.page.locator(f"[data-picker] label:has(input[value='{card}']{extra}) b")

    def card_input(self, card: str, copy: int = 1):
        extra = "[data-copy='2']" if copy == 2 else ":not([data-copy])"
        return self.page.locator(f"[data-picker] input[value='{card}']{extra}")

    def tap_cards(self, *cards: str) -> None:
        for card in cards:
            self.card_cell(card).tap()

    def tap_meld(self, number: int | None) -> None:
        """Tap a meld on the table to lay off on it (None: a new meld)."""
        if number is None:
            self.page.locator("label:has(input[data-meld='']) span").tap()
        else:
            self.page.locator(f"label:has(input[data-meld-number='{number}']) > span").tap()

    def expect_preview(self, points: int) -> None:
        ok = self.page.locator("[data-preview] [data-ok='1']")
        expect(ok).to_have_attribute("data-moves", scores(points))

    def confirm(self) -> None:
        self.send(self.page.locator("form#play [data-action=confirm]"))

    def meld(self, *cards: str, points: int) -> None:
        """Tap the cards of a new meld, see the preview score it, Confirm."""
        self.tap_cards(*cards)
        self.expect_preview(points)
        self.confirm()

    def lay_off(self, number: int, *cards: str, points: int) -> None:
        """Tap the meld on the table, then the cards, see the preview, Confirm."""
        self.tap_meld(number)
        self.tap_cards(*cards)
        self.expect_preview(points)
        self.confirm()

    def ace(self, card: str) -> None:
        self.send(self.page.locator(f"[name=card][value={card}]"))

    def pass_turn(self) -> None:
        """Pass, a moment after this phone's last pass if it was the last thing tapped: at
        once, the page's script takes a second pass for a double tap and drops it."""
        since = time.monotonic() - self._passed
        if since < DOUBLE_TAP:
            self.page.wait_for_timeout((DOUBLE_TAP - since) * 1000)
        self.send(self.page.locator("[data-action=pass]"))
        self._passed = time.monotonic()

    def out(self) -> None:
        self.tap_and_wait(self.page.locator("[data-action=out]"))

    def undo(self) -> None:
        self.send(self.page.locator("[data-action=undo]"))

    def log_item(self, **attrs):
        """A play in the log, by data-* attributes: log_item(type="meld", player="A")."""
        selector = "".join(f"[data-{k}='{v}']" for k, v in attrs.items())
        return self.page.locator(f"ol[data-log] li{selector}")

    def round_scores(self) -> dict[str, int]:
        return self._cells("[data-scores] [data-round-score]", "data-round-score")

    def totals(self) -> dict[str, int]:
        return self._cells("[data-total]", "data-total")

    def _cells(self, selector: str, attribute: str) -> dict[str, int]:
        cells = self.page.locator(selector)
        return {cells.nth(i).get_attribute(attribute): number(cells.nth(i).inner_text())
                for i in range(cells.count())}

    # -- the end of the round -------------------------------------------------------------
    def enter_hand(self, player: str, *cards: str) -> None:
        """Open a player's hand (if another one is open), tap the cards, save it."""
        page = self.page
        save = page.locator("form#hand [data-action=save-hand]")
        if page.locator(f"form#hand input[name=player][value='{player}']").count() == 0:
            self.tap_and_wait(page.locator(f"[data-enter='{player}']"))
        expect(save).to_contain_text(player)
        self.tap_cards(*cards)
        for card in cards:
            expect(self.card_input(card)).to_be_checked()
        self.tap_and_wait(save)

    def open_breakdown(self, player: str):
        details = self.page.locator(f"details[data-breakdown='{player}']")
        details.locator(":scope > summary").tap()
        expect(details).to_have_attribute("open", "")
        return details

    def end_scores(self) -> dict[str, int]:
        return self._cells("[data-score]", "data-score")


def play_seed_round(phone: Phone) -> None:
    """docs/rules/iceberg.md's seed example, round 1, tapped through the table screen (C deals, A starts).

    The same sequence as ``tests/web/web_table.py``'s ``seed_round``.
    """
    page = phone.page
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")
    phone.ace("DA")
    phone.meld("S9", "S8", "S7", points=30)
    phone.pass_turn()
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "B")
    expect(page.locator("input[name=player][value='B']")).to_be_checked()
    phone.meld("DJ", "CJ", points=10)
    phone.pass_turn()
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "C")
    phone.ace("CA")
    phone.lay_off(2, "HJ", points=20)
    phone.lay_off(1, "S6", points=40)
    phone.pass_turn()
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "A")
    phone.meld("H3", "C3", points=10)
    phone.meld("DQ", "SQ", points=10)
    phone.out()
    expect(page.locator("h1[data-round-end='1']")).to_be_visible()
    phone.enter_hand("B", "SK", "SJ", "S3", "HQ", "C6")
    phone.enter_hand("C", "D10", "D9", "D4", "CK", "CQ")


class Routes:
    """A game set up through the HTTP routes (with the context's cookies and CSRF token).

    The same calls as ``tests/web/web_table.py``'s ``Table``: quick set-up for tests that
    look at a screen, not at how it was reached.
    """

    def __init__(self, page: Page):
        self.page = page
        self.request = page.context.request
        self.game_id: int | None = None
        self.key: str | None = None
        self._token: str | None = None

    @property
    def url(self) -> str:
        return f"/g/{self.key}"

    def token(self) -> str:
        if self._token is None:
            html = self.request.get("/games/new").text()
            self._token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
        return self._token

    def post(self, path: str, pairs: list[tuple[str, str]]):
        """The form sent; its 303 (a refused play answers 422 with the reason). The page it
        names is not loaded: the tests load the pages they look at (``location``)."""
        body = urlencode([("csrf_token", self.token()), *pairs])
        response = self.request.post(
            path, data=body, headers={"Content-Type": "application/x-www-form-urlencoded"}, max_redirects=0,
        )
        assert response.status == 303, (path, response.status, response.text()[-2000:])
        return response

    def new_game(self, players, dealer: int = 0) -> int:
        pairs = [(f"seat_{i}", name) for i, name in enumerate(players)]
        response = self.post("/games", pairs + [("first_dealer", str(dealer))])
        match = re.search(r"/g/((\d+)-[^/]+)/table", location(response))
        self.key, self.game_id = match.group(1), int(match.group(2))
        return self.game_id

    def meld_id(self, number: int) -> int:
        html = self.request.get(self.url + "/table").text()
        return int(re.search(rf'data-meld="(\d+)" data-meld-number="{number}"', html).group(1))

    def meld(self, player, *cards):
        self.post(self.url + "/plays", [("player", player), ("meld", ""), ("confirm", "1")]
                  + [("cards", c) for c in cards])

    def lay_off(self, player, number, *cards):
        self.post(self.url + "/plays", [("player", player), ("meld", str(self.meld_id(number))),
                                        ("confirm", "1")] + [("cards", c) for c in cards])

    def ace(self, player, card):
        self.post(self.url + "/aces", [("player", player), ("card", card)])

    def out(self, player):
        self.post(self.url + "/out", [("player", player)])

    def pass_turn(self):
        self.post(self.url + "/pass", [])

    def hand(self, player, *cards, round_no=1):
        self.post(self.url + "/hands", [("player", player), ("round_no", str(round_no))]
                  + [("cards", c) for c in cards])

    def confirm_round(self, round_no):
        self.post(self.url + "/end", [("round_no", str(round_no))])


def seed_round_by_routes(routes: Routes, *, hands: bool = True, out: bool = True) -> None:
    """``web_table.seed_round`` through the HTTP routes (C deals, A starts)."""
    routes.ace("A", "DA")
    routes.meld("A", "S9", "S8", "S7")
    routes.pass_turn()
    routes.meld("B", "DJ", "CJ")
    routes.pass_turn()
    routes.ace("C", "CA")
    routes.lay_off("C", 2, "HJ")
    routes.lay_off("C", 1, "S6")
    routes.pass_turn()
    routes.meld("A", "H3", "C3")
    routes.meld("A", "DQ", "SQ")
    if not out:
        return
    routes.out("A")
    if hands:
        routes.hand("B", "SK", "SJ", "S3", "HQ", "C6")
        routes.hand("C", "D10", "D9", "D4", "CK", "CQ")


def scores(points: int) -> re.Pattern:
    """A preview's data-moves where its one player scores ``points``."""
    return re.compile(rf'^{{"[^"]+": {points}}}$')
