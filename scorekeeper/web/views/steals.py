"""The pages of a game whose melds change hands (Robber Rummy): its table, hand end and
game page.

The table screen shows whose turn it is, each meld on the table with its owner's colour
chip (and team), what each side would score if the hand ended now, and the hand so far
in words ("Bob steals meld 2 from Ann"). Plays are logged with the card picker: a meld,
a lay-off (a steal when the meld is someone else's), the discard pile taken (its top
card must go into that player's next meld at once: the rules refuse anything else), a
renege, going out, the stock running out, the turn passed on. At the end of a hand each
player's leftover cards are entered with the picker; every side's score is shown with
its reasons before it is confirmed. Every rule is checked by the store
(storage/logs.py), which replays the game file; nothing here knows a rule.
"""
from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, abort, flash, get_template_attribute, redirect, render_template, request, url_for
from flask_babel import lazy_gettext
from wtforms import StringField
from wtforms.validators import InputRequired, Optional

from ...games.cards import parse_card
from ...games.words import Say, SayN, Sentence
from ...storage import kernel, log_asks, log_changes, log_checks, logs, plays, results
from ...storage.kernel import NotFound, Refused, Repeated, Stale
from .. import links
from .. import live as updates
from ..chart import chart
from ..database import get_db
from ..forms import CardsField, WholeNumberField
from ..picker import grid
from ..table_forms import ConfirmRoundForm, DeleteForm, EditForm, HandForm, PassForm, TableForm, UndoForm
from ..words import page_text, said
from . import bring_back, families, helpers, scoreboard
from .answers import CONFIRM, WENT_OUT, answer, picked_first, wants_json
from .files import export_file, log_sheet
from .hands import cards_left, hand_entry
from .helpers import ALREADY_SAVED, refusal_status
from .steals_state import Steals, robber_round

SCREENS = "steals"
bp = Blueprint(SCREENS, __name__, url_prefix="/g/<game_key>/robber")
bp.before_request(helpers.own_games(SCREENS))
bp.register_error_handler(Refused, helpers.unreadable)  # a round read that no longer replays (log_asks.ask)

ACTIONS = ("play", "check", "take", "renege", "out", "stock")
ENDINGS = {"out": WENT_OUT, "stock": Say("Stock ran out")}  # the buttons that end the hand
DISCARDED = Say("Discarded: pass")  # the button that ends a turn (its words before the next player's name)


class PlayForm(TableForm):
    """One play: ``action`` play (a meld, or a lay-off on the meld chosen), take (the
    discard pile: its top card picked), renege, out or stock (the last card drawn)."""

    player = StringField(lazy_gettext("Who plays"), [InputRequired()])
    action = StringField(lazy_gettext("What"), [InputRequired()])
    cards = CardsField(lazy_gettext("Cards"))
    meld = WholeNumberField(lazy_gettext("Lay off on"), [Optional()])


def _state(game_id: int, round_no: int | None = None) -> Steals:
    """The game as these pages read it: the hand being played, or hand ``round_no``."""
    return Steals(helpers.load_state(game_id, SCREENS, round_no))


def screen(state: Steals) -> str:
    if state.over:
        return "over"
    return "end" if state.ended else "play"


def screen_url(state: Steals) -> str:
    game_id = state.log.id
    return {"over": url_for("steals.game", game_id=game_id),
            "end": url_for("steals.end", game_id=game_id)}.get(
        screen(state), url_for("steals.table", game_id=game_id))


def _sides_of(state: Steals, result) -> list[dict]:
    """Each side's score for a hand (a round result of the rules), with each member's
    reasons: its game-file detail, where a meld's history and the member's story are the
    rules' sentences, read in the phone's language."""
    if result is None:
        return []
    hand = result.as_json()
    rules = result.round.rules
    members = {}
    for p, detail in hand["detail"].items():
        held = result.players[p]
        melds = [dict(m, history=list(tm.history)) for m, tm in zip(detail["melds"], held.melds)]
        members[p] = {"player": p, **detail, "melds": melds, "story": held.story(rules)}
    return _sides(state, hand["scores"], members)


def _sides(state: Steals, scores: dict, members: dict) -> list[dict]:
    sides = []
    for index, side in enumerate(state.sides):
        of_side = [p for p in state.players if state.side(p) == side]
        sides.append({"side": side, "colour": index, "score": scores[of_side[0]],
                      "members": [members[p] for p in of_side]})
    return sides


def _live_scores(state: Steals) -> list[dict]:
    """Each side's score if the hand ended now, with its reasons (melds owned, renege)."""
    if state.over:
        return []
    current = state.current()
    if current is None:  # a hand with no play yet: every side has 0 so far
        return _sides(state, state.live(), {p: {"player": p, "story": [Say("no melds yet: score 0")]}
                                            for p in state.players})
    return _sides_of(state, current)


def table_context(state: Steals, *, picked=None, target=None, player=None,
                  error=None, picker=True, preview=None) -> dict:
    pending = state.pending_take
    me = helpers.phone_of(state.log.id, state.players)
    if player not in state.players:
        player = pending.player if pending is not None else me or state.turn
    if picked is None:
        picked = pending.cards if pending is not None and player == pending.player else ()
    return dict(
        state=state, game_id=state.log.id,
        picker=grid(plays.availability(state.round), picked, aces=True) if picker and not state.over else None,
        picked=picked,
        melds=state.melds(), worth=helpers.meld_worth(state), target=target, player=player, error=error,
        preview=preview,
        me=me, whose=links.whose(state.log.id),
        lines=state.log_lines() if not state.over else [],
        earned=state.scored_round.scores if state.over else state.live(), sides=_live_scores(state), pending=pending,
        last=state.last_row() if not state.over else None,
        version=state.log.version, screen=screen(state),
    )


def table_page(state: Steals, *, status=200, **kwargs):
    return render_template("robber_table.html", **table_context(state, **kwargs)), status


@bp.route("")
def table(game_id: int):
    return table_page(_state(game_id))


REGIONS = {"scores": "_scores.html", "turn": "_robber_turn.html", "board": "_robber_board.html",
           "log": "_robber_log.html"}


@bp.route("/worth")
def worth(game_id: int):
    return helpers.new_meld_worth(_state(game_id))


@bp.route("/live")
def live(game_id: int):
    """What changed since ``?since=<version>`` (static/app.js): 204, or the fresh regions
    (drawn once for every phone of its kind, web/live.py)."""
    return updates.poll(game_id, SCREENS)


def live_parts(state: Steals) -> dict:
    """What ``/live`` (and a play sent in the background) answers with: the version, the
    screen and its URL, the hand, each region's HTML and the cards left to pick."""
    context = table_context(state, picker=False)
    parts = dict(REGIONS)
    if links.can_edit() and not state.ended and not state.over:
        parts.update(melds="_robber_melds.html", taken="_robber_taken.html")
    return dict(
        version=state.log.version, screen=context["screen"], url=screen_url(state),
        round=state.round_no,
        regions=helpers.regions(parts, context),
        cards={str(card): n for card, n in plays.availability(state.round).items()},
    )


def board(state: Steals) -> scoreboard.Board:
    """The scoreboard of a game of Robber (views/scoreboard.py): what each player would
    score if the hand ended now, whose turn, the last line of the hand's log, a discard
    pile taken and not melded yet, how the hand ended."""
    status: list[Say | Sentence] = []
    if not state.over:
        if state.tied:
            status.append(Say("Tie at the top at %(target)s or more: this hand decides.",
                              target=state.rules["target"]))
        pending = state.pending_take
        if state.ended:
            status.append(Sentence(state.said_status()))
        elif pending is not None:
            status.append(Say("%(player)s took the discard pile: %(card)s must go into a meld or lay-off "
                              "by %(player)s now.", player=pending.player, card=parse_card(pending.cards[0])))
    lines = state.log_lines() if not state.over else []
    last = get_template_attribute("_board_last.html", "robber_last")
    return scoreboard.Board(
        variant=state.variant, game=state.game, version=state.log.version, round_no=state.round_no,
        round_label=None if state.over else helpers.round_title(state.variant, state.round_no),
        round_scores=None if state.over else state.live(),
        turn=None if state.over or state.ended else state.turn, dealer=state.dealer(),
        last=last(lines) if lines else None, status=status)


def _refused(game_id: int, error, status: int = 422, state: Steals | None = None, **kwargs):
    """A play refused: the table with the reason and what was picked (in the background:
    the regions and the reason; the page keeps what was picked)."""
    state = state or _state(game_id)
    if wants_json():
        return answer(updates.shared(game_id, SCREENS, state), error=error, status=status)
    return table_page(state, error=error, status=status, **kwargs)


def _answered(game_id: int, outcome: log_asks.Outcome, *, words: Say | None = None,
              to: str | None = None, **kwargs):
    """The hand after a play asked for, whatever became of it (log_asks.Outcome): logged
    (``words``, else the line the hand's log says of it; then ``to``, else the screen the
    hand is at), refused (:func:`_refused`, with what was picked: ``kwargs``) or logged
    already."""
    if outcome.state is None and outcome.refused is not None:  # refused before the hand was read
        if wants_json():
            return answer(updates.shared(game_id, SCREENS), error=outcome.refused, status=refusal_status(outcome))
        return helpers.refused_unread(outcome.refused, refusal_status(outcome),
                                      url_for("steals.table", game_id=game_id))
    if outcome.state is None:
        return _done(game_id, ALREADY_SAVED, url_for("steals.table", game_id=game_id))
    state = Steals(outcome.state)
    if outcome.saved is None:  # refused (the route draws a check's preview itself)
        return _refused(game_id, outcome.refused, refusal_status(outcome), state, **kwargs)
    return _done(game_id, words or _said(outcome.saved, outcome.state), to or screen_url(state), state)


def _done(game_id: int, words, where: str | None = None, state: Steals | None = None):
    """A play logged (or one sent twice): what it did in words (a sentence), and the page
    to show (in the background: the regions, drawn from ``state``, the hand as the play
    left it, else read again, and the words; the page moves on if the screen did)."""
    if wants_json():
        return answer(updates.shared(game_id, SCREENS, state), notices=[words])
    flash(said(words))
    return redirect(where or screen_url(_state(game_id)), 303)


def robber_preview(state: Steals, player: str, cards, target: int | None) -> dict | None:
    """What the picked cards would make and score as a meld (or a lay-off on ``target``),
    or why the rules refuse it; None with nothing picked. Nothing is saved."""
    if not cards:
        return None
    kind = "layoff" if target else "meld"
    twice = sorted({c for c in cards if list(cards).count(c) > 1})
    if kind == "meld" and len(cards) < 3:  # still picking: not a refusal yet
        return {"ok": False, "twice": twice,
                "hint": SayN("%(num)s picked: a new meld needs three cards or more.",
                             "%(num)s picked: a new meld needs three cards or more.", len(cards))}
    try:
        _row, after = log_checks.check_play(state.state, kind, player, cards, target)
    except Refused as e:
        return {"ok": False, "error": e.said, "cards": list(cards), "twice": twice}
    hand = robber_round(after)
    play = hand.plays[-1]
    assert play.meld_number is not None  # a meld or a lay-off: the meld it made or went on
    meld = hand.melds[play.meld_number - 1]
    value = meld.meld.value(after.rules)
    before = state.round.melds[play.meld_number - 1].meld.value(state.rules) if kind == "layoff" else 0
    now, then = state.live(), Steals(after).live()
    return {"ok": True, "kind": kind, "number": play.meld_number, "meld": meld.meld,
            "value": value, "gain": value - before, "owner": meld.owner,
            "moves": {p: then[p] - now[p] for p in then if then[p] != now[p]},
            "stolen_from": play.stolen_from, "cards": [str(c) for c in play.cards], "twice": twice}


@bp.route("/preview")
def preview(game_id: int):
    """What the picked cards would make and score (the table page's script asks this)."""
    state = _state(game_id)
    player = request.args.get("player", state.turn)
    shown = robber_preview(state, player, tuple(request.args.getlist("cards")),
                           request.args.get("meld", type=int))
    return render_template("_robber_preview.html", preview=shown, state=state, player=player)


def _said(row: plays.PlayRow, after: logs.LogState) -> Sentence:
    """What a play just logged did, as the hand's log says it, as a sentence."""
    line = next((ln for ln in Steals(after).log_lines() if ln.row.id == row.id), None)
    return Sentence(line.text if line else row.describe())


@bp.route("/play", methods=["POST"])
def play(game_id: int):
    form = PlayForm()
    picked = tuple(form.cards.data or ())
    kwargs = dict(picked=picked, target=form.meld.data, player=form.player.data)
    action = form.action.data
    valid = form.validate() and action in ACTIONS
    if valid and action == "check":  # without JavaScript: what the picked cards make, nothing saved
        state = _state(game_id)
        if not picked:
            return table_page(state, error=Say("Pick the cards first."), status=422, **kwargs)
        shown = robber_preview(state, form.player.data, picked, form.meld.data)
        return table_page(state, preview=shown, **kwargs)
    # Cards not logged yet would be lost with the hand: a rule that refuses the ending
    # anyway (the discard pile's card) says it first.
    kind = ("layoff" if form.meld.data else "meld") if action == "play" else action
    if valid and action in ENDINGS and picked:
        outcome = log_asks.check(get_db(), game_id, kind, form.player.data)
    else:
        outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), kind, form.player.data, picked,
                               form.meld.data, round_no=form.round_no.data, seen=form.seen.data,
                               refused=None if valid else Say("Choose who plays and what they do."))
    if outcome.preview is not None:
        outcome = replace(outcome, preview=None, refused=outcome.preview.said_error
                          or picked_first(picked, CONFIRM, ENDINGS[action]))
    return _answered(game_id, outcome, **kwargs)


@bp.route("/pass", methods=["POST"])
def pass_turn(game_id: int):
    form = PassForm()
    form.validate()
    picked = tuple(request.form.getlist("cards"))  # sent by the page's script: cards still picked
    outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), "pass", "",
                           turn=form.turn.data or None, round_no=form.round_no.data,
                           seen=form.seen.data,
                           refused=picked_first(picked, CONFIRM, DISCARDED))
    after = outcome.state if outcome.saved is not None else None
    turn = Say("%(player)s’s turn.", player=after.turn) if after is not None else None
    return _answered(game_id, outcome, words=turn, to=url_for("steals.table", game_id=game_id))


@bp.route("/undo", methods=["POST"])
def undo(game_id: int):
    form = UndoForm()
    form.validate()
    words: Sentence | Say
    try:
        words = Sentence(log_changes.undo_said(get_db(), game_id, form.request_id.key(), form.last.data))
    except Repeated:
        words = ALREADY_SAVED
    except Refused as e:
        return _refused(game_id, e.said, refusal_status(e))
    return _done(game_id, words)


@bp.route("/plays/<id:play_id>/delete", methods=["POST"])
def delete(game_id: int, play_id: int):
    """Delete a play in one tap; the notice that says so can bring it back (restore)."""
    form = DeleteForm()
    form.validate()
    try:
        row = log_changes.delete_play(get_db(), game_id, form.request_id.key(), play_id, form.revision.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
    except NotFound:
        abort(404)
    except Refused as e:
        return table_page(_state(game_id), error=e.said, status=refusal_status(e))
    else:
        words = kernel.sentence(helpers.page_text("Deleted %(play)s", play=row.describe()))
        token = bring_back.deleted_token(game_id, "steals.restore", bring_back.deleted_row(game_id, row), words,
                                      form.request_id.key())
        return redirect(f"{screen_url(_state(game_id))}?deleted={token}", 303)  # URL-safe
    return redirect(screen_url(_state(game_id)), 303)


def _play_state(game_id: int, play_id: int) -> Steals:
    """The hand a play is in, read and replayed (the hand being played if there is no such
    play: the page then says so)."""
    return _state(game_id, logs.round_of(get_db(), game_id, play_id))


def edit_page(state: Steals, play_id: int, *, player=None, picked=None, target=None, error=None,
              status=200):
    """A play of the hand to change: who played it, its cards, and for a lay-off the meld
    it lies on, chosen among the melds as they were just before it (their owners then)."""
    try:
        row = state.log.play(play_id)
    except NotFound:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("That play is not in this game.")), 404
    line = next((ln for ln in state.log_lines() if ln.row.id == play_id), None)
    before = Steals(logs.before_play(state.state, row))
    available = plays.availability(state.round_result(row.round_no).round, give_back=row.cards)
    return render_template(
        "robber_edit.html", state=state, game_id=state.log.id, row=row,
        said=line.text if line is not None else row.describe(),
        editable=state.variant.changes(row.type),
        melds=before.melds() if row.type == "layoff" else [],
        player=player or row.player, target=target if target is not None else row.target,
        picker=grid(available, row.cards if picked is None else picked, aces=True),
        error=error, revision=row.revision,
        back=screen_url(state if state.being_played else _state(state.log.id)),
    ), status


@bp.route("/plays/<id:play_id>/edit")
def edit(game_id: int, play_id: int):
    if not links.can_edit():
        abort(403)
    return edit_page(_play_state(game_id, play_id), play_id)


@bp.route("/plays/<id:play_id>", methods=["POST"])
def save_edit(game_id: int, play_id: int):
    """Change a play: the game is replayed with it; a later play it makes illegal says so
    (a steal that no longer steals, a card taken twice), and nothing changes."""
    state = _play_state(game_id, play_id)
    form = EditForm()
    picked = tuple(form.cards.data or ())
    kwargs = dict(player=form.player.data, picked=picked, target=form.meld.data)
    if not form.validate():
        return edit_page(state, play_id, error=helpers.form_error(form), status=422, **kwargs)
    try:
        row = log_changes.edit_play(get_db(), game_id, form.request_id.key(), play_id, form.player.data,
                                    picked, form.meld.data, revision=form.revision.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
        return redirect(screen_url(_state(game_id)), 303)
    except Stale as e:
        return edit_page(_play_state(game_id, play_id), play_id, error=e.said, status=409)
    except Refused as e:
        return edit_page(state, play_id, error=e.said, status=422, **kwargs)
    except NotFound:
        return edit_page(state, play_id)
    flash(page_text("Changed %(play)s in hand %(round)s: every score is recomputed.",
                    play=row.describe(), round=row.round_no))
    return redirect(screen_url(_state(game_id)), 303)


@bp.route("/plays/restore", methods=["POST"])
def restore(game_id: int):
    """Bring back a deleted play where it was (from the notice that said it was deleted)."""
    try:
        row, brought = bring_back.restore_deleted(game_id, "steals.restore")
    except bring_back.NotBroughtBack as e:
        return table_page(_state(game_id), error=e.words, status=e.status)
    if brought:
        flash(kernel.sentence(helpers.page_text("Brought back %(play)s", play=row.describe())))
    return redirect(screen_url(_state(game_id)), 303)


# ---------------------------------------------------------------------------------------
# The end of a hand.


def end_page(state: Steals, *, player=None, picked=None, error=None, status=200):
    game_id = state.log.id
    if not state.ended:
        if state.over:
            return redirect(url_for("steals.game", game_id=game_id), 303)
        flash(said(error or Say("The hand is not over yet: someone goes out, or the stock runs out.")))
        return redirect(url_for("steals.table", game_id=game_id), 303)
    drafts = state.drafts
    missing = state.missing_hands()
    entering, player, picker = hand_entry(state.state, player, picked)
    try:
        counted = state.counted()
    except Refused as e:
        counted, error = None, error or e.said
    result = counted.round_result(state.round_no) if counted else None
    hand = result.as_json() if result else None
    return render_template(
        "robber_end.html", state=state, game_id=game_id, round_no=state.round_no, drafts=drafts,
        missing=missing, entering=entering, player=player, picker=picker, error=error,
        hand=hand, preview=counted.game if counted else None, version=state.log.version,
        earned=hand["scores"] if hand else state.live(),  # with the hands entered so far
        screen=screen(state), sides=_sides_of(state, result),
    ), status


@bp.route("/end")
def end(game_id: int):
    return end_page(_state(game_id), player=request.args.get("player"))


@bp.route("/end/hand", methods=["POST"])
def save_hand(game_id: int):
    form = HandForm()
    if not form.validate():
        return end_page(_state(game_id), player=form.player.data,
                        error=Say("Say whose hand this is."), status=422)
    try:
        log_changes.save_hand(get_db(), game_id, form.request_id.key(), form.round_no.data,
                       form.player.data, form.cards.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
        return redirect(url_for("steals.end", game_id=game_id), 303)
    except Refused as e:
        return end_page(_state(game_id), player=form.player.data, picked=form.cards.data,
                        error=e.said, status=refusal_status(e))
    flash(said(cards_left(form.player.data, len(form.cards.data))))
    return redirect(url_for("steals.end", game_id=game_id), 303)


@bp.route("/end", methods=["POST"])
def confirm(game_id: int):
    form = ConfirmRoundForm()
    if not form.validate():
        return end_page(_state(game_id), error=Say("Which hand is being counted?"), status=422)
    try:
        after = Steals(log_changes.confirm_round(get_db(), game_id, form.request_id.key(), form.round_no.data))
    except Repeated:
        flash(page_text("Already saved: hand %(n)s is counted.", n=form.round_no.data))
        return redirect(screen_url(_state(game_id)), 303)
    except Refused as e:
        return end_page(_state(game_id), error=e.said, status=refusal_status(e))
    if after.over:
        flash(page_text("Game over: %(status)s.", status=after.said_status()))
        return redirect(url_for("steals.game", game_id=game_id), 303)
    flash(page_text("Hand %(n)s counted. Hand %(next)s: %(dealer)s deals, %(player)s starts.",
                    n=form.round_no.data, next=after.round_no, dealer=after.dealer(), player=after.turn))
    if after.tied:
        flash(page_text("A tie at the top at %(target)s or more: play another hand.",
                        target=after.rules["target"]))
    return redirect(url_for("steals.table", game_id=game_id), 303)


# ---------------------------------------------------------------------------------------
# The game page, a hand's detail, and the game file / score sheet.


@bp.route("/game")
def game(game_id: int):
    state = _state(game_id)
    db = get_db()
    every = results.scores(db, game_id)
    playing = state.being_played and bool(state.rows())
    first = helpers.rounds_shown(len(every) + playing)
    hands = [(n, r, r.said) for n, r in enumerate(results.records(db, game_id, first, facts=False), first)]
    if playing:  # the hand being played, its score so far
        hands.append((state.round_no, state.current(), state.hand_ended(state.round_no)))
    drawn = chart(state.players, every, state.rules["target"], round_word=state.variant.round_word)
    return render_template("robber_game.html", state=state, game_id=game_id, chart=drawn, hands=hands,
                           rounds=hands, share=links.share(game_id, *kernel.secrets_of(db, game_id)))


@bp.route("/hands/<id:round_no>")
def hand(game_id: int, round_no: int):
    """One hand: every meld's owner history and value, each player's score and why."""
    try:
        state = _state(game_id, round_no)
    except NotFound:
        state = None
    if state is None or not state.begun:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("Hand %(n)s has not been played yet.", n=round_no)), 404
    result = state.round_result(round_no)
    return render_template("robber_hand.html", state=state, game_id=game_id, round_no=round_no,
                           hand=result.as_json(), sides=_sides_of(state, result))


@bp.route("/export")
def export(game_id: int) -> Response:
    """The game file (docs/game-file.md): ``scorekeeper score`` recomputes every score from it."""
    _state(game_id)  # another family's game: its own page
    return export_file(game_id)


@bp.route("/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per counted hand, a column per player, then the totals."""
    return log_sheet(_state(game_id).state)


FAMILY = families.Family(  # web/__init__.py registers it
    SCREENS, (bp,),
    dict(game="steals.game", table="steals.table", end="steals.end", export="steals.export",
         export_csv="steals.export_csv"),
    _state, live_parts, board)
