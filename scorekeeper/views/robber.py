"""Robber Rummy at the table: melds that change hands.

The table screen shows whose turn it is, each meld on the table with its owner's colour
chip (and team), what each side would score if the hand ended now, and the hand so far
in words ("Bob steals meld 2 from Ann"). Plays are logged with the card picker: a meld,
a lay-off (a steal when the meld is someone else's), the discard pile taken (its top
card must go into that player's next meld at once: the app refuses anything else), a
renege, going out, the stock running out, the turn passed on. At the end of a hand each
player's leftover cards are entered with the picker; every side's score is shown with
its reasons before it is confirmed. Every rule is checked by ``robber_table`` (which
scores the game file with gamefile's scoring); nothing here knows a rule.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from wtforms import IntegerField, StringField
from wtforms.validators import InputRequired, Optional

from .. import links, robber_table as rt, store
from ..chart import chart
from ..db import get_db
from ..forms import CardsField, ConfirmRoundForm, DeleteForm, HandForm, PassForm, UndoForm, WriteForm
from ..picker import grid
from ..transfer import sheet_csv
from . import helpers
from .table import ALREADY_SAVED, _status, picked_first

bp = Blueprint("robber", __name__, url_prefix="/g/<game_key>/robber")

ACTIONS = ("play", "check", "take", "renege", "out", "stock")
ENDINGS = {"out": "Went out", "stock": "Stock ran out"}  # the buttons that end the hand


class RobberPlayForm(WriteForm):
    """One play: ``action`` play (a meld, or a lay-off on the meld chosen), take (the
    discard pile: its top card picked), renege, out or stock (the last card drawn)."""

    player = StringField("Who plays", [InputRequired()])
    action = StringField("What", [InputRequired()])
    cards = CardsField("Cards")
    meld = IntegerField("Lay off on", [Optional()])


def _state(game_id: int, with_drafts: bool = False) -> rt.RobberState:
    try:
        return rt.load(get_db(), game_id, with_drafts=with_drafts)
    except store.NotFound:
        abort(404)
    except ValueError:  # another variant's game
        abort(404)
    except store.Refused as e:  # a log the rules no longer allow: say so, never a 500
        abort(Response(render_template("error.html", title="This game cannot be read",
                                       message=e.message), 500))


def screen(state: rt.RobberState) -> str:
    if state.over:
        return "over"
    return "end" if state.ended else "play"


def screen_url(state: rt.RobberState) -> str:
    game_id = state.log.id
    return {"over": url_for("robber.game", game_id=game_id),
            "end": url_for("robber.end", game_id=game_id)}.get(
        screen(state), url_for("robber.table", game_id=game_id))


def _live_scores(state: rt.RobberState) -> list[dict]:
    """Each side's score if the hand ended now, with its reasons (melds owned, renege)."""
    if state.over:
        return []
    # A hand with no play yet is not in the game file: every side has 0 so far.
    detail = (state.scored["rounds"][-1]["detail"] if state.current_in_doc
              else {p: {"story": ["no melds yet: score 0"]} for p in state.players})
    return _sides_of(state, {"scores": state.live(), "detail": detail})


def table_context(state: rt.RobberState, *, picked=None, target=None, player=None,
                  error=None, picker=True, preview=None) -> dict:
    pending = state.pending_take
    if player not in state.players:
        player = pending.player if pending is not None else state.turn
    if picked is None:
        picked = pending.cards if pending is not None and player == pending.player else ()
    return dict(
        state=state, game_id=state.log.id,
        picker=grid(store.availability(state.round), picked, aces=True) if picker and not state.over else None,
        melds=state.melds(), target=target, player=player, error=error, preview=preview,
        lines=state.log_lines() if not state.over else [],
        earned=state.live(), sides=_live_scores(state), pending=pending,
        last=state.last_row() if not state.over else None,
        version=state.log.version, screen=screen(state),
    )


def table_page(state: rt.RobberState, *, status=200, **kwargs):
    return render_template("robber_table.html", **table_context(state, **kwargs)), status


@bp.route("")
def table(game_id: int):
    return table_page(_state(game_id))


REGIONS = {"scores": "_scores.html", "turn": "_robber_turn.html", "board": "_robber_board.html",
           "log": "_robber_log.html"}


@bp.route("/live")
def live(game_id: int):
    """What changed since ``?since=<version>`` (static/app.js): 204, or the fresh regions."""
    if helpers.unchanged(game_id):
        return "", 204
    state = _state(game_id)
    context = table_context(state, picker=False)
    parts = dict(REGIONS)
    if links.can_edit() and not state.ended and not state.over:
        parts["melds"] = "_robber_melds.html"
    return jsonify(
        version=state.log.version, screen=context["screen"], url=screen_url(state),
        round=state.round_no,
        regions={name: render_template(path, **context) for name, path in parts.items()},
        cards={str(card): n for card, n in store.availability(state.round).items()},
    )


def robber_preview(state: rt.RobberState, player: str, cards, target: int | None) -> dict | None:
    """What the picked cards would make and score as a meld (or a lay-off on ``target``),
    or why the rules refuse it; None with nothing picked. Nothing is saved."""
    if not cards:
        return None
    kind = "layoff" if target else "meld"
    twice = sorted({c for c in cards if list(cards).count(c) > 1})
    if kind == "meld" and len(cards) < 3:  # still picking: not a refusal yet
        return {"ok": False, "hint": f"{len(cards)} picked: a new meld needs three cards or more.",
                "twice": twice}
    try:
        _row, after = rt.check_play(state, kind, player, cards, target)
    except store.Refused as e:
        return {"ok": False, "error": e.message, "cards": list(cards), "twice": twice}
    play = after.round.plays[-1]
    meld = after.round.melds[play.meld_number - 1]
    value = meld.meld.value(after.rules)
    before = state.round.melds[play.meld_number - 1].meld.value(state.rules) if kind == "layoff" else 0
    return {"ok": True, "kind": kind, "number": play.meld_number, "meld": meld.meld,
            "value": value, "gain": value - before, "owner": meld.owner,
            "stolen_from": play.stolen_from, "cards": [str(c) for c in play.cards], "twice": twice}


@bp.route("/preview")
def preview(game_id: int):
    """What the picked cards would make and score (the table page's script asks this)."""
    state = _state(game_id)
    player = request.args.get("player", state.turn)
    shown = robber_preview(state, player, tuple(request.args.getlist("cards")),
                           request.args.get("meld", type=int))
    return render_template("_robber_preview.html", preview=shown, state=state)


def _said(row: store.PlayRow, after: rt.RobberState) -> str:
    line = next((ln for ln in after.log_lines() if ln.row.id == row.id), None)
    return line.text if line else f"{row.player}: {row.type}"


@bp.route("/play", methods=["POST"])
def play(game_id: int):
    form = RobberPlayForm()
    picked = tuple(form.cards.data or ())
    kwargs = dict(picked=picked, target=form.meld.data, player=form.player.data)
    if not form.validate() or form.action.data not in ACTIONS:
        return table_page(_state(game_id), error="Choose who plays and what they do.", status=422, **kwargs)
    action = form.action.data
    if action in ENDINGS and picked:  # cards not logged yet would be lost with the hand
        state = _state(game_id)
        try:  # a rule that refuses the ending anyway (the discard pile's card) says it first
            rt.check_play(state, action, form.player.data)
        except store.Refused as e:
            return table_page(state, error=e.message, status=_status(e), **kwargs)
        return table_page(state, error=picked_first(picked, "Meld / lay off", ENDINGS[action]),
                          status=422, **kwargs)
    if action == "check":  # without JavaScript: what the picked cards make, nothing saved
        state = _state(game_id)
        if not picked:
            return table_page(state, error="Pick the cards first.", status=422, **kwargs)
        shown = robber_preview(state, form.player.data, picked, form.meld.data)
        return table_page(state, preview=shown, **kwargs)
    kind = ("layoff" if form.meld.data else "meld") if action == "play" else action
    cards = picked if kind in ("meld", "layoff", "take") else ()
    try:
        row, after = rt.add_play(get_db(), game_id, form.request_id.data, kind, form.player.data,
                                 cards, form.meld.data)
    except store.Repeated:
        flash(ALREADY_SAVED)
        return redirect(url_for("robber.table", game_id=game_id), 303)
    except store.Refused as e:
        return table_page(_state(game_id), error=e.message, status=_status(e), **kwargs)
    text = _said(row, after)
    flash(text[0].upper() + text[1:] + ".")
    return redirect(screen_url(after), 303)


@bp.route("/pass", methods=["POST"])
def pass_turn(game_id: int):
    form = PassForm()
    form.validate()
    try:
        _row, after = rt.add_play(get_db(), game_id, form.request_id.data, "pass", "",
                                  turn=form.turn.data or None)
    except store.Repeated:
        flash(ALREADY_SAVED)
    except store.Refused as e:
        return table_page(_state(game_id), error=e.message, status=_status(e))
    else:
        flash(f"{after.turn}’s turn.")
    return redirect(url_for("robber.table", game_id=game_id), 303)


@bp.route("/undo", methods=["POST"])
def undo(game_id: int):
    form = UndoForm()
    form.validate()
    try:
        said = rt.undo(get_db(), game_id, form.request_id.data, form.last.data)
    except store.Repeated:
        flash(ALREADY_SAVED)
    except store.Refused as e:
        return table_page(_state(game_id), error=e.message, status=_status(e))
    else:
        flash(store.sentence(said[0].upper() + said[1:]))
    return redirect(screen_url(_state(game_id)), 303)


@bp.route("/plays/<int:play_id>/delete", methods=["POST"])
def delete(game_id: int, play_id: int):
    form = DeleteForm()
    form.validate()
    try:
        row = rt.delete_play(get_db(), game_id, form.request_id.data, play_id, form.revision.data)
    except store.Repeated:
        flash(ALREADY_SAVED)
    except store.NotFound:
        abort(404)
    except store.Refused as e:
        return table_page(_state(game_id), error=e.message, status=_status(e))
    else:
        flash(store.sentence(f"Deleted {rt.play_words(row)}"))
    return redirect(screen_url(_state(game_id)), 303)


# ---------------------------------------------------------------------------------------
# The end of a hand.


def end_page(state: rt.RobberState, *, player=None, picked=None, error=None, status=200):
    game_id = state.log.id
    if not state.ended:
        if state.over:
            return redirect(url_for("robber.game", game_id=game_id), 303)
        flash(error or "The hand is not over yet: someone goes out, or the stock runs out.")
        return redirect(url_for("robber.table", game_id=game_id), 303)
    drafts = state.drafts
    missing = state.missing_hands()
    entering = [p for p in state.players if p != state.out]
    if player not in entering:
        player = missing[0] if missing else None
    picker = None
    if player:
        holding = [c for p, cards in drafts.items() if p != player for c in cards]
        available = store.availability(state.round, holding=holding)
        picker = grid(available, drafts.get(player, ()) if picked is None else picked, aces=True)
    preview = state.preview
    hand = preview["rounds"][state.round_no - 1] if preview else None
    return render_template(
        "robber_end.html", state=state, game_id=game_id, round_no=state.round_no, drafts=drafts,
        missing=missing, entering=entering, player=player, picker=picker, error=error,
        hand=hand, preview=preview, version=state.log.version,
        earned=hand["scores"] if hand else state.live(),  # with the hands entered so far
        screen=screen(state), sides=_sides_of(state, hand),
    ), status


def _sides_of(state: rt.RobberState, hand: dict | None) -> list[dict]:
    """Each side's score for a hand, with each member's reasons."""
    if hand is None:
        return []
    sides = []
    for index, side in enumerate(state.sides):
        members = [p for p in state.players if state.side(p) == side]
        sides.append({"side": side, "colour": index, "score": hand["scores"][members[0]],
                      "members": [{"player": p, **hand["detail"][p]} for p in members]})
    return sides


@bp.route("/end")
def end(game_id: int):
    return end_page(_state(game_id, with_drafts=True), player=request.args.get("player"))


@bp.route("/end/hand", methods=["POST"])
def save_hand(game_id: int):
    form = HandForm()
    if not form.validate():
        return end_page(_state(game_id, True), player=form.player.data,
                        error="Say whose hand this is.", status=422)
    try:
        rt.save_hand(get_db(), game_id, form.request_id.data, form.round_no.data,
                     form.player.data, form.cards.data)
    except store.Repeated:
        flash(ALREADY_SAVED)
        return redirect(url_for("robber.end", game_id=game_id), 303)
    except store.Refused as e:
        return end_page(_state(game_id, True), player=form.player.data, picked=form.cards.data,
                        error=e.message, status=_status(e))
    count = len(form.cards.data)
    flash(f"{form.player.data}: {count} card{'s' if count != 1 else ''} left in hand.")
    return redirect(url_for("robber.end", game_id=game_id), 303)


@bp.route("/end", methods=["POST"])
def confirm(game_id: int):
    form = ConfirmRoundForm()
    if not form.validate():
        return end_page(_state(game_id, True), error="Which hand is being counted?", status=422)
    try:
        after = rt.confirm_hand(get_db(), game_id, form.request_id.data, form.round_no.data)
    except store.Repeated:
        flash(f"Already saved: hand {form.round_no.data} is counted.")
        return redirect(screen_url(_state(game_id)), 303)
    except store.Refused as e:
        return end_page(_state(game_id, True), error=e.message, status=_status(e))
    if after.over:
        flash(f"Game over: {after.status()}.")
        return redirect(url_for("robber.game", game_id=game_id), 303)
    flash(f"Hand {form.round_no.data} counted. Hand {after.round_no}: {after.dealer()} deals, "
          f"{after.turn} starts.")
    if after.tied:
        flash(f"A tie at the top at {after.rules['target']} or more: play another hand.")
    return redirect(url_for("robber.table", game_id=game_id), 303)


# ---------------------------------------------------------------------------------------
# The game page, a hand's detail, and the game file / score sheet.


@bp.route("/game")
def game(game_id: int):
    state = _state(game_id)
    finished = [r for r in state.scored["rounds"] if r["finished"]]
    drawn = chart(state.players, [r["scores"] for r in finished], state.rules["target"])
    return render_template("robber_game.html", state=state, game_id=game_id, chart=drawn,
                           share=links.share(game_id, *store.secrets_of(get_db(), game_id)))


@bp.route("/hands/<int:round_no>")
def hand(game_id: int, round_no: int):
    """One hand: every meld's owner history and value, each player's score and why."""
    state = _state(game_id)
    result = state.hand_result(round_no)
    if result is None:
        return render_template("error.html", title="Not found",
                               message=f"Hand {round_no} has not been played yet."), 404
    return render_template("robber_hand.html", state=state, game_id=game_id, round_no=round_no,
                           hand=result, sides=_sides_of(state, result))


@bp.route("/export")
def export(game_id: int) -> Response:
    """The game file (CONTRACT.md): ``scorekeeper score`` recomputes every score from it."""
    state = _state(game_id)
    return Response(json.dumps(state.doc, indent=2, ensure_ascii=False), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="robber-game-{game_id}.json"'})


@bp.route("/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per counted hand, a column per player, then the totals."""
    state = _state(game_id)
    rows = [(n, state.dealer(n), r["scores"]) for n, r in enumerate(state.scored["rounds"], 1)
            if r["finished"]]
    body = sheet_csv(("Hand", "Dealer"), state.players, rows, state.scored["totals"])
    return Response("\ufeff" + body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="robber-game-{game_id}-scores.csv"'})


def init_app(app) -> None:
    app.register_blueprint(bp)
    helpers.VARIANT_PAGES[rt.VARIANT] = {
        "table.show": "robber.table",
        "games.summary": "robber.game",
        "round_end.show": "robber.end",
        "games.export": "robber.export",
        "games.export_csv": "robber.export_csv",
    }
