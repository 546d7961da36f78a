"""Hostile input gets a clear refusal, never a 500, and changes nothing (issue 14).

Every case here was a 500 once: ids too large for SQLite or written with non-ASCII
digits, rule values of hundreds or thousands of digits, the same unknown card twice.
"""
from __future__ import annotations

import io
import json
import re

import pytest
from db_dump import dump
from web_table import Table

from scorekeeper.games import registry
from tests.conftest import EXAMPLES

HUGE = "9223372036854775808"  # 2**63: one more than SQLite's largest integer


def text(response) -> str:
    return response.get_data(as_text=True)


@pytest.fixture
def key(client):
    table = Table(client)
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    return table.key


@pytest.mark.parametrize("path", [
    f"/g/{HUGE}-x", "/g/%C2%B2-x", "/g/%D9%A3-x", f"/players/{HUGE}", "/players/%C2%B2",
    "{key}/rounds/" + HUGE, "{key}/plays/" + HUGE + "/edit",
])
def test_urls_that_are_no_ids_are_404(client, key, path):
    assert client.get(path.format(key=f"/g/{key}")).status_code == 404


@pytest.mark.parametrize("path", ["/plays/{n}/delete", "/robber/plays/{n}/delete", "/plays/{n}",
                                  "/counted/rounds/{n}/delete"])
def test_a_post_to_a_play_id_too_large_is_404_and_changes_nothing(client, app, key, path):
    before = dump(app.config["DATABASE"])
    assert client.post(f"/g/{key}" + path.format(n=HUGE), data={"revision": "0"}).status_code == 404
    assert dump(app.config["DATABASE"]) == before


@pytest.mark.parametrize("into", ["²", "9" * 5000, HUGE, "-1", ""])
def test_a_merge_into_no_id_is_refused(client, app, key, into):
    client.get(f"/g/{key}/table")
    before = dump(app.config["DATABASE"])
    response = client.post("/players/1/merge", data={"into": into, "sure": "y"})
    assert response.status_code in (404, 422)
    assert dump(app.config["DATABASE"]) == before


def test_a_counted_round_ended_by_no_seat_is_refused(client, app):
    made = client.post("/games", data={"variant": "gin", "seat_0": "A", "seat_1": "B", "first_dealer": "0"})
    game = re.match(r"/g/[^/]+", made.headers["Location"]).group(0)
    before = dump(app.config["DATABASE"])
    for ended in ("p²", "p" + "9" * 5000, "p-1"):
        response = client.post(f"{game}/counted/round", data={"round_no": "1", "ended": ended, "save": "1"})
        assert response.status_code == 422, ended
    response = client.post(f"{game}/counted/round", data={"round_no": "9" * 400, "save": "1"})
    assert response.status_code in (409, 422)
    assert dump(app.config["DATABASE"]) == before


def test_the_same_unknown_card_twice_is_said_not_a_500(client):
    made = client.post("/games", data={"variant": "robber", "seat_0": "A", "seat_1": "B",
                                       "first_dealer": "0", "partnerships": "none"})
    game = made.headers["Location"]
    assert client.get(f"{game}/preview?cards=XX&cards=XX&player=A").status_code == 200
    shown = client.post(f"{game}/play", data={"player": "A", "action": "check", "cards": ["XX", "XX"]})
    assert shown.status_code == 200 and "XX" in text(shown)


# ---------------------------------------------------------------------------------------
# Rule values: every option has a range, checked the same way by the form and the import.


def test_every_number_a_rule_takes_has_a_range():
    for variant in registry.VARIANTS.values():
        for option in variant.rules:
            if option.kind == "int":
                assert option.minimum is not None and option.maximum is not None, (variant.key, option.name)
                assert option.maximum <= 10**9, (variant.key, option.name)


@pytest.mark.parametrize("value", ["9" * 310, "9" * 5000, "1000000001", "-1", "1e308"])
def test_a_rule_value_out_of_range_on_the_form_is_refused_naming_it(client, app, value):
    before = dump(app.config["DATABASE"])
    response = client.post("/games", data={"seat_0": "A", "seat_1": "B", "rule_target": value})
    assert response.status_code == 422
    assert "Target: " in text(response)
    assert dump(app.config["DATABASE"]) == before


@pytest.mark.parametrize("rules, words", [
    ({"target": 10**400},
     "rule 'target' cannot be a number of 401 digits: it takes a whole number from 1 to 1000000000"),
    ({"card_penalty": 10**20}, "it takes a whole number from 0 to 1000000000"),
    ({"special_odds_suit": 10**308}, "it takes a whole number from 0 to 1000000000"),
])
def test_a_rule_value_out_of_range_in_an_imported_file_is_refused_naming_it(client, app, rules, words):
    doc = {"format": "scorekeeper/1", "variant": "iceberg", "rules": rules, "players": ["A", "B"], "rounds": []}
    before = dump(app.config["DATABASE"])
    response = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422 and words in text(response).replace("&#39;", "'")
    assert dump(app.config["DATABASE"]) == before


def test_a_number_of_thousands_of_digits_in_a_file_is_refused(client, app):
    body = b'{"format": "scorekeeper/1", "variant": "iceberg", "players": ["A", "B"], "rules": {"target": ' \
        + b"9" * 5000 + b"}}"
    before = dump(app.config["DATABASE"])
    response = client.post("/games/import", data={"game_file": (io.BytesIO(body), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422 and "a number too long" in text(response)
    assert dump(app.config["DATABASE"]) == before


# ---------------------------------------------------------------------------------------
# A play from an old tab (item 5).


def test_every_play_form_names_its_round(table):
    table.new_game(["A", "B"], dealer=1)
    html = table.page()
    assert html.count('name="round_no" value="1"') >= 2  # the play form and the pass


def test_a_play_from_an_old_tab_is_refused_not_logged_in_the_next_round(table, app):
    """A meld picked on round 1's page and confirmed after round 1 was counted was saved in
    round 2: it is refused and says so, and nothing changes."""
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    table.post("/out", {"player": "A"})
    table.post("/hands", {"player": "B", "round_no": "1", "cards": ["H2"]})
    table.post("/end", {"round_no": "1"})
    before = dump(app.config["DATABASE"])
    for path, form in (("/plays", {"player": "B", "cards": ["D7", "D8", "D9"], "meld": "", "confirm": "1"}),
                       ("/aces", {"player": "B", "card": "DA"}), ("/pass", {"turn": "A"}),
                       ("/out", {"player": "B"})):
        response = table.client.post(table.url + path, data={**form, "round_no": "1"})
        assert response.status_code == 409, path
        assert "round 1 is over: nothing was saved. This is round 2" in text(response), path
    assert dump(app.config["DATABASE"]) == before


# ---------------------------------------------------------------------------------------
# Repeats (item 6).


def test_a_new_game_sent_twice_makes_one_game(client, app):
    form = {"seat_0": "A", "seat_1": "B", "first_dealer": "0", "request_id": "tap-1"}
    first = client.post("/games", data=form)
    again = client.post("/games", data=form)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert dump(app.config["DATABASE"])["games"].__len__() == 1
    assert 'name="request_id"' in text(client.get("/games/new"))


def test_the_same_game_file_imported_twice_is_one_game_in_a_group_and_another_in_another(client, app):
    doc = {"format": "scorekeeper/1", "variant": "gin", "players": ["A", "B"], "rounds": [{"stalemate": True}]}

    def upload(body):
        return client.post("/games/import", data={"game_file": (io.BytesIO(body), "g.json")},
                           content_type="multipart/form-data")

    first = upload(json.dumps(doc).encode())
    before = dump(app.config["DATABASE"])
    # The same game, its keys in another order and spaced otherwise.
    again = upload(json.dumps(dict(reversed(list(doc.items()))), indent=4).encode())
    assert again.status_code == 303 and again.headers["Location"] == first.headers["Location"]
    page = text(client.get(again.headers["Location"], follow_redirects=True))
    assert "This game file was imported already: the game is here. Nothing was added." in page
    assert dump(app.config["DATABASE"]) == before
    stranger = app.test_client()  # another phone, of another group: a game of its own
    own = stranger.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                        content_type="multipart/form-data")
    assert own.status_code == 303 and own.headers["Location"] != first.headers["Location"]
    page = text(stranger.get(own.headers["Location"], follow_redirects=True))
    assert "This phone has the game&#39;s edit link" in page

    def game_id(location):
        return location.split("/g/")[1].split("-")[0]

    assert game_id(own.headers["Location"]) != game_id(first.headers["Location"])


# ---------------------------------------------------------------------------------------
# Names (item 7): one rule for the form, the import and a rename.


@pytest.mark.parametrize("names", [
    ["Sam", "sam"], ["Ann", "Ann\u200b"], ["Zo\u00eb", "Zoe\u0308"], ["\u200b", "Bob"], ["A\tB", "a b"],
    ["Bob", "BOB "],
    # drawn as nothing though Unicode calls them letters or symbols: fillers, a braille blank
    ["\u3164", "Bob"], ["Ann\u3164", "Ann"], ["\u2800", "Bob"], ["\u0301", "Bob"], ["\u0301Ann", "Bob"],
    # a variation selector only changes how a character is drawn
    ["Ann \u2764\ufe0f", "ann \u2764"],
])
def test_the_form_refuses_names_that_are_one_name_or_hold_invisible_characters(client, app, names):
    before = dump(app.config["DATABASE"])
    response = client.post("/games", data={f"seat_{i}": n for i, n in enumerate(names)})
    assert response.status_code == 422
    assert dump(app.config["DATABASE"]) == before


def test_the_form_keeps_a_name_trimmed_in_nfc_with_one_space(client, app):
    made = client.post("/games", data={"seat_0": "  Zoe\u0308   Ann ", "seat_1": "Bob", "first_dealer": "0"})
    assert made.status_code == 303
    assert json.loads(dump(app.config["DATABASE"])["games"][0][2]) == ["Zo\u00eb Ann", "Bob"]


@pytest.mark.parametrize("names, words", [
    (["Sam", "sam", "SAM"], "look like one name"),
    (["Sam ", "Bob"], "write it 'Sam'"),
    (["Sam\tB", "Bob"], "write it 'Sam B'"),
    (["Ann", "Ann\u200b"], "invisible character"),
    (["Zoe\u0308", "Bob"], "write it 'Zo\u00eb'"),
])
def test_an_import_refuses_the_names_the_form_refuses(client, app, names, words):
    doc = {"format": "scorekeeper/1", "variant": "rummy", "players": names, "rounds": []}
    before = dump(app.config["DATABASE"])
    response = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422 and words in text(response).replace("&#39;", "'")
    assert dump(app.config["DATABASE"]) == before


def test_a_rename_keeps_the_same_rule(client, app):
    from scorekeeper.storage import kernel

    for bad in ("\u200b", "Ann\u200b", "x" * 41, "   ", "\u3164", "\u2800", "\u0301"):
        with pytest.raises(kernel.Refused):
            kernel.clean_name(bad)
    assert kernel.clean_name(" Zoe\u0308  Ann ") == "Zo\u00eb Ann"


# ---------------------------------------------------------------------------------------
# A hand at the round end (item 1): its size named, its scoring done outside the lock.


def _ended_round(db):
    from scorekeeper.storage import games, log_changes

    game_id, _secret = games.create(db, registry.get("iceberg"), ["A", "B", "C", "D"], {}, 0)
    log_changes.add_play(db, game_id, None, "meld", "B", ["S7", "S8", "S9"])
    log_changes.add_play(db, game_id, None, "out", "B")
    return game_id


def test_a_hand_larger_than_the_decks_leave_is_refused_naming_the_limit(db):
    from scorekeeper.storage import kernel, log_changes

    game_id = _ended_round(db)
    every = [f"{s}{r}" for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")] * 2
    with pytest.raises(kernel.Refused, match=r"A's hand cannot hold 104 cards: the decks leave 101 once "
                                             r"the table and the other hands entered are counted"):
        log_changes.save_hand(db, game_id, None, 1, "A", every)
    log_changes.save_hand(db, game_id, None, 1, "C", ["H2", "H3"])
    with pytest.raises(kernel.Refused, match="the decks leave 99"):
        log_changes.save_hand(db, game_id, None, 1, "A", every[:100])


def test_the_best_last_turn_is_never_searched_while_the_write_lock_is_held(db, monkeypatch):
    from scorekeeper.games import iceberg
    from scorekeeper.storage import log_changes

    game_id = _ended_round(db)
    seen = []
    search = iceberg.best_last_turn

    def watched(*args):
        seen.append(db.conn.in_transaction)
        return search(*args)

    monkeypatch.setattr(iceberg, "best_last_turn", watched)
    for player, cards in (("A", ["H2", "H3", "D9"]), ("C", ["C4", "C5"]), ("D", ["DK"])):
        log_changes.save_hand(db, game_id, None, 1, player, cards)
    log_changes.confirm_round(db, game_id, None, 1)
    assert seen and not any(seen)


def test_an_import_searches_no_best_last_turn_while_the_write_lock_is_held(db, monkeypatch):
    """The file's hands are scored before the lock is taken: under it the game is written."""
    from scorekeeper.games import iceberg
    from scorekeeper.storage import games

    seen = []
    search = iceberg.best_last_turn

    def watched(*args):
        seen.append(db.conn.in_transaction)
        return search(*args)

    monkeypatch.setattr(iceberg, "best_last_turn", watched)
    doc = json.loads((EXAMPLES / "iceberg-seed-example.json").read_text(encoding="utf-8"))
    doc["rules"] = {"target": 12345}  # a game no other test imports (the kept rounds differ)
    game_id = games.import_document(db, doc)
    assert seen and not any(seen)
    assert games.state(db, game_id).game.totals == {"A": 100, "B": -120, "C": -20}


# ---------------------------------------------------------------------------------------
# Issue 23: the last of hostile input.


@pytest.mark.parametrize("back", ["/games\r\nSet-Cookie: x=1", "/\n", "/g\x00", "/games\u2028"])
def test_a_language_chosen_with_a_line_break_in_its_way_back_is_refused_and_not_kept(client, back):
    answer = client.post("/language", data={"lang": "de", "next": back})
    assert answer.status_code == 400
    assert "the language was not changed" in text(answer)
    assert not any(value.startswith("x=") for value in answer.headers.getlist("Set-Cookie"))
    assert 'lang="en"' in text(client.get("/games"))  # still English


@pytest.mark.parametrize("back", ["/games\r\nSet-Cookie: x=1", "/\n", "/g\x00"])
def test_suit_colours_chosen_with_a_line_break_in_their_way_back_are_refused_and_not_kept(client, back):
    answer = client.post("/suits", data={"suits": "four", "next": back})
    assert answer.status_code == 400
    assert "the suit colours were not changed" in text(answer)
    assert not any(value.startswith("x=") for value in answer.headers.getlist("Set-Cookie"))
    assert 'class="four"' not in text(client.get("/games"))


@pytest.mark.parametrize("twice, key", [
    (b'"variant": "gin", "variant": "rummy"', "variant"),
    (b'"hands": {"B": ["HK"], "B": ["D9", "CJ"]', "B"),
])
def test_a_game_file_with_a_key_twice_is_refused_naming_the_key(client, app, twice, key):
    body = (EXAMPLES / "rummy-basic.json").read_bytes().replace(b'"variant": "rummy"', twice.split(b", ")[0] + b", "
                                                                + twice.split(b", ")[1]) if key == "variant" else (
        json.dumps(json.loads((EXAMPLES / "rummy-basic.json").read_text())).encode().replace(
            b'"hands": {"B": ["D9", "CJ"]', twice))
    before = dump(app.config["DATABASE"])
    answer = client.post("/games/import", data={"game_file": (io.BytesIO(body), "g.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    assert f"“{key}” is written twice in one object" in text(answer) or \
        f"&#34;{key}&#34; is written twice in one object" in text(answer), text(answer)[-800:]
    assert dump(app.config["DATABASE"]) == before


# ---------------------------------------------------------------------------------------
# Issue 22: no game too big; a play replays its round once.


def _upload(client, doc):
    return client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
                       content_type="multipart/form-data")


def test_a_file_of_more_rounds_than_a_game_holds_is_refused_naming_the_limit(client, app):
    from scorekeeper import gamefile

    doc = {"format": "scorekeeper/1", "variant": "gin", "players": ["A", "B"],
           "rounds": [{"stalemate": True}] * (gamefile.MAX_ROUNDS + 1)}
    before = dump(app.config["DATABASE"])
    answer = _upload(client, doc)
    assert answer.status_code == 422
    assert (f"game holds at most {gamefile.MAX_ROUNDS} rounds, and this file has {gamefile.MAX_ROUNDS + 1}"
            in text(answer))
    assert dump(app.config["DATABASE"]) == before
    doc["rounds"] = doc["rounds"][:gamefile.MAX_ROUNDS]  # the most a game holds is taken
    assert _upload(client, doc).status_code == 303


def test_a_round_of_more_events_than_its_cards_allow_is_refused_naming_the_limit(client, app):
    events = [{"type": "ace", "player": "A", "cards": ["SA"]}] * 200
    doc = {"format": "scorekeeper/1", "variant": "iceberg", "players": ["A", "B"], "rounds": [{"events": events}]}
    before = dump(app.config["DATABASE"])
    answer = _upload(client, doc)
    assert answer.status_code == 422
    assert "a round holds at most 53 events" in text(answer) and "and this one has 200" in text(answer)
    assert dump(app.config["DATABASE"]) == before


def test_the_same_file_again_is_found_before_anything_is_replayed(client, monkeypatch):
    from scorekeeper import gamefile
    from scorekeeper.gamefile import round_replay

    doc = json.loads((EXAMPLES / "iceberg-seed-example.json").read_text(encoding="utf-8"))
    replays = []
    # a whole file's replay, and the stores' round by round (a logged round's own replay)
    for module, name in ((gamefile, "replay_round"), (round_replay, "replay_round"),
                         (round_replay, "replay_logged_round")):
        original = getattr(round_replay, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, **k: replays.append(a) or _f(*a, **k))
    first = _upload(client, doc)
    assert replays  # the first import replays it
    replays.clear()
    again = _upload(client, json.loads(json.dumps(doc, indent=3)))
    assert again.headers["Location"] == first.headers["Location"] and replays == []


def test_a_play_replays_its_round_once_and_its_answer_reads_nothing_again(table, monkeypatch):
    """A round with plays logged: a meld sent by the page's script replays the round's
    events once (and the new one), and its answer is drawn from that replay."""
    from scorekeeper import gamefile
    from scorekeeper.gamefile import round_replay

    table.new_game(["A", "B", "C"], dealer=2)
    for cards in (["S2", "S3", "S4"], ["H2", "H3", "H4"], ["D2", "D3", "D4"]):
        table.meld("A", *cards)
    applied, replays = [], []
    apply_event = round_replay.apply_event
    monkeypatch.setattr(round_replay, "apply_event", lambda *a: applied.append(a[1]) or apply_event(*a))
    # a whole file's replay, and the stores' round by round (a logged round's own replay)
    for module, name in ((gamefile, "replay_round"), (round_replay, "replay_logged_round")):
        original = getattr(round_replay, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, **k: replays.append(a[3]) or _f(*a, **k))
    answer = table.client.post(f"{table.url}/plays", data={"player": "A", "cards": ["C2", "C3", "C4"], "meld": "",
                                                           "confirm": "1", "round_no": "1"},
                               headers={"Accept": "application/json"})
    assert answer.status_code == 200 and "2♣ 3♣ 4♣" in answer.get_data(as_text=True)
    assert [e["cards"] for e in applied] == [["S2", "S3", "S4"], ["H2", "H3", "H4"], ["D2", "D3", "D4"],
                                              ["C2", "C3", "C4"]]
    assert replays == [1]  # round 1, once


def test_the_largest_game_a_file_may_hold_imports_and_exports_within_the_upload_limit(client, app, db):
    """100 rounds of 88 events each, in its export's own layout: under the upload limit,
    imported whole, and its pages read (the game page lists the latest rounds)."""
    from benchmarks.write_lock import longest_round
    from scorekeeper import gamefile
    from scorekeeper.storage import games
    from scorekeeper.web import security

    doc = {"format": "scorekeeper/1", "variant": "iceberg", "rules": {"decks": 2, "target": 10**9},
           "players": ["Ann", "Bob"], "teams": None, "rounds": [longest_round()] * gamefile.MAX_ROUNDS}
    answer = _upload(client, doc)
    assert answer.status_code == 303
    game_id = int(re.search(r"/g/(\d+)-", answer.headers["Location"]).group(1))
    written = json.dumps(games.export_document(db, game_id), indent=2, ensure_ascii=False).encode()
    assert 1_000_000 < len(written) < security.MAX_UPLOAD_BYTES
    page = client.get(answer.headers["Location"])
    assert page.status_code == 200 and text(page).count("<tr data-round=") == 5
    assert "Show all 100 rounds (the latest 5 are listed)" in text(page)
