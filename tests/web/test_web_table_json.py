"""Plays sent in the background: the table page's script asks for JSON.

With ``Accept: application/json`` a play, an ace, a pass, going out and an undo are
answered with what ``/live`` sends (the version, the screen and its URL, the round, the
regions of the page, the cards left) and what the play did in words (``notices``) or
why it was refused (``error``, status 409 or 422), both also as the page shows them
(``said``). Without that header the same routes answer as forms do (303). A request id
sent again is acted on once, so a play the phone sends again after no answer counts
once. Robber Rummy's table answers the same way.
"""
from __future__ import annotations

import re

from test_web_robber import Robber

JSON = {"Accept": "application/json"}


def post(table, path, data, status=200, request_id=None):
    data = dict(data)
    if request_id:
        data["request_id"] = request_id
    response = table.client.post(table.url + path, data=data, headers=JSON)
    assert response.status_code == status, response.get_data(as_text=True)[-2000:]
    assert response.is_json
    return response.get_json()


def plays(table) -> int:
    return len(table.play_ids())


def told(table, play_id: int) -> list[str]:
    """What the table page says of a play just logged (``?saved=``), as a phone without
    the script reads it."""
    html = table.page(f"/table?saved={play_id}")
    return re.findall(r"<p>(.*?)</p>", re.search(r"data-flash>(.*?)</div>", html, re.S).group(1))


def test_a_meld_in_the_background_answers_the_regions_and_what_it_did(table):
    table.new_game(["A", "B", "C"], dealer=2)
    version = int(re.search(r'data-version="(\d+)"', table.page()).group(1))
    data = post(table, "/plays", {"player": "A", "meld": "", "confirm": "1",
                                  "cards": ["S9", "S8", "S7"], "round_no": "1"})
    assert data["notices"] == told(table, table.play_ids()[-1])  # "A: new run …, 30 points."
    assert data["notices"][0].startswith("A: new run") and data["notices"][0].endswith(", 30 points.")
    assert data["error"] is None
    assert 'data-flash' in data["said"] and "30 points." in data["said"]
    assert data["version"] == version + 1 and data["screen"] == "play" and data["round"] == 1
    assert data["url"] == f"{table.url}/table"
    assert set(data["regions"]) == {"scores", "turn", "log", "aces", "melds"}
    assert 'data-round-score="A">30<' in data["regions"]["scores"]
    assert 'data-type="meld"' in data["regions"]["log"]
    assert data["cards"]["S9"] == 0 and data["cards"]["S10"] == 1
    assert plays(table) == 1


def test_the_answer_is_what_live_sends(table, client):
    """The same code draws both: a phone that sent the play and one that polled see the
    same regions."""
    table.new_game(["A", "B", "C"], dealer=2)
    data = post(table, "/aces", {"player": "A", "card": "DA"})
    live = client.get(f"{table.url}/live?since=0").get_json()
    # Each form drawn has its own request id, and a CSRF token signed with the second it
    # was drawn in (two answers a second apart differ there only).
    fresh_ids = re.compile(r'name="(request_id|csrf_token)" value="[^"]*"')

    def drawn(answer):
        regions = {k: fresh_ids.sub("", v) for k, v in answer["regions"].items()}
        return {**{k: v for k, v in answer.items() if k not in ("notices", "error", "said")}, "regions": regions}

    assert drawn(data) == drawn(live)


def test_a_refused_play_says_why_with_its_status_and_saves_nothing(table):
    table.new_game(["A", "B", "C"], dealer=2)
    data = post(table, "/plays", {"player": "A", "meld": "", "confirm": "1",
                                  "cards": ["S9", "H8"]}, status=422)
    assert "is not a meld" in data["error"]
    assert data["notices"] == [] and "data-error" in data["said"] and 'role="alert"' in data["said"]
    assert set(data["regions"]) == {"scores", "turn", "log", "aces", "melds"}
    assert plays(table) == 0
    empty = post(table, "/plays", {"player": "A", "meld": "", "confirm": "1"}, status=422)
    assert empty["error"] == "Pick the cards first."


def test_a_pass_made_stale_by_another_phone_is_a_409(table):
    table.new_game(["A", "B", "C"], dealer=2)
    table.pass_turn()  # A's turn passed on by another phone
    data = post(table, "/pass", {"turn": "A", "round_no": "1"}, status=409)
    assert "already passed to B" in data["error"]
    assert 'data-turn="B"' in data["regions"]["turn"]


def test_a_pass_sent_with_cards_still_picked_is_refused_and_moves_nothing(table):
    """The page's script sends the cards still picked with a pass: they would be dropped,
    or logged for the next player, so the pass is refused until they are logged."""
    table.new_game(["A", "B", "C"], dealer=2)
    data = post(table, "/pass", {"turn": "A", "round_no": "1", "cards": ["D5", "D6", "D7"]}, status=422)
    assert data["error"] == ("You picked 5♦ 6♦ 7♦: log them first (Confirm), then tap Pass. "
                             "Nothing was saved.") and data["notices"] == []
    assert 'data-turn="A"' in data["regions"]["turn"] and plays(table) == 0
    passed = post(table, "/pass", {"turn": "A", "round_no": "1"})
    assert 'data-turn="B"' in passed["regions"]["turn"]


def test_a_play_sent_again_counts_once(table):
    """The phone got no answer and sends the play again, with the same request id."""
    table.new_game(["A", "B", "C"], dealer=2)
    meld = {"player": "A", "meld": "", "confirm": "1", "cards": ["S9", "S8", "S7"]}
    first = post(table, "/plays", meld, request_id="lost-answer")
    again = post(table, "/plays", meld, request_id="lost-answer")
    assert again["notices"] == ["Already saved: that was sent twice, and counts once."]
    assert again["error"] is None and again["version"] == first["version"]
    assert plays(table) == 1
    passed = post(table, "/pass", {"turn": "A"}, request_id="pass-1")
    assert passed["notices"] == ["B's turn."]
    assert post(table, "/pass", {"turn": "A"}, request_id="pass-1")["error"] is None
    assert table.turn() == "B"


def test_an_ace_a_pass_and_an_undo_in_the_background(table):
    table.new_game(["A", "B", "C"], dealer=2)
    ace = post(table, "/aces", {"player": "A", "card": "DA", "round_no": "1"})
    assert ace["notices"] == ["A: the ace of diamonds face up."] == told(table, table.play_ids()[-1])
    assert "value=\"DA\"" not in ace["regions"]["aces"]
    passed = post(table, "/pass", {"turn": "A", "round_no": "1"})
    assert passed["notices"] == ["B's turn."] and 'data-turn="B"' in passed["regions"]["turn"]
    last = re.search(r'name="last" value="(\d+)"', table.page()).group(1)  # the pass, as Undo names it
    undone = post(table, "/undo", {"last": last})
    assert len(undone["notices"]) == 1 and undone["notices"][0] == "Took back A's pass."
    assert 'data-turn="A"' in undone["regions"]["turn"]
    stale = post(table, "/undo", {"last": last}, status=409)  # that pass is undone already
    assert stale["error"]


def test_going_out_in_the_background_answers_the_screen_to_go_to(table):
    table.new_game(["A", "B", "C"], dealer=2)
    table.meld("A", "S9", "S8", "S7")
    refused = post(table, "/out", {"player": "A", "cards": ["DK"], "meld": ""}, status=422)
    assert refused["error"].startswith("You picked K♦: log them first") and refused["notices"] == []
    stale = post(table, "/out", {"player": "A", "round_no": "7"}, status=409)
    assert "round 7 is over" in stale["error"] and stale["notices"] == []
    data = post(table, "/out", {"player": "A", "round_no": "1"})
    assert data["notices"] == ["A went out. Enter the cards left in the other hands."]
    assert data["screen"] == "end" and data["url"] == f"{table.url}/end"
    assert "scores" in data["regions"] and "aces" not in data["regions"]


def test_without_the_header_the_routes_answer_as_forms(table):
    table.new_game(["A", "B", "C"], dealer=2)
    response = table.meld("A", "S9", "S8", "S7")  # expects the 303
    assert response.headers["Location"].startswith(f"{table.url}/table?saved=")
    refused = table.meld("A", "S9", "H8", expect=422)
    assert refused.mimetype == "text/html"


def test_robber_plays_in_the_background(client):
    game = Robber(client, ["Ann", "Bob", "Cy"])
    json_post = game.client.post
    meld = json_post(game.url + "/play", headers=JSON, data={
        "player": "Ann", "action": "play", "cards": ["H3", "H4", "H5"], "request_id": "j1"})
    assert meld.status_code == 200 and meld.is_json
    data = meld.get_json()
    assert re.fullmatch(r"Ann melds .+ \(meld 1\)\.", data["notices"][0])
    assert set(data["regions"]) == {"scores", "turn", "board", "log", "melds", "taken"}
    steal = json_post(game.url + "/play", headers=JSON, data={
        "player": "Bob", "action": "play", "cards": ["H6"], "meld": str(game.meld_id(1)),
        "request_id": "j2"}).get_json()
    assert steal["notices"][0].startswith("Bob steals meld 1 from Ann with ")
    refused = json_post(game.url + "/play", headers=JSON, data={
        "player": "Cy", "action": "play", "cards": ["S9", "H8", "C2"], "request_id": "j3"})
    assert refused.status_code == 422 and refused.get_json()["error"]
    taken = json_post(game.url + "/play", headers=JSON, data={
        "player": "Cy", "action": "take", "cards": ["HA"], "request_id": "j4"}).get_json()
    assert 'data-taken="HA"' in taken["regions"]["taken"]
    out = json_post(game.url + "/play", headers=JSON, data={
        "player": "Cy", "action": "out", "cards": ["HA"], "request_id": "j5"})
    assert out.status_code == 422 and "must go into a meld" in out.get_json()["error"]
    undone = json_post(game.url + "/undo", headers=JSON, data={"request_id": "j6"}).get_json()
    assert undone["notices"] and 'data-taken' not in undone["regions"]["taken"]
    passed = json_post(game.url + "/pass", headers=JSON, data={"request_id": "j7"}).get_json()
    turn = re.search(r'data-turn="([^"]+)"', passed["regions"]["turn"]).group(1)
    assert passed["error"] is None and passed["notices"] == [f"{turn}’s turn."]
