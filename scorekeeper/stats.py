"""Statistics of players over many games, computed from the games' own replays.

Pure (no Flask, no database): each game comes as a :class:`GameRecord`, its finished
rounds as their kept results have them (storage/results.py, derived from the same replay
as its pages and ``scorekeeper score``: :func:`scorekeeper.gamefile.replay`'s rounds do
as well), and every figure is derived from those.

Figures count the *counted* rounds (those whose hands were entered) and, for games
played and won, the finished games. Per game type: games played and won, win rate,
average and best round (best is the lowest in the games where the lowest total wins; a
game whose rules can turn that, Rummy's penalty scoring, has a line for each way).
Card-level records are what each game offers (its ``card_stats``, read from each round
by its ``round_facts``): the biggest meld, special melds, penalties paid for playable
cards, aces collected, steals, gins and undercuts.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .games import registry
from .games.variant import COUNTED_AS, Variant
from .games.words import Say, SayN


@dataclass(frozen=True)
class GameRecord:
    id: int
    variant: Variant
    date: str  # YYYY-MM-DD
    game: Any  # its replay: gamefile.LogGame or gamefile.CountGame
    who: Mapping[str, Hashable] = field(default_factory=dict)  # name in the game → player key

    @property
    def players(self) -> list[str]:
        return list(self.game.players)

    @property
    def over(self) -> bool:
        return bool(self.game.winners)

    @property
    def totals(self) -> Mapping[str, int]:
        return self.game.totals

    @property
    def winners(self) -> list[str]:
        return self.game.winners

    @property
    def score(self) -> dict:
        """What ``scorekeeper score`` says of the game."""
        return self.game.as_json()

    def key(self, name: str) -> Hashable:
        return self.who.get(name, name)

    def name_of(self, key: Hashable) -> str | None:
        return next((p for p in self.players if self.key(p) == key), None)

    @property
    def low_wins(self) -> bool:
        return self.variant.lowest_total_wins(self.game.rules)

    def counted(self) -> list[tuple[int, Any]]:
        """(round number, round) of the counted rounds."""
        return [(n, r) for n, r in enumerate(self.game.rounds, 1) if r.finished]


def low_wins(key: str, rules: Mapping) -> bool:
    """Whether the lowest total wins the game ``key`` is (its module says, by its rules)."""
    variant = registry.get(key)
    assert variant is not None  # a game that is kept: its key is the registry's
    return variant.lowest_total_wins(rules)


def variant_name(key: str) -> Say | str:
    """The game's name (a sentence, words.Say); a key no game has, as it is."""
    v = registry.get(key)
    return v.name if v else key


@dataclass(frozen=True)
class Meld:
    points: int
    cards: tuple[str, ...]
    game: int
    variant: str
    date: str
    round_no: int
    title: str | None = None  # a special meld's name (Iceberg): "odds in one suit …"


@dataclass
class Facts:
    """One player in one game."""

    rounds: list[int] = field(default_factory=list)  # their score in each counted round
    total: int = 0
    won: bool = False
    over: bool = False
    melds: list[Meld] = field(default_factory=list)
    playable_penalty: int = 0
    aces: int = 0
    steals: int = 0
    gins: int = 0
    undercuts: int = 0

    @property
    def specials(self) -> list[Meld]:
        return [m for m in self.melds if m.title]


def facts(record: GameRecord) -> dict[str, Facts]:
    """Each player's figures in one game, by their name in that game."""
    over = record.over
    result = {
        # A stalemate counts no hand: it is no round of the averages (its 0 is no score).
        p: Facts(rounds=[rnd.scores[p] for _n, rnd in record.counted() if not getattr(rnd, "stalemate", False)],
                 total=record.totals[p], won=p in record.winners, over=over)
        for p in record.players
    }
    for round_no, rnd in record.counted():
        for player, found in round_facts(record.variant, rnd).items():
            mine = result[player]
            for name, value in found.items():
                if name == "melds":
                    mine.melds += [Meld(points, tuple(cards), record.id, record.variant.key, record.date,
                                        round_no, title)
                                   for points, cards, title in value]
                else:
                    setattr(mine, name, getattr(mine, name) + value)
    return result


def round_facts(variant: Variant, rnd: Any) -> Mapping[str, Mapping[str, Any]]:
    """A counted round's card-level records: as kept with its results (gamefile.RoundRecord),
    or read from its replay by the game's ``round_facts``."""
    kept = getattr(rnd, "facts", None)
    if kept is not None:
        return kept
    return variant.round_facts(rnd) if variant.round_facts is not None else {}


# ---------------------------------------------------------------------------------------
# One player over many games.


@dataclass
class Line:
    """A player's figures in one game type (or all of them: ``variant`` None)."""

    variant: str | None
    name: Say  # the game's name (and its way of winning, if played both ways), or "All games"
    played: int = 0  # finished games
    won: int = 0
    unfinished: int = 0
    rounds: list[int] = field(default_factory=list)
    low_wins: bool = False

    @property
    def win_rate(self) -> int | None:
        """Per cent of the finished games won, rounded (None before any)."""
        return round(100 * self.won / self.played) if self.played else None

    @property
    def average_round(self) -> float | None:
        return round(sum(self.rounds) / len(self.rounds), 1) if self.rounds else None

    @property
    def best_round(self) -> int | None:
        if not self.rounds:
            return None
        return min(self.rounds) if self.low_wins else max(self.rounds)


@dataclass(frozen=True)
class Result:
    """One finished game, for the chart of results over time."""

    game: int
    variant: str
    date: str
    won: bool
    total: int
    wins_so_far: int
    games_so_far: int

    @property
    def rate(self) -> int:
        return round(100 * self.wins_so_far / self.games_so_far)


@dataclass
class PlayerStats:
    lines: list[Line]  # one per game type played, in the registry's order
    overall: Line
    biggest_meld: Meld | None
    specials: list[Meld]  # those with a title
    playable_penalty: int
    aces: int
    steals: int
    gins: int
    undercuts: int
    results: list[Result]  # finished games, oldest first
    games: list[tuple[GameRecord, Facts]]  # every game they played, newest first
    card_level: set[str]  # the card-level records of the game types they played


def player_stats(key: Hashable, records: Iterable[GameRecord]) -> PlayerStats:
    """The figures of the player ``key`` (a player id, or a name) over these games."""
    lines: dict[tuple[str, bool], Line] = {}  # by game and way of winning (rules can turn Rummy's)
    overall = Line(None, Say("All games"))
    mine: list[tuple[GameRecord, Facts]] = []
    for record in sorted(records, key=lambda r: (r.date, r.id)):
        name = record.name_of(key)
        if name is None:
            continue
        f = facts(record)[name]
        mine.append((record, f))
        kind = record.variant.key
        line = lines.setdefault((kind, record.low_wins), Line(kind, record.variant.name, low_wins=record.low_wins))
        line.rounds += f.rounds
        for each in (line, overall):
            if f.over:
                each.played += 1
                each.won += f.won
            else:
                each.unfinished += 1
    melds = [m for _r, f in mine for m in f.melds]
    results: list[Result] = []
    wins = 0
    for record, f in mine:
        if f.over:
            wins += f.won
            results.append(Result(record.id, record.variant.key, record.date, f.won, f.total, wins,
                                  len(results) + 1))
    for (kind, low), line in lines.items():  # a game played both ways: its two lines told apart
        if low and (kind, False) in lines:
            line.name = Say("%(game)s, lowest total wins", game=line.name)
    order = list(registry.VARIANTS)
    return PlayerStats(
        lines=sorted(lines.values(), key=lambda line: (order.index(line.variant) if line.variant in order else 99,
                                                       line.low_wins)),
        overall=overall,
        biggest_meld=max(melds, key=lambda m: (m.points, -m.game, -m.round_no)) if melds else None,
        specials=[s for _r, f in mine for s in f.specials],
        playable_penalty=sum(f.playable_penalty for _r, f in mine),
        aces=sum(f.aces for _r, f in mine),
        steals=sum(f.steals for _r, f in mine),
        gins=sum(f.gins for _r, f in mine),
        undercuts=sum(f.undercuts for _r, f in mine),
        results=results,
        games=list(reversed(mine)),
        card_level={stat for r, _f in mine for stat in r.variant.card_stats},
    )


# ---------------------------------------------------------------------------------------
# Head to head.


@dataclass
class Duel:
    """Row player against column player, over the finished games both played."""

    won: int = 0  # the row player finished ahead
    lost: int = 0
    tied: int = 0

    @property
    def games(self) -> int:
        return self.won + self.lost + self.tied


def ahead(record: GameRecord, a: str, b: str) -> int:
    """1 if ``a`` finished ahead of ``b`` in this finished game, -1 if behind, 0 if level.

    A winner is ahead of a player who did not win; otherwise the better total is ahead
    (the lower one in the games where the lowest total wins)."""
    winners = record.winners
    if (a in winners) != (b in winners):
        return 1 if a in winners else -1
    ta, tb = record.totals[a], record.totals[b]
    if ta == tb:
        return 0
    return 1 if (ta < tb) == record.low_wins else -1


def head_to_head(keys: list[Hashable], records: Iterable[GameRecord]) -> dict[tuple, Duel]:
    """(row key, column key) → Duel, for every ordered pair of different players."""
    table = {(a, b): Duel() for a in keys for b in keys if a != b}
    for record in records:
        if not record.over:
            continue
        names = {k: name for k in keys if (name := record.name_of(k)) is not None}
        present = [k for k in keys if k in names]
        for a in present:
            for b in present:
                if a == b:
                    continue
                outcome = ahead(record, names[a], names[b])
                duel = table[(a, b)]
                if outcome > 0:
                    duel.won += 1
                elif outcome < 0:
                    duel.lost += 1
                else:
                    duel.tied += 1
    return table


def highlights(facts_by_name: Mapping[str, Facts]) -> list[tuple[str, list[Say]]]:
    """One game's card-level records, each a sentence, per player who has any (the score
    sheet): "biggest meld 700", "1 special meld", "2 melds stolen"."""
    notes = []
    for player, f in facts_by_name.items():
        bits: list[Say] = []
        if f.melds:
            bits.append(Say("biggest meld %(points)s", points=max(m.points for m in f.melds)))
        if f.specials:
            bits.append(COUNTED_AS["specials"](len(f.specials)))
        if f.aces:
            bits.append(COUNTED_AS["aces"](f.aces))
        if f.playable_penalty:
            bits.append(Say("%(points)s paid for playable cards", points=f.playable_penalty))
        if f.steals:
            bits.append(SayN("%(num)s meld stolen", "%(num)s melds stolen", f.steals))
        for record in ("gins", "undercuts"):
            if getattr(f, record):
                bits.append(COUNTED_AS[record](getattr(f, record)))
        if bits:
            notes.append((player, bits))
    return notes
