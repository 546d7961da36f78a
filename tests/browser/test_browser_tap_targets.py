"""Tap targets on the table screen: every button, link and card cell is at least 44×44 px."""
from __future__ import annotations

from browser_table import Phone, Routes, seed_round_by_routes
from playwright.sync_api import expect

MINIMUM = 44  # CSS pixels: WCAG 2.5.5, Apple's and Google's guidance for touch

TARGETS = ", ".join([
    "button", "a[href]",
    "[data-picker] label > b",  # a card cell (its checkbox is visually hidden)
    "label:has(> input[type=radio]) > span",  # who plays, which meld
    "summary",
])

# Every visible target's box, with a name to report it by.
MEASURE = """(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
  const box = el.getBoundingClientRect();
  if (!box.width && !box.height) return [];  // not shown (display: none)
  const name = (el.getAttribute("aria-label") || el.textContent).trim().replace(/\\s+/g, " ");
  return [{tag: el.tagName.toLowerCase(), name: name.slice(0, 40),
           width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10}];
})"""


def test_every_target_on_the_table_screen_is_big_enough(page):
    routes = Routes(page)
    routes.new_game(["A", "B", "C"], dealer=2)
    seed_round_by_routes(routes, out=False)  # aces, four melds, a log with Edit links, Undo
    phone = Phone(page)
    phone.key = routes.key
    phone.goto("/table")
    phone.tap_meld(1)
    phone.tap_cards("S10")
    phone.expect_preview(50)
    expect(page.locator("[data-action=undo]")).to_be_visible()

    targets = page.evaluate(MEASURE, TARGETS)
    kinds = {t["tag"] for t in targets}
    assert {"button", "a", "b", "span"} <= kinds
    assert len([t for t in targets if t["tag"] == "b"]) == 48  # 4 suits × 2…K, no aces
    small = [t for t in targets if t["width"] < MINIMUM or t["height"] < MINIMUM]
    assert small == []


def test_targets_on_the_other_screens_are_big_enough(page):
    """The history, the round end (every breakdown open), the game page and a round's page."""
    routes = Routes(page)
    routes.new_game(["A", "B", "C"], dealer=2)
    seed_round_by_routes(routes)
    small = {}
    for path in ("/", "/games/new", f"{routes.url}/end", routes.url, f"{routes.url}/rounds/1"):
        page.goto(path)
        page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
        targets = page.evaluate(MEASURE, TARGETS)
        assert targets, path
        small[path] = [t for t in targets if t["width"] < MINIMUM or t["height"] < MINIMUM]
    assert small == {path: [] for path in small}
