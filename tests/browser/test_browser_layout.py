"""Nothing is cut off on a phone 360 px wide (issue 15, item 2): every page of every
variant, in the states people see it in (a round being played, a round end, a counted
round, a game over, players with figures), with names of everyday length and totals in
the hundreds. No element reaches past the screen's edge and no text is clipped inside a
box, unless it lies in a region that scrolls sideways on purpose and says so on screen.
"""
from __future__ import annotations

import re

import pytest
from browser_table import Routes, location
from playwright.sync_api import expect

from scorekeeper.games.registry import VARIANTS

NARROW = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
          "is_mobile": True, "has_touch": True}
NAMES = ["Annabel", "Benedict", "Charlotte", "Dominic"]

# What sticks out: an element past the screen's left or right edge, or content clipped
# by a box that hides it (a table cell cut short: "740" read "74"). A region that
# scrolls on purpose ([data-scrolls]) may hold more than its width when the hint it
# names (data-scrolls="<hint id>") is on the screen. Visually hidden text (.vh), the
# inputs of the choice chips and a text field's own scrolling are not drawn as cut off.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/).join('.') : '')
    + ' "' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const hidden = (el) => el.closest('svg, [hidden], input, select, textarea, option')
    || getComputedStyle(el).opacity === '0' || getComputedStyle(el).clip !== 'auto';
  const saysItScrolls = (box) => {
    const hint = document.getElementById(box.dataset.scrolls);
    return hint !== null && shown(hint);
  };
  if (document.documentElement.scrollWidth > width + 1) {
    found.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px in ' + width);
  }
  const said = new Set();  // an element said to stick out: its children are not said again
  const say = (el, words) => { said.add(el); if (!said.has(el.parentElement)) found.push(name(el) + words); };
  for (const el of document.body.querySelectorAll('*')) {
    if (hidden(el) || !shown(el)) continue;
    const r = el.getBoundingClientRect();
    const box = el.closest('[data-scrolls]');
    const scrolling = box !== null && box !== el && box.scrollWidth > box.clientWidth + 1;
    if (scrolling) {
      if (!saysItScrolls(box)) say(el, ' lies in a region that scrolls without saying so');
      continue;
    }
    if (r.right > width + 1 || r.left < -1) {
      say(el, ` reaches past the screen (${Math.round(r.left)}–${Math.round(r.right)} px)`);
      continue;
    }
    const s = getComputedStyle(el);
    const clips = ['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX);
    if (clips && el.scrollWidth > el.clientWidth + 1 && !el.matches('[data-scrolls]')) {
      say(el, ` is cut short (${el.scrollWidth} px of text in ${el.clientWidth})`);
    }
    if (el.matches('[data-scrolls]') && el.scrollWidth > el.clientWidth + 1 && !saysItScrolls(el)) {
      say(el, ' scrolls sideways without saying so');
    }
  }
  return [...new Set(found)];
}"""


def cut_off(page) -> list[str]:
    page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
    return page.evaluate(OVERFLOW)


# ---------------------------------------------------------------------------------------
# The games, set up through the routes.


def iceberg_round_one(routes: Routes, *, hands: bool = True) -> None:
    """Four players, two decks: a special meld with an ace (1400), lay-offs, a pair, a set;
    Annabel goes out; the hands left give playable penalties."""
    a, b, c, d = NAMES
    routes.ace(b, "HA")
    routes.meld(b, "S3", "S5", "S7", "S9", "SJ", "SK")
    routes.pass_turn()
    routes.meld(c, "D2", "D3", "D4")
    routes.lay_off(c, 2, "D5")
    routes.pass_turn()
    routes.meld(d, "H9", "C9")
    routes.pass_turn()
    routes.meld(a, "C10", "D10", "H10")
    routes.out(a)
    if hands:
        routes.hand(b, "H2")
        routes.hand(c, "D6", "C2", "CQ", "HQ", "DQ", "SQ", "HK")
        routes.hand(d, "D9", "S10", "H8", "H7")


def iceberg_games(page) -> dict[str, str]:
    """Three Iceberg games: at the round end, in round 2 (with a play to edit), over."""
    ending, playing, over = Routes(page), Routes(page), Routes(page)
    ending.new_game(NAMES)
    iceberg_round_one(ending)
    playing.new_game(NAMES)
    iceberg_round_one(playing)
    playing.confirm_round(1)
    playing.meld(NAMES[2], "S7", "S8", "S9")
    playing.pass_turn()
    playing.lay_off(NAMES[3], 1, "S10")
    pairs = [(f"seat_{i}", n) for i, n in enumerate(NAMES)] + [("first_dealer", "0"), ("rule_target", "100")]
    made = over.post("/games", pairs)
    over.key = re.search(r"/g/([^/]+)/table", location(made)).group(1)
    iceberg_round_one(over)
    over.confirm_round(1)
    return {"ending": ending.url, "playing": playing.url, "over": over.url}


def rummy500_games(page) -> dict[str, str]:
    """Two Rummy 500 games of four: melds and lay-offs being played (an ace low and high),
    and one at its round end with a hand entered."""
    def new() -> Routes:
        routes = Routes(page)
        pairs = [("variant", "rummy500"), ("first_dealer", "0"), *((f"seat_{i}", n) for i, n in enumerate(NAMES))]
        routes.key = re.search(r"/g/([^/]+)/table", location(routes.post("/games", pairs))).group(1)
        a, b, c, _d = NAMES
        routes.meld(b, "HA", "H2", "H3")
        routes.pass_turn()
        routes.meld(c, "SQ", "SK", "SA")
        routes.lay_off(c, 1, "H4", "H5")
        routes.pass_turn()
        return routes

    playing, ending = new(), new()
    ending.out(NAMES[3])
    ending.hand(NAMES[0], "DK", "CA", "C7")
    return {"playing": playing.url, "ending": ending.url}


def robber_games(routes: Routes) -> dict[str, str]:
    """Robber Rummy, partners sitting opposite: a hand counted, the next one being played;
    another game at its hand end."""
    def new() -> str:
        pairs = [("variant", "robber"), ("first_dealer", "0"), ("partnerships", "13"),
                 *((f"seat_{i}", n) for i, n in enumerate(NAMES))]
        made = routes.post("/games", pairs)
        return re.search(r"(/g/[^/]+)/robber$", location(made)).group(1) + "/robber"

    def play(url, player, action, *cards, meld=None):
        pairs = [("player", player), ("action", action), *(("cards", c) for c in cards)]
        if meld is not None:
            html = routes.request.get(url).text()
            pairs.append(("meld", re.search(rf'data-meld="(\d+)" data-meld-number="{meld}"', html).group(1)))
        routes.post(url + "/play", pairs)

    def hand_one(url):
        a, b, c, d = NAMES
        play(url, b, "play", "H9", "H10", "HJ", "HQ", "HK", "HA")
        play(url, c, "play", "S4", "H4", "C4")
        play(url, d, "play", "H8", meld=1)  # a steal
        play(url, a, "out")
        for player, cards in ((b, ["C2", "C3", "C5", "CJ", "CA"]), (c, ["D9"]), (d, ["SK", "DK"])):
            routes.post(url + "/end/hand", [("player", player), ("round_no", "1"), *(("cards", x) for x in cards)])

    playing, ending = new(), new()
    hand_one(playing)
    routes.post(playing + "/end", [("round_no", "1")])
    play(playing, NAMES[2], "play", "D7", "D8", "D9")
    hand_one(ending)
    return {"playing": playing, "ending": ending, "game": playing + "/game"}


GIN_ANN = "S2 S3 S4 H9 D9 C9 SK HK DK D5".split()
GIN_BOB = "S5 S6 H10 HJ HQ C2 C3 D7 CK D4".split()


def counted_game(routes: Routes, variant, players, rounds, **rules) -> str:
    pairs = [("variant", variant), ("first_dealer", "0"), *((f"seat_{i}", p) for i, p in enumerate(players)),
             *((f"rule_{k}", str(v)) for k, v in rules.items())]
    response = routes.post("/games", pairs)
    key = re.search(r"/g/(\d+-[^/]+)/", location(response)).group(1)
    for n, (ended, hands) in enumerate(rounds, 1):
        data = [("round_no", str(n)), ("save", "1"),
                ("ended", "stalemate" if ended == "stalemate" else f"p{players.index(ended)}")]
        data += [(f"hand_{players.index(p)}", c) for p, cards in hands.items() for c in cards]
        routes.post(f"/g/{key}/counted/round", data)
    return f"/g/{key}/counted"


def counted_games(routes: Routes) -> dict[str, str]:
    a, b, c, d = NAMES
    return {
        "gin": counted_game(routes, "gin", [a, b], [(a, {a: GIN_ANN, b: GIN_BOB})]),
        "rummy": counted_game(routes, "rummy", NAMES, [(a, {b: ["SK", "HK", "DQ"], c: ["D7"], d: ["C9", "C10"]})]),
        "kalooki": counted_game(routes, "kalooki", [*NAMES, "Ed", "Florence"],
                                [(a, {b: ["JK", "JK", "SA", "HA"], c: ["S2"], d: ["DK"], "Ed": ["H5"],
                                      "Florence": ["C3"]})], elimination=100),
        "conquian": counted_game(routes, "conquian", [a, b], [("stalemate", {}), (b, {})]),
        "manipulation": counted_game(routes, "manipulation", [*NAMES, "Ed"],
                                     [("Ed", {a: ["SA", "HA", "DA", "CA", "SK"], b: ["S2"], c: ["H7"], d: ["D4"]})]),
    }


@pytest.fixture(scope="module")
def narrow(browser, server):
    """A phone 360 px wide holding a link to every game below (its history, its players)."""
    context = browser.new_context(base_url=server, **NARROW)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        routes = Routes(page)
        games = {"iceberg": iceberg_games(page), "robber": robber_games(routes),
                 "counted": counted_games(routes), "rummy500": rummy500_games(page)}
        yield page, games
    finally:
        context.close()


def every_page(page, games) -> list[str]:
    ice, rob, counted = games["iceberg"], games["robber"], games["counted"]
    paths = ["/", "/games/import", "/players", "/players/head-to-head", "/no-such-page", "/nights/new?variant=rummy"]
    for variant in VARIANTS:  # every game's, the registry's
        paths += [f"/games/new?variant={variant}", f"/rules/{variant}"]
    paths += ["/gin/knock", "/gin/knock?" + "&".join(f"cards={c}" for c in GIN_ANN + ["C8"])]
    paths += [ice["ending"] + "/end", ice["ending"] + "/table", ice["playing"] + "/table",
              ice["playing"], ice["playing"] + "/rounds/1", ice["playing"] + "/rounds/2",
              ice["playing"] + "/rules", ice["playing"] + "/sheet", ice["over"], ice["over"] + "/table",
              ice["over"] + "/sheet"]
    page.goto(ice["playing"] + "/table")
    paths.append(page.locator("ol[data-log] li[data-type=layoff] a").first.get_attribute("href"))
    r500 = games["rummy500"]
    paths += [r500["playing"] + "/table", r500["playing"], r500["ending"] + "/end"]
    paths += [rob["playing"], rob["ending"] + "/end", rob["game"], rob["playing"] + "/hands/1",
              rob["game"].removesuffix("/robber/game") + "/sheet"]
    for url in counted.values():
        base = url.removesuffix("/counted")
        paths += [url, url + "/round", url + "/rounds/1", url + "/rounds/1/edit", base + "/sheet"]
    page.goto("/players")
    paths += [a.get_attribute("href") for a in page.locator("[data-players] a").all()[:3]]
    page.goto("/")
    paths += [a.get_attribute("href") for a in page.locator("[data-action=group]").all()[:1]]  # its page, named
    return paths


def test_nothing_is_cut_off_on_any_page_at_360_px(narrow):
    page, games = narrow
    found = {}
    for path in every_page(page, games):
        page.goto("about:blank")  # no live update of the page before races the next one
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        problems = cut_off(page)
        if problems:
            found[path] = problems
    assert not found, "\n".join(f"{path}:\n  " + "\n  ".join(p) for path, p in found.items())
