"""docs/rules/iceberg.md's seed example tapped through every screen: A 100, B −120, C −20.

docs/rules/iceberg.md, "The sources' example, recomputed": both seed pages print −100 for B;
they forgot that S3 is playable (3rd card on A's pair of threes, −20).
"""
from __future__ import annotations

from urllib.parse import urlsplit

from browser_table import MINUS, Phone, number, play_seed_round
from playwright.sync_api import expect


def test_seed_example_round_tapped_through_the_screens(page, screenshot):
    phone = Phone(page)
    phone.new_game(["A", "B", "C"], dealer=2)  # C deals, so A plays first
    expect(page.locator("[data-flash][role=status]")).to_contain_text("C deals; A starts")
    turn = page.locator("section[data-turn]")
    expect(turn).to_have_attribute("data-dealer", "C")
    expect(turn).to_have_attribute("data-round", "1")

    play_seed_round(phone)

    # Both hands are in: the round end shows every score with its reasons.
    expect(page.locator("li[data-hand='B']")).to_contain_text("K♠")
    expect(page.locator("li[data-hand='C']")).to_contain_text("Q♣")
    assert phone.end_scores() == {"A": 100, "B": -120, "C": -20}
    expect(page.locator("[data-score='B']")).to_have_text(f"{MINUS}120")
    expect(page.locator("[data-score='C']")).to_have_text(f"{MINUS}20")

    # B's dispute view: every card left in hand, and how S3 would have been played.
    b = phone.open_breakdown("B")
    playable = b.locator("[data-playable] li")
    s3 = playable.filter(has_text="3♠")
    expect(s3).to_have_count(1)
    expect(s3).to_contain_text("3rd card on meld 3 (3♥ 3♣)")
    expect(s3).to_contain_text(f"{MINUS}20")
    expect(playable.filter(has_text="J♠")).to_contain_text(f"{MINUS}40")
    expect(playable.filter(has_text="Q♥")).to_contain_text(f"{MINUS}20")
    expect(b.locator("[data-last-turn] li")).to_have_count(3)
    expect(b.locator("[data-card-costs] li")).to_have_count(5)  # 10 each
    expect(b.locator("[data-card-costs] li").first).to_contain_text(f"left in hand: {MINUS}10")
    expect(b.get_by_role("heading", name=f"Cards left in hand {MINUS}50")).to_be_visible()
    expect(b.get_by_role("heading", name=f"Playable {MINUS}80")).to_be_visible()
    c = phone.open_breakdown("C")
    expect(c.locator("[data-aces]")).to_contain_text("A♣")
    screenshot(page, "seed-example-round-end")

    phone.tap_and_wait(page.locator("[data-action=confirm-round]"))
    expect(page.locator("[data-flash]")).to_contain_text("Round 1 counted. Round 2: A deals, B starts.")
    # The next round starts with the next dealer clockwise (C, then A); B plays first.
    expect(turn).to_have_attribute("data-round", "2")
    expect(turn).to_have_attribute("data-dealer", "A")
    expect(turn).to_have_attribute("data-turn", "B")
    assert phone.totals() == {"A": 100, "B": -120, "C": -20}
    assert phone.round_scores() == {"A": 0, "B": 0, "C": 0}

    # The game page keeps the round, and its dispute view still shows the S3 line.
    page.goto(phone.url)
    row = page.locator("table[data-rounds] tr[data-round='1']")
    assert {p: number(row.locator(f"td[data-player='{p}']").inner_text()) for p in "ABC"} == {
        "A": 100, "B": -120, "C": -20}
    assert phone.totals() == {"A": 100, "B": -120, "C": -20}
    expect(page.locator("figure[data-chart] svg[role=img]")).to_be_visible()
    phone.tap_and_wait(row.get_by_role("link"))
    b = phone.open_breakdown("B")
    expect(b.locator("[data-playable] li").filter(has_text="3♠")).to_contain_text(
        "3rd card on meld 3 (3♥ 3♣)")


def test_no_request_leaves_the_server_origin(page, server):
    """Everything a phone loads comes from the table's own server: no CDN, no fonts, no analytics."""
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    phone = Phone(page)
    page.goto("/")
    phone.new_game(["A", "B", "C"], dealer=2)
    play_seed_round(phone)
    phone.open_breakdown("B")
    phone.tap_and_wait(page.locator("[data-action=confirm-round]"))
    page.goto(phone.url)
    page.goto("/rules/iceberg")

    origin = urlsplit(server)
    assert len(requests) > 30  # the pages, the style sheet, the script, the previews
    assert any("/preview?" in url for url in requests)
    elsewhere = [url for url in requests
                 if (urlsplit(url).scheme, urlsplit(url).netloc) != (origin.scheme, origin.netloc)]
    assert elsewhere == []
