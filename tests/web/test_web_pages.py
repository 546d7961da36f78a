"""Every page: mobile first, no request leaves the origin, no inline script, the manifest."""
import re
import struct

import pytest
from web_table import seed_round


@pytest.fixture
def played(table):
    """A game with a counted round and a second round in play, plus a game at its round end."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    table.meld("B", "S7", "S8", "S9")
    game = table.url
    table.new_game(["X", "Y"])
    table.out("Y")
    return game, table.url


def pages(client, played):
    game, ending = played
    first = re.search(r'data-play="(\d+)"', client.get(f"{game}/table").get_data(as_text=True)).group(1)
    return [
        "/", "/games", "/games/new", "/rules/iceberg",
        game, f"{game}/table", f"{game}/rules", f"{game}/rounds/1",
        f"{game}/rounds/2", f"{game}/plays/{first}/edit",
        f"{game}/preview?player=C&cards=S10&cards=SJ",
        f"{ending}/end", f"{ending}/table",
    ]


def test_every_page_answers(client, played):
    for path in pages(client, played):
        assert client.get(path).status_code == 200, path


def test_every_page_is_mobile_first_and_accessible(client, played):
    for path in pages(client, played):
        html = client.get(path).get_data(as_text=True)
        if "preview" in path:
            continue
        assert '<html lang="en">' in html, path
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html, path
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, path
        # Every form control has a label (wrapping it, or for= its id), hidden fields aside.
        for control in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
            if 'type="hidden"' in control:
                continue
            ident = re.search(r'id="([^"]+)"', control)
            labelled = ident and f'for="{ident.group(1)}"' in html
            assert labelled or _wrapped(html, control), (path, control)


def _wrapped(html, control):
    at = html.index(control)
    return html.rfind("<label", 0, at) > html.rfind("</label>", 0, at)


def test_no_inline_scripts_or_event_handlers(client, played):
    for path in pages(client, played):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "javascript:" not in html and 'style="' not in html, path


def test_nothing_references_another_origin(client, played, app):
    static = sorted(p.name for p in __import__("pathlib").Path(app.static_folder).iterdir())
    bodies = [client.get(path).get_data(as_text=True) for path in pages(client, played)]
    bodies += [client.get(f"/static/{name}").get_data(as_text=True) for name in static
               if not name.endswith(".png")]
    bodies.append(client.get("/manifest.webmanifest").get_data(as_text=True))
    for body in bodies:
        # The SVG namespace is a name, not a request; the game's own links (to share, as
        # QR codes) point at this server.
        urls = [u for u in re.findall(r"https?://[^\s\"'<>)]+", body)
                if u != "http://www.w3.org/2000/svg" and not u.startswith("http://localhost/")]
        assert urls == []


def test_manifest_and_icons_are_served(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            assert image.data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", image.data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            assert len(image.data) < 20_000
            sizes[icon["sizes"]] = True
        else:
            assert image.data.startswith(b"<svg")
    assert {"192x192", "512x512"} <= set(sizes)


def test_css_has_dark_mode_and_big_tap_targets(client):
    css = client.get("/static/app.css").get_data(as_text=True)
    assert "prefers-color-scheme:dark" in css.replace(" ", "")
    assert "min-height:44px" in css


def test_script_keeps_the_screen_awake(client):
    js = client.get("/static/app.js").get_data(as_text=True)
    assert "navigator.wakeLock.request" in js and "visibilitychange" in js


def test_suit_colours_are_this_phone_s_choice_kept_in_its_session(client, app):
    """Two colours or four (issue 25, item 4), at the foot of the pages other than the table
    screens; the choice is this phone's: another phone still sees two."""
    page = client.get("/games").get_data(as_text=True)
    assert "data-suit-colours" in page and '<html lang="en">' in page
    answer = client.post("/suits", data={"suits": "four", "next": "/games"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/games")
    page = client.get("/games").get_data(as_text=True)
    assert '<html lang="en" class="four">' in page
    assert re.search(r'<button name="suits" value="four" aria-current="true">', page)
    assert 'class="four"' not in app.test_client().get("/games").get_data(as_text=True)
    refused = client.post("/suits", data={"suits": "three", "next": "/games"})
    assert refused.status_code == 422 and "two colours or in four" in refused.get_data(as_text=True)
    assert '<html lang="en" class="four">' in client.get("/games").get_data(as_text=True)  # unchanged
    client.post("/suits", data={"suits": "two", "next": "/games"})
    assert 'class="four"' not in client.get("/games").get_data(as_text=True)


def test_a_variant_whose_family_of_pages_is_missing_stops_the_app_at_start(monkeypatch):
    """Checked when the app is made (views/families.py register_families), not at a table's
    first page: every variant must have a family of pages (which declares its pages, its
    live payload and its scoreboard at once), and every page it names must be a route."""
    from dataclasses import replace

    from scorekeeper import create_app
    from scorekeeper.games import registry
    from scorekeeper.web.views import table

    config = {"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "x"}
    create_app(config)  # every variant of the registry has its family
    orphan = replace(registry.VARIANTS["rummy"], key="orphan", screens="nowhere")
    monkeypatch.setitem(registry.VARIANTS, "orphan", orphan)
    with pytest.raises(RuntimeError, match="variant 'orphan': no family of pages 'nowhere'"):
        create_app(config)
    monkeypatch.delitem(registry.VARIANTS, "orphan")
    gone = replace(table.FAMILY, pages={**table.FAMILY.pages, "game": "games.gone"})
    monkeypatch.setattr(table, "FAMILY", gone)
    with pytest.raises(RuntimeError, match="family 'table' names pages that are no route: games.gone"):
        create_app(config)
