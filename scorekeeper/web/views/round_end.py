"""The end of a round: each player's cards left in hand, what they cost and why, confirm.

The hands are entered one player at a time with the same card picker (cards on the
table and in hands already entered are disabled). Each player's score is shown with its
reasons, card by card, in a <details> that anyone can open: this is where disputes at
the table are settled. Confirming counts the round and starts the next one, with the
deal passed on.
"""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for

from ...games.words import Say, Sentence
from ...storage import log_changes, logs
from ...storage.kernel import NotFound, Refused, Repeated
from ..database import get_db
from ..table_forms import ConfirmRoundForm, CorrectHandForm, HandForm
from ..words import page_text, said
from . import helpers
from .hands import cards_left, hand_entry, hand_picker
from .helpers import ALREADY_SAVED
from .table_game import SCREENS, load_state, screen, screen_url, table_round

bp = Blueprint("round_end", __name__, url_prefix="/g/<game_key>")
bp.before_request(helpers.own_games(SCREENS))


def end_page(state: logs.LogState, *, player=None, picked=None, error=None, status=200):
    game_id = state.log.id
    if not state.ended:
        if state.over:
            return redirect(url_for("table_game.summary", game_id=game_id), 303)
        if error is None and state.finished_rounds and not state.begun:  # Back after counting a round
            error = Say("Round %(n)s is counted: this is round %(next)s.", n=state.round_no - 1, next=state.round_no)
        flash(said(error or Say("The round is not over yet: %(how)s.", how=state.variant.how_rounds_end)))
        return redirect(url_for("table.show", game_id=game_id), 303)
    round_no = state.round_no
    drafts = state.log.drafts.get(round_no, {})
    missing = state.missing_hands()
    out = state.round.out
    entering, player, picker = hand_entry(state, player, picked)
    scored, draft_error = None, None
    try:
        scored = state.counted()
    except Refused as e:
        draft_error = e.said
    result = scored.round_result(round_no) if scored else None
    return render_template(
        "round_end.html",
        state=state, game_id=game_id, round_no=round_no, drafts=drafts, missing=missing,
        out=out, entering=entering, player=player, picker=picker, error=error or draft_error,
        result=result if not draft_error else None, scored=scored, version=state.log.version,
        screen=screen(state), earned={p: table_round(state).earned(p) for p in state.players},
    ), status


@bp.route("/end")
def show(game_id: int):
    return end_page(load_state(game_id), player=request.args.get("player"))


@bp.route("/hands", methods=["POST"])
def save_hand(game_id: int):
    """One player's cards left in hand (none: an empty hand)."""
    form = HandForm()
    state = load_state(game_id)
    if not form.validate():
        return end_page(state, player=form.player.data, error=Say("Say whose hand this is."), status=422)
    try:
        log_changes.save_hand(get_db(), game_id, form.request_id.key(), form.round_no.data,
                       form.player.data, form.cards.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
        return redirect(url_for("round_end.show", game_id=game_id), 303)
    except Refused as e:
        return end_page(state, player=form.player.data, picked=form.cards.data, error=e.said,
                        status=422)
    flash(said(cards_left(form.player.data, len(form.cards.data))))
    return redirect(url_for("round_end.show", game_id=game_id), 303)


@bp.route("/end", methods=["POST"])
def confirm(game_id: int):
    """Count the round: the hands are saved and the next round starts with the next dealer.

    Sent twice (or from two phones), the round is counted once and the second goes on to
    where the first went.
    """
    form = ConfirmRoundForm()
    state = load_state(game_id)
    if not form.validate():
        return end_page(state, error=Say("Which round is being counted?"), status=422)
    try:
        after = log_changes.confirm_round(get_db(), game_id, form.request_id.key(), form.round_no.data)
    except Repeated:
        flash(page_text("Already saved: round %(n)s is counted.", n=form.round_no.data))
        return redirect(screen_url(load_state(game_id)), 303)
    except Refused as e:
        return end_page(state, error=e.said, status=422)
    if after.over:
        flash(page_text("Game over: %(status)s.", status=after.result.said_status()))
        return redirect(url_for("table_game.summary", game_id=game_id), 303)
    flash(page_text("Round %(n)s counted. Round %(next)s: %(dealer)s deals, %(player)s starts.",
                    n=form.round_no.data, next=after.round_no, dealer=after.dealer(), player=after.turn))
    if after.result.tied_at_target:
        flash(page_text("A tie at the top at %(target)s or more: play another round.",
                        target=after.rules["target"]))
    return redirect(url_for("table.show", game_id=game_id), 303)


@bp.route("/rounds/<id:round_no>/hand", methods=["GET", "POST"])
def correct_hand(game_id: int, round_no: int):
    """A hand counted at the end of an earlier round, changed (``player``): its picker holds
    the hand as counted; saved, the round is scored again, and every total after it."""
    form = CorrectHandForm()
    player = form.player.data if request.method == "POST" else request.args.get("player")
    try:
        state = load_state(game_id, round_no)
    except NotFound:
        state = None
    counted = state.log.hands.get(round_no) if state is not None else None
    if state is None or counted is None or not player or player not in state.entering():
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("No such hand is counted in this game.")), 404
    back = url_for("table_game.round_detail", game_id=game_id, round_no=round_no)
    error: Say | Sentence | None = None
    status, picked = 200, None
    if request.method == "POST":
        picked = form.cards.data
        if form.validate():
            try:
                was = None if form.was.data is None else form.was.data.split()
                done = log_changes.correct_hand(get_db(), game_id, form.request_id.key(), round_no, player,
                                                form.cards.data, was)
            except Repeated:
                flash(said(ALREADY_SAVED))
                return redirect(back, 303)
            except Refused as e:
                error, status = e.said, helpers.refusal_status(e)
            else:
                flash(said(Sentence(done)))
                return redirect(back, 303)
        else:
            error, status = Say("Say whose hand this is."), 422
        if status == 409:  # changed on another phone: the hand as it now is
            state, picked = load_state(game_id, round_no), None
            counted = state.log.hands.get(round_no, {})
    return render_template("hand_change.html", state=state, game_id=game_id, round_no=round_no, player=player,
                           hand=tuple(counted.get(player, ())), picker=hand_picker(state, counted, player, picked),
                           error=error, back=back), status
