"""The table screens at phone size, as a tester found them: the score strip with six long
names fits 390 px (no sideways scroll), partners' shared score is said, going out with
cards still picked keeps them, and after taking the discard pile a card tapped twice
shows "Picked twice" in the Robber preview before anything is logged."""
from __future__ import annotations

import re

from browser_table import Phone, Routes, location, scores, send
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_robber import small_targets, tap_cards, who_plays

LONG_NAMES = ["Margaret", "Christopher", "Alexandra", "Benjamin", "Elizabeth", "Jonathan"]
WIDTH = 390  # browser_table.PHONE's viewport


def robber_game(page, players, partnerships="none") -> str:
    """A Robber Rummy game made through the new-game route; its table's URL."""
    routes = Routes(page)
    pairs = [("variant", "robber"), ("first_dealer", "0"), ("partnerships", partnerships)]
    pairs += [(f"seat_{i}", name) for i, name in enumerate(players)]
    response = routes.post("/games", pairs)
    url = re.search(r"(/g/\d+-[^/]+/robber)$", location(response))
    assert url, location(response)
    return url.group(1)


LINES = ("e => { const r = document.createRange(); r.selectNodeContents(e); "
         "return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }")


# The character before each line break of an element's text (its first text node's).
BREAKS = """e => { const t = [...e.childNodes].find(n => n.nodeType === 3), r = document.createRange(), out = [];
  let top = null;
  for (let i = 0; i < t.length; i++) {
    r.setStart(t, i); r.setEnd(t, i + 1);
    const box = [...r.getClientRects()].filter(b => b.width > 0).pop();  /* a hyphen drawn: a box of its own */
    if (!box) continue;
    if (top !== null && Math.round(box.top) > top) out.push(t.data[i - 1]);
    top = Math.round(box.top);
  }
  return out; }"""


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_score_strip_with_six_long_names_fits_a_phone(page):
    routes = Routes(page)
    routes.new_game(LONG_NAMES)
    routes.meld("Christopher", "S7", "S8", "S9")
    page.goto(routes.url + "/table")
    assert scroll_width(page) <= WIDTH
    strip = page.locator("table[data-scores]")
    box = strip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH
    for name in LONG_NAMES:  # wrapped on screen, never cut short (issue 15, item 2)
        header = strip.locator(f"th[data-player='{name}']")
        assert header.evaluate("th => th.textContent.replace(/\u00ad/g, '')") == name
        # ... and where the language hyphenates it, never mid-syllable (issue 25)
        breaks = header.evaluate(BREAKS)
        assert all(before == "\u00ad" for before in breaks), (name, breaks)
    title = strip.locator("tbody th").first  # "Round 1" on one line (issue 25)
    expect(title).to_have_text("Round 1")
    assert title.evaluate(LINES) == 1
    whole = strip.locator("th[data-player='Christopher']")
    assert whole.evaluate("th => th.scrollWidth <= th.clientWidth")  # no "…"
    expect(strip.locator("[data-round-score='Christopher']")).to_have_text("30")
    assert small_targets(page) == []
    assert_accessible(page, "table with six long names")
    # The round end shows the same strip. (The table page is left first: its live update
    # would move it to the round end by itself, racing the goto.)
    page.goto("about:blank")
    routes.out("Christopher")
    page.goto(routes.url + "/end")
    assert scroll_width(page) <= WIDTH


def test_the_robber_strip_with_five_long_names_fits_a_phone(page):
    url = robber_game(page, LONG_NAMES[:5])
    page.goto(url)
    assert scroll_width(page) <= WIDTH
    expect(page.locator("[data-shared-score]")).to_have_count(0)  # no partners


def test_partners_columns_say_they_share_one_score(page):
    url = robber_game(page, ["Ann", "Bob", "Cy", "Dan"], partnerships="13")
    routes = Routes(page)
    routes.post(url + "/play", [("player", "Bob"), ("action", "play"),
                                ("cards", "H9"), ("cards", "H10"), ("cards", "HJ")])
    page.goto(url)
    note = page.locator("table[data-scores] caption [data-shared-score]")
    expect(note).to_be_visible()
    expect(note).to_have_text("Partners share one score: Ann & Cy · Bob & Dan")
    expect(page.locator("[data-round-score='Bob']")).to_have_text("50")
    expect(page.locator("[data-round-score='Dan']")).to_have_text("50")
    # Each partner's column carries the team's colour chip.
    bob, dan = (page.locator(f"th[data-player='{p}'] i.chip").get_attribute("class") for p in ("Bob", "Dan"))
    assert bob == dan
    assert scroll_width(page) <= WIDTH
    assert_accessible(page, "robber partnership strip")


def test_went_out_with_cards_picked_keeps_them_and_logs_nothing(page):
    phone = Phone(page)
    phone.new_game(["Ann", "Bob"], dealer=1)
    phone.tap_cards("DK", "CK", "HK")
    phone.expect_preview(30)
    phone.send(page.locator("[data-action=out]"))  # refused: the page stays
    expect(page.locator("[data-error]")).to_have_text(
        "You picked K♥ K♦ K♣: log them first (Confirm), then tap Went out. Nothing was saved.")
    expect(page.locator("[data-action=out]")).to_be_visible()  # still the table
    for card in ("DK", "CK", "HK"):
        expect(phone.card_input(card)).to_be_checked()
    phone.expect_preview(30)  # asked again at once: Confirm logs them
    phone.confirm()
    phone.out()
    assert page.url.endswith("/end"), page.url


def test_pass_with_cards_picked_keeps_them_and_the_turn(page):
    """Cards picked and Pass tapped instead of Confirm: refused, the turn and who plays stay
    Ann's, the cards stay picked, and Confirm then logs them as Ann's (a tester's second
    player was credited with them)."""
    phone = Phone(page)
    phone.start_game(["Ann", "Bob"], dealer=1)
    phone.tap_cards("D5", "D6", "D7")
    phone.send(page.locator("[data-action=pass]"))
    expect(page.locator("[data-error]")).to_have_text(
        "You picked 5♦ 6♦ 7♦: log them first (Confirm), then tap Pass. Nothing was saved.")
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Ann")
    expect(page.locator("form#play input[name=player][value=Ann]")).to_be_checked()
    for card in ("D5", "D6", "D7"):
        expect(phone.card_input(card)).to_be_checked()
    phone.confirm()
    expect(page.locator("[data-log] li[data-type=meld][data-player=Ann]")).to_contain_text("5♦ 6♦ 7♦")


def test_robber_a_renege_after_taking_the_pile_leaves_the_turn_free_to_pass(page):
    """Bob takes the pile (its top card picked for him), cannot use it and reneges: the
    card is no longer picked, so the pass that follows is not refused for it."""
    page.goto(robber_game(page, ["Ann", "Bob", "Cy"]))  # Bob's turn (Ann dealt)
    who_plays(page, "Bob")
    tap_cards(page, "SK")
    send(page, page.locator("[data-action=take]"))
    expect(page.locator("input[value='SK']:not([data-copy])")).to_be_checked()
    send(page, page.locator("[data-action=renege]"))
    expect(page.locator("[data-picker] :checked")).to_have_count(0)
    send(page, page.locator("[data-action=pass]"))
    expect(page.locator("[data-error]")).to_have_count(0)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Cy")


def test_robber_a_pass_waiting_offline_passes_the_reneger_by(page):
    """Bob reneged: the server passes him by for the rest of the hand, and so does a pass
    tapped with no network, which moves the turn here before it is sent: Bob's own pass,
    and a pass later in the hand."""
    page.goto(robber_game(page, ["Ann", "Bob", "Cy"]))  # Bob's turn (Ann dealt)
    who_plays(page, "Bob")
    tap_cards(page, "SK")
    send(page, page.locator("[data-action=take]"))
    send(page, page.locator("[data-action=renege]"))
    turn = page.locator("section[data-turn]")
    page.context.set_offline(True)
    page.locator("[data-action=pass]").tap()  # Bob's pass, waiting: to Cy (not back to Ann)
    expect(page.locator("[data-waiting] li")).to_have_count(1)
    expect(turn).to_have_attribute("data-turn", "Cy")
    page.context.set_offline(False)
    expect(page.locator("[data-waiting] li")).to_have_count(0)
    expect(turn).to_have_attribute("data-turn", "Cy")
    page.wait_for_timeout(700)  # a moment later (at once, it would be a double tap)
    send(page, page.locator("[data-action=pass]"))  # to Ann
    expect(turn).to_have_attribute("data-turn", "Ann")
    page.context.set_offline(True)
    page.wait_for_timeout(700)
    page.locator("[data-action=pass]").tap()
    expect(page.locator("[data-waiting] li")).to_have_count(1)
    expect(turn).to_have_attribute("data-turn", "Cy")  # not Bob
    page.context.set_offline(False)
    expect(page.locator("[data-waiting] li")).to_have_count(0)
    expect(turn).to_have_attribute("data-turn", "Cy")


def test_robber_a_taken_card_tapped_again_shows_picked_twice(page):
    url = robber_game(page, ["Uma", "Val"])
    page.goto(url)
    who_plays(page, "Val")
    tap_cards(page, "HQ")
    send(page, page.locator("[data-action=take]"))
    expect(page.locator("[data-taken='HQ']")).to_contain_text("is picked already")
    expect(page.locator("input[value='HQ']:not([data-copy])")).to_be_checked()
    box = page.locator("[data-preview]")
    expect(box).to_contain_text("a new meld needs three cards or more")
    tap_cards(page, "HQ", "SQ", "DQ")  # the tester's taps: Q♥ again unpicks it (issue 25)
    expect(page.locator("input[value='HQ']:not([data-copy])")).not_to_be_checked()
    expect(page.locator("[data-action=confirm]")).to_be_disabled()
    tap_cards(page, "HQ")  # picked again: its second copy's cell is shown beside it
    second = page.locator("[data-picker] label:has(input[value='HQ'][data-copy='2']) b")
    second.tap()
    expect(box.locator("[data-twice]")).to_have_attribute("data-twice", "HQ")
    expect(box).to_contain_text("Set of queens: Q♠ Q♥ Q♥ Q♦, worth 40 to Val.")
    second.tap()  # the second copy unpicked: Q♥ once
    expect(box.locator("[data-twice]")).to_have_count(0)
    expect(box.locator("[data-ok='1']")).to_have_attribute("data-moves", scores(30))
    expect(box).to_contain_text("Set of queens: Q♠ Q♥ Q♦, worth 30 to Val.")
    assert small_targets(page) == []
    assert_accessible(page, "robber preview")
    send(page, page.locator("[data-action=confirm]"))
    expect(page.locator("[data-log] li").last).to_contain_text("Val melds Q♠ Q♥ Q♦")


def test_a_lay_off_s_preview_says_each_card_on_its_own_line_and_confirm_waits_for_cards(page):
    """Issue 25: "8♥ as 4th card: 40" and "9♥ as 5th card: 50" ran together in the bar, and
    Confirm looked active with nothing picked."""
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)
    confirm = page.locator("form#play [data-action=confirm]")
    expect(confirm).to_be_disabled()
    phone.tap_cards("S7", "S8", "S9")
    expect(confirm).to_be_enabled()
    phone.confirm()
    expect(phone.log_item(type="meld")).to_have_count(1)
    expect(confirm).to_be_disabled()  # sent: nothing picked any more
    phone.tap_meld(1)
    phone.tap_cards("S10", "SJ")
    lines = page.locator("[data-preview] li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_have_text(re.compile(r"^10♠ as 4th card: \d+$"))
    expect(lines.nth(1)).to_have_text(re.compile(r"^J♠ as 5th card: \d+$"))
    first, second = lines.nth(0).bounding_box(), lines.nth(1).bounding_box()
    assert second["y"] >= first["y"] + first["height"] - 1  # each on its own line
    assert lines.nth(0).evaluate(LINES) == 1


def test_while_picking_the_strip_gives_the_screen_to_the_cards(page):
    """Issue 25: while picking, the sticky score strip and the bottom bar covered about 40%
    of a 740 px screen. With cards picked the strip scrolls away with the page: the bar
    (the cards picked, what they make, Confirm) is all that stays."""
    page.set_viewport_size({"width": 360, "height": 740})  # the tester's phone
    phone = Phone(page)
    phone.new_game(["Anne", "Bertrand", "Cecilia", "Dmitri"], dealer=3)
    phone.meld("S7", "S8", "S9", points=30)
    phone.tap_meld(1)
    phone.tap_cards("S10", "SJ")
    expect(page.locator("[data-preview] li")).to_have_count(2)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    height = page.viewport_size["height"]
    strip = page.locator("table[data-scores]").bounding_box()
    bar = page.locator("form#play [data-bar]").bounding_box()
    covered = max(0, min(strip["y"] + strip["height"], height) - max(strip["y"], 0)) + bar["height"]
    assert covered < 0.3 * height, (strip, bar)
    phone.confirm()  # nothing picked: the strip is in view again, at the top
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator("table[data-scores]")).to_be_in_viewport()


def test_a_double_tap_on_pass_passes_once(page):
    """Two taps a moment apart on Pass are one pass: the next player keeps their turn."""
    phone = Phone(page)
    phone.new_game(["Ann", "Bob", "Cy"], dealer=2)  # Ann's turn
    button = page.locator("[data-action=pass]")
    button.tap()
    button.tap()
    expect(page.locator("ol[data-log] li[data-type=pass]")).to_have_count(1)
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Bob")
    page.reload()  # as the server has it
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Bob")
    page.wait_for_timeout(700)
    button.tap()  # a moment later: a pass of its own
    expect(page.locator("section[data-turn]")).to_have_attribute("data-turn", "Cy")
