"""Live tables: how a game's changes reach every phone that has it open.

This module owns three things, for every family of pages alike:

- **The live payload, drawn once.** What a phone is told of a change (the version, the
  screen and its URL, the round, the HTML of the regions that plays change, the cards
  left) is drawn by its family's ``live_parts(state)``; each family declares it once
  (:func:`register`). Here it is drawn once per game, version, language and link (the
  edit link and the read-only link draw different regions; the link is the key in the
  URL) and kept for every phone of that kind: the streams, the ``/live`` polls and the
  answer to the play itself all read the same payload (:func:`shared`). A play at a
  table of five phones is drawn once per server process, not five times (its answer,
  four streams or polls): ``benchmarks/live_render.py`` measured a write with the other
  phones told of it at 22 ms of the app's CPU against 69 ms with each request drawing
  its own, 67% less in each of 3 pairs (benchmarks/README.md, "Issue 22"); the project
  keeps a memo only for 10% or more. The process that draws a payload keeps it in the
  database too (storage/drawn.py), and the server's other process reads it there
  instead of drawing it again for its own phones (waiting a little for it: its streams
  wake before the play's answer is drawn). Forms drawn for every phone alike cannot
  carry one phone's CSRF token or request id: while a payload is drawn,
  ``templates/_keys.html`` leaves both empty and the page's script fills in the phone's
  own as a form is sent. Only the latest version of each kind is kept, and at most
  :data:`KINDS_KEPT` kinds.
- **The stream** (``GET /g/<key>/events``, Server-Sent Events, the browser's
  EventSource): from the version the phone has (``Last-Event-ID``, else ``?since=``) it
  sends the payload at once if the game has moved on, then each new version as it comes
  (``id: <version>``, ``event: change``, ``data: <the payload's JSON>``), a comment line
  as a heartbeat, and ends by itself after a few minutes with ``event: bye`` (the page
  opens a new stream at once), so nothing is held for ever. A stream holds no database
  connection while it waits.
- **The watcher**: one thread per process (a greenlet under gunicorn's gevent workers,
  whose monkey-patching turns the stock ``threading`` primitives used here into
  greenlet ones), started by the first stream and stopped when the last one ends, never
  at import or when the app is made (gunicorn makes the app before forking, and before
  gevent patches ``threading``). While any stream is open it asks SQLite every
  :data:`WATCH_SECONDS` whether anything was committed (``PRAGMA data_version``, on its
  own connection: it moves when any other connection commits, in this process or in
  another worker), and if so reads the versions of the games watched and wakes the
  streams of those that moved. A write of this process wakes it at once.

Where a stream would hold a scarce thread (waitress's few threads, gunicorn's sync or
gthread workers), the stream route answers 204 at once and the page polls ``/live``
every second instead: ``LIVE_STREAMS`` is ``"auto"`` (streams under gevent's greenlets
and Werkzeug's thread-per-request server, ``make run``), or True or False.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import sqlite3
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request, stream_with_context
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from ..storage import drawn, kernel
from .database import close_db, get_db

bp = Blueprint("live", __name__)
log = logging.getLogger(__name__)

WATCH_SECONDS = 0.15  # how often the watcher asks SQLite whether anything was committed
KINDS_KEPT = 512  # payloads kept: one per game, link and language (100 tables ≈ 100-300)
# A stream's looks for the payload of a change the other process took, before it draws its
# own (seconds between them, 0.15 s in all): the other process draws it as it answers the play.
AWAIT_OTHER = (0.01, 0.02, 0.04, 0.08)
BASES_KEPT = 4  # a payload leaves out the pieces of the kind's last 4: a phone up to 4 behind needs no whole
DEFAULTS = {
    "LIVE_STREAMS": "auto",  # True, False, or "auto": only where a stream holds no thread of a few
    "LIVE_HEARTBEAT_SECONDS": 25.0,  # a comment line when nothing else was sent for this long
    "LIVE_STREAM_SECONDS": 300.0,  # a stream ends after this, and the page opens a new one
    "LIVE_RETRY_MS": 3000,  # how soon a browser opens a stream again after a dropped one
}

# Each family's live payload: screens → (the game read as its pages read it, live_parts).
BUILDERS: dict[str, tuple[Callable[[int], object], Callable[[object], dict]]] = {}


# Whether the server still serves: gunicorn's worker says so (scorekeeper/serving.py); a
# stopping worker ends its streams instead of waiting for them.
_serving: list[Callable[[], bool]] = []


def register(screens: str, state: Callable[[int], object], parts: Callable[[object], dict]) -> None:
    """A family of pages' (``screens``) live payload: ``parts(state(game_id))``, its
    ``live_parts`` of the game as its pages read it (views/families.py, ``register_families``)."""
    BUILDERS[screens] = (state, parts)


def while_serving(check: Callable[[], bool]) -> None:
    """``check()`` turns False when the server is stopping (gunicorn: the worker's
    ``alive``): the streams then end, as a stopping worker waits for every request."""
    _serving.append(check)


def init_app(app: Flask) -> None:
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    app.register_blueprint(bp)


# ---------------------------------------------------------------------------------------
# The payload, drawn once per kind of phone.


class Payload:
    """One version of one kind's payload: the parts, their JSON (``/live``) and the
    stream's event (bytes), each made once; drawn here (``parts``) or by the other process
    (``text``). ``pieces``: the keys of every piece of its regions (:func:`piece`), told in
    full or not; ``base``: the version whose pieces it leaves out (0: none, the payload
    whole); ``left_out``: the HTML of each piece it leaves out, by key (:meth:`filled`)."""

    __slots__ = ("_parts", "version", "_json", "_event", "_pieces", "_left_out", "_left_text", "_base")
    _parts: dict[str, Any] | None
    version: int
    _json: str | None
    _event: bytes | None
    _pieces: frozenset[str] | None
    _left_out: dict[str, str] | None
    _left_text: str | None
    _base: int | None

    def __init__(self, parts: dict[str, Any] | None = None, *, version: int | None = None,
                 text: str | None = None, pieces: frozenset[str] | None = None,
                 left_out: dict[str, str] | None = None) -> None:
        self._parts, self._event, self._pieces, self._left_out = parts, None, pieces, left_out
        self._json, self._left_text, self._base = text, None, None
        if parts is not None:
            self.version = parts["version"]
        else:  # drawn by the other process: its version and text (:attr:`kept`) are given
            assert version is not None and text is not None
            self.version = version
            lines = text.split("\n", 2)  # JSON has no line break of its own
            if len(lines) == 3:  # else a row of a release before (the payload's JSON alone)
                self._base, self._json, self._left_text = int(lines[0]), lines[1], lines[2] or None

    @property
    def parts(self) -> dict[str, Any]:
        if self._parts is None:
            assert self._json is not None  # no parts: made from the other process's text
            self._parts = json.loads(self._json)
        return self._parts

    @property
    def json(self) -> str:
        if self._json is None:  # UTF-8 as it is: a card's ♠ is 3 bytes, 6 as an escape
            self._json = json.dumps(self.parts, ensure_ascii=False, separators=(",", ":"))
        return self._json

    @property
    def event(self) -> bytes:
        if self._event is None:  # JSON has no line break of its own: one data line
            self._event = f"id: {self.version}\nevent: change\ndata: {self.json}\n\n".encode()
        return self._event

    @property
    def base(self) -> int:
        if self._base is None:
            self._base = self.parts.get("base", 0)
        return self._base

    @property
    def pieces(self) -> frozenset[str]:
        if self._pieces is None:  # drawn by the other process: its text names them
            self._pieces = frozenset(k for found in _NAMED.findall(self.json) for k in found.split())
        return self._pieces

    @property
    def left_out(self) -> dict[str, str]:
        if self._left_out is None:
            self._left_out = json.loads(self._left_text) if self._left_text else {}
        return self._left_out

    @property
    def kept(self) -> str:
        """The text the other process reads it from (storage/drawn.py), a line each: its
        base, its JSON, and the pieces it leaves out (none: the line is empty)."""
        left = json.dumps(self.left_out, ensure_ascii=False, separators=(",", ":")) if self.left_out else ""
        return f"{self.base}\n{self.json}\n{left}"

    def filled(self) -> Payload | None:
        """This payload whole, for a phone that lacks a piece: each mark replaced by the
        pieces it names, not drawn again (None if one is not at hand; benchmarks/README.md)."""
        left = self.left_out
        if not self.base:
            return self
        try:
            regions = {name: _MARK.sub(lambda m: "".join(left[k] for k in m.group(1).split()), html)
                       for name, html in self.parts["regions"].items()}
        except KeyError:
            return None
        whole = {key: value for key, value in self.parts.items() if key != "base"}
        whole["regions"] = regions
        return Payload(whole)


class _Kind:
    """The payload kept for one kind of phone on one game, the ones before it that the
    next leaves pieces out by (:data:`BASES_KEPT`), the whole of it where a phone asked
    for that version whole, and the lock that lets one request draw it while the others
    wait for it."""

    __slots__ = ("lock", "payload", "recent", "whole")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.payload: Payload | None = None
        self.recent: deque[Payload] = deque(maxlen=BASES_KEPT)
        self.whole: Payload | None = None


def _kind(hub: Hub, screens: str) -> _Kind:
    # The key in the URL says the game and the link (edit or read-only: URLs in the
    # regions carry it); the language, the words.
    key = (screens, g.game_id, g.game_key, str(get_locale() or ""))
    g.live_kind = _kind_name(*key)
    with hub.lock:
        kind = hub.kinds.get(key)
        if kind is None:
            kind = hub.kinds[key] = _Kind()
            while len(hub.kinds) > KINDS_KEPT:
                hub.kinds.popitem(last=False)
        else:
            hub.kinds.move_to_end(key)
    return kind


def shared(game_id: int, screens: str, state=None, version: int | None = None) -> Payload:
    """The game's live payload for this phone's kind (its link and language), drawn by
    the family ``screens`` unless another phone of its kind had it drawn at this version.
    ``state``: the game as the caller has read it already (a play's answer); ``version``:
    the version wanted, when known (else the game's version now is read). The pieces the
    kind's last few payloads all had are left out (:func:`_draw`, :func:`piece`).

    A phone told of a change (``state`` None: a stream or a poll) that this process did
    not answer waits a little for the payload the other process is drawing as it answers
    the play (:data:`AWAIT_OTHER`) before drawing its own: a stream wakes as soon as the
    play is committed, before its answer is drawn, and drew it a second time for a fifth
    of the plays of a busy server (benchmarks/README.md, "The other process waits")."""
    if version is None:
        version = kernel.version_of(get_db(), game_id)
    here = hub()
    kind = _kind(here, screens)
    if state is not None:  # a play's answer: this process took the play
        _taken(here, game_id, version)
        g.live_taken = True
    found = kind.payload
    if found is not None and found.version == version:
        return found
    db, name = get_db(), g.live_kind
    other = None
    if state is None and here.taken.get(game_id) != version:  # not taken here: maybe elsewhere
        other = _drawn_elsewhere(db, kind, game_id, name, version)
    with kind.lock:  # one request draws it; the others of its kind wait and take it
        found = kind.payload
        if found is not None and found.version >= version:
            return found
        if other is None:  # the latest kept, by either process: this version, or the first base here
            other = drawn.kept(db, game_id, name, 0)
            if other is not None and other[0] < version:
                if not kind.recent:
                    kind.recent.append(Payload(version=other[0], text=other[1]))
                other = None
        if other is not None:
            made = Payload(version=other[0], text=other[1])
        else:
            made = _draw(game_id, screens, state, kind.recent)
            drawn.keep(db, game_id, name, made.version, made.kept)
        if found is None or made.version >= found.version:
            if found is not None:  # only the latest is filled in: those before it let go of their pieces
                found._left_out = found._left_text = None
            kind.payload = made
            kind.recent.append(made)
        return made


def _drawn_elsewhere(db, kind: _Kind, game_id: int, name: str, version: int) -> tuple[int, str] | None:
    """The payload the other process keeps for the kind at ``version`` (or later), looked
    for a few times (:data:`AWAIT_OTHER`) while it may be drawing it; None if it was not
    kept by then, or this process drew it meanwhile. No lock is held while it waits: a
    play's answer drawn here goes on."""
    for pause in (*AWAIT_OTHER, None):
        found = kind.payload
        if found is not None and found.version >= version:
            return None
        other = drawn.kept(db, game_id, name, version)
        if other is not None or pause is None:
            return other
        time.sleep(pause)  # gevent's under gunicorn: the worker's other requests go on
    return None


def _taken(hub: Hub, game_id: int, version: int) -> None:
    """This process answered the play that made ``version``: no other draws it."""
    with hub.lock:
        hub.taken[game_id] = version
        hub.taken.move_to_end(game_id)
        while len(hub.taken) > KINDS_KEPT:
            hub.taken.popitem(last=False)


def whole(game_id: int, screens: str, version: int) -> Payload:
    """The game's live payload for this phone's kind with every piece told: for a phone
    that does not show the pieces a payload leaves out (it was asleep, or its page is
    older than the payload's base). Drawn here, kept for the other phones of the kind
    that ask for the same version whole."""
    kind = _kind(hub(), screens)
    with kind.lock:
        found = kind.whole
        if found is None or found.version < version:
            shared_one = kind.payload
            if shared_one is not None and shared_one.version >= version:
                found = shared_one.filled()
            if found is None or found.version < version:
                found = _draw(game_id, screens, None, ())
            kind.whole = found
        return found


def for_phone(game_id: int, screens: str, version: int, since: int | None) -> Payload:
    """The payload for a phone that has ``since`` (None: it does not say): the shared one,
    or the whole one if the phone is older than the pieces the shared one leaves out."""
    payload = shared(game_id, screens, version=version)
    if payload.base and (since is None or since < payload.base):
        return whole(game_id, screens, payload.version)
    return payload


def _draw(game_id: int, screens: str, state, before) -> Payload:
    """The family's payload drawn, leaving out the pieces every payload of ``before`` had
    (the kind's latest few, oldest first; none: whole). Its base is the oldest of them: a
    phone at any of those versions shows every piece left out, so a stream that missed a
    version or two between the watcher's looks (a busy table) needs no whole payload."""
    load, parts = BUILDERS[screens]
    known = frozenset.intersection(*(p.pieces for p in before)) if before else frozenset()
    g.live_shared = True  # the forms' keys left empty (templates/_keys.html)
    g.live_pieces, g.live_known, g.live_left_out = set(), known, {}
    try:
        made = parts(state if state is not None else load(game_id))
        pieces, left_out = frozenset(g.live_pieces), g.live_left_out
    finally:
        g.live_shared, g.live_pieces, g.live_left_out = False, None, None
    if left_out:
        made["regions"] = {name: _ADJACENT.sub(" ", html) for name, html in made["regions"].items()}
        made["base"] = before[0].version
    return Payload(made, pieces=pieces, left_out=left_out)


_STUB = Markup('<template data-k="{}"></template>')  # a piece left out, by its key
_ADJACENT = re.compile(r'"></template>\s*<template data-k="')  # pieces left out in a row: one mark
_NAMED = re.compile(r'data-k=\\?"([0-9a-f ]+)\\?"')
_MARK = re.compile(r'<template data-k="([0-9a-f ]+)"></template>')  # a mark, in a region's HTML


def piece(key: str, html: Markup) -> Markup:
    """A piece of a region (a log line, a meld on the table: ``helpers.drawn_once``, one
    element marked ``data-k="<key>"``) as the payload being drawn tells it: a mark
    naming it, ``<template data-k="<key>">``, if the kind's last few payloads all had it
    (a phone that shows one of those versions moves its own element into the mark's
    place: static/app.js; one that does not asks for the payload whole), else in full. A play
    then sends its own line and the regions around it, not the round's log again."""
    drawing = g.get("live_pieces")
    if drawing is None:  # a page, not a payload
        return html
    drawing.add(key)
    if key in g.live_known:
        g.live_left_out[key] = html
        return _STUB.format(key)
    return html


def _kind_name(screens: str, game_id: int, link: str, language: str) -> str:
    """A kind of phone as storage/drawn.py keeps it: its link (the key in the URL, whose
    secret is stored hashed) and its language."""
    return f"{screens} {language} {hashlib.blake2b(link.encode(), digest_size=16).hexdigest()}"


@bp.app_template_global("shared_render")
def shared_render() -> bool:
    """Whether the regions being drawn are for every phone of a kind (no phone's keys)."""
    return g.get("live_shared", False)


def since_asked() -> int | None:
    """The version the phone has: the stream's ``Last-Event-ID`` (a browser reconnecting),
    else ``?since=``; None if it says none (or nothing that is a version)."""
    for said in (request.headers.get("Last-Event-ID"), request.args.get("since")):
        if said and said.isascii() and said.isdigit() and len(said) <= 18:
            return int(said)
    return None


def poll(game_id: int, screens: str) -> Response | tuple[str, int]:
    """``/live?since=<version>``'s answer: 204 while the game is at that version, else the
    payload (shared, as the streams send it; whole for a phone older than its base, or
    that asks ``?whole=1``: its page lacks a piece the payload left out)."""
    version = kernel.version_of(get_db(), game_id)
    since = request.args.get("since", type=int)
    if request.args.get("whole"):
        return Response(whole(game_id, screens, version).json, mimetype="application/json")
    if since == version:
        return "", 204
    return Response(for_phone(game_id, screens, version, since).json, mimetype="application/json")


# ---------------------------------------------------------------------------------------
# The stream.


def streams_held() -> bool:
    """Whether this server holds a stream without taking one of a few threads from the
    other requests: ``LIVE_STREAMS``, or with "auto" only under gevent's greenlets (the
    served app: gunicorn's gevent workers) or Werkzeug's server (a thread per request:
    ``make run``). Elsewhere (waitress, gunicorn's sync or gthread workers) the phones poll."""
    setting = current_app.config["LIVE_STREAMS"]
    if setting != "auto":
        return bool(setting)
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        return True
    return request.environ.get("SERVER_SOFTWARE", "").startswith("Werkzeug/")


@bp.route("/g/<game_key>/events")
def events(game_id: int):
    """The game's changes as Server-Sent Events (module docstring); 204 where streams are
    not held here (the page polls instead)."""
    if not streams_held():
        return "", 204
    db = get_db()
    game = kernel.header(db, game_id)
    screens, version = game["variant"].screens, game["version"]
    since = since_asked()
    first = for_phone(game_id, screens, version, since) if since != version else None
    close_db()  # no connection held while the stream waits
    config = current_app.config
    stream = _stream(hub(), game_id, screens, version, first, config)
    return Response(stream_with_context(stream), mimetype="text/event-stream",
                    headers={"X-Accel-Buffering": "no"})  # a proxy in front: no buffering


def _stream(hub: Hub, game_id: int, screens: str, known: int, first: Payload | None, config):
    beat_every, lasts = config["LIVE_HEARTBEAT_SECONDS"], config["LIVE_STREAM_SECONDS"]
    waiter = hub.watch(game_id)
    try:
        yield f"retry: {int(config['LIVE_RETRY_MS'])}\n\n".encode()
        sent = known
        if first is not None:
            sent = known = max(known, first.version)
            yield first.event
        now = time.monotonic()
        ends, beat = now + lasts, now + beat_every
        while True:
            waiter.clear()
            moved = hub.versions.get(game_id)
            if moved is not None and moved > known:
                known = moved
            if known != sent:
                try:  # a phone further behind than the payload's base: the payload whole
                    payload = for_phone(game_id, screens, known, sent)
                except HTTPException:  # the game cannot be read any more: the stream ends
                    return
                finally:
                    close_db()
                sent = known = max(known, payload.version)
                yield payload.event
                beat = time.monotonic() + beat_every
                continue
            now = time.monotonic()
            if now >= ends or hub.closing:
                if not hub.closing:
                    yield b"event: bye\ndata: 1\n\n"  # the page opens a new stream at once
                return
            if now >= beat:
                yield b":\n\n"
                beat = now + beat_every
                continue
            waiter.wait(min(ends, beat) - now)
    finally:
        hub.unwatch(game_id, waiter)


@bp.after_app_request
def wake_the_watcher(response: Response) -> Response:
    """A write of this process: the watcher looks at once, not at its next turn, and the
    phones told of it here draw it at once (a play sent as a form has no answer drawn
    that another process would keep: :func:`shared`)."""
    if request.method == "POST" and g.get("game_id") is not None and response.status_code < 400:
        found = hub()
        if not g.get("live_taken"):  # a form's change: its answer (shared) did not say so
            _taken(found, g.game_id, kernel.version_of(get_db(), g.game_id))
        if found.running:
            found.poke.set()
    return response


# ---------------------------------------------------------------------------------------
# The watcher.


def hub() -> Hub:
    """This app's hub (its streams, its watcher, its payloads), made by the first request
    that needs one: after gunicorn forks and gevent patches ``threading``."""
    found = current_app.extensions.get("scorekeeper.live")
    if found is None:
        found = current_app.extensions.setdefault(
            "scorekeeper.live", Hub(current_app.config["DATABASE"]))
    return found


class Hub:
    """One process's streams by game, the versions the watcher last read, the payloads."""

    def __init__(self, database: str, interval: float = WATCH_SECONDS) -> None:
        self.database, self.interval = database, interval
        self.lock = threading.Lock()
        self.poke = threading.Event()
        self.waiters: dict[int, set[threading.Event]] = {}
        self.versions: dict[int, int] = {}  # by the watcher only
        self.fresh: set[int] = set()  # games watched since the watcher last read
        self.kinds: OrderedDict[tuple, _Kind] = OrderedDict()
        self.taken: OrderedDict[int, int] = OrderedDict()  # game → the last version a play's answer drew here
        self.running = False
        self.closing = False

    def watch(self, game_id: int) -> threading.Event:
        """A stream of ``game_id`` from now on: the event set when the game moves."""
        waiter = threading.Event()
        with self.lock:
            self.waiters.setdefault(game_id, set()).add(waiter)
            self.fresh.add(game_id)
            start = not self.running
            self.running = True
        if start:
            threading.Thread(target=self._run, name="scorekeeper-live", daemon=True).start()
        self.poke.set()
        return waiter

    def unwatch(self, game_id: int, waiter: threading.Event) -> None:
        with self.lock:
            streams = self.waiters.get(game_id)
            if streams is not None:
                streams.discard(waiter)
                if not streams:
                    del self.waiters[game_id]
                    self.versions.pop(game_id, None)

    def _run(self) -> None:
        conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            seen = None
            while True:
                with self.lock:
                    if not self.waiters:
                        self.running = False
                        return
                    fresh, self.fresh = self.fresh, set()
                    games = list(self.waiters)
                if _serving and not all(check() for check in _serving):
                    self._close()
                try:
                    now = conn.execute("PRAGMA data_version").fetchone()[0]
                    if now != seen or fresh:
                        seen = now
                        self._read(conn, games)
                except sqlite3.Error:  # a database busy or gone: said, and tried again
                    log.exception("the live watcher could not read %s", self.database)
                self.poke.wait(self.interval)
                self.poke.clear()
        finally:
            conn.close()

    def _read(self, conn: sqlite3.Connection, games: list[int]) -> None:
        for start in range(0, len(games), 500):
            chunk = games[start:start + 500]
            rows = conn.execute(f"SELECT id, version FROM games WHERE id IN ({','.join('?' * len(chunk))})",
                                chunk).fetchall()
            with self.lock:
                for game_id, version in rows:
                    if self.versions.get(game_id) != version and game_id in self.waiters:
                        self.versions[game_id] = version
                        for waiter in self.waiters[game_id]:
                            waiter.set()

    def _close(self) -> None:
        """The server is stopping: every stream ends (the pages open new ones elsewhere)."""
        with self.lock:
            self.closing = True
            for streams in self.waiters.values():
                for waiter in streams:
                    waiter.set()
