"""Players across games at phone size, with taps: finished games imported through the
import page, the history filtered, the players page, a player's figures and chart, a
rename and a merge that the game history follows, head to head, and a game's printable
score sheet (its read-only link, one printed page); a second phone sees those players
only once it holds a link, and cannot rename them with a read-only one.

The browser server is shared by every browser test of a session: the names here carry a
suffix of their own, and nothing assumes who else has played on it.
"""
from __future__ import annotations

import json
import re
import uuid
from datetime import date, timedelta

from games_data import GIN_ANN_WINS
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_tap_targets import MEASURE, MINIMUM, TARGETS

# Iceberg, target 100 (docs/rules/): Ann lays the ace HA, melds odds in one suit
# S3 S5 S7 S9 SJ SK (700) and goes out: 700 × (1 + 1 ace) = 1400, past the target: Ann
# wins. Bob melds D2 D3 D4 (30) and holds D5 C9: 2 × 10 for the cards, and D5 would have
# been the 4th card of his run (40 for a playable card): 30 − 20 − 40 = −30.
ICEBERG = {"format": "scorekeeper/1", "variant": "iceberg", "rules": {"target": 100},
           "players": ["Ann", "Bob"], "rounds": [{
               "events": [
                   {"type": "ace", "player": "Ann", "cards": ["HA"]},
                   {"type": "meld", "player": "Ann", "cards": ["S3", "S5", "S7", "S9", "SJ", "SK"]},
                   {"type": "meld", "player": "Bob", "cards": ["D2", "D3", "D4"]},
                   {"type": "out", "player": "Ann"},
               ],
               "hands": {"Ann": [], "Bob": ["D5", "C9"]}}]}

# Gin: Ann 88 (gin) then 12 (an undercut): 100, Ann wins (worked out in games_data.py).
GIN = GIN_ANN_WINS


def with_names(doc: dict, ann: str, bob: str) -> bytes:
    text = json.dumps(doc).replace('"Ann"', json.dumps(ann)).replace('"Bob"', json.dumps(bob))
    return text.encode()


def tap_and_wait(page, locator):
    with page.expect_navigation():
        locator.tap()


def import_game(page, content: bytes) -> int:
    page.goto("/games/import")
    page.locator("form[data-import] input[type=file]").set_input_files(
        {"name": "game.json", "mimeType": "application/json", "buffer": content})
    tap_and_wait(page, page.locator("form[data-import] [data-action=import]"))
    expect(page.locator("[data-flash]")).to_contain_text("Imported")
    return int(re.search(r"/g/(\d+)-", page.url).group(1))


def listed_games(page) -> list[int]:
    items = page.locator("[data-games] > li[data-game]")
    return sorted(int(items.nth(i).get_attribute("data-game")) for i in range(items.count()))


def filter_history(page, variant="", player="", since="", until=""):
    form = page.locator("form[data-history-filter]")
    form.get_by_label("Game", exact=True).select_option(variant)
    form.get_by_label("Player", exact=True).fill(player)
    form.get_by_label("From", exact=True).fill(since)
    form.get_by_label("to", exact=True).fill(until)
    tap_and_wait(page, form.locator("[data-action=filter]"))


def row(page, variant):
    cells = page.locator(f"tr[data-variant='{variant}']")
    return {name: cells.locator(f"[data-{name}]").inner_text()
            for name in ("played", "won", "rate", "average", "best") if cells.locator(f"[data-{name}]").count()}


def record(page, name):
    return page.locator(f"[data-record='{name}'] dd").inner_text()


def assert_fits_and_taps(page, where):
    """Nothing wider than the phone, and every target at least 44 × 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), where
    small = [t for t in page.evaluate(MEASURE, TARGETS) if t["width"] < MINIMUM or t["height"] < MINIMUM]
    assert small == [], where


def test_players_history_and_statistics_at_phone_size(page, screenshot):
    tag = uuid.uuid4().hex[:6]
    ann, bob, anna = f"Ann {tag}", f"Bob {tag}", f"Annabel {tag}"
    iceberg = import_game(page, with_names(ICEBERG, ann, bob))
    gin = import_game(page, with_names(GIN, ann, bob))

    # The history: this phone's two games, each finished with its score sheet linked.
    page.goto("/")
    assert listed_games(page) == sorted([iceberg, gin])
    expect(page.locator("[data-games] [data-action=sheet]")).to_have_count(2)
    assert_fits_and_taps(page, "history")
    filter_history(page, variant="gin")
    assert listed_games(page) == [gin]
    filter_history(page, player=bob.upper())  # a name in any case
    assert listed_games(page) == sorted([iceberg, gin])
    today = date.today().isoformat()  # the imports were made today (the server's clock)
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    filter_history(page, since=today, until=today)
    assert listed_games(page) == sorted([iceberg, gin])
    filter_history(page, since=tomorrow)
    assert listed_games(page) == []
    assert_accessible(page, "the history, filtered")
    expect(page.locator("[data-none-match]")).to_have_text("No game matches these filters.")
    tap_and_wait(page, page.get_by_role("link", name="Show all"))
    assert listed_games(page) == sorted([iceberg, gin])

    # The players page, then Ann's figures.
    tap_and_wait(page, page.get_by_role("link", name="Players and their statistics"))
    expect(page.locator("h1")).to_have_text("Players")
    for name in (ann, bob):
        expect(page.locator("[data-players] li", has_text=name)).to_contain_text("2 games")
    assert_fits_and_taps(page, "players")
    assert_accessible(page, "the players page")
    tap_and_wait(page, page.get_by_role("link", name=ann, exact=True))
    ann_url = page.url
    expect(page.locator("[data-player-name]")).to_have_text(ann)
    # Iceberg: one round of 1400; Gin: hands of 88 and 12 (average 50).
    assert row(page, "iceberg") == {"played": "1", "won": "1", "rate": "100%", "average": "1400.0",
                                    "best": "1400"}
    assert row(page, "gin") == {"played": "1", "won": "1", "rate": "100%", "average": "50.0", "best": "88"}
    assert row(page, "all") == {"played": "2", "won": "2", "rate": "100%"}
    best = page.locator("tr[data-variant='iceberg'] [data-best]").bounding_box()
    assert best["x"] + best["width"] <= 390  # every column on the phone's screen, no scrolling
    assert record(page, "biggest-meld").startswith("700 points")
    assert record(page, "specials").startswith("1: odds in one suit")
    assert (record(page, "aces"), record(page, "playable")) == ("1", "0 points")
    assert (record(page, "gins"), record(page, "undercuts")) == ("1", "1")
    chart = page.locator("[data-timeline] svg")
    expect(chart).to_be_visible()
    expect(chart.locator("circle.mark.won")).to_have_count(2)  # two games, both won
    assert chart.bounding_box()["width"] <= 390
    assert_fits_and_taps(page, "player")
    screenshot(page, "player")
    assert_accessible(page, "a player's page")

    # Bob's page: the penalty for his playable D5 (40), and no win (0%).
    page.goto("/players")
    tap_and_wait(page, page.get_by_role("link", name=bob, exact=True))
    assert row(page, "iceberg") == {"played": "1", "won": "0", "rate": "0%", "average": "\u221230.0",
                                    "best": "\u221230"}
    assert record(page, "playable") == "40 points"
    expect(page.locator("[data-timeline] circle.mark")).to_have_count(2)
    expect(page.locator("[data-timeline] circle.mark.won")).to_have_count(0)
    bob_id = int(re.search(r"/players/(\d+)$", page.url).group(1))
    ann_id = int(re.search(r"/players/(\d+)$", ann_url).group(1))

    # Head to head: Ann was ahead of Bob in both games.
    page.goto("/players")
    tap_and_wait(page, page.locator("[data-action=head-to-head]"))
    expect(page.locator(f"[data-cell='{ann_id}-{bob_id}']")).to_have_text("2–0")
    expect(page.locator(f"[data-cell='{bob_id}-{ann_id}']")).to_have_text("0–2")
    assert_fits_and_taps(page, "head to head")
    # A short name's link is as wide as a finger all the same (a tester's were 29–35 px).
    short = page.locator("[data-head-to-head] tbody th a").first
    assert short.evaluate("a => { a.textContent = 'Al'; return a.getBoundingClientRect().width; }") >= MINIMUM
    assert_accessible(page, "head to head")
    # The explanation stands above the table, whole: not in a caption that scrolls with it.
    how = page.locator("[data-h2h-how]")
    expect(how).to_contain_text("won–lost (–tied)")
    assert how.evaluate("p => !p.closest('.wide') && p.getBoundingClientRect().right <= innerWidth")
    # Eight players' columns: each name stays whole on its line (a tester read "Cle|o", "Dmi|tri").
    lines = page.locator("[data-head-to-head]").evaluate("""t => {
      const head = t.tHead.rows[0];
      for (let i = 0; i < 6; i++) head.append(Object.assign(head.cells[1].cloneNode(), {textContent: 'Dmitri'}));
      for (const r of t.tBodies[0].rows) for (let i = 0; i < 6; i++) r.append(r.cells[1].cloneNode(true));
      const range = document.createRange();
      return [...head.cells].slice(3).map(th => {
        range.selectNodeContents(th);
        return range.getClientRects().length;
      });
    }""")
    assert lines == [1] * 6

    # Rename Ann: every past game follows, in the history and in the games themselves.
    page.goto(ann_url)
    form = page.locator("form[data-rename]")
    form.get_by_label("New name").fill(anna)
    tap_and_wait(page, form.locator("[data-action=rename]"))
    expect(page.locator("[data-flash]")).to_contain_text(f"Renamed to {anna} in 2 games.")
    expect(page.locator("[data-player-name]")).to_have_text(anna)
    page.goto("/")
    for game in (iceberg, gin):
        expect(page.locator(f"[data-games] > li[data-game='{game}']")).to_contain_text(f"{anna}, {bob}")
    filter_history(page, player=anna)
    assert listed_games(page) == sorted([iceberg, gin])
    filter_history(page, player=ann)  # the old name is gone
    assert listed_games(page) == []

    # Merge: "Annie" was Annabel too; her game follows, and Annie is gone.
    annie, cy = f"Annie {tag}", f"Cy {tag}"
    third = import_game(page, with_names(GIN, annie, cy))
    page.goto("/players")
    tap_and_wait(page, page.get_by_role("link", name=annie, exact=True))
    form = page.locator("form[data-merge]")
    expect(form.get_by_label(f"Merge {annie} into")).to_have_value("")  # nobody chosen before a tap
    form.get_by_label(f"Merge {annie} into").select_option(label=anna)
    form.get_by_label(f"Yes, {annie} and the player chosen are the same person").check()
    tap_and_wait(page, form.locator("[data-action=merge]"))
    expect(page.locator("[data-flash]")).to_contain_text(
        f"{annie} and {anna} are one player now: {anna}, in 1 game more.")
    assert page.url == ann_url
    assert row(page, "gin") == {"played": "2", "won": "2", "rate": "100%", "average": "50.0", "best": "88"}
    page.goto("/")
    expect(page.locator(f"[data-games] > li[data-game='{third}']")).to_contain_text(f"{anna}, {cy}")
    page.goto("/players")
    expect(page.get_by_role("link", name=annie, exact=True)).to_have_count(0)

    # A finished game's score sheet: the totals, the read-only link, one printed page.
    page.goto("/")
    tap_and_wait(page, page.locator(f"li[data-game='{gin}'] [data-action=sheet]"))
    sheet = page.locator("[data-sheet]")
    expect(sheet.locator("h1")).to_have_text(f"Gin Rummy: {anna}, {bob}")
    # Hands 88 and 12; game bonus 100, shutout 100, line bonus 2 × 20: bonuses 240, total 340.
    expect(sheet.locator(f"[data-bonus='{anna}']")).to_have_text("240")
    expect(sheet.locator(f"[data-total='{anna}']")).to_have_text("340")
    expect(sheet.locator("[data-winner]")).to_have_attribute("data-winner", anna)
    expect(sheet.locator("[data-notes]")).to_contain_text(f"{anna}: 1 gin, 1 undercut")
    view_link = sheet.locator("input[data-link=view]").input_value()
    assert re.search(rf"/g/{gin}-[^/]+/sheet$", view_link)
    assert_fits_and_taps(page, "sheet")
    screenshot(page, "score-sheet")
    assert_accessible(page, "score sheet")
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # prints on one sheet
    # Whoever gets the link sees the sheet and can change nothing.
    stranger = page.context.browser.new_context(base_url=page.url.split("/g/")[0])
    try:
        other = stranger.new_page()
        # Before it holds a link, that phone sees no one of these games.
        other.goto("/players")
        expect(other.get_by_role("link", name=anna, exact=True)).to_have_count(0)
        assert other.goto(ann_url).status == 404
        other.goto(view_link)
        expect(other.locator("[data-sheet] h1")).to_have_text(f"Gin Rummy: {anna}, {bob}")
        assert other.locator("input[data-link=view]").input_value() == view_link
        # Now it sees that game's players, that game only, and cannot rename them.
        other.goto("/players")
        expect(other.locator("[data-players] li", has_text=anna)).to_contain_text("1 game")
        other.goto(ann_url)
        expect(other.locator("[data-player-games] > li")).to_have_count(1)
        expect(other.locator("form[data-rename]")).to_have_count(0)
        expect(other.locator("[data-no-change]")).to_be_visible()
    finally:
        stranger.close()
