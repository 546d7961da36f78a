"""Security: headers on every response, CSRF on every form, escaping, constant-time secrets.

- Every response carries a Content-Security-Policy with no inline script or style,
  ``Referrer-Policy: no-referrer`` (a game's URL is its secret), ``nosniff`` and
  ``X-Frame-Options: DENY``; every page but a static file is ``Cache-Control: no-store``.
- Every POST form carries a CSRF token, and each page offers it in
  ``<meta name="csrf-token">`` for scripts to send as ``X-CSRFToken``.
- User text (names, uploaded file names, reasons quoting the file) is escaped;
  ``|safe`` is used only on the server-drawn QR codes.
- A link's secret is compared with ``hmac.compare_digest``, for both secrets, always.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from db_dump import dump
from markupsafe import escape
from web_table import seed_round

from scorekeeper import create_app
from scorekeeper.games.cards import JOKER, parse_card
from scorekeeper.games.words import Cards, Ordinal, Say, SayN, joined
from scorekeeper.web import links
from scorekeeper.web.security import CONTENT_SECURITY_POLICY
from scorekeeper.web.views.helpers import card_chips, drawn_filter

ROOT = Path(__file__).resolve().parents[2]
CSP_DIRECTIVES = {
    "default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
    "img-src": "'self' data:", "connect-src": "'self'", "frame-ancestors": "'none'",
    "base-uri": "'none'", "form-action": "'self'", "object-src": "'none'",
}


def policy(header: str) -> dict[str, str]:
    parts = [p.strip().split(None, 1) for p in header.split(";") if p.strip()]
    return {name: value for name, value in parts}


@pytest.fixture
def game(table, client):
    """Edit and read-only keys of a game with a counted round and a play in round 2."""
    table.new_game(["A", "B", "C"], dealer=2)
    seed_round(table)
    table.confirm_round(1)
    table.meld("B", "S7", "S8", "S9")
    html = client.get(table.url).get_data(as_text=True)
    view = re.search(r'value="http://localhost/g/([^"/]+)/table" data-link="view"', html).group(1)
    return {"edit": table.key, "view": view, "id": table.game_id, "play": table.play_ids()[-1]}


def every_kind_of_response(client, game):
    """(description, response): pages, downloads, static files, refusals and errors."""
    edit = f"/g/{game['edit']}"
    view = f"/g/{game['view']}"
    gets = ["/", "/games/new", "/rules/iceberg", "/games/import", "/manifest.webmanifest",
            "/static/app.css", "/static/app.js", "/static/icon.svg",
            edit, f"{edit}/table", f"{edit}/rounds/1", f"{edit}/rules", f"{edit}/export",
            f"{edit}/export.csv", f"{edit}/plays/{game['play']}/edit", f"{edit}/preview?cards=S10",
            f"{view}/table", "/no/such/page", f"/g/{game['id']}-wrong/table"]
    for path in gets:
        yield f"GET {path}", client.get(path)
    yield "refused play (422)", client.post(f"{edit}/plays", data={"player": "A", "cards": ["S2"], "confirm": "1"})
    yield "read-only POST (403)", client.post(f"{view}/pass", data={})
    yield "new game (303)", client.post("/games", data={"seat_0": "X", "seat_1": "Y", "first_dealer": "0"})
    yield "bad upload (422)", client.post("/games/import", data={"game_file": (io.BytesIO(b"{"), "x.json")},
                                          content_type="multipart/form-data")


def test_every_response_carries_the_security_headers(client, game):
    for what, response in every_kind_of_response(client, game):
        headers = response.headers
        assert policy(headers["Content-Security-Policy"]) | CSP_DIRECTIVES == policy(
            headers["Content-Security-Policy"]), what
        assert headers["Referrer-Policy"] == "no-referrer", what
        assert headers["X-Content-Type-Options"] == "nosniff", what
        assert headers["X-Frame-Options"] == "DENY", what


def test_no_page_is_stored_in_a_cache_but_static_files_may_be(client, game):
    for what, response in every_kind_of_response(client, game):
        if what.startswith("GET /static/"):
            assert response.headers.get("Cache-Control") != "no-store", what
        else:
            assert response.headers["Cache-Control"] == "no-store", what


def test_the_policy_allows_nothing_inline_and_nothing_from_elsewhere():
    directives = policy(CONTENT_SECURITY_POLICY)
    assert directives | CSP_DIRECTIVES == directives
    for value in directives.values():
        assert "unsafe" not in value and "*" not in value and "http" not in value


def test_the_session_cookie_is_http_only_and_same_site(client, game):
    # Another phone opening the link: its session changes (the game joins its list), so
    # it is sent (an unchanged session is not sent again: SESSION_REFRESH_EACH_REQUEST).
    phone = client.application.test_client()
    cookie = phone.get(f"/g/{game['edit']}").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


# ---------------------------------------------------------------------------------------
# CSRF: every form, and the header scripts use.


@pytest.fixture
def csrf_client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test",
                      "WTF_CSRF_ENABLED": True})
    return app.test_client()


def meta_token(html: str) -> str:
    return re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)


def _new_game(client, token):
    created = client.post("/games", data={"seat_0": "A", "seat_1": "B", "seat_2": "C",
                                          "first_dealer": "2", "csrf_token": token})
    assert created.status_code == 303
    return created.headers["Location"].removesuffix("/table")


def test_every_post_form_carries_a_csrf_token(csrf_client):
    client = csrf_client
    game = _new_game(client, meta_token(client.get("/").get_data(as_text=True)))
    token = meta_token(client.get(game + "/table").get_data(as_text=True))
    assert client.post(game + "/plays", data={"player": "A", "cards": ["S7", "S8", "S9"], "confirm": "1",
                                              "csrf_token": token}).status_code == 303
    play = re.search(r'data-play="(\d+)"', client.get(game + "/table").get_data(as_text=True)).group(1)
    pages = ["/", "/games/new", "/games/import", game + "/table", f"{game}/plays/{play}/edit"]
    ending = _new_game(client, token)
    assert client.post(ending + "/out", data={"player": "A", "csrf_token": token}).status_code == 303
    pages.append(ending + "/end")
    forms = 0
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        assert meta_token(html), path
        for form in re.findall(r"<form\b.*?</form>", html, re.S):
            if 'method="post"' in form:
                forms += 1
                assert 'name="csrf_token"' in form, (path, form[:200])
    assert forms >= 8  # import ×2, new game, play, undo, pass, edit, delete, hand, confirm …


def test_a_script_can_send_the_meta_token_as_x_csrftoken(csrf_client):
    client = csrf_client
    game = _new_game(client, meta_token(client.get("/").get_data(as_text=True)))
    token = meta_token(client.get(game + "/table").get_data(as_text=True))
    assert client.post(game + "/pass", data={}).status_code == 400
    assert client.post(game + "/pass", data={}, headers={"X-CSRFToken": "forged"}).status_code == 400
    assert client.post(game + "/pass", data={}, headers={"X-CSRFToken": token}).status_code == 303


# ---------------------------------------------------------------------------------------
# Escaping: every piece of user text.

NASTY = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</title><b>x"]


@pytest.mark.parametrize("name", NASTY)
def test_names_are_escaped_on_every_page_and_message(table, client, name):
    table.new_game([name, "B"], dealer=1)
    table.meld(name, "S7", "S8", "S9")
    pages = ["/", table.url, table.url + "/table", table.url + "/rules", table.url + "/rounds/1",
             table.url + f"/plays/{table.play_ids()[0]}/edit", table.url + "/preview?cards=S10&player=" + name]
    table.out(name)
    pages.append(table.url + "/end")
    # A refused play quotes the name it was given, and a flash message names the player.
    refused = client.post(table.url + "/aces", data={"player": name, "card": "SA"})
    bodies = [client.get(p).get_data(as_text=True) for p in pages] + [refused.get_data(as_text=True)]
    for path, html in zip(pages + ["refused"], bodies):
        assert name not in html, path
    assert any("&lt;" in html for html in bodies)


def test_text_from_an_uploaded_file_is_escaped(client):
    doc = {"format": "scorekeeper/1", "variant": "iceberg", "players": ["A", "B"],
           "rounds": [{"events": [{"type": "out", "player": NASTY[0]}]}]}
    filename = "<img src=x onerror=alert(1)>.json"
    response = client.post("/games/import", data={"game_file": (io.BytesIO(json.dumps(doc).encode()), filename)},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert NASTY[0] not in html and filename not in html
    assert "unknown player &#39;&lt;script&gt;" in html  # the reason quotes the file, escaped
    assert "&lt;img src=x onerror=alert(1)&gt;.json" in html


def test_safe_is_used_only_on_the_server_drawn_qr_codes():
    """Autoescape is on for every template; |safe only where the server drew the SVG."""
    uses = []
    for path in sorted((ROOT / "templates").glob("*.html")):
        text = path.read_text()
        assert "autoescape false" not in text, path.name
        uses += [(path.name, m) for m in re.findall(r"\{\{[^}]*\|\s*safe[^}]*\}\}", text)]
    # summary.html and counted_game.html include it
    assert uses == [("_share.html", "{{ link.qr|safe }}"), ("night.html", "{{ link.qr|safe }}"),
                    ("night_sheet.html", "{{ qr|safe }}"), ("sheet.html", "{{ qr|safe }}")]
    made = [(path.name, line.strip()) for path in (ROOT / "scorekeeper").rglob("*.py")
            for line in path.read_text().splitlines() if "Markup(" in line]
    # The card chips: a fixed piece of HTML whose values format() escapes, joined by a space.
    # (A sentence drawn with its cards as chips, words.HTMLReader and helpers.ChipReader,
    # makes Markup with escape() alone: test_a_sentence_drawn_with_chips_escapes_all_but_the_chips.)
    # A piece of a page and a live payload's mark for a piece left out: a fixed piece of HTML
    # whose one value, a key of hex digits, format() escapes all the same.
    assert sorted(made) == sorted([
        ("live.py", """_STUB = Markup('<template data-k="{}"></template>')  # a piece left out, by its key"""),
        ("helpers.py", """KEYED = Markup(' data-k="{}"')  # a piece's key, the last attribute of its first tag"""),
        ("helpers.py", """CHIP = Markup('<span class="{}" role="img" aria-label="{}">{}{}</span>')"""),
        ("helpers.py", 'return Markup(" ").join(chips.get(str(name)) or _chip(card_parts(name)) for name in names)'),
        # A round's log lines (each a piece or a macro's Markup) joined by a line break:
        # join escapes anything among them that is not Markup.
        ("helpers.py", 'return Markup("\\n").join(lines)')])


def test_a_card_chip_escapes_text_that_is_no_card():
    with create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "x"}).test_request_context():
        drawn = str(card_chips(["H5", "<b>&</b>", "10♠", JOKER]))
    assert drawn == ('<span class="k r h" role="img" aria-label="5 of hearts">5♥</span> '
                     '<span class="k" role="img" aria-label="&lt;b&gt;&amp;&lt;/b&gt;">&lt;b&gt;&amp;&lt;/b&gt;</span> '
                     '<span class="k b s" role="img" aria-label="10 of spades">10♠</span> '
                     '<span class="k j" role="img" aria-label="joker">joker</span>')


def test_a_sentence_drawn_with_chips_escapes_all_but_the_chips():
    """The ``drawn`` filter (helpers.ChipReader) declares no text safe: the templates,
    names, words and separators are escaped, and only the chips are HTML, however deep in
    the sentence they lie (in a sentence whose words follow a count, within a list)."""
    cards = Cards([parse_card("H5"), parse_card("S10")])
    sentence = Say("<i>%(player)s</i> & %(what)s", player="<b>x</b>", what=joined(
        [SayN("%(num)s <card>: %(cards)s on %(owner)s's", "%(num)s <cards>: %(cards)s on %(owner)s's", 2,
              cards=cards, owner="<u>y</u>"), Ordinal(3)], "<br>"))
    with create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "x"}).test_request_context():
        drawn = drawn_filter(sentence)
        assert drawn_filter("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"  # a name alone
    assert drawn == ('&lt;i&gt;&lt;b&gt;x&lt;/b&gt;&lt;/i&gt; &amp; 2 &lt;cards&gt;: '
                     '<span class="k r h" role="img" aria-label="5 of hearts">5♥</span> '
                     '<span class="k b s" role="img" aria-label="10 of spades">10♠</span> '
                     'on &lt;u&gt;y&lt;/u&gt;&#39;s&lt;br&gt;3rd')


@pytest.mark.parametrize("name", NASTY)
def test_names_are_escaped_in_robbers_log_whose_cards_are_chips(client, name):
    made = client.post("/games", data={"variant": "robber", "seat_0": name, "seat_1": "B", "first_dealer": "0"})
    table = made.headers["Location"]
    assert client.post(table + "/play", data={"player": name, "action": "play",
                                              "cards": ["H7", "H8", "H9"]}).status_code == 303
    html = client.get(table).get_data(as_text=True)
    assert name not in html
    line = re.search(r'<span class="said">(.*?)</span>\n', html).group(1)
    assert line == (f'{escape(name)} melds <span class="k r h" role="img" aria-label="7 of hearts">7♥</span> '
                    '<span class="k r h" role="img" aria-label="8 of hearts">8♥</span> '
                    '<span class="k r h" role="img" aria-label="9 of hearts">9♥</span> (meld 1)')


def test_the_qr_code_escapes_its_title():
    svg = links.qr_svg("http://localhost/g/1-x", "<b>&</b>")
    assert "<b>" not in svg and "&lt;b&gt;" in svg


# ---------------------------------------------------------------------------------------
# Secrets compared in constant time.


@pytest.fixture
def comparisons(monkeypatch):
    """The calls to hmac.compare_digest (the session and CSRF signatures use it too)."""
    calls = []
    real = links.hmac.compare_digest

    def recording(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(links.hmac, "compare_digest", recording)
    return calls


def _secrets(app, game_id):
    from scorekeeper.storage.kernel import secrets_of
    from scorekeeper.web.database import get_db

    with app.app_context():
        return secrets_of(get_db(), game_id)


def test_link_secrets_are_compared_with_compare_digest(comparisons, client, app, table):
    table.new_game(["A", "B"])
    edit_secret, view_secret = _secrets(app, table.game_id)
    tokens = {edit_secret.encode(), view_secret.encode()}
    for secret, status in ((edit_secret, 200), (view_secret, 200), ("x" * len(edit_secret), 404),
                           (edit_secret[:-1], 404), (edit_secret + "x", 404)):
        comparisons.clear()
        assert client.get(f"/g/{table.game_id}-{secret}/table").status_code == status
        # Both secrets are compared, each through compare_digest, whatever the answer.
        assert sorted(c for c in comparisons if c[1] in tokens) == sorted(
            [(secret.encode(), edit_secret.encode()), (secret.encode(), view_secret.encode())])


def test_a_key_without_a_secret_compares_nothing_and_finds_nothing(comparisons, client, app, table):
    table.new_game(["A", "B"])
    tokens = set(s.encode() for s in _secrets(app, table.game_id))
    for key in (f"{table.game_id}", f"{table.game_id}-", "x-y", f"{table.game_id + 1}-abc"):
        assert client.get(f"/g/{key}/table").status_code == 404
    assert not [c for c in comparisons if c[1] in tokens]


# ---------------------------------------------------------------------------------------
# Refusals are pages, not tracebacks.


def test_the_read_only_link_is_refused_with_a_page_that_says_why(client, game, app):
    before = dump(app.config["DATABASE"])
    response = client.post(f"/g/{game['view']}/plays", data={"player": "C", "cards": ["S10"], "meld": "1"})
    assert response.status_code == 403
    assert "Read-only link" in response.get_data(as_text=True)
    assert dump(app.config["DATABASE"]) == before
