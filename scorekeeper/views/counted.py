"""The hand-count rummies on the web: Basic Rummy, Gin, Kalooki, Conquian, Manipulation.

A round is entered when it ends (CONTRACT.md, "Hand-count rummies"): who went out (or
knocked, in Gin) or a stalemate, and each hand with the card picker. "Check" scores it
without saving — each hand's best melds and deadwood in Gin with the defender's
lay-offs, each card's points in the others — and "Save" records it. The game page has
the per-round table, the running totals and the winner; a recorded round can be
changed or deleted and everything after it is recomputed. ``/gin/knock`` answers "can
I knock?" for a hand, tied to no game. Scores come from ``counted_store`` (which scores
the game file with gamefile's scoring); nothing here knows a rule.
"""
from __future__ import annotations

import json
import re
from collections import Counter

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from wtforms import BooleanField, IntegerField, StringField, SubmitField
from wtforms.validators import InputRequired, NumberRange, Optional

from .. import counted_store as counted, links, store
from ..chart import chart
from ..db import get_db
from ..forms import WriteForm
from ..games import gin
from ..games.cards import Card, full_deck, parse_card
from ..games.errors import ScorekeeperError
from ..picker import grid
from ..transfer import sheet_csv
from ..variants import VARIANTS
from . import helpers

bp = Blueprint("counted", __name__)

ALREADY_SAVED = "Already saved: that was sent twice, and counted once."
STALEMATE = "stalemate"

# What ending a round is called in each game (the "stalemate" choice).
NO_WINNER = {
    "gin": "No knock: the stock ran down (no score)",
    "conquian": "Tableau: the stock ran out (the next hand's stake goes up)",
}


class RoundForm(WriteForm):
    """A round as it ended: ``ended`` is "p<seat>" (went out / knocked) or "stalemate";
    each player's cards come as ``hand_<seat>`` (one value per card picked)."""

    round_no = IntegerField("Round", [InputRequired(), NumberRange(min=1)])
    revision = IntegerField("Revision", [Optional()])
    ended = StringField("How the round ended", [Optional()])
    rummy = BooleanField("Rummy: went out in one turn, nothing melded or laid off before")
    check = SubmitField("Check the scores")
    save = SubmitField("Save the round")


class DeleteRoundForm(WriteForm):
    revision = IntegerField("Revision", [Optional()])


def _scored(game_id: int) -> counted.Scored:
    return counted.score(_game(game_id))


def _game(game_id: int) -> counted.CountedGame:
    """The game as stored, not scored (what needs no score: its version, its file)."""
    try:
        return counted.load(get_db(), game_id)
    except store.NotFound:
        abort(404)
    except ValueError:  # another variant's game: its own pages
        abort(404)


# ---------------------------------------------------------------------------------------
# Reading the form.


def _ending(form: RoundForm, players: list[str]) -> tuple[str | None, str | None]:
    """(how, player) from the ``ended`` choice: ("out"|"knock", name) or ("stalemate", None)."""
    value = form.ended.data or ""
    if value == STALEMATE:
        return STALEMATE, None
    if value.startswith("p") and value[1:].isdigit() and int(value[1:]) < len(players):
        return None, players[int(value[1:])]
    return None, None


def _hands(players: list[str], in_play: list[str]) -> dict[str, list[str]]:
    return {p: [v for v in request.form.getlist(f"hand_{i}") if v]
            for i, p in enumerate(players) if p in in_play}


def _round_from_form(scored: counted.Scored, form: RoundForm, in_play: list[str]):
    variant = scored.game.variant
    how, player = _ending(form, scored.players)
    if how is None and player is not None:
        how = "knock" if variant == "gin" else "out"
    return counted.new_round(variant, scored.players, how or "", player,
                             bool(form.rummy.data) and variant == "rummy",
                             _hands(scored.players, in_play))


# ---------------------------------------------------------------------------------------
# The pickers.


def _deck(variant: str) -> tuple[Counter, int, int]:
    """(copies of each card, copies a picker cell allows, jokers) for the variant's decks."""
    module = counted.HAND_COUNT[variant]
    deck = full_deck(module.DECKS)
    for card in list(deck):
        if card.rank in getattr(module, "WITHOUT_RANKS", ()):
            deck[card] = 0
    return deck, module.DECKS, module.JOKERS


def _pickers(scored: counted.Scored, in_play: list[str], picked: dict[str, list[str]]) -> list[dict]:
    """One card picker per player still playing (none in Conquian: hands are not counted)."""
    variant = scored.game.variant
    if variant == "conquian":
        return []
    deck, limit, jokers = _deck(variant)
    pickers = []
    for i, player in enumerate(scored.players):
        if player not in in_play:
            continue
        cards = picked.get(player, [])
        pickers.append({
            "player": player,
            "name": f"hand_{i}",
            "rows": grid(deck, [c for c in cards if c != "JK"], aces=True, limit=limit),
            "jokers": [k < cards.count("JK") for k in range(jokers)],
        })
    return pickers


def _chart(scored: counted.Scored):
    rules = scored.rules
    target = rules.get("target") or rules.get("elimination") or 10**9
    return chart(scored.players, [r["scores"] for r in scored.rounds], target)


def _round_page(scored: counted.Scored, round_no: int, form: RoundForm, *, picked=None,
                ended=None, rummy=False, preview=None, error=None, status=200, editing=None):
    """The round-end screen: how the round ended, the hands, and the scores once checked."""
    game = scored.game
    in_play = scored.in_play(round_no)
    return render_template(
        "counted_round.html", scored=scored, game_id=game.id, variant=VARIANTS[game.variant],
        round_no=round_no, form=form, dealer=scored.dealer(round_no), in_play=in_play,
        pickers=_pickers(scored, in_play, picked or {}), ended=ended, rummy=rummy,
        preview=preview, error=error, editing=editing, no_winner=NO_WINNER.get(game.variant,
        "Stalemate: no one went out (no score)"),
    ), status


def _picked_from(rnd: counted.CountedRound) -> dict[str, list[str]]:
    return {p: list(c) for p, c in (rnd.hands or {}).items()}


def _ended_value(scored: counted.Scored, rnd: counted.CountedRound) -> str:
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


def goal(scored: counted.Scored) -> str:
    """How this game is won, in a sentence, with this game's numbers."""
    rules, variant = scored.rules, scored.game.variant
    if variant == "rummy" and rules["scoring"] == "penalty":
        return (f"Each player scores their own hand as penalty points; once someone reaches "
                f"{rules['target']}, the lowest total wins.")
    if variant == "rummy":
        return (f"Whoever goes out scores the others' hands; the first to {rules['target']} "
                "wins (the highest total).")
    if variant == "gin":
        return (f"The knocker scores the difference (gin +{rules['gin_bonus']}, undercut "
                f"+{rules['undercut_bonus']} to the defender). First to {rules['target']}: "
                f"game bonus {rules['game_bonus']}, line bonus {rules['line_bonus']} per hand "
                f"won, shutout {rules['shutout']}.")
    if variant == "kalooki":
        return (f"Cards left in hand are penalty points; above {rules['elimination']} a player "
                "is eliminated, and the last player left wins.")
    if variant == "conquian":
        return "Each hand is a stake; a tableau raises the next one. " + (
            f"{rules['target']} stakes win the match." if rules["target"] else
            "No target: the match goes on as long as you like.")
    return (f"Cards left in hand are penalty points; once someone reaches {rules['target']}, "
            "the lowest total wins.")


@bp.route("/g/<game_key>/counted")
def game(game_id: int):
    """The game page: status and winner, the per-round table, running totals, links."""
    scored = _scored(game_id)
    return render_template(
        "counted_game.html", scored=scored, game_id=game_id, variant=VARIANTS[scored.game.variant],
        chart=_chart(scored), goal=goal(scored), share=links.share(game_id, *store.secrets_of(get_db(), game_id)),
    )


@bp.route("/g/<game_key>/counted/live")
def live(game_id: int):
    """For the game page's script (app.js, live table): 204 while ``?since=<version>`` is
    still the game's version, else the new version and round count; the page reloads.
    Read-only links get it too: viewers watch the totals change."""
    if helpers.unchanged(game_id):
        return "", 204
    game = _game(game_id)  # its version and rounds: nothing to score
    return jsonify(version=game.version, screen="counted", round=len(game.rounds),
                   url=url_for("counted.game", game_id=game_id), regions={}, cards={})


@bp.route("/g/<game_key>/counted/round")
def new_round(game_id: int):
    scored = _scored(game_id)
    if scored.over:
        flash(f"The game is over: {scored.result['status']}.")
        return redirect(url_for("counted.game", game_id=game_id), 303)
    if not links.can_edit():
        return redirect(url_for("counted.game", game_id=game_id), 303)
    form = RoundForm(formdata=None, round_no=scored.round_no)
    return _round_page(scored, scored.round_no, form)


def _check_or_save(scored: counted.Scored, form: RoundForm, round_no: int, editing):
    """Check (score, save nothing) or save a round entered on the round-end screen."""
    game_id = scored.game.id
    in_play = scored.in_play(round_no)
    picked = _hands(scored.players, in_play)
    again = dict(form=form, picked=picked, ended=form.ended.data, rummy=bool(form.rummy.data),
                 editing=editing)
    if not form.validate():
        return _round_page(scored, round_no, error="The form was incomplete: reload the page "
                           "and try again. Nothing was saved.", status=422, **again)
    try:
        rnd = _round_from_form(scored, form, in_play)
        if not form.save.data:  # Check: the scores as they would be, nothing saved
            after = counted.preview(scored, round_no, rnd)
            return _round_page(scored, round_no, preview=after.rounds[round_no - 1], **again)
        if editing:
            counted.edit_round(get_db(), game_id, form.request_id.data, round_no, rnd,
                               form.revision.data)
            flash(f"Round {round_no} changed; every total after it is recomputed.")
        else:
            after = counted.record_round(get_db(), game_id, form.request_id.data, round_no, rnd)
            flash(f"Round {round_no} saved." + (f" Game over: {after.result['status']}."
                                                 if after.over else ""))
    except store.Repeated:
        flash(ALREADY_SAVED)
    except store.NotFound:
        abort(404)
    except store.Refused as e:
        said = "nothing was" in e.message.lower()  # Stale says so itself
        return _round_page(scored, round_no, error=e.message + ("" if said else " Nothing was saved."),
                           status=409 if isinstance(e, store.Stale) else 422, **again)
    return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)


@bp.route("/g/<game_key>/counted/round", methods=["POST"])
def save_round(game_id: int):
    scored = _scored(game_id)
    form = RoundForm()
    if counted.acted_on(get_db(), game_id, form.request_id.data):  # a double tap: done already
        flash(ALREADY_SAVED)
        return redirect(url_for("counted.game", game_id=game_id), 303)
    if scored.over:
        flash(f"The game is over: {scored.result['status']}. Nothing was saved.")
        return redirect(url_for("counted.game", game_id=game_id), 303)
    next_no = len(scored.game.rounds) + 1
    round_no = form.round_no.data if isinstance(form.round_no.data, int) and form.round_no.data >= 1 else next_no
    if round_no != next_no:  # the page was for a round recorded since (another phone)
        error = (f"Round {round_no} was recorded already (on another phone): nothing was "
                 f"saved. Look at it on the game page; this is round {next_no}."
                 if round_no < next_no else f"Round {round_no} is not the round being played "
                 f"(round {next_no} is). Nothing was saved.")
        return _round_page(scored, next_no, RoundForm(formdata=None, round_no=next_no),
                           error=error, status=409)
    return _check_or_save(scored, form, round_no, None)


@bp.route("/g/<game_key>/counted/rounds/<int:round_no>")
def round_detail(game_id: int, round_no: int):
    """A recorded round: how it ended, each hand's melds, deadwood and points, edit/delete."""
    scored = _scored(game_id)
    if not 1 <= round_no <= len(scored.game.rounds):
        return render_template("error.html", title="Not found",
                               message=f"Round {round_no} has not been recorded."), 404
    return _detail_page(scored, round_no)


def _detail_page(scored: counted.Scored, round_no: int, error: str | None = None, status: int = 200):
    return render_template(
        "counted_round_detail.html", scored=scored, game_id=scored.game.id, round_no=round_no,
        variant=VARIANTS[scored.game.variant], rnd=scored.game.rounds[round_no - 1],
        result=scored.rounds[round_no - 1], error=error,
    ), status


@bp.route("/g/<game_key>/counted/rounds/<int:round_no>/edit")
def edit_round(game_id: int, round_no: int):
    scored = _scored(game_id)
    if not 1 <= round_no <= len(scored.game.rounds):
        abort(404)
    if not links.can_edit():
        return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)
    rnd = scored.game.rounds[round_no - 1]
    form = RoundForm(formdata=None, round_no=round_no, revision=rnd.revision)
    return _round_page(scored, round_no, form, picked=_picked_from(rnd),
                       ended=_ended_value(scored, rnd), rummy=rnd.how == "rummy", editing=rnd)


@bp.route("/g/<game_key>/counted/rounds/<int:round_no>/edit", methods=["POST"])
def save_edit(game_id: int, round_no: int):
    scored = _scored(game_id)
    if not 1 <= round_no <= len(scored.game.rounds):
        flash(f"Round {round_no} is not in the game any more (deleted on another phone): "
              "nothing was changed.")
        return redirect(url_for("counted.game", game_id=game_id), 303)
    return _check_or_save(scored, RoundForm(), round_no, scored.game.rounds[round_no - 1])


@bp.route("/g/<game_key>/counted/rounds/<int:round_no>/delete", methods=["POST"])
def delete_round(game_id: int, round_no: int):
    form = DeleteRoundForm()
    if request.form.get("sure") != "y":  # a delete cannot be undone: its box must be ticked
        scored = _scored(game_id)
        if not 1 <= round_no <= len(scored.game.rounds):
            flash(f"Round {round_no} is not in the game any more (deleted on another phone): "
                  "nothing was deleted.")
            return redirect(url_for("counted.game", game_id=game_id), 303)
        return _detail_page(scored, round_no, status=422, error=(
            f"Round {round_no} was not deleted: a delete cannot be undone, so tick “Yes, delete "
            f"round {round_no} for good” and tap Delete again."))
    try:
        counted.delete_round(get_db(), game_id, form.request_id.data, round_no,
                             form.revision.data if form.validate() else None)
    except store.Repeated:
        flash(ALREADY_SAVED)
    except store.NotFound:
        abort(404)
    except ValueError:
        abort(404)
    except store.Refused as e:
        flash(e.message + " Nothing was deleted.")
        if 1 <= round_no <= len(_scored(game_id).game.rounds):
            return redirect(url_for("counted.round_detail", game_id=game_id, round_no=round_no), 303)
    else:
        flash(f"Round {round_no} deleted; the rounds after it moved up and every total is recomputed.")
    return redirect(url_for("counted.game", game_id=game_id), 303)


@bp.route("/g/<game_key>/counted/export")
def export(game_id: int) -> Response:
    """The game file (CONTRACT.md): ``scorekeeper score`` recomputes every score from it."""
    game = _game(game_id)  # the file as kept: nothing to score
    body = json.dumps(game.document(), indent=2, ensure_ascii=False)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{game.variant}-game-{game_id}.json"'})


@bp.route("/g/<game_key>/counted/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per round, a column per player, bonuses (Gin), the totals."""
    scored = _scored(game_id)
    rows = [(n, scored.ended(r), r["scores"]) for n, r in enumerate(scored.rounds, 1)]
    bonuses = scored.bonuses()
    if any(bonuses.values()):
        rows.append(("Bonuses", "", bonuses))
    body = sheet_csv(("Round", "Ended"), scored.players, rows, scored.totals)
    return Response("\ufeff" + body, mimetype="text/csv", headers={
        "Content-Disposition":
            f'attachment; filename="{scored.game.variant}-game-{game_id}-scores.csv"'})


# ---------------------------------------------------------------------------------------
# Gin: "can I knock?", for any hand, tied to no game.


def knock_answer(names: list[str], limit: int) -> dict:
    """What a hand of 10 (or 11, before the discard) may do: its best melds and deadwood.

    With 11 cards, the discard that leaves the least deadwood is found first.
    """
    try:
        cards = [parse_card(n) for n in names]
    except ScorekeeperError as e:
        raise store.Refused(str(e)) from None
    twice = [str(c) for c, n in Counter(cards).items() if n > 1]
    if twice:
        raise store.Refused(f"{twice[0]} is picked twice, but one deck has one {twice[0]}")
    if any(c.is_joker for c in cards):
        raise store.Refused("Gin is played without jokers")
    if len(cards) not in (gin.HAND_SIZE, gin.HAND_SIZE + 1):
        raise store.Refused(f"pick the {gin.HAND_SIZE} cards of the hand (or 11, before the "
                            f"discard): {len(cards)} picked")
    discard: Card | None = None
    if len(cards) == gin.HAND_SIZE + 1:
        discard = min(cards, key=lambda c: (gin.least_deadwood([x for x in cards if x != c]),
                                            -gin.deadwood_value(c)))
        cards = [c for c in cards if c != discard]
    best = gin.best_arrangements(cards)[0]
    return {"melds": [[str(c) for c in m] for m in best.melds],
            "deadwood": [str(c) for c in best.deadwood], "points": best.points,
            "discard": str(discard) if discard else None, "limit": limit,
            "gin": best.points == 0, "may_knock": best.points <= limit}


@bp.route("/gin/knock")
def knock():
    names = [v for v in request.args.getlist("cards") if v]
    limit_text = request.args.get("knock_limit", "").strip()
    answer, error = None, None
    if not limit_text:  # not given: the published rule's 10
        limit = 10
    elif re.fullmatch(r"[0-9]{1,3}", limit_text):
        limit = int(limit_text)
    else:  # said, never replaced silently by another number
        limit = limit_text
        error = (f"The knock limit must be a whole number of points, 0 or more (10 in the "
                 f"published rule): “{limit_text[:20]}” is not one. Nothing was judged.")
    if names and not error:
        try:
            answer = knock_answer(names, limit)
        except store.Refused as e:
            error = e.message
    back = request.args.get("game", "")  # the game page it was opened from: only that
    back = back if re.fullmatch(r"/g/[A-Za-z0-9_-]+/counted", back) else None
    deck, _limit, _jokers = _deck("gin")
    return render_template("counted_knock.html", rows=grid(deck, names, aces=True, limit=1),
                           answer=answer, error=error, limit=limit, limit_bad=not isinstance(limit, int),
                           game=back), 422 if error else 200


def init_app(app) -> None:
    """Register the pages each hand-count variant answers with for the Iceberg endpoints."""
    pages = {
        "games.summary": "counted.game",
        "table.show": "counted.new_round",
        "round_end.show": "counted.new_round",
        "games.export": "counted.export",
        "games.export_csv": "counted.export_csv",
    }
    for variant in counted.VARIANTS:
        helpers.VARIANT_PAGES[variant] = dict(pages)
    app.register_blueprint(bp)
