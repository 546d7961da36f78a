"""Accessibility: axe finds nothing on the main screens, in light and in dark.

Each screen is shown in the state people see it in (melds on the table and a preview,
a breakdown open at the round end) and saved as a screenshot for review.
"""
from __future__ import annotations

import pytest
from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import Axe
from browser_table import Phone
from playwright.sync_api import expect

AXE = Axe()
# axe's default rules, plus experimental ones that test WCAG criteria a phone user meets:
# label in name (2.5.3: a voice user says "Edit" to tap Edit), orientation (1.3.4).
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {rule: {"enabled": True} for rule in (
        "label-content-name-mismatch", "css-orientation-lock", "p-as-heading",
        "table-fake-caption", "td-has-header", "focus-order-semantics")},
}


def run_axe(page, options=OPTIONS) -> AxeResults:
    """axe's violations on the page as it is now. axe's script (570 KB) is put in the page
    once per document, not again for each run (as axe-playwright-python's ``Axe.run``
    does), and only the violations come back."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate("options => axe.run(document, options).then(r => ({violations: r.violations}))",
                          options)
    return AxeResults(found)


def axe_reports(page, name) -> list[str]:
    """What axe finds on the page as it is, in light and then in dark (left in dark)."""
    reports = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = run_axe(page)
        if results.violations_count:
            reports.append(f"--- {name}, {scheme} ---\n{results.generate_report()}")
    return reports


def assert_accessible(page, name):
    """axe finds nothing on the page, in light and in dark; the page is back in light."""
    reports = axe_reports(page, name)
    page.emulate_media(color_scheme="light")
    assert not reports, "\n".join(reports)


def table_with_a_preview(phone: Phone) -> None:
    phone.goto("/table")
    expect(phone.page.locator("label:has([data-meld-number='4'])")).to_be_visible()
    phone.tap_meld(1)
    phone.tap_cards("S10")
    phone.expect_preview(50)


def round_end_with_a_breakdown(phone: Phone) -> None:
    phone.goto("/end")
    phone.open_breakdown("B")


def edit_a_lay_off(phone: Phone) -> None:
    phone.goto("/table")
    phone.tap_and_wait(phone.log_item(type="layoff").first.get_by_role("link", name="Edit"))


SCREENS = {
    # name: (game, what to do on the page)
    "history": (None, lambda phone: phone.page.goto("/")),
    "new-game": (None, lambda phone: phone.page.goto("/games/new")),
    "table": ("playing", table_with_a_preview),
    "edit-play": ("playing", edit_a_lay_off),
    "round-end": ("ending", round_end_with_a_breakdown),
    "summary": ("counted", lambda phone: phone.goto("")),
    "round-detail": ("counted", lambda phone: (phone.goto("/rounds/1"), phone.open_breakdown("B"))),
    "rules": (None, lambda phone: phone.page.goto("/rules/iceberg")),
    "game-rules": ("counted", lambda phone: phone.goto("/rules")),
}


@pytest.mark.parametrize("screen", SCREENS)
def test_axe_finds_no_violations(page, games, screen, screenshot):
    game, show = SCREENS[screen]
    phone = Phone(page)
    phone.key = games.get(game)
    show(phone)
    reports = axe_reports(page, screen)
    screenshot(page, screen)  # in dark, and before the assert: a failing screen is kept too
    assert not reports, "\n".join(reports)
