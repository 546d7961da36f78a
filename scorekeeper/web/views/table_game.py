"""The game page of a table of aces and melds (Iceberg, Rummy 500): the game's summary, a
round's detail (the dispute view), its game file and score sheet; and how the family's
pages read a game and which of its screens it is at.

This module, views/table.py (the table) and views/round_end.py (the hands counted) are one
family of pages (table.py's ``FAMILY``); a page asked for on a game another family shows
leads to that family's page for the same part (views/helpers.py, ``other_family``).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, render_template, url_for

from ...gamefile import RoundRecord
from ...games import iceberg
from ...storage import kernel, logs, results
from ...storage.kernel import NotFound
from .. import links
from ..chart import chart
from ..database import get_db
from ..words import page_text
from . import helpers
from .files import export_file, log_sheet

bp = Blueprint("table_game", __name__, url_prefix="/g/<game_key>")

SCREENS = "table"  # the family of pages this module draws, with table.py and round_end.py
bp.before_request(helpers.own_games(SCREENS))


def load_state(game_id: int, round_no: int | None = None):
    """The game as these pages read it: the round being played, or round ``round_no``."""
    return helpers.load_state(game_id, SCREENS, round_no)


def table_round(state: logs.LogState) -> iceberg.MeldRound[Any]:
    """The round's table as Iceberg's rules keep it (Rummy 500's, with its own melds, is
    one): what each player has earned, who put the last ace face up (the game contract's
    round says none of it: these pages ask the game's own classes)."""
    round_ = state.round
    assert isinstance(round_, iceberg.MeldRound)  # these pages show Iceberg's and Rummy 500's rounds
    return round_


def screen(state: logs.LogState) -> str:
    """Which screen the game is at: play, ending (the last ace's turn), end (count the
    hands) or over. A phone whose page shows another screen moves on (app.js)."""
    if state.over:
        return "over"
    if state.ending:
        return "ending"
    return "end" if state.ended else "play"


def screen_url(state: logs.LogState) -> str:
    game_id = state.log.id
    return {
        "over": url_for("table_game.summary", game_id=game_id),
        "end": url_for("round_end.show", game_id=game_id),
    }.get(screen(state), url_for("table.show", game_id=game_id))


def player_breakdown(state) -> list[dict]:
    """Per player, over the finished rounds (their figures as the kept standing adds them
    up): earned, cards in hand, playable, aces, what the aces did, the total."""
    rows = []
    for player in state.players:
        mine = state.after.figures.get(player, {})
        rows.append({"player": player, "earned": mine.get("earned", 0), "cards": mine.get("card_penalty", 0),
                     "playable": mine.get("playable_penalty", 0), "aces": mine.get("aces", 0),
                     "aces_effect": mine.get("aces_effect", 0), "total": state.result.totals[player]})
    return rows


def rounds_listed(state, finished: list[dict[str, int]]) -> Sequence[tuple[int, object]]:
    """The rounds a game page lists (helpers.rounds_shown: the latest, or all): (number,
    the finished round's kept scores, as a record), then the round being played, its
    result so far, if it has begun. ``finished``: every finished round's scores."""
    playing = state.being_played and bool(state.rows())
    first = helpers.rounds_shown(len(finished) + playing)
    listed = [(n, RoundRecord(scores, "")) for n, scores in enumerate(finished[first - 1:], first)]
    if playing:
        listed.append((state.round_no, state.round_result(state.round_no)))
    return listed


@bp.route("")
def summary(game_id: int):
    """A game's page: status, the latest rounds (all on asking), per-player breakdown over
    every round, running totals."""
    state = load_state(game_id)
    finished = results.scores(get_db(), game_id)
    drawn = chart(state.players, finished, state.rules["target"])
    return render_template(
        "summary.html", state=state, game_id=game_id, chart=drawn,
        rounds=rounds_listed(state, finished),
        breakdown=player_breakdown(state),
        share=links.share(game_id, *kernel.secrets_of(get_db(), game_id)),
    )


@bp.route("/rounds/<id:round_no>")
def round_detail(game_id: int, round_no: int):
    """One round's plays and each player's score, with the reasons: the dispute view."""
    try:
        state = load_state(game_id, round_no)
    except NotFound:
        state = None
    if state is None or not state.begun:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("Round %(n)s has not been played yet.", n=round_no)), 404
    return render_template("round.html", state=state, game_id=game_id, round_no=round_no,
                           result=state.round_result(round_no))


@bp.route("/export")
def export(game_id: int) -> Response:
    load_state(game_id)  # another family's game: its own page
    return export_file(game_id)


@bp.route("/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per counted round, a column per player, then the totals."""
    return log_sheet(load_state(game_id))
