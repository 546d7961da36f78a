"""A game's files to download, every family's: the game file (docs/game-file.md) and the
score sheet (CSV).
"""
from __future__ import annotations

import json

from flask import Response

from ...storage import games, kernel, transfer
from ..database import get_db
from ..words import page_text


def export_file(game_id: int) -> Response:
    """The game file (docs/game-file.md), every game's: ``scorekeeper score`` recomputes every
    score from it."""
    db = get_db()
    variant = kernel.header(db, game_id)["variant"]
    body = json.dumps(games.export_document(db, game_id), indent=2, ensure_ascii=False)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{variant.key}-game-{game_id}.json"'})


def sheet_response(variant, game_id: int, body: str) -> Response:
    """A score sheet (CSV) as a download; with a byte order mark, a spreadsheet opens
    names like Zoë as UTF-8."""
    return Response("\ufeff" + body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{variant.key}-game-{game_id}-scores.csv"'})


def log_sheet(state) -> Response:
    """The score sheet of a game of logged rounds: a row per counted round (its dealer), a
    column per player, then the totals."""
    game = games.stored(get_db(), state.log.id)
    rows = [(n, state.dealer(n), r.scores) for n, r in enumerate(game.rounds, 1)]
    head = (page_text("Hand") if state.variant.round_word == "hand" else page_text("Round"), page_text("Dealer"))
    body = transfer.sheet_csv(head, state.players, rows, game.totals, page_text("Total"))
    return sheet_response(state.variant, state.log.id, body)
