"""The table screen: whose turn, the melds on the table, and every play as it happens.

Plays are logged with a card picker (meld, or lay-off after tapping a meld), aces with
one tap each, the turn passed on with one tap. Every play is checked by replaying the
log with it added (store.py); a refused play says why and nothing is saved. Earlier
plays can be edited or deleted, and everything after them is recomputed.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from .. import links, store
from ..db import get_db
from ..forms import AceForm, EditForm, OutForm, PlayForm, VersionForm
from ..picker import grid
from .helpers import card_parts, load_state

bp = Blueprint("table", __name__, url_prefix="/g/<game_key>")


def _back(game_id: int):
    return redirect(url_for("table.show", game_id=game_id), 303)


def table_page(state: store.GameState, *, picked=(), target=None, player=None,
               preview=None, error=None, status=200):
    """The table screen, with what was picked kept when a play is checked or refused."""
    game_id = state.log.id
    return render_template(
        "table.html",
        state=state,
        game_id=game_id,
        picker=grid(store.availability(state.round), picked),
        melds=state.melds(),
        target=target,
        player=player if player in state.players else state.turn,
        preview=preview,
        error=error,
        plays=state.plays(state.round_no) if not state.over else [],
        earned=state.round_earned(),
        last=state.last_row() if not state.over else None,
        version=state.log.version,
    ), status


@bp.route("/table")
def show(game_id: int):
    return table_page(load_state(game_id))


def _picked(form) -> tuple[str, ...]:
    return tuple(form.cards.data or ())


@bp.route("/preview")
def preview(game_id: int):
    """What the picked cards would make and score (the table page's script asks this)."""
    state = load_state(game_id)
    target = request.args.get("meld", type=int)
    player = request.args.get("player", state.turn)
    cards = request.args.getlist("cards")
    kind = "layoff" if target else "meld"
    shown = store.preview(state, kind, player, cards, target) if cards else None
    return render_template("_preview.html", preview=shown, state=state)


@bp.route("/plays", methods=["POST"])
def play(game_id: int):
    """A meld, or a lay-off on the meld chosen: "Check" shows it, "Confirm" logs it."""
    state = load_state(game_id)
    form = PlayForm()
    picked = _picked(form)
    kwargs = dict(picked=picked, target=form.meld.data, player=form.player.data)
    if not form.validate():
        return table_page(state, error=_form_error(form), status=422, **kwargs)
    kind = "layoff" if form.meld.data else "meld"
    if not picked:
        return table_page(state, error="Pick the cards first.", status=422, **kwargs)
    if form.check.data and not form.confirm.data:
        shown = store.preview(state, kind, form.player.data, picked, form.meld.data)
        return table_page(state, preview=shown, **kwargs)
    try:
        row, after = store.add_play(get_db(), game_id, form.version.data, kind, form.player.data,
                                    picked, form.meld.data)
    except store.Refused as e:
        return table_page(state, error=e.message, status=422, **kwargs)
    played = after.plays(row.round_no)[-1]
    flash(f"{row.player}: {store.describe_play(played)}, {played.play.points} points.")
    return _back(game_id)


@bp.route("/aces", methods=["POST"])
def ace(game_id: int):
    """One tap per ace: it goes face up in front of the player."""
    form = AceForm()
    if not form.validate():
        return table_page(load_state(game_id), error=_form_error(form), status=422)
    try:
        _row, after = store.add_play(get_db(), game_id, form.version.data, "ace",
                                     form.player.data, [form.card.data])
    except store.Refused as e:
        return table_page(load_state(game_id), error=e.message, status=422, player=form.player.data)
    parts = card_parts(form.card.data)
    flash(f"{form.player.data}: the {parts['label']} face up.")
    if after.ending:
        flash(f"That was the last ace: the round ends after {after.round.last_ace_by}'s turn.")
    return _back(game_id)


@bp.route("/out", methods=["POST"])
def out(game_id: int):
    """Someone went out: the round is over, and the hands are counted next."""
    form = OutForm()
    if not form.validate():
        return table_page(load_state(game_id), error=_form_error(form), status=422)
    try:
        store.add_play(get_db(), game_id, form.version.data, "out", form.player.data)
    except store.Refused as e:
        return table_page(load_state(game_id), error=e.message, status=422, player=form.player.data)
    flash(f"{form.player.data} went out. Enter the cards left in the other hands.")
    return redirect(url_for("round_end.show", game_id=game_id), 303)


@bp.route("/pass", methods=["POST"])
def pass_turn(game_id: int):
    """One tap: the turn passes to the next player in seating order."""
    form = VersionForm()
    form.validate()
    try:
        after = store.pass_turn(get_db(), game_id, form.version.data)
    except store.Refused as e:
        return table_page(load_state(game_id), error=e.message, status=422)
    flash(f"{after.turn}'s turn.")
    return _back(game_id)


@bp.route("/undo", methods=["POST"])
def undo(game_id: int):
    form = VersionForm()
    form.validate()
    try:
        message = store.undo(get_db(), game_id, form.version.data)
    except store.Refused as e:
        return table_page(load_state(game_id), error=e.message, status=422)
    flash(store.sentence(f"Undone: {message}"))
    state = load_state(game_id)
    if state.ended:
        return redirect(url_for("round_end.show", game_id=game_id), 303)
    return _back(game_id)


# ---------------------------------------------------------------------------------------
# Editing or deleting any play, in this round or an earlier one.


def edit_page(state: store.GameState, play_id: int, *, player=None, picked=None, target=None,
              preview=None, error=None, status=200):
    try:
        row = state.log.play(play_id)
    except store.NotFound:
        return render_template("error.html", title="Not found",
                               message="That play is not in this game."), 404
    melds = [
        (pid, meld) for pid, meld in state.melds(row.round_no)
        if row.type == "layoff" and _made_before(state, pid, row)
    ]
    # The cards of the play being changed go back to the pool while it is edited.
    available = store.availability(state.round_result(row.round_no).round, give_back=row.cards)
    return render_template(
        "edit_play.html",
        state=state, game_id=state.log.id, row=row, melds=melds,
        player=player or row.player,
        picker=grid(available, row.cards if picked is None else picked, aces=row.type == "ace"),
        target=target if target is not None else row.target,
        preview=preview, error=error, version=state.log.version,
        table_play=next((tp for tp in state.plays(row.round_no) if tp.row.id == play_id), None),
    ), status


def _made_before(state: store.GameState, meld_id: int, row: store.PlayRow) -> bool:
    meld_row = state.log.play(meld_id)
    return meld_row.seq < row.seq


@bp.route("/plays/<int:play_id>/edit")
def edit(game_id: int, play_id: int):
    if not links.can_edit():
        abort(403)
    return edit_page(load_state(game_id), play_id)


@bp.route("/plays/<int:play_id>", methods=["POST"])
def save_edit(game_id: int, play_id: int):
    """Change a play: the whole game is replayed with it; a later play it breaks says so."""
    state = load_state(game_id)
    form = EditForm()
    picked = _picked(form)
    kwargs = dict(player=form.player.data, picked=picked, target=form.meld.data)
    if not form.validate():
        return edit_page(state, play_id, error=_form_error(form), status=422, **kwargs)
    if form.check.data and not form.save.data:
        shown = store.preview_edit(state, play_id, form.player.data, picked, form.meld.data)
        return edit_page(state, play_id, preview=shown, **kwargs)
    try:
        row = store.edit_play(get_db(), game_id, form.version.data, play_id, form.player.data,
                              picked, form.meld.data)
    except store.Refused as e:
        return edit_page(state, play_id, error=e.message, status=422, **kwargs)
    except store.NotFound:
        return edit_page(state, play_id)
    flash(f"Changed {row.describe()} in round {row.round_no}: every score is recomputed.")
    return _back(game_id)


@bp.route("/plays/<int:play_id>/delete", methods=["POST"])
def delete(game_id: int, play_id: int):
    form = VersionForm()
    form.validate()
    try:
        row = store.delete_play(get_db(), game_id, form.version.data, play_id)
    except store.NotFound:
        return edit_page(load_state(game_id), play_id)
    except store.Refused as e:
        return edit_page(load_state(game_id), play_id, error=e.message, status=422)
    flash(f"Deleted {row.describe()} from round {row.round_no}: every score is recomputed.")
    return _back(game_id)


def _form_error(form) -> str:
    for name, errors in form.errors.items():
        if errors:
            label = getattr(form, name).label.text if hasattr(form, name) else name
            return store.sentence(f"{label}: {errors[0]}")
    return "Something in the form is missing."
