"""The running-totals chart on a game's page, as plain geometry for an inline SVG.

Drawn on the server (no script, no external library): one line per player over the
rounds, the target (or the limit above which a player is eliminated) as a dashed line,
zero marked. Each line also has its own dash pattern and end label, so it reads without
telling colours apart; end labels are moved apart where two lines end close together.
The dashed line's label is put where no player's line runs through it (pages.css also
gives it a halo of the page's colour, for a chart with no such place).

Its text is ``FONT`` units high (pages.css): the chart is 320 units wide and as wide as the
page, about 336 px on a phone 360 px wide, so its text is drawn at 12 px or more there.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from ..games.words import Say
from .words import said

WIDTH, HEIGHT = 320, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 76, 18, 24
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
FONT = 12  # the height of the chart's text, in its units (pages.css: .chart[data-chart] text)
ASCENT, DESCENT = 10, 3  # of a line of that text, from its baseline
EM = 0.62 * FONT  # a character's width, at most (for placing a label; a generous guess)
NAME_CHARS = 8  # an end label's characters at most, "…" included (the description names everyone in full)
NAME_SPACE = RIGHT - 6  # an end label's width at most: a wider one is squeezed (textLength)
# What the dashed line is, and its label: the total that ends the game, or the total above
# which a player is out of it (Kalooki).
LIMITS = {
    "target": lambda n: Say("target %(target)s", target=n),
    "elimination": lambda n: Say("eliminated above %(limit)s", limit=n),
}


@dataclass(frozen=True)
class Line:
    player: str
    points: str  # SVG polyline points
    dash: str
    index: int  # colour class
    end_x: float
    end_y: float
    total: int
    label_y: float = 0.0  # the end label's middle: end_y, or moved off another line's label
    name: str = ""  # the end label: the player's name, cut short to NAME_CHARS
    squeeze: int = 0  # the end label's width where it would not fit the margin (else 0)


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
    limit: str = "target"  # what the dashed line is (LIMITS)
    label: str = ""  # its label, in the page's words
    label_at: tuple[float, float, str] = (0.0, 0.0, "end")  # the label's x, baseline, text-anchor
    hands: bool = False  # its rounds are hands (Robber's): its words say so


def _nice_step(span: float) -> int:
    raw = max(span / 4, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def running_totals(players: list[str], round_scores: Sequence[Mapping[str, int]]) -> dict[str, list[int]]:
    return {p: list(accumulate((scores.get(p, 0) for scores in round_scores), initial=0)) for p in players}


def _crosses(segment: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    """Whether a line segment (x1, y1, x2, y2) runs through a box (x0, y0, x1, y1)
    (Liang–Barsky: the segment clipped to the box leaves something)."""
    x1, y1, x2, y2 = segment
    low, high = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - box[0]), (x2 - x1, box[2] - x1), (y1 - y2, y1 - box[1]), (y2 - y1, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def place_label(width: float, y: float, plot: tuple[float, float, float, float],
                paths: Sequence[Sequence[tuple[float, float]]]) -> tuple[float, float, str]:
    """Where the dashed line's label goes (x, baseline, text-anchor): above or below the
    line at y, at the plot's right or left end or in its middle, wherever no path (a
    player's line, its points) runs through it; else where the fewest segments do."""
    left, _top, right, _bottom = plot
    middle = (left + right) / 2
    spots = []
    for baseline in (y - 4, y + 4 + ASCENT):
        for x, anchor, x0 in ((right, "end", right - width), (left + 4, "start", left + 4),
                              (middle, "middle", middle - width / 2)):
            spots.append((x, baseline, anchor, (x0 - 2, baseline - ASCENT - 1, x0 + width + 2, baseline + DESCENT + 1)))
    segments = [(a[0], a[1], b[0], b[1]) for path in paths for a, b in zip(path, path[1:])]
    segments += [(a[0], a[1], a[0], a[1]) for path in paths if len(path) == 1 for a in path]
    seen = [(x, baseline, anchor, box) for x, baseline, anchor, box in spots
            if box[1] >= 0 and box[3] <= HEIGHT and box[0] >= 0]
    best = min(seen or spots, key=lambda s: sum(_crosses(g, s[3]) for g in segments))
    return best[0], best[1], best[2]


def _name_width(text: str) -> float:
    """An end label's width (bold), a generous guess: narrow letters, wide ones, the rest."""
    ems = sum(0.4 if c in "iljtfrI.,;:!'|()" else 1.0 if c in "mwMW@%" else 0.8 if c.isupper() else 0.7
              for c in text)
    return ems * FONT


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def _apart(ys: list[float], low: float, high: float, gap: float = FONT + 1) -> list[float]:
    """End labels' middles moved apart (at least ``gap``), kept between low and high."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [ys[i] for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    moved = [0.0] * len(ys)
    for k, i in enumerate(order):
        moved[i] = round(max(placed[k], low), 1)
    return moved


def chart(players: list[str], round_scores: Sequence[Mapping[str, int]], target: int,
          limit: str = "target", round_word: str = "round") -> Chart:
    """The chart for these finished rounds' scores (a game with none draws empty axes);
    ``limit``: what ``target`` is (LIMITS); ``round_word``: what the game calls a round
    ("hand" in Robber Rummy)."""
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

    lines, paths = [], []
    # A line's points: each round's x (the same for every line), its total's y to the
    # whole pixel (the chart is 200 high): a long game's page draws hundreds of them.
    xs = [x(i) for i in range(len(round_scores) + 1)]
    for index, player in enumerate(players):
        series = totals[player]
        path = [(at, round(bottom - scale * (v - low))) for at, v in zip(xs, series)]
        paths.append(path)
        lines.append(Line(player, " ".join(f"{at},{v}" for at, v in path), DASHES[index % len(DASHES)],
                          index % 6, x(len(series) - 1), y(series[-1]), series[-1]))
    apart = _apart([line.end_y for line in lines], FONT / 2, HEIGHT - FONT / 2)
    lines = [replace(line, label_y=at, name=_short(line.player),
                     squeeze=NAME_SPACE if _name_width(_short(line.player)) > NAME_SPACE else 0)
             for line, at in zip(lines, apart)]
    ticks = tuple((y(v), v) for v in range(int(low), int(high) + 1, int(step)))
    every = max(1, -(-len(round_scores) // 8))  # at most about eight round labels
    round_marks = tuple((x(i), i) for i in range(0, len(round_scores) + 1, every))
    plot = (left, top, right, bottom)
    label, label_at = "", (0.0, 0.0, "end")
    if show_target:
        label = said(LIMITS[limit](target))
        label_at = place_label(len(label) * EM, y(target), plot, paths)
    return Chart(
        WIDTH, HEIGHT, tuple(lines), ticks, round_marks,
        y(0) if low < 0 < high else None,
        y(target) if show_target else None, target, plot, limit, label, label_at, round_word == "hand",
    )


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    won: bool
    label: Say | str  # what the mark's tooltip and the table say


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


def timeline(results: Sequence[tuple[str, bool, int, Say | str]]) -> Timeline:
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
