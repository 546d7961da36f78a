"""The record of every change (issue 24, item 6): the log is append-only, each change is
kept with when and from whose phone, the game page's Changes says it in words, the
dispute view links a play to its history, and the game file keeps the record."""
from __future__ import annotations

import json
import re
import sqlite3

import pytest
from test_web_counted import Counted
from test_web_export_import import upload

from scorekeeper import gamefile


def words(response) -> str:
    """A page's text as a person reads it (tags out: the inline ones, as a card's chip,
    with nothing in their place; spaces one)."""
    html = response.get_data(as_text=True) if not isinstance(response, str) else response
    html = re.sub(r"</?(span|strong|b|i|small|a|time)\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def changes(client, url, query="") -> list[str]:
    """The Changes page's lines, the latest first, without their time (nor the form that
    brings a play back)."""
    response = client.get(f"{url}/changes{query}")
    assert response.status_code == 200
    return [words(re.sub(r"<form\b.*?</form>", "", li, flags=re.S)).split(" · ", 1)[1].strip()
            for li in re.findall(r"<li data-change>(.*?)</li>", response.get_data(as_text=True), re.S)]


def entries(db, game_id):
    """Every entry of the game's log, as stored."""
    return (list(db.query("SELECT * FROM play_entries WHERE game = ? ORDER BY id", [game_id])),
            list(db.query("SELECT * FROM hand_entries WHERE game = ? ORDER BY id", [game_id])))


def kept_from(before, after) -> bool:
    """Every entry there was is still there, as it was (only entries added)."""
    return all(after[i][:len(before[i])] == before[i] for i in range(2))


def mia_and_zoe(table):
    table.new_game(["Mia", "Zoe"], dealer=1)
    table.meld("Mia", "H5", "H6", "H7")
    table.lay_off("Zoe", 1, "H8")
    return table.play_ids()


def test_an_edit_is_said_with_what_it_did_to_the_scores_and_from_whose_phone(table, client):
    meld, _lay_off = mia_and_zoe(table)
    client.post(f"{table.url}/phone", data={"seat": "2"})  # Zoe's phone
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    assert changes(client, table.url) == [
        "Zoe's phone · Round 1: Mia's meld (5♥ 6♥ 7♥) became 4♥ 5♥ 6♥ 7♥ · Mia +40, Zoe +10, Zoe's 8♥ 40 → 50"]
    page = client.get(f"{table.url}/changes").get_data(as_text=True)
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00">', page)
    assert 'src="/static/changes.js"' in page
    # Its cards drawn as the pages draw them: hearts red, the play's and the scores' alike.
    line = re.search(r"<li data-change>.*?</li>", page, re.S).group(0)
    assert line.count('<span class="k r h"') == 8  # 5♥ 6♥ 7♥, 4♥ 5♥ 6♥ 7♥, 8♥


def test_every_change_is_an_entry_and_nothing_is_overwritten(table, client, db):
    """Each change adds entries and keeps every one there was; a delete, an undo, a
    bring-back, a hand corrected, a round end reopened and a rename are each said."""
    meld, lay_off = mia_and_zoe(table)
    seen = entries(db, table.game_id)

    def step(action):
        nonlocal seen
        action()
        now = entries(db, table.game_id)
        assert kept_from(seen, now) and now != seen
        seen = now

    client.post(f"{table.url}/phone", data={"seat": "table"})
    deleted = {}
    step(lambda: deleted.update(r=table.post(f"/plays/{lay_off}/delete", {})))
    notice = client.get(deleted["r"].headers["Location"]).get_data(as_text=True)
    token = re.search(r'name="deleted" value="([^"]+)"', notice).group(1)
    step(lambda: table.post("/plays/restore", {"deleted": token}))
    step(lambda: table.meld("Mia", "S2", "S3", "S4"))
    step(lambda: table.undo())
    step(lambda: table.out("Mia"))
    step(lambda: table.hand("Zoe", "C9"))
    step(lambda: table.hand("Zoe", "C9", "CK"))
    step(lambda: table.hand("Zoe", "CK", "D2"))
    step(lambda: table.confirm_round(1))
    step(lambda: table.undo())  # the end of round 1 reopened
    assert changes(client, table.url) == [
        "The table's phone · The end of round 1 was reopened",
        # Each card −10 in hand: no score moved.
        "The table's phone · Round 1: Zoe's hand 9♣ K♣ became 2♦ K♣: 9♣ taken out, 2♦ added",
        "The table's phone · Round 1: Zoe's hand 9♣ became 9♣ K♣: K♣ added · Zoe −10",
        "The table's phone · Round 1: Mia's meld (2♠ 3♠ 4♠) was taken back · Mia −30",
        "The table's phone · Round 1: Zoe's lay-off (8♥) was brought back · Zoe +40",
        "The table's phone · Round 1: Zoe's lay-off (8♥) was deleted · Zoe −40"]
    # The play brought back is the same play (its history one), not a new one.
    assert table.play_ids()[:2] == [meld, lay_off]
    assert len(changes(client, table.url, f"?play={lay_off}")) == 2


def test_the_database_refuses_to_overwrite_the_log(table, db):
    meld, _ = mia_and_zoe(table)
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    table.out("Mia")
    table.hand("Zoe", "C9")
    for statement in ("UPDATE play_entries SET cards = '[]'", "DELETE FROM play_entries",
                      "UPDATE hand_entries SET cards = '[]'", "DELETE FROM hand_entries",
                      "UPDATE plays SET cards = '[]'", "DELETE FROM plays",
                      "UPDATE changes SET facts = '{}'", "DELETE FROM changes"):
        with pytest.raises(sqlite3.DatabaseError):
            db.execute(statement)
    assert len(table.play_ids()) == 3


def test_a_rename_is_one_change_and_the_plays_keep_their_history(table, client, db):
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    meld, _ = mia_and_zoe(table)
    mia = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "Mia")
    assert client.post(f"/players/{mia}/rename", data={"name": "Mira", "expected": "Mia"}).status_code == 303
    assert changes(client, table.url) == ["A phone · Mia was renamed Mira"]
    versions = db.execute("SELECT player FROM play_entries WHERE play = ? ORDER BY id", [meld]).fetchall()
    assert versions == [("Mia",), ("Mira",)]


def test_the_command_line_is_named_as_where_a_change_came_from(table, client, app):
    from click.testing import CliRunner

    from scorekeeper.cli import main

    mia_and_zoe(table)
    result = CliRunner().invoke(main, ["rename-player", "Zoe", "Zia", "--database", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    assert changes(client, table.url) == ["The command line · Zoe was renamed Zia"]


def test_the_dispute_view_links_a_changed_play_to_its_history(table, client):
    meld, lay_off = mia_and_zoe(table)
    page = client.get(f"{table.url}/rounds/1").get_data(as_text=True)
    assert 'class="history"' not in page and 'data-action="round-changes"' not in page
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    page = client.get(f"{table.url}/rounds/1").get_data(as_text=True)
    assert re.findall(r'<a class="history" href="([^"]+)"', page) == [f"{table.url}/changes?play={meld}"]
    assert "1 change to this round" in words(page)
    assert len(changes(client, table.url, f"?play={meld}")) == 1
    assert changes(client, table.url, f"?play={lay_off}") == []
    assert "This play has not been changed since it was logged." in words(
        client.get(f"{table.url}/changes?play={lay_off}"))
    assert len(changes(client, table.url, "?round=1")) == 1 and changes(client, table.url, "?round=2") == []
    for bad in ("?play=x", "?play=-1", "?round=1e3", "?play=" + "9" * 30):
        assert client.get(f"{table.url}/changes{bad}").status_code == 404


def test_the_game_page_links_its_changes_and_the_read_only_link_reads_them(table, client):
    meld, _ = mia_and_zoe(table)
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    page = client.get(table.url).get_data(as_text=True)
    assert f'href="{table.url}/changes" data-action="changes"' in page
    view = re.search(r'/g/([^/"]+)/table" data-link="view"', page).group(1)
    assert len(changes(client, f"/g/{view}")) == 1
    assert client.get(f"/g/{table.game_id}-wrong/changes").status_code == 404


def test_counted_rounds_changed_deleted_and_brought_back_are_said_with_the_totals(client):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    data = game.form("Ann", {"Bob": "S3 HQ"}, round_no=1)
    assert client.post(game.url + "/counted/rounds/1/edit", data=data).status_code == 303
    deleted = client.post(game.url + "/counted/rounds/2/delete", data={}, follow_redirects=True)
    token = re.search(r'name="deleted" value="([^"]+)"', deleted.get_data(as_text=True)).group(1)
    action = re.search(r'<form method="post" action="([^"]+)" data-bring-back>', deleted.get_data(as_text=True))
    client.post(action.group(1), data={"deleted": token})
    assert changes(client, game.url) == [
        "A phone · Round 2 was brought back · Bob's total 0 → 10",
        "A phone · Round 2 was deleted · Bob's total 10 → 0",
        "A phone · Round 1 was changed · Ann +10, Ann's total 3 → 13"]
    assert "1 change to this round" in words(client.get(game.url + "/counted/rounds/1"))


def test_robber_rummy_keeps_its_record_too(client):
    from test_web_robber import Robber

    three = Robber(client, ["Ann", "Bob", "Cy"])
    three.ok(three.meld("Ann", "H4 S4 C4"))
    three.ok(three.lay_off("Bob", 1, "D4"))
    lay_off = int(re.findall(r'data-play="(\d+)"', three.page())[1])
    three.ok(three.post(f"/plays/{lay_off}/delete", revision="0"))
    game = f"/g/{three.key}"
    assert changes(client, game) == ["A phone · Hand 1: Bob's lay-off (4♦) was deleted · Ann +15, Bob −20"]
    assert "1 change to this hand" in words(client.get(three.url + "/hands/1"))


def test_the_game_file_keeps_the_record_and_an_import_keeps_it(table, client):
    meld, _ = mia_and_zoe(table)
    client.post(f"{table.url}/phone", data={"seat": "1"})
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    exported = json.loads(client.get(table.url + "/export").get_data())
    (change,) = exported["changes"]
    assert change["kind"] == "edit" and change["by"] == "seat:0" and change["round"] == 1
    assert change["was"] == {"kind": "meld", "player": "Mia", "cards": ["H5", "H6", "H7"]}
    assert change["cards"] == [["Zoe", "H8", 40, 50]]
    # The record changes no score, and the file scores as the app does.
    without = {k: v for k, v in exported.items() if k != "changes"}
    assert gamefile.score_document(exported) == gamefile.score_document(without)
    again = upload(client, json.dumps(exported)).headers["Location"]
    assert changes(client, again) == changes(client, table.url) == [
        "Mia's phone · Round 1: Mia's meld (5♥ 6♥ 7♥) became 4♥ 5♥ 6♥ 7♥ · Mia +40, Zoe +10, Zoe's 8♥ 40 → 50"]
    assert json.loads(client.get(again + "/export").get_data())["changes"] == exported["changes"]
    # A file of the previous format (no record) imports as before, with no changes.
    before = upload(client, json.dumps(without)).headers["Location"]
    assert changes(client, before) == [] and "changes" not in json.loads(client.get(before + "/export").get_data())


@pytest.mark.parametrize("bad, said", [
    ("nope", "changes must be a list of changes"),
    ([{"kind": "swap", "at": "2026-11-29T21:04:00+00:00"}], "changes, change 1: unknown kind of change 'swap'"),
    ([{"kind": "edit", "at": "yesterday"}], "changes, change 1: at must be a date and time"),
    ([{"kind": "edit", "at": "2026-11-29T21:04", "by": "Bob"}], "changes, change 1: by must say whose phone"),
    ([{"kind": "edit", "at": "2026-11-29T21:04", "was": {"player": "Mia", "cards": ["X9"]}}],
     "changes, change 1: 'X9' is not a card"),
    ([{"kind": "rename", "at": "2026-11-29T21:04", "was": "M" * 41}],
     "changes, change 1: was must be a name of at most 40 letters"),
    ([{"kind": "edit", "at": "2026-11-29T21:04", "scores": {"Mia": [1]}}],
     "changes, change 1: scores must give each player's points before and after"),
    ([{"kind": "edit", "at": "2026-11-29T21:04", "whom": 1}], "changes, change 1: unknown field 'whom'"),
])
def test_a_record_that_is_not_one_is_refused_with_its_place(seed_example, bad, said):
    doc = {**seed_example, "changes": bad}
    with pytest.raises(gamefile.GameFileError) as refused:
        gamefile.replay(doc)
    assert said in str(refused.value.message)


def test_score_reads_a_file_with_its_record(tmp_path, seed_example):
    from click.testing import CliRunner

    from scorekeeper.cli import main

    kept = [{"at": "2026-11-29T21:04:00+00:00", "by": "table", "kind": "rename", "was": "Al", "now": "A"}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**seed_example, "changes": kept}))
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 0 and json.loads(result.output) == gamefile.score_document(seed_example)


@pytest.mark.parametrize("lang, said", [
    ("es", "Teléfono de Zoe · Ronda 1: La combinación de Mia (5♥ 6♥ 7♥) pasó a ser 4♥ 5♥ 6♥ 7♥ · Mia +40, Zoe +10, "
           "el 8♥ de Zoe 40 → 50"),
    ("de", "Handy von Zoe · Runde 1: Kombination von Mia (5♥ 6♥ 7♥) wurde zu 4♥ 5♥ 6♥ 7♥ · Mia +40, Zoe +10, "
           "8♥ von Zoe 40 → 50"),
])
def test_the_changes_are_said_in_the_phones_language(table, client, lang, said):
    meld, _ = mia_and_zoe(table)
    client.post(f"{table.url}/phone", data={"seat": "2"})
    table.post(f"/plays/{meld}", {"player": "Mia", "cards": ["H4", "H5", "H6", "H7"], "save": "1"})
    client.post("/language", data={"lang": lang, "next": f"{table.url}/changes"})
    assert changes(client, table.url) == [said]


def test_a_counted_rounds_changes_follow_it_when_an_earlier_round_goes_or_comes_back(client):
    """Its changes are found by the round's row, which keeps its id as it moves: the edited
    round keeps its link when round 1 is deleted and brought back; no other round gets it."""
    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    game.record("Ann", {"Bob": "S4"})
    assert client.post(game.url + "/counted/rounds/3/edit",
                       data=game.form("Ann", {"Bob": "S4 HQ"}, round_no=3)).status_code == 303
    deleted = client.post(game.url + "/counted/rounds/1/delete", data={}, follow_redirects=True)
    html = deleted.get_data(as_text=True)
    assert "1 change to this round" in words(client.get(game.url + "/counted/rounds/2"))
    assert "change to this round" not in words(client.get(game.url + "/counted/rounds/1"))
    assert changes(client, game.url, "?round=2") == [
        "A phone · Round 2 (round 3 then) was changed · Ann +10, Ann's total 7 → 17"]
    token = re.search(r'name="deleted" value="([^"]+)"', html).group(1)
    action = re.search(r'<form method="post" action="([^"]+)" data-bring-back>', html).group(1)
    assert client.post(action, data={"deleted": token}).status_code == 303
    assert changes(client, game.url, "?round=1") == [  # the round brought back as itself: its history one
        "A phone · Round 1 was brought back · Ann's total 14 → 17",
        "A phone · Round 1 was deleted · Ann's total 17 → 14"]
    assert changes(client, game.url, "?round=3") == ["A phone · Round 3 was changed · Ann +10, Ann's total 7 → 17"]
    assert changes(client, game.url, "?round=2") == []


def test_the_app_reads_back_its_own_file_when_a_play_of_no_one_was_changed(client):
    """Robber Rummy: a hand that ended on the stock, imported (its play names no one), taken
    back: the record's play has no player, and the file still imports and scores."""
    doc = {"format": "scorekeeper/1", "variant": "robber", "players": ["A", "B"],
           "rounds": [{"events": [{"type": "meld", "player": "A", "cards": ["S2", "S3", "S4"]}],
                       "hands": {"A": [], "B": ["HK"]}}]}
    key = re.search(r"/g/([^/]+)/robber/game$", upload(client, json.dumps(doc)).headers["Location"]).group(1)
    assert client.post(f"/g/{key}/robber/undo", data={"request_id": "u1", "last": "0"}).status_code == 303
    last = re.findall(r'data-play="(\d+)"', client.get(f"/g/{key}/robber").get_data(as_text=True))[-1]
    assert client.post(f"/g/{key}/robber/undo", data={"request_id": "u2", "last": last}).status_code == 303
    exported = json.loads(client.get(f"/g/{key}/robber/export").get_data())
    assert exported["changes"][-1]["was"] == {"kind": "stock", "player": "", "cards": []}
    gamefile.score_document(exported)
    assert upload(client, json.dumps(exported)).status_code == 303
    assert changes(client, f"/g/{key}")[0] == "A phone · Hand 1: The stock running out was taken back"


def test_a_rename_from_the_players_pages_names_the_phone_at_each_game(table, client, db):
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME

    mia_and_zoe(table)
    client.post(f"{table.url}/phone", data={"seat": "1"})  # Mia's phone at this game
    mia = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "Mia")
    assert client.post(f"/players/{mia}/rename", data={"name": "Mira", "expected": "Mia"}).status_code == 303
    assert changes(client, table.url) == ["Mira's phone · Mia was renamed Mira"]


def test_the_changes_page_lists_the_latest_and_the_file_holds_them_all(table, client, seed_example):
    from scorekeeper.storage import record

    kept = [{"at": "2026-11-29T21:04:00+00:00", "by": "table", "kind": "rename", "was": f"A{n}", "now": f"B{n}"}
            for n in range(record.SHOWN + 5)]
    url = upload(client, json.dumps({**seed_example, "changes": kept})).headers["Location"]
    shown = changes(client, url)
    assert len(shown) == record.SHOWN and shown[0] == f"The table's phone · A{record.SHOWN + 4} was renamed " \
                                                      f"B{record.SHOWN + 4}"
    page = words(client.get(f"{url}/changes"))
    assert f"The latest {record.SHOWN} of {record.SHOWN + 5} changes: the game file holds them all." in page
    assert len(json.loads(client.get(url + "/export").get_data())["changes"]) == record.SHOWN + 5


def test_finding_a_play_reads_its_own_entries_not_the_games(table, db):
    """The lookups of one play by id (its round, its revision) use the play's own index, not
    the game's entries (the views' planner would otherwise take the game's index)."""
    from scorekeeper.storage import kernel, logs

    meld, _ = mia_and_zoe(table)
    asked = []
    db.conn.set_trace_callback(asked.append)
    assert logs.round_of(db, table.game_id, meld) == 1 and kernel.revision_of(db, table.game_id, meld) == 0
    db.conn.set_trace_callback(None)
    assert len(asked) == 2
    for query in asked:
        plan = " ".join(row[3] for row in db.conn.execute("EXPLAIN QUERY PLAN " + query).fetchall())
        assert "USING INDEX play_entries_of (play=?)" in plan, plan


def test_an_imported_record_links_each_change_to_its_play_and_round(table, client):
    """The file names plays by what they hold: an import finds the play each change made
    (edited twice: both changes), so the imported game's round page links its history too;
    a counted game's changes are found by their round."""
    meld, _ = mia_and_zoe(table)
    for cards in (["H4", "H5", "H6", "H7"], ["H3", "H4", "H5", "H6", "H7"]):
        table.post(f"/plays/{meld}", {"player": "Mia", "cards": cards, "save": "1"})
    again = upload(client, client.get(table.url + "/export").get_data()).headers["Location"]
    page = client.get(f"{again}/rounds/1").get_data(as_text=True)
    (history,) = re.findall(r'<a class="history" href="([^"]+)"', page)
    assert len(changes(client, history.split("/changes")[0], "?" + history.split("?")[1])) == 2
    assert "2 changes to this round" in words(page)

    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    assert client.post(game.url + "/counted/rounds/2/edit",
                       data=game.form("Bob", {"Ann": "SK HQ"}, round_no=2)).status_code == 303
    imported = re.match(r"/g/[^/]+", upload(client, json.dumps(game.export())).headers["Location"]).group(0)
    assert changes(client, imported, "?round=2") == changes(client, game.url, "?round=2") != []
    assert "1 change to this round" in words(client.get(imported + "/counted/rounds/2"))


def test_a_counted_games_round_page_asks_whose_phone_and_the_record_names_it(client):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    page = client.get(game.url + "/counted/round").get_data(as_text=True)
    assert f'<a class="whose" href="{game.url}/phone">Whose phone is this?</a>' in page
    said = client.post(game.url + "/phone", data={"seat": "2"})
    assert said.status_code == 303 and said.headers["Location"].endswith("/counted/round")
    assert "Bob’s phone</a>" in client.get(game.url + "/counted/round").get_data(as_text=True)
    game.record("Ann", {"Bob": "S3"})
    assert client.post(game.url + "/counted/rounds/1/edit",
                       data=game.form("Ann", {"Bob": "S3 HQ"}, round_no=1)).status_code == 303
    assert changes(client, game.url) == ["Bob's phone · Round 1 was changed · Ann +10, Ann's total 3 → 13"]


def test_a_counted_round_brought_back_from_a_notice_that_names_no_row_is_a_new_row_its_change_names(client, db):
    """A notice made before notices named the round's row: the round comes back as a new
    row, and the record names that row (its page links the change)."""
    from scorekeeper.storage import rounds

    game = Counted(client, "rummy", ["Ann", "Bob"])
    game.record("Ann", {"Bob": "S3"})
    game.record("Bob", {"Ann": "SK"})
    old = rounds.recorded_round(db, game.game_id, 1)
    assert client.post(game.url + "/counted/rounds/1/delete", data={}).status_code == 303
    rounds.restore_round(db, game.game_id, "back-1", 1, rounds.RecordedRound(old.how, old.player, old.hands))
    assert rounds.recorded_round(db, game.game_id, 1).play_id != old.play_id
    # No phone named: the store was called here, not from a page.
    assert changes(client, game.url, "?round=1") == ["Round 1 was brought back · Ann's total 0 → 3"]
    assert changes(client, game.url, "?round=2") == []


def test_a_deleted_play_is_brought_back_from_the_changes_for_as_long_as_it_is_out(table, client, db):
    """The notice of a delete offers to bring it back once; the game's changes offer it as
    long as the play is out of the game: brought back, the scores are as before and the
    offer goes; asked again, it is refused and nothing changes. A read-only link offers
    nothing and may not ask."""
    table.new_game(["Ann", "Bob"], dealer=1)
    table.meld("Ann", "S7", "S8", "S9")
    table.lay_off("Bob", 1, "S10")
    lay_off = table.play_ids()[-1]
    table.post(f"/plays/{lay_off}/delete", {})
    assert table.round_scores() == {"Ann": 30, "Bob": 0}
    page = client.get(f"{table.url}/changes").get_data(as_text=True)
    assert f'data-bring-back="{lay_off}"' in page
    back = table.post("/changes/bring-back", {"play": str(lay_off)})
    assert back.headers["Location"].endswith("/changes")
    said = words(client.get(back.headers["Location"]))
    assert "Brought back Bob's lay-off (10♠) in round 1: every score is recomputed." in said
    assert table.round_scores() == {"Ann": 30, "Bob": 40}
    assert "data-bring-back" not in client.get(f"{table.url}/changes").get_data(as_text=True)
    assert changes(client, table.url)[0].endswith("Round 1: Bob's lay-off (10♠) was brought back · Bob +40")
    before = entries(db, table.game_id)
    again = table.post("/changes/bring-back", {"play": str(lay_off), "request_id": "another"}, expect=422)
    assert "that play is not out of the game" in words(again).lower()
    assert entries(db, table.game_id) == before
    view = re.search(r'value="[^"]*/g/([^/"]+)/table" data-link="view"', table.page("")).group(1)
    assert "data-bring-back" not in client.get(f"/g/{view}/changes").get_data(as_text=True)
    assert client.post(f"/g/{view}/changes/bring-back", data={"play": str(lay_off)}).status_code == 403


def test_a_bring_back_from_one_play_s_history_answers_with_that_history(table, client):
    """The page it was asked from (``?play=`` or ``?round=``) comes back with its answer,
    a refusal too."""
    table.new_game(["Ann", "Bob"], dealer=1)
    table.meld("Ann", "S7", "S8", "S9")
    table.lay_off("Bob", 1, "S10")
    lay_off = table.play_ids()[-1]
    table.post(f"/plays/{lay_off}/delete", {})
    page = client.get(f"{table.url}/changes?play={lay_off}").get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"><input type="hidden" name="csrf_token"', page)
    assert action and action.group(1).endswith(f"/changes/bring-back?play={lay_off}")
    back = table.post(f"/changes/bring-back?play={lay_off}", {"play": str(lay_off)})
    assert back.headers["Location"].endswith(f"/changes?play={lay_off}")
    again = table.post("/changes/bring-back?round=1", {"play": str(lay_off), "request_id": "another"}, expect=422)
    assert "Changes: Round 1" in words(again) and "that play is not out of the game" in words(again).lower()


def test_a_counted_game_has_no_plays_to_bring_back_from_its_changes(client):
    game = Counted(client, "rummy", ["Ann", "Bob"])
    assert client.post(f"{game.url}/changes/bring-back", data={"play": "1"}).status_code == 404


def test_a_play_taken_out_twice_is_offered_back_once(table, client):
    """Undone, brought back, undone again: the latest change that took it out offers it back,
    not both."""
    table.new_game(["Ann", "Bob"], dealer=1)
    table.meld("Ann", "S7", "S8", "S9")
    meld = table.play_ids()[-1]
    table.undo()
    table.post("/changes/bring-back", {"play": str(meld)})
    table.undo()
    page = client.get(f"{table.url}/changes").get_data(as_text=True)
    assert page.count(f'data-bring-back="{meld}"') == 1
    first = re.search(r"<li data-change>(.*?)</li>", page, re.S).group(1)
    assert f'data-bring-back="{meld}"' in first  # on the latest line


def test_a_play_whose_place_was_taken_or_that_is_back_is_not_offered_again(table, client):
    """Undone, then the right meld logged in its place: the undone one is not offered back.
    Deleted and brought back on another phone: the notice's bring-back says it is in the
    game already (not "log it again", which would log it twice)."""
    table.new_game(["Ann", "Bob"], dealer=1)
    table.meld("Ann", "S7", "S8", "S9")
    table.undo()
    table.meld("Ann", "H7", "H8", "H9")
    assert "data-bring-back" not in client.get(f"{table.url}/changes").get_data(as_text=True)
    meld = table.play_ids()[-1]
    deleted = table.post(f"/plays/{meld}/delete", {})
    notice = client.get(deleted.headers["Location"]).get_data(as_text=True)
    token = re.search(r'name="deleted" value="([^"]+)"', notice).group(1)
    table.post("/changes/bring-back", {"play": str(meld)})  # on another phone, say
    again = table.post("/plays/restore", {"deleted": token}, expect=409)
    assert "is in the game already (brought back on another phone): nothing was changed" in words(again)


def test_a_play_deleted_then_its_player_renamed_is_brought_back_under_the_new_name(table, client, db):
    from scorekeeper.storage import players
    from scorekeeper.storage.players import EVERY_GAME
    table.new_game(["A", "B"], dealer=1)
    table.meld("A", "S7", "S8", "S9")
    meld = table.play_ids()[-1]
    table.post(f"/plays/{meld}/delete", {})
    a = next(p.id for p in players.everyone(db, EVERY_GAME) if p.name == "A")
    assert client.post(f"/players/{a}/rename", data={"name": "Ann", "expected": "A"}).status_code == 303
    table.post("/changes/bring-back", {"play": str(meld)})
    assert table.round_scores() == {"Ann": 30, "B": 0}
