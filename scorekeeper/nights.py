"""Club night: several tables in one evening, one standings board (pure: no Flask, no
database, like stats.py).

A night is what a group plays in one evening: tables, each a game of any variant, in
rounds of tables (players move between tables from one round of tables to the next).
What this module decides is the evening's own rules, not a game's:

- **where each player finished at a table**, once its game is over (:func:`finishing_order`):
  the game's winners first, then the others by their totals as the game ranks them (the
  lowest first where the lowest total wins); equal totals share a place;
- **the standings** (:func:`standings`), by the rule the night was opened with:
  :data:`PLACES`, placing points per finished game (3/2/1/0 by place unless the night
  says otherwise; players tied for a place share the points of the places they fill), or
  :data:`SCORES`, the sum of each player's totals over the night's games, in progress
  ones too (a night of one variant only: totals of two games are comparable only then).
  Players with the same points share a rank, told as a tie; every figure keeps the
  table it came from (:class:`Result`);
- **the seats for the next round of tables** (:func:`suggest`): tables as even as the
  players allow, each player put where they meet the fewest people they already met
  tonight. Tables of the round already started stay as they are, and the rest of the
  suggestion does not move when one is started as suggested.

An abandoned game counts for nothing; a player who left early keeps what they earned.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import TypeVar

from .stats import GameRecord

PLACES, SCORES = "places", "scores"
RULES = (PLACES, SCORES)
DEFAULT_PLACES = (3, 2, 1, 0)
MOST_PLACES = 8  # a table seats at most 8 (Rummy 500 with two decks): points for 8 places
MOST_POINTS = 100  # the points of one place

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Table:
    """One table of the night: its game (``record``; None where it could not be read) in
    round of tables ``round``, the ``number``-th table started in that round."""

    game_id: int
    round: int
    number: int
    record: GameRecord | None
    abandoned: bool = False

    @property
    def over(self) -> bool:
        return self.record is not None and self.record.over


@dataclass(frozen=True)
class Result:
    """A player's figures from one table: their place (None while the game goes on) among
    ``tied`` players sharing it, the points it earned tonight, their total in the game."""

    table: Table
    name: str  # their name in that game
    place: int | None
    tied: int
    points: Fraction
    total: int
    won: bool


@dataclass
class Standing:
    """A player's line of the standings."""

    player: Hashable
    name: str
    left: bool = False
    rank: int = 0
    tied: bool = False  # another player has the same points
    games: int = 0  # finished games played tonight
    won: int = 0
    points: Fraction = Fraction(0)
    results: list[Result] = field(default_factory=list)
    playing: bool = False  # at a table whose game goes on


def finishing_order(record: GameRecord) -> list[list[str]]:
    """A finished game's players by where they finished: groups of names, the first
    place's first (the winners), each group one place shared."""
    winners = [p for p in record.players if p in record.winners]
    rest = [p for p in record.players if p not in record.winners]
    by_total: dict[int, list[str]] = {}
    for p in rest:
        by_total.setdefault(record.totals[p], []).append(p)
    order = sorted(by_total, reverse=not record.low_wins)
    return ([winners] if winners else []) + [by_total[t] for t in order]


def placing_points(record: GameRecord, points: Sequence[int]) -> dict[str, tuple[int, int, Fraction]]:
    """Each player's (place, players sharing it, points) in a finished game: the players
    tied for a place share the points of the places they fill (two tied for first with
    3/2/1/0 get 2½ each); a place past the list earns nothing."""
    found: dict[str, tuple[int, int, Fraction]] = {}
    filled = 0
    for group in finishing_order(record):
        share = Fraction(sum(points[i] for i in range(filled, filled + len(group)) if i < len(points)),
                         len(group))
        for name in group:
            found[name] = (filled + 1, len(group), share)
        filled += len(group)
    return found


def standings(tables: Iterable[Table], rule: str, points: Sequence[int],
              present: Mapping[K, tuple[str, bool]], *, low_wins: bool = False) -> list[Standing]:
    """The night's standings, best first. ``present``: the night's players (key → name,
    left early), each listed even with nothing earned yet; anyone who sat at a table is
    listed too. ``low_wins``: under :data:`SCORES`, the night's variant ranks the lowest
    sum first."""
    lines: dict[Hashable, Standing] = {key: Standing(key, name, left) for key, (name, left) in present.items()}
    for table in tables:
        record = table.record
        if record is None or table.abandoned:
            continue
        places = placing_points(record, points) if record.over else {}
        for name in record.players:
            key = record.key(name)
            line = lines.setdefault(key, Standing(key, name))
            place, tied, earned = places.get(name, (None, 0, Fraction(0)))
            total = record.totals[name]
            won = record.over and name in record.winners
            if rule == SCORES:
                earned = Fraction(total)
            line.results.append(Result(table, name, place, tied, earned, total, won))
            if record.over:
                line.games += 1
                line.won += won
            else:
                line.playing = True
            if record.over or rule == SCORES:
                line.points += earned
    by = {key: _standing(line, rule, low_wins) for key, line in lines.items()}
    ranked = sorted(lines.values(), key=lambda s: (by[s.player], s.name.casefold()))
    counts = Counter(by.values())
    for i, line in enumerate(ranked):
        same = i and by[ranked[i - 1].player] == by[line.player]
        line.rank = ranked[i - 1].rank if same else i + 1
        line.tied = counts[by[line.player]] > 1
    return ranked


def _standing(line: Standing, rule: str, low_wins: bool) -> tuple[int, Fraction]:
    """What ranks a line, the best the smallest: the most points; under :data:`SCORES`
    where the lowest total wins, the most tables sat at first (a sum of penalties is
    smaller for who played less: one who has not played yet is not first), then the
    lowest sum."""
    if rule == SCORES and low_wins:
        return -len(line.results), line.points
    return 0, -line.points


def table_sizes(players: int, size: int, tables: int | None = None) -> list[int]:
    """How many sit at each table: ``players`` at ``tables`` tables (by default as few as
    seat everyone at most ``size`` a table), as even as they can be, the larger first."""
    if players <= 0:
        return []
    count = tables if tables else -(-players // size)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def suggest(waiting: Sequence[K], size: int, earlier: Iterable[Sequence[K]],
            started: Sequence[Sequence[K]] = (), least: int = 1, order: Sequence[K] = ()) -> list[list[K]]:
    """The tables still to start in this round of tables, for the players ``waiting`` (in
    the order the night lists them), at most ``size`` a table and none with fewer than
    ``least`` (the game's fewest: then fewer tables, and whoever has no seat waits for the
    next one), so that the people at each table met as few times tonight as can be found
    (``earlier``: the tables of the rounds before).

    The suggestion is made for the whole round, its tables already started (``started``)
    and its players still waiting alike; where each started table is one of its tables,
    the others are what is left to start, so starting a table as suggested moves no other
    seat. A table started otherwise stays as it is, and the rest is made around it.
    ``order``: the night's players in its order, which the whole round is taken in (by
    default the waiting players' order, the started tables' players after them)."""
    before = [list(t) for t in earlier]
    listed: dict[K, int] = {}
    for p in list(order) + list(waiting):
        listed.setdefault(p, len(listed))
    everyone = sorted([p for t in started for p in t] + list(waiting), key=lambda p: listed.get(p, len(listed)))
    whole = _seat(everyone, size, least, before, [])
    if all(any(set(t) == set(w) for w in whole) for t in started):
        return [w for w in whole if not any(set(t) == set(w) for t in started)]
    return _seat(list(waiting), size, least, before, [list(t) for t in started])


def _seat(players: list[K], size: int, least: int, earlier: list[list[K]], fixed: list[list[K]]) -> list[list[K]]:
    """Tables for ``players`` besides the ``fixed`` ones: placed one by one (those who met
    the most people first, each where they meet the fewest they met, else at the emptiest
    table, else the first), then two players of two tables swapped wherever that lowers the
    meetings, pass after pass until no swap does (in order: the same answer every time)."""
    met: Counter[frozenset[K]] = Counter()
    for table in earlier:
        met.update(frozenset(pair) for pair in combinations(set(table), 2))
    meetings: Counter[K] = Counter()
    for pair, n in met.items():
        for p in pair:
            meetings[p] += n
    whole = table_sizes(len(players) + sum(len(t) for t in fixed), size)
    count = min(max(len(whole) - len(fixed), -(-len(players) // size)), len(players) // max(least, 1))
    if count <= 0:
        return []
    seats = table_sizes(min(len(players), count * size), size, count)
    tables: list[list[K]] = [[] for _ in seats]

    def cost(player: K, table: list[K]) -> int:
        return sum(met[frozenset((player, q))] for q in table if q != player)

    for player in sorted(players, key=lambda p: -meetings[p]):  # a stable sort: the night's order next
        room = [i for i, table in enumerate(tables) if len(table) < seats[i]]
        if not room:  # every seat taken: waits for the next table
            break
        best = min(room, key=lambda i: (cost(player, tables[i]), len(tables[i]), i))
        tables[best].append(player)
    improved = True
    while improved:  # each swap lowers the meetings, a whole number: it ends
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for a in list(tables[i]):
                for b in list(tables[j]):
                    rest_i = [q for q in tables[i] if q != a]
                    rest_j = [q for q in tables[j] if q != b]
                    if cost(b, rest_i) + cost(a, rest_j) < cost(a, rest_i) + cost(b, rest_j):
                        tables[i], tables[j] = rest_i + [b], rest_j + [a]
                        improved = True
                        break  # ``a`` sits at table j now: the next player of table i
    return [t for t in tables if t]
