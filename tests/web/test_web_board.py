"""The scoreboard (issue 25, item 3): a read-only screen for the middle of the table,
``/g/<key>/board``, by the read-only link or the edit link, for every family of games."""
from __future__ import annotations

import re

import pytest
from web_table import seed_round

MINUS = "\u2212"
CARD_CODE = re.compile(r"\b[SHDC](?:[2-9]|10|[AJQK])\b")  # a card as the game file writes it: H5


def shown_text(html: str) -> str:
    """What people read of the board: its region's text, without tags or attributes."""
    region = html[html.index("data-board-region"):html.index("</main>")]
    region = region[region.index(">") + 1:]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", region))


def cells(html: str, name: str) -> dict[str, int]:
    return {p: int(v.strip().replace(MINUS, "-") or 0)
            for p, v in re.findall(rf'data-board-{name}="([^"]+)">([^<]*)<', html)}


def view_key(client, url: str) -> str:
    """The game's read-only link, as its game page hands it on."""
    html = client.get(url, follow_redirects=True).get_data(as_text=True)
    return re.search(r'value="http://localhost/g/([^/"]+)/table" data-link="view"', html).group(1)


@pytest.fixture
def playing(table, client):
    """Iceberg's seed example: round 1 counted; in round 2 (A dealt) B melded and passed,
    C melded: C's turn."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    table.meld("B", "S7", "S8", "S9")
    table.pass_turn()
    table.meld("C", "H5", "D5", "C5")
    return table


@pytest.mark.parametrize("link", ["edit", "view"])
def test_the_board_shows_totals_turn_round_scores_and_the_last_play_in_words(playing, client, link):
    key = playing.key if link == "edit" else view_key(client, playing.url)
    watcher = client.application.test_client()  # a tablet that opens the link it was shown
    response = watcher.get(f"/g/{key}/board")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert cells(html, "total") == playing.totals()
    assert cells(html, "round-score") == playing.round_scores() == {"A": 0, "B": 30, "C": 30}
    assert 'data-board-turn="C"' in html and "C’s turn" in html
    assert 'data-board-player="C" class="now" aria-current="true"' in html
    text = shown_text(html)
    assert "Round 2 · A dealt" in text
    assert "Last play C new set 5♥ 5♦ 5♣ (meld 2) +30" in text, text
    assert not CARD_CODE.search(text), text
    # The leader marked: A's 100 is the best total.
    assert re.search(r'data-board-player="A"><th scope="row">A <span class="mark" data-leader>leads</span>', html)


@pytest.mark.parametrize("link", ["edit", "view"])
def test_the_board_has_nothing_that_changes_anything(playing, client, link):
    key = playing.key if link == "edit" else view_key(client, playing.url)
    html = client.application.test_client().get(f"/g/{key}/board").get_data(as_text=True)
    assert "<form" not in html and "<button" not in html and "<input" not in html
    assert 'class="edit"' not in html and "Undo" not in html


def test_a_pass_is_told_on_the_line_of_the_play_before_it(playing, client):
    playing.pass_turn()  # C passes to A
    text = shown_text(client.get(playing.url + "/board").get_data(as_text=True))
    assert "Last play C new set 5♥ 5♦ 5♣ (meld 2) +30 · C passed to A" in text
    assert "A’s turn" in text


def test_a_key_that_opens_nothing_is_not_found(playing, client):
    game_id = playing.game_id
    for key in (f"{game_id}-nope", f"{game_id + 1}-{playing.key.split('-', 1)[1]}", "x-y"):
        assert client.get(f"/g/{key}/board").status_code == 404


def test_asked_since_its_version_it_answers_nothing_until_the_game_moves(playing, client):
    html = client.get(playing.url + "/board").get_data(as_text=True)
    version = re.search(r'<body[^>]* data-version="(\d+)"', html).group(1)
    assert client.get(playing.url + f"/board?since={version}").status_code == 204
    playing.pass_turn()
    moved = client.get(playing.url + f"/board?since={version}")
    assert moved.status_code == 200 and "A’s turn" in moved.get_data(as_text=True)


def test_the_board_is_live_by_the_games_stream_and_reloads_without_script(playing, client):
    html = client.get(playing.url + "/board").get_data(as_text=True)
    assert f'data-board-events="/g/{playing.key}/events"' in html
    assert f'data-board="/g/{playing.key}/board"' in html
    assert '<script src="/static/board.js" defer></script>' in html
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in html
    # Not a table page: app.js leaves it to board.js (no data-live, no data-events).
    assert "data-live=" not in html and " data-events=" not in html


def test_the_round_end_and_the_game_over_are_said(table, client):
    table.new_game(["A", "B", "C"], dealer=2, target=2)
    table.meld("A", "S7", "S8", "S9")
    table.out("A")
    text = shown_text(client.get(table.url + "/board").get_data(as_text=True))
    assert "A went out: hands to count." in text and "’s turn" not in text
    table.hand("B", "SK")
    table.hand("C", "H2")
    table.confirm_round(1)
    html = client.get(table.url + "/board").get_data(as_text=True)
    text = shown_text(html)
    assert "A wins the game with 30." in text
    assert '<span class="mark" data-leader>wins</span>' in html


@pytest.mark.parametrize("language, words", [
    ("es", ["Marcador: Iceberg", "Turno de C", "Última jugada", "Ronda 2", "va en cabeza"]),
    ("de", ["Anzeigetafel: Iceberg", "C ist dran", "Letzter Spielzug", "Runde 2", "führt"]),
])
def test_the_board_speaks_spanish_and_german(playing, client, language, words):
    html = client.get(playing.url + "/board", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    for word in words:
        assert word in html, word
    assert "5♥ 5♦ 5♣" in shown_text(html)


def test_the_game_page_links_to_the_board_by_the_read_only_key_with_a_qr_code(playing, client):
    html = client.get(playing.url).get_data(as_text=True)
    view = view_key(client, playing.url)
    board = re.search(r'<figure data-share="board">.*?</figure>', html, re.S).group(0)
    assert f'value="http://localhost/g/{view}/board" data-link="board"' in board
    assert f'href="http://localhost/g/{view}/board" data-action="board"' in board
    assert '<svg' in board and "<title>Scoreboard: the scores in big type" in board
    # A phone holding only the read-only link hands the board on too.
    watcher = client.application.test_client()
    assert 'data-share="board"' in watcher.get(f"/g/{view}").get_data(as_text=True)


def test_the_board_of_a_game_of_robber(client):
    made = client.post("/games", data={"variant": "robber", "seat_0": "A", "seat_1": "B", "first_dealer": "0"})
    key = re.search(r"/g/([^/]+)/robber", made.headers["Location"]).group(1)
    play = {"player": "B", "action": "play", "cards": ["H4", "S4", "C4"]}
    assert client.post(f"/g/{key}/robber/play", data=play).status_code == 303
    html = client.get(f"/g/{key}/board").get_data(as_text=True)
    text = shown_text(html)
    assert "Hand 1 · A dealt" in text and "B’s turn" in text
    assert "Last play B melds 4♠ 4♥ 4♣ (meld 1)" in text, text
    assert not CARD_CODE.search(text), text
    assert cells(html, "round-score") == {"A": 0, "B": 15} and cells(html, "total") == {"A": 0, "B": 0}
    game_page = client.get(f"/g/{key}/robber/game").get_data(as_text=True)
    assert 'data-share="board"' in game_page and "/board" in game_page


def test_the_board_of_a_game_of_hands_counted(client):
    made = client.post("/games", data={"variant": "rummy", "seat_0": "A", "seat_1": "B", "first_dealer": "0"})
    key = re.search(r"/g/([^/]+)/counted", made.headers["Location"]).group(1)
    saved = client.post(f"/g/{key}/counted/round", data={"round_no": "1", "ended": "p0", "save": "1",
                                                         "hand_1": ["D9", "S3"]})
    assert saved.status_code == 303
    html = client.get(f"/g/{key}/board").get_data(as_text=True)
    text = shown_text(html)
    assert "In progress: round 2, B deals." in text and "Last round Round 1 · A went out" in text
    assert cells(html, "total") == {"A": 12, "B": 0} and cells(html, "round-score") == {"A": 12, "B": 0}
    assert "data-board-turn" not in html
    assert "Scores: the last round counted and the game total" in html  # its column is round 1's
    assert 'data-share="board"' in client.get(f"/g/{key}/counted").get_data(as_text=True)


def test_the_board_of_kalooki_marks_who_is_eliminated(client):
    """The status says who is eliminated, and so does each of their rows (a tester found
    only the game page marking them)."""
    made = client.post("/games", data={"variant": "kalooki", "seat_0": "A", "seat_1": "B", "seat_2": "C",
                                       "first_dealer": "0", "rule_elimination": "40"})
    key = re.search(r"/g/([^/]+)/counted", made.headers["Location"]).group(1)
    saved = client.post(f"/g/{key}/counted/round", data={"round_no": "1", "ended": "p0", "save": "1",
                                                         "hand_1": ["JK", "JK"], "hand_2": ["S2"]})
    assert saved.status_code == 303, saved.get_data(as_text=True)[-1500:]
    html = client.get(f"/g/{key}/board").get_data(as_text=True)
    rows = dict(re.findall(r'<tr data-board-player="([^"]+)".*?>(.*?)</tr>', html, re.S))
    assert "data-board-out" in rows["B"] and "data-board-out" not in rows["A"] + rows["C"]
    assert "Eliminated: B." in shown_text(html)


def test_while_the_hands_are_entered_the_board_counts_them_and_shows_the_aces(table, client):
    """The seed example at its round end: the board's round column is the round as the
    round end counts it so far (A 100, B −120, C −20 once both hands are in, as the phones
    show), said to be so far; each player's aces face up beside their name."""
    table.new_game(["A", "B", "C"], dealer=2)
    table.ace("A", "DA")
    table.meld("A", "S9", "S8", "S7")
    table.pass_turn()
    html = client.get(f"{table.url}/board").get_data(as_text=True)
    note = re.search(r'data-board-player="A".*?</th>', html, re.S).group(0)
    assert 'data-board-note' in note and 'aria-label="ace of diamonds">A♦</span>' in note
    assert "data-board-note" not in re.search(r'data-board-player="B".*?</th>', html, re.S).group(0)
    table.out("A")
    table.hand("B", "SK")  # C's hand not entered yet: so far
    html = client.get(f"{table.url}/board").get_data(as_text=True)
    assert cells(html, "round-score") == {"A": 60, "B": -10, "C": 0}  # A: 30 × 2 (an ace)
    assert "a hand not entered yet counts as holding nothing" in shown_text(html)
    seed = table.__class__(client)  # the whole seed round, every hand entered: nothing "so far"
    seed.new_game(["A", "B", "C"], dealer=2)
    seed_round(seed)
    html = client.get(f"{seed.url}/board").get_data(as_text=True)
    assert cells(html, "round-score") == {"A": 100, "B": -120, "C": -20}
    assert "a hand not entered yet" not in shown_text(html)
