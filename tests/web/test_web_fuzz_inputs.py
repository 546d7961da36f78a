"""Every route of the app asked with each kind of input, one change at a time, no
randomness: a plain request of the route (``fuzz_world.plain_ask``: one it accepts, on
the edit link) sent with each other body (multipart, a file in every text field, JSON
objects and everything JSON that is no form, text/plain, no content type, a Latin-1
form, raw bytes), with bytes that are not UTF-8 in each path segment and each field
(and a field's name), with each field doubled or left out, with every number we know of in
each number field and row id (huge, negative, fractions, 1e308, ², Arabic-Indic and
full-width digits), with each value 100,000 characters long, with a body over the size
limit, and with every other HTTP method; the game-file import with files nested too
deep, numbers too long, other encodings.

The property is fuzz_world.check's: never a server error, no Python words on the page,
and nothing changed unless a POST succeeded (303). A failing case is listed with the
others of its test rather than stopping it.

Measured: about 4,000 requests per run of this module (``World.requests``), about 15 s
of one core.
"""
from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from db_dump import dump
from fuzz_world import (
    EXAMPLES,
    JSON_SHAPES,
    NUMBER_WORDS,
    ROUTES,
    WEIRD_IDS,
    Ask,
    World,
    ask_and_check,
    check,
    plain_ask,
)

POSTS = sorted(rule for rule in ROUTES if rule[1] == "POST")
NUMBER_FIELDS = {"round_no", "meld", "revision", "last", "into", "first_dealer", "since", "saved", "knock_limit",
                 "rule_target", "rule_knock_limit"}
NUMBERS = NUMBER_WORDS + [str(10**30), str(-(10**30)), str(2**64 + 1), "1" * 4400, "0.0000001", "٠", "1\u200b"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("fuzz_inputs"))


def run(world: World, asks: list[Ask]) -> None:
    """Send each request and check its answer; every failure is listed at the end."""
    failures = []
    for ask in asks:
        try:
            ask_and_check(world, ask)
        except Exception as error:  # noqa: BLE001 - a server error too: listed, then the next one
            failures.append(f"{ask!r}\n    {type(error).__name__}: {str(error)[:400]}")
            world.restore()
    assert not failures, f"{len(failures)} of {len(asks)} failed:\n" + "\n".join(failures[:15])


def changed(ask: Ask, **fields) -> Ask:
    """The request with these fields replaced (a list: several values; None: left out)."""
    pairs = [(k, v) for k, v in ask.pairs if k not in fields]
    for key, value in fields.items():
        if value is not None:
            pairs += [(key, v) for v in (value if isinstance(value, list) else [value])]
    return replace(ask, pairs=pairs)


def names(ask: Ask) -> list[str]:
    return list(dict.fromkeys(k for k, _v in ask.pairs if k != "game_file"))


def test_every_form_with_a_body_of_each_kind(world):
    asks = []
    for rule in POSTS:
        ask = plain_ask(world, rule)
        for body in ("multipart", "multipart-files", "json", "text", "none", "latin-1", "raw", "broken"):
            asks.append(replace(ask, body=body))
        asks += [replace(ask, body="json-other", shape=i) for i in range(len(JSON_SHAPES))]
    run(world, asks)


def test_bytes_that_are_not_utf8_in_every_path_segment_field_and_name(world):
    asks = []
    for rule in sorted(ROUTES):
        ask = plain_ask(world, rule)
        parts = ask.path.split("/")
        for i, part in enumerate(parts):
            if part:
                for bad in ("%FF%FE", "%C3", part + "%80"):
                    asks.append(replace(ask, path="/".join(parts[:i] + [bad] + parts[i + 1:])))
        for key in names(ask):
            asks.append(changed(ask, **{key: b"\xff\xfeS2"}))
            if ask.method == "POST":
                asks.append(replace(changed(ask, **{key: b"S\xe9"}), body="raw"))
        asks.append(replace(ask, pairs=ask.pairs + [(b"\xff" + b"player", "A")]))
    run(world, asks)


def test_every_field_doubled_or_left_out(world):
    asks = []
    for rule in sorted(ROUTES):
        ask = plain_ask(world, rule)
        for key in names(ask):
            value = next(v for k, v in ask.pairs if k == key)
            for twice in ([value, value], [value, "2"], ["2", value], [value, ""], ["", value]):
                asks.append(changed(ask, **{key: twice}))
            asks.append(changed(ask, **{key: None}))
    run(world, asks)


def test_numbers_of_every_size_and_script_in_every_number_field(world):
    asks = []
    for rule in sorted(ROUTES):
        ask = plain_ask(world, rule)
        for key in names(ask):
            if key in NUMBER_FIELDS:
                asks += [changed(ask, **{key: number}) for number in NUMBERS]
            elif key == "ended":  # "p<seat>": who went out
                asks += [changed(ask, ended="p" + number) for number in NUMBERS]
    run(world, asks)
    assert len(asks) > 800


def test_every_row_id_in_a_path_of_every_size(world):
    asks = []
    for rule in sorted(ROUTES):
        segments = rule[0].split("/")
        ask = plain_ask(world, rule)
        for i, segment in enumerate(segments):
            if segment.startswith("<id:"):
                parts = ask.path.split("/")
                for number in WEIRD_IDS + ["1", "2", "3", "40", str(2**63 - 2), "1" * 19, "0" * 19 + "1"]:
                    asks.append(replace(ask, path="/".join(parts[:i] + [number] + parts[i + 1:])))
    run(world, asks)
    assert len(asks) > 150


def test_every_value_very_long(world):
    """100,000 characters in a form; in a query 8,000 (a server takes a request line of
    8 KB at most: gunicorn's limit; the test client's URL parsing is slow on longer)."""
    asks = []
    for rule in sorted(ROUTES):
        ask = plain_ask(world, rule)
        size = 100_000 if rule[1] == "POST" else 8_000
        for key in names(ask):
            asks.append(changed(ask, **{key: "9" * size if key in NUMBER_FIELDS else ("é♠ S2 " * size)[:size]}))
    run(world, asks)


def test_a_body_over_the_size_limit(world):
    asks = [replace(changed(plain_ask(world, rule), padding="x" * (world.app.config["MAX_CONTENT_LENGTH"] + 10)),
                    body=body) for rule in POSTS for body in ("form", "multipart")]
    for ask in asks:
        response = world.client.post(ask.path, data={k: v for k, v in ask.pairs},
                                     content_type="multipart/form-data" if ask.body == "multipart"
                                     else "application/x-www-form-urlencoded")
        assert response.status_code == 413, (ask.path, response.status_code)
        check(world, ask, response)


def test_every_route_with_every_other_method(world):
    """HEAD and OPTIONS as Flask answers them; PUT, DELETE, PATCH and the method a route
    has not: 405 (or the route of the same path that has it), nothing changed."""
    for rule in sorted(ROUTES):
        ask = plain_ask(world, rule)
        for method in ("HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "GET" if rule[1] == "POST" else "POST"):
            world.fresh_session()
            response = world.client.open(ask.path, method=method, data={k: v for k, v in ask.pairs
                                                                       if isinstance(v, str)})
            assert response.status_code < 500, (method, ask.path)
            if method in ("PUT", "DELETE", "PATCH"):
                assert response.status_code == 405, (method, ask.path, response.status_code)
            check(world, replace(ask, method=method), response)


def deep_file(depth: int, kind: str) -> bytes:
    good = json.loads((EXAMPLES / "rummy-basic.json").read_text())
    if kind == "list":
        return b"[" * depth + b"]" * depth
    if kind == "dict":
        return b'{"a":' * depth + b"1" + b"}" * depth
    nested = json.loads("[" * min(depth, 900) + "]" * min(depth, 900))
    if kind == "rules":
        good["rules"] = {"target": nested}
    elif kind == "hands":
        good["rounds"][0]["hands"]["B"] = nested
    elif kind == "players":
        good["players"] = [nested, "B"]
    return json.dumps(good).encode()


@pytest.mark.parametrize("depth", [10, 900, 1_000, 10_000, 100_000, 170_000])
@pytest.mark.parametrize("kind", ["list", "dict", "rules", "hands", "players"])
def test_the_import_of_a_file_nested_deep_is_refused_and_saves_nothing(world, depth, kind):
    body = deep_file(depth, kind)
    for sent in ({"data": {"game_file": (io.BytesIO(body), "g.json")}, "content_type": "multipart/form-data"},
                 {"data": body, "content_type": "application/json"}):
        world.fresh_session()
        response = world.client.post("/games/import", **sent)
        assert response.status_code == 422, response.status_code
        check(world, Ask("POST", "/games/import", [], "file", ("/games/import", "POST")), response)
    assert dump(world.work) == world.before


@pytest.mark.parametrize("body", [
    b'{"format": "scorekeeper/1", "variant": "rummy", "players": ["A", "B"], "rules": {"target": ' + b"9" * 5000
    + b"}}", b"9" * 5000, b'{"rules": {"target": 1e999}}', b'{"variant": "rummy", "rules": {"target": NaN}}',
    json.dumps(json.loads((EXAMPLES / "rummy-basic.json").read_text())).encode("utf-16"),
    (EXAMPLES / "rummy-basic.json").read_bytes().replace(b'"A"', b'"\xc5"'), b"", b"\xef\xbb\xbf", b"\x00" * 100,
    b'{"variant": "rummy", "players": ["\\ud800", "B"]}', b'{"variant": "rummy", "players": ["A\\u0000", "B"]}',
    (EXAMPLES / "rummy-basic.json").read_bytes().replace(b'"variant": "rummy"',
                                                          b'"variant": "gin", "variant": "rummy"'),
    (EXAMPLES / "rummy-basic.json").read_bytes().replace(b'"hands": {', b'"hands": {"B": [], ', 1),
], ids=["long-number", "only-a-long-number", "1e999", "NaN", "utf-16", "latin-1", "empty", "bom", "nul", "surrogate",
        "nul-in-name", "variant-twice", "a-hand-twice"])
def test_the_import_of_a_file_no_game_file_is_refused_and_saves_nothing(world, body):
    world.fresh_session()
    response = world.client.post("/games/import", data={"game_file": (io.BytesIO(body), "g.json")},
                                 content_type="multipart/form-data")
    assert response.status_code == 422
    check(world, Ask("POST", "/games/import", [], "file", ("/games/import", "POST")), response)


def test_no_form_of_any_route_goes_through_without_its_own_csrf_token(world, tmp_path):
    """Every POST route, with CSRF protection on and this phone's session: no token, an
    empty or made-up one, another phone's, one cut short, in the form or in the header,
    in a form, multipart or JSON body: 400, and nothing changed."""
    import sqlite3

    from web_table import form_token
    from werkzeug.datastructures import MultiDict

    from scorekeeper import create_app

    path = str(tmp_path / "csrf.db")
    source, target = sqlite3.connect(world.template), sqlite3.connect(path)
    source.backup(target)
    source.close()
    target.close()
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": True})
    client, other = app.test_client(), app.test_client()
    client.set_cookie("session", world.cookie)
    foreign = form_token(other.get("/games/new").get_data(as_text=True))
    mine = form_token(client.get("/games/new").get_data(as_text=True))
    tokens = [None, "", "x" * 91, foreign, mine[:-3], mine[:40], "\u00e9" * 20]
    sent = 0
    for rule in POSTS:
        ask = plain_ask(world, rule)
        fields = [(k, v) for k, v in ask.pairs if isinstance(v, str)]
        for token in tokens:
            for how in ("form", "multipart", "header", "json"):
                data = MultiDict(fields + ([("csrf_token", token)] if token is not None and how != "header" else []))
                headers = {"X-CSRFToken": token.encode().decode("latin-1")} if token and how == "header" else {}
                if how == "json":
                    response = client.post(ask.path, json=dict(data), headers=headers)
                else:
                    response = client.post(ask.path, data=data, headers=headers,
                                           content_type="multipart/form-data" if how == "multipart" else None)
                sent += 1
                assert response.status_code == 400, (rule, token, how, response.status_code)
    assert dump(path) == world.before
    assert sent > 500
