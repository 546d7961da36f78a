"""What a person at the table reads, at phone size (issue 15): the round end's score strip
says the same as the list below it, the new-game form speaks in plain words, and the game
pages, the history and a player's page name things as the table does."""
from __future__ import annotations

import re

from browser_table import Phone, Routes, location
from playwright.sync_api import expect
from test_browser_a11y import assert_accessible
from test_browser_layout import NAMES, iceberg_round_one

from scorekeeper.games.registry import VARIANTS


def test_the_round_end_strip_shows_the_round_scores_the_list_shows(page):
    """Iceberg's strip showed the points before the penalties and the aces (700 where the
    list said +1380); now it shows what the list shows, as Robber's does."""
    routes = Routes(page)
    routes.new_game(NAMES)
    iceberg_round_one(routes, hands=False)
    routes.hand(NAMES[1], "H2")  # one hand entered: the others count as holding nothing yet
    phone = Phone(page)
    phone.key = routes.key
    phone.goto("/end")
    listed = phone.end_scores()
    assert listed[NAMES[1]] == 700 * 2 - 20  # the ace doubles 700 less the card in hand
    strip = phone.round_scores()
    assert {p: strip[p] for p in listed} == listed  # the list has the hands entered
    phone.enter_hand(NAMES[2], "D6", "C2")
    listed = phone.end_scores()
    assert listed[NAMES[2]] < 70  # a playable card and a card in hand cost points
    strip = phone.round_scores()
    assert {p: strip[p] for p in listed} == listed


def test_the_game_pages_history_and_a_players_page_say_it_in_the_tables_words(page):
    """The Iceberg game page names the game, as the others do; the history calls Robber's
    rounds hands; a player's page says "0 finished (2 in progress)", not "0 +2 playing",
    and its list of games tells apart two games of the same players on the same day."""
    routes = Routes(page)
    routes.new_game(NAMES)
    iceberg_round_one(routes)
    routes.confirm_round(1)
    counted = routes.url
    routes.new_game(NAMES)  # the same four, the same day, nothing played yet
    made = routes.post("/games", [("variant", "robber"), ("first_dealer", "0"),
                                  *((f"seat_{i}", n) for i, n in enumerate(NAMES))])
    robber = re.search(r"/g/((\d+)-[^/]+)/robber$", location(made))
    robber_url = "/g/" + robber.group(1) + "/robber"
    routes.post(robber_url + "/play", [("player", NAMES[1]), ("action", "play"),
                                       *(("cards", c) for c in ("H9", "H10", "HJ"))])
    routes.post(robber_url + "/play", [("player", NAMES[0]), ("action", "out")])
    for player in NAMES[1:]:
        routes.post(robber_url + "/end/hand", [("player", player), ("round_no", "1")])
    routes.post(robber_url + "/end", [("round_no", "1")])

    page.goto(counted)
    expect(page).to_have_title(re.compile(r"^Iceberg Rummy: game \d+"))
    expect(page.locator("h1")).to_have_text(f"Iceberg Rummy: {', '.join(NAMES)}")

    page.goto("/")
    robber_line = page.locator(f"[data-games] li[data-game='{robber.group(2)}'] .status")
    expect(robber_line).to_have_text(re.compile(r"^hand 2, "))

    page.goto("/players")
    page.locator("[data-players] li", has_text=NAMES[1]).get_by_role("link").tap()
    expect(page.locator("h1")).to_have_text(NAMES[1])
    iceberg = page.locator("[data-lines] tr[data-variant=iceberg]")
    expect(iceberg.locator("[data-played]")).to_have_text("0 (2 in progress)")
    expect(page.locator("[data-lines]")).not_to_contain_text("playing")
    lines = page.locator("[data-player-games] li")
    expect(lines).to_have_count(3)
    texts = [lines.nth(i).inner_text() for i in range(3)]
    assert len(set(texts)) == 3, texts
    expect(page.locator("[data-player-games] [data-leader]").first).to_be_visible()
    leaders = page.locator("[data-player-games] [data-leader]").all_inner_texts()
    assert f"{NAMES[1]} leads with 1380" in leaders, leaders
    assert any(t.endswith("in progress, 1 hand counted") or "1 hand counted" in t for t in texts), texts


def option_codes() -> set[str]:
    """The rule options' names and choices that are codes, not words (set_duplicates,
    doubling_bonus, plus10), as the game file spells them."""
    from scorekeeper.games import registry

    codes = set()
    for variant in registry.VARIANTS.values():
        for option in variant.rules:
            for key in (option.name, *(c for c in option.choices if isinstance(c, str))):
                if "_" in key or any(ch.isdigit() for ch in key):
                    codes.add(key)
    return codes


def test_the_new_game_form_speaks_in_plain_words_and_shows_the_rules_in_one_line(page):
    """No option key ("set_duplicates", "doubling_bonus", "Decks decks"), no "False:" beside
    Yes/No; the rules are one line that opens the whole list, house values marked."""
    codes = option_codes()
    for variant in ("iceberg", "robber", "rummy", "gin", "kalooki", "conquian", "manipulation", "rummy500"):
        page.goto(f"/games/new?variant={variant}")
        rules = page.locator("details[data-rules]")
        expect(rules.locator("summary")).to_contain_text("Rules:")
        expect(rules.locator("[data-rule]").first).to_be_hidden()  # one line until tapped
        rules.locator("summary").tap()
        expect(rules.locator("[data-rule]").first).to_be_visible()
        line = rules.locator("[data-rules-text]")
        published = line.inner_text()
        rules.evaluate("d => d.dispatchEvent(new Event('input'))")  # nothing changed: said as before
        expect(line).to_have_text(published)
        words = page.locator("main").inner_text()
        assert not [code for code in codes if code in words], variant
        assert not re.search(r"\b(True|False|null)\b|Decks decks|seed", words), variant
    page.goto("/games/new?variant=iceberg")
    line = page.locator("[data-rules-line]")
    expect(line).to_contain_text("The inventor's rules (Gordon Bower)")
    expect(line).to_contain_text("3 house values to confirm")
    page.locator("details[data-rules] summary").tap()
    expect(page.locator("[data-rule] [data-house-value]")).to_have_count(3)
    assert_accessible(page, "the new game's rules, opened")
    expect(page.locator("[data-rule=aces] label")).to_have_text(
        ["Multiply the round score", "A bonus for each ace", "A bonus, doubled for each next ace"])
    expect(page.locator("[data-rule=decks] label")).to_have_text(
        ["As the rules say (1 for 2–3 players, 2 for 4 or more)", "1 deck", "2 decks"])

    # A rule changed and one out of range: the form comes back open, saying both.
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(NAMES[:2]):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    page.locator("[data-rule=aces] label", has_text="A bonus for each ace").tap()
    form.get_by_label("Target", exact=True).fill("0")
    # Said in the line as soon as changed, as the server says it of the form sent back;
    # a number emptied is its default again, nothing changed.
    form.get_by_label("Target", exact=True).fill("")
    expect(page.locator("[data-rules-line]")).to_contain_text("changed: Aces: a bonus for each ace")
    expect(page.locator("[data-rules-line]")).not_to_contain_text("Target")
    form.get_by_label("Target", exact=True).fill("0")
    expect(page.locator("[data-rules-line]")).to_contain_text("changed: Aces: a bonus for each ace, Target: 0")
    with page.expect_navigation():
        form.locator("[data-action=create]").tap()
    expect(page.locator("[data-error]")).to_contain_text("Target: it takes a whole number from 1 to 1000000000.")
    expect(page.locator("details[data-rules]")).to_have_attribute("open", "")
    expect(page.locator("[data-rules-line]")).to_contain_text("changed: Aces: a bonus for each ace, Target: 0")
    form.get_by_label("Target", exact=True).fill("300")
    with page.expect_navigation():
        form.locator("[data-action=create]").tap()
    page.goto(re.sub(r"/table$", "/rules", page.url))
    expect(page.locator("[data-rule=aces] dd strong")).to_have_text("This game: A bonus for each ace")
    expect(page.locator("[data-rule=target] dd")).to_contain_text("This game: 300 (changed from 5000)")
    assert "ace_bonus" not in page.locator("main").inner_text()


def test_the_rules_pages_name_rules_and_cards_as_people_read_them(page):
    """How each game is scored, and its options: no option name (renege_penalty), no card
    code (S7 H7 C7) where the pages draw cards (7♠ 7♥ 7♣)."""
    codes = option_codes()
    for variant in VARIANTS:  # every game's, the registry's
        page.goto(f"/rules/{variant}")
        words = page.locator("main").inner_text()
        assert not [code for code in codes if code in words], variant
        assert not re.search(r"\b[SHDC](10|[2-9AJQK])\b", words), variant
    expect(page.locator("main")).to_contain_text("Target")
    page.goto("/rules/robber")
    expect(page.locator("main")).to_contain_text("C melds 7♠ 7♥ 7♣, A adds 7♦, C reneges, A holds 2♥")
