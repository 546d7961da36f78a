"""Many phones, one table: ``/live`` tells a phone what other phones changed.

The table page carries its version (``data-version``) and the URL to poll
(``data-live``); ``/live?since=<version>`` answers 204 while nothing changed, else the
fresh HTML of each region of the page that plays change, how many copies of each card
are left to pick, and which screen the game is at now.
"""
import json
import re

import pytest
from web_table import seed_round

from scorekeeper import create_app

REGIONS_WITH_A_FORM = {"scores", "turn", "log", "aces", "melds"}


def version(html):
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def live(client, url, since=None):
    query = "" if since is None else f"?since={since}"
    return client.get(f"{url}/live{query}")


@pytest.fixture
def phones(table, client):
    """Two phones on one game (A, B, C; C deals, A starts): the table's and another."""
    table.new_game(["A", "B", "C"], dealer=2)
    other = client.application.test_client()
    return table, other


def view_link(client, table):
    html = client.get(table.url).get_data(as_text=True)
    url = re.search(r'value="([^"]+)" data-link="view"', html).group(1)
    return url.removeprefix("http://localhost").removesuffix("/table")


def test_the_table_page_says_where_to_poll_and_its_version(phones):
    table, _other = phones
    html = table.page()
    assert f'data-live="{table.url}/live"' in html
    assert version(html) == 0 and 'data-screen="play"' in html and 'data-round="1"' in html


def test_nothing_changed_answers_204_with_no_body(phones):
    table, other = phones
    since = version(other.get(f"{table.url}/table").get_data(as_text=True))
    response = live(other, table.url, since)
    assert response.status_code == 204 and response.data == b""
    assert response.headers["Cache-Control"] == "no-store"


def test_another_phones_play_comes_back_as_fresh_regions(phones):
    table, other = phones
    since = version(other.get(f"{table.url}/table").get_data(as_text=True))
    table.meld("A", "S7", "S8", "S9")
    response = live(other, table.url, since)
    assert response.status_code == 200 and response.is_json
    data = response.get_json()
    assert data["version"] > since
    assert data["screen"] == "play" and data["round"] == 1 and data["url"] == f"{table.url}/table"
    regions = data["regions"]
    assert set(regions) == REGIONS_WITH_A_FORM
    assert re.search(r'data-round-score="A">30<', regions["scores"])
    assert 'data-type="meld" data-player="A"' in regions["log"] and "Undo: A&#39;s meld" in regions["log"]
    assert 'data-meld-number="1"' in regions["melds"] and "7♠" in regions["melds"]
    assert 'data-turn="A"' in regions["turn"] and 'value=\"SA\"' in regions["aces"]
    cards = data["cards"]
    assert cards["S8"] == 0 and cards["H8"] == 1 and len(cards) == 52
    # Seen: nothing more until the next change.
    assert live(other, table.url, data["version"]).status_code == 204


def test_a_pass_and_an_ace_change_the_turn_and_the_aces(phones):
    table, other = phones
    table.pass_turn()
    table.ace("B", "SA")
    data = live(other, table.url, 0).get_json()
    assert 'data-turn="B"' in data["regions"]["turn"] and "Pass to C" in data["regions"]["turn"]
    assert 'value=\"SA\"' not in data["regions"]["aces"] and 'value=\"HA\"' in data["regions"]["aces"]
    assert data["cards"]["SA"] == 0


def test_the_read_only_link_watches_the_same_table(phones, client):
    table, _other = phones
    watcher = client.application.test_client()
    view = view_link(client, table)
    html = watcher.get(f"{view}/table").get_data(as_text=True)
    assert f'data-live="{view}/live"' in html
    since = version(html)
    assert live(watcher, view, since).status_code == 204
    table.meld("A", "S7", "S8", "S9")
    data = live(watcher, view, since).get_json()
    # No play form on a read-only page: only the regions it shows, without controls.
    assert set(data["regions"]) == {"scores", "turn", "log"}
    assert 'data-type="meld"' in data["regions"]["log"]
    for control in ('data-action="pass"', 'data-action="undo"', 'class="edit"', "request_id"):
        assert control not in "".join(data["regions"].values())


@pytest.mark.parametrize("ending, screen, path", [
    ("out", "end", "/end"),
    ("last ace", "ending", "/table"),
])
def test_the_end_of_the_round_sends_the_watchers_to_the_right_screen(phones, ending, screen, path):
    table, other = phones
    if ending == "out":
        table.out("A")
    else:
        for player, card in (("A", "SA"), ("B", "HA"), ("C", "DA"), ("A", "CA")):
            table.ace(player, card)
    data = live(other, table.url, 0).get_json()
    assert data["screen"] == screen and data["url"] == table.url + path
    # The round end page polls too, and moves on when the round is counted.
    if ending == "out":
        assert 'data-screen="end"' in other.get(f"{table.url}/end").get_data(as_text=True)


def test_a_counted_round_and_a_finished_game_move_the_watchers_on(phones):
    table, other = phones
    seed_round(table)
    end_version = version(table.page("/end"))
    assert live(other, table.url, end_version).status_code == 204
    table.confirm_round(1)
    data = live(other, table.url, end_version).get_json()
    assert data["screen"] == "play" and data["round"] == 2 and data["url"] == f"{table.url}/table"


def test_a_finished_game_sends_the_watchers_to_the_game_page(table, client):
    table.new_game(["A", "B", "C"], dealer=2, target=100)
    seed_round(table)
    table.confirm_round(1)  # A reaches the target
    data = live(client.application.test_client(), table.url, 0).get_json()
    assert data["screen"] == "over" and data["url"] == table.url
    assert set(data["regions"]) == {"scores"}


def test_every_region_of_the_page_is_what_live_sends(phones):
    """The page and /live draw the regions from the same templates."""
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    table.pass_turn()
    html = other.get(f"{table.url}/table").get_data(as_text=True)
    data = live(other, table.url, 0).get_json()
    fresh = re.compile(r'name="(request_id|csrf_token)" value="[^"]*"')
    for name, region in data["regions"].items():
        assert f'data-region="{name}"' in region
        assert fresh.sub("", region) in fresh.sub("", html), name


def test_live_for_a_key_that_opens_nothing_is_404(phones):
    table, other = phones
    assert other.get(f"/g/{table.game_id}-wrong/live").status_code == 404


def test_what_live_sends_is_drawn_once_for_every_phone_of_a_kind(phones, client):
    """The regions are drawn once per game, version, link and language (web/live.py): the
    play's own answer, then every phone that asks, read the same bytes; a phone with the
    read-only link or another language has its own."""
    from flask import template_rendered

    table, other = phones
    drawn = []

    def note(_app, template, context, **_extra):
        drawn.append(template.name)

    template_rendered.connect(note, client.application)
    answer = table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
        "player": "A", "meld": "", "confirm": "1", "cards": ["S9", "S8", "S7"], "round_no": "1"}).get_json()
    polls = [live(phone, table.url, 0).data for phone in (other, client.application.test_client(), table.client)]
    assert len(set(polls)) == 1
    assert json.loads(polls[0]) == {k: v for k, v in answer.items() if k not in ("notices", "error", "said")}
    assert drawn.count("_log.html") == 1
    view = view_link(client, table)
    spanish = client.application.test_client()
    assert live(client.application.test_client(), view, 0).get_json()["regions"]["log"] != answer["regions"]["log"]
    assert "Ronda 1" in spanish.get(f"{table.url}/live?since=0",
                                    headers={"Accept-Language": "es"}).get_json()["regions"]["turn"]
    assert drawn.count("_log.html") == 3


def test_forms_drawn_for_every_phone_carry_no_phone_s_keys(phones):
    """The page's script puts in the phone's own as a form is sent (its meta's CSRF token, a
    request id of its own); a page drawn for one phone carries its own, for phones without
    the script."""
    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    regions = live(other, table.url, 0).get_json()["regions"]
    for name in ("turn", "log"):
        assert ('<input type="hidden" name="csrf_token" value=""><input type="hidden" name="request_id" '
                'value="">') in regions[name]
    assert not re.search(r'name="(csrf_token|request_id)" value="[^"]', "".join(regions.values()))
    page = table.page()
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', page)
    assert len(re.findall(r'name="request_id" value="[\w-]{16}"', page)) >= 3


def test_a_kept_log_line_or_meld_is_drawn_again_when_what_it_shows_changes(phones, client):
    """Log lines and melds are kept drawn (views/helpers.py ``drawn_once``): after every change the log
    is what it would be drawn afresh: an edit of an earlier play (a later lay-off's place
    and points move), a pass told on the line before it, a deleted meld (the numbers
    after it move), a rename, another language."""
    from scorekeeper.web.views import helpers

    table, other = phones

    def log(language="en"):
        return live(other, table.url, 0).get_json()["regions"]["log"] if language == "en" else \
            other.get(f"{table.url}/live?since=0", headers={"Accept-Language": language}).get_json()["regions"]["log"]

    def melds():
        return live(other, table.url, 0).get_json()["regions"]["melds"]

    def afresh(language="en"):
        kept, kept_melds = log(language), melds()
        helpers._piece.cache_clear()
        assert (log(language), melds()) == (kept, kept_melds)
        return kept

    table.meld("A", "H2", "D2")
    table.meld("B", "S7", "S8", "S9")
    table.lay_off("C", 2, "S10")
    assert "4th" in afresh() and "(meld 2)" in log() and "10♠" in melds()
    run = table.play_ids()[1]
    table.post(f"/plays/{run}", {"player": "B", "cards": ["S6", "S7", "S8", "S9"], "save": "1"})
    assert "5th" in afresh() and "4th" not in log() and "6♠" in melds()
    table.pass_turn()
    assert "passed to" in afresh()
    table.post(f"/plays/{table.play_ids()[0]}/delete", {})
    assert "(meld 1)" in afresh() and "(meld 2)" not in log()
    assert "Ronda" in afresh("es") or "ronda" in log("es")
    assert afresh("de") != log("es")


def test_the_other_process_reads_the_payload_drawn_by_the_first(phones, app, tmp_path):
    """Two server processes on one database (two apps here): the one that took the play
    drew its payload; the other's phones are sent the same bytes without drawing it
    (storage/drawn.py), and a later change is drawn afresh."""
    from flask import template_rendered

    table, _other = phones
    second = create_app({**app.config, "DATABASE": app.config["DATABASE"]})
    elsewhere = second.test_client()
    drawn = []

    def note(_app, template, context, **_extra):
        drawn.append(template.name)

    template_rendered.connect(note, second)
    answer = table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
        "player": "A", "meld": "", "confirm": "1", "cards": ["S9", "S8", "S7"], "round_no": "1"}).get_json()
    told = live(elsewhere, table.url, 0).get_json()
    assert told == {k: v for k, v in answer.items() if k not in ("notices", "error", "said")}
    assert drawn == []
    table.pass_turn()
    after = live(elsewhere, table.url, told["version"]).get_json()
    assert after == live(table.client, table.url, told["version"]).get_json()
    assert after["version"] == told["version"] + 1 and "passed to B" in after["regions"]["log"]
    spanish = elsewhere.get(f"{table.url}/live?since=0", headers={"Accept-Language": "es"}).get_json()
    assert "_log.html" in drawn and spanish["version"] == after["version"]  # drawn by none before


def test_a_payload_is_not_kept_while_another_change_holds_the_lock(app, monkeypatch):
    """Keeping a payload waits a few ms for the write lock (storage/drawn.py LOCK_WAITS),
    then is skipped; a lock let go meanwhile lets it be kept."""
    import time

    from scorekeeper.storage import drawn
    from scorekeeper.storage.db import connect, write

    holder, keeper = connect(app.config["DATABASE"]), connect(app.config["DATABASE"])
    game = holder.execute("INSERT INTO games (variant, players, rules, first_dealer, created, updated) "
                          "VALUES ('iceberg', '[]', '{}', 0, '', '')").lastrowid
    holder.conn.commit()
    with write(holder):
        started = time.monotonic()
        assert drawn.keep(keeper, game, "table en x", 3, "{}") is False
        assert sum(drawn.LOCK_WAITS) <= time.monotonic() - started < 1
    assert drawn.kept(keeper, game, "table en x", 3) is None
    holder.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(drawn.time, "sleep", lambda _seconds: holder.conn.commit())  # let go while it waits
    assert drawn.keep(keeper, game, "table en x", 1, '{"version":1}') is True
    assert drawn.kept(keeper, game, "table en x", 1) == (1, '{"version":1}')
    assert drawn.keep(keeper, game, "table en x", 3, '{"version":3}') is True
    assert drawn.keep(keeper, game, "table en x", 2, "older") is True  # an older one does not replace it
    assert drawn.kept(keeper, game, "table en x", 3) == (3, '{"version":3}')
    assert drawn.kept(keeper, game, "table en x", 4) is None
    create_app(dict(app.config))  # the app starting again forgets them
    assert drawn.kept(keeper, game, "table en x", 3) is None



def test_a_phone_told_of_a_change_waits_a_little_for_the_other_process_to_draw_it(phones, app, monkeypatch):
    """A stream wakes when a play is committed, before the process that took it has drawn
    and kept its answer: the other process looks again a few times (web/live.py
    AWAIT_OTHER) and sends that payload instead of drawing it too. A play's own answer
    never waits."""
    from flask import template_rendered

    from scorekeeper.storage import drawn
    from scorekeeper.web import live as updates

    table, _other = phones
    second = create_app({**app.config, "DATABASE": app.config["DATABASE"]})
    elsewhere = second.test_client()
    answer = table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
        "player": "A", "meld": "", "confirm": "1", "cards": ["S9", "S8", "S7"], "round_no": "1"}).get_json()
    looks, pauses, drawn_there = [], [], []
    kept = drawn.kept

    def not_yet(db, game_id, kind, version):
        looks.append(version)
        return kept(db, game_id, kind, version) if len(looks) > 2 else None  # kept on the third look

    monkeypatch.setattr(drawn, "kept", not_yet)
    monkeypatch.setattr(updates.time, "sleep", pauses.append)
    def note(_app, template, context, **_extra):
        drawn_there.append(template.name)

    template_rendered.connect(note, second)  # blinker holds it weakly: ``note`` lives till the end
    told = live(elsewhere, table.url, 0).get_json()
    assert told == {k: v for k, v in answer.items() if k not in ("notices", "error", "said")}
    assert drawn_there == [] and len(looks) == 3 and pauses == list(updates.AWAIT_OTHER[:2])

    looks.clear(), pauses.clear()
    monkeypatch.setattr(drawn, "kept", lambda *args: looks.append(args) and None)  # never kept
    table.pass_turn()
    after = live(elsewhere, table.url, told["version"]).get_json()
    assert "passed to B" in after["regions"]["log"] and "_log.html" in drawn_there  # drawn there after all
    assert pauses == list(updates.AWAIT_OTHER) and len(looks) == 2 + len(updates.AWAIT_OTHER)

    pauses.clear()  # the process that answered the play does not wait for another to draw it
    view = view_link(table.client, table)
    table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={  # answered with its payload
        "player": "B", "meld": "", "confirm": "1", "cards": ["H7", "H8", "H9"], "round_no": "1"})
    assert "7♥" in live(table.client.application.test_client(), view, 0).get_json()["regions"]["log"]
    assert pauses == []
    table.meld("C", "D7", "D8", "D9")  # a form: no answer drawn, a change all the same of this process
    assert "7♦" in live(table.client.application.test_client(), view, 0).get_json()["regions"]["log"]
    assert pauses == []


def test_a_payload_that_cannot_be_kept_is_answered_all_the_same(phones, monkeypatch):
    """A file that takes no write (a full disk) loses the other process a drawn payload,
    never a phone its answer."""
    import sqlite3

    from sqlite_utils import Database

    table, other = phones
    execute = Database.execute

    def full(self, sql, *args, **kwargs):
        if sql.startswith("INSERT INTO drawn_payloads"):
            raise sqlite3.OperationalError("database or disk is full")
        return execute(self, sql, *args, **kwargs)

    monkeypatch.setattr(Database, "execute", full)
    table.meld("A", "S7", "S8", "S9")
    told = live(other, table.url, 0)
    assert told.status_code == 200 and "7♠" in told.get_json()["regions"]["log"]
    kept = sqlite3.connect(other.application.config["DATABASE"]).execute("SELECT count(*) FROM drawn_payloads")
    assert kept.fetchone()[0] == 0


PIECE = re.compile(r'<(li|label)\b[^>]*? data-k="(\w+)"[^>]*>.*?</\1>', re.S)
MARK = re.compile(r'<template data-k="([\w ]+)"></template>')


def filled(regions, page):
    """The regions with each mark filled with the piece the page shows under its key, as
    the page's script does (static/app.js ``swap``); space between tags left out."""
    pieces = {m.group(2): m.group(0) for m in PIECE.finditer(page)}
    return {name: re.sub(r">\s+<", "><", MARK.sub(lambda m: "".join(pieces[k] for k in m.group(1).split()), html))
            for name, html in regions.items()}


def test_a_change_sends_its_own_lines_and_names_those_the_phones_show(phones):
    """A payload leaves out the log lines and melds that the kind's last few payloads all
    had (web/live.py BASES_KEPT; a phone at any of those versions shows them): a mark names
    them by their key (``data-k``, on the page's own elements), and the newer lines come
    whole. Filled from the page, the regions are the whole payload's; a phone older than
    the payload's base, or that asks ``?whole=1``, gets every piece."""
    from scorekeeper.web.live import BASES_KEPT

    table, other = phones
    table.meld("A", "S7", "S8", "S9")
    first = live(other, table.url, 0).get_json()
    assert "base" not in first and not MARK.search("".join(first["regions"].values()))
    seen = [first]
    for play in [table.pass_turn, lambda: table.meld("B", "H2", "D2"), table.pass_turn,
                 lambda: table.ace("C", "CA"), lambda: table.ace("C", "DA")]:
        play()
        seen.append(live(other, table.url, seen[-1]["version"]).get_json())
    assert seen[1]["base"] == first["version"]  # the meld on the table, unchanged: named
    assert MARK.search(seen[1]["regions"]["melds"]) and "7♠" not in seen[1]["regions"]["melds"]
    page = other.get(f"{table.url}/table").get_data(as_text=True)
    assert version(page) == seen[-1]["version"]

    answer = table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
        "player": "C", "meld": "", "confirm": "1", "cards": ["C4", "C5", "C6"], "round_no": "1"}).get_json()
    log = answer["regions"]["log"]
    assert answer["base"] == seen[-BASES_KEPT]["version"]
    assert MARK.search(log) and "4♣" in log and "7♠" not in log  # A's run, told since: named
    whole = other.get(f"{table.url}/live?whole=1").get_json()
    assert whole["version"] == answer["version"] and "base" not in whole
    assert not MARK.search("".join(whole["regions"].values())) and "7♠" in whole["regions"]["log"]
    assert filled(answer["regions"], page) == filled(whole["regions"], "")
    # A phone that has a version before the base: every piece, asked or not.
    older = live(other, table.url, first["version"]).get_json()
    assert older["version"] == answer["version"] and not MARK.search("".join(older["regions"].values()))


def test_a_whole_payload_is_filled_in_from_the_pieces_its_shared_one_left_out(phones, app):
    """A phone behind the base (a stream that slept through several versions) is sent the
    payload whole: made from the shared one and the pieces it left out, here or in the
    server's other process (from the text it keeps), without drawing the regions again;
    what the phone shows is what a fresh drawing of the whole payload shows."""
    from flask import template_rendered

    table, other = phones
    second, drawn_there = create_app({**app.config, "DATABASE": app.config["DATABASE"]}), []
    for play in [lambda: table.meld("A", "S7", "S8", "S9"), table.pass_turn,
                 lambda: table.meld("B", "H2", "D2"), table.pass_turn, lambda: table.ace("C", "CA"),
                 lambda: table.ace("C", "DA"), lambda: table.meld("C", "C4", "C5", "C6"), table.pass_turn]:
        play()
        live(other, table.url, 0)  # the kind's payload at each version, drawn once
    hub = other.application.extensions["scorekeeper.live"]
    (kind,) = [k for k in hub.kinds.values() if k.payload is not None and k.payload.base]
    shared, filled_in = kind.payload, live(other, table.url, 0).get_json()  # behind the base
    assert shared.left_out and filled_in["version"] == shared.version and "base" not in filled_in
    template_rendered.connect(lambda _app, template, **_extra: drawn_there.append(template.name), second,
                              weak=False)
    assert live(second.test_client(), table.url, 0).get_json() == filled_in  # the other process
    assert drawn_there == []  # read from what this one kept, filled in there

    hub.kinds.clear()  # nothing kept: the whole payload drawn afresh
    drawn = live(other, table.url, 0).get_json()
    assert "base" not in drawn and not MARK.search("".join(drawn["regions"].values()))
    assert "7♠" in filled_in["regions"]["log"] and "2♥" in filled_in["regions"]["melds"]
    spaced = {name: re.sub(r">\s+<", "><", html) for name, html in drawn["regions"].items()}
    assert {name: re.sub(r">\s+<", "><", html) for name, html in filled_in["regions"].items()} == spaced
    assert {k: v for k, v in filled_in.items() if k != "regions"} == {k: v for k, v in drawn.items() if k != "regions"}


def test_a_play_answered_by_the_other_process_names_the_lines_the_phone_shows(phones, app):
    """A phone's plays may be answered by either server process. The first answer a
    process draws for a kind of phone leaves out the pieces of the latest payload the
    other process kept (the phone shows it: it was its last answer), as a process that
    drew the one before does: not the round's log again."""
    table, _other = phones
    second = create_app({**app.config, "DATABASE": app.config["DATABASE"]}).test_client()
    second.set_cookie("session", table.client.get_cookie("session").value)  # the same phone

    def play(client, player, cards):
        return client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
            "player": player, "meld": "", "confirm": "1", "cards": cards, "round_no": "1"}).get_json()

    first = play(table.client, "A", ["S7", "S8", "S9"])
    table.pass_turn()
    here = live(table.client, table.url, first["version"]).get_json()  # drawn by the first process
    answer = play(second, "B", ["H2", "H3", "H4"])  # the second process draws its first
    assert answer["version"] == here["version"] + 1 and answer["base"] == here["version"]
    assert MARK.search(answer["regions"]["log"]) and "7♠" not in answer["regions"]["log"]
    assert "2♥" in answer["regions"]["log"]


def test_a_payload_kept_by_a_release_before_is_read_as_its_json_alone():
    """While a server is upgraded in place, the other process may have kept a payload as
    the release before kept it: its JSON alone, with no base or pieces line. It is read
    as that JSON (no base: a phone never asks it for a piece), not refused."""
    from scorekeeper.web.live import Payload

    text = '{"version":3,"round":1,"regions":{"log":"<ol></ol>"},"cards":{}}'
    old = Payload(version=3, text=text)
    assert (old.json, old.base, old.parts["round"], old.left_out) == (text, 0, 1, {})
    assert old.filled() is old
    new = Payload(version=3, text=Payload(json.loads(text)).kept)
    assert (new.json, new.base) == (text, 0)


def test_a_round_s_answer_stays_small_as_its_log_grows(phones):
    """The bytes of a play's answer (benchmarks/README.md, "Taps and bytes"): its own line,
    the marks of the others, the strip, the turn, the aces, the cards left."""
    table, other = phones
    players, sizes = ["A", "B", "C"], []
    runs = [("S", 2), ("H", 2), ("D", 2), ("C", 2), ("S", 7), ("H", 7), ("D", 7), ("C", 7)]
    for i, (suit, low) in enumerate(runs):
        cards = [f"{suit}{rank}" for rank in range(low, low + 3)]
        sent = table.client.post(f"{table.url}/plays", headers={"Accept": "application/json"}, data={
            "player": players[i % 3], "meld": "", "confirm": "1", "cards": cards, "round_no": "1"})
        assert sent.status_code == 200, sent.get_data(as_text=True)
        sizes.append(len(sent.data))
        table.pass_turn()
    whole = len(other.get(f"{table.url}/live?whole=1").data)
    # Once the kind's last few payloads hold a line, each play adds some 30 bytes to the
    # answer (a mark's key), where the whole grows by its line.
    assert sizes[-1] - sizes[4] < 50 * (len(sizes) - 5) and whole - sizes[-1] > 3000, (sizes, whole)


def test_after_the_last_ace_the_player_finishing_the_turn_still_gets_the_aces_and_melds(phones):
    """The last ace is out: its player finishes the turn, on a play form that stays, so
    its aces and melds regions stay live too (the last ace gone from the ace buttons,
    a meld made meanwhile among the melds)."""
    table, other = phones
    for ace in ("SA", "HA", "DA"):
        table.ace("A", ace)
    since = version(other.get(f"{table.url}/table").get_data(as_text=True))
    table.ace("A", "CA")  # the last ace of one deck
    table.meld("A", "S7", "S8", "S9")  # A finishes the turn
    regions = live(other, table.url, since).get_json()["regions"]
    assert set(regions) == REGIONS_WITH_A_FORM
    assert 'value=\"CA\"' not in regions["aces"]
    assert "7♠" in regions["melds"]
