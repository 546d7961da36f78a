"""The hand-count rummies on the web: Basic Rummy, Gin, Kalooki, Conquian, Manipulation.

A round is entered when it ends (docs/game-file.md, "Rounds counted at the end"): who went out (or
knocked, in Gin) or a stalemate, and each hand with the card picker. "Check" scores it
without saving — each hand's best melds and deadwood in Gin with the defender's
lay-offs, each card's points in the others — and "Save" records it. The game page has
the per-round table, the running totals and the winner; a recorded round can be
changed or deleted and everything after it is recomputed. ``/<variant>/knock`` answers
"can I knock?" for a hand of a game that has such advice (Gin), tied to no game. Scores come from the store
(storage/rounds.py), which replays the game file; what differs between these games (how
a round ends, whether hands are counted, the words) is said by each game's ``VARIANT``:
nothing here knows a rule or a game by name.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from flask import Blueprint, Response, abort, flash, get_template_attribute, redirect, render_template, request, url_for
from flask_babel import lazy_gettext
from wtforms import BooleanField, StringField, SubmitField
from wtforms.validators import InputRequired, Optional

from ...games import registry
from ...games.cards import parse_card
from ...games.errors import ScorekeeperError
from ...games.handcount import RUMMY
from ...games.words import Say, Sentence, joined
from ...storage import kernel, transfer
from ...storage import rounds as counted
from ...storage.kernel import NotFound, Refused, Repeated, Stale
from .. import links
from .. import live as updates
from ..chart import chart
from ..database import get_db
from ..forms import Between, WholeNumberField, WriteForm
from ..picker import grid
from ..words import page_text, said
from . import bring_back, families, helpers, scoreboard
from .files import export_file, sheet_response
from .helpers import ALREADY_SAVED

SCREENS = "hands"
bp = Blueprint("counted", __name__)
bp.before_request(helpers.own_games(SCREENS))

STALEMATE = "stalemate"


class RoundForm(WriteForm):
    """A round as it ended: ``ended`` is "p<seat>" (went out / knocked) or "stalemate";
    each player's cards come as ``hand_<seat>`` (one value per card picked)."""

    round_no = WholeNumberField(lazy_gettext("Round"),
                            [InputRequired(), Between(1, links.LARGEST_ID, lazy_gettext("no such round"))])
    revision = WholeNumberField(lazy_gettext("Revision"), [Optional()])
    ended = StringField(lazy_gettext("How the round ended"), [Optional()])
    rummy = BooleanField(lazy_gettext("Rummy: went out in one turn, nothing melded or laid off before"))
    check = SubmitField(lazy_gettext("Check the scores"))
    save = SubmitField(lazy_gettext("Save the round"))


class DeleteRoundForm(WriteForm):
    revision = WholeNumberField(lazy_gettext("Revision"), [Optional()])


def _scored(game_id: int) -> counted.Scored:
    return helpers.load_state(game_id, SCREENS)


# ---------------------------------------------------------------------------------------
# Reading the form.


def _ending(form: RoundForm, players: list[str]) -> tuple[str | None, str | None]:
    """(how, player) from the ``ended`` choice: ("out"|"knock", name) or ("stalemate", None)."""
    value = form.ended.data or ""
    if value == STALEMATE:
        return STALEMATE, None
    seat = links.parse_id(value[1:]) if value.startswith("p") else None
    if seat is not None and seat < len(players):
        return None, players[seat]
    return None, None


def _hands(players: list[str], in_play: list[str]) -> dict[str, list[str]]:
    return {p: [v for v in request.form.getlist(f"hand_{i}") if v]
            for i, p in enumerate(players) if p in in_play}


def _round_from_form(scored: counted.Scored, form: RoundForm, in_play: list[str]):
    variant = scored.variant
    how, player = _ending(form, scored.players)
    if how is None and player is not None:
        how = variant.ender
    return counted.new_round(variant, scored.players, how or "", player,
                             bool(form.rummy.data) and variant.rummy_bonus,
                             _hands(scored.players, in_play))


# ---------------------------------------------------------------------------------------
# The pickers.


def _deck(variant) -> tuple[Counter, int, int]:
    """(copies of each card, copies a picker cell allows, jokers) for the variant's decks."""
    return variant.deck(), variant.decks, variant.jokers


def _pickers(scored: counted.Scored, in_play: list[str], picked: dict[str, list[str]]) -> list[dict]:
    """One card picker per player still playing (none where hands are not counted)."""
    variant = scored.variant
    if not variant.counts_hands:
        return []
    deck, limit, jokers = _deck(variant)
    pickers = []
    for i, player in enumerate(scored.players):
        if player not in in_play:
            continue
        cards = picked.get(player, [])
        pickers.append({
            "player": player,
            "seat": i,
            "name": f"hand_{i}",
            "rows": grid(deck, [c for c in cards if c != "JK"], aces=True, limit=limit),
            "jokers": [k < cards.count("JK") for k in range(jokers)],
        })
    return pickers


def expected_cards(variant, players: int) -> int | None:
    """How many cards each hand holds when it is entered, where the game says so (its
    variant's ``hand_size``: the number of players → the cards of a hand); None where
    hands differ (the cards left when someone went out). The picker's count reads
    "7 of 10 cards" or "7 cards"."""
    return variant.hand_size(players) if variant.hand_size else None


def _chart(scored: counted.Scored):
    """The running totals, with the total that ends the game as a dashed line (the
    variant's ``ending_total``: a target, or the total above which a player is out)."""
    total, limit = scored.variant.ending_total(scored.rules) or (10**9, "target")  # none: no line
    return chart(scored.players, [r.scores for r in scored.rounds], total, limit=limit)


def _round_page(scored: counted.Scored, round_no: int, form: RoundForm, *, picked=None,
                ended=None, rummy=False, preview=None, preview_totals=None, error=None, status=200,
                editing=None):
    """The round-end screen: how the round ended, the hands, and the scores once checked."""
    game = scored.game
    assert game.id is not None  # a game read from the database
    in_play = scored.in_play(round_no)
    return render_template(
        "counted_round.html", scored=scored, game_id=game.id, variant=scored.variant,
        round_no=round_no, form=form, dealer=scored.dealer(round_no), in_play=in_play,
        pickers=_pickers(scored, in_play, picked or {}), ended=ended, rummy=rummy,
        preview=preview, preview_totals=preview_totals, error=error, editing=editing,
        expected=expected_cards(scored.variant, len(in_play)),
        me=helpers.phone_of(game.id, scored.players), whose=links.whose(game.id),
    ), status


def _picked_from(rnd: counted.RecordedRound) -> dict[str, list[str]]:
    return {p: list(c) for p, c in (rnd.hands or {}).items()}


def _ended_value(scored: counted.Scored, rnd: counted.RecordedRound) -> str:
    if rnd.how == STALEMATE:
        return STALEMATE
    return f"p{scored.players.index(rnd.player)}" if rnd.player in scored.players else ""


# ---------------------------------------------------------------------------------------
# Pages of a game.


@bp.app_template_filter("by_meld")
def by_meld(layoffs: list[dict]) -> list[tuple[list[str], list[str]]]:
    """Gin lay-offs grouped by the knocker's meld they went on, in order: 5♠ 6♠ on 2♠ 3♠ 4♠."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for layoff in layoffs:
        groups.setdefault(tuple(layoff["onto"]), []).append(layoff["card"])
    return [(cards, list(onto)) for onto, cards in groups.items()]


@bp.route("/g/<game_key>/counted")
def game(game_id: int):
    """The game page: status and winner, the per-round table, running totals, links."""
    scored = _scored(game_id)
    first = helpers.rounds_shown(scored.recorded)
    return render_template(
        "counted_game.html", scored=scored, game_id=game_id, variant=scored.variant,
        rounds=list(enumerate(scored.rounds[first - 1:], first)),
        chart=_chart(scored), goal=scored.variant.goal(scored.rules),
        share=links.share(game_id, *kernel.secrets_of(get_db(), game_id)),
    )


@bp.route("/g/<game_key>/counted/live")
def live(game_id: int):
    """For the game page's script (app.js, live table): 204 while ``?since=<version>`` is
    still the game's version, else the new version and round count; the page reloads.
    Read-only links get it too: viewers watch the totals change."""
    return updates.poll(game_id, SCREENS)


def live_parts(scored: counted.Scored) -> dict:
    """What ``/live`` and the stream send (web/live.py): the version and round count, the
    page to reload; no regions."""
    game = scored.game
    return dict(version=game.version, screen="counted", round=scored.recorded,
                url=url_for("counted.game", game_id=game.id), regions={}, cards={})


def board(scored: counted.Scored) -> scoreboard.Board:
    """The scoreboard of a game of hands counted at the end (views/scoreboard.py): no turn
    or play is logged, so the last round recorded: its scores and how it ended."""
    status = []
    if not scored.over:
        status.append(Say("In progress: round %(n)s, %(dealer)s deals.", n=scored.round_no, dealer=scored.dealer()))
        gone = scored.eliminated()
        if gone:
            status.append(Say("Eliminated: %(players)s.", players=joined(gone, ", ")))
    last_round = scored.rounds[-1] if scored.rounds else None
    last = get_template_attribute("_board_last.html", "counted_last")
    return scoreboard.Board(
        variant=scored.variant, game=scored, version=scored.game.version, round_no=scored.round_no,
        round_label=helpers.round_title(scored.variant, scored.recorded) if last_round else None,
        round_scores=last_round.scores if last_round else None,
        last=last(scored.variant, scored.recorded, last_round) if last_round else None,
        last_kind="round", status=status, out=tuple(scored.eliminated()))


@bp.route("/g/<game_key>/counted/round")
def new_round(game_id: int):
    scored = _scored(game_id)
    if scored.over:
        flash(page_text("The game is over: %(status)s.", status=scored.said_status()))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    if not links.can_edit():
        return redirect(url_for("counted.game", game_id=game_id), 303)
    form = RoundForm(formdata=None, round_no=scored.round_no)
    return _round_page(scored, scored.round_no, form)


def _check_or_save(scored: counted.Scored, form: RoundForm, round_no: int, editing):
    """Check (score, save nothing) or save a round entered on the round-end screen."""
    game_id = scored.game.id
    assert game_id is not None  # a game read from the database
    in_play = scored.in_play(round_no)
    picked = _hands(scored.players, in_play)
    again = dict(form=form, picked=picked, ended=form.ended.data, rummy=bool(form.rummy.data),
                 editing=editing)
    if not form.validate():
        return _round_page(scored, round_no, error=Say("The form was incomplete: reload the page "
                           "and try again. Nothing was saved."), status=422, **again)
    try:
        rnd = _round_from_form(scored, form, in_play)
        empty = rnd.holding_nothing()
        if empty:  # said on the check and with the round saved
            flash(page_text("Nothing is picked for %(players)s: counted as holding no cards.",
                            players=helpers.names_and(empty)))
        if not form.save.data:  # Check: the scores as they would be, nothing saved
            result, totals = counted.preview(get_db(), scored, round_no, rnd)
            return _round_page(scored, round_no, preview=result, preview_totals=totals, **again)
        if editing:
            counted.edit_round(get_db(), game_id, form.request_id.key(), round_no, rnd,
                               form.revision.data)
            flash(page_text("Round %(n)s changed; every total after it is recomputed.", n=round_no))
        else:
            after = counted.record_round(get_db(), game_id, form.request_id.key(), round_no, rnd)
            if after.over:
                flash(page_text("Round %(n)s saved. Game over: %(status)s.", n=round_no,
                                status=after.said_status()))
            else:
                flash(page_text("Round %(n)s saved.", n=round_no))
    except Repeated:
        flash(said(ALREADY_SAVED))
    except NotFound:
        abort(404)
    except Refused as e:
        error = e.said if e.tells_nothing_saved else Say("%(why)s Nothing was saved.", why=e.said)
        return _round_page(scored, round_no, error=error,
                           status=409 if isinstance(e, Stale) else 422, **again)
    return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)


@bp.route("/g/<game_key>/counted/round", methods=["POST"])
def save_round(game_id: int):
    scored = _scored(game_id)
    form = RoundForm()
    if kernel.acted_on(get_db(), game_id, form.request_id.key()):  # a double tap: done already
        flash(said(ALREADY_SAVED))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    if scored.over:
        flash(page_text("The game is over: %(status)s. Nothing was saved.", status=scored.said_status()))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    next_no = scored.recorded + 1
    round_no = form.round_no.data if isinstance(form.round_no.data, int) and form.round_no.data >= 1 else next_no
    if round_no != next_no:  # the page was for a round recorded since (another phone)
        if round_no < next_no:
            error = Say("Round %(n)s was recorded already (on another phone): nothing was saved. "
                        "Look at it on the game page; this is round %(next)s.", n=round_no, next=next_no)
        else:
            error = Say("Round %(n)s is not the round being played (round %(next)s is). Nothing was "
                        "saved.", n=round_no, next=next_no)
        return _round_page(scored, next_no, RoundForm(formdata=None, round_no=next_no),
                           error=error, status=409)
    return _check_or_save(scored, form, round_no, None)


@bp.route("/g/<game_key>/counted/rounds/<id:round_no>")
def round_detail(game_id: int, round_no: int):
    """A recorded round: how it ended, each hand's melds, deadwood and points, edit/delete."""
    scored = _scored(game_id)
    if not 1 <= round_no <= scored.recorded:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("Round %(n)s has not been recorded.", n=round_no)), 404
    return _detail_page(scored, round_no)


def _detail_page(scored: counted.Scored, round_no: int, error: str | None = None, status: int = 200):
    """A recorded round's page: the round as recorded, replayed from the game before it."""
    db, game_id = get_db(), scored.game.id
    assert game_id is not None  # a game read from the database
    return render_template(
        "counted_round_detail.html", scored=scored, game_id=game_id, round_no=round_no,
        variant=scored.variant, rnd=counted.recorded_round(db, game_id, round_no),
        result=counted.detail(db, scored, round_no), error=error,
    ), status


@bp.route("/g/<game_key>/counted/rounds/<id:round_no>/edit")
def edit_round(game_id: int, round_no: int):
    scored = _scored(game_id)
    if not 1 <= round_no <= scored.recorded:
        abort(404)
    if not links.can_edit():
        return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)
    rnd = counted.recorded_round(get_db(), game_id, round_no)
    form = RoundForm(formdata=None, round_no=round_no, revision=rnd.revision)
    return _round_page(scored, round_no, form, picked=_picked_from(rnd),
                       ended=_ended_value(scored, rnd), rummy=rnd.how == RUMMY, editing=rnd)


@bp.route("/g/<game_key>/counted/rounds/<id:round_no>/edit", methods=["POST"])
def save_edit(game_id: int, round_no: int):
    scored = _scored(game_id)
    if not 1 <= round_no <= scored.recorded:
        flash(page_text("Round %(n)s is not in the game any more (deleted on another phone): "
                        "nothing was changed.", n=round_no))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    return _check_or_save(scored, RoundForm(), round_no, counted.recorded_round(get_db(), game_id, round_no))


@bp.route("/g/<game_key>/counted/rounds/<id:round_no>/delete", methods=["POST"])
def delete_round(game_id: int, round_no: int):
    """Delete a round in one tap; the notice that says so can bring it back (restore_round)."""
    form = DeleteRoundForm()
    scored = _scored(game_id)
    if not 1 <= round_no <= scored.recorded:
        flash(page_text("Round %(n)s is not in the game any more (deleted on another phone): "
                        "nothing was deleted.", n=round_no))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    deleted = counted.recorded_round(get_db(), game_id, round_no)
    try:
        counted.delete_round(get_db(), game_id, form.request_id.key(), round_no,
                             form.revision.data if form.validate() else None)
    except Repeated:
        flash(said(ALREADY_SAVED))
    except NotFound:
        abort(404)
    except Refused as e:
        flash(page_text("%(why)s Nothing was deleted.", why=e.said))
        if 1 <= round_no <= _scored(game_id).recorded:
            return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)
    else:
        what = {"id": deleted.play_id, "round": round_no, "how": deleted.how, "player": deleted.player,
                "hands": None if deleted.hands is None else {p: list(c) for p, c in deleted.hands.items()},
                "seats": bring_back.seated(game_id)}
        words = page_text("Round %(n)s deleted; the rounds after it moved up and every total is "
                          "recomputed.", n=round_no)
        token = bring_back.deleted_token(game_id, "counted.restore_round", what, words, form.request_id.data)
        return redirect(url_for("counted.game", game_id=game_id, deleted=token), 303)
    return redirect(url_for("counted.game", game_id=game_id), 303)


def _deleted_round(data: dict, game_id: int) -> tuple[int, counted.RecordedRound] | None:
    """The round a deleted-round notice names (its number, and the round as recorded, each
    player by the seat's name now); None if the notice names no round."""
    try:
        now = bring_back.by_seat(data.get("seats"), game_id)  # a player renamed since: the seat's name now
        hands = None if data["hands"] is None else {now(str(p)): tuple(str(c) for c in cards)
                                                    for p, cards in data["hands"].items()}
        return int(data["round"]), counted.RecordedRound(str(data["how"]), now(str(data["player"])), hands,
                                                         bring_back.deleted_id(data))
    except (TypeError, KeyError, ValueError, AttributeError):
        return None


@bp.route("/g/<game_key>/counted/rounds/restore", methods=["POST"])
def restore_round(game_id: int):
    """Bring back a deleted round where it was (from the notice that said it was deleted)."""
    back = bring_back.bring_back_form(game_id, "counted.restore_round")
    named = _deleted_round(back[0], game_id) if back is not None else None
    if back is None or named is None:  # not a notice of this game's, or not one of a round
        flash(said(bring_back.CANNOT_BRING_BACK))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    round_no, rnd = named
    try:
        counted.restore_round(get_db(), game_id, back[1], round_no, rnd)
    except Repeated:
        flash(page_text("Already brought back: round %(n)s.", n=round_no))
    except Refused as e:
        flash(page_text("Round %(n)s was not brought back: %(why)s Nothing was changed.", n=round_no,
                        why=e.said))
        return redirect(url_for("counted.game", game_id=game_id), 303)
    else:
        flash(page_text("Round %(n)s brought back; every total is recomputed.", n=round_no))
    return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)


@bp.route("/g/<game_key>/counted/export")
def export(game_id: int) -> Response:
    """The game file (docs/game-file.md): ``scorekeeper score`` recomputes every score from it."""
    _scored(game_id)  # another family's game: its own page
    return export_file(game_id)


@bp.route("/g/<game_key>/counted/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per round, a column per player, bonuses (Gin), the totals."""
    scored = _scored(game_id)
    rows: list[tuple[int | str, str, Mapping[str, int]]] = [
        (n, said(r.words), r.scores) for n, r in enumerate(scored.rounds, 1)]
    bonuses = scored.bonuses()
    if any(bonuses.values()):
        rows.append((page_text("Bonuses"), "", bonuses))
    body = transfer.sheet_csv((page_text("Round"), page_text("Ended")), scored.players, rows, scored.totals,
                              page_text("Total"))
    return sheet_response(scored.variant, game_id, body)


# ---------------------------------------------------------------------------------------
# "Can I knock?" (Gin), for any hand, tied to no game.


@bp.route("/<variant_key>/knock")
def knock(variant_key: str):
    variant = registry.get(variant_key)
    if variant is None or variant.knock_advice is None:
        abort(404)
    names = [v for v in request.args.getlist("cards") if v]
    limit_text = request.args.get("knock_limit", "").strip()
    limit: int | str  # a limit that is not a number is said back as it was given
    error: Say | Sentence | None
    answer, error = None, None
    if not limit_text:  # not given: the published rule's 10
        limit = 10
    elif re.fullmatch(r"[0-9]{1,3}", limit_text):
        limit = int(limit_text)
    else:  # said, never replaced silently by another number
        limit = limit_text
        error = Say("The knock limit must be a whole number of points, 0 or more (10 in the "
                    "published rule): “%(limit)s” is not one. Nothing was judged.", limit=limit_text[:20])
    if names and isinstance(limit, int):  # not a number: said (error), nothing judged
        try:
            answer = variant.knock_advice([parse_card(n) for n in names], limit)
        except ScorekeeperError as e:
            error = Sentence(e.message)
    asked = request.args.get("game", "")  # the game page it was opened from: only that
    back = asked if re.fullmatch(r"/g/[A-Za-z0-9_-]+/counted", asked) else None
    deck, _limit, _jokers = _deck(variant)
    return render_template("counted_knock.html", variant=variant, rows=grid(deck, names, aces=True, limit=1),
                           answer=answer, error=error, limit=limit, limit_bad=not isinstance(limit, int),
                           game=back), 422 if error else 200


FAMILY = families.Family(  # web/__init__.py registers it
    SCREENS, (bp,),
    dict(game="counted.game", table="counted.new_round", end="counted.new_round",
         export="counted.export", export_csv="counted.export_csv"),
    _scored, live_parts, board)
