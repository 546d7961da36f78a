"""The route fuzz's world and tools (tests/web/test_web_fuzz_routes.py, test_web_fuzz_inputs.py).

A :class:`World` is an app on a template database holding games of every family of
pages, each at a point where its forms have something to act on (a round being played,
a round at its end, a round counted, a game over), games this phone holds only the
read-only link of or no link at all, and their players; the phone's group (every game it
started or imported) and another phone's group (the games it watches or has no link to),
with their links. ``ROUTES`` says, for every
route of the app (rule and method), which games it is asked about, its fields and the
values that mean something to it, and a few requests it accepts as they are; the
strategies build requests from these and break them: values of every kind (wrong
cards, numbers of every size and script, text, very long values, bytes that are not
UTF-8), fields missing or doubled, bodies of the wrong content type, paths with keys
and ids that open nothing.

:func:`check` is the property every answer must have: never a server error (with
``TESTING`` an exception propagates and fails the test), no Python words on the page,
a GET that changed nothing and a POST that did not succeed (anything but a 303) that
changed nothing: the whole database is compared with the template's dump whenever
SQLite says something was committed to it (``PRAGMA data_version``). After a
change the template is copied again, so every request starts from the same database.
"""
from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from db_dump import dump
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from web_table import Table, seed_round

from scorekeeper import create_app
from scorekeeper.games import registry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PYTHON_WORDS = ("Traceback", "KeyError", "ValueError", "TypeError", "IndexError", "AttributeError",
                "invalid literal", "NoneType", "RecursionError", "UnicodeDecodeError",
                "UnicodeEncodeError", "OverflowError", "Internal Server Error", "object has no attribute")
FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=False,
                suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------------------------------
# The world.


@dataclass
class Game:
    name: str
    id: int
    variant: str
    edit: str  # the edit key (id-secret), held by the world's client
    view: str
    players: list[str]
    plays: list[int] = field(default_factory=list)  # every play's id, any round
    melds: list[int] = field(default_factory=list)  # the plays that made a meld
    rounds: int = 0  # rounds (hands) begun


ICEBERG = ("ice_play", "ice_end", "ice_done", "ice_over")
ROBBER = ("rob_play", "rob_take", "rob_end", "rob_team", "rob_over")
COUNTED = ("rummy", "gin", "kalooki", "conquian", "manip", "rummy_over", "peek")


class World:
    """The app, its template database and what is in it (see the module's docstring)."""

    def __init__(self, base: Path):
        self.base = base
        self.template = str(base / "template.db")
        self.work = self.template
        self.watch: sqlite3.Connection | None = None  # reads the work copy's data_version
        self.seen = 0
        self.copies = 0
        self.requests = 0
        self.hits: Counter = Counter()
        # The live streams held (as under gunicorn) and ended at once: the route sends
        # what it has to and its end, and the fuzz reads the whole answer.
        self.app = create_app({"TESTING": True, "DATABASE": self.template, "SECRET_KEY": "fuzz",
                               "WTF_CSRF_ENABLED": False, "LIVE_STREAMS": True, "LIVE_STREAM_SECONDS": 0})

        @self.app.teardown_request
        def count_hit(_error) -> None:  # which route answered (before any request is made)
            from flask import request
            if request.url_rule is not None:
                self.hits[(request.url_rule.rule, request.method)] += 1

        wsgi = self.app.wsgi_app

        def counted(environ, start_response):  # every request the app is asked, routed or not
            self.requests += 1
            return wsgi(environ, start_response)

        self.app.wsgi_app = counted
        self.client = self.app.test_client()
        self.games: dict[str, Game] = {}
        self._build()
        # The groups: this phone's (its games) and the other phone's (peek, hidden).
        self.groups = {}
        for name, game in (("mine", "ice_play"), ("theirs", "hidden")):
            group, edit, view = self._query(
                "SELECT g.id, g.edit_token, g.view_token FROM groups g JOIN games ON games.group_id = g.id "
                "WHERE games.id = ?", [self.games[game].id])[0]
            self.groups[name] = (f"{group}-{edit}", f"{group}-{view}")
        mine = self.groups["mine"][0].split("-")[0]
        self.players = dict(self._query("SELECT name, id FROM players WHERE group_id = ?", [mine]))
        self.other_players = dict(self._query("SELECT name, id FROM players WHERE group_id != ?", [mine]))
        self.cookie = self.client.get_cookie("session").value
        self.before = dump(self.template)
        self.restore()

    # -- building -----------------------------------------------------------------------
    def _query(self, sql, args=()):
        conn = sqlite3.connect(self.template)
        try:
            return conn.execute(sql, args).fetchall()
        finally:
            conn.close()

    def _ok(self, response, expect=303):
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[-2000:])
        return response

    def _new(self, client, variant, players, partnerships=None, **rules) -> int:
        data = {"variant": variant, "first_dealer": "0", **{f"seat_{i}": p for i, p in enumerate(players)},
                **{f"rule_{k}": str(v) for k, v in rules.items()}}
        if partnerships:
            data["partnerships"] = partnerships
        made = self._ok(client.post("/games", data=data))
        return int(re.search(r"/g/(\d+)-", made.headers["Location"]).group(1))

    def _add(self, name: str, game_id: int) -> Game:
        variant, players, edit, view = self._query(
            "SELECT variant, players, edit_token, view_token FROM games WHERE id = ?", [game_id])[0]
        game = Game(name, game_id, variant, f"{game_id}-{edit}", f"{game_id}-{view}", json.loads(players))
        self.games[name] = game
        return game

    def _robber(self, name, players, moves, partnerships=None, **rules) -> Game:
        game = self._add(name, self._new(self.client, "robber", players, partnerships, **rules))
        for path, data in moves:
            if "meld" in data and isinstance(data["meld"], int):  # meld number → its play id
                data = dict(data, meld=str(self._query(
                    "SELECT id FROM plays WHERE game = ? AND type = 'meld' ORDER BY round_no DESC, seq",
                    [game.id])[data["meld"] - 1][0]))
            self._ok(self.client.post(f"/g/{game.edit}/robber{path}", data=data))
        return game

    def _iceberg(self, name, stage, **rules) -> Game:
        table = Table(self.client)
        table.new_game(["A", "B", "C"], dealer=2, **rules)
        if stage in ("play", "done", "over"):
            seed_round(table)
            table.confirm_round(1)
        if stage == "play":
            table.meld("B", "S7", "S8", "S9")
            table.pass_turn()
            table.ace("C", "HA")
            table.meld("C", "D5", "C5")
        elif stage == "end":
            table.meld("A", "S7", "S8", "S9")
            table.out("A")
            table.hand("B", "SK", "H2")
        return self._add(name, table.game_id)

    def _import(self, name, file) -> Game:
        body = (EXAMPLES / file).read_bytes()
        made = self._ok(self.client.post("/games/import", data={"game_file": (io.BytesIO(body), file)},
                                         content_type="multipart/form-data"))
        return self._add(name, int(re.search(r"/g/(\d+)-", made.headers["Location"]).group(1)))

    def _counted(self, name, variant, players, rounds=(), client=None, **rules) -> Game:
        client = client or self.client
        game = self._add(name, self._new(client, variant, players, **rules))
        for i, (ended, hands) in enumerate(rounds, 1):
            data = {"round_no": str(i), "ended": ended, "save": "1",
                    **{f"hand_{players.index(p)}": cards.split() for p, cards in hands.items()}}
            self._ok(client.post(f"/g/{game.edit}/counted/round", data=data))
        return game

    def _build(self) -> None:
        for name, stage in zip(ICEBERG, ("play", "end", "done", "over")):
            self._iceberg(name, stage, **({"target": 2} if stage == "over" else {}))
        meld, play = "/play", lambda player, cards, **more: {"player": player, "action": "play",
                                                                 "cards": cards.split(), **more}
        self._robber("rob_play", ["A", "B", "D"], [
            (meld, play("A", "H4 S4 C4")), (meld, {"player": "A", "action": "out"}),
            ("/end/hand", {"player": "B", "round_no": "1", "cards": ["D2"]}),
            ("/end/hand", {"player": "D", "round_no": "1", "cards": []}),
            ("/end", {"round_no": "1"}),
            (meld, play("A", "H3 H4 H5")), (meld, play("B", "H6", meld=1)), (meld, play("D", "S7 S8 S9"))])
        self._robber("rob_take", ["A", "B"], [(meld, play("A", "C9 C10 CJ")),
                                              (meld, {"player": "B", "action": "take", "cards": ["SK"]})])
        self._robber("rob_end", ["A", "B", "D"], [(meld, play("B", "D4 D5 D6")),
                                                  (meld, {"player": "D", "action": "out"}),
                                                  ("/end/hand", {"player": "A", "round_no": "1",
                                                                 "cards": ["SQ", "HK"]})])
        self._robber("rob_team", ["A", "B", "D", "E"], [(meld, play("E", "S5 H5 C5")),
                                                         (meld, play("A", "D5", meld=1))], partnerships="13")
        self._robber("rob_over", ["A", "B"], [(meld, play("A", "H4 S4 C4")),
                                              (meld, {"player": "A", "action": "out"}),
                                              ("/end/hand", {"player": "B", "round_no": "1", "cards": []}),
                                              ("/end", {"round_no": "1"})], target=1)
        self._import("rummy", "rummy-basic.json")
        self._import("gin", "gin-knock.json")
        self._counted("kalooki", "kalooki", ["A", "B", "Kay"],
                      [("p0", {"B": "JK S9", "Kay": "HK"})])
        self._counted("conquian", "conquian", ["A", "B"], [("stalemate", {})])
        self._counted("manip", "manipulation", ["A", "C", "D"])
        self._counted("rummy_over", "rummy", ["A", "B"], [("p0", {"B": "D9"})], target=1)
        # A game this phone watches (its read-only link), and one it has no link to.
        other = self.app.test_client()
        peek = self._counted("peek", "rummy", ["A", "Vee"], [("p1", {"A": "C2"})], client=other)
        self._ok(self.client.get(f"/g/{peek.view}/counted"), 200)
        self._counted("hidden", "rummy", ["Hid", "A"], client=other)
        # A club night of this phone's group: four players, one table of Basic Rummy started.
        group = self._query("SELECT group_id FROM games WHERE id = ?", [self.games["ice_play"].id])[0][0]
        secret = self._query("SELECT edit_token FROM groups WHERE id = ?", [group])[0][0]
        night = self._ok(self.client.post(f"/group/{group}-{secret}/nights", data={
            "variant": "rummy", "players": "A\nB\nNia\nOz", "table_size": "2", "ranking": "places",
            "places": "3 1", "rule_target": "50"})).headers["Location"]
        self._ok(self.client.post(f"{night}/tables", data={"variant": "rummy", "round": "1", "first_dealer": "0",
                                                          "seat_0": "Nia", "seat_1": "Oz"}))
        self.night = int(night.rsplit("/", 1)[1])
        self.night_tables = [r[0] for r in self._query("SELECT game FROM night_tables WHERE night = ?", [self.night])]
        for game in self.games.values():
            rows = self._query("SELECT id, type, round_no FROM plays WHERE game = ? ORDER BY id", [game.id])
            game.plays = [r[0] for r in rows]
            game.melds = [r[0] for r in rows if r[1] == "meld"]
            game.rounds = max([r[2] for r in rows] + [self._query(
                "SELECT round_no FROM games WHERE id = ?", [game.id])[0][0]])

    # -- each request from the same database --------------------------------------------
    def restore(self) -> None:
        """A fresh copy of the template (SQLite's backup: WAL included), under a new name."""
        old = self.work
        self.copies += 1
        self.work = str(self.base / f"work-{self.copies}.db")
        source, target = sqlite3.connect(self.template), sqlite3.connect(self.work)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        self.app.config["DATABASE"] = self.work
        if self.watch is not None:
            self.watch.close()
        self.watch = sqlite3.connect(self.work)
        self.seen = self.data_version()
        if old != self.template:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(old + suffix):
                    os.remove(old + suffix)

    def data_version(self) -> int:
        """SQLite's ``data_version`` of the work copy, read by a connection of the test's
        own: it moves whenever another connection (the app's) commits to it."""
        return self.watch.execute("PRAGMA data_version").fetchone()[0]

    def committed(self) -> bool:
        """Whether the app committed anything to the work copy since the last look."""
        seen, self.seen = self.seen, self.data_version()
        return self.seen != seen

    def fresh_session(self) -> None:
        """This phone's session as the world left it: its games, no flashed message."""
        self.client.set_cookie("session", self.cookie)


# ---------------------------------------------------------------------------------------
# Values.

NUMBER_WORDS = ["0", "1", "2", "3", "-1", "-0", "+1", " 1 ", "1.0", "1.5", "1e3", "1e308", "-1e308",
                "1e309", "inf", "-inf", "NaN", "0x1f", "0b1", "1_000", "²", "¹²", "١٢", "٣", "１２",
                "𝟙", "Ⅻ", "߁", "9223372036854775807", "9223372036854775808", "18446744073709551616",
                "-9223372036854775809", "0" * 40 + "1", "9" * 400, "1 2", "", " "]
numbers = st.one_of(st.integers(-3, 40).map(str), st.integers(-2**200, 2**200).map(str),
                    st.sampled_from(NUMBER_WORDS), st.floats().map(str), st.decimals().map(str))
NOT_UTF8 = [b"\xff", b"\xfe\xff", b"S\xe9", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"A\x80B",
            b"\xf4\x90\x80\x80", b"\xe2\x99", b"S2\xff"]
not_utf8 = st.one_of(st.sampled_from(NOT_UTF8),
                     st.binary(min_size=1, max_size=6).filter(lambda b: not _utf8(b)))
LONG = ["x" * 5000, "9" * 5000, "S2 " * 1500, "é" * 3000, "\u202e" * 100 + "A", "A\x00B", "\x00",
        "<script>alert(1)</script>", "{{7*7}}", "%s%s%n", "../../etc/passwd"]
anything = st.text(max_size=24)
CARDS = ["S2", "H3", "D4", "C5", "S6", "H7", "D8", "C9", "S10", "HJ", "DQ", "CK", "SA", "HA", "DA", "CA",
         "JK", "jk", "10s", "♠9", "t♥", "9S", "ST", " S9 ", "S1", "S11", "X7", "10", "S 9", "SS", "♠",
         "H4", "H5", "H6", "S7", "S8", "S9", "D5", "C2", "C3", "C4", "SK", "SQ", "D2", "D9", "CJ", "H2"]
NAMES = ["A", "B", "C", "D", "E", "Kay", "Vee", "Hid", "a", " A", "A ", "Ａ", "Zed", "", "B\u0301"]


def _utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def value(*meaningful) -> st.SearchStrategy:
    """Mostly a meaningful value; else a number of any size or script, any text, a very
    long value, or bytes that are not UTF-8 (``bytes``: sent as they are)."""
    good = st.sampled_from(list(meaningful) or [""])
    return st.one_of(good, good, good, numbers, anything, st.sampled_from(LONG), not_utf8)


cards = value(*CARDS)
names = value(*NAMES)
small = value("0", "1", "2", "3", "")


# ---------------------------------------------------------------------------------------
# Routes.


@dataclass
class Route:
    """How to ask one route: the games it is for, its fields (name → values), which of
    them carry several values (a card picker), and requests it accepts as they are
    (game, path values, fields) for the fuzz to start from."""

    games: tuple[str, ...] = ()
    fields: dict = field(default_factory=dict)
    lists: tuple[str, ...] = ()
    good: object = None  # World → [(game name, {path param: value}, {field: value or list})]
    examples: int = 30
    file: bool = False  # the import: its field is a file
    params: dict = field(default_factory=dict)  # path parameter → its values, where not the usual


def _last(world, name):
    return str(world.games[name].plays[-1])


def _meld(world, name, n=1):
    return str(world.games[name].melds[-n])


PLAY = {"player": names, "cards": cards, "meld": value("", "1", "2"), "check": value("", "1", "Check"),
        "confirm": value("", "1", "Confirm"), "round_no": small, "request_id": value("r1", "x" * 64, "x" * 65)}
ROUND_FIELDS = {"round_no": small, "revision": small, "ended": value("p0", "p1", "p2", "p3", "p9", "stalemate",
                                                                    "p", "p-1", "p²", "P0", "p00"),
                "rummy": value("y", "1", "", "n", "false"), "check": value("", "1"), "save": value("", "1"),
                **{f"hand_{i}": cards for i in range(7)}, "request_id": value("r1")}
HANDS = tuple(f"hand_{i}" for i in range(7))
NEW_GAME = {"variant": value(*registry.VARIANTS, "canasta", "ICEBERG", ""),
            **{f"seat_{i}": names for i in range(8)},
            "first_dealer": value("0", "1", "2", "5", "6"), "partnerships": value("none", "13", "12", "14", "99"),
            **{f"rule_{o.name}": value(*[str(c) for c in o.choices], "auto", "true", "false", "0", "1",
                                       str(o.default), str(10**9), str(10**9 + 1))
               for v in registry.VARIANTS.values() for o in v.rules},
            "request_id": value("r1", "")}
ALL_GAMES = ICEBERG + ROBBER + COUNTED


def _routes() -> dict[tuple[str, str], Route]:
    r: dict[tuple[str, str], Route] = {}
    any_game = ALL_GAMES
    # Pages of any game (a game of another family is sent to its own page).
    for rule in ("/g/<game_key>", "/g/<game_key>/export", "/g/<game_key>/export.csv", "/g/<game_key>/rules"):
        r[(rule, "GET")] = Route(any_game, {"x": anything})
    r[("/g/<game_key>/changes", "GET")] = Route(any_game, {"play": value("1", "2", "3", "0", "-1", "x"),
                                                          "round": value("1", "2", "0", "1e3")})
    r[("/g/<game_key>/changes/bring-back", "POST")] = Route(any_game, {"play": value("1", "2", "3", "0", "-1", "x",
                                                                                      "1e3")})
    r[("/g/<game_key>/events", "GET")] = Route(any_game, {"since": value("0", "1", "2", "5", "9", "12")})
    r[("/g/<game_key>/phone", "GET")] = Route(any_game, {"x": anything})
    r[("/g/<game_key>/phone", "POST")] = Route(any_game, {"seat": value("1", "2", "3", "9", "0", "-1", "table",
                                                                        "TABLE", "", "²", "1\n")}, (),
                                               lambda w: [("ice_play", {}, {"seat": "2"})], examples=30)
    r[("/g/<game_key>/board", "GET")] = Route(any_game, {"since": value("0", "1", "2", "5", "9", "12")})
    r[("/g/<game_key>/table", "GET")] = Route(ICEBERG, {"saved": value("1", "2", "3", "4")})
    r[("/g/<game_key>/rounds/<id:round_no>", "GET")] = Route(ICEBERG, {})
    r[("/g/<game_key>/live", "GET")] = Route(ICEBERG, {"since": value("0", "1", "5", "9", "12")})
    r[("/g/<game_key>/worth", "GET")] = Route(ICEBERG, {})
    r[("/g/<game_key>/preview", "GET")] = Route(ICEBERG, {"cards": cards, "player": names,
                                                          "meld": value("", "1", "2")}, ("cards",),
                                                examples=40)
    r[("/g/<game_key>/end", "GET")] = Route(ICEBERG, {"player": names})
    r[("/g/<game_key>/plays/<id:play_id>/edit", "GET")] = Route(ICEBERG, {})
    # Iceberg's table and round end.
    posts = 50
    r[("/g/<game_key>/plays", "POST")] = Route(ICEBERG, PLAY, ("cards",), lambda w: [
        ("ice_play", {}, {"player": "C", "cards": ["H5"], "meld": _meld(w, "ice_play"), "confirm": "1"}),
        ("ice_play", {}, {"player": "C", "cards": ["H4", "H5", "H6"], "check": "1"})], posts)
    r[("/g/<game_key>/check", "POST")] = Route(ICEBERG, PLAY, ("cards",), lambda w: [
        ("ice_play", {}, {"player": "C", "cards": ["H4", "H5", "H6"]})], posts)
    r[("/g/<game_key>/aces", "POST")] = Route(ICEBERG, {"player": names, "card": value("SA", "HA", "DA", "CA", "sa",
                                                                                       "A♠", "JK", "S2"),
                                                        "round_no": small, "request_id": value("r1")},
                                              (), lambda w: [("ice_play", {}, {"player": "C", "card": "SA"})], posts)
    r[("/g/<game_key>/out", "POST")] = Route(ICEBERG, {"player": names, "cards": cards, "meld": small,
                                                       "round_no": small}, ("cards",),
                                             lambda w: [("ice_play", {}, {"player": "C"})], posts)
    r[("/g/<game_key>/pass", "POST")] = Route(ICEBERG, {"turn": names, "round_no": small},
                                              (), lambda w: [("ice_play", {}, {"turn": "C"})], posts)
    r[("/g/<game_key>/undo", "POST")] = Route(ICEBERG, {"last": small}, (), lambda w: [
        ("ice_play", {}, {"last": _last(w, "ice_play")}), ("ice_end", {}, {"last": _last(w, "ice_end")})], posts)
    r[("/g/<game_key>/plays/<id:play_id>", "POST")] = Route(
        ICEBERG, {k: v for k, v in PLAY.items() if k != "confirm"} | {"revision": small, "save": value("", "1")},
        ("cards",), lambda w: [("ice_play", {"play_id": w.games["ice_play"].melds[-1]},
                                {"player": "C", "cards": ["D6", "C6"], "meld": "", "save": "1", "revision": "0"})],
        posts)
    r[("/g/<game_key>/plays/<id:play_id>/delete", "POST")] = Route(ICEBERG, {"revision": small}, (), lambda w: [
        ("ice_play", {"play_id": w.games["ice_play"].plays[-1]}, {"revision": "0"})], posts)
    # A deleted play brought back: the notice's token is the app's own, signed; anything
    # else is refused as not one of its notices.
    r[("/g/<game_key>/plays/restore", "POST")] = Route(ICEBERG, {"deleted": anything}, (), None, posts)
    r[("/g/<game_key>/hands", "POST")] = Route(ICEBERG, {"player": names, "round_no": small, "cards": cards},
                                               ("cards",), lambda w: [
        ("ice_end", {}, {"player": "C", "round_no": "1", "cards": ["D4", "C9"]})], posts)
    r[("/g/<game_key>/rounds/<id:round_no>/hand", "GET")] = Route(ICEBERG, {"player": names})
    r[("/g/<game_key>/rounds/<id:round_no>/hand", "POST")] = Route(
        ICEBERG, {"player": names, "round_no": small, "cards": cards, "was": value("", "SK", "C6 HQ S3 SJ SK", "x")},
        ("cards",), lambda w: [("ice_done", {"round_no": "1"}, {"player": "B", "round_no": "1",
                                                               "cards": ["SK", "SJ", "S3", "HQ"],
                                                               "was": "C6 HQ S3 SJ SK"})], posts)
    r[("/g/<game_key>/end", "POST")] = Route(ICEBERG, {"round_no": small}, (), lambda w: [
        ("ice_end", {}, {"round_no": "1"}), ("ice_done", {}, {"round_no": "1"})], posts)
    # Robber Rummy.
    for rule in ("/g/<game_key>/robber", "/g/<game_key>/robber/game", "/g/<game_key>/robber/export",
                 "/g/<game_key>/robber/export.csv"):
        r[(rule, "GET")] = Route(ROBBER, {"x": anything})
    r[("/g/<game_key>/robber/live", "GET")] = Route(ROBBER, {"since": value("0", "1", "5", "9")})
    r[("/g/<game_key>/robber/worth", "GET")] = Route(ROBBER, {})
    r[("/g/<game_key>/robber/end", "GET")] = Route(ROBBER, {"player": names})
    r[("/g/<game_key>/robber/hands/<id:round_no>", "GET")] = Route(ROBBER, {})
    r[("/g/<game_key>/robber/preview", "GET")] = Route(ROBBER, {"cards": cards, "player": names,
                                                                "meld": value("", "1", "2")}, ("cards",),
                                                       examples=40)
    r[("/g/<game_key>/robber/play", "POST")] = Route(
        ROBBER, {**PLAY, "action": value("play", "check", "take", "renege", "out", "stock", "pass", "")},
        ("cards",), lambda w: [
            ("rob_play", {}, {"player": "A", "action": "play", "cards": ["H7"], "meld": _meld(w, "rob_play", 2)}),
            ("rob_play", {}, {"player": "D", "action": "check", "cards": ["C2", "C3", "C4"]}),
            ("rob_play", {}, {"player": "A", "action": "take", "cards": ["SQ"]}),
            ("rob_play", {}, {"player": "B", "action": "renege"}),
            ("rob_play", {}, {"player": "D", "action": "out"}),
            ("rob_play", {}, {"player": "", "action": "stock"}),
            ("rob_take", {}, {"player": "B", "action": "play", "cards": ["SK", "HK", "DK"]}),
            ("rob_team", {}, {"player": "B", "action": "play", "cards": ["C5"], "meld": _meld(w, "rob_team")}),
        ], 80)
    r[("/g/<game_key>/robber/pass", "POST")] = Route(ROBBER, {"turn": names, "round_no": small}, (), lambda w: [
        ("rob_play", {}, {"turn": "D"}), ("rob_team", {}, {"turn": "B"})], posts)
    r[("/g/<game_key>/robber/undo", "POST")] = Route(ROBBER, {"last": small}, (), lambda w: [
        ("rob_play", {}, {"last": _last(w, "rob_play")}), ("rob_end", {}, {"last": _last(w, "rob_end")})], posts)
    r[("/g/<game_key>/robber/plays/<id:play_id>/delete", "POST")] = Route(ROBBER, {"revision": small}, (), lambda w: [
        ("rob_play", {"play_id": w.games["rob_play"].plays[-1]}, {"revision": "0"}),
        ("rob_team", {"play_id": w.games["rob_team"].plays[0]}, {"revision": "0"})], posts)
    r[("/g/<game_key>/robber/plays/restore", "POST")] = Route(ROBBER, {"deleted": anything}, (), None, posts)
    r[("/g/<game_key>/robber/plays/<id:play_id>/edit", "GET")] = Route(ROBBER, {})
    r[("/g/<game_key>/robber/plays/<id:play_id>", "POST")] = Route(
        ROBBER, {"player": names, "cards": cards, "meld": value("", "1", "2"), "revision": small,
                 "save": value("", "1"), "request_id": value("r1", "x" * 64, "x" * 65)}, ("cards",), lambda w: [
            ("rob_play", {"play_id": w.games["rob_play"].plays[-1]},
             {"player": "D", "cards": ["S8", "S9", "S10"], "revision": "0", "save": "1"})], posts)
    r[("/g/<game_key>/robber/end/hand", "POST")] = Route(
        ROBBER, {"player": names, "round_no": small, "cards": cards}, ("cards",), lambda w: [
            ("rob_end", {}, {"player": "B", "round_no": "1", "cards": ["D2", "C7"]})], posts)
    r[("/g/<game_key>/robber/end", "POST")] = Route(ROBBER, {"round_no": small}, (), lambda w: [
        ("rob_end", {}, {"round_no": "1"})], posts)
    # The hand-count games.
    for rule in ("/g/<game_key>/counted", "/g/<game_key>/counted/export", "/g/<game_key>/counted/export.csv",
                 "/g/<game_key>/counted/round"):
        r[(rule, "GET")] = Route(COUNTED, {"x": anything})
    r[("/g/<game_key>/counted/live", "GET")] = Route(COUNTED, {"since": value("0", "1", "2", "3")})
    r[("/g/<game_key>/counted/rounds/<id:round_no>", "GET")] = Route(COUNTED, {})
    r[("/g/<game_key>/counted/rounds/<id:round_no>/edit", "GET")] = Route(COUNTED, {})
    counted_goods = lambda w: [  # noqa: E731
        ("rummy", {}, {"round_no": "2", "ended": "p0", "hand_1": ["D9", "CJ"], "hand_2": ["H2"], "save": "1"}),
        ("rummy", {}, {"round_no": "2", "ended": "p1", "rummy": "y", "hand_0": ["SK"], "check": "1"}),
        ("gin", {}, {"round_no": "2", "ended": "p0", "hand_0": "S2 S3 S4 H9 D9 C9 SK HK DK D5".split(),
                     "hand_1": "S5 S6 H10 HJ HQ C2 C3 D7 CK D4".split(), "save": "1"}),
        ("kalooki", {}, {"round_no": "2", "ended": "p2", "hand_0": ["JK", "JK"], "hand_1": ["SA"], "save": "1"}),
        ("conquian", {}, {"round_no": "2", "ended": "p1", "save": "1"}),
        ("manip", {}, {"round_no": "1", "ended": "stalemate", "hand_0": ["S2"], "check": "1"}),
    ]
    r[("/g/<game_key>/counted/round", "POST")] = Route(COUNTED, ROUND_FIELDS, HANDS, counted_goods, 80)
    r[("/g/<game_key>/counted/rounds/<id:round_no>/edit", "POST")] = Route(
        COUNTED, ROUND_FIELDS, HANDS, lambda w: [
            (g, {"round_no": 1}, dict(d, round_no="1", revision="0")) for g, _p, d in counted_goods(w)], 80)
    r[("/g/<game_key>/counted/rounds/<id:round_no>/delete", "POST")] = Route(
        COUNTED, {"sure": value("y", "Y", "yes", ""), "revision": small, "request_id": value("r1")}, (),
        lambda w: [("rummy", {"round_no": 1}, {"sure": "y", "revision": "0"}),
                   ("kalooki", {"round_no": 1}, {"sure": "y"})], posts)
    r[("/g/<game_key>/counted/rounds/restore", "POST")] = Route(COUNTED, {"deleted": anything}, (), None, posts)
    # Games, the import, the rules pages, the knock helper, the app's own files.
    r[("/", "GET")] = r[("/games", "GET")] = Route((), {
        "variant": value(*registry.VARIANTS, "canasta"), "player": names,
        "since": value("2020-01-01", "2999-12-31", "2026-02-30", "20260101", "0001-01-01", "9999-99-99"),
        "until": value("2020-01-01", "2999-12-31", "2026-13-01", "")}, examples=40)
    r[("/games", "POST")] = Route((), NEW_GAME, (), lambda w: [
        (None, {}, {"variant": v, "seat_0": "A", "seat_1": "B", "seat_2": "C", "seat_3": "D",
                    "first_dealer": "0"}) for v in ("iceberg", "robber", "kalooki", "manipulation")] + [
        (None, {}, {"variant": "robber", "seat_0": "A", "seat_1": "B", "seat_2": "C", "seat_3": "D",
                    "partnerships": "13", "first_dealer": "3", "rule_target": "1"}),
        (None, {}, {"variant": "gin", "seat_0": "A", "seat_1": "B", "rule_preset": "modern",
                    "rule_knock_limit": "0", "first_dealer": "1"})], 60)
    r[("/games/new", "GET")] = Route((), {"variant": value(*registry.VARIANTS, "canasta", "")})
    r[("/games/import", "GET")] = Route((), {"x": anything})
    r[("/games/import", "POST")] = Route((), {"upload": value("1", ""), "game_file": value("")}, (), None, 60,
                                         file=True)
    r[("/rules/<variant>", "GET")] = Route((), {"x": anything})
    r[("/<variant_key>/knock", "GET")] = Route((), {
        "cards": cards, "knock_limit": value("10", "0", "999", "1000", "-1", ""),
        "game": value("/g/1-abc/counted", "//evil.example/g/x/counted", "/g/x/counted\n", "javascript:1")},
        ("cards",), examples=50, params={"variant_key": st.sampled_from(["gin"] * 6 + ["rummy", "GIN", "x"])})
    r[("/manifest.webmanifest", "GET")] = Route((), {"x": anything}, examples=10)
    r[("/language", "POST")] = Route((), {
        "lang": value("en", "es", "de", "fr", "EN", ""),
        "next": value("/", "/games", "//evil.example/x", "javascript:alert(1)", "/\\evil", "/g/1-x/table", "",
                      "/games\r\nSet-Cookie: x=1", "/\n", "/g\x00", "/games\u2028")}, (),
        lambda w: [(None, {}, {"lang": "en", "next": "/games"})], examples=20)
    r[("/suits", "POST")] = Route((), {
        "suits": value("two", "four", "FOUR", "three", ""),
        "next": value("/", "/games", "//evil.example/x", "/games\r\nSet-Cookie: x=1", "/\n", "")}, (),
        lambda w: [(None, {}, {"suits": "four", "next": "/games"})], examples=20)
    r[("/sw.js", "GET")] = Route((), {"x": anything}, examples=10)
    r[("/static/<path:filename>", "GET")] = Route((), {"v": anything}, examples=20)
    # Players.
    r[("/players", "GET")] = Route((), {"x": anything})
    r[("/players/head-to-head", "GET")] = Route((), {"x": anything})
    r[("/players/<id:player_id>", "GET")] = Route((), {})
    r[("/g/<game_key>/sheet", "GET")] = Route(any_game, {"x": anything})
    r[("/players/<id:player_id>/rename", "POST")] = Route(
        (), {"name": names, "expected": names, "csrf_token": anything}, (), lambda w: [
            (None, {"player_id": w.players["D"]}, {"name": "Dee", "expected": "D"}),
            (None, {"player_id": w.players["Kay"]}, {"name": "D", "expected": "Kay"}),
            (None, {"player_id": w.players["A"]}, {"name": "Ann", "expected": "A"})], posts)
    r[("/players/<id:player_id>/merge", "POST")] = Route(
        (), {"into": value(*[str(i) for i in range(1, 12)]), "sure": value("y", "")}, (), lambda w: [
            (None, {"player_id": w.players["Kay"]}, {"into": str(w.players["D"]), "sure": "y"}),
            (None, {"player_id": w.players["E"]}, {"into": str(w.players["E"]), "sure": "y"}),
            (None, {"player_id": w.players["A"]}, {"into": str(w.players["B"]), "sure": "y"})], posts)
    # A group's pages: its history, its players, their statistics, its new game and import.
    group_routes = {(rule.replace("/players", "/group/<group_key>/players", 1)
                     .replace("/games", "/group/<group_key>/games", 1), method): route
                    for (rule, method), route in r.items()
                    if rule.startswith("/players") or (rule.startswith("/games") and rule != "/games")}
    # A club night of the group.
    night = "/group/<group_key>/nights"
    r[(f"{night}/new", "GET")] = r[("/nights/new", "GET")] = Route((), {
        "variant": value(*registry.VARIANTS, "canasta", "")})
    r[(night, "POST")] = r[("/nights", "POST")] = Route((), {
        "variant": value(*registry.VARIANTS, "canasta", ""), "players": value("A\nB", "A\nB\nC\nD", "A", "A\na", ""),
        "name": anything, "table_size": value("2", "4", "9", "0", "-1", ""), "ranking": value("places", "scores", "x"),
        "places": value("3 2 1 0", "3,1", "", "1 2 3 4 5 6 7 8 9", "999"), **{k: v for k, v in NEW_GAME.items()
                                                                          if k.startswith("rule_")},
        "request_id": value("r1", "")}, (), lambda w: [
        (None, {}, {"variant": "gin", "players": "A\nB\nCy", "table_size": "2", "ranking": "scores",
                    "places": "3 1"}),
        (None, {}, {"variant": "rummy", "players": "A\nB\nCy\nDi", "table_size": "4", "ranking": "places",
                    "places": "3 2 1 0", "rule_target": "10"})], posts)
    r[(f"{night}/<id:night_id>/sheet", "GET")] = Route((), {"x": anything})
    for rule in (f"{night}/<id:night_id>", f"{night}/<id:night_id>/screen"):
        r[(rule, "GET")] = Route((), {"since": value("0", "1", "3", "4", "99")})
    r[(f"{night}/<id:night_id>/tables/new", "GET")] = Route((), {
        "variant": value(*registry.VARIANTS, "canasta", ""), "round": value("1", "2", "3", "0", "")})
    r[(f"{night}/<id:night_id>/tables", "POST")] = Route((), {**NEW_GAME, "round": value("1", "2", "3", "0", "")},
                                                         (), lambda w: [
        (None, {}, {"variant": "rummy", "round": "1", "first_dealer": "0", "seat_0": "A", "seat_1": "B"}),
        (None, {}, {"variant": "rummy", "round": "2", "first_dealer": "1", "seat_0": "Nia", "seat_1": "Pip",
                    "rule_target": "20"})], posts)
    r[(f"{night}/<id:night_id>/tables/<id:table>", "POST")] = Route((), {"abandoned": value("1", "0", "2", "")}, (),
                                                                   lambda w: [(None, {}, {"abandoned": "1"})], posts)
    r[(f"{night}/<id:night_id>/players", "POST")] = Route((), {
        "name": names, "player": value(*[str(i) for i in range(1, 12)], "0", ""), "left": value("1", "0", ""),
        "remove": value("1", "0", "")}, (), lambda w: [
        (None, {}, {"name": "Quinn"}), (None, {}, {"player": str(w.players["A"]), "left": "1"}),
        (None, {}, {"player": str(w.players["A"]), "remove": "1"})], posts)
    group_routes[("/group/<group_key>", "GET")] = r[("/games", "GET")]
    group_routes[("/group/<group_key>/games", "POST")] = r[("/games", "POST")]
    group_routes[("/group/<group_key>/name", "POST")] = Route((), {"name": names, "request_id": value("r1", "")}, (),
                                                            lambda w: [(None, {}, {"name": "Thursday club"}),
                                                                       (None, {}, {"name": ""})], posts)
    r.update(group_routes)
    return r


ROUTES = _routes()
STATIC = ["app.js", "app.css", "icon.svg", "icon-192.png"]
WEIRD_IDS = ["0", "00001", "9" * 19, "9" * 25, str(2**63), str(2**63 - 1), str(2**64), "-1", "²", "١", "1.0",
             "%FF", "1e3", "%00", "1%0A"]
WEIRD_PATHS = ["../pyproject.toml", "..%2Fpyproject.toml", "%2e%2e/%2e%2e/pyproject.toml", "app.js%00.png",
               "%FF%FE", "x" * 300, "", "/etc/passwd", "app.js/", "ICON.SVG", "\u00e9.css", "app.js%3Fx",
               "%2Fetc%2Fpasswd"]


def app_routes(app) -> set[tuple[str, str]]:
    """Every (rule, method) of the app, HEAD and OPTIONS aside (Flask answers them from GET)."""
    return {(rule.rule, method) for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}}


# ---------------------------------------------------------------------------------------
# Requests.


@dataclass
class Ask:
    method: str
    path: str  # percent-encoded as it goes on the wire
    pairs: list  # (name, str or bytes), in order, names repeated for several values
    body: str = "form"  # how a POST's fields travel (BODIES)
    rule: tuple = ()
    shape: int = 0  # which of JSON_SHAPES a "json-other" body is

    def __repr__(self) -> str:  # what hypothesis prints for a failing example
        shape = f" {JSON_SHAPES[self.shape][:40]!r}" if self.body == "json-other" else ""
        return f"{self.method} {self.path} body={self.body}{shape} {self.pairs!r}"[:3000]


BODIES = ["form"] * 10 + ["multipart"] * 3 + ["json"] * 2 + ["json-other", "text", "none", "latin-1",
                                                               "raw", "multipart-files"]


def _quote(text) -> str:
    return urllib.parse.quote(text, safe="-") if isinstance(text, str) else urllib.parse.quote_from_bytes(text)


def game_key(draw, world: World, game: Game) -> str:
    choice = draw(st.integers(0, 19))
    if choice < 14:
        return game.edit
    if choice < 16:
        return game.view
    weird = [f"{game.id}-madeup", f"{game.id}", f"{game.id}-", "-", "0-x", f"{2**64}-x", "%FF%FE",
             f"²-{game.edit.split('-', 1)[1]}", f"{game.edit}%FF", f"{game.edit}x", game.edit.upper(),
             f"0{game.edit}", f"{game.id}-{'x' * 400}", f"{game.edit}%00"]
    return draw(st.sampled_from(weird))


def group_key(draw, world: World) -> str:
    """Mostly this phone's group's edit link; its read-only link, the other group's links
    (handed on to this phone), or keys that open nothing."""
    choice = draw(st.integers(0, 19))
    mine_edit, mine_view = world.groups["mine"]
    if choice < 13:
        return mine_edit
    if choice < 15:
        return mine_view
    if choice < 17:
        return draw(st.sampled_from(world.groups["theirs"]))
    group = mine_edit.split("-")[0]
    weird = [f"{group}-madeup", group, f"{group}-", "-", "0-x", f"{2**64}-x", "%FF%FE", f"{mine_edit}x",
             mine_edit.upper(), f"0{mine_edit}", f"{group}-{'x' * 400}", f"{mine_edit}%00",
             f"{int(group) + 1}-{mine_edit.split('-', 1)[1]}", f"²-{mine_edit.split('-', 1)[1]}"]
    return draw(st.sampled_from(weird))


@st.composite
def asks(draw, world: World, rule: tuple[str, str]) -> Ask:
    """One request for ``rule``: a good one changed a little, or one drawn field by field."""
    path, method = rule
    route = ROUTES[rule]
    params: dict = {}
    goods = route.good(world) if route.good else []
    if goods and draw(st.integers(0, 2)) == 0:
        name, params, data = draw(st.sampled_from(goods))
        params, data = dict(params), dict(data)
        for _ in range(draw(st.integers(0, 2))):  # then break up to two things, or nothing
            key = draw(st.sampled_from(sorted(route.fields)))
            if draw(st.booleans()):
                data.pop(key, None)
            else:
                data[key] = draw(st.lists(route.fields[key], max_size=4)) if key in route.lists \
                    else draw(route.fields[key])
        pairs = [(k, v) for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs])]
    else:
        name = None
        pairs = []
        for key in sorted(route.fields):
            if draw(st.integers(0, 5)) == 0:  # mostly there, sometimes missing
                continue
            count = draw(st.integers(0, 5)) if key in route.lists else draw(
                st.sampled_from([1] * 8 + [2, 3]))  # a single value now and then sent twice
            pairs += [(key, draw(route.fields[key])) for _ in range(count)]
    if draw(st.integers(0, 9)) == 0:  # a field no form has, or a name that is no text
        pairs.append((draw(st.one_of(anything, not_utf8)), draw(value("1"))))
    # The path: the game (now and then one of another family's), its key, the row ids.
    if "<game_key>" in path:
        if name is None or draw(st.integers(0, 5)) == 0:
            pool = list(route.games) * 4 + sorted(world.games)
            name = draw(st.sampled_from(pool))
        game = world.games[name]
        params.setdefault("game_key", game_key(draw, world, game))
    else:
        game = None
    if "<group_key>" in path:
        params.setdefault("group_key", group_key(draw, world))

    def pick_id(known: list) -> str:
        pool = [str(i) for i in known]
        return draw(st.one_of(st.sampled_from(pool or ["1"]), st.sampled_from(pool or ["1"]),
                              st.integers(1, 40).map(str), st.sampled_from(WEIRD_IDS)))

    def fill(match: re.Match) -> str:
        param = match.group(2)
        if param in route.params and param not in params:
            return draw(route.params[param])
        if param in params:
            got = params[param]
            return got if isinstance(got, str) and param in ("game_key", "group_key") else _quote(str(got))
        if param == "play_id":
            return pick_id(game.plays)
        if param == "round_no":
            return pick_id(list(range(1, game.rounds + 2)))
        if param == "player_id":
            return pick_id(sorted(world.players.values()) + sorted(world.other_players.values())[:2])
        if param in ("variant", "variant_key"):
            return draw(st.one_of(st.sampled_from(list(registry.VARIANTS) * 2), st.sampled_from(
                ["canasta", "GIN", "gin%FF", "%FF", "x" * 300, "gin%00", "g%C3%AFn"])))
        if param == "night_id":
            return pick_id([world.night])
        if param == "table":
            return pick_id(world.night_tables + [world.games["rummy"].id])
        if param == "filename":
            return draw(st.one_of(st.sampled_from(STATIC), st.sampled_from(WEIRD_PATHS)))
        raise AssertionError(param)

    url = re.sub(r"<(?:(\w+):)?(\w+)>", fill, path)
    body = draw(st.sampled_from(BODIES)) if method == "POST" else "query"
    if route.file:
        body = draw(st.sampled_from(["file"] * 6 + BODIES))
        if body == "file":
            pairs.append(("game_file", draw(uploads())))
    shape = draw(st.integers(0, len(JSON_SHAPES) - 1)) if body == "json-other" else 0
    return Ask(method, url, pairs, body, rule, shape)


def deep(depth: int, kind: str = "list") -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


# JSON bodies that are no form: no object, nested too deep, broken, not UTF-8, numbers too long.
JSON_SHAPES = ['"player"', "[1, 2]", '[["player", "A"]]', "5", "null", "true", deep(100000), deep(50000, "dict"),
               '{"player": ' + deep(100000) + "}", "{", b'{"player": "\xff"}', "", '{"a": NaN}',
               '{"round_no": ' + "9" * 5000 + "}", '{"player": ["A", "B"], "cards": {"S2": 1}}']


@st.composite
def uploads(draw):
    """A game file: a good one (the examples), a deep one, a broken one, any bytes."""
    good = [(EXAMPLES / f).read_bytes() for f in ("rummy-basic.json", "gin-knock.json",
                                                  "robber-seed-chart.json", "iceberg-seed-example.json")]
    kind = draw(st.sampled_from(["good", "good", "deep", "nested", "cut", "bytes", "bom", "latin"]))
    if kind == "good":
        return draw(st.sampled_from(good))
    if kind == "deep":
        return deep(draw(st.sampled_from([100, 5000, 200000])), draw(st.sampled_from(["list", "dict"]))).encode()
    if kind == "nested":  # a good file with a deep value in one of its fields
        doc = json.loads(draw(st.sampled_from(good)))
        doc[draw(st.sampled_from(["rules", "players", "rounds", "teams", "format"]))] = json.loads(deep(900))
        return json.dumps(doc).encode()
    if kind == "cut":
        body = draw(st.sampled_from(good))
        return body[:draw(st.integers(0, len(body)))]
    if kind == "bom":
        return b"\xef\xbb\xbf" + draw(st.sampled_from(good))
    if kind == "latin":
        return draw(st.sampled_from(good)).replace(b'"A"', b'"\xc5"')
    return draw(st.binary(max_size=100))


def _form_body(pairs) -> str:
    return "&".join(f"{_quote(k)}={_quote(v)}" for k, v in pairs)


def _text(v) -> str:
    return v.decode("latin-1") if isinstance(v, bytes) else v


class BrokenBody(io.BytesIO):
    """A request body that fails half way, as gunicorn's chunked reader does on a chunk with
    no size (its own exception class, which the app cannot know)."""

    class Malformed(Exception):
        pass

    def read(self, size: int | None = -1) -> bytes:
        if self.tell() >= len(self.getvalue()) // 2:
            raise self.Malformed("Invalid chunk size: b''")
        half = len(self.getvalue()) // 2 - self.tell()
        return super().read(half if size is None or size < 0 else min(size, half))

    def readline(self, size: int | None = -1) -> bytes:
        return self.read(size)

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def send(world: World, ask: Ask):
    """Send a request as the strategies made it, with this phone's session as the world left it."""
    world.fresh_session()
    client, pairs = world.client, ask.pairs
    if ask.method != "POST":
        return client.open(ask.path, method=ask.method, query_string=_form_body(pairs))
    files = [(k, v) for k, v in pairs if k == "game_file" and ask.body == "file" and isinstance(v, bytes)]
    fields = [(k, v) for k, v in pairs if (k, v) not in files]
    if ask.body in ("file", "multipart", "multipart-files"):
        data = []
        for k, v in fields:
            if isinstance(v, bytes) or ask.body == "multipart-files":  # a file where text goes
                data.append((_text(k), (io.BytesIO(v if isinstance(v, bytes) else v.encode()), "f.json")))
            else:
                data.append((_text(k), v))
        data += [(k, (io.BytesIO(v), "game.json")) for k, v in files]
        from werkzeug.datastructures import MultiDict
        return client.post(ask.path, data=MultiDict(data), content_type="multipart/form-data")
    if ask.body == "form":
        return client.post(ask.path, data=_form_body(fields), content_type="application/x-www-form-urlencoded")
    if ask.body == "latin-1":  # a form that says it is Latin-1
        raw = "&".join(f"{urllib.parse.quote(_text(k).encode('latin-1', 'replace'))}="
                       f"{urllib.parse.quote(_text(v).encode('latin-1', 'replace'))}" for k, v in fields)
        return client.post(ask.path, data=raw, content_type="application/x-www-form-urlencoded; charset=latin-1")
    if ask.body == "raw":  # a form's bytes unencoded: raw non-UTF-8, raw & and =
        raw = b"&".join((k.encode() if isinstance(k, str) else k) + b"=" + (v.encode() if isinstance(v, str) else v)
                        for k, v in fields)
        return client.post(ask.path, data=raw, content_type="application/x-www-form-urlencoded")
    if ask.body == "json":
        doc: dict = {}
        for k, v in fields:
            doc.setdefault(_text(k), []).append(_text(v))
        doc = {k: vs[0] if len(vs) == 1 else vs for k, vs in doc.items()}
        return client.post(ask.path, data=json.dumps(doc), content_type="application/json")
    if ask.body == "json-other":
        return client.post(ask.path, data=JSON_SHAPES[ask.shape], content_type="application/json")
    if ask.body == "text":
        return client.post(ask.path, data=_form_body(fields), content_type="text/plain")
    if ask.body == "broken":  # a body the server's reader fails on (gunicorn: a chunk of no size)
        return client.post(ask.path, input_stream=BrokenBody(_form_body(fields).encode()),
                           content_type="application/x-www-form-urlencoded",
                           headers={"Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    return client.post(ask.path, data=_form_body(fields).encode(), content_type=None)  # "none"


def check(world: World, ask: Ask, response) -> None:
    """Never a server error, no Python words, and nothing changed unless a POST succeeded."""
    status = response.status_code
    assert status < 500, (status, ask)
    if response.mimetype in ("text/html", "application/json", "text/csv", "text/plain"):
        body = response.get_data().decode("utf-8", "replace")
        for word in PYTHON_WORDS:
            assert word not in body, (word, status, ask, body[-1500:])
    if not world.committed():  # nothing was committed: nothing changed
        return
    if dump(world.work) != world.before:
        assert ask.method == "POST" and status == 303, (status, ask, response.get_data()[-1500:])
        world.restore()


def ask_and_check(world: World, ask: Ask):
    response = send(world, ask)
    check(world, ask, response)
    return response


# ---------------------------------------------------------------------------------------
# A plain request of each route, for the sweeps (test_web_fuzz_inputs.py) to change.

PLAIN = {"cards": "H4", "player": "A", "meld": "", "since": "0", "saved": "1", "knock_limit": "10",
         "game": "/g/1-x/counted", "variant": "gin", "until": "", "turn": "A", "x": "1", "v": "1"}


def plain_ask(world: World, rule: tuple[str, str]) -> Ask:
    """The route's first good request, or its fields at a plain value, on the edit link."""
    path, method = rule
    route = ROUTES[rule]
    goods = route.good(world) if route.good else []
    if goods:
        name, params, data = goods[0]
    else:
        name, params = (route.games[0] if route.games else None), {}
        data = {k: PLAIN.get(k, "1") for k in route.fields if k != "game_file"}
    game = world.games[name] if name else None
    defaults = {"game_key": game.edit if game else None, "group_key": world.groups["mine"][0], "round_no": 1,
                "player_id": world.players["A"], "play_id": (game.plays or [1])[-1] if game else 1,
                "variant": "iceberg", "variant_key": "gin", "filename": "app.js", "night_id": world.night,
                "table": world.night_tables[0]}
    url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(params.get(m.group(1), defaults[m.group(1)])), path)
    pairs = [(k, v) for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs])]
    if route.file:
        pairs.append(("game_file", (EXAMPLES / "gin-knock.json").read_bytes()))
        return Ask(method, url, pairs, "file", rule)
    return Ask(method, url, pairs, "form" if method == "POST" else "query", rule)
