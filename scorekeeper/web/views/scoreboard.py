"""The scoreboard: a read-only screen for the middle of the table (a tablet, a TV).

``/g/<key>/board`` shows a game's totals per player (the leader marked), the round's
running scores, whose turn it is and who dealt, the last play as the table's log says
it, and how the round or the game ended — in type read from two metres, in landscape
and portrait, with no control that changes anything (by the edit link too).

Each family of pages says what its board shows (:func:`register`: its game as its
pages read it, and a :class:`Board` drawn from it): the board reads what the family
already computes and knows no rule. It is live: its script (static/board.js) listens to
the game's stream of changes (web/live.py, ``/g/<key>/events``) and, when the version
moves, asks the board again (``?since=<version>``: 204 while nothing changed) and
replaces it; where no stream is held it asks every second. Without the script the page
reloads itself every few seconds.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, render_template, request
from markupsafe import Markup

from ...games.words import SayN
from ...storage import kernel
from ..database import get_db
from . import families, helpers

bp = Blueprint("board", __name__, url_prefix="/g/<game_key>")


@dataclass
class Board:
    """What a family's board shows of its game (``game``: the scored game, its players,
    rules, totals and winners)."""

    variant: Any
    game: Any
    version: int
    round_no: int
    round_label: Any = None  # the round column's heading ("Round 2"); None: no round column
    round_scores: Mapping[str, int] | None = None  # the round's running scores
    turn: str | None = None
    dealer: str | None = None
    last: Markup | None = None  # the last play, drawn as the table's log draws it (an <li>)
    last_kind: str = "play"  # what ``last`` is: "play", or "round" (the last round recorded)
    status: list = field(default_factory=list)  # sentences: the round's end, a tie, the game
    out: tuple[str, ...] = ()  # the players out of the game (Kalooki: eliminated)
    notes: Mapping[str, Markup] = field(default_factory=dict)  # drawn beside a player's name (their aces)


@dataclass
class Seat:
    """A player's row of the board."""

    name: str
    total: int
    round: int | None
    turn: bool
    leads: bool
    out: bool = False
    note: Markup | None = None


def seats(board: Board) -> list[Seat]:
    """The players in seating order, each with their totals, whose turn it is, who leads
    (who won, once the game is over) and who is out of the game."""
    game = board.game
    top = set(game.winners or helpers.leaders(board.variant, game))
    scores = board.round_scores
    return [Seat(p, game.totals[p], scores.get(p) if scores is not None else None, p == board.turn, p in top,
                 p in board.out, board.notes.get(p)) for p in game.players]


def game_over(board: Board):
    """Who won, in a sentence (None while the game goes on)."""
    winners = board.game.winners
    if not winners:
        return None
    return SayN("%(players)s wins the game with %(total)s.", "%(players)s win the game with %(total)s.",
                len(winners), players=helpers.names_and(winners),
                total=helpers.score_filter(board.game.totals[winners[0]]))


@bp.route("/board")
def show(game_id: int):
    """The board; 204 when asked ``?since=<version>`` while the game is still at it."""
    db = get_db()
    header = kernel.header(db, game_id)
    if request.args.get("since") == str(header["version"]):
        return "", 204
    family = families.FAMILIES[header["variant"].screens]
    board = family.board(family.load(game_id))
    over = game_over(board)
    return render_template("board.html", board=board, game_id=game_id, seats=seats(board),
                           status=([over] if over else []) + list(board.status),
                           game_page=families.page_url(board.variant, "game", game_id))
