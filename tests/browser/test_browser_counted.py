"""Hand-count rummies at phone size, with taps: one Gin hand with lay-offs and one Basic
Rummy hand played through the screens (new game, who knocked / went out, the hands in
the card pickers, Check, Save), checking the scores shown; "can I knock?"; tap targets,
axe and table width on every counted page; a gin hand without JavaScript; the game page
live for the read-only link."""
from __future__ import annotations

import re

import pytest
from browser_table import PHONE, Routes, location, number
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_tap_targets import MEASURE, MINIMUM, TARGETS

ANN = "S2 S3 S4 H9 D9 C9 SK HK DK D5".split()  # melds 2-3-4♠, 9s, Ks; deadwood 5♦
BOB = "S5 S6 H10 HJ HQ C2 C3 D7 CK D4".split()  # lays off 5♠ 6♠ on the run, K♣ on the kings


def tap_and_wait(page, locator):
    with page.expect_navigation():
        locator.tap()


def new_game(page, variant, players):
    page.goto(f"/games/new?variant={variant}")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(players):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    tap_and_wait(page, form.locator("[data-action=create]"))
    assert re.search(r"/g/\d+-[^/]+/counted/round$", page.url), page.url


def tap_hand(page, player, cards):
    for card in cards:
        page.locator(f"[data-hand-picker='{player}'] label:has(input[value='{card}']:not([data-copy])) b").tap()


def shown_scores(page, where="[data-result]"):
    cells = page.locator(f"{where} [data-score]")
    return {cells.nth(i).get_attribute("data-score"): number(cells.nth(i).inner_text())
            for i in range(cells.count())}


def test_a_gin_hand_with_lay_offs(page, screenshot):
    new_game(page, "gin", ["Ann", "Bob"])
    expect(page.locator("h1")).to_have_text("Round 1")
    page.locator("label:has(input[data-ended='Ann']) > span").tap()
    tap_hand(page, "Ann", ANN)
    tap_hand(page, "Bob", BOB)
    for card in ANN:
        expect(page.locator(f"[data-hand-picker='Ann'] input[value='{card}']")).to_be_checked()
    tap_and_wait(page, page.locator("[data-action=check-round]"))
    preview = page.locator("[data-preview-result]")
    expect(preview).to_contain_text("not saved yet")
    expect(preview.locator("[data-ended]")).to_contain_text("Knock: 16 − 5 = 11 to Ann")
    expect(preview.locator("[data-layoffs='Bob']")).to_have_text("Laid off: 5♠ 6♠ on 2♠ 3♠ 4♠ · K♣ on K♠ K♥ K♦")
    expect(preview.locator("[data-melds='Ann']")).to_contain_text("9♥ 9♦ 9♣")
    expect(preview.locator("[data-deadwood='5']")).to_contain_text("5♦ = 5")
    expect(preview.locator("[data-deadwood='16']")).to_be_visible()
    assert shown_scores(page, "[data-preview-result]") == {"Ann": 11, "Bob": 0}
    screenshot(page, "counted-gin-check")
    assert_accessible(page, "gin round, checked")
    tap_and_wait(page, page.locator("[data-action=save-checked]"))
    expect(page.locator("[data-round-detail='1']")).to_be_visible()
    expect(page.locator("[data-flash]")).to_contain_text("Round 1 saved")
    assert shown_scores(page) == {"Ann": 11, "Bob": 0}
    tap_and_wait(page, page.get_by_role("link", name="Game page"))
    expect(page.locator("[data-total='Ann']")).to_have_text("11")
    expect(page.locator("[data-total='Bob']")).to_have_text("0")
    expect(page.locator("[data-chart] polyline")).to_have_count(2)
    screenshot(page, "counted-gin-game")
    assert_accessible(page, "gin game page")


def test_a_rummy_hand(page, screenshot):
    new_game(page, "rummy", ["Ann", "Bob", "Cy"])
    page.locator("label:has(input[data-ended='Ann']) > span").tap()
    # Ann went out: her picker gives way to a line that says so (pages.css).
    expect(page.locator("[data-hand-picker='Ann']")).to_be_hidden()
    expect(page.locator("[data-went-out='Ann']")).to_have_text("Ann went out: no cards left to enter.")
    expect(page.locator("[data-went-out='Bob']")).to_be_hidden()
    page.locator("label:has(input[data-rummy]) > span").tap()
    tap_hand(page, "Bob", ["SK", "H2"])
    tap_hand(page, "Cy", ["D7"])
    tap_and_wait(page, page.locator("[data-action=check-round]"))
    assert shown_scores(page, "[data-preview-result]") == {"Ann": 38, "Bob": 0, "Cy": 0}
    expect(page.locator("[data-preview-result] [data-hand-value='12']")).to_contain_text("K♠ 10, 2♥ 2 = 12")
    screenshot(page, "counted-rummy-check")
    tap_and_wait(page, page.locator("[data-action=save-round]"))
    assert shown_scores(page) == {"Ann": 38, "Bob": 0, "Cy": 0}
    assert_accessible(page, "rummy round detail")
    tap_and_wait(page, page.locator("[data-action=next-round]"))
    expect(page.locator("h1")).to_have_text("Round 2")
    expect(page.locator("[data-scores] [data-total='Ann']")).to_have_text("38")
    # The player who went out still holding a card (picked before): their picker stays, to
    # take it off; saved so, it is refused in plain words, nothing saved.
    tap_hand(page, "Bob", ["S3"])
    page.locator("label:has(input[data-ended='Bob']) > span").tap()
    expect(page.locator("[data-hand-picker='Bob']")).to_be_visible()
    expect(page.locator("[data-went-out='Bob']")).to_be_hidden()
    tap_and_wait(page, page.locator("[data-action=save-round]"))
    expect(page.locator("[data-error]")).to_have_text(
        "Bob went out, so cannot still hold 3♠. Nothing was saved.")
    screenshot(page, "counted-rummy-refused")
    assert_accessible(page, "rummy round, refused")
    page.goto(page.url.replace("/counted/round", "/counted"))
    expect(page.locator("tr[data-round]")).to_have_count(1)


def test_can_i_knock(page, screenshot):
    page.goto("/gin/knock")
    for card in ANN:
        page.locator(f"[data-picker] label:has(input[value='{card}']) b").tap()
    tap_and_wait(page, page.locator("[data-action=can-i-knock]"))
    answer = page.locator("[data-knock-answer]")
    expect(answer).to_have_attribute("data-may-knock", "1")
    expect(answer.locator("h2")).to_have_text("Yes: you may knock")
    expect(answer.locator("[data-deadwood]")).to_contain_text("5♦ = 5")
    screenshot(page, "counted-gin-knock")
    assert_accessible(page, "can I knock")


# ---------------------------------------------------------------------------------------
# Tap targets: every button, link, card cell and choice on the counted pages is at least
# 44×44 px at phone size (the MEASURE of test_browser_tap_targets.py).

COUNTED_TARGETS = TARGETS + ", label:has(> input[type=checkbox]) > span"  # "Rummy?"


def counted_game(routes, variant, players, rounds, **rules):
    """A game made and played through the routes; its /g/<key> address."""
    pairs = [("variant", variant), ("first_dealer", "0"), *((f"seat_{i}", p) for i, p in enumerate(players)),
             *((f"rule_{k}", str(v)) for k, v in rules.items())]
    response = routes.post("/games", pairs)
    key = re.search(r"/g/(\d+-[^/]+)/", location(response)).group(1)
    for n, (ended, hands) in enumerate(rounds, 1):
        data = [("round_no", str(n)), ("save", "1"),
                ("ended", "stalemate" if ended == "stalemate" else f"p{players.index(ended)}")]
        data += [(f"hand_{players.index(p)}", c) for p, cards in hands.items() for c in cards]
        done = routes.post(f"/g/{key}/counted/round", data)
        assert f"/counted/rounds/{n}" in location(done), location(done)
    return f"/g/{key}"


def small_targets(page, path):
    page.goto(path)
    page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
    targets = page.evaluate(MEASURE, COUNTED_TARGETS)
    assert targets, path
    return [t for t in targets if t["width"] < MINIMUM or t["height"] < MINIMUM]


def test_targets_on_the_counted_pages_are_big_enough(page):
    routes = Routes(page)
    gin = counted_game(routes, "gin", ["Ann", "Bob"], [("Ann", {"Ann": ANN, "Bob": BOB})])
    kalooki = counted_game(routes, "kalooki", ["Ann", "Bob", "Cy"],
                           [("Ann", {"Bob": ["JK", "JK"], "Cy": ["S2"]})], elimination=40)
    rummy = counted_game(routes, "rummy", ["Ann", "Bob", "Cy"], [("Ann", {"Bob": ["SK"], "Cy": ["D7"]})])
    conquian = counted_game(routes, "conquian", ["Ann", "Bob"], [("stalemate", {})])
    variants = ("rummy", "gin", "kalooki", "conquian", "manipulation")
    paths = [f"/games/new?variant={v}" for v in variants] + [f"/rules/{v}" for v in variants]
    paths += [f"{gin}/rules", f"{gin}/counted", f"{gin}/counted/round", f"{gin}/counted/rounds/1",
              f"{gin}/counted/rounds/1/edit", f"{kalooki}/counted", f"{kalooki}/counted/round",
              f"{kalooki}/counted/rounds/1", f"{rummy}/counted/round", f"{rummy}/counted/rounds/1",
              f"{conquian}/counted", f"{conquian}/counted/round",
              "/gin/knock", "/gin/knock?" + "&".join(f"cards={c}" for c in ANN + ["C8"])]
    small = {path: small_targets(page, path) for path in paths}
    assert small == {path: [] for path in paths}
    # The "Check" answer of an edited round (its own Save button) as well.
    page.goto(f"{gin}/counted/rounds/1/edit")
    tap_and_wait(page, page.locator("[data-action=check-round]"))
    expect(page.locator("[data-preview-result]")).to_be_visible()
    targets = page.evaluate(MEASURE, COUNTED_TARGETS)
    assert [t for t in targets if t["width"] < MINIMUM or t["height"] < MINIMUM] == []


# The chart's text as drawn: its size on the screen, whether it is inside the chart, and
# the players' lines that run through the dashed line's label (its box, and half a line's
# width around it).
CHART_TEXT = """svg => {
  const frame = svg.getBoundingClientRect(), label = svg.querySelector("[data-limit]");
  const texts = [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
            r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5 && \
r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5];
  });
  const b = label.getBBox(), m = 1.25;
  const through = [...svg.querySelectorAll("polyline")].filter((line) => {
    const p = [...line.points];
    for (let i = 1; i < p.length; i++) for (let k = 0; k <= 400; k++) {
      const x = p[i - 1].x + (p[i].x - p[i - 1].x) * k / 400, y = p[i - 1].y + (p[i].y - p[i - 1].y) * k / 400;
      if (x >= b.x - m && x <= b.x + b.width + m && y >= b.y - m && y <= b.y + b.height + m) return true;
    }
    return false;
  }).map((line) => line.dataset.player);
  return {texts, label: label.textContent, through};
}"""


def test_kalooki_and_conquian_pages_are_accessible(page, screenshot):
    """The pages the gin and rummy hands do not open: jokers in the picker, an eliminated
    player, the winner of a last-player-left game, a tableau. At the tester's phone size
    (360 × 740): the jokers' cells and the chart's text and elimination line."""
    page.set_viewport_size({"width": 360, "height": 740})
    routes = Routes(page)
    kalooki = counted_game(routes, "kalooki", ["Ann", "Bob", "Cy"],
                           [("Ann", {"Bob": ["JK", "JK"], "Cy": ["S2"]})], elimination=40)
    page.goto(f"{kalooki}/counted/round")
    expect(page.locator("[data-hand-picker]")).to_have_count(2)  # Bob is out of the game
    joker = page.locator("[data-hand-picker='Ann']").get_by_role("checkbox", name="joker 1", exact=True)
    expect(page.locator("[data-hand-picker='Ann'] label:has(input[value=JK]) b").first).to_have_text("joker")
    page.locator("[data-hand-picker='Ann'] label:has(input[value=JK]) b").first.tap()
    expect(joker).to_be_checked()
    cells = page.locator(".jokers b").evaluate_all("all => all.map((b) => b.scrollWidth <= b.clientWidth)")
    assert cells == [True] * 8  # the word fits its cell
    page.locator("label:has(input[data-ended='Cy']) > span").tap()
    expect(page.locator("[data-hand-picker='Cy']")).to_be_hidden()
    expect(page.locator("[data-went-out='Cy']")).to_be_visible()
    assert_accessible(page, "kalooki round entry")
    page.goto(f"{kalooki}/counted")
    expect(page.locator("[data-total='Bob'] [data-eliminated]")).to_have_text("eliminated")
    # Bob's line ends above the dashed line at its right end: the label is elsewhere.
    drawn = page.locator("[data-chart] svg").evaluate(CHART_TEXT)
    assert drawn["label"] == "eliminated above 40" and drawn["through"] == [], drawn
    assert [(t, size) for t, size, _inside in drawn["texts"] if size < 12] == []
    assert [t for t, _size, inside in drawn["texts"] if not inside] == []
    screenshot(page, "counted-kalooki-chart")
    assert_accessible(page, "kalooki game, Bob eliminated")
    # Round 2: Cy goes out, Ann holds 45 and is out too; Cy is the last player left. (The
    # game page is left first: its live update would reload it by itself, racing the goto.)
    page.goto("about:blank")
    routes.post(f"{kalooki}/counted/round", [("round_no", "2"), ("save", "1"), ("ended", "p2"),
                                             ("hand_0", "JK"), ("hand_0", "S10"), ("hand_0", "HK")])
    page.goto(f"{kalooki}/counted")
    expect(page.locator("[data-winner]")).to_have_text("Cy wins")
    expect(page.locator("[data-how-won]")).to_have_text("(the last player left)")
    screenshot(page, "counted-kalooki-over")
    assert_accessible(page, "kalooki game over")
    conquian = counted_game(routes, "conquian", ["Ann", "Bob"], [("stalemate", {}), ("Bob", {})])
    page.goto(f"{conquian}/counted")
    expect(page.locator("tr[data-round='1'] td").first).to_have_text("tableau")
    assert_accessible(page, "conquian game")


@pytest.mark.parametrize("variant,players,rounds,rules", [
    ("manipulation", ["Annabel", "Bob", "Cy", "Dominic", "Eve"],
     [("Eve", {"Annabel": ["SA", "HA", "DA", "CA", "SK", "HK", "DK"], "Bob": ["S2"]})], {}),
    ("kalooki", ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"],  # Bob eliminated
     [("Ann", {"Bob": ["JK", "JK", "JK", "JK", "SA", "HA", "DA"], "Cy": ["S2"]})], {"elimination": 100}),
])
def test_the_rounds_table_fits_a_phone(page, screenshot, variant, players, rounds, rules):
    """Five or six players: every column of the game page's table is on the screen without
    scrolling sideways."""
    routes = Routes(page)
    game = counted_game(routes, variant, players, rounds, **rules)
    page.goto(f"{game}/counted")
    sizes = page.locator("[data-rounds]").evaluate(
        "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
    widths = page.locator("[data-rounds] thead th").evaluate_all(
        "all => all.map((e) => [e.textContent, Math.round(e.getBoundingClientRect().width)])")
    assert sizes[0] <= sizes[1], (sizes, widths)
    screenshot(page, f"counted-{variant}-table")
    for path in ("/counted/round", "/counted/rounds/1"):  # the totals strip, the result list
        page.goto(game + path)
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], (path, wide)


def test_a_gin_hand_without_javascript(browser, server):
    """The round-end screen is a plain form: taps on the card cells, Check and Save work
    with the script off."""
    context = browser.new_context(base_url=server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        new_game(page, "gin", ["Ann", "Bob"])
        expect(page.locator("html")).not_to_have_class("js")
        page.locator("label:has(input[data-ended='Ann']) > span").tap()
        tap_hand(page, "Ann", ANN)
        tap_hand(page, "Bob", BOB)
        tap_and_wait(page, page.locator("[data-action=check-round]"))
        expect(page.locator("[data-preview-result] [data-deadwood='16']")).to_be_visible()
        assert shown_scores(page, "[data-preview-result]") == {"Ann": 11, "Bob": 0}
        tap_and_wait(page, page.locator("[data-action=save-checked]"))
        expect(page.locator("[data-round-detail='1']")).to_be_visible()
        assert shown_scores(page) == {"Ann": 11, "Bob": 0}
    finally:
        context.close()


def test_a_phone_on_the_read_only_link_sees_a_round_arrive(page, browser, server):
    routes = Routes(page)
    game = counted_game(routes, "manipulation", ["Ann", "Bob", "Cy"], [])
    page.goto(f"{game}/counted")
    view = re.search(r"/g/[^/]+", page.locator("[data-link=view]").input_value()).group(0)
    watcher = browser.new_context(base_url=server, **PHONE)
    try:
        viewer = watcher.new_page()
        viewer.goto(f"{view}/counted")
        expect(viewer.locator("[data-total='Ann']")).to_have_text("0")
        routes.post(f"{game}/counted/round", [("round_no", "1"), ("save", "1"), ("ended", "p2"),
                                              ("hand_0", "SA"), ("hand_1", "S2")])
        expect(viewer.locator("[data-total='Ann']")).to_have_text("15", timeout=5_000)
        expect(viewer.locator("[data-total='Bob']")).to_have_text("5")
        expect(viewer.locator("[data-action=enter-round]")).to_have_count(0)  # still read-only
    finally:
        watcher.close()


def test_back_after_saving_a_round_shows_the_next_round_empty(page):
    """Back from the round saved goes to the round form again, as the server draws it now
    (the next round): nothing of the round saved is picked there, so a tap on Save cannot
    save it a second time."""
    new_game(page, "rummy", ["Ann", "Bob", "Cy"])
    page.locator("label:has(input[data-ended='Ann']) > span").tap()
    tap_hand(page, "Bob", ["SK", "H2"])
    tap_hand(page, "Cy", ["D7"])
    tap_and_wait(page, page.locator("[data-action=save-round]"))
    expect(page.locator("[data-flash]")).to_contain_text("Round 1 saved")
    page.go_back()
    expect(page.locator("h1")).to_have_text("Round 2")
    expect(page.locator("form#round input:checked")).to_have_count(0)
