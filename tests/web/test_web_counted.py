"""The hand-count rummies on the web (issue 7, point 3): Basic Rummy, Gin, Kalooki,
Conquian and Manipulation through the routes a phone uses — a new game of each, a round
entered with the card pickers (checked, then saved), the game page, edit and delete,
export and import, the gin "can I knock?" helper; refusals that save nothing, the
read-only link's 403 and CSRF."""
from __future__ import annotations

import json
import re

import pytest
from web_table import csrf_checking_client, form_token

from scorekeeper import gamefile
from scorekeeper.games import registry

ANN_KNOCKS = "S2 S3 S4 H9 D9 C9 SK HK DK D5"  # melds 2-3-4♠, 9s, Ks; deadwood D5 = 5
BOB_LAYS_OFF = "S5 S6 H10 HJ HQ C2 C3 D7 CK D4"  # S5 S6 on the run, CK on the kings: 16 left
GIN_HAND = "S2 S3 S4 H9 D9 C9 SK HK DK CK"
BOB_AGAINST_GIN = "S5 S6 H10 HJ HQ C2 C3 D7 D8 D4"  # meld H10 HJ HQ; deadwood 35
OVER_LIMIT = "S2 S3 S4 H9 D9 C9 SK HK D5 C6"  # deadwood SK HK D5 C6 = 31


def text(response) -> str:
    return response.get_data(as_text=True)


class Counted:
    """A hand-count game driven through the web routes (no JavaScript)."""

    def __init__(self, client, variant, players, **rules):
        self.client = client
        self.variant = variant
        self.players = players
        data = {"variant": variant, "first_dealer": "0",
                **{f"seat_{i}": p for i, p in enumerate(players)},
                **{f"rule_{k}": str(v) for k, v in rules.items()}}
        response = client.post("/games", data=data)
        assert response.status_code == 303, text(response)
        self.key = re.search(r"/g/([^/]+)/", response.headers["Location"]).group(1)
        self.game_id = int(self.key.split("-")[0])

    @property
    def url(self):
        return f"/g/{self.key}"

    def form(self, ended=None, hands=None, rummy=False, round_no=None, save=True, **extra):
        data = {"round_no": str(round_no or self.next_round()), **extra}
        if ended == "stalemate":
            data["ended"] = "stalemate"
        elif ended is not None:
            data["ended"] = f"p{self.players.index(ended)}"
        for player, cards in (hands or {}).items():
            data[f"hand_{self.players.index(player)}"] = cards.split()
        if rummy:
            data["rummy"] = "y"
        data["save" if save else "check"] = "1"
        return data

    def next_round(self):
        return len(self.export()["rounds"]) + 1

    def record(self, ended, hands=None, rummy=False, **extra):
        response = self.client.post(self.url + "/counted/round", data=self.form(ended, hands, rummy, **extra))
        assert response.status_code == 303, text(response)
        return response

    def page(self, path="/counted"):
        response = self.client.get(self.url + path)
        assert response.status_code == 200, response.status_code
        return text(response)

    def totals(self, path="/counted"):
        html = self.page(path)
        return {p: int(v.replace("−", "-")) for p, v in re.findall(r'data-total="([^"]*)">([^<]*)<', html)}

    def export(self):
        response = self.client.get(self.url + "/counted/export")
        assert response.status_code == 200
        return json.loads(text(response))

    def view_key(self):
        html = self.page()
        return re.search(r'value="[^"]*/g/([^/"]+)/table" data-link="view"', html).group(1)


def rows(db, game_id):
    """Everything stored about a game's rounds, and its version."""
    return (list(db.query("SELECT round_no, type, player, revision FROM plays WHERE game = ? ORDER BY id",
                          [game_id])),
            list(db.query("SELECT round_no, player, cards FROM hands WHERE game = ? ORDER BY id", [game_id])),
            db["games"].get(game_id)["version"])


# ---------------------------------------------------------------------------------------
# New games: each variant's form, and where its links land.

PLAYERS = {"rummy": ["Ann", "Bob", "Cy"], "gin": ["Ann", "Bob"], "kalooki": ["Ann", "Bob", "Cy"],
           "conquian": ["Ann", "Bob"], "manipulation": ["Ann", "Bob", "Cy"]}


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_a_new_game_lands_on_its_round_screen_and_game_page(client, variant):
    game = Counted(client, variant, PLAYERS[variant])
    table = client.get(game.url + "/table")
    assert table.status_code == 303 and table.headers["Location"].endswith("/counted/round")
    assert client.get(game.url).headers["Location"].endswith("/counted")
    assert client.get(game.url + "/end").headers["Location"].endswith("/counted/round")
    html = game.page("/counted/round")
    assert 'data-round-entry="1"' in html
    assert re.search(r'<h1 data-round-entry="1">Round 1</h1>', html) and "is over" not in html
    invite = re.search(r"<p data-round-invite>([^<]*)</p>", html).group(1)
    assert invite.startswith("Play round 1; when it ends, say who ") and invite.endswith(", then save it.")
    assert html.count("data-hand-picker=") == (0 if variant == "conquian" else len(PLAYERS[variant]))
    assert 'data-ended="stalemate"' in html
    assert game.totals() == {p: 0 for p in PLAYERS[variant]}
    assert "No round has been recorded yet" in game.page()
    assert client.get(game.url + "/rules").status_code == 200


@pytest.mark.parametrize("variant,fields,rules", [
    ("gin", {}, {"preset": "classic", "gin_bonus": 20, "undercut_bonus": 10, "line_bonus": 20,
                 "shutout": "flat", "knock_limit": 10, "target": 100, "game_bonus": 100}),
    ("gin", {"preset": "modern"}, {"gin_bonus": 25, "undercut_bonus": 25, "line_bonus": 25, "shutout": "double"}),
    ("gin", {"preset": "modern", "gin_bonus": "30"}, {"gin_bonus": 30, "undercut_bonus": 25}),
    ("rummy", {}, {"target": 150, "scoring": "winner_takes_all", "rummy_bonus": "double"}),
    ("rummy", {"scoring": "penalty"}, {"target": 100}),
    ("conquian", {}, {"target": None}),
    ("conquian", {"target": "5"}, {"target": 5}),
    ("manipulation", {"target": "300"}, {"target": 300}),
    ("kalooki", {}, {"elimination": 150, "court_card_value": 10}),
])
def test_the_new_game_form_of_each_variant(client, variant, fields, rules):
    html = text(client.get(f"/games/new?variant={variant}"))
    assert f'name="variant" value="{variant}"' in html
    game = Counted(client, variant, PLAYERS[variant], **fields)
    stored = game.export()["rules"]
    assert {k: stored[k] for k in rules} == rules


def test_the_gin_new_game_page_links_the_knock_helper(client):
    assert "/gin/knock" in text(client.get("/games/new?variant=gin"))
    assert "/gin/knock" not in text(client.get("/games/new?variant=rummy"))


# ---------------------------------------------------------------------------------------
# Worked examples, one per game (docs/rules/), entered through the screens.

EXAMPLES = [
    # variant, players, rules, rounds [(ended, hands, rummy)], round scores of the last, totals
    ("rummy", ["Ann", "Bob", "Cy"], {}, [("Ann", {"Bob": "SK H2", "Cy": "D7"}, False)],
     {"Ann": 19, "Bob": 0, "Cy": 0}, {"Ann": 19, "Bob": 0, "Cy": 0}),
    ("rummy", ["Ann", "Bob", "Cy"], {}, [("Ann", {"Bob": "SK H2", "Cy": "D7"}, True)],
     {"Ann": 38, "Bob": 0, "Cy": 0}, {"Ann": 38, "Bob": 0, "Cy": 0}),
    ("rummy", ["Ann", "Bob", "Cy"], {"rummy_bonus": "plus10"}, [("Bob", {"Ann": "SK H2", "Cy": "D7"}, True)],
     {"Ann": 0, "Bob": 29, "Cy": 0}, {"Ann": 0, "Bob": 29, "Cy": 0}),
    ("rummy", ["Ann", "Bob"], {"scoring": "penalty"}, [("Ann", {"Bob": "SK HQ"}, False)],
     {"Ann": 0, "Bob": 20}, {"Ann": 0, "Bob": 20}),
    ("rummy", ["Ann", "Bob"], {}, [("stalemate", {}, False)], {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 0}),
    ("gin", ["Ann", "Bob"], {}, [("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF}, False)],
     {"Ann": 11, "Bob": 0}, {"Ann": 11, "Bob": 0}),
    ("gin", ["Ann", "Bob"], {}, [("Ann", {"Ann": GIN_HAND, "Bob": BOB_AGAINST_GIN}, False)],
     {"Ann": 55, "Bob": 0}, {"Ann": 55, "Bob": 0}),  # gin: no lay-offs, 35 + 20
    ("gin", ["Ann", "Bob"], {"preset": "modern"},
     [("Ann", {"Ann": ANN_KNOCKS, "Bob": "S5 S6 S7 H10 HJ HQ C2 C3 C4 D4"}, False)],
     {"Ann": 0, "Bob": 26}, {"Ann": 0, "Bob": 26}),  # undercut: 5 − 4 + 25
    ("gin", ["Ann", "Bob"], {}, [("stalemate", {}, False)], {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 0}),
    ("kalooki", ["Ann", "Bob", "Cy"], {}, [("Ann", {"Bob": "JK SA HK D5", "Cy": "JK JK"}, False)],
     {"Ann": 0, "Bob": 51, "Cy": 50}, {"Ann": 0, "Bob": 51, "Cy": 50}),
    ("conquian", ["Ann", "Bob"], {}, [("stalemate", {}, False), ("Bob", {}, False)],
     {"Ann": -2, "Bob": 2}, {"Ann": -2, "Bob": 2}),
    ("manipulation", ["Ann", "Bob", "Cy"], {}, [("Cy", {"Ann": "SA H10 D3", "Bob": "SA"}, False)],
     {"Ann": 30, "Bob": 15, "Cy": 0}, {"Ann": 30, "Bob": 15, "Cy": 0}),
]


@pytest.mark.parametrize("variant,players,rules,rounds,scores,totals", EXAMPLES,
                         ids=[f"{e[0]}-{i}" for i, e in enumerate(EXAMPLES)])
def test_worked_examples_through_the_screens(client, variant, players, rules, rounds, scores, totals):
    game = Counted(client, variant, players, **rules)
    for ended, hands, rummy in rounds:
        done = game.record(ended, hands, rummy)
    n = len(rounds)
    assert done.headers["Location"].endswith(f"/counted/rounds/{n}")
    detail = game.page(f"/counted/rounds/{n}")
    shown = {p: int(v.replace("−", "-")) for p, v in re.findall(r'data-score="([^"]*)">([^<]*)<', detail)}
    assert shown == scores
    assert game.totals() == totals
    assert gamefile.score_document(game.export())["totals"] == totals  # the export says the same


def test_check_shows_the_gin_melds_lay_offs_and_deadwood_and_saves_nothing(client, db):
    game = Counted(client, "gin", ["Ann", "Bob"])
    before = rows(db, game.game_id)
    response = client.post(game.url + "/counted/round",
                           data=game.form("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF}, save=False))
    assert response.status_code == 200
    html = text(response)
    assert "not saved yet" in html
    assert 'data-deadwood="5"' in html and 'data-deadwood="16"' in html
    layoffs = re.sub(r"<[^>]+>", "", re.search(r'data-layoffs="Bob">(.*?)</p>', html).group(1))
    assert layoffs == "Laid off: 5♠ 6♠ on 2♠ 3♠ 4♠ · K♣ on K♠ K♥ K♦"  # S5 S6 on the run, CK on the kings
    assert "knock: 16 − 5 = 11 to ann" in html.lower()
    assert 'data-score="Ann">11<' in html
    assert "checked" in re.search(r'value=S2[^>]*>', html).group(0)  # picks kept
    # the totals the round would make, beside its Save button (issue 15, item 10)
    assert 'data-preview-total="Ann">11<' in html and 'data-preview-total="Bob">0<' in html
    assert rows(db, game.game_id) == before


def test_the_round_detail_shows_each_card_and_its_points(client):
    game = Counted(client, "rummy", ["Ann", "Bob", "Cy"])
    game.record("Ann", {"Bob": "SK H2", "Cy": "D7"})
    html = game.page("/counted/rounds/1")
    assert 'data-hand-value="12"' in html and 'data-hand-value="7"' in html
    assert "Ann went out" in html


def test_lowest_wins_is_said_and_the_winner_shown(client):
    game = Counted(client, "manipulation", ["Ann", "Bob", "Cy"], target=30)
    game.record("Cy", {"Ann": "SA H10 D3", "Bob": "SA"})
    html = game.page()
    assert 'data-winner="Cy"' in html and "(lowest total)" in html
    assert "lowest total wins" in html
    assert client.get(game.url + "/counted/round").status_code == 303  # over: no round to enter
    refused = client.post(game.url + "/counted/round", data=game.form("Ann", {}, round_no=2))
    assert refused.status_code == 303
    assert len(game.export()["rounds"]) == 1


def test_kalooki_eliminated_players_are_shown_and_get_no_picker(client):
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=40)
    game.record("Ann", {"Bob": "JK JK", "Cy": "S2"})
    html = game.page()
    assert 'data-eliminated="Bob"' in html and "Eliminated: Bob" in html
    entry = game.page("/counted/round")
    assert 'data-hand-picker="Bob"' not in entry and 'data-ended="Bob"' not in entry
    assert 'data-hand-picker="Cy"' in entry
    game.record("Cy", {"Ann": "JK S10 HK"})  # 45: Ann out too, Cy is the last left
    assert 'data-winner="Cy"' in game.page()


def test_kalooki_the_deal_passes_by_an_eliminated_player(client):
    """Ann deals round 1; Bob is eliminated in it, so round 2 is Cy's deal, not Bob's,
    and round 3 Ann's (a tester's eliminated player was named the dealer)."""
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy", "Dee"], elimination=40)
    assert "Ann dealt." in game.page("/counted/round")
    game.record("Ann", {"Bob": "JK JK", "Cy": "S2", "Dee": "S3"})
    assert "Cy dealt." in game.page("/counted/round")
    game.record("Cy", {"Ann": "S4", "Dee": "S5"})
    assert "Dee dealt." in game.page("/counted/round")
    game.record("Dee", {"Ann": "S6", "Cy": "S7"})
    assert "Ann dealt." in game.page("/counted/round")


def test_kalooki_winner_is_the_last_player_left_not_the_lowest(client):
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=40)
    game.record("Ann", {"Bob": "JK JK", "Cy": "S2"})
    game.record("Cy", {"Ann": "JK S10 HK"})
    html = game.page()
    assert re.search(r'data-how-won>\(the last player left\)<', html)
    assert "lowest total" not in html


def test_kalooki_two_going_over_together_leave_the_last_player_the_winner(client):
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=20)
    game.record("Ann", {"Bob": "S10 S9", "Cy": "S2"})
    game.record("Bob", {"Ann": "JK", "Cy": "JK"})  # Ann 25 and Cy 27 go over together
    html = game.page()
    assert 'data-winner="Bob"' in html and "(the last player left)" in html
    assert 'data-eliminated="Ann"' in html and 'data-eliminated="Cy"' in html


def test_a_conquian_tableau_and_a_gin_void_hand_are_called_so(client):
    game = Counted(client, "conquian", ["Ann", "Bob"])
    game.record("stalemate")
    assert '<td class="ended">tableau</td>' in game.page()
    assert "Tableau." in game.page("/counted/rounds/1")
    assert text(client.get(game.url + "/counted/export.csv")).splitlines()[1] == "1,tableau,0,0"
    game = Counted(client, "gin", ["Ann", "Bob"])
    game.record("stalemate")
    assert '<td class="ended">void hand (no knock)</td>' in game.page()
    assert "Void hand (no knock)." in game.page("/counted/rounds/1")
    assert game.export()["rounds"] == [{"stalemate": True}]  # the game file keeps its word


def test_kalooki_pickers_offer_two_decks_and_four_jokers(client):
    game = Counted(client, "kalooki", ["Ann", "Bob"])
    html = game.page("/counted/round")
    picker = html[html.index('data-hand-picker="Ann"'):html.index('data-hand-picker="Bob"')]
    assert picker.count('value="JK"') == 4
    assert 'value=S9><b>' in picker  # two copies left: the script adds its second
    assert picker.count('value="JK" data-one') == 4  # a joker has no second copy to add


# ---------------------------------------------------------------------------------------
# Kalooki's pages as a phone shows them (the tester's notes): penalties drawn as such, the
# joker in words, no picker for the one who went out, the chart's elimination line.


def score_tags(html) -> dict[str, str]:
    """Each player's round score as its tag opens: {player: '<strong class="pts" …'}."""
    return {p: tag for tag, p in re.findall(r'(<strong[^>]*data-score="([^"]*)")', html)}


def test_penalty_points_are_not_drawn_as_points_won(client):
    """Kalooki's and Manipulation's scores are penalties (the lowest total wins): drawn in
    the text's colour, as Iceberg's breakdown draws a penalty, not in the green (.pts)
    of Gin's and Basic Rummy's points won."""
    kalooki = Counted(client, "kalooki", ["Ann", "Bob", "Cy"])
    checked = text(client.post(kalooki.url + "/counted/round",
                               data=kalooki.form("Ann", {"Bob": "JK SA", "Cy": "S2"}, save=False)))
    kalooki.record("Ann", {"Bob": "JK SA", "Cy": "S2"})
    manipulation = Counted(client, "manipulation", ["Ann", "Bob", "Cy"])
    manipulation.record("Cy", {"Ann": "SA H10 D3", "Bob": "SA"})
    for html in (checked, kalooki.page("/counted/rounds/1"), manipulation.page("/counted/rounds/1")):
        tags = score_tags(html)
        assert len(tags) == 3 and not [t for t in tags.values() if "pts" in t], tags
    gin = Counted(client, "gin", ["Ann", "Bob"])
    gin.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF})
    rummy = Counted(client, "rummy", ["Ann", "Bob", "Cy"])
    rummy.record("Ann", {"Bob": "SK H2", "Cy": "D7"})
    for html in (gin.page("/counted/rounds/1"), rummy.page("/counted/rounds/1")):
        assert all('class="pts"' in t for t in score_tags(html).values())


@pytest.mark.parametrize("language,joker", [("en", "joker"), ("es", "comodín"), ("de", "Joker")])
def test_a_joker_is_drawn_in_the_pages_words(client, language, joker):
    """As the sentences say it: on the card pickers' cells (their accessible names too),
    the count of cards picked and the round's lines; never its code JK."""
    words = {"Accept-Language": language}
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"])
    entry = text(client.get(game.url + "/counted/round", headers=words))
    cells = re.findall(r'<label><input type="checkbox" name="hand_1" aria-label="([^"]*)" value="JK" data-one>'
                       r'<b>(.*?)</b></label>', entry)
    chip = f'<span class="k j" role="img" aria-label="{joker}">{joker}</span>'
    assert cells == [(f"{joker} {n}", chip) for n in range(1, 5)]
    checked = text(client.post(game.url + "/counted/round", headers=words,
                               data=game.form("Ann", {"Bob": "JK JK S2"}, save=False)))
    assert re.search(rf'data-tally="hand_1"[^>]*>[^<]*: 2♠ {joker} {joker}</p>', checked)
    game.record("Ann", {"Bob": "JK SA", "Cy": "JK JK"})
    detail = text(client.get(game.url + "/counted/rounds/1", headers=words))
    lines = re.search(r'data-result-player="Cy">(.*?)</li>', detail, re.S).group(1)
    assert f'{chip}&nbsp;25, {chip}&nbsp;25 = 50' in lines
    for html in (entry, checked, detail):  # the code is in the forms' values only
        assert not re.search(r"\bJK\b", re.sub(r"<[^>]+>", " ", html))


def test_the_player_who_went_out_gets_no_picker(client):
    """Each picker sits in its seat's box with the line that takes its place once its
    player is chosen as the one who went out (pages.css hides the picker; browser test:
    test_browser_counted.py). A knock's hands are both entered: no such line in Gin."""
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"])
    entry = text(client.get(game.url + "/counted/round", headers={"Accept-Language": "es"}))
    for seat, player in enumerate(game.players):
        box = re.search(rf'<div class="hand" data-seat="{seat}">\s*<p class="went-out" data-went-out="{player}">'
                        rf'([^<]*)</p>\s*<fieldset class="picker" data-picker data-hand-picker="{player}"[^>]*>', entry)
        assert box and box.group(1) == f"{player} cerró: no le quedan cartas que anotar.", player
    gin = Counted(client, "gin", ["Ann", "Bob"]).page("/counted/round")
    assert gin.count("data-hand-picker=") == 2 and "data-went-out" not in gin and "data-seat" not in gin
    css = text(client.get("/static/pages.css"))
    seats = max(v.max_players for v in registry.VARIANTS.values() if v.screens == "hands")
    for seat in range(seats):  # every seat of every game of hands counted has its rules
        assert (f'form:has([name=ended][value=p{seat}]:checked):not(:has([name=hand_{seat}]:checked)) '
                f'[data-seat="{seat}"]>.picker') in css
        assert f'[data-seat="{seat}"]>.went-out' in css


def crossed(box, points) -> bool:
    """Whether a polyline (its points) runs through a box (x0, y0, x1, y1): sampled finely."""
    pairs = [tuple(map(float, p.split(","))) for p in points.split()]
    for (xa, ya), (xb, yb) in zip(pairs, pairs[1:]):
        for k in range(201):
            x, y = xa + (xb - xa) * k / 200, ya + (yb - ya) * k / 200
            if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
                return True
    return False


@pytest.mark.parametrize("language,label,said", [
    ("en", "eliminated above 40", "A player above 40 is eliminated."),
    ("es", "fuera al pasar de 40", "Quien pase de 40 queda fuera."),
    ("de", "ausgeschieden über 40", "Wer über 40 liegt, scheidet aus."),
])
def test_the_chart_names_the_elimination_line_and_no_line_crosses_its_label(client, language, label, said):
    """Kalooki's dashed line is the total above which a player is out, said as the rules
    say it; its label is where no player's line runs (Bob's line ends just above the
    dashed line at its right end, where the label used to be)."""
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=40)
    game.record("Ann", {"Bob": "JK S10 S9", "Cy": "S2"})  # Bob 44: eliminated
    html = text(client.get(game.url + "/counted", headers={"Accept-Language": language}))
    svg = re.search(r"<svg viewBox=.*?</svg>", html, re.S).group(0)
    assert said in re.search(r"<desc[^>]*>(.*?)</desc>", svg).group(1)
    x, y, anchor, shown = re.search(r'<text class="tick limit" x="([^"]*)" y="([^"]*)" text-anchor="([^"]*)" '
                                    r"data-limit>([^<]*)</text>", svg).groups()
    figure = re.sub(r"<[^>]+>", " ", re.search(r"<figure class=\"chart\".*?</figure>", html, re.S).group(0))
    assert shown == label and not re.search(r"target|meta|ziel", figure, re.I), figure
    x, y = float(x), float(y)
    width = len(label) * 12 * 0.62  # a generous width for 12-unit text (the rendered one: the browser test)
    x0 = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
    box = (x0, y - 11, x0 + width, y + 3)
    lines = re.findall(r'<polyline class="line p\d" points="([^"]*)"', svg)
    assert len(lines) == 3 and not [p for p in lines if crossed(box, p)], (box, lines)
    assert svg.index("data-limit") > max(svg.index(p) for p in lines)  # drawn over them, on its halo


def test_the_score_sheet_draws_the_same_elimination_line(client):
    """The printed score sheet's chart marks the total a Kalooki player is out above, as the
    game page's does (the variant says which total ends its game: ``ending_total``)."""
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=40)
    game.record("Ann", {"Bob": "JK S10 S9", "Cy": "S2"})
    html = text(client.get(game.url + "/sheet"))
    shown = re.search(r'<text class="tick limit"[^>]*data-limit>([^<]*)</text>', html)
    assert shown and shown.group(1) == "eliminated above 40", html[-3000:]


def test_conquian_has_no_pickers_and_its_deck_has_no_eights(client):
    game = Counted(client, "gin", ["Ann", "Bob"])
    assert 'value=S8' in game.page("/counted/round")
    game = Counted(client, "conquian", ["Ann", "Bob"])
    html = game.page("/counted/round")
    assert "data-hand-picker" not in html and "Tableau" in html


def test_gin_bonuses_show_at_the_end_of_the_game(client):
    game = Counted(client, "gin", ["Ann", "Bob"], target=50)
    game.record("Ann", {"Ann": GIN_HAND, "Bob": BOB_AGAINST_GIN})  # 55: the game is over
    html = game.page()
    # 55 + game bonus 100 + shutout 100 + one line 20
    assert 'data-bonus="Ann">220<' in html and 'data-total="Ann">275<' in html
    assert 'data-winner="Ann"' in html
    assert "<small data-bonus-words>game, shutout, lines</small>" in html
    assert '<td class="ended">Ann went gin</td>' in html


BOB_UNDERCUTS = "H2 H3 H4 C5 C6 C7 S10 SJ SQ CA"  # deadwood CA = 1 against Ann's 5


def test_gin_rounds_say_gin_and_undercut_and_only_the_bonuses_given(client):
    game = Counted(client, "gin", ["Ann", "Bob"], target=60)
    game.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF})  # 11 to Ann
    assert "data-bonuses" not in game.page()  # no bonus before the game is over
    game.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_UNDERCUTS})  # 5 − 1 + 10 = 14 to Bob
    game.record("Ann", {"Ann": GIN_HAND, "Bob": BOB_AGAINST_GIN})  # 35 + 20 = 55: 66, over
    html = game.page()
    ended = re.findall(r'<td class="ended">([^<]*)</td>', html)
    assert ended == ["Ann knocked", "Ann knocked, Bob undercut", "Ann went gin"]
    assert "<small data-bonus-words>game, lines</small>" in html  # Bob scored: no shutout
    assert 'data-bonus="Ann">140<' in html and 'data-bonus="Bob">20<' in html  # 100 + 2 lines; 1 line
    assert "Ann knocked, Bob undercut. Undercut: 5 − 1 + undercut bonus 10 = 14 to Bob." in game.page(
        "/counted/rounds/2")
    assert "Ann went gin. Gin: 35 + gin bonus 20 = 55 to Ann." in game.page("/counted/rounds/3")
    sheet = text(client.get(game.url + "/counted/export.csv")).lstrip("\ufeff").splitlines()
    assert sheet[1:4] == ["1,Ann knocked,11,0", "2,\"Ann knocked, Bob undercut\",0,14", "3,Ann went gin,55,0"]
    # The game file and `scorekeeper score` keep their own word.
    assert gamefile.score_document(game.export())["rounds"][1]["ended"] == "Ann knocked"


# ---------------------------------------------------------------------------------------
# Refusals: plain words, nothing saved.

REFUSALS = [
    ("gin-knock-over-limit", "gin", ["Ann", "Bob"], ("Ann", {"Ann": OVER_LIMIT, "Bob": BOB_LAYS_OFF}),
     "Ann cannot knock with 31 in deadwood"),
    ("gin-hand-of-nine", "gin", ["Ann", "Bob"], ("Ann", {"Ann": ANN_KNOCKS, "Bob": "S5 S6 H10 HJ HQ C2 C3 D7 CK"}),
     "Bob&#39;s hand has 9 cards; a Gin hand has 10"),
    ("gin-no-hands", "gin", ["Ann", "Bob"], ("Ann", {}), "Ann&#39;s hand has 0 cards"),
    ("rummy-out-still-holds", "rummy", ["Ann", "Bob"], ("Ann", {"Ann": "S2", "Bob": "S3"}),
     "Ann went out, so cannot still hold 2♠."),
    ("rummy-a-card-twice", "rummy", ["Ann", "Bob", "Cy"], ("Ann", {"Bob": "S9", "Cy": "S9"}),
     "Hands of Cy: 9♠ appears 2 times in this round, but one deck holds only one; Bob&#39;s hand has it too."),
    ("manipulation-three-copies", "manipulation", ["Ann", "Bob", "Cy"], ("Ann", {"Bob": "S9 S9", "Cy": "S9"}),
     "Hands of Cy: 9♠ appears 3 times in this round, but 2 decks hold only 2; Bob&#39;s hand has it too."),
    ("kalooki-five-jokers", "kalooki", ["Ann", "Bob", "Cy"], ("Ann", {"Bob": "JK JK JK", "Cy": "JK JK"}),
     "Hands of Cy: joker appears 5 times in this round, but 2 decks hold only 4; Bob&#39;s hand has it too."),
    ("rummy-hand-bigger-than-dealt", "rummy", ["Ann", "Bob", "Cy"], ("Ann", {"Bob": "H2 H3 H4 H5 H6 H7 H8 H9"}),
     "Bob&#39;s hand has 8 cards, but Rummy with 3 players deals 7 each"),
    ("kalooki-hand-bigger-than-dealt", "kalooki", ["Ann", "Bob"],
     ("Ann", {"Bob": "S2 S2 S3 S3 S4 S4 S5 S5 S6 S6 S7 S7 S8 S8 S9 S9"}),
     "Bob&#39;s hand has 16 cards, but Kalooki with 2 players deals 15 each"),
    ("no-ending", "rummy", ["Ann", "Bob"], (None, {"Bob": "S3"}), "Say how the round ended"),
    ("not-a-card", "rummy", ["Ann", "Bob"], ("Ann", {"Bob": "Z9"}), "&#39;Z9&#39; is not a card"),
    ("rummy-on-a-stalemate", "rummy", ["Ann", "Bob"], ("stalemate", {}), None),
    ("cards-on-a-stalemate", "rummy", ["Ann", "Bob"], ("stalemate", {"Ann": "C5 SK"}),
     "A stalemate counts no hands: take off the cards picked (K♠ 5♣), or say who went out."),
]


@pytest.mark.parametrize("variant,players,entry,words", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refused_rounds_say_why_and_save_nothing(client, db, variant, players, entry, words):
    game = Counted(client, variant, players)
    before = rows(db, game.game_id)
    ended, hands = entry
    data = game.form(ended, hands, rummy=words is None)
    for save in (False, True):  # Check and Save both refuse
        data.pop("save", None), data.pop("check", None)
        data["save" if save else "check"] = "1"
        response = client.post(game.url + "/counted/round", data=data)
        assert response.status_code == 422
        html = text(response)
        assert "data-error" in html and "Nothing was saved." in html
        assert (words or "rummy means going out in one turn") in html.replace("Rummy means", "rummy means")
        assert "Traceback" not in html
    assert rows(db, game.game_id) == before


def test_a_round_recorded_meanwhile_on_another_phone_is_not_added_twice(client, db):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    before = rows(db, game.game_id)
    late = client.post(game.url + "/counted/round", data=game.form("Bob", {"Ann": "S4"}, round_no=1))
    assert late.status_code == 409
    assert "Round 1 was recorded already (on another phone)" in text(late)
    assert rows(db, game.game_id) == before


@pytest.mark.parametrize("round_no", ["0", "-5", "two", ""])
def test_a_round_number_that_is_no_round_is_an_incomplete_form(client, db, round_no):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    before = rows(db, game.game_id)
    data = game.form("Ann", {"Bob": "S3"}) | {"round_no": round_no}
    response = client.post(game.url + "/counted/round", data=data)
    assert response.status_code == 422
    assert "The form was incomplete: reload the page and try again. Nothing was saved." in text(response)
    assert rows(db, game.game_id) == before


def test_a_double_tap_records_the_round_once(client, db):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    data = game.form("Ann", {"Bob": "S3"}, request_id="tap-1")
    assert client.post(game.url + "/counted/round", data=data).status_code == 303
    again = client.post(game.url + "/counted/round", data=data, follow_redirects=True)
    assert again.status_code == 200 and "Already saved" in text(again)
    assert len(game.export()["rounds"]) == 1


# ---------------------------------------------------------------------------------------
# Edit and delete: everything recomputed; stale pages refused.


def test_edit_a_round_and_everything_is_recomputed(client, db):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    html = game.page("/counted/rounds/1/edit")
    assert 'data-round-entry="1"' in html and "Change round 1" in html
    assert re.search(r'value="p0" data-ended="Ann" checked', html)
    revision = int(re.search(r'name="revision" value="(\d+)"', html).group(1))
    data = game.form("Ann", {"Bob": "S3 HQ"}, round_no=1, revision=str(revision))
    response = client.post(game.url + "/counted/rounds/1/edit", data=data)
    assert response.status_code == 303
    assert game.totals() == {"Ann": 13, "Bob": 10}
    # The same page sent again (its revision is stale now): refused, nothing changed.
    before = rows(db, game.game_id)
    data["request_id"] = "another"
    data["hand_1"] = ["S3"]
    stale = client.post(game.url + "/counted/rounds/1/edit", data=data)
    assert stale.status_code == 409 and "changed on another phone" in text(stale)
    assert rows(db, game.game_id) == before


def test_an_edit_that_breaks_a_later_round_is_refused(client, db):
    game = Counted(client, "kalooki", ["Ann", "Bob", "Cy"], elimination=100)
    game.record("Ann", {"Bob": "S2"})
    game.record("Bob", {"Ann": "S3", "Cy": "S4"})
    before = rows(db, game.game_id)
    data = game.form("Ann", {"Bob": "JK JK JK JK SA SK"}, round_no=1)  # Bob above 100 in round 1
    response = client.post(game.url + "/counted/rounds/1/edit", data=data)
    assert response.status_code == 422
    assert "That would make round 2 illegal: Bob was eliminated and no longer plays" in text(response)
    assert rows(db, game.game_id) == before


def test_delete_a_round_and_the_later_ones_move_up(client, db):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    game.record("Ann", {"Bob": "H5"})
    html = game.page("/counted/rounds/2")
    revision = re.search(r'name="revision" value="(\d+)"', html).group(1)
    response = client.post(game.url + "/counted/rounds/2/delete", data={"revision": revision, "sure": "y"})
    assert response.status_code == 303
    rounds = game.export()["rounds"]
    assert [r["out"] for r in rounds] == ["Ann", "Ann"]
    assert game.totals() == {"Ann": 8, "Bob": 0}
    assert client.get(game.url + "/counted/rounds/3").status_code == 404
    # Deleting it again from the old page: the round is not there any more.
    again = client.post(game.url + "/counted/rounds/3/delete", data={"revision": revision, "sure": "y"},
                        follow_redirects=True)
    assert "not in the game any more" in text(again)


@pytest.mark.parametrize("variant", ["gin", "rummy", "kalooki"])
def test_delete_is_one_tap_and_the_notice_brings_the_round_back(client, db, variant):
    """As in every game (issue 15, item 8): a delete takes one tap, and the notice that
    says so brings the round back where it was; brought back twice, it comes back once."""
    game = Counted(client, variant, ["Ann", "Bob"])
    if variant == "gin":
        game.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF})
    else:
        game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "S4"} if variant != "gin" else {"Bob": ANN_KNOCKS, "Ann": BOB_LAYS_OFF})
    html = game.page("/counted/rounds/1")
    assert "data-delete-sure" not in html and "Sure?" not in html
    before, totals = game.export()["rounds"], game.totals()
    revision = re.search(r'name="revision" value="(\d+)"', html).group(1)
    response = client.post(game.url + "/counted/rounds/1/delete", data={"revision": revision},
                           follow_redirects=True)
    page = text(response)
    assert "Round 1 deleted; the rounds after it moved up and every total is recomputed." in page
    assert len(game.export()["rounds"]) == 1
    notice = re.search(r'<form method="post" action="([^"]+)" data-bring-back>(.*?)</form>', page, re.S)
    token = re.search(r'name="deleted" value="([^"]+)"', notice.group(2)).group(1)
    back = client.post(notice.group(1), data={"deleted": token}, follow_redirects=True)
    assert "Round 1 brought back; every total is recomputed." in text(back)
    assert game.export()["rounds"] == before and game.totals() == totals
    again = client.post(notice.group(1), data={"deleted": token}, follow_redirects=True)
    assert "Already brought back: round 1." in text(again)
    assert game.export()["rounds"] == before
    # A round gone meanwhile (another phone): said so, nothing else deleted.
    client.post(game.url + "/counted/rounds/2/delete", data={})
    gone = client.post(game.url + "/counted/rounds/2/delete", data={}, follow_redirects=True)
    assert "Round 2 is not in the game any more (deleted on another phone): nothing was deleted." in text(gone)


def test_a_notice_that_is_not_the_apps_brings_nothing_back(client, db):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    before = rows(db, game.game_id)
    for token in ("", "x", "eyJnIjoxfQ.forged"):
        response = client.post(game.url + "/counted/rounds/restore", data={"deleted": token},
                               follow_redirects=True)
        assert response.status_code == 200 and "That cannot be brought back from here" in text(response)
    assert rows(db, game.game_id) == before


def test_history_list_shows_hand_count_games_right(client):
    game = Counted(client, "manipulation", ["Ann", "Bob", "Cy"], target=30)
    game.record("Cy", {"Ann": "SA H10 D3", "Bob": "SA"})
    html = text(client.get("/games"))
    item = re.search(rf'<li data-game="{game.game_id}" data-over="1">.*?</li>', html, re.S).group(0)
    assert "Cy wins" in item and "Ann 30" in item


# ---------------------------------------------------------------------------------------
# Read-only link, CSRF, export and import.


def test_the_read_only_link_sees_everything_and_changes_nothing(client, db):
    game = Counted(client, "gin", ["Ann", "Bob"])
    game.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF})
    viewer = client.application.test_client()
    view = f"/g/{game.view_key()}"
    html = text(viewer.get(view + "/counted"))
    assert 'data-total="Ann">11<' in html and "Enter round" not in html
    detail = text(viewer.get(view + "/counted/rounds/1"))
    assert "data-layoffs" in detail and "Delete round" not in detail and "Change round" not in detail
    assert viewer.get(view + "/counted/round").status_code == 303
    assert viewer.get(view + "/counted/rounds/1/edit").status_code == 303
    assert viewer.get(view + "/counted/export").status_code == 200
    assert viewer.get(view + "/counted/export.csv").status_code == 200
    before = rows(db, game.game_id)
    for path in ("/counted/round", "/counted/rounds/1/edit", "/counted/rounds/1/delete"):
        refused = viewer.post(view + path, data=game.form("Bob", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF}))
        assert refused.status_code == 403
    assert rows(db, game.game_id) == before


def test_the_game_page_is_live_for_the_read_only_link(client):
    game = Counted(client, "kalooki", ["Ann", "Bob"])
    viewer = client.application.test_client()
    view = f"/g/{game.view_key()}"
    html = text(viewer.get(view + "/counted"))
    live = re.search(r'<body data-live="([^"]+)" data-version="(\d+)" data-screen="counted" data-round="0"', html)
    assert live.group(1) == view + "/counted/live"
    since = live.group(1) + "?since=" + live.group(2)
    assert viewer.get(since).status_code == 204  # nothing new
    game.record("Ann", {"Bob": "JK"})
    news = viewer.get(since)
    assert news.status_code == 200
    assert news.get_json() | {"url": None} == {"version": int(live.group(2)) + 1, "screen": "counted",
                                               "round": 1, "url": None, "regions": {}, "cards": {}}
    assert news.get_json()["url"] == view + "/counted"
    assert client.get("/g/999-nope/counted/live?since=0").status_code == 404


def test_every_post_needs_a_csrf_token(tmp_path):
    client = csrf_checking_client(tmp_path)
    token = form_token(text(client.get("/games/new?variant=rummy")))
    made = client.post("/games", data={"variant": "rummy", "seat_0": "A", "seat_1": "B",
                                       "first_dealer": "0", "csrf_token": token})
    game = re.match(r"/g/[^/]+", made.headers["Location"]).group(0)
    form = {"round_no": "1", "ended": "p0", "hand_1": ["S3"], "save": "1"}
    for path in ("/counted/round", "/counted/rounds/1/edit", "/counted/rounds/1/delete"):
        assert client.post(game + path, data=form).status_code == 400
    assert 'data-total="A">0<' in text(client.get(game + "/counted"))
    page = text(client.get(game + "/counted/round"))
    good = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post(game + "/counted/round", data={**form, "csrf_token": good}).status_code == 303


def test_export_redirects_and_the_csv_has_the_rounds(client):
    game = Counted(client, "gin", ["Ann", "Bob"], target=50)
    game.record("Ann", {"Ann": GIN_HAND, "Bob": BOB_AGAINST_GIN})
    assert client.get(game.url + "/export").headers["Location"].endswith("/counted/export")
    assert client.get(game.url + "/export.csv").headers["Location"].endswith("/counted/export.csv")
    sheet = text(client.get(game.url + "/counted/export.csv")).lstrip("\ufeff").splitlines()
    assert sheet == ["Round,Ended,Ann,Bob", "1,Ann went gin,55,0", "Bonuses,,220,0", "Total,,275,0"]


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_the_game_file_imports_back_as_the_same_game(client, variant):
    game = Counted(client, variant, PLAYERS[variant])
    ended = {"gin": "Ann", "conquian": "Bob"}.get(variant, "Ann")
    hands = {"gin": {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF}, "conquian": {}}.get(variant, {"Bob": "SK H2"})
    game.record(ended, hands)
    doc = game.export()
    body = json.dumps(doc).encode()
    import io
    response = client.post("/games/import", data={"game_file": (io.BytesIO(body), "game.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 303, text(response)
    new = response.headers["Location"]  # the game's own page
    assert new.endswith("/counted") and text(client.get(new)).count("data-total=") == len(PLAYERS[variant])
    back = json.loads(text(client.get(new + "/export")))
    assert back["rounds"] == doc["rounds"] and back["rules"] == doc["rules"]


def test_a_bad_hand_count_file_is_not_imported(client, db):
    import io
    bad = {"format": "scorekeeper/1", "variant": "gin", "players": ["A", "B"], "rules": {},
           "teams": None, "rounds": [{"knocker": "A", "hands": {"A": OVER_LIMIT.split(), "B": BOB_LAYS_OFF.split()}}]}
    response = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(bad).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert "A cannot knock with 31 in deadwood" in text(response)
    assert db["games"].count == 0


# ---------------------------------------------------------------------------------------
# Gin: "can I knock?"


def knock(client, cards, **params):
    query = "&".join([f"cards={c}" for c in cards.split()] + [f"{k}={v}" for k, v in params.items()])
    return client.get("/gin/knock?" + query)


@pytest.mark.parametrize("cards,params,may,deadwood,words", [
    (ANN_KNOCKS, {}, "1", 5, "Yes: you may knock"),
    (GIN_HAND, {}, "1", 0, "Gin: no deadwood at all"),
    (OVER_LIMIT, {}, "0", 31, "No: too much deadwood"),
    (ANN_KNOCKS, {"knock_limit": 4}, "0", 5, "1 too many"),
    (ANN_KNOCKS + " C8", {}, "1", 5, "Discard"),  # 11 cards: discard C8 first
])
def test_can_i_knock(client, cards, params, may, deadwood, words):
    response = knock(client, cards, **params)
    assert response.status_code == 200
    html = text(response)
    assert f'data-may-knock="{may}"' in html
    assert f'data-deadwood="{deadwood}"' in html
    assert words in html


@pytest.mark.parametrize("cards,words", [
    ("S2 S3 S4", "pick the 10 cards"),
    ("S2 S2 S3 S4 H9 D9 C9 SK HK DK", "2♠ is picked twice, but one deck has one 2♠."),
    ("Z2 S3", "is not a card"),
])
def test_can_i_knock_refuses_a_hand_it_cannot_judge(client, cards, words):
    response = knock(client, cards)
    assert response.status_code == 422
    assert words.lower() in text(response).lower()


@pytest.mark.parametrize("limit", ["-5", "abc", "1.5", "10000"])
@pytest.mark.parametrize("cards", [ANN_KNOCKS, ""])
def test_can_i_knock_refuses_a_bad_knock_limit(client, cards, limit):
    response = knock(client, cards, knock_limit=limit)
    assert response.status_code == 422
    html = text(response)
    assert (f"The knock limit must be a whole number of points, 0 or more (10 in the published rule): "
            f"“{limit}” is not one. Nothing was judged.") in html
    assert "data-knock-answer" not in html and "knock limit is 10" not in html
    assert f'name="knock_limit" value="{limit}" min="0" max="999" inputmode="numeric" aria-invalid="true">' in html


def test_can_i_knock_takes_any_knock_limit_of_0_or_more(client):
    assert 'data-may-knock="0"' in text(knock(client, ANN_KNOCKS, knock_limit=0))
    assert "the knock limit is 0: 5 too many" in text(knock(client, ANN_KNOCKS, knock_limit=0))
    assert "the knock limit is 120)" in text(knock(client, ANN_KNOCKS, knock_limit=120))
    assert "the knock limit is 10)" in text(knock(client, ANN_KNOCKS))  # none given: the published 10


def test_the_knock_helper_leads_back_to_its_game_and_nowhere_else(client):
    game = Counted(client, "gin", ["Ann", "Bob"])
    link = re.search(r'href="(/gin/knock\?[^"]+)" data-knock-helper', game.page("/counted/round")).group(1)
    html = text(client.get(link.replace("&amp;", "&") + "&" + "&".join(f"cards={c}" for c in ANN_KNOCKS.split())))
    assert f'<a href="{game.url}/counted" data-back-to-game>Back to the game</a>' in html
    assert f'name="game" value="{game.url}/counted"' in html  # asking again keeps it
    for elsewhere in ("https://evil.example/g/1-x/counted", "//evil.example/g/1/counted", "/games"):
        assert "data-back-to-game" not in text(client.get("/gin/knock", query_string={"game": elsewhere}))


def test_the_knock_helper_is_linked_from_gin_games_and_needs_no_game(client):
    assert 'data-knock-answer' not in text(client.get("/gin/knock"))
    game = Counted(client, "gin", ["Ann", "Bob"], knock_limit=7)
    assert "/gin/knock?knock_limit=7" in game.page()
    assert "/gin/knock?knock_limit=7" in game.page("/counted/round")
    assert "/gin/knock" in text(client.get("/rules/gin"))


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_the_rules_page_says_how_it_is_scored(client, variant):
    html = text(client.get(f"/rules/{variant}"))
    section = re.search(r'<section aria-labelledby="how-h">(.*?)</section>', html, re.S).group(1)
    assert section.count("<li>") >= 3


# What docs/rules/ writes down, said by the app's own rules pages.
RULES_PAGES_SAY = [
    ("conquian", "A hand never holds more than 10 cards (a card taken is melded at once)"),
    ("conquian", "the hands with the winner's 11 melded cards never come to more than the 40 cards"),
    ("gin", "a shutout (the other player scored nothing) adds the game bonus again (classic)"),
    ("gin", "The winner is whoever has the most points after all the bonuses"),
    ("gin", "Where several arrangements give the knocker the same least deadwood, the app takes the one "
            "that leaves the defender the most deadwood after lay-offs"),
    ("rummy", "With penalty scoring, doubling doubles every other player's penalty for that round, and "
              "adding 10 takes 10 off the winner's total"),
]


@pytest.mark.parametrize("variant,words", RULES_PAGES_SAY)
def test_the_rules_page_says_what_the_app_does(client, variant, words):
    html = text(client.get(f"/rules/{variant}"))
    section = re.search(r'<section aria-labelledby="how-h">(.*?)</section>', html, re.S).group(1)
    assert words in section


@pytest.mark.parametrize("variant", ["gin", "rummy"])
def test_a_deleted_round_comes_back_after_its_players_were_renamed(client, db, variant):
    """The notice keeps the players by seat: renamed meanwhile, the round comes back with
    its hands and its winner under the names the seats have now (issue 24, item 7)."""
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    game = Counted(client, variant, ["Ann", "Bob"])
    if variant == "gin":
        game.record("Ann", {"Ann": ANN_KNOCKS, "Bob": BOB_LAYS_OFF})
    else:
        game.record("Ann", {"Bob": "S3"})
    before, totals = game.export()["rounds"], game.totals()
    html = game.page("/counted/rounds/1")
    revision = re.search(r'name="revision" value="(\d+)"', html).group(1)
    page = text(client.post(game.url + "/counted/rounds/1/delete", data={"revision": revision},
                            follow_redirects=True))
    notice = re.search(r'<form method="post" action="([^"]+)" data-bring-back>(.*?)</form>', page, re.S)
    token = re.search(r'name="deleted" value="([^"]+)"', notice.group(2)).group(1)
    for old, new in (("Ann", "Anna"), ("Bob", "Rob")):
        found = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == old)
        assert client.post(f"/players/{found}/rename", data={"name": new, "expected": old}).status_code == 303
    back = client.post(notice.group(1), data={"deleted": token}, follow_redirects=True)
    assert "Round 1 brought back; every total is recomputed." in text(back)
    renamed = {"Ann": "Anna", "Bob": "Rob"}
    rounds = game.export()["rounds"]
    assert json.dumps(rounds) == json.dumps(before).replace('"Ann"', '"Anna"').replace('"Bob"', '"Rob"')
    assert game.totals() == {renamed[p]: n for p, n in totals.items()}


def test_a_conquian_hand_after_tableaus_says_what_it_is_worth_before_it_is_entered(client):
    game = Counted(client, "conquian", ["Ann", "Bob"])
    assert "data-round-note" not in game.page("/counted/round")  # the first hand: a stake of 1, nothing to say
    game.record("stalemate")
    game.record("stalemate")
    assert "This hand is worth 3: 2 tableaus before it." in game.page("/counted/round")
    game.record("Bob")
    assert "data-round-note" not in game.page("/counted/round")  # decided: back to 1
    assert game.totals() == {"Ann": -3, "Bob": 3}


def test_a_hand_left_empty_beside_someone_gone_out_is_said_on_the_check_and_the_save(client):
    game = Counted(client, "rummy", ["Ann", "Bob", "Cy"])
    said = "Nothing is picked for Cy: counted as holding no cards."
    check = client.post(game.url + "/counted/round", data=game.form("Ann", {"Bob": "SK"}, save=False))
    assert check.status_code == 200 and said in text(check)
    saved = game.record("Ann", {"Bob": "SK"})
    assert said in text(client.get(saved.headers["Location"]))
    full = client.post(game.url + "/counted/round", data=game.form("Bob", {"Ann": "S2", "Cy": "D7"}, save=False))
    assert "Nothing is picked" not in text(full)  # every hand entered: nothing to say


def test_a_stalemate_round_says_no_hand_was_counted_not_that_no_cards_were_left(client):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    saved = game.record("stalemate")
    html = text(client.get(saved.headers["Location"]))
    assert "No cards left" not in html and "Stalemate: no one scores" in html
