"""Changes pushed: a game's stream of changes (``/g/<key>/events``, Server-Sent Events).

A phone holds one stream per game page (static/app.js, with the browser's EventSource):
from the version it has (``Last-Event-ID``, else ``?since=``) it is sent the game as it
is now if it moved on, then each new version as ``id: <version>``, ``event: change`` and
the JSON ``/live`` answers with; a heartbeat comment, and after a while ``event: bye``,
and the stream ends (the page opens another). What is sent is drawn once per game,
version, link and language, whoever asks for it first: a stream, a poll of ``/live`` or
the play's own answer (scorekeeper/web/live.py).

Each stream is read in a thread of its own, as a browser holds it beside its other
requests; the app here ends its streams within 1.5 s and beats every 0.2 s, so no test
waits long, and none can hang.
"""
from __future__ import annotations

import json
import queue
import re
import threading
import time

import pytest
from flask import template_rendered
from test_web_counted import Counted
from test_web_robber import Robber
from web_table import Table

from scorekeeper import create_app
from scorekeeper.web import live

SHORT = {"LIVE_STREAMS": True, "LIVE_HEARTBEAT_SECONDS": 0.2, "LIVE_STREAM_SECONDS": 1.5, "LIVE_RETRY_MS": 500}
SOON = 1.0  # seconds: a change reaches the streams within this (the p99 bound)


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "scorekeeper.db"), "SECRET_KEY": "test",
                       "WTF_CSRF_ENABLED": False, **SHORT, **config})


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


BRIEF = {"LIVE_HEARTBEAT_SECONDS": 0.1, "LIVE_STREAM_SECONDS": 0.5}  # for the tests that wait for the end


class Stream:
    """A phone holding a game's stream, read in its own thread: the chunks as they come."""

    def __init__(self, app, url, headers=None):
        self.chunks: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        self.client = app.test_client()
        threading.Thread(target=self._read, args=(url, headers or {}), daemon=True).start()
        assert self.ready.wait(5), "no answer to the stream's request"

    def _read(self, url, headers):
        try:
            response = self.client.get(url, headers=headers, buffered=False)
            self.status, self.headers = response.status_code, response.headers
        finally:
            self.ready.set()
        try:
            for chunk in response.response:
                self.chunks.put(chunk)
        finally:
            response.close()
            self.chunks.put(None)

    def chunk(self, timeout=3.0) -> bytes | None:
        return self.chunks.get(timeout=timeout)

    def next_event(self, timeout=3.0) -> dict:
        """The next event (heartbeats and the retry line skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            chunk = self.chunk(max(0.0, deadline - time.monotonic()))
            assert chunk is not None, "the stream ended"
            if not chunk.startswith((b":", b"retry:")):
                return parse(chunk)

    def rest(self) -> list[bytes]:
        """Every chunk until the stream ends by itself."""
        found = []
        while (chunk := self.chunk()) is not None:
            found.append(chunk)
        return found


def parse(chunk: bytes) -> dict:
    """One event as its fields (the payload read as JSON), and its bytes."""
    text = chunk.decode()
    assert text.endswith("\n\n"), text
    fields = dict(line.split(": ", 1) for line in text.strip("\n").split("\n"))
    if fields.get("event") == "change":
        fields["payload"] = json.loads(fields["data"])
    fields["bytes"] = chunk
    return fields


@pytest.fixture
def drawn(app):
    """The names of the templates drawn from now on (in any thread)."""
    names: list[str] = []

    def note(_sender, template, context, **_extra):
        names.append(template.name)

    template_rendered.connect(note, app)
    yield names
    template_rendered.disconnect(note, app)


def version(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def game(table) -> Table:
    table.new_game(["A", "B", "C"], dealer=2)
    return table


def test_a_phone_that_is_behind_is_sent_the_game_at_once(table, app, client):
    game(table).meld("A", "S7", "S8", "S9")
    stream = Stream(app, f"{table.url}/events?since=0")
    assert stream.status == 200
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    assert stream.headers["Cache-Control"] == "no-store" and stream.headers["X-Accel-Buffering"] == "no"
    assert stream.chunk() == b"retry: 500\n\n"
    event = stream.next_event()
    assert event["event"] == "change" and event["id"] == "1"
    # The same JSON as /live, to the byte.
    assert event["data"].encode() == client.get(f"{table.url}/live?since=0").data
    assert event["payload"]["version"] == 1 and 'data-type="meld"' in event["payload"]["regions"]["log"]


def test_a_change_reaches_a_phone_that_is_up_to_date(table, app):
    game(table)
    stream = Stream(app, f"{table.url}/events?since=0")
    assert stream.chunk() == b"retry: 500\n\n"  # watched from here
    made = time.monotonic()
    table.meld("A", "S7", "S8", "S9")
    event = stream.next_event(timeout=SOON)
    assert event["id"] == "1" and time.monotonic() - made < SOON
    table.pass_turn()
    assert stream.next_event(timeout=SOON)["payload"]["regions"]["turn"].count('data-turn="B"') == 1


def test_a_change_made_by_another_process_reaches_the_stream(table, app, db):
    """Another worker's write: nothing in this process tells the watcher, which sees it in
    the database (``PRAGMA data_version``)."""
    game(table)
    stream = Stream(app, f"{table.url}/events?since=0")
    stream.chunk()
    db.execute("UPDATE games SET version = version + 1 WHERE id = ?", [table.game_id])
    db.conn.commit()
    assert stream.next_event(timeout=SOON)["id"] == "1"


def test_the_browser_s_last_event_id_says_what_it_has(table, app):
    game(table).meld("A", "S7", "S8", "S9")
    table.pass_turn()
    up_to_date = Stream(app, f"{table.url}/events?since=0", {"Last-Event-ID": "2"})
    assert up_to_date.chunk() == b"retry: 500\n\n" and up_to_date.chunk() == b":\n\n"  # nothing to send
    behind = Stream(app, f"{table.url}/events?since=2", {"Last-Event-ID": "1"})
    assert behind.next_event()["id"] == "2"
    knows_nothing = Stream(app, f"{table.url}/events", {"Last-Event-ID": "x"})
    assert knows_nothing.next_event()["id"] == "2"


def test_an_idle_stream_beats_and_ends_by_itself(tmp_path):
    app = make_app(tmp_path, **BRIEF)
    table = game(Table(app.test_client()))
    started = time.monotonic()
    stream = Stream(app, f"{table.url}/events?since=0")
    chunks = stream.rest()
    lasted = time.monotonic() - started
    assert chunks[0] == b"retry: 500\n\n" and chunks[-1] == b"event: bye\ndata: 1\n\n"
    assert set(chunks[1:-1]) == {b":\n\n"} and len(chunks[1:-1]) >= 3  # every 0.1 s of 0.5 s
    assert 0.45 < lasted < 2
    # The watcher stops with the last stream.
    hub = app.extensions["scorekeeper.live"]
    for _ in range(50):
        if not hub.running:
            break
        time.sleep(0.05)
    assert not hub.running and not hub.waiters


def test_an_idle_page_receives_under_50_kb_an_hour(tmp_path):
    """The stream's bytes with the served settings (live.DEFAULTS): its answer's head and
    first and last lines once per stream, a heartbeat between; each chunk framed as the
    server sends it (HTTP/1.1 chunks: the size in hex and two line ends)."""
    app = make_app(tmp_path, **BRIEF)
    table = game(Table(app.test_client()))
    stream = Stream(app, f"{table.url}/events?since=0")
    head = len("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n") + sum(
        len(f"{name}: {value}\r\n") for name, value in stream.headers.items())
    chunks = stream.rest()
    framed = [len(c) + len(f"{len(c):x}\r\n\r\n") for c in chunks]
    ends = len("0\r\n\r\n")
    per_stream = head + framed[0] + framed[-1] + ends
    hour = 3600
    received = (hour / live.DEFAULTS["LIVE_STREAM_SECONDS"] * per_stream
                + hour / live.DEFAULTS["LIVE_HEARTBEAT_SECONDS"] * framed[1])
    assert received < 50_000, received


def test_every_phone_of_a_kind_is_sent_the_same_bytes_drawn_once(table, app, drawn):
    game(table).meld("A", "S7", "S8", "S9")
    drawn.clear()
    one = Stream(app, f"{table.url}/events?since=0").next_event()
    two = Stream(app, f"{table.url}/events?since=0").next_event()
    polled = app.test_client().get(f"{table.url}/live?since=0").data
    assert one["bytes"] == two["bytes"] and one["data"].encode() == polled
    assert drawn.count("_turn.html") == 1 and drawn.count("_log.html") == 1


def test_streams_woken_at_once_have_the_change_drawn_once(table, app, drawn):
    game(table)
    streams = [Stream(app, f"{table.url}/events?since=0") for _ in range(6)]
    for stream in streams:
        stream.chunk()
    drawn.clear()
    table.meld("A", "S7", "S8", "S9")  # a form (no script): its answer draws nothing
    events = [stream.next_event(timeout=SOON) for stream in streams]
    assert {e["id"] for e in events} == {"1"} and len({e["bytes"] for e in events}) == 1
    assert drawn.count("_log.html") == 1


def test_a_play_s_own_answer_is_what_the_streams_are_sent(table, app, drawn):
    game(table)
    stream = Stream(app, f"{table.url}/events?since=0")
    stream.chunk()
    drawn.clear()
    answer = table.client.post(f"{table.url}/plays", data={
        "player": "A", "meld": "", "confirm": "1", "cards": ["S9", "S8", "S7"], "round_no": "1"},
        headers={"Accept": "application/json"}).get_json()
    event = stream.next_event(timeout=SOON)
    assert {k: v for k, v in answer.items() if k not in ("notices", "error", "said")} == event["payload"]
    assert drawn.count("_log.html") == 1


def view_key(table) -> str:
    html = table.page("")
    url = re.search(r'value="([^"]+)" data-link="view"', html).group(1)
    return re.search(r"/g/([^/]+)/table", url).group(1)


def test_each_link_and_language_has_its_own_payload(table, app, drawn):
    view = view_key(game(table))
    table.meld("A", "S7", "S8", "S9")
    drawn.clear()
    edit = Stream(app, f"{table.url}/events?since=0").next_event()["payload"]
    watch = Stream(app, f"/g/{view}/events?since=0").next_event()["payload"]
    spanish = Stream(app, f"{table.url}/events?since=0", {"Accept-Language": "es"}).next_event()["payload"]
    assert set(edit["regions"]) == {"scores", "turn", "log", "aces", "melds"}
    assert set(watch["regions"]) == {"scores", "turn", "log"}
    assert table.key not in json.dumps(watch) and f"/g/{view}/table" == watch["url"]
    assert "Ronda 1" in spanish["regions"]["turn"] and "Round 1" in edit["regions"]["turn"]
    assert drawn.count("_log.html") == 3


def test_forms_drawn_for_every_phone_carry_no_phone_s_keys(table, app):
    """The page's script puts in the phone's own (its meta's CSRF token, a request id of
    its own); a page drawn for one phone carries its own, for phones without the script."""
    game(table).meld("A", "S7", "S8", "S9")
    regions = Stream(app, f"{table.url}/events?since=0").next_event()["payload"]["regions"]
    for name in ("turn", "log"):
        assert ('<input type="hidden" name="csrf_token" value="">'
                '<input type="hidden" name="request_id" value="">') in regions[name]
    assert not re.search(r'name="(csrf_token|request_id)" value="[^"]', "".join(regions.values()))
    page = table.page()
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', page)
    assert len(re.findall(r'name="request_id" value="[\w-]{16}"', page)) >= 3


def test_a_key_that_opens_nothing_is_404(table, client):
    game(table)
    for url in (f"/g/{table.game_id}-wrong/events", "/g/999-nope/events", "/g/x/events"):
        assert client.get(url).status_code == 404


@pytest.mark.parametrize("setting, server, held", [
    (False, "gunicorn/27.0.1", False),
    ("auto", "waitress", False),  # a few threads: each stream would hold one
    ("auto", None, False),
    ("auto", "Werkzeug/3.1.9", True),  # make run: a thread per request
    (True, "waitress", True),
])
def test_where_a_stream_cannot_be_held_the_page_is_told_to_poll(tmp_path, setting, server, held):
    app = make_app(tmp_path, **BRIEF, LIVE_STREAMS=setting)
    table = game(Table(app.test_client()))
    environ = {"SERVER_SOFTWARE": server} if server else {}
    started = time.monotonic()
    answer = app.test_client().get(f"{table.url}/events?since=0", environ_base=environ)
    if held:
        assert answer.status_code == 200 and answer.data.endswith(b"event: bye\ndata: 1\n\n")
    else:
        assert answer.status_code == 204 and answer.data == b"" and time.monotonic() - started < 0.5


def test_robber_rummy_and_a_counted_game_are_streamed_as_they_are_polled(app, client):
    robber = Robber(client, ["A", "B", "C", "D"])
    robber.post("/play", player="B", action="play", cards=["S7", "S8", "S9"])
    event = Stream(app, f"/g/{robber.key}/events?since=0").next_event()
    assert event["data"].encode() == client.get(f"{robber.url}/live?since=0").data
    assert "board" in event["payload"]["regions"]
    counted = Counted(client, "kalooki", ["Ann", "Bob"])
    counted.record("Ann", {"Bob": "JK"})
    event = Stream(app, f"/g/{counted.key}/events?since=0").next_event()
    assert event["payload"] == client.get(f"/g/{counted.key}/counted/live?since=0").get_json()
    assert event["payload"]["screen"] == "counted" and event["payload"]["round"] == 1
