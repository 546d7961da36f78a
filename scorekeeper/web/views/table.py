"""The table screen of a game of aces and melds (Iceberg): whose turn, the melds on the
table, and every play as it happens.

Plays are logged with a card picker (meld, or lay-off after tapping a meld), aces with
one tap each, the turn passed on with one tap. Every play is checked by replaying the
log with it added (storage/logs.py); a refused play says why and nothing is saved.
Earlier plays can be edited or deleted, and everything after them is recomputed.

Many phones, one table: every phone on a game hears its changes (web/live.py: a stream,
or ``/live`` polled where none is held; static/app.js) and replaces the parts of the
page that other phones' plays change, keeping what it has picked. Every form carries a
fresh ``request_id``: sent twice, it is acted on once.

With the page's script a play, an ace, a pass, going out and an undo are sent in the
background asking for JSON (``Accept: application/json``): the answer is what ``/live``
sends (the fresh regions), with what the play did in words (``notices``) or why it was
refused (``error``, with the refusal's status, 409 or 422). Without that header, the
same routes answer as forms do: a 303 to the page to show, or the page with the reason.
"""
from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, abort, flash, get_template_attribute, redirect, render_template, request, url_for

from ...games import iceberg
from ...games.words import Say, SayN, Sentence
from ...storage import log_asks, log_changes, log_checks, logs, plays
from ...storage.kernel import NotFound, Refused, Repeated, Stale
from .. import links
from .. import live as updates
from ..database import get_db
from ..forms import new_request_id
from ..picker import count_line, grid
from ..table_forms import AceForm, DeleteForm, EditForm, OutForm, PassForm, PlayForm, UndoForm
from ..words import page_text, said
from . import bring_back, families, helpers, round_end, scoreboard, table_game
from .answers import CONFIRM, PASS, answer, picked_first, wants_json
from .helpers import ALREADY_SAVED, card_parts, refusal_status
from .table_game import SCREENS, load_state, screen, screen_url, table_round

bp = Blueprint("table", __name__, url_prefix="/g/<game_key>")
bp.add_app_template_global(new_request_id, "request_id")
bp.add_app_template_global(count_line, "count_line")
bp.before_request(helpers.own_games(SCREENS))
bp.register_error_handler(Refused, helpers.unreadable)  # a round read that no longer replays (log_asks.ask)


def _answered(game_id: int, outcome: log_asks.Outcome, *, to: str | None = None,
              notices: list[Say] | None = None, **kwargs):
    """The table after a play asked for, whatever became of it (log_asks.Outcome): logged
    (the table saying what it did; or ``to``, saying ``notices``), checked (its preview),
    refused (the table as it now is, with the reason and what was picked: ``kwargs``) or
    logged already (``to``, else the table). In the background: the regions, with the
    play's words (``notices``, else its line of the log) or the reason alone."""
    state = outcome.state
    if wants_json() and outcome.preview is None:  # a check is only asked by a form
        if state is None:  # logged already; or refused before the round was read (the payload reads it)
            notices = [] if outcome.refused is not None else [ALREADY_SAVED]
        elif outcome.saved is None:  # refused: its reason alone
            notices = []
        elif notices is None:
            notices = saved_words(state, outcome.saved.id)
        return answer(updates.shared(game_id, SCREENS, state), notices=notices, error=outcome.refused,
                      status=refusal_status(outcome) if outcome.refused is not None else 200)
    if state is None and outcome.refused is not None:  # refused before the round was read
        return helpers.refused_unread(outcome.refused, refusal_status(outcome), url_for("table.show", game_id=game_id))
    if state is None:
        flash(said(ALREADY_SAVED))
        return redirect(to or url_for("table.show", game_id=game_id), 303)
    if outcome.saved is None:
        status = 200 if outcome.refused is None else refusal_status(outcome)
        return table_page(state, error=outcome.refused, preview=outcome.preview, status=status, **kwargs)
    if to is None:
        return redirect(url_for("table.show", game_id=game_id, saved=outcome.saved.id), 303)
    for notice in notices or ():
        flash(said(notice))
    return redirect(to, 303)


def _already_saved(game_id: int, url: str | None = None):
    """A repeated form: nothing more to do, so go where it went the first time."""
    if wants_json():
        return answer(updates.shared(game_id, SCREENS), notices=[ALREADY_SAVED])
    flash(said(ALREADY_SAVED))
    return redirect(url or url_for("table.show", game_id=game_id), 303)


def _refused(game_id: int, error, status: int):
    """An undo refused: the table as it is now with the reason (in the background: the
    regions and the reason)."""
    state = load_state(game_id)
    if wants_json():
        return answer(updates.shared(game_id, SCREENS, state), error=error, status=status)
    return table_page(state, error=error, status=status)


def saved_words(state: logs.LogState, play_id: int | None) -> list[Say]:
    """What a play this phone has just logged did, in words (sentences), read from the log.

    A logged play, ace or pass sends the phone back to the table with ``?saved=<play id>``
    and the page says what it did, as a flash message would, but nothing travels in the
    session: a play's answer sets no cookie, and the page after it reads the phone's
    session as it was (a changed session is signed again, sent back and checked anew on
    the next request: twice per play). It is told only while that play is the last one of
    the round: once anything else is logged (or it is undone) the page, reloaded or gone
    back to, says nothing of it rather than what is no longer so ("B's turn.").
    """
    last = state.last_row() if play_id is not None and not state.over else None
    if last is None or last.id != play_id:  # checked before the round's rows are made
        return []
    tp = state.plays(state.round_no)[-1]
    row = tp.row
    if row.type == "pass":
        return [Say("%(player)s's turn.", player=tp.passed_to)]
    if row.type == "ace":
        words = [Say("%(player)s: the %(card)s face up.", player=row.player,
                     card=card_parts(row.cards[0])["label"])]
        if state.ending:  # this ace was the last: no other play followed it
            words.append(Say("That was the last ace: the round ends after %(player)s's turn.",
                             player=row.player))
        return words
    if tp.play is not None and row.type in ("meld", "layoff"):
        assert isinstance(tp.play, iceberg.Play)  # the rules' own play (Rummy 500's are Iceberg's)
        return [SayN("%(player)s: %(play)s, %(num)s point.", "%(player)s: %(play)s, %(num)s points.",
                     tp.play.points, player=row.player, play=tp.play.describe(points=False))]
    return []


def table_context(state: logs.LogState, *, picked=(), target=None, player=None,
                  preview=None, error=None, picker=True, notices=()) -> dict:
    """What the table screen and its live regions are drawn from (``picker``: False for
    the live regions, which have no card picker: only how many of each card are left)."""
    game_id, table = state.log.id, table_round(state)
    assert game_id is not None  # a game read from the database
    me = helpers.phone_of(game_id, state.players)
    return dict(
        state=state,
        game_id=game_id,
        me=me,
        whose=links.whose(game_id),
        picker=grid(plays.availability(state.round), picked, aces=not state.variant.aces_face_up)
        if picker else None,
        picked=picked,
        melds=state.melds(),
        worth=helpers.meld_worth(state),
        target=target,
        player=player if player in state.players else me or state.plays_now,
        preview=preview,
        error=error,
        notices=list(notices),
        plays=state.plays(state.round_no) if not state.over else [],
        # the round's score once the game is over (the hands counted too), else its points so far
        earned=state.scored_round.scores if state.over else {p: table.earned(p) for p in state.players},
        last=state.last_row() if not state.over else None,
        version=state.log.version,
        screen=screen(state),
    )


def table_page(state: logs.LogState, *, status=200, **kwargs):
    """The table screen, with what was picked kept when a play is checked or refused."""
    return render_template("table.html", **table_context(state, **kwargs)), status


@bp.route("/table")
def show(game_id: int):
    state = load_state(game_id)
    return table_page(state, notices=saved_words(state, request.args.get("saved", type=int)))


@bp.route("/worth")
def worth(game_id: int):
    return helpers.new_meld_worth(load_state(game_id))


@bp.route("/live")
def live(game_id: int):
    """What changed since ``?since=<version>``: 204 if nothing, else the fresh regions.

    JSON: the version, the screen (and its URL, to move on to), the round, the HTML of
    each region of the table page (data-region) and how many copies of each card are left
    to pick. Read-only links get it too: viewers watch the live table. Drawn once for
    every phone of its kind (web/live.py), as the stream sends it.
    """
    return updates.poll(game_id, SCREENS)


def live_parts(state: logs.LogState) -> dict:
    """What ``/live`` (and a play sent in the background) answers with: the version, the
    screen and its URL, the round, each region's HTML and the cards left to pick."""
    context = table_context(state, picker=False)
    parts = {"scores": "_scores.html"}
    if not state.over:
        parts.update(turn="_turn.html", log="_log.html")
        if links.can_edit() and (not state.ended or state.ending):  # the play form is shown (table.html)
            parts.update(melds="_meld_choice.html")
            if state.variant.aces_face_up:
                parts.update(aces="_aces.html")
    return dict(
        version=state.log.version,
        screen=context["screen"],
        url=screen_url(state),
        round=state.round_no,
        regions=helpers.regions(parts, context),
        cards={str(card): n for card, n in plays.availability(state.round).items()},
    )


def board(state: logs.LogState) -> scoreboard.Board:
    """The scoreboard of a game at the table (views/scoreboard.py): the round's running
    scores, whose turn, the last line of the log, and how the round is ending or ended."""
    status: list[Say | Sentence] = []
    table = table_round(state)
    if not state.over:
        if state.result.tied_at_target:
            status.append(Say("Tie at the top at %(target)s or more: this round decides.",
                              target=state.rules["target"]))
        if state.ending:
            status.append(Say("%(player)s exposed the last ace: the round ends after %(player)s’s turn.",
                              player=table.last_ace_by))
        elif state.ended:
            status.append(Sentence(state.said_status()))
    scores = None if state.over else {p: table.earned(p) for p in state.players}
    if state.ended and not state.ending:  # the hands being entered: the round as counted so far
        try:
            counted = state.counted()
        except Refused:  # hands entered that break the rules: the round end says why
            counted = None
        if counted is not None:
            scores = dict(counted.scored_round.scores)
            if state.missing_hands():
                status.append(Say("These scores are so far: a hand not entered yet counts as holding nothing."))
    aces = getattr(table, "aces", None) if state.variant.aces_face_up and not state.over else None
    round_plays = state.plays(state.round_no) if not state.over else []
    last = get_template_attribute("_board_last.html", "table_last")
    return scoreboard.Board(
        variant=state.variant, game=state.result, version=state.log.version, round_no=state.round_no,
        round_label=None if state.over else helpers.round_title(state.variant, state.round_no),
        round_scores=scores,
        turn=None if state.over or state.ended else state.turn, dealer=state.dealer(),
        last=last(round_plays, state.log.id) if round_plays else None, status=status,
        notes={p: helpers.card_chips([str(c) for c in aces[p]]) for p in state.players if aces.get(p)} if aces else {})


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
    shown = log_checks.preview(state, kind, player, cards, target) if cards else None
    return render_template("_preview.html", preview=shown, state=state, player=player)


def _picked_or_refused(form: PlayForm) -> tuple[tuple[str, ...], Say | Sentence | None]:
    picked = _picked(form)
    refused = helpers.form_error(form) if not form.validate() else None
    if refused is None and not picked:
        refused = Say("Pick the cards first.")
    return picked, refused


@bp.route("/plays", methods=["POST"])
def play(game_id: int):
    """A meld, or a lay-off on the meld chosen, logged ("Confirm"; checked by
    ``log_changes.add_play`` against the log as its write transaction reads it)."""
    form = PlayForm()
    if form.check.data and not form.confirm.data:  # a page drawn before Check had its own address
        return redirect(url_for("table.check", game_id=game_id), 307)
    picked, refused = _picked_or_refused(form)
    outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), "layoff" if form.meld.data else "meld",
                           form.player.data, picked, form.meld.data, round_no=form.round_no.data,
                           seen=form.seen.data, refused=refused)
    return _answered(game_id, outcome, picked=picked, target=form.meld.data, player=form.player.data)


@bp.route("/check", methods=["POST"])
def check(game_id: int):
    """What the picked cards would make and score, without the page's script ("Check",
    which the script replaces by its live preview): the table with the preview, nothing
    saved."""
    form = PlayForm()
    picked, refused = _picked_or_refused(form)
    if refused is not None:
        return table_page(load_state(game_id), error=refused, picked=picked, target=form.meld.data,
                          player=form.player.data, status=422)
    outcome = log_asks.check(get_db(), game_id, "layoff" if form.meld.data else "meld", form.player.data,
                             picked, form.meld.data)
    return _answered(game_id, outcome, picked=picked, target=form.meld.data, player=form.player.data)


@bp.route("/aces", methods=["POST"])
def ace(game_id: int):
    """One tap per ace: it goes face up in front of the player."""
    form = AceForm()
    refused = helpers.form_error(form) if not form.validate() else None
    outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), "ace", form.player.data,
                           [form.card.data], round_no=form.round_no.data, seen=form.seen.data,
                           refused=refused)
    return _answered(game_id, outcome, player=form.player.data)


@bp.route("/out", methods=["POST"])
def out(game_id: int):
    """Someone went out: the round is over, and the hands are counted next. Cards still
    picked (a meld not logged yet) are refused, the rules' refusal first: they would be lost."""
    form = OutForm()
    picked = tuple(request.form.getlist("cards"))
    refused = helpers.form_error(form) if not form.validate() else None
    if picked and refused is None:  # cards still picked: refused, the rules' reason first
        outcome = log_asks.check(get_db(), game_id, "out", form.player.data)
    else:
        outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), "out", form.player.data,
                               round_no=form.round_no.data, seen=form.seen.data, refused=refused)
    if outcome.preview is not None:
        outcome = replace(outcome, refused=outcome.preview.said_error or picked_first(picked), preview=None)
    words = Say("%(player)s went out. Enter the cards left in the other hands.", player=form.player.data)
    return _answered(game_id, outcome, to=url_for("round_end.show", game_id=game_id), notices=[words],
                     picked=picked, target=request.form.get("meld", type=int), player=form.player.data)


@bp.route("/pass", methods=["POST"])
def pass_turn(game_id: int):
    """One tap: the turn passes to the next player (refused if it already moved on, or
    while the page's script holds cards picked: they are to be logged first)."""
    form = PassForm()
    form.validate()
    picked = tuple(request.form.getlist("cards"))  # sent by the page's script: cards still picked
    outcome = log_asks.ask(get_db(), game_id, form.request_id.key(), "pass", "",
                           turn=form.turn.data or None, round_no=form.round_no.data,
                           seen=form.seen.data,
                           refused=picked_first(picked, CONFIRM, PASS))
    return _answered(game_id, outcome)


@bp.route("/undo", methods=["POST"])
def undo(game_id: int):
    """Take back the last play the page showed (refused if another phone logged one since)."""
    form = UndoForm()
    form.validate()
    try:
        undone = log_changes.undo_said(get_db(), game_id, form.request_id.key(), form.last.data)
    except Repeated:
        return _already_saved(game_id, screen_url(load_state(game_id)))
    except Refused as e:
        return _refused(game_id, e.said, refusal_status(e))
    words = Sentence(undone)  # "Took back Ann's meld (…).", as Robber's pages say it
    state = load_state(game_id)
    if wants_json():
        return answer(updates.shared(game_id, SCREENS, state), notices=[words])
    flash(said(words))
    if state.ended:
        return redirect(url_for("round_end.show", game_id=game_id), 303)
    return redirect(url_for("table.show", game_id=game_id), 303)


# ---------------------------------------------------------------------------------------
# Editing or deleting any play, in this round or an earlier one.


def edit_page(state: logs.LogState, play_id: int, *, player=None, picked=None, target=None,
              preview=None, error=None, status=200):
    try:
        row = state.log.play(play_id)
    except NotFound:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("That play is not in this game.")), 404
    # The table as it was just before this play: the melds it could lie on, as they were.
    before = logs.before_play(state, row)
    melds = before.melds(row.round_no) if row.type == "layoff" else []
    # The cards of the play being changed go back to the pool while it is edited.
    result = state.round_result(row.round_no)
    assert result is not None  # play_state read the play's round
    available = plays.availability(result.round, give_back=row.cards)
    return render_template(
        "edit_play.html",
        state=state, game_id=state.log.id, row=row, melds=melds,
        player=player or row.player,
        picker=grid(available, row.cards if picked is None else picked,
                    aces=row.type == "ace" or not state.variant.aces_face_up),
        target=target if target is not None else row.target,
        preview=preview, error=error,
        revision=row.revision, back=round_url(state, row.round_no),
        table_play=next((tp for tp in state.plays(row.round_no) if tp.row.id == play_id), None),
    ), status


def play_state(game_id: int, play_id: int) -> logs.LogState:
    """The round a play is in, read and replayed (the round being played if there is no
    such play: the page then says so)."""
    return helpers.load_state(game_id, SCREENS, logs.round_of(get_db(), game_id, play_id))


def round_url(state: logs.LogState, round_no: int, **args) -> str:
    """Where a change to a play of ``round_no`` goes back to: the table while that round is
    being played, else that round's page."""
    if round_no == state.round_no and state.being_played:
        return url_for("table.show", game_id=state.log.id, **args)
    return url_for("table_game.round_detail", game_id=state.log.id, round_no=round_no, **args)


def _stale_play(game_id: int, play_id: int, refusal: Stale):
    """Someone else changed or deleted the play meanwhile: show it as it is now."""
    state = play_state(game_id, play_id)
    if any(p.id == play_id for p in state.log.plays):
        return edit_page(state, play_id, error=refusal.said, status=409)
    return table_page(load_state(game_id), error=refusal.said, status=409)


@bp.route("/plays/<id:play_id>/edit")
def edit(game_id: int, play_id: int):
    if not links.can_edit():
        abort(403)
    return edit_page(play_state(game_id, play_id), play_id)


@bp.route("/plays/<id:play_id>", methods=["POST"])
def save_edit(game_id: int, play_id: int):
    """Change a play: the whole game is replayed with it; a later play it breaks says so.
    Saved, it goes back to the round the play is in (the table, or that round's page)."""
    state = play_state(game_id, play_id)
    form = EditForm()
    picked = _picked(form)
    kwargs = dict(player=form.player.data, picked=picked, target=form.meld.data)
    if not form.validate():
        return edit_page(state, play_id, error=helpers.form_error(form), status=422, **kwargs)
    if form.check.data and not form.save.data:
        shown = log_changes.preview_edit(state, play_id, form.player.data, picked, form.meld.data)
        return edit_page(state, play_id, preview=shown, **kwargs)
    try:
        row = log_changes.edit_play(get_db(), game_id, form.request_id.key(), play_id, form.player.data,
                             picked, form.meld.data, revision=form.revision.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
        return redirect(url_for("table.show", game_id=game_id), 303)
    except Stale as e:
        return _stale_play(game_id, play_id, e)
    except Refused as e:
        return edit_page(state, play_id, error=e.said, status=422, **kwargs)
    except NotFound:
        return edit_page(state, play_id)
    flash(page_text("Changed %(play)s in round %(round)s: every score is recomputed.",
                    play=row.describe(), round=row.round_no))
    return redirect(round_url(load_state(game_id), row.round_no), 303)


@bp.route("/plays/<id:play_id>/delete", methods=["POST"])
def delete(game_id: int, play_id: int):
    """Delete a play in one tap; the notice that says so can bring it back (restore)."""
    form = DeleteForm()
    form.validate()
    try:
        row = log_changes.delete_play(get_db(), game_id, form.request_id.key(), play_id,
                               revision=form.revision.data)
    except Repeated:
        flash(said(ALREADY_SAVED))
        return redirect(url_for("table.show", game_id=game_id), 303)
    except NotFound:
        return edit_page(play_state(game_id, play_id), play_id)
    except Stale as e:
        return _stale_play(game_id, play_id, e)
    except Refused as e:
        return edit_page(play_state(game_id, play_id), play_id, error=e.said, status=422)
    words = helpers.page_text("Deleted %(play)s from round %(round)s: every score is recomputed.",
                              play=row.describe(), round=row.round_no)
    token = bring_back.deleted_token(game_id, "table.restore", bring_back.deleted_row(game_id, row), words,
                                  form.request_id.key())
    return redirect(round_url(load_state(game_id), row.round_no, deleted=token), 303)


@bp.route("/plays/restore", methods=["POST"])
def restore(game_id: int):
    """Bring back a deleted play where it was (from the notice that said it was deleted)."""
    try:
        row, brought = bring_back.restore_deleted(game_id, "table.restore")
    except bring_back.NotBroughtBack as e:
        return table_page(load_state(game_id), error=e.words, status=e.status)
    if brought:
        flash(helpers.page_text("Brought back %(play)s in round %(round)s: every score is recomputed.",
                                play=row.describe(), round=row.round_no))
    return redirect(round_url(load_state(game_id), row.round_no), 303)


# The family of a table of aces and melds: this module's table, round_end.py's round end
# and table_game.py's game page and files (web/__init__.py registers it).
FAMILY = families.Family(
    SCREENS, (bp, round_end.bp, table_game.bp),
    dict(game="table_game.summary", table="table.show", end="round_end.show", export="table_game.export",
         export_csv="table_game.export_csv"),
    load_state, live_parts, board)
