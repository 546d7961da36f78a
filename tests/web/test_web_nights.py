"""Club night through its pages (views/nights.py), without JavaScript: a night opened from
the group's edit link, its tables started in one tap from the suggested seats, games
played to their end, standings checked against the games, a table abandoned, a player
who leaves early and one who arrives late, the read-only link, the screen and the sheet,
the night in a player's statistics; and bad input refused in words, changing nothing."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from db_dump import dump

from scorekeeper.storage import kernel

TWELVE = "Ann Bob Cy Dee Eve Fay Gus Hal Ivy Jo Kai Lu".split()


def text(response):
    return unescape(response.get_data(as_text=True))


@pytest.fixture
def group(client, db):
    """A group this phone holds the edit link of (its first game made it): (edit key, read-only key)."""
    response = client.post("/games", data={"variant": "gin", "first_dealer": "0", "seat_0": "Zed", "seat_1": "Yan"})
    game = int(re.search(r"/g/(\d+)-", response.headers["Location"]).group(1))
    group_id = kernel.group_of(db, game)
    edit, view = kernel.group_secrets(db, group_id)
    return f"{group_id}-{edit}", f"{group_id}-{view}"


def open_night(client, key, names=TWELVE, **more):
    data = {"variant": "rummy", "players": "\n".join(names), "table_size": "4", "ranking": "places",
            "places": "3 2 1 0", "rule_target": "10", **more}
    return client.post(f"/group/{key}/nights", data=data)


def night_url(client, key, **more):
    response = open_night(client, key, **more)
    assert response.status_code == 303, text(response)[-1500:]
    return response.headers["Location"]


def suggested(page):
    """The suggested tables' forms: [(action, fields)] as the page sends them."""
    forms = re.findall(r'<form method="post" action="([^"]+)" class="night-table" data-suggested="\d+">(.*?)</form>',
                       page, re.S)
    return [(action, dict(re.findall(r'name="([^"]+)" value="([^"]*)"', body))) for action, body in forms]


def seats(fields):
    return [v for k, v in sorted(fields.items()) if k.startswith("seat_")]


def start_suggested(client, url):
    """Every suggested table started with one tap each; the seats of each."""
    started = []
    for action, fields in suggested(text(client.get(url))):
        response = client.post(action, data=fields)
        assert response.status_code == 303, text(response)[-1500:]
        started.append(seats(fields))
    return started


def table_links(client, url):
    page = text(client.get(url))
    return re.findall(r'<li data-table="(\d+)" data-table-number="\d+"[^>]*>.*?'
                      r'<a href="(/g/[^"]+)" data-action="open-table">', page, re.S)


def finish(client, link, out, names, hands):
    """One round of Basic Rummy to its end (target 10): ``out`` went out, the others hold ``hands``."""
    base = link.rsplit("/counted", 1)[0]
    data = {"round_no": "1", "ended": f"p{names.index(out)}", "save": "1"}
    for i, name in enumerate(names):
        if name in hands:
            data[f"hand_{i}"] = hands[name]
    response = client.post(base + "/counted/round", data=data)
    assert response.status_code == 303, text(response)[-800:]


def standings(page):
    return {name: (int(rank), points) for name, rank, points in re.findall(
        r'<tr data-standing="([^"]+)" data-rank="(\d+)".*?data-points>([^<]+)<', page, re.S)}


def test_the_group_page_opens_a_night_and_lists_it(client, group):
    edit, view = group
    page = text(client.get(f"/group/{edit}"))
    assert f'href="/group/{edit}/nights/new"' in page
    form = client.get(f"/group/{edit}/nights/new?variant=gin")
    assert form.status_code == 200 and "A night of Gin Rummy" in text(form)
    url = night_url(client, edit, name="Friday club")
    assert "The night is open" in text(client.get(url))
    assert "Friday club" in text(client.get(f"/group/{edit}"))
    watched = text(client.get(f"/group/{view}"))
    assert "Friday club" in watched and "/nights/new" not in watched
    assert client.get(f"/group/{view}/nights/new").status_code == 403


def test_twelve_players_two_rounds_of_tables_standings_from_the_games(client, group, db):
    edit, _view = group
    url = night_url(client, edit)
    first = start_suggested(client, url)
    assert [len(t) for t in first] == [4, 4, 4] and sorted(sum(first, [])) == sorted(TWELVE)
    again = start_suggested(client, url)
    assert again == []  # everyone is at a table
    assert "Everyone is at a table" in text(client.get(url))
    games = table_links(client, url)
    assert len(games) == 3
    # A table's own round is its game's, told apart from the night's rounds of tables.
    page = text(client.get(url))
    assert page.count("its game at round 1") == 3 and "Tables of round 1" in page
    for (game_id, _link), names in zip(games, first):
        rules = kernel.header(db, int(game_id))
        assert rules["rules"]["target"] == 10 and rules["players"] == names  # the night's rules and seats
    # Table 1: its first player goes out and wins; table 2: its second.
    finish(client, games[0][1], first[0][0], first[0], {first[0][1]: ["SK"], first[0][2]: ["D9"], first[0][3]: ["H2"]})
    finish(client, games[1][1], first[1][1], first[1],
           {first[1][0]: ["SK", "HK"], first[1][2]: ["C3"], first[1][3]: ["C4"]})
    page = text(client.get(url))
    table = standings(page)
    assert table[first[0][0]] == (1, "3") and table[first[1][1]] == (1, "3")
    # The winner takes all: the other three end on 0, tied for second: 2, 1 and 0 shared.
    assert [table[p] for p in first[0][1:]] == [(3, "1")] * 3
    assert all(table[p][1] == "0" for p in first[2])  # table 3 still playing: nothing yet
    assert re.search(rf'data-standing="{first[2][0]}".*?data-playing', page, re.S)
    assert "1 table is still playing" in page
    # The traces: each figure names its table and links its game.
    trace = re.search(rf'<li data-trace="{first[0][0]}">(.*?)</ul>', page, re.S).group(1)
    assert "Round 1 of tables, table 1: place 1 of 4" in trace and f"/g/{games[0][0]}-" in trace
    loser = re.search(rf'<li data-trace="{first[0][1]}">(.*?)</ul>', page, re.S).group(1)
    assert "table 1: place 2 of 4 (tied)" in loser and "points: 1" in loser
    assert f"Ahead tonight, tied: {first[0][0]} and {first[1][1]}, 3 each." in page
    finish(client, games[2][1], first[2][0], first[2], {first[2][1]: ["SK"], first[2][2]: ["S5"], first[2][3]: ["H5"]})
    table = standings(text(client.get(url)))
    assert sorted(table.values()) == [(1, "3")] * 3 + [(4, "1")] * 9
    # Round 2 of tables: everyone seated once, as few meeting again as can be (one pair a table).
    second = start_suggested(client, url)
    assert sorted(sum(second, [])) == sorted(TWELVE)
    met = {frozenset((a, b)) for t in first for a in t for b in t if a != b}
    assert sum(1 for t in second for a in t for b in t if a < b and frozenset((a, b)) in met) == 3
    assert 'data-tables-round="2"' in text(client.get(url))


def test_an_abandoned_table_counts_for_nothing_until_counted_again(client, group):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]))
    first = start_suggested(client, url)
    (game_id, link), = table_links(client, url)
    finish(client, link, first[0][0], first[0], {first[0][1]: ["SK"]})
    assert standings(text(client.get(url)))[first[0][0]] == (1, "3")
    response = client.post(f"{url}/tables/{game_id}", data={"abandoned": "1"})
    assert response.status_code == 303
    page = text(client.get(url))
    assert "data-abandoned" in page and standings(page)[first[0][0]][1] == "0"
    assert re.search(rf'data-game="{game_id}".*?data-abandoned>abandoned at its club night', text(
        client.get(f"/group/{edit}")), re.S)  # the group's history says so
    client.post(f"{url}/tables/{game_id}", data={"abandoned": "0"})
    assert standings(text(client.get(url)))[first[0][0]] == (1, "3")
    assert "data-abandoned" not in text(client.get(f"/group/{edit}"))


def test_a_player_who_leaves_is_seated_no_more_and_one_who_arrives_is(client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:8]))
    player = db.execute("SELECT id FROM players WHERE name = 'Ann'").fetchone()[0]
    assert client.post(f"{url}/players", data={"player": str(player), "left": "1"}).status_code == 303
    response = client.post(f"{url}/players", data={"name": "  Max  "})
    assert response.status_code == 303
    page = text(client.get(url))
    seated = sum((seats(f) for _a, f in suggested(page)), [])
    assert "Ann" not in seated and "Max" in seated and len(seated) == 8
    assert "left early" in page
    client.post(f"{url}/players", data={"player": str(player), "left": "0"})
    assert "Ann" in sum((seats(f) for _a, f in suggested(text(client.get(url)))), [])


def test_a_table_added_late_plays_any_game_and_its_seats_come_from_the_form(client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]))
    form = client.get(f"{url}/tables/new?variant=gin&round=1")
    assert form.status_code == 200 and "New table: Gin Rummy" in text(form)
    response = client.post(f"{url}/tables", data={"variant": "gin", "round": "1", "first_dealer": "0",
                                                   "seat_0": "Ann", "seat_1": "Newcomer"})
    assert response.status_code == 303
    page = text(client.get(url))
    assert "Gin Rummy" in page and 'data-night-player="Newcomer"' in page


def test_under_the_sum_of_scores_every_table_plays_the_nights_game(app, client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), ranking="scores")
    before = dump(app.config["DATABASE"])
    response = client.post(f"{url}/tables", data={"variant": "gin", "round": "1", "first_dealer": "0",
                                                   "seat_0": "Ann", "seat_1": "Bob"})
    assert response.status_code == 422
    assert "every table plays it" in text(response) and dump(app.config["DATABASE"]) == before
    first = start_suggested(client, url)
    (_game, link), = table_links(client, url)
    finish(client, link, first[0][0], first[0], {first[0][1]: ["SK", "HQ"]})
    table = standings(text(client.get(url)))
    assert table[first[0][0]] == (1, "20")


@pytest.mark.parametrize("change, says", [
    ({"players": "Ann\nann"}, "look like one name"),
    ({"players": "Ann"}, "name at least 2 players"),
    ({"players": "Ann\nBob\n" + "x" * 41}, "Line 3"),
    ({"table_size": "5"}, "seats 2 to 4 players"),
    ({"table_size": "9" * 30}, "seats 2 to 4 players"),
    ({"places": "3 two 1"}, "whole numbers"),
    ({"places": "1 " * 9}, "at most 8 numbers"),
    ({"ranking": "luck"}, "Not a valid choice"),
    ({"rule_target": "-4"}, "Target"),
    ({"table_size": "3", "rule_target": "10", "places": "3 1", "variant": "gin"}, "seats 2 to 2 players"),
    ({"name": "n" * 41}, "keep it to 40 letters"),
    ({"name": "\u200b\u200b"}, "invisible character"),
    ({"variant": "rummy500", "table_size": "8", "rule_decks": "1"},
     "A table of 8 players could not start: Rules: one deck cannot deal 7 cards to each of 8 players"),
])
def test_a_night_that_cannot_be_is_refused_in_words_and_changes_nothing(app, client, group, db, change, says):
    edit, _view = group
    before = dump(app.config["DATABASE"])
    response = open_night(client, edit, **change)
    assert response.status_code == 422
    assert says in text(response) and "Traceback" not in text(response)
    assert dump(app.config["DATABASE"]) == before


def test_the_form_sent_twice_opens_one_night_and_a_table_tapped_twice_starts_once(client, group, db):
    edit, _view = group
    first = open_night(client, edit, request_id="night-once-1234")
    second = open_night(client, edit, request_id="night-once-1234")
    assert first.headers["Location"] == second.headers["Location"]
    url = first.headers["Location"]
    action, fields = suggested(text(client.get(url)))[0]
    assert client.post(action, data=fields).status_code == 303
    assert client.post(action, data=fields).status_code == 303
    assert db.execute("SELECT COUNT(*) FROM night_tables").fetchone()[0] == 1


def test_the_read_only_link_shows_the_night_and_changes_nothing(app, client, group, db):
    edit, view = group
    url = night_url(client, edit)
    start_suggested(client, url)
    ro = url.replace(edit, view)
    page = text(client.get(ro))
    assert "Standings" in page and "data-suggested" not in page and "Abandon" not in page
    before = dump(app.config["DATABASE"])
    for path, data in ((f"{ro}/players", {"name": "Max"}), (f"{ro}/tables", {"variant": "rummy"}),
                       (f"/group/{view}/nights", {"variant": "rummy", "players": "A\nB"})):
        assert client.post(path, data=data).status_code == 403
    assert dump(app.config["DATABASE"]) == before
    assert client.get(f"{ro}/sheet").status_code == 200


def test_the_screen_answers_204_until_something_changes(client, group):
    edit, view = group
    url = night_url(client, edit)
    screen = client.get(url.replace(edit, view) + "/screen")
    page = text(screen)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    assert screen.status_code == 200 and "data-board-every" in page and "Ann" in page
    assert client.get(url + f"/screen?since={version}").status_code == 204
    assert client.get(url + f"?since={version}").status_code == 204  # the night's page, live too
    start_suggested(client, url)
    moved = client.get(url + f"/screen?since={version}")
    assert moved.status_code == 200 and "Table 3" in text(moved)
    assert client.get(url + f"?since={version}").status_code == 200


def test_the_sheet_lists_every_table_and_each_players_games(client, group):
    edit, view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), name="Sheet night")
    first = start_suggested(client, url)
    (_game, link), = table_links(client, url)
    finish(client, link, first[0][0], first[0], {first[0][1]: ["SK"]})
    sheet = text(client.get(url + "/sheet"))
    assert "Night sheet: Sheet night" in sheet and "<svg" in sheet
    assert f"/group/{view}/nights/" in sheet  # shared by the read-only link
    winner = first[0][0]
    assert re.search(rf'data-player="{winner}"><strong>{winner}</strong>:\s*round 1, table 1: place 1 \(3\)', sheet)
    assert f"Ahead tonight: {winner}, 3." in sheet  # every table finished, but the evening goes on
    loser = first[0][1]
    assert re.search(rf'data-player="{loser}"><strong>{loser}</strong>:\s*round 1, table 1: place 2, tied', sheet)


def test_a_night_is_won_once_its_evening_is_past(client, group, db):
    """With every table finished the night is not closed (the next round may start): who
    is ahead is said; twelve hours after the night was opened, who won it."""
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), name="Late night")
    first = start_suggested(client, url)
    (_game, link), = table_links(client, url)
    finish(client, link, first[0][0], first[0], {first[0][1]: ["SK"]})
    winner = first[0][0]
    assert f"Ahead tonight: {winner}, 3." in text(client.get(url))
    version = re.search(r'data-version="(\d+)"', text(client.get(url + "/screen"))).group(1)
    assert client.get(url + f"/screen?since={version}").status_code == 204
    opened = datetime.now(UTC) - timedelta(hours=12, minutes=1)
    db.execute("UPDATE nights SET created = ?", [opened.isoformat(timespec="seconds")])
    db.conn.commit()
    assert f"Won the night: {winner}, 3." in text(client.get(url))
    moved = client.get(url + f"/screen?since={version}")  # the TV screen moves on, nothing else changed
    assert moved.status_code == 200 and f"{winner}" in text(moved) and "Ahead tonight" not in text(moved)


def test_a_night_of_another_group_is_not_found(client, group, db):
    edit, _view = group
    url = night_url(client, edit)
    other = kernel.add_group(db)
    db.conn.commit()
    other_edit, _ = kernel.group_secrets(db, other)
    night = url.rsplit("/", 1)[1]
    assert client.get(f"/group/{other}-{other_edit}/nights/{night}").status_code == 404
    assert client.get(f"/group/{edit}/nights/999").status_code == 404


def test_a_players_statistics_show_their_nights(client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), name="Stats night")
    first = start_suggested(client, url)
    (_game, link), = table_links(client, url)
    finish(client, link, first[0][0], first[0], {first[0][1]: ["SK"]})
    player = db.execute("SELECT id FROM players WHERE name = ?", [first[0][0]]).fetchone()[0]
    page = text(client.get(f"/group/{edit}/players/{player}"))
    assert re.search(r"Stats night</a> · place 1 · 1 game, 1 won · points: 3", page)


def test_a_merge_keeps_the_merged_players_nights(client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="Ann\nBob\nAnnie\nCy")
    for pair in (("Annie", "Bob"), ("Ann", "Cy")):
        client.post(f"{url}/tables", data={"variant": "rummy", "round": "1", "first_dealer": "0",
                                           "seat_0": pair[0], "seat_1": pair[1]})
    ann, annie = (db.execute("SELECT id FROM players WHERE name = ?", [n]).fetchone()[0] for n in ("Ann", "Annie"))
    response = client.post(f"/group/{edit}/players/{annie}/merge", data={"into": str(ann), "sure": "y"})
    assert response.status_code == 303
    page = text(client.get(url))
    assert 'data-night-player="Ann"' in page and 'data-night-player="Annie"' not in page
    assert len(re.search(r'<li data-trace="Ann">(.*?)</ul>', page, re.S).group(1).split("<li>")) == 3


def test_the_night_in_spanish_and_german(client, group):
    edit, _view = group
    url = night_url(client, edit)
    for lang, word in (("es", "Clasificación"), ("de", "Tabelle")):
        client.post("/language", data={"lang": lang, "next": "/"})
        assert word in text(client.get(url))


def test_a_phone_with_no_group_opens_a_night_in_a_new_group_and_holds_its_edit_link(client, db):
    page = text(client.get("/"))
    assert 'href="/nights/new"' in page
    form = client.get("/nights/new?variant=rummy")
    assert form.status_code == 200 and 'action="/nights"' in text(form)
    response = client.post("/nights", data={"variant": "rummy", "players": "Ann\nBob", "table_size": "2",
                                            "ranking": "places", "places": "3 1", "request_id": "first-night-123"})
    assert response.status_code == 303
    url = response.headers["Location"]
    group = int(re.search(r"/group/(\d+)-", url).group(1))
    edit, _view = kernel.group_secrets(db, group)
    assert url.startswith(f"/group/{group}-{edit}/nights/")
    assert "start the first tables" in text(client.get(url))
    # The same form again (its answer lost on bad wifi): the same night, no second group.
    again = client.post("/nights", data={"variant": "rummy", "players": "Ann\nBob", "table_size": "2",
                                         "ranking": "places", "places": "3 1", "request_id": "first-night-123"})
    assert again.headers["Location"] == url
    assert db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 1
    # Its home group now: the home page's form leads there.
    assert client.get("/nights/new").headers["Location"].startswith(f"/group/{group}-{edit}/nights/new")


def test_one_player_sits_at_one_table_whatever_a_second_phone_or_an_old_tab_sends(app, client, group):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:8]))
    action, fields = suggested(text(client.get(url)))[0]
    assert client.post(action, data=fields).status_code == 303
    before = dump(app.config["DATABASE"])
    again = client.post(action, data=dict(fields, request_id="another-phone-1234"))  # the same tap, another phone
    assert again.status_code == 422
    assert f"{fields['seat_0']}, {fields['seat_1']}" in text(again) and "already at a table" in text(again)
    assert dump(app.config["DATABASE"]) == before
    # The rest of the round is seated as suggested; no one is offered a second seat.
    rest = sum((seats(f) for _a, f in suggested(text(client.get(url)))), [])
    assert sorted(rest + seats(fields)) == sorted(TWELVE[:8])


def test_under_the_sum_of_scores_a_table_of_other_rules_is_refused(app, client, group):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), ranking="scores")
    before = dump(app.config["DATABASE"])
    response = client.post(f"{url}/tables", data={"variant": "rummy", "round": "1", "first_dealer": "0",
                                                   "seat_0": "Ann", "seat_1": "Bob", "rule_scoring": "penalty",
                                                   "rule_target": "10"})
    assert response.status_code == 422 and "played by the night's rules" in text(response)
    assert dump(app.config["DATABASE"]) == before


def test_a_name_typed_by_mistake_comes_off_the_list_but_not_one_who_played(client, group):
    edit, _view = group
    url = night_url(client, edit, players="Ann\nBob\nAnm")
    page = text(client.get(url))
    anm = re.search(r'data-night-player="Anm".*?name="player" value="(\d+)"', page, re.S).group(1)
    assert client.post(f"{url}/players", data={"player": anm, "remove": "1"}).status_code == 303
    assert 'data-night-player="Anm"' not in text(client.get(url))
    client.post(f"{url}/tables", data={"variant": "rummy", "round": "1", "first_dealer": "0",
                                       "seat_0": "Ann", "seat_1": "Bob"})
    page = text(client.get(url))
    ann = re.search(r'data-night-player="Ann".*?name="player" value="(\d+)"', page, re.S).group(1)
    refused = client.post(f"{url}/players", data={"player": ann, "remove": "1"})
    assert refused.status_code == 422 and "what was played stays" in text(refused)


def test_the_screen_keeps_a_table_of_an_earlier_round_while_it_plays_and_follows_a_rename(client, group, db):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]), table_size="2")
    first = start_suggested(client, url)
    (_g1, link1), (_g2, _link2) = table_links(client, url)
    finish(client, link1, first[0][0], first[0], {first[0][1]: ["SK"]})
    start_suggested(client, url)  # round 2 for the table that finished; round 1's other table plays on
    screen = text(client.get(url + "/screen"))
    assert "Table 2 of round 1" in screen and "Tables of round 2" in screen
    version = re.search(r'data-version="(\d+)"', screen).group(1)
    player = db.execute("SELECT id FROM players WHERE name = ?", [TWELVE[0]]).fetchone()[0]
    assert client.post(f"/group/{edit}/players/{player}/rename", data={"name": "Annie"}).status_code == 303
    moved = client.get(url + f"/screen?since={version}")
    assert moved.status_code == 200 and "Annie" in text(moved)


def test_a_night_opened_without_a_name_is_named_by_its_day_in_the_phones_words(client, group):
    edit, _view = group
    url = night_url(client, edit, name="")
    assert "The night of " in text(client.get(url))
    client.post("/language", data={"lang": "es", "next": "/"})
    assert "La noche del " in text(client.get(url))


def test_a_tables_game_page_leads_back_to_its_night_and_the_night_says_its_rules(client, group):
    edit, _view = group
    url = night_url(client, edit, players="\n".join(TWELVE[:4]))
    page = text(client.get(url))
    assert re.search(r"data-night-rules><strong>Rules:</strong> The published rules, changed: Target: 10", page)
    start_suggested(client, url)
    (_game, link), = table_links(client, url)
    game_page = text(client.get(link.rsplit("/counted", 1)[0] + "/counted"))
    assert re.search(rf'<a class="button" href="{re.escape(url)}" data-action="night">', game_page)


def test_a_players_page_shows_their_latest_nights_and_counts_the_earlier_ones(client, group, db):
    edit, _view = group
    for n in range(13):
        url = night_url(client, edit, players="Ann\nBob", table_size="2", name=f"Night {n + 1}")
    client.post(f"{url}/tables", data={"variant": "rummy", "round": "1", "first_dealer": "0",
                                       "seat_0": "Ann", "seat_1": "Bob"})
    ann = db.execute("SELECT id FROM players WHERE name = 'Ann'").fetchone()[0]
    page = text(client.get(f"/group/{edit}/players/{ann}"))
    shown = re.findall(r'data-player-night="\d+"><a href="[^"]+">(Night \d+)</a>', page)
    assert shown == [f"Night {n}" for n in range(13, 1, -1)]  # the latest twelve, the latest first
    assert "and 1 earlier night, on the group's page" in page


def test_a_nights_points_are_written_as_every_score_is(app):
    """Whole, halves in the page's language, and below nothing with a real minus sign."""
    from fractions import Fraction

    from scorekeeper.web.views.nights import points_filter
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert [points_filter(Fraction(n, d)) for n, d in ((3, 1), (5, 2), (-9, 1), (-3, 2))] == [
            "3", "2,5", "−9", "−1,5"]
