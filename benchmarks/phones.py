"""Phones at a table, over real HTTP: the driver of the load benchmark and the crash test.

A :class:`Phone` is one keep-alive HTTP/1.1 connection with its own session cookie, as
a browser tab has: it opens the game's edit link (which gives it the CSRF token that
every form carries) and sends the forms the table screen sends. A :class:`Table` is a
game and the phones around it: one phone per player, each sending its own player's
plays from :mod:`benchmarks.table_script` in turn; the dealer's phone counts the
round, and when the game is over the first phone starts a new one.

A phone's table play (an ace, a meld, a lay-off, a pass, going out) is what a browser
with the page's script sends (``script``, the default): the form in the background,
asking for JSON (``Accept: application/json``), answered 200 with the regions that
changed; the meld's id is read from them and no page is loaded. The hands and the
round's count are forms in the browser too: a 303. With ``script`` False the phones
send every play as a browser without the script does (as they did before issue 15): a
303, and the page it names loaded after each meld (``follow``: after every write;
``meld_pages`` False: never, the meld's id read from the 303's ``?saved=``). The phones
can watch live (``watch``), as the page's script does: each holds a stream of the
game's changes (``stream``, :class:`EventStream`, read for the whole table by a thread
of its own: :class:`Listener`), or the phones not playing ask ``/live`` every ``watch``
seconds; ``Table.changes`` and ``Phone.heard`` say when each play reached each phone.

Everything is recorded per request (what, status, when, seconds), and every write that
got its answer (its 303, or its JSON) is kept in ``Table.acked`` (every write sent in
``Table.sent``) so the crash test can look for it in the database. Only the standard
library is used: no load tool to install.
"""
from __future__ import annotations

import bisect
import random
import re
import selectors
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from benchmarks.table_script import PLAYERS, script_round

CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"|name="csrf_token"[^>]*value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
MELD = re.compile(r'data-meld="(\d+)" data-meld-number="(\d+)"')
MELD_JSON = re.compile(r'data-meld=\\"(\d+)\\" data-meld-number=\\"(\d+)\\"')  # in a JSON string
LIVE_VERSION = re.compile(r'"version":\s*(\d+)')
BACKGROUND = ("ace", "meld", "layoff", "pass", "out")  # the table plays the page's script sends
SAVED = re.compile(r"[?&]saved=(\d+)")  # the play a table play's 303 names: a meld's id
KEY = re.compile(r"/g/([^/]+)/table")


class Unexpected(Exception):
    """A response other than the one a correct server gives: counted as an error."""


class HTTPError(OSError):
    """An answer that is not HTTP/1.1 as the phones read it (a broken server)."""


class Response:
    """A response as the phones read it: status, headers (names in lower case), body."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self._headers, self._body = status, headers, body

    def getheader(self, name: str, default=None):
        return self._headers.get(name.lower(), default)

    def read(self) -> bytes:
        return self._body


class Connection:
    """One keep-alive HTTP/1.1 connection, as lean as the phones need (what they send
    and what a WSGI server answers: a Content-Length on every response, no chunks).

    The phones share the machine with the server they measure: http.client's parsing
    (email.parser for the headers) cost each request three times the CPU of this, time
    the server did not get. Only the standard library is used.
    """

    def __init__(self, host: str, port: int, timeout: float | None = None) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.sock: socket.socket | None = None
        self._buffer = b""
        self._response: Response | None = None

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self._buffer = b""

    def request(self, method: str, path: str, body: str | None = None,
                headers: dict[str, str] | None = None) -> None:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        data = body.encode() if body is not None else b""
        if body is not None:
            lines.append(f"Content-Length: {len(data)}")
        if self.sock is None:
            self.sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data)
        self._response = self._read(head_only=method == "HEAD")

    def getresponse(self) -> Response:
        response, self._response = self._response, None
        return response

    def _fill(self) -> None:
        chunk = self.sock.recv(262144)
        if not chunk:
            raise ConnectionResetError("the server closed the connection")
        self._buffer += chunk

    def _read(self, head_only: bool) -> Response:
        while b"\r\n\r\n" not in self._buffer:
            self._fill()
        head, _, self._buffer = self._buffer.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise HTTPError(f"not an HTTP status line: {status_line[:80]!r}")
        headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            # Repeated headers (Set-Cookie): the first is the one the phones read.
            headers.setdefault(name, value.strip())
        if headers.get("transfer-encoding", "").lower() == "chunked":
            raise HTTPError("a chunked response (the phones read Content-Length only)")
        status = int(parts[1])
        length = 0 if head_only or status in (204, 304) else int(headers.get("content-length", 0))
        while len(self._buffer) < length:
            self._fill()
        body, self._buffer = self._buffer[:length], self._buffer[length:]
        return Response(status, headers, body)


class Events:
    """Server-Sent Events as they arrive, decoded: the HTTP/1.1 chunks a WSGI server sends
    a stream in (or the bytes as they are, without ``chunked``), then the events, each a
    dict of its fields (``event``, ``id``, ``data``; ``retry`` alone for the stream's
    first line; heartbeat comments are dropped). ``ended``: the last chunk came."""

    def __init__(self, chunked: bool = True) -> None:
        self.chunked, self.ended = chunked, False
        self._raw = self._text = b""

    def feed(self, data: bytes) -> list[dict]:
        if not self.chunked:
            self._text += data
        else:
            self._raw += data
            while not self.ended:
                line_end = self._raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(self._raw[:line_end].split(b";")[0] or b"0", 16)
                if size == 0:
                    self.ended = True
                    break
                start = line_end + 2
                if len(self._raw) < start + size + 2:
                    break
                self._text += self._raw[start:start + size]
                self._raw = self._raw[start + size + 2:]
        found = []
        while b"\n\n" in self._text:
            block, self._text = self._text.split(b"\n\n", 1)
            fields = {}
            for line in block.decode("utf-8", "replace").split("\n"):
                if line and not line.startswith(":"):
                    name, _, value = line.partition(":")
                    fields[name] = value[1:] if value.startswith(" ") else value
            if fields:
                found.append(fields)
        return found


class EventStream:
    """A phone's stream of its game's changes (``GET /g/<key>/events``), held on a
    connection of its own as the page's script holds it (the browser's EventSource).
    ``status`` and ``headers`` of the answer; ``read`` waits for what comes next and
    returns its events with the time they arrived; ``fileno`` for a selector."""

    def __init__(self, host: str, port: int, path: str, cookie: str = "", timeout: float = 10.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream"]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        self.received = 0  # bytes, the answer's head included
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionResetError("the server closed the stream before answering")
            head += chunk
            self.received += len(chunk)
        head, _, rest = head.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split(" ", 2)[1])
        self.headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            self.headers.setdefault(name.strip().lower(), value.strip())
        streaming = self.status == 200 and self.headers.get("content-type", "").startswith("text/event-stream")
        self.events = Events(chunked=self.headers.get("transfer-encoding", "").lower() == "chunked")
        self.ended = not streaming
        self._first = self.events.feed(rest) if streaming else []

    def fileno(self) -> int:
        return self.sock.fileno()

    def read(self, timeout: float | None = None) -> list[tuple[float, dict]]:
        """What has come, waiting up to ``timeout`` for something: (arrived, fields) each.
        The stream's end (or the server closing it) sets ``ended``."""
        if self._first:
            now, self._first, found = time.perf_counter(), [], self._first
            return [(now, fields) for fields in found]
        if self.ended:
            return []
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(262144)
        except (TimeoutError, BlockingIOError):
            return []
        except OSError:
            data = b""
        now = time.perf_counter()
        if not data:
            self.ended = True
            return []
        self.received += len(data)
        found = self.events.feed(data)
        self.ended = self.events.ended
        return [(now, fields) for fields in found]

    def close(self) -> None:
        self.sock.close()
        self.ended = True


@dataclass
class Request:
    kind: str  # a write ("meld", "pass" … "new game") or a read ("page", "live", "open")
    status: int  # 0: no response (connection refused, reset or timed out)
    started: float  # time.perf_counter() when it was sent (open loop: when it was due)
    seconds: float
    size: int = 0  # bytes of the answer's body


def step_request(step: tuple, key: str, round_no: int, melds: dict[int, int]) -> tuple[str, str, list]:
    """A scripted step (``table_script``) as the form the table screen sends for it:
    (kind, path, fields), without the CSRF token and request id every form adds.
    ``melds``: this round's meld numbers → the ids of the plays that made them."""
    kind, seat = step[0], step[1]
    player, base = PLAYERS[seat], f"/g/{key}"
    if kind == "ace":
        return kind, base + "/aces", [("player", player), ("card", step[2])]
    if kind == "meld":
        return kind, base + "/plays", [("player", player), ("meld", ""), ("confirm", "1")] + [
            ("cards", c) for c in step[2]]
    if kind == "layoff":
        return kind, base + "/plays", [("player", player), ("meld", str(melds[step[2]])),
                                       ("confirm", "1")] + [("cards", c) for c in step[3]]
    if kind == "pass":  # the phone shows whose turn it passes on
        return kind, base + "/pass", [("turn", player)]
    if kind == "out":
        return kind, base + "/out", [("player", player)]
    if kind == "hand":
        return kind, base + "/hands", [("player", player), ("round_no", str(round_no))] + [
            ("cards", c) for c in step[2]]
    return kind, base + "/end", [("round_no", str(round_no))]  # confirm: the round counted


class Phone:
    """One phone: a keep-alive connection to the server and its own session cookie."""

    def __init__(self, host: str, port: int, timeout: float = 10.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.conn: Connection | None = None
        self.cookie = ""
        self.token = ""
        self.version = "0"  # the game's version as this phone last saw it (live updates)
        self.polled = 0.0  # time.perf_counter() of its last live update
        self.received = 0  # bytes in the body of the last answer
        self.accept = ""  # the Accept header of its next POST (the page's script: JSON)
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
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method: str, path: str, fields: list | None = None,
                keep_cookie: bool = True) -> tuple[int, str, str]:
        """(status, Location (path and query), body). Never sent twice: a failure is the caller's to count.

        ``keep_cookie``: take the session cookie the answer sets (a browser always does).
        """
        body = urlencode(fields, doseq=True) if fields is not None else None
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            if self.accept:
                headers["Accept"] = self.accept
        if self.conn is None:
            self.conn = Connection(self.host, self.port, timeout=self.timeout)
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        body = response.read()
        self.received = len(body)
        text = body.decode("utf-8", "replace")
        cookie = response.getheader("Set-Cookie")
        if cookie and keep_cookie:
            self.cookie = cookie.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        where = urlsplit(response.getheader("Location") or "")
        location = f"{where.path}?{where.query}" if where.query else where.path
        return response.status, location, text

    def remember_token(self, page: str) -> None:
        match = CSRF.search(page)
        if match:
            self.token = match.group(1) or match.group(2)
        match = VERSION.search(page)
        if match:
            self.version = match.group(1)


@dataclass
class Table:
    """One game, its phones (one per player) and what they have sent."""

    host: str
    port: int
    seed: int
    players: int = 5
    script: bool = True  # table plays as the page's script sends them: JSON, no page
    follow: bool = True  # load the page an answer names (a 303's, or going out's), as a browser does
    meld_pages: bool = True  # without script, False: no page after a meld either (its id: the 303's ?saved=)
    watch: float = 0.0  # > 0: the phones watch live (not playing: ask for updates this often, s)
    stream: bool = False  # with watch: each phone holds a stream of the game's changes instead
    timeout: float = 10.0
    phones: list[Phone] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Every write answered with a 303: (game key, step), in the order sent.
    acked: list[tuple[str, tuple]] = field(default_factory=list)
    sent: list[tuple[str, tuple]] = field(default_factory=list)  # every write sent
    games: list[str] = field(default_factory=list)  # the edit keys of the games played
    rounds_counted: int = 0
    # The plays whose new version the phone was answered with: (game, version, seat, sent).
    changes: list[tuple[str, int, int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.phones = [Phone(self.host, self.port, self.timeout) for _ in range(self.players)]
        self.key = ""
        self.round_no = 0
        self.melds: dict[int, int] = {}  # meld number in this round → its play id
        # The round being played and how far: a run stopped half way through a round
        # (``stop``) goes on from there when ``run`` is called again.
        self.steps: list[tuple] | None = None
        self.done = 0

    # -- one request ------------------------------------------------------------------
    def _send(self, phone: Phone, kind: str, method: str, path: str, fields=None,
              expect: int | tuple = 200, keep_cookie: bool = True) -> tuple[str, str]:
        started = time.perf_counter()
        try:
            status, location, text = phone.request(method, path, fields, keep_cookie)
        except (OSError, ValueError) as e:
            self.requests.append(Request(kind, 0, started, time.perf_counter() - started))
            phone.close()
            raise Unexpected(f"{kind}: {type(e).__name__}: {e}") from None
        self.requests.append(Request(kind, status, started, time.perf_counter() - started,
                                     phone.received))
        if status not in (expect if isinstance(expect, tuple) else (expect,)):
            raise Unexpected(f"{kind} {path}: {status} (expected {expect}): {_gist(text)}")
        return location, text

    def _page(self, phone: Phone, path: str, kind: str = "page") -> str:
        _location, text = self._send(phone, kind, "GET", path)
        phone.remember_token(text)
        return text

    def _write(self, phone: Phone, kind: str, path: str, fields: list, step: tuple) -> str:
        """A form sent (CSRF token, a fresh request id). A table play with ``script``:
        sent as the page's script sends it, 200 and JSON expected (the version and the
        meld ids read from it; going out's page loaded with ``follow``). Otherwise a 303
        expected; then the page it names is loaded, as a browser does: after every write
        with ``follow``, else only after a meld (the phones lay off on it by its id on the
        table page), and with ``meld_pages`` False not even then (the id is the play the
        303 names).

        Without ``follow`` the session cookie a write's answer sets is not kept: it only
        adds that write's flash message, which the page load skipped would have shown
        and dropped; kept, the messages would pile up in the cookie as no phone does.
        """
        fields = fields + [("csrf_token", phone.token), ("request_id", uuid.uuid4().hex)]
        self.sent.append((self.key, step))
        if self.script and kind in BACKGROUND:
            phone.accept = "application/json"
            sent = time.perf_counter()
            try:
                _location, text = self._send(phone, kind, "POST", path, fields, expect=200,
                                             keep_cookie=self.follow)
            finally:
                phone.accept = ""
            self.acked.append((self.key, step))
            phone.version = LIVE_VERSION.search(text).group(1)
            self.changes.append((self.key, int(phone.version), self.phones.index(phone), sent))
            if kind == "meld":
                self.melds.update({int(n): int(i) for i, n in MELD_JSON.findall(text)})
            if kind == "out" and self.follow:  # the browser goes on to the hands
                self._page(phone, f"/g/{self.key}/end")
            return ""
        location, _text = self._send(phone, kind, "POST", path, fields, expect=303,
                                     keep_cookie=self.follow)
        self.acked.append((self.key, step))
        if kind == "meld" and not (self.follow or self.meld_pages):
            self.melds[len(self.melds) + 1] = int(SAVED.search(location).group(1))
        elif location and (self.follow or kind == "meld"):
            page = self._page(phone, location)
            if kind == "meld":
                self.melds.update({int(n): int(i) for i, n in MELD.findall(page)})
        return location

    def _live(self, acting: int) -> None:
        """The phones not playing ask what changed, as the table page's script does (app.js
        polls ``/live?since=<version>`` every second: 204, or the new parts of the page)."""
        now = time.perf_counter()
        for seat, phone in enumerate(self.phones):
            if seat == acting or now - phone.polled < self.watch:
                continue
            phone.polled = now
            _location, text = self._send(phone, "live", "GET",
                                         f"/g/{self.key}/live?since={phone.version}",
                                         expect=(200, 204))
            match = LIVE_VERSION.search(text)
            if match:
                phone.version = match.group(1)
                phone.hear(self.key, int(phone.version), time.perf_counter())

    # -- a game -------------------------------------------------------------------------
    def new_game(self) -> None:
        """The first phone starts a game; every other phone opens its edit link."""
        first = self.phones[0]
        self._page(first, "/games/new", kind="open")
        fields = [(f"seat_{i}", PLAYERS[i]) for i in range(self.players)]
        fields += [("first_dealer", "0"), ("csrf_token", first.token)]
        location, _text = self._send(first, "new game", "POST", "/games", fields, expect=303)
        self.key = KEY.search(location).group(1)
        self.games.append(self.key)
        for phone in self.phones:
            self._page(phone, f"/g/{self.key}/table", kind="open")
        self.round_no = 1
        self.steps = None

    def next_round(self) -> list[tuple]:
        """The steps of the round being played, scripted when it starts."""
        if self.steps is None:
            dealer = (self.round_no - 1) % self.players
            self.steps = script_round(self.rng, self.players, (dealer + 1) % self.players, dealer)
            self.done = 0
            self.melds = {}
        return self.steps

    def play_round(self, stop: threading.Event | None = None) -> bool:
        """The next scripted round, step by step; True when it ended the game. Stopped
        half way (``stop``), the next call goes on where it stopped."""
        steps = self.next_round()
        location = ""
        while self.done < len(steps):
            if stop is not None and stop.is_set():
                return False
            step = steps[self.done]
            seat = step[1]
            if self.watch and not self.stream:
                self._live(seat)
            kind, path, fields = step_request(step, self.key, self.round_no, self.melds)
            location = self._write(self.phones[seat], kind, path, fields, step)
            self.done += 1
        self.steps = None
        self.rounds_counted += 1
        self.round_no += 1
        return location == f"/g/{self.key}"  # the game's page: someone reached the target

    def run(self, stop: threading.Event, max_writes: int | None = None,
            keep_going: bool = True, max_errors: int = 20) -> None:
        """Play game after game until ``stop`` is set (or ``max_writes`` were sent).

        After an unexpected answer the table starts a new game (``keep_going``, up to
        ``max_errors`` times) or stops.
        """
        listener = Listener(self) if self.watch and self.stream else None
        try:
            while not stop.is_set() and (max_writes is None or len(self.sent) < max_writes):
                try:
                    if not self.key:
                        self.new_game()
                    if self.play_round(stop):
                        self.key = ""
                except Unexpected as e:
                    self.errors.append(str(e))
                    if not keep_going or len(self.errors) >= max_errors:
                        break
                    self.key = ""
                    for phone in self.phones:
                        phone.close()
        except Exception as e:  # noqa: BLE001 - a broken driver must show, not hang the run
            self.errors.append(f"driver: {type(e).__name__}: {e}")
        finally:
            if listener is not None:
                listener.stop()
            for phone in self.phones:
                phone.close()


class Listener:
    """A table's phones holding their streams of the game's changes, read by one thread
    (a selector over the table's streams): each phone's stream opened on the game being
    played from the version it has, opened again at once when the server ends it, the
    versions noted as they arrive (``Phone.hear``). A failure is the table's error."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=15)

    def _open(self, phone: Phone, key: str) -> EventStream | None:
        table = self.table
        started = time.perf_counter()
        try:
            stream = EventStream(table.host, table.port, f"/g/{key}/events?since={phone.version}",
                                 phone.cookie, table.timeout)
        except OSError as e:
            table.errors.append(f"stream /g/{key}/events: {type(e).__name__}: {e}")
            return None
        table.requests.append(Request("stream", stream.status, started, time.perf_counter() - started))
        if stream.status != 200:
            table.errors.append(f"stream /g/{key}/events: {stream.status}")
            stream.close()
            return None
        return stream

    def _run(self) -> None:
        table, selector = self.table, selectors.DefaultSelector()
        key, streams = "", {}  # phone → its stream of the game being played
        leaving: list[tuple[float, EventStream]] = []  # the last game's, read a second more
        try:
            while not self.done.is_set():
                if table.key != key:  # a new game: the phones open its page
                    leaving += [(time.perf_counter() + 1.0, stream) for stream in streams.values()]
                    key, streams = table.key, {}
                for phone in table.phones:
                    if key and phone not in streams:
                        stream = self._open(phone, key)
                        if stream is None:
                            self.done.wait(3.0)  # as a browser waits the stream's retry
                            break
                        streams[phone] = stream
                        selector.register(stream, selectors.EVENT_READ, (phone, key))
                        self._take(stream, phone, key)  # what came with the answer's head
                for found, _mask in selector.select(timeout=0.1):
                    stream, (phone, of) = found.fileobj, found.data
                    self._take(stream, phone, of)
                    if stream.ended:  # ended by the server: the next one at once
                        selector.unregister(stream)
                        stream.close()
                        if streams.get(phone) is stream:
                            del streams[phone]
                now = time.perf_counter()
                for deadline, stream in [x for x in leaving if x[0] <= now]:
                    leaving.remove((deadline, stream))
                    if not stream.ended:
                        selector.unregister(stream)
                        stream.close()
        except Exception as e:  # noqa: BLE001 - a broken listener must show, not hang the run
            table.errors.append(f"listener: {type(e).__name__}: {e}")
        finally:
            for stream in [*streams.values(), *(stream for _deadline, stream in leaving)]:
                stream.close()
            selector.close()

    @staticmethod
    def _take(stream: EventStream, phone: Phone, key: str) -> None:
        for at, fields in stream.read(timeout=0):
            if fields.get("event") == "change":
                phone.hear(key, int(fields["id"]), at)
                if int(fields["id"]) > int(phone.version or 0):
                    phone.version = fields["id"]
            elif fields.get("event") == "bye":
                stream.ended = True


def _gist(html: str) -> str:
    """The message of an error page, for the report."""
    match = re.search(r'<p class="(?:error|flash)[^"]*"[^>]*>(.*?)</p>', html, re.S) or re.search(
        r"<main.*?>(.*?)</main>", html, re.S)
    text = re.sub(r"<[^>]+>", " ", match.group(1) if match else html[:300])
    return " ".join(text.split())[:200]
