"""The running-totals chart on a game's page, as plain geometry for an inline SVG.

Drawn on the server (no script, no external library): one line per player over the
rounds, the target as a dashed line, zero marked. Each line also has its own dash
pattern and end label, so it reads without telling colours apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

WIDTH, HEIGHT = 320, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 56, 12, 24
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True)
class Line:
    player: str
    points: str  # SVG polyline points
    dash: str
    index: int  # colour class
    end_x: float
    end_y: float
    total: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    ticks: tuple[tuple[float, int], ...]  # (y, value)
    rounds: tuple[tuple[float, int], ...]  # (x, round number)
    zero_y: float | None
    target_y: float | None
    target: int
    plot: tuple[float, float, float, float]  # left, top, right, bottom


def _nice_step(span: float) -> int:
    raw = max(span / 4, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def running_totals(players: list[str], round_scores: list[dict[str, int]]) -> dict[str, list[int]]:
    return {p: list(accumulate((scores.get(p, 0) for scores in round_scores), initial=0)) for p in players}


def chart(players: list[str], round_scores: list[dict[str, int]], target: int) -> Chart:
    """The chart for these finished rounds' scores (a game with none draws empty axes)."""
    totals = running_totals(players, round_scores)
    values = [v for series in totals.values() for v in series]
    low, high = min(values + [0]), max(values + [0])
    show_target = high >= target * 0.6
    if show_target:
        high = max(high, target)
    if high == low:
        high = low + 100
    step = _nice_step(high - low)
    low = (low // step) * step
    high = -((-high) // step) * step
    rounds = max(len(round_scores), 1)
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM

    def x(i: int) -> float:
        return round(left + (right - left) * i / rounds, 1)

    scale = (bottom - top) / (high - low)

    def y(v: float) -> float:
        return round(bottom - scale * (v - low), 1)

    lines = []
    # A line's points: each round's x (the same for every line), its total's y to the
    # whole pixel (the chart is 200 high): a long game's page draws hundreds of them.
    xs = [f"{x(i)}," for i in range(len(round_scores) + 1)]
    for index, player in enumerate(players):
        series = totals[player]
        points = " ".join([at + str(round(bottom - scale * (v - low))) for at, v in zip(xs, series)])
        lines.append(Line(player, points, DASHES[index % len(DASHES)], index % 6,
                          x(len(series) - 1), y(series[-1]), series[-1]))
    ticks = tuple((y(v), v) for v in range(int(low), int(high) + 1, int(step)))
    every = max(1, -(-len(round_scores) // 8))  # at most about eight round labels
    round_marks = tuple((x(i), i) for i in range(0, len(round_scores) + 1, every))
    return Chart(
        WIDTH, HEIGHT, tuple(lines), ticks, round_marks,
        y(0) if low < 0 < high else None,
        y(target) if show_target else None, target, (left, top, right, bottom),
    )


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    won: bool
    label: str  # what the mark's tooltip and the table say


@dataclass(frozen=True)
class Timeline:
    """A player's finished games over time: their win rate so far after each, one mark
    per game (filled: won, hollow: lost). Same frame as :class:`Chart`."""

    width: int
    height: int
    points: str  # SVG polyline of the win rate so far
    marks: tuple[Mark, ...]
    ticks: tuple[tuple[float, int], ...]  # (y, per cent)
    dates: tuple[tuple[float, str], ...]  # (x, date) of the first and last game
    plot: tuple[float, float, float, float]


def timeline(results: list[tuple[str, bool, int, str]]) -> Timeline:
    """``results``: (date, won, win rate so far in per cent, label) per game, oldest first."""
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT / 2, HEIGHT - BOTTOM
    n = len(results)

    def x(i: int) -> float:
        return round(left + (right - left) * (i + 0.5) / max(n, 1), 1)

    def y(rate: float) -> float:
        return round(bottom - (bottom - top) * rate / 100, 1)

    marks = tuple(Mark(x(i), y(rate), won, label) for i, (_d, won, rate, label) in enumerate(results))
    dates = ((x(0), results[0][0]),) + (((x(n - 1), results[-1][0]),) if n > 1 else ()) if n else ()
    return Timeline(WIDTH, HEIGHT, " ".join(f"{m.x},{m.y}" for m in marks), marks,
                    tuple((y(v), v) for v in (0, 25, 50, 75, 100)), dates, (left, top, right, bottom))
