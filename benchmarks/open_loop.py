"""Tables at a person's pace: the load benchmark's open loop, 250 phones on one event loop.

The closed loop of ``phones.py`` sends a table's next play the moment the last one is
answered: it finds the most a server can take, but a slow answer slows the phones
down, so it hides queueing (the next play is simply sent later). Here each table logs
a play every ``interval`` seconds (2 s) on a fixed schedule, whatever the server does,
and a play's latency is counted from the moment it was due: time spent waiting for
the server counts (issue 13, item 5).

- **A play** is what a browser with the page's script does when a phone's form is sent
  (``script``, the default): a table play (an ace, a meld, a lay-off, a pass, going
  out) is sent in the background asking for JSON, and answered 200 with the regions
  that changed (the page updated in place: no page load; going out's answer leads to
  the hands, whose page is then loaded); a hand or the round's count is a form: the
  POST, then the page its 303 names. Its latency runs from the time the play was due to
  the last answer read. With ``script`` False every play is a form, POST and page (as
  before issue 15). The plays are those of ``table_script`` (the same forms as
  ``phones.Table``): a table's phones take turns, and the rounds, hands and counts
  follow as in the closed loop; a game the server ends is followed by a new one.
  A table's plays stay in order (the server must see a player's play after the one
  before, as the person saw it): a play due while the table's previous one is still
  unanswered is sent when that answer comes, and counted as sent late; its latency
  still runs from when it was due. Tables are independent: each starts at its own
  offset in the interval, so their plays are spread evenly over it.
- **Watching live**, as the page's script does (static/app.js): each phone that has a
  page of the game loaded holds one stream of its changes (``/g/<key>/events``,
  Server-Sent Events, on a connection of its own, opened again at once when the server
  ends it), and notes when each new version arrives. With ``stream`` False (``load.py
  --poll``, the page's script where no stream is held) it asks ``/live?since=<version>``
  one second after its last answer instead (204, or the JSON of the regions that
  changed, which it reads the new version from); a phone sending a play stops polling
  until it is answered (and its new page loaded, if any), and polls one second after.
  Either way :func:`change_times` says how long each play took to reach each other
  phone of its table: from the play sent to the new version (or a later one) heard.
- **Connections** as a browser keeps them: a phone reuses an idle keep-alive
  connection or opens another (two at most in practice: a poll in flight when a play
  is due); a kept connection the server has closed meanwhile is opened again and the
  request sent once more, as browsers do.

Everything runs on one asyncio event loop in the calling thread: 250 phones as 250
Python threads would take from the two cores the server needs. Only the standard
library is used.
"""
from __future__ import annotations

import asyncio
import bisect
import random
import re
import socket
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from benchmarks.phones import BACKGROUND, CSRF, KEY, MELD, MELD_JSON, VERSION, Events, Request, _gist, step_request
from benchmarks.table_script import PLAYERS, script_round

LIVE_VERSION = re.compile(rb'"version":\s*(\d+)')


class Unexpected(Exception):
    """An answer other than a correct server's, or none: counted as an error."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class Connection:
    """One keep-alive HTTP/1.1 connection, read as a WSGI server answers (Content-Length)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer)

    def close(self) -> None:
        self.writer.close()

    async def exchange(self, data: bytes) -> Answer:
        self.writer.write(data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *lines = head[:-4].decode("latin-1").split("\r\n")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise ConnectionError(f"not an HTTP status line: {status_line[:80]!r}")
        headers: dict[str, str] = {}
        for line in lines:
            name, _, value = line.partition(":")
            headers.setdefault(name.strip().lower(), value.strip())
        status = int(parts[1])
        length = 0 if status in (204, 304) else int(headers.get("content-length", 0))
        body = await self.reader.readexactly(length) if length else b""
        return Answer(status, headers, body)


class Phone:
    """A phone's browser: its session cookie, its CSRF token, its keep-alive connections."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[Connection] = []
        self.cookie = ""
        self.token = ""
        self.version = "0"
        self.sending = False  # a form is being sent: the page's script does not poll
        self.watching = False  # a page of the game is loaded: its script polls
        self.next_poll = 0.0
        self.stream: asyncio.Task | None = None  # the stream held, for the game of
        self.stream_key = ""
        self.heard: dict[str, tuple[list[int], list[float]]] = {}  # game → versions, when

    def hear(self, key: str, version: int, at: float) -> None:
        """A version of the game ``key`` arrived (by the stream, or a poll)."""
        versions, times = self.heard.setdefault(key, ([], []))
        versions.append(version)
        times.append(at)

    def heard_at(self, key: str, version: int) -> float | None:
        """When ``version`` of ``key``, or a later one, first arrived (None: not yet)."""
        versions, times = self.heard.get(key, ((), ()))
        i = bisect.bisect_left(versions, version)
        return times[i] if i < len(versions) else None  # they came in that order

    def close(self) -> None:
        for conn in self.idle:
            conn.close()
        self.idle.clear()

    async def request(self, method: str, path: str, fields: list | None = None,
                      accept: str = "") -> Answer:
        body = urlencode(fields, doseq=True).encode() if fields is not None else b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        if accept:
            lines.append(f"Accept: {accept}")
        if fields is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}"]
        data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        while True:
            reused = bool(self.idle)
            conn = self.idle.pop() if reused else await Connection.open(self.host, self.port)
            try:
                answer = await conn.exchange(data)
                break
            except (OSError, asyncio.IncompleteReadError) as e:
                conn.close()
                if reused and not getattr(e, "partial", b"") and isinstance(
                        e, (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError)):
                    continue  # a kept connection the server had closed: once more, on a new one
                raise ConnectionError(f"{type(e).__name__}: {e}") from None
            except asyncio.CancelledError:  # timed out: the connection is not reused
                conn.close()
                raise
        cookie = answer.headers.get("set-cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if answer.headers.get("connection", "").lower() == "close":
            conn.close()
        else:
            self.idle.append(conn)
        return answer

    def read_page(self, page: bytes) -> str:
        text = page.decode("utf-8", "replace")
        match = CSRF.search(text)
        if match:
            self.token = match.group(1) or match.group(2)
        match = VERSION.search(text)
        if match:
            self.version = match.group(1)
        return text


@dataclass
class Table:
    """One game at a person's pace: its phones, its script, what they sent and got."""

    host: str
    port: int
    seed: int
    players: int = 5
    interval: float = 2.0  # seconds between two plays of this table
    script: bool = True  # table plays sent as the page's script sends them (JSON, no page)
    watch: float = 1.0  # seconds from a poll's answer to the next (0: no live updates)
    stream: bool = True  # the phones hold streams of the game's changes (False: they poll)
    timeout: float = 10.0
    requests: list[Request] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    late: int = 0  # plays sent after their time: the table's previous one was unanswered
    # The plays whose new version the phone was answered with: (game, version, seat, sent).
    changes: list[tuple[str, int, int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.phones = [Phone(self.host, self.port) for _ in range(self.players)]
        self.key = ""
        self.round_no = 0
        self.steps: list[tuple] | None = None
        self.done = 0
        self.melds: dict[int, int] = {}

    def close(self) -> None:
        for phone in self.phones:
            phone.close()

    # -- requests -------------------------------------------------------------------------
    async def _ask(self, phone: Phone, kind: str, method: str, path: str, fields=None,
                   expect: tuple = (200,), since: float | None = None, accept: str = "") -> Answer:
        """One request, recorded (its time from ``since``, when given: when it was due)."""
        started = time.perf_counter()
        since = started if since is None else since
        try:
            answer = await asyncio.wait_for(phone.request(method, path, fields, accept), self.timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as e:
            self.requests.append(Request(kind, 0, since, time.perf_counter() - since))
            raise Unexpected(f"{kind} {path}: {type(e).__name__}: {e}") from None
        self.requests.append(Request(kind, answer.status, since, time.perf_counter() - since,
                                     len(answer.body)))
        if answer.status not in expect:
            raise Unexpected(f"{kind} {path}: {answer.status} (expected {expect}): "
                             f"{_gist(answer.body.decode('utf-8', 'replace'))}")
        return answer

    async def _form(self, phone: Phone, kind: str, path: str, fields: list,
                    due: float) -> tuple[str, str]:
        """A form sent and the page its 303 names loaded: (where it went, the page).
        Recorded as ``kind`` (the whole play, from when it was due) and as "post" and
        "page" (each alone)."""
        fields = fields + [("csrf_token", phone.token), ("request_id", uuid.uuid4().hex)]
        try:
            answer = await self._ask(phone, "post", "POST", path, fields, expect=(303,))
            where = urlsplit(answer.headers.get("location", ""))
            location = f"{where.path}?{where.query}" if where.query else where.path
            page = await self._ask(phone, "page", "GET", location)
        except Unexpected:
            self.requests.append(Request(kind, 0, due, time.perf_counter() - due))
            raise
        self.requests.append(Request(kind, 303, due, time.perf_counter() - due, len(page.body)))
        return location, phone.read_page(page.body)

    async def _background(self, phone: Phone, kind: str, path: str, fields: list,
                          due: float) -> tuple[str, str]:
        """A table play as the page's script sends it: JSON asked for, 200 and the regions
        that changed read (its version: the phone's next poll is 204); going out's answer
        leads to the hands, whose page the browser loads. Recorded as ``kind`` (the whole
        play, from when it was due) and as "post" (the request alone)."""
        fields = fields + [("csrf_token", phone.token), ("request_id", uuid.uuid4().hex)]
        sent = time.perf_counter()
        try:
            answer = await self._ask(phone, "post", "POST", path, fields, expect=(200,),
                                     accept="application/json")
            phone.version = LIVE_VERSION.search(answer.body).group(1).decode()
            self.changes.append((self.key, int(phone.version), self.phones.index(phone), sent))
            text = answer.body.decode("utf-8", "replace")
            location, size = "", len(answer.body)
            if kind == "out":
                location = f"/g/{self.key}/end"
                page = await self._ask(phone, "page", "GET", location)
                text, size = phone.read_page(page.body), size + len(page.body)
        except Unexpected:
            self.requests.append(Request(kind, 0, due, time.perf_counter() - due))
            raise
        self.requests.append(Request(kind, 200, due, time.perf_counter() - due, size))
        return location, text

    async def new_game(self, due: float) -> None:
        """The first phone starts a game (a play: POST and its page); the others open it."""
        first = self.phones[0]
        for phone in self.phones:
            phone.watching = False  # until it has loaded the new game's page
            self._unlisten(phone)
        first.read_page((await self._ask(first, "open", "GET", "/games/new")).body)
        fields = [(f"seat_{i}", PLAYERS[i]) for i in range(self.players)] + [("first_dealer", "0")]
        location, _page = await self._form(first, "new game", "/games", fields, due)
        self.key = KEY.search(location).group(1)
        self._loaded(first)
        for phone in self.phones[1:]:
            phone.read_page((await self._ask(phone, "open", "GET", location)).body)
            self._loaded(phone)
        self.round_no, self.steps = 1, None

    def _loaded(self, phone: Phone) -> None:
        """A page of the game loaded: its script holds a stream of the game's changes (or
        polls a second later)."""
        phone.watching, phone.next_poll = True, time.perf_counter() + self.watch
        if self.stream and self.watch and phone.stream_key != self.key:
            self._unlisten(phone)
            phone.stream_key = self.key
            phone.stream = asyncio.get_running_loop().create_task(self._listen(phone, self.key))

    def _unlisten(self, phone: Phone) -> None:
        if phone.stream is not None:
            phone.stream.cancel()
        phone.stream, phone.stream_key = None, ""

    async def _listen(self, phone: Phone, key: str) -> None:
        """The phone's stream of the game ``key``, as the page's script holds it: opened
        from the version it has, opened again at once when the server ends it (``bye``),
        a few seconds after a failure (the stream's ``retry``); until cancelled."""
        while True:
            started, writer = time.perf_counter(), None
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
                sock = writer.get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                lines = [f"GET /g/{key}/events?since={phone.version} HTTP/1.1",
                         f"Host: {self.host}:{self.port}", "Accept: text/event-stream"]
                if phone.cookie:
                    lines.append(f"Cookie: {phone.cookie}")
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.timeout)
                status = int(head.split(b" ", 2)[1])
                self.requests.append(Request("stream", status, started, time.perf_counter() - started))
                if status != 200:
                    raise Unexpected(f"stream /g/{key}/events: {status}")
                events = Events(chunked=b"chunked" in head.lower())
                ended = False
                while not ended:
                    data = await reader.read(262144)
                    now = time.perf_counter()
                    if not data:
                        break
                    for fields in events.feed(data):
                        if fields.get("event") == "change":
                            phone.hear(key, int(fields["id"]), now)
                            if int(fields["id"]) > int(phone.version or 0):
                                phone.version = fields["id"]
                        elif fields.get("event") == "bye":
                            ended = True
                    ended = ended or events.ended
                continue  # ended by the server: the next one at once
            except asyncio.CancelledError:
                raise
            except (TimeoutError, OSError, ValueError, IndexError, asyncio.IncompleteReadError, Unexpected) as e:
                self.errors.append(f"stream /g/{key}/events: {type(e).__name__}: {e}")
                await asyncio.sleep(3.0)  # as a browser waits the stream's retry
            finally:
                if writer is not None:
                    writer.close()

    async def play(self, due: float) -> None:
        """The table's next play (or a new game), due at ``due``."""
        if not self.key:
            await self.new_game(due)
            return
        if self.steps is None:
            dealer = (self.round_no - 1) % self.players
            self.steps = script_round(self.rng, self.players, (dealer + 1) % self.players, dealer)
            self.done, self.melds = 0, {}
        step = self.steps[self.done]
        phone = self.phones[step[1]]
        kind, path, fields = step_request(step, self.key, self.round_no, self.melds)
        phone.sending = True
        try:
            if self.script and kind in BACKGROUND:
                location, page = await self._background(phone, kind, path, fields, due)
            else:
                location, page = await self._form(phone, kind, path, fields, due)
        finally:
            phone.sending = False
        self._loaded(phone)
        if kind == "meld":
            self.melds.update({int(n): int(i) for i, n in (MELD_JSON if self.script else MELD).findall(page)})
        self.done += 1
        if self.done == len(self.steps):
            self.steps = None
            self.round_no += 1
            if location == f"/g/{self.key}":  # the game's page: the game is over
                self.key = ""

    # -- running --------------------------------------------------------------------------
    async def run(self, first: float, until: float) -> None:
        """Plays due at ``first``, ``first + interval`` … before ``until``, and the phones
        watching live meanwhile; then every connection closed."""
        watchers = [asyncio.create_task(self._watch(phone, until)) for phone in self.phones
                    if not self.stream]
        for phone in self.phones:
            if phone.watching:  # a page of the game open since the last run: its stream again
                self._loaded(phone)
        try:
            due = first
            while due < until:
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                else:
                    self.late += 1  # the previous play was answered after this one was due
                try:
                    await self.play(due)
                except Unexpected as e:
                    self.errors.append(str(e))
                    self.key = ""  # as the closed loop: a new game at the next play
                    for phone in self.phones:
                        phone.watching = False
                        phone.close()
                due += self.interval
            await asyncio.sleep(max(0.0, until - time.perf_counter()))  # the phones hear until the end
        finally:
            await asyncio.gather(*watchers, return_exceptions=True)
            streams = [phone.stream for phone in self.phones if phone.stream is not None]
            for phone in self.phones:
                self._unlisten(phone)
            await asyncio.gather(*streams, return_exceptions=True)
            self.close()

    async def _watch(self, phone: Phone, until: float) -> None:
        if not self.watch:
            return
        phone.next_poll = time.perf_counter() + self.rng.uniform(0, self.watch)
        while True:
            now = time.perf_counter()
            if now >= until:
                return
            if phone.sending or not phone.watching or now < phone.next_poll:
                wait = phone.next_poll - now if phone.watching and not phone.sending else 0.1
                await asyncio.sleep(max(0.01, min(wait, until - now)))
                continue
            try:
                answer = await self._ask(phone, "live", "GET",
                                         f"/g/{self.key}/live?since={phone.version}",
                                         expect=(200, 204))
                match = LIVE_VERSION.search(answer.body) if answer.status == 200 else None
                if match:
                    phone.version = match.group(1).decode()
                    phone.hear(self.key, int(phone.version), time.perf_counter())
            except Unexpected as e:
                self.errors.append(str(e))
            phone.next_poll = time.perf_counter() + self.watch


def change_times(tables: list[Table], start: float, end: float) -> tuple[list[float], int]:
    """How long each play sent in [start, end) took to reach each other phone of its table
    (seconds), and how many never reached one (by the time the phones stopped)."""
    times, unheard = [], 0
    for table in tables:
        for key, version, seat, sent in table.changes:
            if not start <= sent < end:
                continue
            for other, phone in enumerate(table.phones):
                if other != seat:
                    at = phone.heard_at(key, version)
                    if at is None:
                        unheard += 1
                    else:
                        times.append(max(0.0, at - sent))
    return times, unheard


async def run_tables(tables: list[Table], start: float, until: float) -> None:
    """Every table from ``start`` (each at its own offset in the interval) to ``until``."""
    n = len(tables)
    await asyncio.gather(*(t.run(start + i * t.interval / n, until) for i, t in enumerate(tables)))
