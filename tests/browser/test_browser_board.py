"""The scoreboard in a real browser (issue 25, item 3): a tablet or a TV in the middle of
the table opens the game's board by its read-only link, in landscape (a 1280×720 TV) and
in portrait (a 768×1024 tablet). Six players fit without scrolling, the figures are read
from two metres (28 px or more), axe finds nothing in light or dark, and a play logged on
a phone appears on the board within 2 seconds by the game's stream, without a reload.
"""
from __future__ import annotations

import re

import pytest
from browser_table import STREAMS, Routes
from playwright.sync_api import expect
from test_browser_a11y import axe_reports

LIVE = 2_000  # ms: how soon the board shows a play
SCREENS = {"landscape": {"width": 1280, "height": 720}, "portrait": {"width": 768, "height": 1024}}
PLAYERS = ["Alexandra", "Bartholomew", "Consuelo", "Dagmar", "Evangelina", "Fitzgerald"]
READ_FROM_AFAR = 28  # px: the least size of the board's figures and words


@pytest.fixture
def game(page):
    """A game of six with long names (the last seat deals, the first plays), a few plays
    in, set up by a phone through the routes: Bartholomew's turn."""
    routes = Routes(page)
    routes.new_game(PLAYERS, dealer=5)
    routes.ace(PLAYERS[0], "DA")
    routes.meld(PLAYERS[0], "S9", "S8", "S7")
    routes.pass_turn()
    routes.meld(PLAYERS[1], "DJ", "CJ")
    return routes


def board_url(routes: Routes) -> str:
    """The board's link as the game page hands it on (by the read-only key)."""
    html = routes.request.get(routes.url).text()
    return re.search(r'value="(http://[^"]+/board)" data-link="board"', html).group(1)


@pytest.fixture(params=list(SCREENS))
def board(request, browser, server, game):
    """The board open on a screen of that shape, a context of its own (no phone's cookies)."""
    context = browser.new_context(base_url=server, viewport=SCREENS[request.param])
    context.set_default_timeout(10_000)
    context.add_init_script(STREAMS)
    page = context.new_page()
    page.goto(board_url(game))
    page.name = f"board-{request.param}"
    try:
        yield page
    finally:
        context.close()


def font_px(locator) -> float:
    return float(locator.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))


def test_the_board_fits_the_screen_in_big_type_for_six_players(board, screenshot):
    expect(board.locator("[data-board-turn]")).to_have_text(f"{PLAYERS[1]}’s turn")
    expect(board.locator("[data-board-player]")).to_have_count(6)
    for selector in ("[data-board-total]", "[data-board-round-score]", "[data-board-player] th",
                     "[data-board-turn]", "[data-board-last] li"):
        found = board.locator(selector)
        assert found.count(), selector
        for i in range(found.count()):
            assert font_px(found.nth(i)) >= READ_FROM_AFAR, (selector, i, font_px(found.nth(i)))
    size = board.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
                          " innerWidth, innerHeight]")
    assert size[0] <= size[2], f"wider than the screen: {size}"
    assert size[1] <= size[3], f"taller than the screen: {size}"
    screenshot(board, board.name)


def test_axe_finds_nothing_on_the_board(board):
    reports = axe_reports(board, board.name)
    assert not reports, "\n".join(reports)


def test_a_play_on_a_phone_appears_on_the_board_by_its_stream_without_a_reload(board, game):
    expect(board.locator("[data-board-turn]")).to_have_text(f"{PLAYERS[1]}’s turn")
    board.evaluate("window.__same_page = 1")
    game.meld(PLAYERS[1], "H5", "D5", "C5")
    expect(board.locator("[data-board-last]")).to_contain_text("5♥ 5♦ 5♣", timeout=LIVE)
    expect(board.locator(f"[data-board-round-score='{PLAYERS[1]}']")).to_have_text("40", timeout=LIVE)
    game.pass_turn()
    expect(board.locator("[data-board-turn]")).to_have_text(f"{PLAYERS[2]}’s turn", timeout=LIVE)
    expect(board.locator(f"[data-board-player='{PLAYERS[2]}']")).to_have_attribute("aria-current", "true")
    assert board.evaluate("window.__same_page") == 1  # replaced in place, never reloaded
    assert board.evaluate("window.__heard") >= 2 and board.evaluate("window.__streams.length") == 1


def test_with_no_stream_the_board_asks_every_second(browser, server, game):
    """Where no stream is held (waitress answers 204; here the request fails) the board
    asks itself ``?since=<version>`` every second, and shows the play as soon."""
    context = browser.new_context(base_url=server, viewport=SCREENS["landscape"], service_workers="block")
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        refused, asked = [], []
        page.route(re.compile(r"/events\?"), lambda route: (refused.append(route.request.url), route.abort()))
        page.on("request", lambda r: asked.append(r.url) if "/board?since=" in r.url else None)
        page.goto(board_url(game))
        game.pass_turn()
        expect(page.locator("[data-board-turn]")).to_have_text(f"{PLAYERS[2]}’s turn", timeout=LIVE + 1_000)
        assert len(refused) == 1 and asked
    finally:
        context.close()
