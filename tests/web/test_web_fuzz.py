"""Fuzzing every form and the game-file import (hypothesis) through the Flask test client.

Properties:

- whatever a form is sent (any field, any value, missing or repeated, with the edit
  link, the read-only link or a made-up one), the answer is never a server error
  (with ``TESTING`` an exception would propagate and fail the test) and never shows a
  traceback;
- an answer other than a redirect (a refusal, a "Check" preview) leaves every table of
  the database exactly as it was;
- an uploaded file (random JSON-ish documents, mutations of valid game files, random
  bytes) either becomes a game whose exported game file scores what the upload scores
  (``gamefile.score_document``), or is refused and changes nothing.

Each example starts from the same database: a copy of a template holding three games
(a round being played, a round at its end, a counted round), so examples do not depend
on each other and a failure replays exactly. The card parser has its own property test
(tests/test_properties.py).
"""
from __future__ import annotations

import copy
import io
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest
from db_dump import dump
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from web_table import Table, seed_round

from scorekeeper import create_app, gamefile
from scorekeeper.games import iceberg, registry
from tests.conftest import examples

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FUZZ = settings(max_examples=examples(40), deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------------------
# The world every example starts from.


class World:
    """The app, the template database and what is in it; ``restore`` before each example."""

    def __init__(self, base: Path):
        self.base = base
        self.template = str(base / "template.db")
        self.work = self.template
        self.examples = 0
        self.app = create_app({"TESTING": True, "DATABASE": self.template, "SECRET_KEY": "fuzz",
                               "WTF_CSRF_ENABLED": False})
        self.client = self.app.test_client()
        self.games = {}
        for name in ("playing", "ending", "counted"):
            table = Table(self.client)
            table.new_game(["A", "B", "C"], dealer=2)
            if name == "playing":
                seed_round(table)
                table.confirm_round(1)
                table.meld("B", "S7", "S8", "S9")
                table.pass_turn()
                table.ace("C", "HA")
                table.meld("C", "D5", "C5")
            elif name == "ending":
                table.meld("A", "S7", "S8", "S9")
                table.out("A")
                table.hand("B", "SK", "H2")
            else:
                seed_round(table)
                table.confirm_round(1)
            html = self.client.get(table.url).get_data(as_text=True)
            view = re.search(r'value="http://localhost/g/([^"/]+)/table" data-link="view"', html).group(1)
            page = table.page("/table")
            self.games[name] = {
                "edit": table.key, "view": view, "id": table.game_id,
                "plays": table.play_ids() or [1],
                "melds": [int(m) for m in re.findall(r'data-meld="(\d+)"', page)] or [1],
            }
        playing = self.games["playing"]
        run = Table(self.client)
        run.key, run.game_id = playing["edit"], playing["id"]
        pair, last = run.meld_id(2), playing["plays"][-1]
        # Posts each form accepts as they are (C's turn in the game being played; C's
        # hand missing at the round end): the fuzzing starts from these too, and changes them.
        self.good = {
            "play": [("playing", {"player": "C", "cards": ["H5"], "meld": str(pair), "confirm": "1"}),
                     ("playing", {"player": "C", "cards": ["H4", "H5", "H6"], "meld": "", "confirm": "1"})],
            "ace": [("playing", {"player": "C", "card": "SA"})],
            "out": [("playing", {"player": "C"})],
            "pass": [("playing", {"turn": "C"})],
            "undo": [("playing", {"last": str(last)})],
            "edit": [("playing", {"player": "C", "cards": ["D6", "C6"], "meld": "", "save": "1",
                                  "revision": "0", "play": last})],
            "delete": [("playing", {"revision": "0", "play": last})],
            "hand": [("ending", {"player": "C", "round_no": "1", "cards": ["D4", "C9"]})],
            "confirm": [("counted", {"round_no": "1"}), ("ending", {"round_no": "1"})],
        }
        self.seeds = [
            json.loads((EXAMPLES / "iceberg-seed-example.json").read_text()),
            json.loads(self.client.get(f"/g/{self.games['playing']['edit']}/export").get_data()),
        ]
        self.before = dump(self.template)

    def restore(self) -> None:
        """A fresh copy of the template for this example (SQLite's backup: WAL included),
        under a new name, so no connection the app keeps open sees an older file."""
        old = self.work
        self.examples += 1
        self.work = str(self.base / f"work-{self.examples}.db")
        source, target = sqlite3.connect(self.template), sqlite3.connect(self.work)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        self.app.config["DATABASE"] = self.work
        if old != self.template:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(old + suffix):
                    os.remove(old + suffix)

    def games_count(self) -> int:
        return len(dump(self.work)["games"])


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("fuzz"))


def check_answer(world: World, response) -> None:
    """Never a server error or a traceback; anything but a redirect changed nothing."""
    event(f"answered {response.status_code}")  # pytest --hypothesis-show-statistics
    assert response.status_code < 500, response.status_code
    body = response.get_data(as_text=True)
    assert "Traceback" not in body and "Internal Server Error" not in body
    if response.status_code != 303:
        assert dump(world.work) == world.before, (response.status_code, body[-1500:])


# ---------------------------------------------------------------------------------------
# Field values: the meaningful ones (names, cards, ids) mixed with anything at all.

anything = st.text(max_size=24)
numbers = st.one_of(st.integers(-3, 60), st.integers(-2**70, 2**70)).map(str)
NAMES = ["A", "B", "C", "A", "B", "C", "Zed", "a", " A", ""]
CARDS = ["S10", "SJ", "SQ", "SK", "S6", "S5", "S4", "H3", "D3", "C3", "HA", "SA", "CA", "DA",
         "H2", "C6", "D10", "D9", "D4", "CK", "CQ", "JK", "10s", "♠9", "t♥", "S1", "X", ""]


def value(*meaningful) -> st.SearchStrategy[str]:
    """Half the time a meaningful value, else any number or any text."""
    good = st.sampled_from(list(meaningful) or [""])
    return st.one_of(good, good, numbers, anything)


FIELDS = {
    "player": value(*NAMES),
    "card": value("SA", "HA", "DA", "CA", "S2", "sa", "A♠", "JK"),
    # Random picks, or picks that make a legal play in one of the games.
    "cards": st.one_of(st.lists(value(*CARDS), max_size=7), st.sampled_from(
        [["H4", "H5", "H6"], ["S10"], ["S6"], ["H5"], ["DK", "CK"], ["H7", "C7"], ["SK", "H2"], []])),
    "round_no": value("1", "2", "3", "0", "-1", "1.5"),
    "turn": value(*NAMES),
    "last": value("0", "1"),
    "revision": value("0", "1"),
    "version": value("0", "1", "7", "17"),
    "request_id": st.one_of(st.uuids().map(str), anything, st.text(min_size=60, max_size=80)),
    "check": st.sampled_from(["", "1", "Check"]),
    "confirm": st.sampled_from(["", "1", "Confirm"]),
    "save": st.sampled_from(["", "1"]),
    "meld": value("", "0", "1", "2"),
}

# Each form: its path (with {key} and {play}), its fields, and which games it is tried on.
FORMS = {
    "play": ("/plays", ["player", "cards", "meld", "check", "confirm", "request_id", "version"]),
    "ace": ("/aces", ["player", "card", "request_id", "version"]),
    "out": ("/out", ["player", "request_id", "version"]),
    "pass": ("/pass", ["turn", "request_id", "version"]),
    "undo": ("/undo", ["last", "request_id", "version"]),
    "edit": ("/plays/{play}", ["player", "cards", "meld", "revision", "check", "save", "request_id",
                               "version"]),
    "delete": ("/plays/{play}/delete", ["revision", "request_id", "version"]),
    "hand": ("/hands", ["player", "round_no", "cards", "request_id", "version"]),
    "confirm": ("/end", ["round_no", "request_id", "version"]),
}


@st.composite
def table_posts(draw, world: World, form: str):
    """(path, data) for one of the table's forms, on one of the games, by one of its links.

    A third of the time it starts from a post the form accepts and changes up to two
    fields (or none); otherwise every field is drawn on its own.
    """
    suffix, names = FORMS[form]
    if draw(st.integers(0, 2)) == 0:
        name, good = draw(st.sampled_from(world.good[form]))
        data = dict(good)
        play = data.pop("play", None)
        for _ in range(draw(st.integers(0, 2))):
            field = draw(st.sampled_from(names))
            if draw(st.booleans()):
                data.pop(field, None)
            else:
                data[field] = draw(FIELDS.get(field, anything))
    else:
        name, data, play = draw(st.sampled_from(sorted(world.games))), None, None
    game = world.games[name]
    key = draw(st.sampled_from([game["edit"]] * 12 + [game["view"], f"{game['id']}-madeup", "0-x"]))
    if play is None:
        plays = st.sampled_from(game["plays"])
        play = draw(st.one_of(plays, plays, plays, st.integers(-1, 10**6)))
    if data is None:
        fields = dict(FIELDS, meld=st.one_of(st.sampled_from([str(m) for m in game["melds"]] + [""]),
                                             numbers, anything))
        data = {}
        for field in names:
            if draw(st.integers(0, 5)):  # mostly present, sometimes missing
                data[field] = draw(fields[field])
    return f"/g/{key}" + suffix.format(play=play), data


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_table_form_with_any_values_never_fails_and_a_refusal_saves_nothing(world, form):
    @FUZZ
    @given(post=table_posts(world, form))
    def fuzz(post):
        world.restore()
        path, data = post
        check_answer(world, world.client.post(path, data=data))

    fuzz()


def _rule_choices(option) -> list[str]:
    """Values the form offers for a rule (and a big number for the open-ended ones)."""
    if option.default_for:
        return ["auto"] + [str(c) for c in option.choices]
    if option.kind == "bool":
        return ["true", "false"]
    if option.kind == "choice":
        return [str(c) for c in option.choices]
    return [str(option.default), str(option.minimum or 0), str(10**20)]


@st.composite
def new_game_posts(draw):
    """A good new-game form (names, a dealer among them, any legal rules), then changes."""
    names = draw(st.lists(st.text(st.characters(categories=["L", "N", "Zs", "P", "S"]), min_size=1,
                                  max_size=12).filter(str.strip), min_size=2, max_size=6,
                          unique_by=lambda n: n.strip().casefold()))
    data = {f"seat_{i}": n for i, n in enumerate(names)}
    data["first_dealer"] = str(draw(st.integers(0, len(names) - 1)))
    for option in iceberg.RULES:
        if draw(st.booleans()):
            data[f"rule_{option.name}"] = draw(st.sampled_from(_rule_choices(option)))
    for _ in range(draw(st.integers(0, 3))):  # now break something, or not
        name = draw(st.sampled_from([f"seat_{i}" for i in range(7)] + ["first_dealer"]
                                    + [f"rule_{o.name}" for o in iceberg.RULES]))
        if draw(st.booleans()):
            data.pop(name, None)
        else:
            data[name] = draw(value("Ann", "ann", "  ", "x" * 41, "0", "6", "auto", "true", "-1"))
    return data


def test_the_new_game_form_with_any_values_never_fails_and_a_refusal_saves_nothing(world):
    @FUZZ
    @given(data=new_game_posts())
    def fuzz(data):
        world.restore()
        response = world.client.post("/games", data=data)
        check_answer(world, response)
        if response.status_code == 303:  # a new game: its table opens
            assert world.client.get(response.headers["Location"]).status_code == 200

    fuzz()


@st.composite
def previews(draw, world: World):
    game = world.games[draw(st.sampled_from(sorted(world.games)))]
    args = [("cards", c) for c in draw(st.lists(value(*CARDS), max_size=5))]
    if draw(st.booleans()):
        args.append(("player", draw(FIELDS["player"])))
    if draw(st.booleans()):
        args.append(("meld", draw(st.one_of(st.sampled_from([str(m) for m in game["melds"]]), numbers, anything))))
    return f"/g/{game['edit']}", args


def test_the_pages_scripts_ask_for_never_fail(world):
    """The preview the card picker fetches, and the round end's player choice (GET)."""
    @FUZZ
    @given(asked=previews(world), player=FIELDS["player"])
    def fuzz(asked, player):
        world.restore()
        game, args = asked
        check_answer(world, world.client.get(game + "/preview", query_string=args))
        check_answer(world, world.client.get(game + "/end", query_string={"player": player}))

    fuzz()


# ---------------------------------------------------------------------------------------
# The game-file import: random documents, mutations of good ones, random bytes.

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**64, 2**64),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
              st.sampled_from(CARDS + NAMES + list(registry.VARIANTS))),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=16,
)
player_names = st.one_of(st.sampled_from(NAMES), json_values)
events = st.fixed_dictionaries({}, optional={
    "type": st.one_of(st.sampled_from(("ace", "meld", "layoff", "out")), json_values),
    "player": player_names,
    "cards": st.one_of(st.lists(st.sampled_from(CARDS), max_size=5), json_values),
    "meld": st.one_of(st.integers(-1, 4), json_values),
})
rounds = st.fixed_dictionaries({}, optional={
    "events": st.one_of(st.lists(events, max_size=6), json_values),
    "hands": st.one_of(st.dictionaries(st.sampled_from(NAMES), st.lists(st.sampled_from(CARDS), max_size=5),
                                       max_size=3), json_values),
})
rule_sets = st.one_of(
    st.dictionaries(st.sampled_from([o.name for o in iceberg.RULES] + ["jokers"]),
                    st.one_of(st.sampled_from([True, False, 1, 2, 0, -1, 350, 10**20, "all", "bonus"]),
                              json_values), max_size=3),
    json_values,
)
documents = st.fixed_dictionaries({}, optional={
    "format": st.one_of(st.just(gamefile.FORMAT), json_values),
    "variant": st.one_of(st.sampled_from(list(registry.VARIANTS)), json_values),
    "rules": rule_sets,
    "players": st.one_of(st.lists(st.sampled_from(NAMES), max_size=7), json_values),
    "teams": st.one_of(st.none(), json_values),
    "rounds": st.one_of(st.lists(rounds, max_size=3), json_values),
})


def _places(doc, path=()):
    """Every (path) inside a document, the root's children first."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, child in items:
        yield path + (key,)
        yield from _places(child, path + (key,))


def _at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def changed_seeds(draw, world: World):
    """A good game file changed the way a good one may be: cut short, renamed, other rules."""
    doc = copy.deepcopy(draw(st.sampled_from(world.seeds)))
    last = doc["rounds"][-1]
    if draw(st.booleans()):  # the game as it was a few plays earlier
        last.pop("hands", None)
        del last["events"][draw(st.integers(0, len(last["events"]))):]
    if draw(st.booleans()):  # other names, the same everywhere
        names = draw(st.lists(st.text(min_size=1, max_size=10).filter(str.strip), min_size=3,
                              max_size=3, unique=True))
        rename = dict(zip(doc["players"], names))
        doc["players"] = names
        for data in doc["rounds"]:
            for logged in data["events"]:
                logged["player"] = rename[logged["player"]]
            if "hands" in data:
                data["hands"] = {rename[p]: cards for p, cards in data["hands"].items()}
    if draw(st.booleans()):
        doc["rules"] = {o.name: draw(st.sampled_from(_rule_values(o))) for o in iceberg.RULES
                        if draw(st.booleans())}
    return doc


def _rule_values(option) -> list:
    if option.kind == "bool":
        return [True, False]
    if option.choices:
        return list(option.choices)
    return [option.default, option.minimum or 0, 10**20]


@st.composite
def mutated_seeds(draw, world: World):
    """A good game file with a few changes: a value replaced, removed, doubled or added."""
    doc = copy.deepcopy(draw(st.sampled_from(world.seeds)))
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(doc))
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent, key = _at(doc, path[:-1]), path[-1]
        change = draw(st.sampled_from(["replace", "replace", "card", "remove", "double", "add"]))
        if change == "replace":
            parent[key] = draw(json_values)
        elif change == "card":
            parent[key] = draw(st.sampled_from(CARDS + NAMES + [1, 2, 0]))
        elif change == "remove":
            del parent[key]
        elif change == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_values)
    return doc


def _encode(draw, doc) -> bytes:
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
    return text.encode("utf-8")


@st.composite
def uploads(draw, world: World):
    kind = draw(st.sampled_from(["changed"] * 2 + ["mutated"] * 3 + ["random", "bytes", "broken"]))
    if kind == "changed":
        doc = draw(changed_seeds(world))
        return doc, _encode(draw, doc)
    if kind == "mutated":
        doc = draw(mutated_seeds(world))
        return doc, _encode(draw, doc)
    if kind == "random":
        doc = draw(st.one_of(documents, json_values))
        return doc, _encode(draw, doc)
    if kind == "bytes":
        return None, draw(st.binary(max_size=200))
    body = bytearray(_encode(draw, draw(st.sampled_from(world.seeds))))  # a damaged file
    at = draw(st.integers(0, len(body) - 1))
    body[at:at + draw(st.integers(0, 8))] = draw(st.binary(max_size=4))
    return None, bytes(body)


def _trim(doc):
    """The document as the app keeps it: a last round with no plays and no hands yet is
    not stored (round 2 begins with its first play), so it cannot come back out."""
    doc = copy.deepcopy(doc)
    rounds = doc.get("rounds")
    while isinstance(rounds, list) and rounds and isinstance(rounds[-1], dict) \
            and not rounds[-1].get("events") and "hands" not in rounds[-1]:
        rounds.pop()
    return doc


def test_an_upload_imports_a_game_that_scores_the_same_or_changes_nothing(world):
    @settings(FUZZ, max_examples=examples(200))
    @given(upload=uploads(world))
    def fuzz(upload):
        world.restore()
        doc, body = upload
        response = world.client.post("/games/import", data={"game_file": (io.BytesIO(body), "game.json")},
                                     content_type="multipart/form-data")
        check_answer(world, response)
        if response.status_code != 303:
            assert response.status_code == 422, response.status_code
            assert "Nothing was saved." in response.get_data(as_text=True)
            return
        assert world.games_count() == len(world.before["games"]) + 1
        game = response.headers["Location"]
        # The game's address and its table lead to its own pages, whatever its variant.
        assert world.client.get(game, follow_redirects=True).status_code == 200
        assert world.client.get(game + "/table", follow_redirects=True).status_code == 200
        exported = json.loads(world.client.get(game + "/export", follow_redirects=True).get_data())
        if doc is None:  # bytes that happened to be a game file
            doc = json.loads(body.decode("utf-8-sig"))
        assert gamefile.score_document(exported) == gamefile.score_document(_trim(doc))

    fuzz()


def test_a_good_file_imports_however_it_is_written(world):
    """The two seeds, re-encoded and with cards respelled, always import and score the same."""
    respell = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

    @settings(FUZZ, max_examples=examples(10))
    @given(seed=st.sampled_from(world.seeds), symbols=st.booleans(), lower=st.booleans(),
           indent=st.sampled_from([None, 2]))
    def fuzz(seed, symbols, lower, indent):
        world.restore()
        text = json.dumps(seed, indent=indent)
        if symbols:
            text = re.sub(r'"([SHDC])(10|[2-9AJQK])"', lambda m: f'"{m.group(2)}{respell[m.group(1)]}"', text)
        if lower:
            text = re.sub(r'"([SHDC])(10|[2-9AJQK])"', lambda m: f'"{m.group(0)[1:-1].lower()}"', text)
        response = world.client.post("/games/import",
                                     data={"game_file": (io.BytesIO(text.encode()), "g.json")},
                                     content_type="multipart/form-data")
        assert response.status_code == 303, response.get_data(as_text=True)[-800:]
        exported = json.loads(world.client.get(response.headers["Location"] + "/export").get_data())
        assert gamefile.score_document(exported) == gamefile.score_document(seed)

    fuzz()


# ---------------------------------------------------------------------------------------
# CSRF: with protection on, no made-up token gets a form through.


def test_no_made_up_csrf_token_gets_any_form_through(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "fuzz",
                      "WTF_CSRF_ENABLED": True})
    client = app.test_client()
    html = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)
    created = client.post("/games", data={"seat_0": "A", "seat_1": "B", "csrf_token": token})
    game = created.headers["Location"].removesuffix("/table")
    before = dump(app.config["DATABASE"])
    paths = ["/games", "/games/import"] + [game + suffix.format(play=1) for suffix, _ in FORMS.values()]
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db"), "SECRET_KEY": "other",
                        "WTF_CSRF_ENABLED": True}).test_client()
    foreign = re.search(r'content="([^"]+)"', other.get("/").get_data(as_text=True).split("csrf-token")[1]).group(1)

    @FUZZ
    @given(path=st.sampled_from(paths), forged=st.one_of(st.none(), anything, st.just(foreign),
                                                         st.just(token[:-2]), st.just(token + "x")),
           in_header=st.booleans(), player=FIELDS["player"])
    def fuzz(path, forged, in_header, player):
        data = {"player": player, "seat_0": "X", "seat_1": "Y", "cards": ["S2", "H2"], "round_no": "1"}
        headers = {}
        if forged is not None and in_header:  # a header carries printable ASCII only
            headers["X-CSRFToken"] = "".join(c for c in forged if " " <= c <= "~")
        elif forged is not None:
            data["csrf_token"] = forged
        response = client.post(path, data=data, headers=headers)
        assert response.status_code == 400, (path, response.status_code)
        assert dump(app.config["DATABASE"]) == before

    fuzz()
