"""Many phones, one table: plays in one order, a form acted on once, stale taps refused.

Each phone is its own test client. Forms are posted the way a phone posts them: with
the hidden fields of the page it was shown (``request_id``, the turn it saw, the last
play it saw, the revision of the play it edits).
"""
import re
import threading
from collections import Counter
from urllib.parse import urlsplit

import pytest
from web_table import seed_round

ALREADY = "Already saved: that was sent twice, and counts once."


def hidden(html, action, name):
    """A hidden field's value in the form posting to ``action`` (a path's end)."""
    form = re.search(rf'<form[^>]*action="[^"]*{re.escape(action)}"[^>]*>(.*?)</form>', html, re.S)
    assert form, f"no form for {action}"
    return re.search(rf'name="{name}" value="([^"]*)"', form.group(1)).group(1)


def snapshot(db, game_id):
    """Everything a change could touch: the log, the hands, the game's version."""
    plays = db.execute("SELECT id, round_no, seq, type, player, cards, target, revision "
                       "FROM plays WHERE game = ? ORDER BY id", [game_id]).fetchall()
    hands = db.execute("SELECT round_no, player, cards, confirmed FROM hands WHERE game = ? "
                       "ORDER BY id", [game_id]).fetchall()
    version = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()[0]
    return plays, hands, version


def count(db, table_name, game_id):
    return db.execute(f"SELECT count(*) FROM {table_name} WHERE game = ?", [game_id]).fetchone()[0]


def text(response):
    return response.get_data(as_text=True).replace("&#39;", "'")


@pytest.fixture
def phones(table, client):
    """Two phones on one game (A, B, C; one deck; C deals, A starts)."""
    table.new_game(["A", "B", "C"], dealer=2)
    return table, client.application.test_client()


# ---------------------------------------------------------------------------------------
# A double tap or a resubmitted form: one change.


def test_a_double_submit_records_one_play(phones, db):
    table, _other = phones
    html = table.page()
    form = {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1",
            "request_id": hidden(html, "/plays", "request_id")}
    first = table.client.post(f"{table.url}/plays", data=form)
    second = table.client.post(f"{table.url}/plays", data=form)
    assert first.status_code == second.status_code == 303
    # The repeat goes back to the same page (the first one's also names the play it saved).
    assert urlsplit(second.headers["Location"]).path == urlsplit(first.headers["Location"]).path
    assert count(db, "plays", table.game_id) == 1 and count(db, "requests", table.game_id) == 1
    page = table.client.get(second.headers["Location"]).get_data(as_text=True)
    assert ALREADY in page


def _play(table):
    return "/plays", {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1"}


def _ace(table):
    return "/aces", {"player": "A", "card": "SA"}


def _out(table):
    return "/out", {"player": "A"}


def _pass(table):
    return "/pass", {"turn": "A"}


def _undo(table):
    table.meld("A", "S7", "S8", "S9")
    table.meld("A", "H7", "H8", "H9")
    return "/undo", {"last": str(table.play_ids()[-1])}


def _edit(table):
    table.meld("A", "S7", "S8", "S9")
    play = table.play_ids()[0]
    return f"/plays/{play}", {"player": "B", "cards": ["H7", "H8", "H9"], "save": "1", "revision": "0"}


def _delete(table):
    table.meld("A", "S7", "S8", "S9")
    table.meld("A", "H7", "H8", "H9")
    return f"/plays/{table.play_ids()[0]}/delete", {"revision": "0"}


def _hand(table):
    table.out("A")
    return "/hands", {"player": "B", "round_no": "1", "cards": ["S2"]}


def _confirm(table):
    seed_round(table)
    return "/end", {"round_no": "1"}


@pytest.mark.parametrize("setup", [_play, _ace, _out, _pass, _undo, _edit, _delete, _hand, _confirm],
                         ids=lambda f: f.__name__.strip("_"))
def test_every_write_form_sent_twice_counts_once(phones, db, setup):
    table, _other = phones
    path, form = setup(table)
    form["request_id"] = "the-same-form"
    first = table.client.post(table.url + path, data=form)
    assert first.status_code == 303, text(first)[-2000:]
    after_first = snapshot(db, table.game_id)
    second = table.client.post(table.url + path, data=form)
    assert second.status_code == 303
    # The repeat goes back to the same page (the first one's also names the play it saved).
    assert urlsplit(second.headers["Location"]).path == urlsplit(first.headers["Location"]).path
    assert snapshot(db, table.game_id) == after_first  # not even the version moved
    assert ALREADY.split(":")[0] in table.client.get(second.headers["Location"]).get_data(as_text=True)


def test_every_write_form_on_the_pages_carries_a_fresh_request_id(phones):
    table, _other = phones
    table.meld("A", "S7", "S8", "S9")
    html = table.page()
    ids = re.findall(r'name="request_id" value="([^"]+)"', html)
    # Every form that changes the game (the language switch changes only this phone).
    assert len(ids) == html.count('method="post"') - html.count("data-languages") == 3  # pass, play, undo
    assert len(set(ids)) == 3 and all(len(i) >= 16 for i in ids)
    assert ids != re.findall(r'name="request_id" value="([^"]+)"', table.page())
    play = table.play_ids()[0]
    assert html.count('name="request_id"') == 3
    edit = table.page(f"/plays/{play}/edit")
    assert edit.count('name="request_id"') == 2 and edit.count('name="revision" value="0"') == 2


def test_a_round_confirmed_on_two_phones_is_counted_once(phones, db):
    table, other = phones
    seed_round(table)
    first = table.confirm_round(1)
    second = other.post(f"{table.url}/end", data={"round_no": "1"})
    assert second.status_code == 303 and second.headers["Location"] == first.headers["Location"]
    page = other.get(second.headers["Location"]).get_data(as_text=True)
    assert "Already saved: round 1 is counted." in page and 'data-round="2"' in page
    assert db.execute("SELECT count(*) FROM hands WHERE confirmed = 1").fetchone()[0] == 3


# ---------------------------------------------------------------------------------------
# A form's key is this phone's, for one kind of change and one play.


def test_the_new_game_form_s_key_from_another_phone_makes_another_game(client, app, db):
    """The same key from another phone is another request: its own game, never a
    redirect to the first phone's game with its edit link."""
    form = {"seat_0": "Ann", "seat_1": "Bob", "first_dealer": "0", "request_id": "the-same-form"}
    first = client.post("/games", data=form)
    stranger = app.test_client()
    second = stranger.post("/games", data=form)
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] != first.headers["Location"]
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    page = stranger.get(second.headers["Location"]).get_data(as_text=True)
    assert "Already saved" not in page and first.headers["Location"] not in page
    # The first phone sending it again is a double tap: its own game, once.
    again = client.post("/games", data=form)
    assert again.headers["Location"] == first.headers["Location"]
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2


def test_the_same_key_from_another_phone_is_another_play(phones, db):
    table, other = phones
    table.client.post(f"{table.url}/plays", data={
        "player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1", "request_id": "k"})
    theirs = other.post(f"{table.url}/plays", data={
        "player": "A", "cards": ["H7", "H8", "H9"], "meld": "", "confirm": "1", "request_id": "k"})
    assert theirs.status_code == 303
    assert ALREADY not in other.get(theirs.headers["Location"]).get_data(as_text=True)
    assert count(db, "plays", table.game_id) == 2


def test_the_same_key_on_another_play_or_another_route_is_never_a_dropped_change(phones, db):
    """One phone reusing a key (a page's script gone wrong, a hostile phone) for another
    play, a pass or an ace: each is acted on, none is told "Already saved"."""
    table, _other = phones
    sent = [("/plays", {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1"}),
            ("/plays", {"player": "A", "cards": ["H7", "H8", "H9"], "meld": "", "confirm": "1"}),
            ("/aces", {"player": "A", "card": "SA"}),
            ("/pass", {"turn": "A"})]
    for path, form in sent:
        answer = table.client.post(table.url + path, data={**form, "request_id": "k"})
        assert answer.status_code == 303, text(answer)[-1000:]
        assert ALREADY.split(":")[0] not in table.client.get(answer.headers["Location"]).get_data(as_text=True)
    types = [row[0] for row in db.execute("SELECT type FROM plays WHERE game = ? ORDER BY seq", [table.game_id])]
    assert types == ["meld", "meld", "ace", "pass"]


def test_a_rename_under_a_key_a_play_used_is_done(phones, db):
    table, _other = phones
    table.client.post(f"{table.url}/plays", data={
        "player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1", "request_id": "k"})
    ann = db.execute("SELECT id FROM players WHERE name = 'A'").fetchone()[0]
    renamed = table.client.post(f"/players/{ann}/rename", data={"name": "Ann", "expected": "A", "request_id": "k"})
    assert renamed.status_code == 303
    assert db.execute("SELECT name FROM players WHERE id = ?", [ann]).fetchone()[0] == "Ann"


def test_a_play_whose_answer_was_lost_sent_again_counts_once(phones, db):
    """The phone is named by the first page it opens: a write's answer lost on the way
    (with whatever cookie it carried) and the form sent again is still this phone's."""
    table, _other = phones
    html = table.page()
    cookie = table.client.get_cookie("session").value
    form = {"player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1",
            "request_id": hidden(html, "/plays", "request_id")}
    assert table.client.post(f"{table.url}/plays", data=form).status_code == 303
    table.client.set_cookie("session", cookie)  # the answer never came
    again = table.client.post(f"{table.url}/plays", data=form)
    assert ALREADY in table.client.get(again.headers["Location"]).get_data(as_text=True)
    assert count(db, "plays", table.game_id) == 1


# ---------------------------------------------------------------------------------------
# The same card from two phones.


def test_the_same_card_from_two_phones_one_deck_one_is_accepted(phones, db):
    table, other = phones
    mine = table.page()
    theirs = other.get(f"{table.url}/table").get_data(as_text=True)
    accepted = table.client.post(f"{table.url}/plays", data={
        "player": "A", "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1",
        "request_id": hidden(mine, "/plays", "request_id")})
    refused = other.post(f"{table.url}/plays", data={
        "player": "B", "cards": ["S9", "H9", "C9"], "meld": "", "confirm": "1",
        "request_id": hidden(theirs, "/plays", "request_id")})
    assert accepted.status_code == 303 and refused.status_code == 422
    html = text(refused)
    assert '<p class="error" role="alert" data-error>9♠ is already on the table (one deck has one 9♠).</p>' in html
    # Nothing half-saved: one play, one request recorded, and B's cards still picked.
    assert count(db, "plays", table.game_id) == 1 and count(db, "requests", table.game_id) == 1
    for card in ("S9", "H9", "C9"):
        assert re.search(rf'value={card} checked>', html), card
    # The refusal is drawn from the table as it is now: A's meld is on it.
    assert 'data-meld-number="1"' in html


def test_the_preview_says_why_a_card_is_refused(phones):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    html = text(other.get(f"{table.url}/preview?player=B&cards=S9&cards=H9&cards=C9"))
    assert "Not allowed: 9♠ is already on the table (one deck has one 9♠)." in html


@pytest.mark.parametrize("first, second, message", [
    (("S9", "S9", "H9"), ("S9", "D9", "C9"), "Both 9♠s are already on the table (two decks have two 9♠s)."),
    (("S9", "H9", "D9"), ("S9", "S9", "C9"), "One 9♠ is already on the table (two decks have two 9♠s)."),
])
def test_two_decks_say_how_many_copies_are_gone(table, db, first, second, message):
    table.new_game(["A", "B", "C", "D"])  # two decks
    table.meld("B", *first)
    assert message in text(table.meld("C", *second, expect=422))
    assert count(db, "plays", table.game_id) == 1


def test_an_ace_tapped_on_two_phones_is_logged_once(phones, db):
    table, other = phones
    table.ace("A", "SA")
    refused = other.post(f"{table.url}/aces", data={"player": "B", "card": "SA"})
    assert refused.status_code == 422
    assert "A♠ is already on the table (one deck has one A♠)." in text(refused)
    assert count(db, "plays", table.game_id) == 1


# ---------------------------------------------------------------------------------------
# A page that is behind: a new play still goes in; what depended on the page is refused.


def test_another_phones_play_does_not_make_my_meld_fail(phones, db):
    table, other = phones
    theirs = other.get(f"{table.url}/table").get_data(as_text=True)
    table.meld("A", "S7", "S8", "S9")
    table.pass_turn()
    response = other.post(f"{table.url}/plays", data={
        "player": "B", "cards": ["H9", "C9"], "meld": "", "confirm": "1",
        "request_id": hidden(theirs, "/plays", "request_id")})
    assert response.status_code == 303
    assert count(db, "plays", table.game_id) == 3


def test_a_pass_after_the_turn_moved_is_refused(phones, db):
    table, other = phones
    theirs = other.get(f"{table.url}/table").get_data(as_text=True)
    assert hidden(theirs, "/pass", "turn") == "A"
    table.pass_turn()  # on the other phone: B's turn now
    response = other.post(f"{table.url}/pass", data={
        "turn": "A", "request_id": hidden(theirs, "/pass", "request_id")})
    assert response.status_code == 409
    assert "The turn already passed to B (on another phone): nothing was changed." in text(response)
    assert 'data-turn="B"' in text(response)
    assert count(db, "plays", table.game_id) == 1


def test_an_undo_after_another_play_was_logged_is_refused(phones, db):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    theirs = other.get(f"{table.url}/table").get_data(as_text=True)
    seen = hidden(theirs, "/undo", "last")
    assert seen == str(table.play_ids()[0])
    table.meld("A", "H7", "H8", "H9")
    response = other.post(f"{table.url}/undo", data={
        "last": seen, "request_id": hidden(theirs, "/undo", "request_id")})
    assert response.status_code == 409
    assert ("The last play is now A's meld (7♥ 8♥ 9♥) (the table changed on another phone): "
            "nothing was undone; undo again to take it back.") in text(response)
    assert count(db, "plays", table.game_id) == 2


def test_an_undo_of_a_play_already_taken_back_is_refused(phones, db):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    table.meld("A", "H7", "H8", "H9")
    theirs = other.get(f"{table.url}/table").get_data(as_text=True)
    table.undo()  # takes back A's H7 H8 H9
    response = other.post(f"{table.url}/undo", data={
        "last": hidden(theirs, "/undo", "last"), "request_id": hidden(theirs, "/undo", "request_id")})
    assert response.status_code == 409
    assert "That play was taken back already (on another phone): nothing more was undone." in text(response)
    assert count(db, "plays", table.game_id) == 1


def test_an_edit_of_a_play_changed_meanwhile_is_refused(phones, db):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    play = table.play_ids()[0]
    theirs = other.get(f"{table.url}/plays/{play}/edit").get_data(as_text=True)
    table.post(f"/plays/{play}", {"player": "A", "cards": ["H7", "H8", "H9"], "save": "1", "revision": "0"})
    assert db.execute("SELECT revision FROM plays WHERE id = ?", [play]).fetchone()[0] == 1
    response = other.post(f"{table.url}/plays/{play}", data={
        "player": "B", "cards": ["D7", "D8", "D9"], "save": "1",
        "revision": hidden(theirs, f"/plays/{play}", "revision"),
        "request_id": hidden(theirs, f"/plays/{play}", "request_id")})
    assert response.status_code == 409
    assert ("This play was changed on another phone meanwhile; it is now A's meld (7♥ 8♥ 9♥). "
            "Nothing was saved: look at it again.") in text(response)
    assert db.execute("SELECT player, cards, revision FROM plays WHERE id = ?", [play]).fetchone() == \
        ("A", '["H7", "H8", "H9"]', 1)
    # The page shown is the play as it is now, with its new revision: saving again works.
    fresh = text(response)
    assert 'name="revision" value="1"' in fresh
    retry = other.post(f"{table.url}/plays/{play}", data={
        "player": "B", "cards": ["D7", "D8", "D9"], "save": "1", "revision": "1",
        "request_id": hidden(fresh, f"/plays/{play}", "request_id")})
    assert retry.status_code == 303


def test_a_delete_of_a_play_changed_meanwhile_is_refused(phones, db):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    play = table.play_ids()[0]
    theirs = other.get(f"{table.url}/plays/{play}/edit").get_data(as_text=True)
    table.post(f"/plays/{play}", {"player": "B", "cards": ["S7", "S8", "S9"], "save": "1"})
    response = other.post(f"{table.url}/plays/{play}/delete", data={
        "revision": hidden(theirs, "/delete", "revision"),
        "request_id": hidden(theirs, "/delete", "request_id")})
    assert response.status_code == 409
    assert ("This play was changed on another phone meanwhile; it is now B's meld (7♠ 8♠ 9♠). "
            "Nothing was saved: look at it again.") in text(response)
    assert count(db, "plays", table.game_id) == 1


def test_a_play_deleted_on_another_phone_is_not_deleted_twice(phones, db):
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    table.meld("A", "H7", "H8", "H9")
    play = table.play_ids()[0]
    theirs = other.get(f"{table.url}/plays/{play}/edit").get_data(as_text=True)
    table.post(f"/plays/{play}/delete", {"revision": "0"})
    response = other.post(f"{table.url}/plays/{play}/delete", data={
        "revision": "0", "request_id": hidden(theirs, "/delete", "request_id")})
    assert response.status_code == 409
    assert "That play is not in the game any more (it was deleted on another phone): nothing was changed." \
        in text(response)
    assert count(db, "plays", table.game_id) == 1


# ---------------------------------------------------------------------------------------
# Truly at once: threads, each a phone, against one database file.

THREADS, PLAYS = 8, 25


def _run(threads):
    errors = []

    def guarded(target):
        def run():
            try:
                target()
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)
        return run

    workers = [threading.Thread(target=guarded(t)) for t in threads]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert not any(w.is_alive() for w in workers), "a thread hung"
    assert not errors, errors


def test_plays_from_many_phones_at_once_are_all_logged_once_in_one_order(table, client, db):
    """8 phones × 25 turns passed on, each form sent twice: 200 plays, none lost or doubled."""
    players = ["A", "B", "C", "D", "E"]
    table.new_game(players, dealer=4)  # A starts
    app, url = client.application, table.url
    statuses = Counter()
    lock = threading.Lock()

    def phone(n):
        def play():
            me = app.test_client()
            for i in range(PLAYS):
                form = {"request_id": f"phone{n}-tap{i}"}
                for _twice in range(2):
                    response = me.post(f"{url}/pass", data=form)
                    with lock:
                        statuses[response.status_code] += 1
        return play

    _run([phone(n) for n in range(THREADS)])
    assert statuses == {303: 2 * THREADS * PLAYS}
    rows = db.execute("SELECT seq, player FROM plays WHERE game = ? ORDER BY seq",
                      [table.game_id]).fetchall()
    assert len(rows) == THREADS * PLAYS
    assert [seq for seq, _p in rows] == list(range(1, THREADS * PLAYS + 1))
    # One order: each pass was made by the player whose turn it then was.
    assert [p for _s, p in rows] == [players[i % len(players)] for i in range(THREADS * PLAYS)]
    assert count(db, "requests", table.game_id) == THREADS * PLAYS
    assert db.execute("SELECT version FROM games WHERE id = ?", [table.game_id]).fetchone()[0] == \
        THREADS * PLAYS


def test_the_same_meld_from_many_phones_at_once_is_accepted_once(table, client, db):
    table.new_game(["A", "B"], dealer=1)
    app, url = client.application, table.url
    start = threading.Barrier(THREADS)
    answers = []
    lock = threading.Lock()

    def phone(n):
        def play():
            me = app.test_client()
            start.wait()
            response = me.post(f"{url}/plays", data={
                "player": "AB"[n % 2], "cards": ["S7", "S8", "S9"], "meld": "", "confirm": "1",
                "request_id": f"phone{n}"})
            with lock:
                answers.append((response.status_code, text(response)))
        return play

    _run([phone(n) for n in range(THREADS)])
    assert sorted(status for status, _t in answers) == [303] + [422] * (THREADS - 1)
    for status, html in answers:
        if status == 422:
            assert "7♠ is already on the table (one deck has one 7♠)." in html
    assert count(db, "plays", table.game_id) == 1 and count(db, "requests", table.game_id) == 1
