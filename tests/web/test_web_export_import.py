"""A game out as its game file and as a CSV score sheet; a game file back in by upload.

The game file is docs/game-file.md's document: what is exported scores, through
``gamefile.score_document``, exactly what the app shows; an imported file becomes a game
this phone can edit. A bad file is refused with the reason (422) and saves nothing.
"""
from __future__ import annotations

import copy
import csv
import io
import json
import re

import pytest
from db_dump import dump
from web_table import seed_round

from scorekeeper import create_app, gamefile


def upload(client, body: bytes | str, filename: str = "game.json", **kwargs):
    if isinstance(body, str):
        body = body.encode("utf-8")
    data = {"game_file": (io.BytesIO(body), filename), **kwargs}
    return client.post("/games/import", data=data, content_type="multipart/form-data")


def reason(response) -> str:
    match = re.search(r'data-error>([^<]*)<', response.get_data(as_text=True))
    assert match, response.get_data(as_text=True)[-2000:]
    return match.group(1).replace("&#39;", "'").replace("&#34;", '"')


def sheet(response) -> list[list[str]]:
    text = response.get_data().decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture
def played(table):
    """The seed round counted, then round 2 under way (B has melded)."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    table.meld("B", "S7", "S8", "S9")
    return table


# ---------------------------------------------------------------------------------------
# Out: the game file and the score sheet.


def test_the_game_file_downloads_and_scores_what_the_app_shows(played, client):
    response = client.get(played.url + "/export")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="iceberg-game-{played.game_id}.json"'
    scored = gamefile.score_document(json.loads(response.get_data(as_text=True)))
    assert scored["totals"] == played.totals("") == {"A": 100, "B": -120, "C": -20}
    assert len(scored["rounds"]) == 2 and not scored["rounds"][1]["finished"]


def test_the_score_sheet_has_a_row_per_counted_round_then_the_totals(played, client):
    response = client.get(played.url + "/export.csv")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="iceberg-game-{played.game_id}-scores.csv"'
    assert response.get_data().startswith("\ufeff".encode())  # spreadsheets read it as UTF-8
    assert sheet(response) == [
        ["Round", "Dealer", "A", "B", "C"],
        ["1", "C", "100", "-120", "-20"],
        ["Total", "", "100", "-120", "-20"],
    ]  # round 2 is still being played: no score, no row yet
    spanish = client.get(played.url + "/export.csv", headers={"Accept-Language": "es"})
    assert sheet(spanish)[0][:2] == ["Ronda", "Reparte"] and sheet(spanish)[-1][0] == "Total"


def test_the_score_sheet_adds_up_over_several_rounds(played, client):
    played.meld("B", "H3", "D3")
    played.out("B")
    played.hand("A", "C9")
    played.hand("C", "D5", "H8")
    played.confirm_round(2)
    rows = sheet(client.get(played.url + "/export.csv"))
    assert [r[0] for r in rows] == ["Round", "1", "2", "Total"]
    assert rows[2][1] == "A"  # the deal passes to the left
    for column in range(2, 5):
        assert int(rows[1][column]) + int(rows[2][column]) == int(rows[3][column])
    assert {p: int(t) for p, t in zip(rows[0][2:], rows[3][2:])} == played.totals("")


def test_a_new_game_has_a_score_sheet_of_zeros(table, client):
    table.new_game(["Ann", "Bob"])
    assert sheet(client.get(table.url + "/export.csv")) == [
        ["Round", "Dealer", "Ann", "Bob"], ["Total", "", "0", "0"]]


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)"])
def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text(table, client, name):
    table.new_game([name, "Bob"], dealer=0)
    header = sheet(client.get(table.url + "/export.csv"))[0]
    assert header[2] == "'" + name
    assert sheet(client.get(table.url + "/export.csv"))[-1][1] == ""


def test_names_with_commas_and_quotes_survive_the_score_sheet(table, client):
    table.new_game(['Ann, "the ace"', "Zoë"])
    assert sheet(client.get(table.url + "/export.csv"))[0] == ["Round", "Dealer", 'Ann, "the ace"', "Zoë"]


def test_the_game_page_links_both_downloads(played, client):
    html = client.get(played.url).get_data(as_text=True)
    assert f'href="{played.url}/export" data-action="export"' in html
    assert f'href="{played.url}/export.csv" data-action="export-csv"' in html


def test_the_read_only_link_downloads_too(played, client):
    html = client.get(played.url).get_data(as_text=True)
    view = re.search(r'value="http://localhost(/g/[^"]+)/table" data-link="view"', html).group(1)
    stranger = client.application.test_client()
    assert stranger.get(view + "/export").status_code == 200
    assert stranger.get(view + "/export.csv").status_code == 200


def test_no_download_without_the_secret(played, client):
    stranger = client.application.test_client()
    for suffix in ("/export", "/export.csv"):
        assert stranger.get(f"/g/{played.game_id}{suffix}").status_code == 404
        assert stranger.get(f"/g/{played.game_id}-wrongsecret{suffix}").status_code == 404


# ---------------------------------------------------------------------------------------
# In: a game file uploaded.


def test_the_history_page_offers_the_upload_form(client):
    html = client.get("/").get_data(as_text=True)
    form = re.search(r'<form [^>]*data-import>.*?</form>', html, re.S).group(0)
    assert 'enctype="multipart/form-data"' in form and 'method="post"' in form
    assert 'type="file"' in form and 'name="game_file"' in form
    assert client.get("/games/import").status_code == 200


def test_an_imported_game_opens_with_its_edit_link(client, seed_example, app):
    response = upload(client, json.dumps(seed_example))
    assert response.status_code == 303
    key = re.fullmatch(r"/g/((\d+)-[\w-]+)", response.headers["Location"]).group(1)
    page = client.get(response.headers["Location"])
    html = page.get_data(as_text=True)
    assert "Imported: A, B, C" in html
    assert 'data-share="edit"' in html  # this phone holds the edit link
    history = client.get("/").get_data(as_text=True)
    assert f'/g/{key}/table' in history
    # … and can go on playing: round 2 is dealt by the next seat.
    assert client.post(f"/g/{key}/plays", data={"player": "C", "cards": ["S7", "S8", "S9"],
                                                 "confirm": "1"}).status_code == 303


def test_an_imported_game_exports_what_was_imported(client, seed_example):
    key = upload(client, json.dumps(seed_example)).headers["Location"]
    exported = json.loads(client.get(key + "/export").get_data(as_text=True))
    assert gamefile.score_document(exported) == gamefile.score_document(seed_example)
    assert sheet(client.get(key + "/export.csv"))[-1] == ["Total", "", "100", "-120", "-20"]


def test_a_played_game_goes_out_and_back_in_with_the_same_scores(played, client):
    exported = client.get(played.url + "/export").get_data()
    again = upload(client, exported, "iceberg-game-1.json").headers["Location"]
    assert again != played.url
    assert json.loads(client.get(again + "/export").get_data()) == json.loads(exported)
    # The game file does not say who dealt first (docs/game-file.md): an import has the first
    # seat deal, so only the Dealer column may differ.
    scores = [[r[0], *r[2:]] for r in sheet(client.get(played.url + "/export.csv"))]
    assert [[r[0], *r[2:]] for r in sheet(client.get(again + "/export.csv"))] == scores


def test_a_file_with_a_byte_order_mark_and_symbols_imports(client, seed_example):
    doc = copy.deepcopy(seed_example)
    doc["rounds"][0]["events"][0]["cards"] = ["A♦"]
    response = upload(client, "\ufeff" + json.dumps(doc, ensure_ascii=False))
    assert response.status_code == 303


def _bad(seed, change):
    doc = copy.deepcopy(seed)
    change(doc)
    return json.dumps(doc)


BAD_FILES = {
    "not JSON": (lambda seed: "{ this is not json", "invalid JSON at line 1"),
    "not text": (lambda seed: b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not text"),
    "empty": (lambda seed: "", "the file is empty"),
    "a list": (lambda seed: "[1, 2]", "must be a JSON object"),
    "another game's events": (lambda seed: _bad(seed, lambda d: d.update(variant="robber")),
                             "unknown event type 'ace' (expected meld, layoff, out)"),
    "unknown variant": (lambda seed: _bad(seed, lambda d: d.update(variant="bridge")), "unknown variant 'bridge'"),
    "unknown rule": (lambda seed: _bad(seed, lambda d: d.update(rules={"jokers": 2})), "jokers"),
    "unknown player": (lambda seed: _bad(seed, lambda d: d["rounds"][0]["events"][1].update(player="Zed")),
                       "unknown player 'Zed'"),
    "not a meld": (lambda seed: _bad(seed, lambda d: d["rounds"][0]["events"][1].update(cards=["S9", "H2", "C5"])),
                   "round 1, event 2"),
    "a card twice": (lambda seed: _bad(seed, lambda d: d["rounds"][0]["hands"]["B"].append("S9")),
                     "Round 1, hands of B: 9♠ appears 2 times in this round, but one deck holds only one; "
                     "the table has it."),
    "a bad card": (lambda seed: _bad(seed, lambda d: d["rounds"][0]["hands"]["B"].append("X11")), "X11"),
    "one player": (lambda seed: _bad(seed, lambda d: d.update(players=["A"], rounds=[])), "2 to 6 players"),
    "a long name": (lambda seed: _bad(seed, lambda d: d.update(players=["A" * 41, "B"], rounds=[])),
                    "longer than 40 letters"),
    "a Conquian hand of eleven": (lambda seed: json.dumps({
        "format": "scorekeeper/1", "variant": "conquian", "players": ["A", "B"], "rounds": [
            {"out": "A", "hands": {"B": "SA S2 S3 S4 S5 S6 S7 SJ SQ SK HA".split()}}]}),
        "round 1: B's hand has 11 cards, but Conquian deals 10 each and a card taken is melded at once"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_refused_with_the_reason_and_saves_nothing(client, app, seed_example, played, case):
    make, expected = BAD_FILES[case]
    before = dump(app.config["DATABASE"])
    response = upload(client, make(seed_example))
    assert response.status_code == 422
    text = reason(response)
    assert text.startswith("The game file was not imported: ") and text.endswith("Nothing was saved.")
    assert expected.lower() in text.lower()
    assert "Traceback" not in response.get_data(as_text=True)
    assert dump(app.config["DATABASE"]) == before


def test_no_file_chosen_is_refused(client, app):
    before = dump(app.config["DATABASE"])
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a game file first." in reason(response)
    assert dump(app.config["DATABASE"]) == before


def test_a_file_over_the_size_limit_is_413_with_a_clear_message(client, app, played):
    assert app.config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    before = dump(app.config["DATABASE"])
    response = upload(client, b" " * (2 * 1024 * 1024 + 1))
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "The file is too big" in html and "up to 2 MB" in html and "Nothing was saved." in html
    assert dump(app.config["DATABASE"]) == before


def test_the_size_limit_is_configurable(tmp_path, seed_example):
    small = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.db"), "SECRET_KEY": "t",
                        "WTF_CSRF_ENABLED": False, "MAX_CONTENT_LENGTH": 2048})
    client = small.test_client()
    assert upload(client, json.dumps(seed_example, indent=None)).status_code == 303
    response = upload(client, json.dumps(seed_example, indent=8))
    assert response.status_code == 413 and "up to 2 KB" in response.get_data(as_text=True)


def test_an_upload_needs_the_csrf_token(tmp_path, seed_example):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": True})
    client = app.test_client()
    before = dump(app.config["DATABASE"])
    assert upload(client, json.dumps(seed_example)).status_code == 400
    assert dump(app.config["DATABASE"]) == before
    html = client.get("/").get_data(as_text=True)
    token = re.search(r'<form [^>]*data-import>.*?name="csrf_token" type="hidden" value="([^"]+)"',
                      html, re.S).group(1)
    assert upload(client, json.dumps(seed_example), csrf_token=token).status_code == 303
