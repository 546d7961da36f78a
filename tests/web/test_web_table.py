"""The table screen: turns, melds, lay-offs, aces, refusals, undo, edit and delete."""
import html
import json
import re

import pytest
from web_table import seed_round


def play_count(db, game_id):
    return db.execute("SELECT count(*) FROM plays WHERE game = ?", [game_id]).fetchone()[0]


@pytest.mark.parametrize("dealer, first", [(0, "B"), (1, "C"), (2, "A")])
def test_first_turn_is_the_player_after_the_dealer(table, dealer, first):
    table.new_game(["A", "B", "C"], dealer=dealer)
    assert table.turn() == first
    assert table.dealer() == ["A", "B", "C"][dealer]


def test_pass_moves_the_turn_round_the_table(table):
    table.new_game(["A", "B", "C"], dealer=0)
    seen = []
    for _ in range(4):
        seen.append(table.turn())
        table.pass_turn()
    assert seen == ["B", "C", "A", "B"]


def test_meld_shows_who_made_it_and_its_points(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    html = table.page()
    item = re.search(r'<li data-play="\d+" data-type="meld" data-player="A"[^>]*>.*?</li>', html, re.S).group(0)
    assert "+30" in item and "run" in item
    assert table.round_scores() == {"A": 30, "B": 0}


def test_the_undo_help_about_passes_shows_while_a_pass_is_the_last_play(table):
    """"Undo takes back a pass while it is the last play." beside "Undo: A's pass", not
    beside the Undo of a lay-off that followed a pass (a tester read it as wrong)."""
    table.new_game(["A", "B"], dealer=1)
    help_ = "Undo takes back a pass while it is the last play."
    table.pass_turn()
    assert help_ in table.page()
    table.meld("B", "S7", "S8", "S9")
    assert help_ not in table.page()


def test_the_log_tells_a_pass_on_its_own_players_play_only(table):
    """A pass is told on the line of the play before it when that play is its player's;
    a pass after another player's play, or after a pass, has a line of its own (no "·")."""
    table.new_game(["A", "B"], dealer=1)  # A's turn
    table.pass_turn()  # A's pass: a line of its own
    table.meld("A", "S7", "S8", "S9")  # A lays down in B's turn
    table.pass_turn()  # B's pass: not A's play's
    table.meld("A", "H7", "H8", "H9")
    table.pass_turn()  # A's pass, on A's line
    lines = [re.sub(r"<[^>]+>", "", li).split("Edit")[0].split("Delete")[0].strip()
             for li in re.findall(r"<li data-play=.*?</li>", table.page(), re.S)]
    lines = [" ".join(line.split()) for line in lines]
    assert lines[0] == "A passed to B"
    assert lines[1].startswith("A") and "passed" not in lines[1]
    assert lines[2] == "B passed to A"
    assert lines[3].endswith("· A passed to B")


@pytest.mark.parametrize("cards, message", [
    (["S7", "H9"], "is not a meld"),
    (["S7", "S9", "S10"], "is not a meld: a set is one rank, a run is one suit in sequence"),
    (["SA", "HA"], "aces never take part in melds"),
    (["S7"], "a meld needs at least two cards"),
])
def test_an_illegal_meld_is_refused_in_plain_words_and_nothing_is_saved(table, db, cards, message):
    table.new_game(["A", "B"])
    before = play_count(db, table.game_id)
    response = table.post("/plays", {"player": "B", "cards": cards, "meld": "", "confirm": "1"}, expect=422)
    html = response.get_data(as_text=True)
    assert 'role="alert"' in html and message in html
    assert "Traceback" not in html and "round 1, event" not in html
    assert play_count(db, table.game_id) == before


def test_a_lay_off_that_does_not_fit_is_refused(table, db):
    table.new_game(["A", "B"])
    table.meld("B", "S7", "S8", "S9")
    before = play_count(db, table.game_id)
    response = table.lay_off("A", 1, "H10", expect=422)
    assert "10♥ does not fit 7♠ 8♠ 9♠: a run of spades takes only spades." in response.get_data(as_text=True)
    assert play_count(db, table.game_id) == before


def test_a_card_the_deck_no_longer_has_is_refused_and_disabled(table):
    table.new_game(["A", "B"])
    table.meld("B", "S7", "S8", "S9")
    assert re.search(r'value=S8 disabled', table.page())
    response = table.meld("A", "S8", "H8", expect=422)
    assert "8♠ is already on the table (one deck has one 8♠)." in response.get_data(as_text=True)


def test_lay_offs_score_each_card_and_anyone_may_lay_off(table):
    table.new_game(["A", "B"], dealer=1)  # A's turn
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("B", 1, "S10", "SJ")  # B lays off on A's meld during A's turn
    html = table.page()
    item = re.search(r'<li data-play="\d+" data-type="layoff" data-player="B"[^>]*>.*?</li>', html, re.S).group(0)
    assert "10♠</span> as 4th card 40, " in item and "J♠</span> as 5th card 50" in item and "+90" in item
    assert table.round_scores() == {"A": 30, "B": 90}
    # German ordinals ("4.") next to the points read as one number without their words.
    german = table.client.get(f"{table.url}/table", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "10♠</span> als 4. Karte 40, " in german and "J♠</span> als 5. Karte 50" in german


def test_german_names_sets_and_cards_as_german_writes_them(table):
    table.new_game(["A", "B"], dealer=1)
    german = {"Accept-Language": "de"}
    preview = table.client.get(f"{table.url}/preview?player=A&meld=&cards=SK&cards=HK&cards=DK", headers=german)
    shown = preview.get_data(as_text=True)  # not "Satz aus Könige" (its case: "Königen"), nor "Satz: Könige: …"
    assert "Satz Könige" in shown and "Satz: " not in shown
    table.meld("A", "SK", "HK", "DK")
    html = table.client.get(f"{table.url}/table", headers=german).get_data(as_text=True)
    assert 'aria-label="Pik-König"' in html and 'aria-label="Kreuz-Ass"' in html  # as German writes them


def test_check_without_javascript_previews_and_saves_nothing(table, db):
    table.new_game(["A", "B"])
    response = table.post("/check", {"player": "B", "cards": ["DJ", "CJ", "HJ"], "meld": ""}, expect=200)
    html = response.get_data(as_text=True)
    assert "Set of jacks" in html and "<strong>30</strong> points" in html
    assert 'value=DJ checked' in html  # the picks are kept for Confirm
    assert 'data-action="confirm"' in html
    assert play_count(db, table.game_id) == 0
    assert f'formaction="{table.url}/check"' in html  # its own address, wherever the page is drawn
    # A page drawn when Check went to /plays with the play: sent on, nothing logged.
    old = table.post("/plays", {"player": "B", "cards": ["DJ", "CJ", "HJ"], "meld": "", "check": "1"}, expect=307)
    assert old.headers["Location"].endswith("/check") and play_count(db, table.game_id) == 0
    refused = table.post("/check", {"player": "B", "meld": ""}, expect=422)
    assert "Pick the cards first." in refused.get_data(as_text=True) and play_count(db, table.game_id) == 0


def test_a_form_refused_before_the_table_is_read_says_why_on_the_table(table, client, db):
    """A play whose form cannot be what a page sends is refused before anything is read:
    without the script, a page says why, with the way back to the table."""
    table.new_game(["A", "B"], dealer=1)
    refused = table.post("/plays", {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1",
                                    "round_no": "x"}, expect=422)
    page = refused.get_data(as_text=True)
    assert re.search(r'<p class="error" role="alert" data-error>[^<]*whole number', page)
    assert "Nothing was saved" in page and f'href="{table.url}/table"' in page
    assert play_count(db, table.game_id) == 0


def test_preview_endpoint_shows_each_added_cards_points(table, client):
    table.new_game(["A", "B"])
    table.meld("B", "DJ", "CJ")
    target = table.meld_id(1)
    html = client.get(f"{table.url}/preview?player=A&cards=HJ&cards=SJ&meld={target}").get_data(as_text=True)
    assert 'data-ok="1"' in html and "3rd card: <strong>20</strong>" in html and "4th card: <strong>40</strong>" in html
    bad = client.get(f"{table.url}/preview?player=A&cards=H2&meld={target}").get_data(as_text=True)
    assert 'data-ok="0"' in bad and "does not fit" in bad


def test_preview_names_special_melds(table, client):
    table.new_game(["A", "B"])
    html = client.get(f"{table.url}/preview?player=A&" + "&".join(
        f"cards=H{r}" for r in ("3", "5", "7", "9", "J", "K"))).get_data(as_text=True)
    assert "Special meld: odds in one suit" in html and "<strong>700</strong>" in html


def test_ace_buttons_only_for_aces_still_in_the_deck(table):
    table.new_game(["A", "B"])
    table.ace("B", "SA")
    html = table.page()
    assert 'value=\"SA\"' not in html and 'value=\"HA\"' in html
    assert "SA face up" in html.replace('<span class="k b s" role="img" aria-label="ace of spades">A♠</span>', "SA")


def test_last_ace_says_the_round_ends_after_that_turn(table):
    table.new_game(["A", "B"], dealer=1)
    for player, card in (("A", "SA"), ("B", "HA"), ("A", "DA")):
        table.ace(player, card)
    response = table.ace("B", "CA")
    html = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "the round ends after B’s turn" in html or "the round ends after B's turn" in html
    assert 'data-last-ace' in html and 'data-action="count"' in html
    # B finishes the turn, from this page or one loaded again: its play form stays, B's.
    assert '<form id="play"' in html and 'value="B" checked' in html
    assert 'data-action="pass"' not in html
    # Nobody else may play now.
    table.meld("B", "S7", "S8", "S9")
    refused = table.meld("A", "H7", "H8", "H9", expect=422)
    assert "B exposed the last ace: only B plays on, to finish that turn, then the round ends" in \
        refused.get_data(as_text=True)
    assert "The round is over" in table.pass_turn(expect=422).get_data(as_text=True)


def test_two_decks_let_a_card_be_picked_twice(table):
    table.new_game(["A", "B", "C", "D"])
    page = table.page()
    assert 'value=S9><b>' in page and "data-second" in page  # the script adds its second copy
    # Without the script a picked card's second copy has a cell of its own (after Check).
    checked = table.post("/check", {"player": "B", "cards": ["S9"], "meld": ""}, 200)
    assert 'value=S9 data-copy=2>' in checked.get_data(as_text=True)
    table.meld("B", "S9", "S9", "H9")  # both copies in one set
    html = table.page()
    assert 'value=H9 data-one><b>' in html  # one copy left: none for the script to add
    assert re.search(r'value=S9 disabled', html)
    assert "data-copy" not in html


def test_a_pass_from_a_page_that_is_behind_is_refused(table, db):
    table.new_game(["A", "B", "C"])  # B's turn
    table.pass_turn()
    response = table.post("/pass", {"turn": "B"}, expect=409)
    assert "The turn already passed to C (on another phone): nothing was changed." in \
        response.get_data(as_text=True)
    assert play_count(db, table.game_id) == 1


def test_a_play_that_waited_to_be_sent_is_refused_if_the_table_changed_meanwhile(table, db):
    """``seen``: the game's version when a play that then waited (no network) was tapped.
    The same play logged on another phone meanwhile is not logged twice: every kind of
    play that waited is refused, named, when the game changed since; sent on the table
    as it is, it lands."""
    table.new_game(["A", "B", "C"], dealer=2)  # A's turn
    seen = int(re.search(r'data-version="(\d+)"', table.page()).group(1))
    table.meld("A", "S7", "S8", "S9")  # on another phone
    waited = {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1", "seen": str(seen)}
    for path, data, play in [("/plays", waited, "A's meld (7♠ 8♠ 9♠)"),
                             ("/pass", {"turn": "A", "seen": str(seen)}, "A's pass"),
                             ("/aces", {"player": "B", "card": "SA", "seen": str(seen)}, "B's ace (A♠)")]:
        response = table.post(path, data, expect=409)
        assert (f"{play} waited to be sent, and meanwhile the table changed on another phone: it was not "
                "saved. If it is still to be logged, log it again.") in page_text(response), path
    assert play_count(db, table.game_id) == 1
    now = int(re.search(r'data-version="(\d+)"', table.page()).group(1))
    table.post("/pass", {"turn": "A", "seen": str(now)})
    assert table.turn() == "B" and play_count(db, table.game_id) == 2
    table.post("/plays", {**waited, "seen": "x"}, expect=422)  # not a version: refused, nothing saved
    assert play_count(db, table.game_id) == 2


def test_a_game_over_shows_its_last_round_scored_in_the_strip(table):
    """Once the game is over, the table's strip gives the last round's score with the
    hands counted (B's K♥ in hand: −10), as the round's page does, not its points earned."""
    table.new_game(["A", "B"], dealer=1, target=20)  # A's turn
    table.meld("A", "S7", "S8", "S9")
    table.post("/out", {"player": "A"})
    table.hand("B", "HK")
    table.confirm_round(1)
    strip = table.page("/table")
    shown = dict(re.findall(r'data-round-score="([^"]*)">([^<]*)<', strip))
    assert shown == {"A": "30", "B": "−10"}
    assert dict(re.findall(r'data-total="([^"]*)">([^<]*)<', strip)) == {"A": "30", "B": "−10"}


def test_undo_takes_back_the_last_play_and_recomputes(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("A", 1, "S10")
    assert table.round_scores()["A"] == 70
    table.undo()
    assert table.round_scores()["A"] == 30
    table.pass_turn()
    assert table.turn() == "B"
    table.undo()
    assert table.turn() == "A"


def test_undo_with_nothing_to_undo_says_so(table):
    table.new_game(["A", "B"])
    assert "nothing to undo" in table.undo(expect=422).get_data(as_text=True)


def test_edit_an_earlier_play_recomputes_everything(table, client):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("B", 1, "S10")
    first = table.play_ids()[0]
    assert client.get(f"{table.url}/plays/{first}/edit").status_code == 200
    table.post(f"/plays/{first}", {"player": "A", "cards": ["S6", "S7", "S8", "S9"], "save": "1"})
    # A's meld is now 4 cards (30 + 40); B's S10 becomes the 5th card (50).
    assert table.round_scores() == {"A": 70, "B": 50}


def test_edit_check_previews_without_saving(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    first = table.play_ids()[0]
    html = table.post(f"/plays/{first}", {"player": "A", "cards": ["S6", "S7", "S8", "S9"], "check": "1"},
                      expect=200).get_data(as_text=True)
    assert "<strong>70</strong> points" in html
    assert table.round_scores()["A"] == 30


def test_the_edit_page_tells_of_bringing_a_play_back_after_its_delete_button(table):
    """Issue 25: "Deleted, it can be brought back…" sat above a Delete not yet pressed."""
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    html = table.page(f"/plays/{table.play_ids()[0]}/edit")
    button = html.index(">Delete this play</button>")
    assert "Deleted," not in html
    assert html.index("A deleted play can be brought back from the notice shown once it is deleted, or later "
                      "from the game’s changes.") > button


def test_an_edit_that_breaks_a_later_play_is_refused_with_the_reason(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("B", 1, "S10")
    first = table.play_ids()[0]
    response = table.post(f"/plays/{first}", {"player": "A", "cards": ["H7", "H8", "H9"], "save": "1"},
                          expect=422)
    html = response.get_data(as_text=True)
    assert ("That would make a later play illegal: B’s lay-off (10♠) in round 1 — 10♠ does not fit 7♥ 8♥ 9♥: "
            "a run of hearts takes only hearts.") in html.replace("&#39;", "’").replace("'", "’")
    assert table.round_scores() == {"A": 30, "B": 40}


def test_deleting_a_meld_with_a_lay_off_on_it_is_refused(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("B", 1, "S10")
    first = table.play_ids()[0]
    html = table.post(f"/plays/{first}/delete", {}, expect=422).get_data(as_text=True)
    assert "lies on this meld" in html
    assert table.round_scores() == {"A": 30, "B": 40}


def test_delete_a_play_recomputes(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.meld("B", "HJ", "DJ")
    table.lay_off("A", 1, "S10")
    second = table.play_ids()[1]
    table.post(f"/plays/{second}/delete", {})
    assert table.round_scores() == {"A": 70, "B": 0}
    assert table.meld_id(1)
    assert 'data-meld-number="2"' not in table.page()


def test_a_lay_off_keeps_its_meld_when_an_earlier_meld_is_deleted(table):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "H2", "D2")
    table.meld("A", "S7", "S8", "S9")
    table.lay_off("B", 2, "S10")
    first = table.play_ids()[0]
    table.post(f"/plays/{first}/delete", {})
    # The lay-off still lies on the run, now meld 1.
    assert table.round_scores() == {"A": 30, "B": 40}


def test_edit_in_an_earlier_round_recomputes_the_totals(table):
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    round_one = [int(i) for i in re.findall(r'data-play="(\d+)" data-type="meld" data-player="A"',
                                            table.page("/rounds/1"))]
    # A's pair of threes becomes a pair of fives: B's S3 is no longer playable (−20 less).
    table.post(f"/plays/{round_one[1]}", {"player": "A", "cards": ["H5", "C5"], "save": "1"})
    assert table.totals() == {"A": 100, "B": -100, "C": -20}


def test_went_out_leads_to_the_round_end(table):
    table.new_game(["A", "B"], dealer=1)
    response = table.out("A")
    assert response.headers["Location"].endswith(f"{table.url}/end")
    html = table.page()
    assert 'data-action="count"' in html and 'data-action="pass"' not in html


def test_went_out_with_cards_still_picked_is_refused_and_keeps_them(table, db):
    """The "Went out" button sends the picked cards too: ending the round then would
    drop a meld that was never logged (its points lost), so it is refused in plain words."""
    table.new_game(["A", "B"], dealer=1)
    before = play_count(db, table.game_id)
    response = table.post("/out", {"player": "A", "cards": ["DK", "CK", "HK"], "meld": ""}, expect=422)
    html = response.get_data(as_text=True)
    error = re.search(r"data-error>(.*?)<", html).group(1)
    assert error == "You picked K♦ K♣ K♥: log them first (Confirm), then tap Went out. Nothing was saved."
    assert play_count(db, table.game_id) == before
    assert 'data-action="out"' in html  # still the table, the round not over
    assert all(f'value={c} checked' in html for c in ("DK", "CK", "HK"))
    table.meld("A", "DK", "CK", "HK")
    table.out("A")
    assert table.round_scores() == {"A": 30, "B": 0}


@pytest.mark.parametrize("language, said", [
    ("en", "Lay off on: not a whole number."),
    ("de", "Anlegen an: keine ganze Zahl."),
    ("es", "Acomodar en: no es un número entero."),
])
def test_a_meld_number_that_is_no_number_is_refused_in_the_table_s_words(table, db, language, said):
    table.new_game(["A", "B"], dealer=1)
    before = play_count(db, table.game_id)
    response = table.client.post(f"{table.url}/plays", data={"player": "A", "cards": ["S7", "S8", "S9"],
                                                            "meld": "x", "confirm": "1"},
                                 headers={"Accept-Language": language})
    assert response.status_code == 422
    assert re.search(r"data-error>(.*?)<", response.get_data(as_text=True)).group(1) == said
    assert play_count(db, table.game_id) == before
    table.meld("A", "S7", "S8", "S9")  # the same play, "lay off on" left empty: a meld
    assert table.round_scores() == {"A": 30, "B": 0}


def test_table_page_with_css_and_js_is_under_40_kb(table, client):
    table.new_game(["Anne", "Bertrand", "Cecilia", "Dmitri", "Eleanor", "Frederick"])  # two decks
    table.meld("Bertrand", "S7", "S8", "S9")
    table.meld("Bertrand", "HJ", "DJ")
    table.lay_off("Cecilia", 1, "S10")
    for _ in range(3):
        table.pass_turn()
    table.ace("Eleanor", "SA")
    html = client.get(f"{table.url}/table").data
    css = client.get("/static/app.css").data
    js = client.get("/static/app.js").data
    total = len(html) + len(css) + len(js)
    assert total < 40 * 1024, (len(html), len(css), len(js))


def test_export_is_the_game_file(table, client):
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.pass_turn()
    doc = json.loads(client.get(f"{table.url}/export").data)
    assert doc["format"] == "scorekeeper/1" and doc["players"] == ["A", "B"]
    assert doc["rounds"] == [{"events": [{"type": "meld", "player": "A", "cards": ["S7", "S8", "S9"]}]}]


def page_text(response) -> str:
    """A page's words, as read (its tags dropped)."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True)))


def _told(client, response) -> list[str]:
    """The messages the page a write leads to shows (data-flash), as people read them."""
    return _told_at(client, response.headers["Location"])


def _told_at(client, url) -> list[str]:
    html = client.get(url).get_data(as_text=True)
    box = re.search(r"<div class=\"flash\"[^>]*>(.*?)</div>", html, re.S)
    return [re.sub(r"<[^>]+>", "", p).replace("&#39;", "'")
            for p in re.findall(r"<p>(.*?)</p>", box.group(1))] if box else []


def test_each_play_is_told_on_the_page_it_leads_to_and_sets_no_cookie(table):
    """A meld, a lay-off, an ace and a pass lead back to the table (``?saved=<play id>``),
    which says what they did, read from the log: no message travels in the session, so
    their answers set no cookie (a changed session is signed, sent and checked again)."""
    table.new_game(["A", "B"], dealer=1)
    table.page()  # the new game's own message (a flash) is shown and gone
    told = {}
    for what, write in (("meld", lambda: table.meld("A", "S7", "S8", "S9")),
                        ("lay-off", lambda: table.lay_off("A", 1, "S10")),
                        ("ace", lambda: table.ace("A", "SA")),
                        ("pass", table.pass_turn)):
        response = write()
        assert "Set-Cookie" not in response.headers, what
        assert re.fullmatch(rf"{table.url}/table\?saved=\d+", response.headers["Location"]), what
        told[what] = _told(table.client, response)
    assert told == {
        "meld": ["A: new run of spades: 7♠ 8♠ 9♠ (meld 1), 30 points."],
        "lay-off": ["A: on meld 1 (7♠ 8♠ 9♠): 10♠ as 4th card 40, 40 points."],
        "ace": ["A: the ace of spades face up."],
        "pass": ["B's turn."],
    }


def test_the_last_ace_is_told_as_the_end_of_the_round(table):
    table.new_game(["A", "B"], dealer=1)
    table.page()
    for player, card in (("A", "SA"), ("B", "HA"), ("A", "DA")):
        assert _told(table.client, table.ace(player, card)) == [
            f"{player}: the ace of {dict(S='spades', H='hearts', D='diamonds')[card[0]]} face up."]
    assert _told(table.client, table.ace("B", "CA")) == [
        "B: the ace of clubs face up.", "That was the last ace: the round ends after B's turn."]


@pytest.mark.parametrize("saved", ["999999", "abc", "", "-1"])
def test_a_saved_play_not_in_the_round_is_not_told(table, saved):
    table.new_game(["A", "B"], dealer=1)
    table.page()
    table.meld("A", "S7", "S8", "S9")
    response = table.client.get(f"{table.url}/table?saved={saved}")
    assert response.status_code == 200 and "data-flash" not in response.get_data(as_text=True)


def test_a_play_of_a_round_already_counted_is_not_told(table):
    table.new_game(["A", "B"], dealer=1)
    table.page()
    location = table.meld("A", "S7", "S8", "S9").headers["Location"]
    table.out("A")
    table.hand("B", "H2", round_no=1)
    table.confirm_round(1)
    table.page()  # the round end's own messages (flashes) are shown and gone
    assert "data-flash" not in table.client.get(location).get_data(as_text=True)


def test_a_play_is_told_only_while_it_is_the_last_of_the_round(table):
    """Reloaded, or gone back to, the page of a play says nothing of it once another play
    followed or it was undone: never "B's turn." when the turn has moved on."""
    table.new_game(["A", "B", "C"], dealer=2)
    table.page()
    passed = table.pass_turn().headers["Location"]
    assert _told(table.client, table.client.post(f"{table.url}/pass")) == ["C's turn."]
    assert _told_at(table.client, passed) == [] and table.turn() == "C"
    melded = table.meld("C", "S7", "S8", "S9").headers["Location"]
    table.undo()
    table.page()  # the undo's own message (a flash) is shown and gone
    assert _told_at(table.client, melded) == []


def test_a_deleted_play_comes_back_after_its_player_was_renamed(table, client, db):
    """The notice keeps whose play it was by seat: renamed meanwhile, the play comes back
    credited to the name the seat has now."""
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    deleted = table.post(f"/plays/{table.play_ids()[0]}/delete", {})
    notice = client.get(deleted.headers["Location"]).get_data(as_text=True)
    token = re.search(r'name="deleted" value="([^"]+)"', notice).group(1)
    a = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "A")
    assert client.post(f"/players/{a}/rename", data={"name": "Ann", "expected": "A"}).status_code == 303
    table.post("/plays/restore", {"deleted": token})
    assert table.round_scores() == {"Ann": 30, "B": 0}
    assert 'data-player="Ann"' in table.page()


@pytest.mark.parametrize("path, data", [
    ("/pass", {}), ("/undo", {"last": "0"}), ("/plays", {"player": "A", "cards": ["S7", "S8", "S9"], "confirm": "1"}),
    ("/aces", {"player": "A", "card": "SA"}), ("/delete", None)])
def test_a_request_id_longer_than_any_page_makes_is_refused_on_every_route(table, app, path, data):
    """One limit for every route that takes a form's key (storage/kernel.py): a key
    longer than 64 characters saves nothing and is said to be the reason."""
    from db_dump import dump

    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "H7", "H8", "H9")
    if data is None:
        path, data = f"/plays/{table.play_ids()[0]}/delete", {}
    before = dump(app.config["DATABASE"])
    response = table.client.post(table.url + path, data={**data, "request_id": "x" * 100_000})
    assert response.status_code in (400, 422), response.status_code
    assert dump(app.config["DATABASE"]) == before
    assert "longer than 64 characters" in response.get_data(as_text=True)


def test_a_long_name_heads_its_column_with_soft_hyphens_where_it_may_break(table, app):
    """Issue 25: six long names broke mid-word in the score strip; a name now breaks where
    one of the app's languages hyphenates it (pyphen), between letters, and reads as it is."""
    from scorekeeper.web.views.helpers import hyphenated_filter

    table.new_game(["Christopher", "Ann-Marie", "Kim"])
    strip = re.search(r'<thead>.*?</thead>', table.page(), re.S).group(0)
    assert re.search(r'data-player="Christopher"[^>]*>Chris\u00adtoph\u00ader</th>', strip)
    assert 'data-player="Kim"' in strip and ">Kim</th>" in strip
    with app.test_request_context():
        marked = hyphenated_filter("Ann-Marie")
    assert marked.replace("\u00ad", "") == "Ann-Marie"
    assert "\u00ad-" not in marked and "-\u00ad" not in marked  # never beside a hyphen of its own
    # Each word of a hyphenated name on its own: the patterns read "Montgomery-Smythe" as one
    # word and broke it "S-mythe" (a new user saw it in the strip).
    with app.test_request_context():
        marked = hyphenated_filter("Catherine-Elizabeth-Montgomery-Smythe")
    assert marked.split("-")[-1] == "Smythe" and "Mont\u00adgo\u00admery" in marked


def test_each_meld_carries_what_a_play_on_it_scores_for_a_phone_offline(table, client):
    """games/worth.py's data: a lay-off's points by place on each meld choice, a new
    meld's by size and its special melds whole at /worth (beside /live), as the game says."""
    table.new_game(["A", "B"])
    table.meld("A", "S7", "S8", "S9")
    assert "data-meld-number=\"1\" data-worth='[40,50,60,70,80,90,100,110,120]'" in table.page()
    new = client.get(f"{table.url}/worth").get_json()
    assert new["steps"][:4] == [0, 10, 20, 40] and new["plays"]["S3 S5 S7 S9 SJ SK"] == 700
