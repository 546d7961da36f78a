"""A group's link on a phone (docs/groups.md): a phone that starts a game holds its group's
links, with their QR codes; another phone opens the group's edit link, starts a game from
it and finds it in the group's history, beside the first phone's game.

The browser server is shared by every browser test of a session: the names here carry a
suffix of their own, and nothing assumes who else has played on it.
"""
from __future__ import annotations

import re
import uuid

from browser_table import PHONE
from playwright.sync_api import expect


def tap_and_wait(page, locator):
    with page.expect_navigation():
        locator.tap()


def start_gin(page, players):
    form = page.locator("form[data-new-game]")
    for i, name in enumerate(players):
        form.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    tap_and_wait(page, form.locator("[data-action=create]"))
    match = re.search(r"/g/(\d+)-[^/]+/", page.url)
    assert match, page.url
    return int(match.group(1))


def test_a_game_started_from_a_groups_link_is_in_the_groups_history(page, browser, server):
    suffix = uuid.uuid4().hex[:6]
    page.goto("/games/new?variant=gin")
    first = start_gin(page, [f"Kim{suffix}", f"Lee{suffix}"])
    # The game page leads to the group, whose links are shown with their QR codes.
    page.goto(re.sub(r"/counted/round$", "", page.url))
    tap_and_wait(page, page.locator("[data-action=group]"))
    expect(page.locator(f"[data-game='{first}']")).to_be_visible()
    expect(page.locator("figure[data-share='group-edit'] svg.qr")).to_be_visible()
    expect(page.locator("figure[data-share='group-view'] svg.qr")).to_be_visible()
    group_link = page.locator("input[data-link='group-edit']").input_value()
    assert re.search(r"/group/\d+-[\w-]+$", group_link), group_link

    friend = browser.new_context(base_url=server, **PHONE)  # another phone, given the group's link
    try:
        other = friend.new_page()
        other.goto(group_link)
        expect(other.locator(f"[data-game='{first}']")).to_be_visible()
        tap_and_wait(other, other.locator("[data-action=new-game]"))
        assert "/group/" in other.url, other.url
        other.goto(other.url.split("?")[0] + "?variant=gin")
        second = start_gin(other, [f"kim{suffix}", f"Max{suffix}"])
        other.goto(group_link)
        expect(other.locator(f"[data-game='{second}']")).to_be_visible()
        expect(other.locator(f"[data-game='{first}']")).to_be_visible()
        # Its players are the group's: Kim is one person, with two games.
        tap_and_wait(other, other.locator("[data-action=players]"))
        kim = other.locator("li[data-player-id]", has_text=f"Kim{suffix}")
        expect(kim).to_have_count(1)
        expect(kim).to_contain_text("2 games")
    finally:
        friend.close()
    # The first phone finds the friend's game in the group's history too.
    page.goto(group_link)
    expect(page.locator(f"[data-game='{second}']")).to_be_visible()
