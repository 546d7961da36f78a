"""Robber Rummy at phone size, with taps: a partnership game started in the new-game form,
a meld, a steal and a steal-back (the second through the discard pile, whose top card
must go into a meld at once), the live "if the hand ended now" score, the hand's end and
count; every tap target on those screens at least 44×44 px, and axe finds nothing. At
360 × 740 the log's lines keep their words clear of their Delete buttons."""
from __future__ import annotations

import re

from browser_table import PHONE, number, send
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_tap_targets import MEASURE, MINIMUM, TARGETS


def tap_and_wait(page, locator):
    with page.expect_navigation():
        locator.tap()


def tap_cards(page, *cards):
    for card in cards:
        page.locator(f"[data-picker] label:has(input[value='{card}']:not([data-copy])) b").tap()


def who_plays(page, player):
    page.locator(f"label:has(input[name=player][value='{player}']) > span").tap()
    expect(page.locator(f"input[name=player][value='{player}']")).to_be_checked()


def choose_meld(page, number):
    page.locator(f"label:has(input[data-meld-number='{number}']) > span").tap()


def live_scores(page) -> dict[str, int]:
    cells = page.locator("[data-live-score]")
    return {cells.nth(i).get_attribute("data-live-score"): number(cells.nth(i).inner_text())
            for i in range(cells.count())}


def owner_chip(page, number):
    """The owner and the colour chip of meld ``number`` on the table."""
    meld = page.locator(f"[data-table-melds] li[data-meld-number='{number}']")
    chip = meld.locator("i.chip").get_attribute("class")
    return meld.get_attribute("data-owner"), re.search(r"\bp\d\b", chip).group(0)


# Each line of the hand's log whose words come nearer its Delete button than ``gap`` px
# (side by side, or overlapping), or run off the screen, or whose button is smaller than
# the tap-target minimum: what is wrong with it, by its words.
CROWDED = """([gap, minimum]) => [...document.querySelectorAll("[data-log] > li")].flatMap((li) => {
  const button = li.querySelector("button[data-action=delete]");
  if (!button) return [];
  const b = button.getBoundingClientRect(), width = document.documentElement.clientWidth;
  const wrong = [];
  if (b.width < minimum || b.height < minimum) wrong.push(`button ${b.width}×${b.height}`);
  if (b.left < 0 || b.right > width) wrong.push("button off the screen");
  const words = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  for (let node = words.nextNode(); node; node = words.nextNode()) {
    if (button.form.contains(node) || !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const t of range.getClientRects()) {
      const apart = t.right + gap <= b.left || b.right + gap <= t.left || t.bottom <= b.top || b.bottom <= t.top;
      if (!apart) wrong.push(`"${node.textContent.trim()}" against the button`);
      if (t.right > width) wrong.push(`"${node.textContent.trim()}" off the screen`);
    }
  }
  return wrong.length ? [{line: li.textContent.trim().replace(/\\s+/g, " "), wrong}] : [];
})"""
GAP = 8  # CSS pixels between a line's words and its Delete button


def small_targets(page) -> list[dict]:
    page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
    targets = page.evaluate(MEASURE, TARGETS)
    assert targets
    return [t for t in targets if t["width"] < MINIMUM or t["height"] < MINIMUM]


def test_a_partnership_hand_with_a_steal_and_a_steal_back(page, screenshot):
    # The new-game form: Robber Rummy, four players, partners sitting opposite.
    page.goto("/games/new?variant=robber")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    form.locator("label:has(input[data-partners='13']) > span").tap()
    expect(form.locator("input[data-partners='13']")).to_be_checked()
    assert small_targets(page) == []
    tap_and_wait(page, form.locator("[data-action=create]"))
    assert re.search(r"/g/\d+-[^/]+/robber$", page.url), page.url
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Bob")
    assert live_scores(page) == {"Ann & Cy": 0, "Bob & Dee": 0}

    # Ann melds 3-4-5♥ (doubled: 30) for Ann & Cy, blue.
    who_plays(page, "Ann")
    tap_cards(page, "H3", "H4", "H5")
    send(page, page.locator("[data-action=confirm]"))
    expect(page.locator("[data-log] li").last).to_have_text(re.compile(r"Ann melds 3♥ 4♥ 5♥ \(meld 1\)"))
    assert owner_chip(page, 1) == ("Ann", "p0")
    assert live_scores(page) == {"Ann & Cy": 30, "Bob & Dee": 0}

    # Bob lays 6♥ off on it: a steal. The chip turns to Bob & Dee's colour.
    who_plays(page, "Bob")
    choose_meld(page, 1)
    tap_cards(page, "H6")
    send(page, page.locator("[data-action=confirm]"))
    steal = page.locator("[data-log] li[data-steal]")
    expect(steal).to_have_count(1)
    expect(steal.locator("strong")).to_have_text("Bob steals meld 1 from Ann with 6♥")
    expect(page.locator("[data-flash]")).to_contain_text("Bob steals meld 1 from Ann with 6♥.")
    assert owner_chip(page, 1) == ("Bob", "p1")
    assert live_scores(page) == {"Ann & Cy": 0, "Bob & Dee": 40}
    expect(page.locator("[data-round-score='Dee']")).to_have_text("40")  # each member: the team's
    screenshot(page, "robber-steal")

    # Cy takes the discard pile (A♥ on top): nothing else is taken until A♥ is melded.
    who_plays(page, "Cy")
    tap_cards(page, "HA")
    send(page, page.locator("[data-action=take]"))
    expect(page.locator("[data-pending-take]")).to_have_attribute("data-pending-take", "HA")
    expect(page.locator("[data-action=pass]")).to_be_hidden()
    expect(page.locator("input[value='HA']:not([data-copy])")).to_be_checked()  # picked for Cy
    send(page, page.locator("[data-action=out]"))
    expect(page.locator("[data-error]")).to_have_text(
        "Cy took the discard pile: its top card A♥ must go into a meld or lay-off by Cy first (or Cy reneges).")
    expect(page.locator("[data-log] li")).to_have_count(3)  # nothing was saved

    # Cy steals it back with A♥ 2♥: the chip is blue again, 60 for Ann & Cy.
    expect(page.locator("input[name=player][value='Cy']")).to_be_checked()
    choose_meld(page, 1)
    tap_cards(page, "H2")
    send(page, page.locator("[data-action=confirm]"))
    expect(page.locator("[data-log] li[data-steal]").last).to_have_text(
        re.compile(r"Cy steals meld 1 from Bob with A♥ 2♥"))
    expect(page.locator("[data-pending-take]")).to_have_count(0)
    assert owner_chip(page, 1) == ("Cy", "p0")
    # A meld's history is the library's sentences, read as the pages read them: cards drawn.
    expect(page.locator("[data-table-melds] li[data-meld-number='1'] small")).to_contain_text(
        "made by Ann; stolen by Bob from Ann with 6♥; stolen by Cy from Bob with A♥ 2♥")
    assert live_scores(page) == {"Ann & Cy": 60, "Bob & Dee": 0}
    screenshot(page, "robber-steal-back")
    # At 360 × 740 (issue 25): the log's cards are chips (hearts red), and each line wraps
    # in its own column, its words clear of its Delete button (44 × 44 px or more).
    page.set_viewport_size({"width": 360, "height": 740})
    expect(page.locator("[data-log] li[data-steal] strong .k.r")).to_have_text(["6♥", "A♥", "2♥"])
    expect(page.locator("[data-log] > li [data-action=delete]")).to_have_count(4)  # each line measured
    assert page.evaluate(CROWDED, [GAP, MINIMUM]) == []
    screenshot(page, "robber-log-360")
    page.set_viewport_size(PHONE["viewport"])
    assert small_targets(page) == []
    assert_accessible(page, "robber table after a steal-back")

    # Dee goes out; the hands left: Ann K♠ (−10), Bob and Cy nothing.
    who_plays(page, "Dee")
    tap_and_wait(page, page.locator("[data-action=out]"))
    assert page.url.endswith("/robber/end"), page.url
    expect(page.locator("h1")).to_have_text("Hand 1 is over")
    for player, cards in (("Ann", ["SK"]), ("Bob", []), ("Cy", [])):
        if page.locator(f"[data-enter='{player}']").count():
            tap_and_wait(page, page.locator(f"[data-enter='{player}']"))
        expect(page.locator("[data-action=save-hand]")).to_have_text(f"Save {player}’s hand")
        tap_cards(page, *cards)
        tap_and_wait(page, page.locator("[data-action=save-hand]"))
    expect(page.locator("[data-score='Ann & Cy']")).to_have_text("50")
    expect(page.locator("[data-score='Bob & Dee']")).to_have_text("0")
    assert small_targets(page) == []
    assert_accessible(page, "robber end of hand")
    screenshot(page, "robber-end")
    tap_and_wait(page, page.locator("[data-action=confirm-round]"))
    expect(page.locator("[data-total='Ann']")).to_have_text("50")
    expect(page.locator("[data-total='Cy']")).to_have_text("50")
    expect(page.locator("[data-total='Bob']")).to_have_text("0")
    expect(page.locator("section[data-turn]")).to_have_attribute("data-round", "2")
    assert live_scores(page) == {"Ann & Cy": 0, "Bob & Dee": 0}

    # The game page and the hand's page: who made and who stole each meld.
    tap_and_wait(page, page.get_by_role("link", name="Game page"))
    expect(page.locator("[data-teams]")).to_contain_text("Ann & Cy against Bob & Dee")
    expect(page.locator("[data-round='1'] [data-player='Bob']")).to_have_text("0")
    assert small_targets(page) == []
    assert_accessible(page, "robber game page")
    tap_and_wait(page, page.locator("[data-round='1'] th a"))
    expect(page.locator("[data-owned-meld='1']")).to_contain_text("stolen by Cy from Bob with A♥ 2♥")
    assert small_targets(page) == []
    assert_accessible(page, "robber hand page")


def test_a_steal_on_one_phone_shows_on_the_other_live(page, browser, server):
    """Two phones on one game (3 players, no partnerships): Bob's steal logged on one
    appears on the other within 2 s, without a reload: the line, the chip, the score."""
    page.goto("/games/new?variant=robber")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    tap_and_wait(page, form.locator("[data-action=create]"))
    who_plays(page, "Ann")
    tap_cards(page, "S9", "S10", "SJ")
    send(page, page.locator("[data-action=confirm]"))
    other = browser.new_context(base_url=server, **PHONE)
    try:
        two = other.new_page()
        two.goto(page.url)
        assert owner_chip(two, 1) == ("Ann", "p0")
        two.evaluate("window.__sameDocument = true")

        who_plays(page, "Bob")
        choose_meld(page, 1)
        tap_cards(page, "SQ")
        send(page, page.locator("[data-action=confirm]"))

        expect(two.locator("[data-log] li[data-steal]")).to_have_text(
            re.compile("Bob steals meld 1 from Ann with Q♠"), timeout=2_000)
        assert owner_chip(two, 1) == ("Bob", "p1")
        assert live_scores(two) == {"Ann": 0, "Bob": 70, "Cy": 0}  # (5 + 10 + 10 + 10) × 2
        expect(two.locator("label:has(input[data-meld-number='1'])")).to_contain_text("Bob’s")
        assert two.evaluate("window.__sameDocument === true")
    finally:
        other.close()


def test_a_steal_changed_from_its_edit_link_at_360_px(page):
    """Robber's log has an Edit link on each meld, lay-off and going out (issue 25): Bob's
    steal of Ann's hearts, changed to a steal of Cy's spades with Q♠, is logged so and
    scored so; at 360 × 740 each line's words keep clear of its Edit link and Delete."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/games/new?variant=robber")
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    tap_and_wait(page, form.locator("[data-action=create]"))
    for player, cards in (("Ann", ("H3", "H4", "H5")), ("Cy", ("S9", "S10", "SJ"))):
        who_plays(page, player)
        tap_cards(page, *cards)
        send(page, page.locator("[data-action=confirm]"))
    who_plays(page, "Bob")
    choose_meld(page, 1)
    tap_cards(page, "H6")
    send(page, page.locator("[data-action=confirm]"))
    expect(page.locator("[data-log] li[data-steal] strong")).to_have_text("Bob steals meld 1 from Ann with 6♥")
    edits = page.locator("[data-log] > li a.edit")
    expect(edits).to_have_count(3)
    assert page.evaluate(CLEAR_OF_LINKS, GAP) == []
    assert small_targets(page) == []

    tap_and_wait(page, page.locator("[data-log] li[data-steal]").get_by_role("link", name="Edit"))
    expect(page.locator("h1")).to_contain_text("Change Bob")
    melds = page.locator("[data-melds] label")
    expect(melds).to_have_count(2)  # the melds as they were before the steal: Ann's and Cy's
    expect(melds.nth(1)).to_contain_text("Cy’s")
    choose_meld(page, 2)
    tap_cards(page, "H6", "SQ")  # 6♥ unpicked, Q♠ picked
    assert small_targets(page) == []
    assert_accessible(page, "a robber steal being changed")
    tap_and_wait(page, page.locator("[data-action=save]"))
    assert page.url.endswith("/robber"), page.url
    expect(page.locator("[data-flash]")).to_contain_text("in hand 1: every score is recomputed")
    expect(page.locator("[data-log] li[data-steal] strong")).to_have_text("Bob steals meld 2 from Cy with Q♠")
    assert owner_chip(page, 1) == ("Ann", "p0")
    assert owner_chip(page, 2) == ("Bob", "p1")
    scores = live_scores(page)
    assert scores["Ann"] > 0 and scores["Cy"] == 0 and scores["Bob"] > 0


# Each log line whose words come nearer its Edit link than ``gap`` px: the line's words.
CLEAR_OF_LINKS = """(gap) => [...document.querySelectorAll("[data-log] > li")].flatMap((li) => {
  const link = li.querySelector("a.edit");
  if (!link) return [];
  const a = link.getBoundingClientRect(), said = li.querySelector(".said").getBoundingClientRect();
  return said.right + gap <= a.left || said.bottom <= a.top || a.bottom <= said.top ? [] : [li.textContent.trim()];
})"""
