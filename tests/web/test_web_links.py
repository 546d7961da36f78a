"""A game's edit link and read-only link (issue: many phones, one table)."""
from __future__ import annotations

import re

import pytest
from web_table import seed_round

POSTS = ("/pass", "/plays", "/aces", "/out", "/undo", "/hands", "/end", "/plays/1", "/plays/1/delete")


def share_links(html: str) -> dict[str, str]:
    """access → URL, as the game page offers them to share."""
    return {access: url for url, access in re.findall(r'value="([^"]+)" data-link="(edit|view)"', html)}


@pytest.fixture
def links(table, client):
    table.new_game(["A", "B", "C"], dealer=2)
    html = client.get(table.url).get_data(as_text=True)
    found = share_links(html)
    return {access: url.removeprefix("http://localhost").removesuffix("/table") for access, url in found.items()}


def test_the_game_page_shows_both_links_with_qr_codes(table, client, links):
    html = client.get(table.url).get_data(as_text=True)
    assert set(links) == {"edit", "view"}
    assert links["edit"] == table.url
    assert links["view"] != links["edit"]
    assert html.count('class="qr"') == 3 and "<title>Read-only link" in html  # and the scoreboard's


@pytest.mark.parametrize("access", ["edit", "view"])
def test_each_secret_carries_at_least_128_random_bits(links, access):
    secret = links[access].split("-", 1)[1]
    assert len(secret) * 6 >= 128  # URL-safe base64: 6 bits a character


def test_the_read_only_link_shows_the_live_table_without_controls(table, client, links):
    seed_round(table)
    watcher = client.application.test_client()
    html = watcher.get(links["view"] + "/table").get_data(as_text=True)
    assert "data-read-only" in html
    assert 'data-play="' in html and 'data-total="A"' in html
    for control in ('id="play"', 'data-action="pass"', 'data-action="undo"', 'class="edit"'):
        assert control not in html


@pytest.mark.parametrize("path", POSTS)
def test_the_read_only_link_cannot_change_anything(table, client, links, path):
    table.meld("A", "S7", "S8", "S9")
    def log():
        html = client.get(table.url + "/table").get_data(as_text=True)
        return re.findall(r'data-play="\d+"|data-total="[^"]+">[^<]*', html)

    before = log()
    watcher = client.application.test_client()
    response = watcher.post(links["view"] + path, data={"player": "A", "cards": ["S3", "H3"], "card": "SA",
                                                         "round_no": "1", "confirm": "1", "save": "1"})
    assert response.status_code == 403
    assert log() == before


def test_the_read_only_link_opens_no_edit_page(table, client, links):
    table.meld("A", "S7", "S8", "S9")
    play = re.search(r'data-play="(\d+)"', client.get(table.url + "/table").get_data(as_text=True)).group(1)
    watcher = client.application.test_client()
    assert watcher.get(f"{links['view']}/plays/{play}/edit").status_code == 403
    assert client.get(f"{table.url}/plays/{play}/edit").status_code == 200


def test_a_watcher_is_never_shown_the_edit_link(client, links):
    watcher = client.application.test_client()
    html = watcher.get(links["view"]).get_data(as_text=True)
    assert set(share_links(html)) == {"view"}
    assert links["edit"].split("-", 1)[1] not in html


def test_history_lists_only_the_games_this_phone_opened(table, client, links):
    stranger = client.application.test_client()
    assert "data-game=" not in stranger.get("/").get_data(as_text=True)
    stranger.get(links["view"] + "/table")
    html = stranger.get("/").get_data(as_text=True)
    assert html.count("data-game=") == 1
    assert links["edit"].split("-", 1)[1] not in html


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>'])
def test_player_names_are_escaped_everywhere(table, client, name):
    table.new_game([name, "B"], dealer=1)
    table.meld(name, "S7", "S8", "S9")
    for path in ("/", table.url, table.url + "/table", table.url + "/rules", table.url + "/rounds/1"):
        html = client.get(path).get_data(as_text=True)
        assert name not in html, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(table.url + "/table").get_data(as_text=True) \
        or "&#34;&gt;&lt;img" in client.get(table.url + "/table").get_data(as_text=True)


def test_urls_kept_for_one_link_never_reach_another(table, client, links):
    """A page's URLs carry the key of the link it was opened with: the editor's pages,
    drawn first, lend none of their URLs to a watcher's page or to another game's."""
    table.meld("A", "S7", "S8", "S9")
    for path in ("/table", "/live?since=-1", ""):
        client.get(table.url + path)  # every URL of these pages made with the edit key
    watcher = client.application.test_client()
    for path in ("/table", "/live?since=-1", ""):
        html = watcher.get(links["view"] + path).get_data(as_text=True)
        assert links["edit"].split("-", 1)[1] not in html, path
    assert f'data-live="{links["view"]}/live"' in watcher.get(links["view"] + "/table").get_data(as_text=True)
    first = table.url
    table.new_game(["D", "E"])
    html = client.get(table.url + "/table").get_data(as_text=True)
    assert first.split("-", 1)[1] not in html and f'data-live="{table.url}/live"' in html
