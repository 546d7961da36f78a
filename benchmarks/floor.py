"""The floor: what the load benchmark's phones cost a server that does no game work.

A play costs the app's server two things: what any Flask app on this server pays for a
request (gunicorn, Flask's routing, its session, Flask-WTF's CSRF check, a SQLite
write, a Jinja page), and the app's own game work on top (reading and replaying the
log, the rules' checks, the table page drawn from the game). This app pays only the
first: the load benchmark (``benchmarks/load.py``) serves it with the same gunicorn
and the same settings (``scorekeeper/serving.py``) in the same run, drives it with the
same phones, and divides the app's CPU per play by this one's (issue 13, item 4).

It answers every request the phones send, as the app answers it, and accepts all of
them (a phone sees no error from it):

- ``GET /games/new`` and ``POST /games`` (one INSERT of a game; 303 to its table);
- the writes: ``POST /g/<key>/aces``, ``/plays``, ``/pass``, ``/out``, ``/hands`` and
  ``/end`` (the round's count). Each is checked by CSRFProtect, as in the app, and
  stored as one INSERT of a row like the app's ``plays`` rows (game, round, sequence,
  type, player, cards, the meld laid off on) in one ``BEGIN IMMEDIATE`` transaction
  of a WAL database with the app's busy timeout; the round's count also moves the
  game's round on (a second statement, once a round). The answers are the app's: 303
  to ``…/table?saved=<play id>`` after a table play, ace or pass, to ``…/end`` after
  going out or a hand, to the table (or, after ``ROUNDS_PER_GAME`` rounds, the game's
  page) after a count; no body, as the app's redirects. A table play sent as the page's
  script sends it (``Accept: application/json``) is answered 200 with a small JSON, as
  ``/live`` below (the version, the screen and its URL, the round, the turn and the
  play in the log), with the round's melds by their ``data-meld`` markers (read with
  one more query), where the app sends the regions that changed (4–7 KB: its log's
  and melds' earlier pieces named, not sent again);
- the pages: the table page (the round's melds with the ``data-meld`` markers the
  phones lay off by, the round's log read from the database, the card picker, the CSRF
  token, the version) about the size of the app's at the same point of a round (the
  app's were 20–52 KB over a round, 30 KB on average, in a run of 2026-11-25: a
  third of the page grows with the log); the round's end, the game's page and
  ``/games/new``, each about the size of the app's;
- ``GET /g/<key>/live?since=<version>``: 204 when the game's version (here the id of
  its last row) is unchanged, else a small JSON of regions (the version, the screen,
  the round, the turn and the last row of the log; the app sends each region that
  changed, its log's and melds' earlier pieces named: 4–7 KB);
- ``GET /g/<key>/events``: the app's live protocol (scorekeeper/web/live.py), as
  cheaply: Server-Sent Events from the version the phone has (``Last-Event-ID``, else
  ``?since=``), the same small JSON as ``/live`` drawn once per version and game for
  every stream, ``retry:``, a heartbeat comment every 25 s, ``event: bye`` after 5
  minutes. A thread per process (a greenlet under gevent), started by the first
  stream, asks SQLite every 0.15 s whether anything was committed (``PRAGMA
  data_version``) and wakes the streams of the games whose last row moved; a write of
  the process wakes it at once: the same machinery as the app's, without the app.

What it leaves out, on purpose: no replay, no rules, no idempotency record of the
request id, no cached summary of the game, no version column to update, none of the
app's own speed-ups (its write queue, its memos). Only Flask, Flask-WTF, Jinja and
the standard library: it imports nothing from the app, so any checkout's settings can
serve it (``load.py --src``), and gunicorn loads it as the top-level module ``floor``.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time

from flask import Flask, Response, abort, g, jsonify, redirect, render_template, request, stream_with_context
from flask_wtf.csrf import CSRFProtect, generate_csrf
from jinja2 import DictLoader

BUSY_TIMEOUT_MS = 5000  # as scorekeeper/db.py
ROUNDS_PER_GAME = 7  # the app's games in the load benchmark last about seven rounds
PLAYERS_MAX = 6

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, token TEXT NOT NULL, players TEXT NOT NULL,
    first_dealer INTEGER NOT NULL, round_no INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS plays (
    id INTEGER PRIMARY KEY, game INTEGER NOT NULL REFERENCES games (id),
    round_no INTEGER NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
    player TEXT NOT NULL, cards TEXT NOT NULL, target INTEGER, created TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS plays_order ON plays (game, round_no, seq);
CREATE INDEX IF NOT EXISTS plays_game ON plays (game);
"""

# One row: the next in the game's round, read from the game in the same statement.
INSERT_PLAY = """
INSERT INTO plays (game, round_no, seq, type, player, cards, target, created)
SELECT g.id, g.round_no,
       coalesce((SELECT max(seq) FROM plays WHERE game = g.id AND round_no = g.round_no), 0) + 1,
       ?, ?, ?, ?, ?
FROM games g WHERE g.id = ? AND g.token = ?
"""
GAME = """
SELECT g.players, g.round_no, g.first_dealer,
       (SELECT id FROM plays WHERE game = g.id ORDER BY id DESC LIMIT 1)
FROM games g WHERE g.id = ? AND g.token = ?
"""
ROUND = "SELECT id, type, player, cards, target FROM plays WHERE game = ? AND round_no = ? ORDER BY seq"
MELDS = """SELECT p.id FROM plays p JOIN games g ON g.id = p.game AND p.round_no = g.round_no
WHERE p.game = ? AND p.type = 'meld' ORDER BY p.seq"""
LAST = "SELECT id, type, player, cards, round_no FROM plays WHERE game = ? ORDER BY id DESC LIMIT 1"
STREAM = {"heartbeat": 25.0, "lasts": 300.0, "retry": 3000, "watch": 0.15}  # as the app's (web/live.py)

SUITS = {"S": ("♠", "b", "spades"), "H": ("♥", "r", "hearts"),
         "D": ("♦", "r", "diamonds"), "C": ("♣", "b", "clubs")}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# The card picker: two decks, a box per card and one more for a second copy, as the app's.
PICKER = [(suit, [(rank, f"{suit}{rank}") for rank in RANKS[1:]]) for suit in SUITS]
ACES = [f"{suit}A" for suit in SUITS]


def card(name: str) -> dict:
    suit, rank = name[0], name[1:]
    symbol, colour, words = SUITS.get(suit, ("?", "b", suit))
    return {"text": f"{rank}{symbol}", "colour": colour, "words": f"{rank} of {words}"}


BASE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="csrf-token" content="{{ token }}">
<meta name="theme-color" content="#0b4f6c" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#0d1b24" media="(prefers-color-scheme: dark)">
<title>{{ title }} · Scorekeeper</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/app.js" defer></script>
</head>
<body{% block body %}{% endblock %}>
<header class="top">
<nav aria-label="Main"><a href="/games">Games</a> <a href="/games/new">New game</a> \
<a href="/players">Players</a> <a href="/rules/iceberg">Rules</a></nav>
</header>
<main id="main">
{% if notice %}<div class="flash" role="status" data-flash><p>{{ notice }}</p></div>{% endif %}
{% block main %}{% endblock %}
</main>
</body>
</html>
"""

MACROS = """
{% macro keys() %}<input type="hidden" name="csrf_token" value="{{ token }}">\
<input type="hidden" name="request_id" value="{{ request_id() }}">{% endmacro %}
{% macro cards(names) %}{% for c in names %}{% set k = card(c) %}<span class="k {{ k.colour }}">{{ k.text }}</span>\
{% if not loop.last %} {% endif %}{% endfor %}{% endmacro %}
{% macro scores(players, round_no) %}
<table class="scores" data-scores data-region="scores">
<caption class="vh">Scores: this round so far and the game total</caption><thead><tr><td></td>{% for p in players %}\
<th scope="col" data-player="{{ p }}">{{ p }}</th>{% endfor %}</tr></thead>
<tbody>
<tr><th scope="row">Round {{ round_no }}</th>\
{% for p in players %}<td data-round-score="{{ p }}">0</td>{% endfor %}</tr>
<tr><th scope="row">Total</th>{% for p in players %}<td data-total="{{ p }}">0</td>{% endfor %}</tr>
</tbody>
</table>
{% endmacro %}
{% macro picker() %}
<fieldset class="picker" data-picker>
<legend>Cards</legend>
{% for suit, ranks in PICKER %}
<div class="suit {{ card(suit ~ '2').colour }}" role="group" aria-label="{{ suit }}">
{% for rank, name in ranks %}{% set k = card(name) %}
<label><input type="checkbox" name="cards" value="{{ name }}" data-card="{{ name }}">\
<b aria-hidden="true">{{ k.text }}</b><i>{{ k.words }}</i></label>
<label class="two"><input type="checkbox" name="cards" value="{{ name }}" data-card="{{ name }}" data-copy>\
<b aria-hidden="true">{{ k.text }}</b><i>{{ k.words }}</i></label>
{% endfor %}
</div>
{% endfor %}
</fieldset>
{% endmacro %}
{% macro row(r, key) %}<li data-play="{{ r.id }}" data-type="{{ r.type }}" data-player="{{ r.player }}">
<span class="pl">{{ r.player }}</span>
{{ r.type }} {{ cards(r.cards) }}{% if r.number %} <small>(meld {{ r.number }})</small>{% endif %}
 <a class="edit" href="/g/{{ key }}/plays/{{ r.id }}/edit" \
aria-label="Edit or delete {{ r.player }}&#39;s {{ r.type }} ({{ r.cards|join(' ') }})">Edit</a></li>
{% endmacro %}
"""

TABLE = """{% extends "base.html" %}{% from "macros.html" import keys, cards, scores, picker, row %}
{% block body %} class="table-screen" data-live="/g/{{ key }}/live" data-version="{{ version }}" data-screen="play" \
data-round="{{ round_no }}"{% endblock %}
{% block main %}
{{ scores(players, round_no) }}
<section class="turn" data-region="turn" data-turn="{{ turn }}" data-round="{{ round_no }}" aria-labelledby="turn-h">
<h1 id="turn-h"><span class="sub">Round {{ round_no }}</span> {{ turn }}’s turn</h1>
<form method="post" action="/g/{{ key }}/pass">
{{ keys() }}<input type="hidden" name="turn" value="{{ turn }}">
<button class="big" data-action="pass">Pass the turn <span aria-hidden="true">→</span></button>
</form>
</section>
<form id="play" method="post" action="/g/{{ key }}/plays" data-preview-url="/g/{{ key }}/preview">
{{ keys() }}
<fieldset class="who"><legend>Who plays</legend>
{% for p in players %}<label><input type="radio" name="player" value="{{ p }}" data-player="{{ p }}"\
{% if p == turn %} checked{% endif %}><span>{{ p }}</span></label>{% endfor %}</fieldset>
<div data-region="aces">
<fieldset class="aces"><legend>Aces face up (one tap each)</legend>
{% for a in ACES %}{% set k = card(a) %}<button class="k {{ k.colour }}" formaction="/g/{{ key }}/aces" name="card" \
value="{{ a }}" data-ace="{{ a }}" aria-label="Ace of {{ k.words[5:] }}">{{ k.text }}</button>{% endfor %}</fieldset>
</div>
<fieldset class="melds" data-melds data-region="melds"><legend>Meld, or lay off on a meld on the table</legend>
<label><input type="radio" name="meld" value="" data-meld="" checked><span>New meld</span></label>
{% for m in melds %}<label><input type="radio" name="meld" value="{{ m.id }}" data-meld="{{ m.id }}" \
data-meld-number="{{ m.number }}"><span><span class="mn">Meld {{ m.number }}</span> {{ cards(m.cards) }} \
<small>{{ m.player }}</small></span></label>{% endfor %}
</fieldset>
{{ picker() }}
<p class="actions"><button name="check" value="1">Check</button> \
<button name="confirm" value="1" data-confirm>Confirm</button></p>
</form>
<form method="post" action="/g/{{ key }}/out">
{{ keys() }}<input type="hidden" name="player" value="{{ turn }}">
<p><button class="quiet" data-action="out">Went out</button></p>
</form>
<section aria-labelledby="log-h" class="log" data-region="log">
<h2 id="log-h">Round {{ round_no }} so far</h2>
{% if rows %}<ol data-log>{% for r in rows %}{{ row(r, key) }}{% endfor %}</ol>{% else %}<p>No plays yet.</p>{% endif %}
</section>
<p class="links"><a href="/g/{{ key }}">Game page</a> · <a href="/g/{{ key }}/rules">Rules</a></p>
{% endblock %}
"""

END = """{% extends "base.html" %}{% from "macros.html" import keys, cards, scores, picker %}
{% block body %} data-live="/g/{{ key }}/live" data-version="{{ version }}" data-screen="end" \
data-round="{{ round_no }}"{% endblock %}
{% block main %}
<h1>Round {{ round_no }}: the cards left in each hand</h1>
{{ scores(players, round_no) }}
<ul class="hands">{% for r in hands %}<li data-hand="{{ r.player }}"><strong>{{ r.player }}</strong> \
{{ cards(r.cards) }}</li>{% endfor %}</ul>
<form method="post" action="/g/{{ key }}/hands" id="hand">
{{ keys() }}
<fieldset class="who"><legend>Whose hand</legend>
{% for p in players %}<label><input type="radio" name="player" value="{{ p }}"><span>{{ p }}</span></label>{% endfor %}\
</fieldset>
<input type="hidden" name="round_no" value="{{ round_no }}">
{{ picker() }}
<p><button>Save this hand</button></p>
</form>
<form method="post" action="/g/{{ key }}/end">
{{ keys() }}<input type="hidden" name="round_no" value="{{ round_no }}">
<p><button class="big">Count the round</button></p>
</form>
{% endblock %}
"""

GAME_PAGE = """{% extends "base.html" %}{% from "macros.html" import scores %}
{% block main %}
<h1>Game over after {{ rounds }} rounds</h1>
{{ scores(players, rounds) }}
<ol class="rounds">{% for n in range(1, rounds + 1) %}<li><a href="/g/{{ key }}/rounds/{{ n }}">Round {{ n }}</a>\
{% for p in players %} <span data-player="{{ p }}">{{ p }} 0</span>{% endfor %}</li>{% endfor %}</ol>
{% for n in range(120) %}<p class="line">Round {{ n }}: {% for p in players %}<span>{{ p }}</span> {% endfor %}</p>
{% endfor %}
<p class="links"><a href="/games/new">New game</a></p>
{% endblock %}
"""

NEW = """{% extends "base.html" %}{% from "macros.html" import keys %}
{% block main %}
<h1>New game</h1>
<form method="post" action="/games">
{{ keys() }}
{% for seat in range(PLAYERS_MAX) %}
<p><label for="seat_{{ seat }}">Seat {{ seat + 1 }}</label> \
<input id="seat_{{ seat }}" name="seat_{{ seat }}" list="known" autocomplete="off"></p>
{% endfor %}
<datalist id="known">{% for n in range(60) %}<option value="Player {{ n }}">{% endfor %}</datalist>
<fieldset><legend>First dealer</legend>\
{% for seat in range(PLAYERS_MAX) %}<label><input type="radio" name="first_dealer" value="{{ seat }}"\
{% if not seat %} checked{% endif %}> Seat {{ seat + 1 }}</label>{% endfor %}</fieldset>
{% for n in range(70) %}\
<p class="rule"><label><input type="checkbox" name="option_{{ n }}"> Rule option {{ n }}: as the rules say</label></p>
{% endfor %}
<p><button class="big">Start</button></p>
</form>
{% endblock %}
"""

TURN = ("""<section class="turn" data-region="turn" data-turn="{{ turn }}" data-round="{{ round_no }}">"""
        """<h1>{{ turn }}’s turn</h1></section>""")
MELD_MARKERS = ("""{% for id in melds %}<input type="radio" name="meld" value="{{ id }}" data-meld="{{ id }}" """
                """data-meld-number="{{ loop.index }}">{% endfor %}""")
LOG_ROW = """{% from "macros.html" import row %}{{ row(r, key) }}"""

HEADERS = {  # the app's (scorekeeper/security.py), on every answer
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class Database:
    """One SQLite connection per request, closed when it ends (as the app's: Flask's
    tutorial shape, scorekeeper/web/database.py)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def create(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.executescript(SCHEMA)
        finally:
            conn.close()  # before gunicorn forks: no connection crosses a fork

    def conn(self) -> sqlite3.Connection:
        if "floor_db" not in g:
            conn = sqlite3.connect(self.path, isolation_level=None)
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL's safe setting, as the app's
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            g.floor_db = conn
        return g.floor_db

    @staticmethod
    def close(_error=None) -> None:
        conn = g.pop("floor_db", None)
        if conn is not None:
            conn.close()

    def write(self, *statements: tuple[str, tuple]) -> sqlite3.Cursor:
        """The statements in one ``BEGIN IMMEDIATE`` transaction; the first one's cursor."""
        conn = self.conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            first = conn.execute(*statements[0])
            for statement in statements[1:]:
                conn.execute(*statement)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return first


class Changes:
    """The streams of this process by game, and the watcher that wakes them (the app's
    web/live.py Hub, cut to what the floor needs): made by the first stream, after
    gunicorn forks and gevent patches ``threading``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.poke = threading.Event()
        self.waiters: dict[int, set[threading.Event]] = {}
        self.versions: dict[int, int] = {}
        self.fresh = False
        self.running = False
        self.drawn: dict[int, tuple[int, bytes]] = {}  # game → (version, its event)

    def watch(self, game_id: int) -> threading.Event:
        waiter = threading.Event()
        with self.lock:
            self.waiters.setdefault(game_id, set()).add(waiter)
            self.fresh, start, self.running = True, not self.running, True
        if start:
            threading.Thread(target=self._run, daemon=True).start()
        self.poke.set()
        return waiter

    def unwatch(self, game_id: int, waiter: threading.Event) -> None:
        with self.lock:
            streams = self.waiters.get(game_id, set())
            streams.discard(waiter)
            if not streams:
                self.waiters.pop(game_id, None)
                self.versions.pop(game_id, None)

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            seen = None
            while True:
                with self.lock:
                    if not self.waiters:
                        self.running = False
                        return
                    games, fresh, self.fresh = list(self.waiters), self.fresh, False
                now = conn.execute("PRAGMA data_version").fetchone()[0]
                if now != seen or fresh:
                    seen = now
                    rows = conn.execute(f"SELECT game, max(id) FROM plays WHERE game IN "
                                        f"({','.join('?' * len(games))}) GROUP BY game", games).fetchall()
                    with self.lock:
                        for game_id, version in rows:
                            if self.versions.get(game_id) != version and game_id in self.waiters:
                                self.versions[game_id] = version
                                for waiter in self.waiters[game_id]:
                                    waiter.set()
                self.poke.wait(STREAM["watch"])
                self.poke.clear()
        finally:
            conn.close()


def _game_id(key: str) -> tuple[int, str]:
    game, _, token = key.partition("-")
    if not game.isdigit() or not token:
        abort(404)
    return int(game), token


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def _redirect(location: str) -> Response:
    """A 303, as the app answers a play (Flask's own redirect)."""
    return redirect(location, 303)


def _wants_json() -> bool:
    """The page's script sent the play in the background (the app: views/table.py)."""
    return request.accept_mimetypes.best_match(("text/html", "application/json")) == "application/json"


def create_app(database: str | None = None) -> Flask:
    """The floor app on ``database`` (default: $SCOREKEEPER_DATABASE), its tables made."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=os.environ.get("SCOREKEEPER_SECRET_KEY") or secrets.token_hex(32),
        WTF_CSRF_TIME_LIMIT=None,  # as the app: a table page's form must not expire
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_REFRESH_EACH_REQUEST=False,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_loader = DictLoader({
        "base.html": BASE, "macros.html": MACROS, "table.html": TABLE, "end.html": END,
        "game.html": GAME_PAGE, "new.html": NEW, "turn.html": TURN, "row.html": LOG_ROW,
        "melds.html": MELD_MARKERS,
    })
    app.jinja_env.globals.update(card=card, PICKER=PICKER, ACES=ACES, PLAYERS_MAX=PLAYERS_MAX,
                                 request_id=lambda: secrets.token_urlsafe(12))
    CSRFProtect(app)
    db = Database(database or os.environ["SCOREKEEPER_DATABASE"])
    app.teardown_appcontext(db.close)
    db.create()
    hubs: list[Changes] = []  # this process's, made by its first stream

    def changes() -> Changes:
        if not hubs:
            hubs.append(Changes(db.path))
        return hubs[0]

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response

    def game(key: str) -> tuple[int, str, list[str], int, int, int]:
        game_id, token = _game_id(key)
        found = db.conn().execute(GAME, (game_id, token)).fetchone()
        if found is None:
            abort(404)
        players, round_no, first_dealer, version = found
        return game_id, token, json.loads(players), round_no, first_dealer, version or 0

    def page(template: str, **context) -> str:
        return render_template(template, token=generate_csrf(), **context)

    @app.get("/")
    def home():
        return page("new.html", title="Games")

    @app.get("/games/new")
    def new():
        return page("new.html", title="New game")

    @app.post("/games")
    def create():
        form = request.form
        players = [form[f"seat_{i}"] for i in range(PLAYERS_MAX) if form.get(f"seat_{i}")]
        token = secrets.token_urlsafe(18)
        cursor = db.write(("INSERT INTO games (token, players, first_dealer, created) VALUES (?, ?, ?, ?)",
                           (token, json.dumps(players), form.get("first_dealer", 0, type=int), _now())))
        return _redirect(f"/g/{cursor.lastrowid}-{token}/table")

    @app.get("/g/<key>/table")
    def table(key: str):
        game_id, _token, players, round_no, first_dealer, version = game(key)
        rows, melds = [], []
        for play_id, kind, player, cards, _target in db.conn().execute(ROUND, (game_id, round_no)):
            row = {"id": play_id, "type": kind, "player": player, "cards": json.loads(cards),
                   "number": None}
            if kind == "meld":
                row["number"] = len(melds) + 1
                melds.append(row)
            rows.append(row)
        turn = rows[-1]["player"] if rows else players[(first_dealer + round_no) % len(players)]
        saved = request.args.get("saved", type=int)
        return page("table.html", title=f"Round {round_no}", key=key, players=players,
                    round_no=round_no, version=version, turn=turn, melds=melds, rows=rows,
                    notice="Saved." if saved is not None and saved == version else None)

    @app.get("/g/<key>/end")
    def round_end(key: str):
        game_id, _token, players, round_no, _dealer, version = game(key)
        hands = [{"player": player, "cards": json.loads(cards)}
                 for _id, kind, player, cards, _target in db.conn().execute(ROUND, (game_id, round_no))
                 if kind == "hand"]
        return page("end.html", title=f"Round {round_no}: the hands", key=key, players=players,
                    round_no=round_no, version=version, hands=hands)

    @app.get("/g/<key>")
    def summary(key: str):
        _game_id, _token, players, round_no, _dealer, _version = game(key)
        return page("game.html", title="Game over", key=key, players=players,
                    rounds=round_no - 1)

    def live_parts(key: str, last) -> dict:
        """``/live``'s JSON for the game's last row (None: no play yet)."""
        _id, kind, player, cards, round_no = last or (0, "", "", "[]", 1)
        row = {"id": _id, "type": kind, "player": player, "cards": json.loads(cards), "number": None}
        return dict(version=_id, screen="play", url=f"/g/{key}/table", round=round_no,
                    regions={"turn": render_template("turn.html", turn=player, round_no=round_no),
                             "log": render_template("row.html", r=row, key=key)})

    @app.get("/g/<key>/live")
    def live(key: str):
        game_id, token = _game_id(key)
        last = db.conn().execute(LAST, (game_id,)).fetchone()
        version = last[0] if last else 0
        if request.args.get("since", type=int) == version:
            return "", 204
        if last is None and db.conn().execute(GAME, (game_id, token)).fetchone() is None:
            abort(404)
        return jsonify(live_parts(key, last))

    def event(game_id: int, key: str) -> tuple[int, bytes]:
        """The game's change as the streams send it, drawn once per version (for every
        phone: the floor's links are all edit links)."""
        last = db.conn().execute(LAST, (game_id,)).fetchone()
        version = last[0] if last else 0
        hub = changes()
        found = hub.drawn.get(game_id)
        if found is None or found[0] != version:
            data = json.dumps(live_parts(key, last), separators=(",", ":"))
            found = hub.drawn[game_id] = (version, f"id: {version}\nevent: change\ndata: {data}\n\n".encode())
        return found

    @app.get("/g/<key>/events")
    def events(key: str):
        game_id, token = _game_id(key)
        if db.conn().execute(GAME, (game_id, token)).fetchone() is None:
            abort(404)
        said = request.headers.get("Last-Event-ID") or request.args.get("since", "")
        since = int(said) if said.isdigit() else None
        version, first = event(game_id, key)
        Database.close()
        hub = changes()

        def stream():
            waiter = hub.watch(game_id)
            try:
                yield f"retry: {STREAM['retry']}\n\n".encode()
                sent = version
                if since != version:
                    yield first
                now = time.monotonic()
                ends, beat = now + STREAM["lasts"], now + STREAM["heartbeat"]
                while True:
                    waiter.clear()
                    if hub.versions.get(game_id, sent) > sent:
                        sent, data = event(game_id, key)
                        Database.close()
                        yield data
                        beat = time.monotonic() + STREAM["heartbeat"]
                        continue
                    now = time.monotonic()
                    if now >= ends:
                        yield b"event: bye\ndata: 1\n\n"
                        return
                    if now >= beat:
                        yield b":\n\n"
                        beat = now + STREAM["heartbeat"]
                        continue
                    waiter.wait(min(ends, beat) - now)
            finally:
                hub.unwatch(game_id, waiter)

        return Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers={"X-Accel-Buffering": "no"})

    def log_play(key: str, kind: str, player: str, cards: list[str], target: int | None,
                 *more: tuple[str, tuple]) -> int:
        """One row of the game's current round (``more``: statements in the same transaction)."""
        game_id, token = _game_id(key)
        cursor = db.write((INSERT_PLAY, (kind, player, json.dumps(cards), target, _now(),
                                         game_id, token)), *more)
        if cursor.rowcount != 1:
            abort(404)
        if hubs and hubs[0].running:
            hubs[0].poke.set()  # the watcher looks at once (as the app's after a write)
        return cursor.lastrowid

    def played(key: str, saved: int, kind: str, player: str, cards: list[str],
               screen: str = "play") -> Response:
        """A table play's answer: a 303 to the page to show, or (the page's script asked
        for JSON) the small JSON of ``/live`` with this play, and the round's melds after
        a meld."""
        where = f"/g/{key}/end" if screen == "end" else f"/g/{key}/table"
        if not _wants_json():
            return _redirect(where if screen == "end" else f"{where}?saved={saved}")
        row = {"id": saved, "type": kind, "player": player, "cards": cards, "number": None}
        regions = {"turn": render_template("turn.html", turn=player, round_no=0),
                   "log": render_template("row.html", r=row, key=key)}
        if kind == "meld":
            melds = [i for (i,) in db.conn().execute(MELDS, (_game_id(key)[0],))]
            regions["melds"] = render_template("melds.html", melds=melds)
        return jsonify(version=saved, screen=screen, url=where, round=0, regions=regions,
                       notices=[f"{player}: {kind}."], error=None)

    @app.post("/g/<key>/aces")
    def ace(key: str):
        player, cards = request.form.get("player", ""), [request.form.get("card", "")]
        return played(key, log_play(key, "ace", player, cards, None), "ace", player, cards)

    @app.post("/g/<key>/plays")
    def play(key: str):
        form = request.form
        target = form.get("meld", type=int)
        kind, player, cards = "layoff" if target else "meld", form.get("player", ""), form.getlist("cards")
        return played(key, log_play(key, kind, player, cards, target), kind, player, cards)

    @app.post("/g/<key>/pass")
    def pass_turn(key: str):
        player = request.form.get("turn", "")
        return played(key, log_play(key, "pass", player, [], None), "pass", player, [])

    @app.post("/g/<key>/out")
    def out(key: str):
        player = request.form.get("player", "")
        return played(key, log_play(key, "out", player, [], None), "out", player, [], screen="end")

    @app.post("/g/<key>/hands")
    def hand(key: str):
        log_play(key, "hand", request.form.get("player", ""), request.form.getlist("cards"), None)
        return _redirect(f"/g/{key}/end")

    @app.post("/g/<key>/end")
    def count(key: str):
        game_id, token = _game_id(key)
        log_play(key, "count", "", [], None,
                 ("UPDATE games SET round_no = round_no + 1 WHERE id = ? AND token = ?",
                  (game_id, token)))
        round_no = request.form.get("round_no", 0, type=int) + 1
        return _redirect(f"/g/{key}" if round_no > ROUNDS_PER_GAME else f"/g/{key}/table")

    return app
