"""Robber Rummy on the web: the table screen, steals, partnerships, renege, the discard
pile, the stock running out, the hand end, the game page, export/import, read-only 403
and CSRF. Every route through the Flask test client, as a phone without JavaScript."""
from __future__ import annotations

import io
import json
import re

import pytest
from web_table import csrf_checking_client, form_token

from scorekeeper import gamefile
from scorekeeper.storage import players

MINUS = "\u2212"


def text(response) -> str:
    return response.get_data(as_text=True)


def number(s: str) -> int:
    return int(s.strip().replace(MINUS, "-").replace("+", ""))


class Robber:
    """A Robber Rummy game played through the web routes."""

    def __init__(self, client, players, dealer=0, partnerships="none", **rules):
        self.client = client
        data = {"variant": "robber", "first_dealer": str(dealer), "partnerships": partnerships}
        data.update({f"seat_{i}": p for i, p in enumerate(players)})
        defaults = {"ace_low": 5, "renege_penalty": 100, "target": 400}
        data.update({f"rule_{k}": str(v) for k, v in {**defaults, **rules}.items()})
        made = client.post("/games", data=data)
        assert made.status_code == 303, text(made)
        self.key = re.search(r"/g/([^/]+)/robber$", made.headers["Location"]).group(1)
        self.game_id = int(self.key.split("-")[0])
        self.requests = 0

    @property
    def url(self) -> str:
        return f"/g/{self.key}/robber"

    def page(self, path="") -> str:
        response = self.client.get(self.url + path)
        assert response.status_code == 200, response.status_code
        return text(response)

    def post(self, path, **data):
        self.requests += 1
        data.setdefault("request_id", f"r{self.requests}")
        return self.client.post(self.url + path, data=data)

    def meld_id(self, number: int) -> int:
        return int(re.search(rf'data-meld="(\d+)" data-meld-number="{number}"', self.page()).group(1))

    def meld(self, player, cards, **extra):
        return self.post("/play", player=player, action="play", cards=cards.split(), **extra)

    def lay_off(self, player, number, cards):
        return self.meld(player, cards, meld=str(self.meld_id(number)))

    def act(self, player, action, cards=""):
        return self.post("/play", player=player, action=action, cards=cards.split())

    def ok(self, response):
        assert response.status_code == 303, error(response)
        return response

    def live_scores(self) -> dict:
        html = self.page()
        return {s.replace("&amp;", "&"): number(v)
                for s, v in re.findall(r'data-live-score="([^"]*)">([^<]*)<', html)}

    def log(self) -> list[str]:
        return log_lines(self.page())

    def page_of_log(self) -> str:
        """The page that shows the hand's log: the table, or the hand's end once it is over."""
        page = self.page()
        return page if 'data-region="log"' in page else self.page("/end")

    def end_hand(self, hands: dict):
        for player, cards in hands.items():
            self.ok(self.post("/end/hand", player=player, round_no=str(self.round_no()),
                              cards=cards.split()))
        return self.post("/end", round_no=str(self.round_no()))

    def round_no(self) -> int:
        return int(re.search(r'data-round-end="(\d+)"', text(self.client.get(self.url + "/end"))).group(1))

    def totals(self) -> dict:
        return {p: number(v) for p, v in re.findall(r'data-total="([^"]*)">([^<]*)<', self.page("/game"))}

    def export(self) -> dict:
        return json.loads(text(self.client.get(self.url + "/export")))

    def view_key(self) -> str:
        return re.search(r'value="[^"]*/g/([^/"]+)/table" data-link="view"', self.page("/game")).group(1)


def log_lines(html: str) -> list[str]:
    """The hand's log as people read it: each line's words, its cards' chips and other
    tags left out (the Edit link and the Delete button, if any, too)."""
    return [re.sub(r"<[^>]+>", "", m).strip()
            for m in re.findall(r'<li data-play="\d+"[^>]*>(.*?)(?:<a class="edit"|<form|</li>)', html, re.S)]


def error(response) -> str:
    found = re.search(r'data-error>(.*?)<', text(response), re.S)
    return found.group(1) if found else f"status {response.status_code}"


def stored(db, game_id):
    """Everything stored about a game's play, and its version."""
    return (list(db.query("SELECT round_no, seq, type, player, cards FROM plays WHERE game = ? ORDER BY id",
                          [game_id])),
            list(db.query("SELECT round_no, player, cards, confirmed FROM hands WHERE game = ?", [game_id])),
            db["games"].get(game_id)["version"])


@pytest.fixture
def three(client):
    return Robber(client, ["Ann", "Bob", "Cy"])


# ---------------------------------------------------------------------------------------
# New game, and where the links land.


def test_the_new_game_form_offers_partnerships(client):
    html = text(client.get("/games/new?variant=robber"))
    assert "data-partnerships" in html and "partners sit opposite" in html
    assert "data-partnerships" not in text(client.get("/games/new?variant=iceberg"))


def test_partnerships_make_two_teams_of_two(client, db):
    game = Robber(client, ["Ann", "Bob", "Cy", "Dee"], partnerships="13")
    assert json.loads(db["games"].get(game.game_id)["teams"]) == [["Ann", "Cy"], ["Bob", "Dee"]]
    assert game.export()["teams"] == [["Ann", "Cy"], ["Bob", "Dee"]]
    assert "Ann &amp; Cy against Bob &amp; Dee" in game.page("/game")


@pytest.mark.parametrize("choice,teams", [("12", [["Ann", "Bob"], ["Cy", "Dee"]]),
                                          ("14", [["Ann", "Dee"], ["Bob", "Cy"]]), ("none", None)])
def test_each_partnership_choice(client, choice, teams):
    assert Robber(client, ["Ann", "Bob", "Cy", "Dee"], partnerships=choice).export()["teams"] == teams


def test_partnerships_need_exactly_four_players(client, db):
    refused = client.post("/games", data={"variant": "robber", "seat_0": "A", "seat_1": "B", "seat_2": "C",
                                          "first_dealer": "0", "partnerships": "13",
                                          "rule_ace_low": "5", "rule_renege_penalty": "100", "rule_target": "400"})
    assert refused.status_code == 422
    assert "Partnerships are two teams of two" in text(refused)
    assert db["games"].count == 0


@pytest.mark.parametrize("path,lands", [("", "/robber/game"), ("/table", "/robber"), ("/end", "/robber/end"),
                                        ("/export", "/robber/export"), ("/export.csv", "/robber/export.csv")])
def test_the_iceberg_links_of_a_robber_game_land_on_its_pages(client, three, path, lands):
    response = client.get(f"/g/{three.key}{path}")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(three.key + lands)


def test_the_history_list_shows_the_game_and_its_totals(client, three):
    three.ok(three.meld("Bob", "H4 S4 C4"))
    three.ok(three.act("Ann", "out"))
    three.ok(three.end_hand({"Bob": "", "Cy": "D2"}))
    html = text(client.get("/"))
    assert f"/g/{three.key}" in html
    assert three.totals() == {"Ann": 0, "Bob": 15, "Cy": -5}


def test_the_rules_page_says_how_it_is_scored(client):
    html = text(client.get("/rules/robber"))
    assert "steals it" in html and "never doubled" in html


@pytest.mark.parametrize("words", [
    "never around the corner (K-A-2)",
    "An ace keeps the end it was placed at: A-2-3 grown up to the K keeps its ace low",
    "can still take a second ace high",
    "Only an ace that fits either end counts high: A through K laid down at once, or a lone ace laid on 2 through K",
])
def test_the_rules_page_says_where_an_ace_lies(client, words):
    assert words in text(client.get("/rules/robber"))


def test_the_rules_page_says_a_partnership_keeps_its_melds_after_a_renege(client):
    html = text(client.get("/rules/robber"))
    assert "In partnership play the melds belong to the partnership, so a renege does not throw them away" in html
    assert "20 − 5 − 100 = −85 for A and C" in html


# ---------------------------------------------------------------------------------------
# The table: melds, steals and steal-backs, the live score, locked melds.


def test_the_seed_numbers_on_the_table(three):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.meld("Bob", "H9 H10 HJ HQ HK HA"))
    assert three.live_scores() == {"Ann": 15, "Bob": 120, "Cy": 0}
    assert 'data-round-score="Bob">120<' in three.page()
    three.ok(three.act("Ann", "out"))
    three.ok(three.end_hand({"Bob": "", "Cy": "C2 C3 C4 C5 CJ CA"}))
    assert three.totals() == {"Ann": 15, "Bob": 120, "Cy": -45}


def test_a_play_sent_to_a_hand_whose_log_no_longer_replays_says_so(three, db):
    """A hand whose log does not replay (a play's entry changed in the database by hand):
    a play, an ending with cards picked and a pass each say the game cannot be read, in
    words, and save nothing; a form no page sends is refused for itself (the game is not
    read for it)."""
    three.ok(three.meld("Ann", "H4 S4 C4"))
    db.execute("INSERT INTO play_entries (play, game, round_no, seq, type, player, cards, target, revision, "
               "live, created) SELECT id, game, round_no, seq, type, player, ?, target, revision + 1, 1, created "
               "FROM plays WHERE game = ?", ['["H4", "H9"]', three.game_id])
    db.execute("UPDATE games SET version = version + 1 WHERE id = ?", [three.game_id])
    db.conn.commit()
    for sent in (three.meld("Bob", "D7 D8 D9"), three.act("Bob", "out", "D7"), three.post("/pass")):
        assert sent.status_code == 500 and "This game cannot be read" in text(sent)
    odd = three.post("/play", player="Bob", action="fly")
    assert odd.status_code == 422 and "Choose who plays and what they do." in text(odd)
    assert db.execute("SELECT count(*) FROM plays WHERE game = ?", [three.game_id]).fetchone()[0] == 1


def test_a_pass_with_cards_still_picked_is_refused(three):
    """The page's script sends the cards still picked with the pass: refused, the turn
    stays, nothing logged (without the script a pass sends no cards)."""
    refused = three.post("/pass", cards=["D5", "D6", "D7"])
    assert refused.status_code == 422
    assert error(refused) == ("You picked 5♦ 6♦ 7♦: log them first (Confirm), then tap Discarded: pass. "
                              "Nothing was saved.")
    assert three.log() == []
    three.ok(three.post("/pass"))


def test_a_pass_is_told_on_its_own_players_line_only(three, client):
    """Ann melds in Bob's turn, then Bob's turn is passed on: Bob's pass is a line of its
    own, in the hand's log and on the scoreboard, not part of Ann's meld."""
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.post("/pass"))
    page = three.page()
    assert len(re.findall(r'<li data-play="\d+" data-type="pass" data-player="Bob">', page)) == 1
    meld = re.search(r'<li data-play="\d+" data-type="meld".*?</li>', page, re.S).group(0)
    assert "data-passed" not in meld
    board = text(client.get(three.url.replace("/robber", "/board")))
    assert re.search(r'<li data-play="\d+" data-type="pass" data-player="Bob">', board)


def test_the_undo_help_about_discards_shows_while_a_pass_is_the_last_play(three):
    help_ = "Undo takes back a discard while it is the last play."
    three.ok(three.post("/pass"))
    assert help_ in three.page()
    three.ok(three.meld("Cy", "H4 S4 C4"))
    assert help_ not in three.page()


def test_a_steal_and_a_steal_back(three):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    three.ok(three.lay_off("Bob", 1, "H6"))
    assert three.log()[-1] == "Bob steals meld 1 from Ann with 6♥"
    assert three.live_scores() == {"Ann": 0, "Bob": 40, "Cy": 0}
    html = named(three.page())
    assert re.search(r'data-meld-number="1" data-owner="Bob"', html)
    assert f"stolen by Bob from Ann with {chip('6♥', 'r')}" in html  # its hearts red, as everywhere
    three.ok(three.lay_off("Ann", 1, "H2"))
    assert three.log()[-1] == "Ann steals meld 1 from Bob with 2♥"
    assert three.live_scores() == {"Ann": 50, "Bob": 0, "Cy": 0}
    three.ok(three.lay_off("Ann", 1, "H7"))
    assert three.log()[-1] == "Ann adds 7♥ to meld 1"
    three.ok(three.act("Cy", "out"))
    three.ok(three.end_hand({"Ann": "", "Bob": "SK"}))
    hand = named(three.page("/hands/1"))
    assert (f"made by Ann; stolen by Bob from Ann with {chip('6♥', 'r')}; stolen by Ann from Bob with "
            f"{chip('2♥', 'r')}; Ann added {chip('7♥', 'r')}") in hand
    assert three.totals() == {"Ann": 60, "Bob": -10, "Cy": 0}


def chip(card: str, colour: str) -> str:
    """A card as the pages draw it, its name for a screen reader left out (``named``)."""
    return f'<span class="k {colour} {"shdc"["♠♥♦♣".index(card[-1])]}">{card}</span>'


def named(html: str) -> str:
    """The page without the cards' names for a screen reader (the page's language's:
    tests/browser/test_browser_suit_colours.py)."""
    return re.sub(r' role="img" aria-label="[^"]*"', "", html)


def test_the_log_draws_its_cards_as_chips_in_each_language_s_sentences(three, client):
    """Issue 25: the log's cards were plain text, every suit black; they are the chips the
    other pages draw, inside sentences whose word order is the catalog's (German puts the
    cards before "aus"); the Delete button's name and the notice keep the words as text."""
    three.ok(three.meld("Ann", "H3 H4 H5"))
    stolen = three.ok(three.lay_off("Bob", 1, "H6"))
    assert "Bob steals meld 1 from Ann with 6♥." in text(client.get(stolen.headers["Location"]))  # the notice
    three.ok(three.meld("Cy", "S9 S10 SJ"))
    hearts = " ".join(chip(c, "r") for c in ("3♥", "4♥", "5♥"))
    spades = " ".join(chip(c, "b") for c in ("9♠", "10♠", "J♠"))
    sentences = {
        "en": [f"Ann melds {hearts} (meld 1)", f"<strong>Bob steals meld 1 from Ann with {chip('6♥', 'r')}</strong>",
               f"Cy melds {spades} (meld 2)"],
        "es": [f"Ann baja {hearts} (combinación 1)",
               f"<strong>Bob roba la combinación 1 a Ann con {chip('6♥', 'r')}</strong>",
               f"Cy baja {spades} (combinación 2)"],
        "de": [f"Ann legt {hearts} aus (Kombination 1)",
               f"<strong>Bob stiehlt Kombination 1 von Ann mit {chip('6♥', 'r')}</strong>",
               f"Cy legt {spades} aus (Kombination 2)"],
    }
    for language, lines in sentences.items():
        words = {"Accept-Language": language}
        for html in (text(client.get(three.url, headers=words)),
                     client.get(three.url + "/live?since=0", headers=words).get_json()["regions"]["log"]):
            drawn = re.findall(r'<span class="said">(.*?)</span>\n', named(html))
            assert drawn == lines, language
    assert 'aria-label="Delete: Bob steals meld 1 from Ann with 6♥"' in three.page()


def test_the_game_file_keeps_the_cards_in_the_order_given_and_the_log_arranges_them(three):
    # The picker sends its cards in grid order (the ace first); the game file keeps them so
    # (docs/game-file.md: any order), the log and the board show the meld as it lies.
    three.ok(three.meld("Bob", "HA H9 H10 HJ HQ HK"))
    three.ok(three.lay_off("Ann", 1, "H8 H7"))
    assert three.log() == ["Bob melds 9♥ 10♥ J♥ Q♥ K♥ A♥ (meld 1)", "Ann steals meld 1 from Bob with 7♥ 8♥"]
    assert [e["cards"] for e in three.export()["rounds"][0]["events"]] == [
        ["HA", "H9", "H10", "HJ", "HQ", "HK"], ["H8", "H7"]]
    board = re.search(r'data-meld-number="1".*?<br>', three.page(), re.S).group(0)  # the meld, not its history
    assert re.findall(r'class="k r h"[^>]*>([^<]+)<', board) == ["7♥", "8♥", "9♥", "10♥", "J♥", "Q♥", "K♥", "A♥"]


def test_a_sequence_from_the_low_ace_grows_to_the_king_on_the_table(three):
    three.ok(three.meld("Ann", "SA S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ"))
    three.ok(three.lay_off("Bob", 1, "SK"))
    assert three.log()[-1] == "Bob steals meld 1 from Ann with K♠"
    assert three.live_scores() == {"Ann": 0, "Bob": 170, "Cy": 0}  # the ace stays low: 2 × (5 + 40 + 40)
    three.ok(three.lay_off("Cy", 1, "SA"))  # and a second ace goes high: 2 × (5 + 40 + 40 + 15)
    assert three.live_scores() == {"Ann": 0, "Bob": 0, "Cy": 200}


def test_the_table_picker_offers_the_aces(three):
    html = three.page()
    assert all(f'value={s}A' in html for s in "SHDC")


def test_a_meld_no_card_can_extend_is_locked(three):
    three.ok(three.meld("Ann", "HA H2 H3"))  # the ace low: only H4 can extend it
    assert "data-locked" not in three.page()
    three.ok(three.meld("Bob", "H4 H4 S4"))  # both H4s are on the table
    html = three.page()
    assert re.search(r'data-meld-number="1" data-owner="Ann" data-side="Ann" data-locked', html)
    assert re.search(rf'value="{three.meld_id(1)}" data-meld="\d+" data-meld-number="1" disabled', html)
    refused = three.lay_off("Cy", 2, "H4")
    assert refused.status_code == 422


def test_a_set_of_eight_is_locked(three):
    three.ok(three.meld("Ann", "S7 S7 H7 H7"))
    three.ok(three.lay_off("Bob", 1, "D7 D7 C7"))
    assert "data-locked" not in three.page()
    three.ok(three.lay_off("Ann", 1, "C7"))
    assert "data-locked" in three.page()


# ---------------------------------------------------------------------------------------
# Illegal plays are refused in plain words, and nothing is saved.


ILLEGAL = [
    ("around the corner", lambda g: g.meld("Ann", "SK SA S2"), "never K-A-2"),
    ("not a meld", lambda g: g.meld("Ann", "S2 H3 D4"), "is not a meld"),
    ("two cards", lambda g: g.meld("Ann", "S2 H2"), "at least three cards"),
    ("no cards", lambda g: g.meld("Ann", ""), "Pick the cards first"),
    ("unknown player", lambda g: g.meld("Zed", "S2 H2 D2"), "not playing in this game"),
    ("lay-off that does not fit", lambda g: g.lay_off("Bob", 1, "S9"), "does not fit"),
    ("lay-off on no meld", lambda g: g.meld("Bob", "S9", meld="99999"), "Tap a meld on the table"),
    ("third copy", lambda g: g.meld("Bob", "C4 C4 H4"), "already on the table"),
    ("take two cards", lambda g: g.act("Bob", "take", "S9 S10"), "one card on top"),
    ("take nothing", lambda g: g.act("Bob", "take", ""), "Pick the cards first"),
    ("unknown action", lambda g: g.act("Bob", "shuffle"), "Choose who plays"),
]


@pytest.mark.parametrize("play,words", [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL])
def test_illegal_plays_are_refused_and_nothing_is_saved(three, db, play, words):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    before = stored(db, three.game_id)
    refused = play(three)
    assert refused.status_code == 422
    assert words in error(refused)
    assert stored(db, three.game_id) == before


def test_the_discard_pile_top_card_must_go_into_a_meld_at_once(three, db):
    three.ok(three.act("Bob", "take", "SK"))
    assert 'data-pending-take="SK"' in three.page()
    assert 'value=SK checked' in three.page()  # picked for Bob already
    before = stored(db, three.game_id)
    rule = "Bob took the discard pile: its top card K♠ must go into a meld or lay-off by Bob first (or Bob reneges)"
    for refused, why in ((three.meld("Bob", "D5 D6 D7"), ": 5♦ 6♦ 7♦ does not include K♠."),  # without the top card
                         (three.meld("Cy", "D5 D6 D7"), "."),  # someone else plays first
                         (three.act("Bob", "out"), "."),
                         (three.act("Bob", "stock"), "."),
                         (three.act("Bob", "take", "S9"), "."),
                         (three.post("/pass", turn="Bob"), ".")):
        assert refused.status_code == 422, error(refused)
        assert error(refused) == rule + why
    assert stored(db, three.game_id) == before
    three.ok(three.meld("Bob", "SK SQ SJ"))
    assert "data-pending-take" not in three.page()
    assert three.log() == ["Bob took the discard pile (K♠ on top)", "Bob melds J♠ Q♠ K♠ (meld 1)"]


def test_the_note_of_the_taken_card_draws_the_card(three):
    three.ok(three.act("Bob", "take", "SK"))
    note = re.search(r'<p class="note" role="status" data-pending-take="SK">(.*?)</p>', three.page(), re.S)
    assert re.sub(r"<[^>]+>", "", note.group(1)) == (
        "Bob took the discard pile: K♠ must go into a meld or lay-off by Bob now.")


@pytest.mark.parametrize("action, button", [("out", "Went out"), ("stock", "Stock ran out")])
def test_ending_the_hand_with_cards_still_picked_is_refused(three, db, action, button):
    """The picked cards go with every button of the form: ending the hand with a meld
    picked but not logged would lose its points, so it is refused and nothing saved."""
    three.ok(three.meld("Ann", "H4 S4 C4"))
    before = stored(db, three.game_id)
    refused = three.act("Bob", action, "DK CK HK")
    assert refused.status_code == 422
    assert error(refused) == (f"You picked K♦ K♣ K♥: log them first (Confirm), then tap "
                              f"{button}. Nothing was saved.")
    assert 'value=DK checked' in text(refused)
    assert stored(db, three.game_id) == before
    three.ok(three.meld("Bob", "DK CK HK"))
    three.ok(three.act("Bob", action))
    assert three.live_scores() == {"Ann": 15, "Bob": 30, "Cy": 0}


def test_going_out_with_the_taken_card_still_picked_says_the_rule_first(three, db):
    three.ok(three.act("Bob", "take", "SK"))
    before = stored(db, three.game_id)
    refused = three.act("Bob", "out", "SK")
    assert refused.status_code == 422
    assert error(refused) == ("Bob took the discard pile: its top card K♠ must go into a meld or lay-off by Bob "
                              "first (or Bob reneges).")
    assert stored(db, three.game_id) == before


def preview(game, player, cards, meld=None) -> str:
    query = [("player", player)] + [("cards", c) for c in cards.split()]
    if meld:
        query.append(("meld", str(game.meld_id(meld))))
    response = game.client.get(game.url + "/preview", query_string=query)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(response))).strip()


def test_the_preview_says_what_the_picked_cards_make_and_score(three, db):
    """Whose play it is first (issue 24: the Confirm bar says it), then what it makes."""
    before = stored(db, three.game_id)
    assert preview(three, "Ann", "") == "Tap cards to see what they make."
    assert preview(three, "Ann", "H9 H10 HJ") == "Ann: Sequence: 9♥ 10♥ J♥, worth 50 to Ann."
    assert preview(three, "Ann", "SQ HQ DQ") == "Ann: Set of queens: Q♠ Q♥ Q♦, worth 30 to Ann."
    assert preview(three, "Ann", "S9 HQ DQ").startswith("Not allowed:")
    assert preview(three, "Ann", "SQ HQ") == "2 picked: a new meld needs three cards or more."
    three.ok(three.meld("Ann", "H9 H10 HJ"))
    assert preview(three, "Bob", "HQ", meld=1) == (
        "Bob: Meld 1 becomes 9♥ 10♥ J♥ Q♥: worth 70 (+20), stolen from Ann by Bob.")
    assert preview(three, "Ann", "H8", meld=1) == "Ann: Meld 1 becomes 8♥ 9♥ 10♥ J♥: worth 60 (+10) to Ann."
    assert [row["type"] for row in stored(db, three.game_id)[0]] == ["meld"]  # previews save nothing
    assert before[0] == []


def test_after_taking_the_discard_pile_a_card_picked_twice_is_said_plainly(three, db):
    """The taken card is picked for its taker already: a tap on it picks its second copy
    (two decks). The page says the card is picked, and the preview says "picked twice"."""
    three.ok(three.act("Bob", "take", "HQ"))
    page = three.page()
    assert 'data-taken="HQ"' in page and "is picked already: tap only the other cards" in page
    said = preview(three, "Bob", "SQ HQ HQ DQ")
    assert said.startswith("Picked twice (both decks’ copies): Q♥.")
    assert "Set of queens: Q♠ Q♥ Q♥ Q♦, worth 40 to Bob." in said
    assert "Picked twice" not in preview(three, "Bob", "SQ HQ DQ")
    # Without JavaScript, "Check" shows the same and saves nothing.
    before = stored(db, three.game_id)
    checked = three.act("Bob", "check", "SQ HQ HQ DQ")
    assert checked.status_code == 200
    assert "Picked twice" in text(checked) and "worth <strong>40</strong> to Bob" in text(checked)
    assert stored(db, three.game_id) == before


def test_a_lay_off_of_the_top_card_counts_too_and_can_steal(three):
    three.ok(three.meld("Ann", "D5 D6 D7"))
    three.ok(three.act("Bob", "take", "D8"))
    three.ok(three.lay_off("Bob", 1, "D8"))
    assert three.log()[-1] == "Bob steals meld 1 from Ann with 8♦"


def test_renege_scores_minus_the_penalty_and_frees_the_table(three):
    three.ok(three.meld("Bob", "H9 H10 HJ"))  # counts for nothing once Bob reneges
    three.ok(three.act("Bob", "take", "SK"))
    three.ok(three.act("Bob", "renege"))
    assert "Bob reneged: −100 this hand" in three.log()
    assert three.live_scores()["Bob"] == -100
    refused = three.act("Bob", "renege")
    assert refused.status_code == 422 and "reneged this hand already" in error(refused)
    out = three.meld("Bob", "H9 H10 HJ")  # out of the hand
    assert out.status_code == 422
    assert error(out) == "Bob reneged this hand and is out of it: Bob plays again next hand."
    three.ok(three.act("Cy", "out"))
    three.ok(three.end_hand({"Ann": "S2", "Bob": "CA"}))
    assert three.totals() == {"Ann": -5, "Bob": -100, "Cy": 0}
    assert three.export()["rounds"][0]["renege"] == ["Bob"]
    hand = named(three.page("/hands/1"))  # the dispute view: what they hold is shown, and not counted
    assert re.search(r'data-left="Bob">Left in hand .*?: not counted</li>', hand)
    assert re.search(r'data-owned-meld="\d+">Meld \d+ .*?: not counted <small>', hand)
    assert re.search(r'data-left="Ann">Left in hand .*?: −5</li>', hand)


def test_whoever_reneged_can_no_longer_steal_a_meld(three):
    """A tester's hand: Bob reneges, then lays off on Ann's meld. Refused: a steal by a
    player out of the hand would take Ann's points from everyone."""
    three.ok(three.meld("Cy", "HA H2 H3"))
    three.ok(three.lay_off("Ann", 1, "H4"))
    before = three.live_scores()
    three.ok(three.act("Bob", "renege"))
    for refused in (three.lay_off("Bob", 1, "H5"), three.act("Bob", "take", "SK"), three.act("Bob", "out")):
        assert refused.status_code == 422 and "Bob reneged this hand and is out of it" in error(refused)
    assert three.live_scores() == {**before, "Bob": -100}
    three.ok(three.lay_off("Cy", 1, "H5"))  # the others play on


def test_the_turn_passes_by_whoever_reneged_and_their_hand_is_not_asked_for(three):
    """Bob reneges in his turn: the table passes his turn on to Cy, and from Ann the turn
    goes to Cy again, never to Bob; at the hand's end Bob's hand is not asked for (it
    does not count), and the hand is counted without it."""
    turn = lambda: re.search(r'data-turn="([^"]+)"', three.page()).group(1)  # noqa: E731
    three.ok(three.act("Bob", "take", "SK"))
    three.ok(three.act("Bob", "renege"))
    assert turn() == "Bob" and "Discarded: pass to Cy" in three.page()
    for expected in ("Cy", "Ann", "Cy"):
        three.ok(three.post("/pass"))
        assert turn() == expected
    assert three.log()[-1] == "Ann discarded: Cy’s turn"
    three.ok(three.act("Cy", "out"))
    end = three.page("/end")
    assert 'data-hand="Ann"' in end and 'data-hand="Bob"' not in end
    three.ok(three.end_hand({"Ann": "S2"}))
    assert three.totals() == {"Ann": -5, "Bob": -100, "Cy": 0}
    bob = re.search(r'data-side-score="Bob".*?</details>', three.page("/hands/1"), re.S)
    assert bob and "Reneged" in bob.group(0)
    assert "No cards left in hand" not in bob.group(0)  # his hand does not count: no word that he held none


def test_a_renege_option_sets_the_penalty(client):
    game = Robber(client, ["Ann", "Bob"], renege_penalty=50)
    game.ok(game.act("Ann", "renege"))
    assert game.live_scores()["Ann"] == -50


def test_the_live_score_starts_each_hand_at_zero(three):
    assert three.live_scores() == {"Ann": 0, "Bob": 0, "Cy": 0}
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.act("Bob", "out"))
    three.ok(three.end_hand({"Ann": "", "Cy": ""}))
    assert three.live_scores() == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert 'data-total="Ann">15<' in three.page()


def test_the_score_strip_at_the_hand_end_counts_the_hands_entered(three):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.act("Bob", "out"))
    assert 'data-round-score="Ann">15<' in three.page("/end")
    three.ok(three.post("/end/hand", player="Ann", round_no="1", cards=["SK"]))
    assert 'data-round-score="Ann">5<' in three.page("/end")


def test_the_stock_ran_out_ends_the_hand_and_every_hand_counts(three):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    moved = three.ok(three.act("Cy", "stock"))
    assert moved.headers["Location"].endswith("/robber/end")
    end = three.page("/end")
    assert "The stock ran out (Cy drew the last card)." in end
    refused = three.meld("Bob", "D5 D6 D7")
    assert refused.status_code == 422 and "count the hands" in error(refused)
    three.ok(three.end_hand({"Ann": "DK", "Bob": "", "Cy": "SA S2"}))
    assert three.totals() == {"Ann": 5, "Bob": 0, "Cy": -20}
    assert three.export()["rounds"][0] == {
        "events": [{"type": "meld", "player": "Ann", "cards": ["H4", "S4", "C4"]}],
        "hands": {"Ann": ["DK"], "Bob": [], "Cy": ["SA", "S2"]}}


def test_the_turn_passes_on_and_a_stale_pass_is_refused(three, db):
    assert 'data-turn="Bob"' in three.page()
    three.ok(three.post("/pass", turn="Bob"))
    assert 'data-turn="Cy"' in three.page()
    before = stored(db, three.game_id)
    stale = three.post("/pass", turn="Bob")
    assert stale.status_code == 409 and "already passed to Cy" in error(stale)
    assert stored(db, three.game_id) == before


def test_a_form_sent_twice_counts_once(three, db):
    three.ok(three.meld("Ann", "H4 S4 C4", request_id="same"))
    again = three.meld("Ann", "H4 S4 C4", request_id="same")
    assert again.status_code == 303
    assert len(stored(db, three.game_id)[0]) == 1


# ---------------------------------------------------------------------------------------
# Undo and delete.


def test_undo_takes_back_the_last_play_and_refuses_a_stale_one(three, db):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    first = three.meld_id(1)
    three.ok(three.lay_off("Bob", 1, "D4"))
    before = stored(db, three.game_id)
    stale = three.post("/undo", last=str(first))
    assert stale.status_code == 409
    assert stored(db, three.game_id) == before
    last = re.findall(r'data-play="(\d+)"', three.page())[-1]
    three.ok(three.post("/undo", last=last))
    assert three.log() == ["Ann melds 4♠ 4♥ 4♣ (meld 1)"]
    assert three.live_scores()["Ann"] == 15


def test_undo_reopens_the_count_of_the_last_hand(three):
    three.ok(three.act("Ann", "out"))
    three.ok(three.end_hand({"Bob": "S2", "Cy": ""}))
    three.ok(three.post("/undo", last="0"))
    assert "Hand 1 is over" in three.page("/end")


def test_delete_a_play_and_refuse_deleting_a_meld_with_a_lay_off(three, db):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.lay_off("Bob", 1, "D4"))
    meld, lay_off = (int(i) for i in re.findall(r'data-play="(\d+)"', three.page()))
    before = stored(db, three.game_id)
    refused = three.post(f"/plays/{meld}/delete", revision="0")
    assert refused.status_code == 422 and "lies on this meld: change or delete that lay-off first" in error(refused)
    assert stored(db, three.game_id) == before
    deleted = three.ok(three.post(f"/plays/{lay_off}/delete", revision="0"))
    notice = text(three.client.get(deleted.headers["Location"]))
    assert "Deleted Bob&#39;s lay-off (4♦)." in notice and 'data-action="bring-back"' in notice
    assert three.log() == ["Ann melds 4♠ 4♥ 4♣ (meld 1)"]
    gone = three.post(f"/plays/{lay_off}/delete", revision="0")
    assert gone.status_code in (404, 409)
    # The notice brings it back, as it was (once, however often it is sent).
    token = re.search(r'name="deleted" value="([^"]+)"', notice).group(1)
    for _ in range(2):
        three.ok(three.post("/plays/restore", deleted=token))
    assert three.log() == ["Ann melds 4♠ 4♥ 4♣ (meld 1)", "Bob steals meld 1 from Ann with 4♦"]


def test_deleting_the_meld_that_took_the_top_card_is_refused(three, db):
    three.ok(three.act("Bob", "take", "SK"))
    three.ok(three.meld("Bob", "SK SQ SJ"))
    three.ok(three.post("/pass", turn="Bob"))
    meld = int(re.findall(r'data-play="(\d+)"', three.page())[1])
    refused = three.post(f"/plays/{meld}/delete", revision="0")
    assert refused.status_code == 422 and error(refused) == (
        "Bob took the discard pile: its top card K♠ must go into a meld or lay-off by Bob first (or Bob reneges).")


# ---------------------------------------------------------------------------------------
# Partnerships.


def test_partners_own_melds_together_and_add_their_scores(client):
    game = Robber(client, ["Ann", "Bob", "Cy", "Dee"], partnerships="13")
    game.ok(game.meld("Ann", "H4 S4 C4"))
    game.ok(game.lay_off("Cy", 1, "D4"))
    assert game.log()[-1] == "Cy adds 4♦ to meld 1"  # a partner's meld: no steal
    game.ok(game.lay_off("Bob", 1, "D4"))
    assert game.log()[-1] == "Bob steals meld 1 from Ann with 4♦"
    assert game.live_scores() == {"Ann & Cy": 0, "Bob & Dee": 25}
    assert re.search(r'data-owner="Bob" data-side="Bob &amp; Dee"', game.page())
    game.ok(game.meld("Cy", "H9 H10 HJ"))
    game.ok(game.act("Ann", "out"))
    game.ok(game.end_hand({"Bob": "SA", "Cy": "S2", "Dee": "S3"}))
    # Ann & Cy: 50 − 5 = 45; Bob & Dee: 25 − 15 − 5 = 5; each member shows the team's score.
    assert game.totals() == {"Ann": 45, "Bob": 5, "Cy": 45, "Dee": 5}


def test_a_partner_reneges_and_the_partnerships_melds_still_count(client):
    game = Robber(client, ["Ann", "Bob", "Cy", "Dee"], partnerships="13")  # Ann & Cy, Bob & Dee
    game.ok(game.meld("Cy", "S7 H7 C7"))
    game.ok(game.lay_off("Ann", 1, "D7"))
    assert game.log()[-1] == "Ann adds 7♦ to meld 1"
    game.ok(game.act("Cy", "renege"))
    assert game.live_scores() == {"Ann & Cy": 20 - 100, "Bob & Dee": 0}
    game.ok(game.act("Bob", "out"))
    game.ok(game.end_hand({"Ann": "H2", "Cy": "SK", "Dee": ""}))
    # the melds 20, less Ann's H2 5, less 100 for Cy's renege; Cy's SK is not counted
    assert game.totals() == {"Ann": -85, "Bob": 0, "Cy": -85, "Dee": 0}
    hand = game.page("/hands/1")
    assert re.search(r'data-owned-meld="\d+">Meld 1 .*?: \+20 <small>', hand)
    assert re.search(r'data-left="Cy">Left in hand .*?: not counted</li>', hand)
    assert re.search(r'data-left="Ann">Left in hand .*?: −5</li>', hand)
    assert "the melds they hold still count: in partnership play melds belong to the partnership" in hand


# ---------------------------------------------------------------------------------------
# The end of the game: target 400 (here lowered), a tie at the top plays on.


def test_the_game_ends_at_the_target_and_a_tie_plays_on(client):
    game = Robber(client, ["Ann", "Bob"], target=15)
    game.ok(game.meld("Ann", "H4 S4 C4"))
    game.ok(game.meld("Bob", "H5 S5 C5"))
    game.ok(game.act("Ann", "out"))
    game.ok(game.end_hand({"Bob": ""}))
    assert "data-tie" in game.page("/game")
    game.ok(game.meld("Bob", "H6 S6 C6"))
    game.ok(game.act("Bob", "out"))
    done = game.end_hand({"Ann": ""})
    assert done.headers["Location"].endswith("/robber/game")
    html = game.page("/game")
    assert 'data-winner="Bob"' in html and "Bob wins" in html
    refused = game.meld("Ann", "H7 S7 C7")
    assert refused.status_code == 422 and "game is over" in error(refused)


# ---------------------------------------------------------------------------------------
# Live polling, the game page, the hand detail, export and import.


def test_live_answers_204_until_the_game_changes(three, client):
    version = int(re.search(r'data-version="(\d+)"', three.page()).group(1))
    assert client.get(three.url + f"/live?since={version}").status_code == 204
    three.ok(three.meld("Ann", "H4 S4 C4"))
    data = client.get(three.url + f"/live?since={version}").get_json()
    assert data["screen"] == "play" and data["version"] == version + 1
    assert set(data["regions"]) == {"scores", "turn", "board", "log", "melds", "taken"}
    assert log_lines(data["regions"]["log"]) == ["Ann melds 4♠ 4♥ 4♣ (meld 1)"]
    three.ok(three.act("Bob", "out"))
    data = client.get(three.url + f"/live?since={version}").get_json()
    assert data["screen"] == "end" and data["url"].endswith("/robber/end")


def test_the_game_page_hand_detail_and_score_sheet(three, client):
    three.ok(three.meld("Ann", "H9 H10 HJ HQ HK HA"))
    three.ok(three.act("Ann", "out"))
    three.ok(three.end_hand({"Bob": "S2 S3 S4 S5 SJ SA", "Cy": ""}))
    html = three.page("/game")
    assert "data-chart" in html and 'data-total="Bob">' + MINUS + "45<" in html
    assert "Running totals by hand" in html and "Totals after hand 1:" in html  # Robber's rounds are hands
    assert "by round" not in html and "after round" not in html
    spanish = text(client.get(three.url + "/game", headers={"Accept-Language": "es"}))
    assert "Totales acumulados por mano" in spanish
    hand = named(three.page("/hands/1"))
    assert "made by Ann" in hand and "+120" in hand
    assert client.get(three.url + "/hands/9").status_code == 404
    sheet = text(client.get(three.url + "/export.csv")).lstrip("\ufeff").splitlines()
    assert sheet == ["Hand,Dealer,Ann,Bob,Cy", "1,Ann,120,-45,0", "Total,,120,-45,0"]


def test_the_export_scores_like_the_command_line_and_imports_back(three, client):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    three.ok(three.lay_off("Bob", 1, "H6"))
    three.ok(three.act("Cy", "renege"))
    three.ok(three.act("Bob", "out"))
    three.ok(three.end_hand({"Ann": "SK", "Cy": "S2"}))
    three.ok(three.meld("Cy", "D5 D6 D7"))
    doc = three.export()
    scored = gamefile.score_document(doc)
    assert scored["totals"] == three.totals() == {"Ann": -10, "Bob": 40, "Cy": -100}
    upload = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                         content_type="multipart/form-data")
    assert upload.status_code == 303, text(upload)
    key = re.search(r"/g/([^/]+)/robber/game$", upload.headers["Location"]).group(1)
    copy = client.get(f"/g/{key}/robber/export")
    assert json.loads(text(copy)) == doc
    assert log_lines(text(client.get(f"/g/{key}/robber"))) == ["Cy melds 5♦ 6♦ 7♦ (meld 1)"]


def test_an_imported_stock_run_out_hand_reads_back(client):
    doc = {"format": "scorekeeper/1", "variant": "robber", "rules": {}, "players": ["A", "B"], "teams": None,
           "rounds": [{"events": [{"type": "meld", "player": "A", "cards": ["S2", "S3", "S4"]}],
                       "hands": {"A": [], "B": ["HK"]}}]}
    upload = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                         content_type="multipart/form-data")
    assert upload.status_code == 303, text(upload)
    key = re.search(r"/g/([^/]+)/robber/game$", upload.headers["Location"]).group(1)
    assert json.loads(text(client.get(f"/g/{key}/robber/export"))) == doc
    # The file does not say who drew the last card: the pages do not make it up.
    assert "The stock ran out." in text(client.get(f"/g/{key}/robber/hands/1"))
    assert re.search(r'data-round="1">.*?<td>the stock ran out</td>', text(client.get(f"/g/{key}/robber/game")), re.S)
    reopened = client.post(f"/g/{key}/robber/undo", data={"request_id": "u1", "last": "0"})
    assert reopened.status_code == 303
    assert "The stock ran out." in text(client.get(f"/g/{key}/robber/end"))
    last = re.findall(r'data-play="(\d+)"', text(client.get(f"/g/{key}/robber")))[-1]
    client.post(f"/g/{key}/robber/undo", data={"request_id": "u2", "last": last})
    html = text(client.get(f"/g/{key}/robber"))
    assert "Took back the stock running out." in html and "data-ended" not in html


# ---------------------------------------------------------------------------------------
# Read-only links and CSRF.


def test_the_read_only_link_sees_everything_and_changes_nothing(three, client, db):
    three.ok(three.meld("Ann", "H4 S4 C4"))
    viewer = client.application.test_client()
    view = f"/g/{three.view_key()}/robber"
    html = text(viewer.get(view))
    assert "data-read-only" in html and 'id="play"' not in html
    assert log_lines(html) == ["Ann melds 4♠ 4♥ 4♣ (meld 1)"]
    assert "data-action=\"delete\"" not in html and "data-action=\"undo\"" not in html
    for path in ("/game", "/hands/1", "/export", "/export.csv", "/live?since=0"):
        assert viewer.get(view + path).status_code == 200, path
    before = stored(db, three.game_id)
    play = next(iter(re.findall(r'data-play="(\d+)"', html)))
    for path in ("/play", "/pass", "/undo", f"/plays/{play}/delete", "/end/hand", "/end"):
        assert viewer.post(view + path, data={"player": "Ann", "action": "out"}).status_code == 403, path
    assert stored(db, three.game_id) == before


def test_every_post_needs_a_csrf_token(tmp_path):
    client = csrf_checking_client(tmp_path)
    token = form_token(text(client.get("/games/new?variant=robber")))
    made = client.post("/games", data={"variant": "robber", "seat_0": "A", "seat_1": "B", "first_dealer": "0",
                                       "partnerships": "none", "rule_ace_low": "5", "rule_renege_penalty": "100",
                                       "rule_target": "400", "csrf_token": token})
    assert made.status_code == 303
    game = made.headers["Location"]
    form = {"player": "A", "action": "play", "cards": ["S2", "S3", "S4"]}
    for path in ("/play", "/pass", "/undo", "/plays/1/delete", "/end/hand", "/end"):
        assert client.post(game + path, data=form).status_code == 400, path
    assert "No plays yet" in text(client.get(game))
    good = re.search(r'name="csrf_token" value="([^"]+)"', text(client.get(game))).group(1)
    assert client.post(game + "/play", data={**form, "csrf_token": good}).status_code == 303
    assert log_lines(text(client.get(game))) == ["A melds 2♠ 3♠ 4♠ (meld 1)"]


def test_the_game_page_says_who_won_in_one_sentence(client):
    game = Robber(client, ["Wes", "Xia"], target=50)
    game.ok(game.meld("Xia", "S9 S10 SJ"))
    game.ok(game.act("Xia", "out"))
    game.ok(game.end_hand({"Wes": ""}))
    status = re.search(r'data-status>(.*?)</p>', game.page("/game"), re.S).group(1)
    assert re.sub(r"<[^>]+>", "", status).strip() == "Xia wins with 50."


def test_delete_after_a_rename_sends_the_plays_revision_and_works(three, client, db):
    """Issue 14, item 4: the delete form sent revision 0 whatever the play's revision, so
    once a rename bumped it every delete was refused (409); a renege's was a 500."""
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.act("Bob", "renege"))
    ann = next(p for p in players.everyone(db, players.EVERY_GAME) if p.name == "Ann")
    players.rename(db, ann.id, "Annie", editable=players.EVERY_GAME)
    html = three.page()
    forms = dict(re.findall(r'action="[^"]*/plays/(\d+)/delete".*?name="revision" value="(\d+)"', html, re.S))
    assert sorted(forms.values()) == ["0", "1"]  # Annie's meld was renamed: revision 1
    for play_id, revision in forms.items():
        three.ok(three.post(f"/plays/{play_id}/delete", revision=revision))
    assert three.log() == []


def test_a_deleted_play_comes_back_after_its_player_was_renamed(three, client, db):
    """Robber Rummy's notice keeps the seat too: the play comes back credited to the
    name the seat has now."""
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    three.ok(three.meld("Ann", "H4 S4 C4"))
    (meld,) = (int(i) for i in re.findall(r'data-play="(\d+)"', three.page()))
    deleted = three.ok(three.post(f"/plays/{meld}/delete", revision="0"))
    token = re.search(r'name="deleted" value="([^"]+)"', text(client.get(deleted.headers["Location"]))).group(1)
    ann = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "Ann")
    assert client.post(f"/players/{ann}/rename", data={"name": "Anna", "expected": "Ann"}).status_code == 303
    three.ok(three.post("/plays/restore", deleted=token))
    assert three.log() == ["Anna melds 4♠ 4♥ 4♣ (meld 1)"]


# ---------------------------------------------------------------------------------------
# Changing a play: its player, its cards, the meld a lay-off lies on.


def edit_link(html: str, line: int) -> str | None:
    """The Edit link of the log's line ``line`` (from 0), or None if it has none."""
    items = re.findall(r'<li data-play="\d+"[^>]*>.*?</li>', html, re.S)
    found = re.search(r'<a class="edit" href="([^"]+)"', items[line])
    return found.group(1) if found else None


def test_a_meld_a_lay_off_and_going_out_have_an_edit_link_the_rest_delete_only(three):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    three.ok(three.act("Bob", "take", "H6"))
    three.ok(three.lay_off("Bob", 1, "H6"))
    three.ok(three.act("Bob", "out"))
    lines = re.findall(r'<li data-play="(\d+)" data-type="(\w+)"', three.page_of_log())
    assert [(kind, edit_link(three.page_of_log(), n) is not None) for n, (_id, kind) in enumerate(lines)] == [
        ("meld", True), ("take", False), ("layoff", True), ("out", True)]
    page = three.client.get(edit_link(three.page_of_log(), 2))
    assert page.status_code == 200
    assert "Bob steals meld 1 from Ann with" in named(text(page))
    take = lines[1][0]
    only = text(three.client.get(f"{three.url}/plays/{take}/edit"))
    assert "This play can only be deleted" in only and 'id="edit"' not in only


def test_a_steal_changed_to_another_meld_and_its_cards_scores_as_if_logged_so(three, client):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    three.ok(three.meld("Cy", "S9 S10 SJ"))
    three.ok(three.lay_off("Bob", 1, "H6"))
    steal = re.findall(r'<li data-play="(\d+)"', three.page())[2]
    form = text(three.client.get(f"{three.url}/plays/{steal}/edit"))
    assert re.search(r'data-meld-number="2"[^>]*>.*?Cy’s', form, re.S)  # the melds as they were, owners then
    spades = str(three.meld_id(2))
    three.ok(three.post(f"/plays/{steal}", player="Bob", cards=["SQ"], meld=spades, revision="0", save="1"))
    assert three.log()[2] == "Bob steals meld 2 from Cy with Q♠"
    logged_so = Robber(client.application.test_client(), ["Ann", "Bob", "Cy"])
    logged_so.ok(logged_so.meld("Ann", "H3 H4 H5"))
    logged_so.ok(logged_so.meld("Cy", "S9 S10 SJ"))
    logged_so.ok(logged_so.lay_off("Bob", 2, "SQ"))
    assert three.live_scores() == logged_so.live_scores() and three.log() == logged_so.log()


def test_a_change_a_later_play_cannot_follow_is_refused_and_changes_nothing(three, db):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    three.ok(three.lay_off("Bob", 1, "H6"))
    three.ok(three.lay_off("Cy", 1, "H7"))
    before = stored(db, three.game_id)
    first = re.findall(r'<li data-play="(\d+)"', three.page())[0]
    refused = three.post(f"/plays/{first}", player="Ann", cards=["D3", "D4", "D5"], revision="0", save="1")
    assert refused.status_code == 422 and error(refused)
    assert stored(db, three.game_id) == before
    assert three.post(f"/plays/{first}", player="Zed", cards=["H3", "H4", "H5"], revision="0",
                      save="1").status_code == 422
    assert stored(db, three.game_id) == before


def test_a_read_only_link_has_no_edit_link_and_cannot_open_the_page(three, client):
    three.ok(three.meld("Ann", "H3 H4 H5"))
    view = f"/g/{three.view_key()}"
    other = client.application.test_client()
    html = text(other.get(f"{view}/robber"))
    assert 'class="edit"' not in html
    play = re.findall(r'<li data-play="(\d+)"', html)[0]
    assert other.get(f"{view}/robber/plays/{play}/edit").status_code == 403
    assert other.post(f"{view}/robber/plays/{play}", data={"player": "Bob", "cards": ["H3", "H4", "H5"],
                                                            "save": "1"}).status_code == 403


def test_a_game_over_shows_its_last_hand_scored_in_the_strip(client):
    """Once the game is over, the hand's strip gives its score with the cards left in hand
    counted (Bob's K♠ −10, Ann's 4♣ −5), as the hand's page does, not the melds alone."""
    two = Robber(client, ["Ann", "Bob"], target=10)  # Bob's turn (Ann dealt)
    two.ok(two.meld("Bob", "H4 S4 C4"))
    two.ok(two.act("Bob", "out"))
    two.ok(two.end_hand({"Ann": "D4"}))
    strip = two.page()  # the table, the game over
    shown = {p: number(v) for p, v in re.findall(r'data-round-score="([^"]*)">([^<]*)<', strip)}
    assert shown == {"Ann": -5, "Bob": 15}, shown


def test_a_hands_rules_page_quotes_its_own_ace_low_and_target(client):
    game = Robber(client, ["Ann", "Bob"], ace_low=1, target=300)
    page = re.sub(r"<[^>]+>", "", text(client.get(f"/g/{game.key}/rules")))
    assert "an ace played low (A-2-3) 1." in page and "First to the target (300) wins" in page


def test_each_meld_carries_what_a_play_on_it_scores_for_a_phone_offline(client):
    """games/worth.py's data on each meld choice and at /worth, as the game computes it,
    safe in its attribute whatever the players are called (a quote, an apostrophe, <)."""
    from html import unescape

    from scorekeeper.games import robber
    from scorekeeper.games.cards import parse_card

    names = ["O'Neil", 'Sam "Ace"', "<b>Bo</b>", "Di"]
    game = Robber(client, names, partnerships="13")
    game.ok(game.meld("O'Neil", "S5 S6 S7"))
    attribute = re.search(r"data-meld-number=\"1\" data-worth='([^']*)'", game.page()).group(1)
    carried = json.loads(unescape(attribute))
    round_ = robber.Round(names, robber.resolve_rules({}, 4), {"O'Neil": "1", "<b>Bo</b>": "1",
                                                              'Sam "Ace"': "2", "Di": "2"})
    round_.meld("O'Neil", [parse_card(c) for c in ("S5", "S6", "S7")])
    assert carried == robber.worth_melds(round_, {})[0].as_json()
    assert carried["moves"]['Sam "Ace"'] == {"O'Neil": -30, "<b>Bo</b>": -30, 'Sam "Ace"': 30, "Di": 30}
    new = client.get(game.url + "/worth")
    assert new.status_code == 200 and new.get_json() == robber.worth_new(round_).as_json()


def test_robber_s_own_styles_come_with_its_pages_alone(client, three, table):
    """robber.css (chips, the board, the log's Delete beside its words) on Robber's pages;
    the Iceberg table, under its 40 KB budget, does without."""
    link = "/static/robber.css"
    for path in ("", "/game"):  # the table, the game page
        assert link in text(client.get(three.url + path)), path
    table.new_game(["A", "B"])
    assert link not in table.page() and client.get(link).status_code == 200
