"""Replaying a game without replaying what has not changed: a memo of replays, by content.

A game is its log (STYLE.md), so every page and every write replays it. Most of that
work repeats: a round that has been counted never changes unless a play in it is
edited, yet each replay re-applies its plays and runs the best-last-turn search for
every hand; and one request replays the same log several times (the page it checks
against, the log with the new play, the cache of the history list).

:func:`replay_iceberg` gives exactly what :func:`scorekeeper.gamefile.replay_iceberg`
gives, from the same pieces (``replay_round``, ``apply_event``, ``read_hands``,
``score_round``, ``game_state``) in the same order, with memos keyed by *content*, never
by id or version:

- a finished round (one with hands) by the players, the rules, its events (one key
  per event: the caller's, or the event's JSON) and its hands: a counted round is not
  replayed again until a play or hand in it changes;
- a round's table by its plays so far: one more play (or the hands at its end) is
  applied to a copy of the table as it was before — or the few plays another process
  logged, to the table this one last built — instead of replaying the round from its
  first play;
- a whole game (``games``, used by ``store.replay``) by what its document is made of:
  the same log replayed twice costs one replay; and the rules, resolved once.

A key is the data itself, so an entry can never be stale: an edit anywhere makes a
new key, whoever wrote it and in whichever process. A refusal is never stored (it is
raised again, with the same words, on every call). The results are shared between
requests and threads, and only read: nothing outside the replay changes a round, and
the replay copies a table before it applies a play or takes the hands from its decks.
Every memo is bounded (least recently used out first).
"""
from __future__ import annotations

import copy
import json
import threading
from collections import Counter, OrderedDict
from typing import Any, Callable, Hashable, Mapping

from .games import iceberg
from .games.errors import ScorekeeperError
from .gamefile import (
    _check_finished,
    _check_not_over,
    _check_players,
    _located,
    _no_teams,
    _rounds,
    _rules,
    apply_event,
    read_hands,
    replay_round,
)

ROUNDS_KEPT = 2048  # counted rounds: a table plays ~10 a game
TABLES_KEPT = 512  # rounds being played, as their plays so far left them
GAMES_KEPT = 256  # whole games: the tables being played right now
LOOK_BACK = 16  # plays back a round's table is looked for (_built_on_earlier)


class Memo:
    """A bounded least-recently-used memo, safe to share between threads.

    The lock guards only the dictionary: a value is computed outside it, so two threads
    may compute the same value once each (the same value: both are replays of the same
    data), and a slow replay never blocks other games.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
        value = compute()  # a refusal raises here and nothing is kept
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def peek(self, key: Hashable) -> Any:
        """The value kept for ``key``, or None (nothing is computed)."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


rounds = Memo(ROUNDS_KEPT)
tables = Memo(TABLES_KEPT)
games = Memo(GAMES_KEPT)
resolved = Memo(GAMES_KEPT)  # the rules of (players, rules as written), resolved


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


# What an iceberg.Round holds. A copy is made only of a round with exactly these: should
# the engine grow another, rounds are simply replayed in full.
ROUND_FIELDS = {"players", "rules", "supply", "melds", "plays", "aces", "out", "last_ace_by"}
SUPPLY_FIELDS = {"decks", "jokers", "without_ranks", "limit", "seen"}


def _copy_round(round_: iceberg.Round) -> iceberg.Round | None:
    """A copy of the table that more plays can change without touching the original.

    Plays and melds are frozen; the containers that plays change are copied (the melds on
    the table, the log, the aces, the cards seen); ``limit`` is never changed.
    """
    if set(vars(round_)) != ROUND_FIELDS or set(vars(round_.supply)) != SUPPLY_FIELDS:
        return None
    new = copy.copy(round_)
    new.supply = copy.copy(round_.supply)
    new.supply.seen = Counter(round_.supply.seen)
    new.melds = [copy.copy(m) for m in round_.melds]
    new.plays = list(round_.plays)
    new.aces = {p: list(a) for p, a in round_.aces.items()}
    return new


def _events(data: Any) -> list | None:
    """A round's plays, when the round is plainly well formed (else None: replay in full)."""
    if isinstance(data, dict) and set(data) <= {"events", "hands"}:
        events = data.get("events", [])
        if isinstance(events, list):
            return events
    return None


def _table(table: str, round_no: int, events: list, key: tuple,
           private: bool) -> iceberg.Round | None:
    """The round's table after ``events`` (``key``: one key per event), from the memo: the
    table after all of them, or one built on (a copy of) a table known before them.

    A table in the memo is never changed: ``private`` asks for a copy the caller may
    change (the hands at the end of the round are taken from its decks). None when
    neither is known, or a play is refused: the round is then replayed in full, so every
    refusal says what ``gamefile.replay_iceberg`` says, with the same event number.
    """
    round_ = tables.peek((table, round_no, key))
    if round_ is None and events:
        round_ = _built_on_earlier(table, round_no, events, key)
    if round_ is not None and private:
        return _copy_round(round_)
    return round_


def _built_on_earlier(table: str, round_no: int, events: list,
                      key: tuple) -> iceberg.Round | None:
    """The table after ``events``, built on a copy of the latest table known before them.

    Usually that is the table before the last play. But the plays another process (a
    second gunicorn worker) logged never passed through this one's memo: it looks back up
    to ``LOOK_BACK`` plays for the table it last built, and applies the plays since.
    """
    for back in range(1, min(len(events), LOOK_BACK) + 1):
        before = tables.peek((table, round_no, key[:-back]))
        if before is not None:
            break
    else:
        return None
    round_ = _copy_round(before)
    if round_ is None:
        return None
    try:
        for event in events[-back:]:
            apply_event(round_, event)
    except ScorekeeperError:
        return None
    tables.put((table, round_no, key), round_)
    return round_


def _round_result(table: str, players: list[str], rules: Mapping, data: Any, round_no: int,
                  key: tuple | None) -> iceberg.RoundResult:
    """``replay_iceberg``'s work on one round: its plays, its hands, its scores."""
    events = _events(data)
    with_hands = isinstance(data, dict) and "hands" in data
    round_ = _table(table, round_no, events, key, with_hands) if events is not None else None
    if round_ is not None:
        hands = read_hands(round_, data["hands"], round_no) if with_hands else None
    else:
        round_, hands = replay_round(iceberg.Round(players, rules), data, round_no)
        if events is not None and hands is None:  # a table to build the next play on
            tables.put((table, round_no, key), round_)
    try:
        return iceberg.score_round(round_, hands)
    except ScorekeeperError as e:
        raise _located(e, round_no) from None


def _replay(doc: Mapping, event_keys: list | None) -> iceberg.GameResult:
    """``gamefile.replay_iceberg``, step for step, with rounds taken from the memos."""
    players = _check_players(doc, iceberg.MIN_PLAYERS, iceberg.MAX_PLAYERS, iceberg.NAME)
    _no_teams(doc, iceberg.NAME)
    table = _key([players, doc.get("rules")])  # the rules follow from these two
    rules = resolved.get(table, lambda: _rules(iceberg, doc, players))
    rounds_ = _rounds(doc)
    results = []
    over = False
    running = dict.fromkeys(players, 0)  # iceberg.total_scores of the rounds so far
    for round_no, data in enumerate(rounds_, 1):
        _check_not_over(round_no, over)
        events = _events(data)
        key = None
        if events is not None:
            key = event_keys[round_no - 1] if event_keys else tuple(map(_key, events))
        if isinstance(data, dict) and "hands" in data:  # counted, or being counted
            memo_key = (table, round_no, key if key is not None else _key(data),
                        _key(data["hands"]))
            result = rounds.get(memo_key, lambda: _round_result(table, players, rules, data,
                                                                round_no, key))
        else:  # the round being played: built on the table as its last play left it
            result = _round_result(table, players, rules, data, round_no, key)
        _check_finished(round_no, rounds_, result.finished)
        results.append(result)
        if result.finished:
            for player, score in result.scores.items():
                running[player] = running.get(player, 0) + score
            over = iceberg.game_state(players, rules, {p: running[p] for p in players})[0]
    totals = iceberg.total_scores(players, results)
    over, winners, tied = iceberg.game_state(players, rules, totals)
    return iceberg.GameResult(players, rules, results, totals, winners, over, tied)


def replay_iceberg(doc: Mapping, event_keys: list | None = None) -> iceberg.GameResult:
    """What ``gamefile.replay_iceberg(doc)`` returns (or raises), round by round from the memos.

    ``doc`` must be JSON data (a game document, as ``store.document`` builds it).
    ``event_keys``: for each round, a tuple with one hashable per event that stands for
    that event's content (equal keys, equal events), so the memos need not serialise the
    rounds; by default each event's JSON.
    """
    return _replay(doc, event_keys)
