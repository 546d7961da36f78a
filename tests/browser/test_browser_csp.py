"""The Content-Security-Policy in a real browser: every screen works under it, unreported.

Chromium reports each thing the policy blocks (an inline script, a ``style=``
attribute, an ``on…=`` handler, a request to another origin) as a
``securitypolicyviolation`` event and a console error. Each main screen is opened and
used as people use it (the card picker's preview fetched, a breakdown opened, the QR
codes and the chart drawn, a bad file uploaded), and nothing may be reported. A control
test injects an inline style and script to show that violations are enforced and seen.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_table import Phone
from playwright.sync_api import expect

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Collects violations in the page itself (added before any of the page's own scripts).
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


class Watch:
    """A page whose CSP reports (events and console) are collected."""

    def __init__(self, page):
        self.page = page
        self.console: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)

    def reports(self) -> list[str]:
        return self.page.evaluate("window.__csp || []") + self.console


def table_with_a_preview(phone: Phone) -> None:
    phone.goto("/table")
    phone.tap_meld(1)
    phone.tap_cards("S10")
    phone.expect_preview(50)  # the preview was fetched and put in the page


def round_end_with_a_breakdown(phone: Phone) -> None:
    phone.goto("/end")
    phone.open_breakdown("B")


def edit_a_lay_off(phone: Phone) -> None:
    phone.goto("/table")
    phone.tap_and_wait(phone.log_item(type="layoff").first.get_by_role("link", name="Edit"))


def summary_with_chart_and_codes(phone: Phone) -> None:
    phone.goto("")
    expect(phone.page.locator("figure[data-chart] svg")).to_be_visible()
    expect(phone.page.locator("svg.qr")).to_have_count(3)  # the edit link, the read-only link, the scoreboard


def new_game_typed(phone: Phone) -> None:
    page = phone.page
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")  # the script names the dealer seats
    expect(page.locator("[data-dealer-seat='0'] + span")).to_have_text("Ann")


def refused_upload(phone: Phone) -> None:
    page = phone.page
    page.goto("/")
    page.locator("form[data-import] input[type=file]").set_input_files(
        files=[{"name": "bad.json", "mimeType": "application/json", "buffer": b'{"variant": "bridge"}'}])
    phone.tap_and_wait(page.locator("form[data-import] [data-action=import]"))
    expect(page.locator("[data-error]")).to_contain_text("Unknown variant 'bridge'")


def imported_game(phone: Phone) -> None:
    page = phone.page
    page.goto("/games/import")
    page.get_by_label("Game file (.json)").set_input_files(
        files=[{"name": "seed.json", "mimeType": "application/json",
                "buffer": (EXAMPLES / "iceberg-seed-example.json").read_bytes()}])
    phone.tap_and_wait(page.locator("form[data-import] [data-action=import]"))
    expect(page.locator("[data-flash]")).to_contain_text("Imported: A, B, C")
    # This phone holds the edit link: its code, the read-only one, the scoreboard.
    expect(page.locator("svg.qr")).to_have_count(3)


SCREENS = {
    "history": (None, lambda phone: phone.page.goto("/")),
    "new-game": (None, new_game_typed),
    "rules": (None, lambda phone: phone.page.goto("/rules/iceberg")),
    "table": ("playing", table_with_a_preview),
    "edit-play": ("playing", edit_a_lay_off),
    "round-end": ("ending", round_end_with_a_breakdown),
    "summary": ("counted", summary_with_chart_and_codes),
    "round-detail": ("counted", lambda phone: (phone.goto("/rounds/1"), phone.open_breakdown("B"))),
    "game-rules": ("counted", lambda phone: phone.goto("/rules")),
    "import-refused": (None, refused_upload),
    "import": (None, imported_game),
    "not-found": (None, lambda phone: phone.page.goto("/g/1-nosuchsecret/table")),
}


@pytest.mark.parametrize("screen", SCREENS)
def test_no_screen_breaks_the_content_security_policy(page, games, screen):
    watch = Watch(page)
    game, show = SCREENS[screen]
    phone = Phone(page)
    phone.key = games.get(game)
    show(phone)
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.classList.contains('js')")  # app.js ran
    assert watch.reports() == [], watch.reports()


def test_every_screen_is_served_with_the_policy_and_no_referrer(page, games):
    for path in ("/", f"/g/{games['playing']}/table", f"/g/{games['counted']}"):
        response = page.goto(path)
        headers = response.headers
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["referrer-policy"] == "no-referrer", path
        assert headers["cache-control"] == "no-store", path
        assert page.evaluate("document.querySelector('meta[name=csrf-token]').content"), path


def test_the_policy_is_enforced_and_a_violation_would_be_seen(page, games):
    """The control: an inline style attribute and an inline script are blocked and reported."""
    watch = Watch(page)
    page.goto(f"/g/{games['counted']}")
    page.evaluate("""() => {
      document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: rgb(255, 0, 0)">x</p>');
      const script = document.createElement("script");
      script.textContent = "window.__ran = true";
      document.body.append(script);
    }""")
    page.wait_for_function("window.__csp.length >= 2")
    assert page.evaluate("window.__ran") is None  # the inline script did not run
    color = page.evaluate("getComputedStyle(document.getElementById('styled')).color")
    assert color != "rgb(255, 0, 0)"
    reports = " ".join(watch.reports())
    assert "style-src" in reports and "script-src" in reports


def test_the_import_screens_are_accessible(page, games):
    """axe on the upload form as refused (the reason shown), in light and in dark."""
    refused_upload(Phone(page))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = Axe().run(page, options={"resultTypes": ["violations"]})
        assert not results.violations_count, results.generate_report()
