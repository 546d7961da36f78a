"""Players: everyone who played here, a player's page and statistics, rename and merge,
head to head, and a finished game's printable score sheet.

What these pages cover: every game in this database (the score pad of one table or
household; the app has no accounts). They never show a game's link: a game is linked
only when this phone already holds a link to it (``links.remembered``), with that link.
"""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import InputRequired, Length

from ... import stats
from ...storage import games, kernel, players
from ...storage.kernel import NotFound, Refused, Stale
from .. import links
from ..chart import chart, timeline
from ..database import get_db

bp = Blueprint("players", __name__)

SCOPE = ("Every game kept on this server counts: this is the score pad of one table. "
         "A game is linked only if this phone has opened it.")


class RenameForm(FlaskForm):
    name = StringField("New name", [InputRequired("a player needs a name"),
                                    Length(max=players.NAME_LENGTH,
                                           message=f"keep names to {players.NAME_LENGTH} letters")])
    expected = HiddenField()  # the name the page showed: a rename made meanwhile is not overwritten


class MergeForm(FlaskForm):
    into = SelectField("Same person as", coerce=int, validate_choice=False)
    # A merge cannot be undone: its box "sure" must be sent ticked ("y"), checked in merge().


@bp.app_template_global("known_players")
def known_players() -> list[str]:
    """The names of everyone who played here, for the new-game page."""
    return [p.name for p in players.everyone(get_db(), players.EVERY_GAME)]


def _mine() -> dict[int, tuple[str, str]]:
    return links.remembered()


@bp.route("/players")
def index():
    db = get_db()
    everyone = players.everyone(db, players.EVERY_GAME)
    return render_template("players.html", everyone=everyone, scope=SCOPE)


def _player_page(player_id: int, rename_form=None, merge_form=None, error=None, status=200):
    db = get_db()
    player = players.get(db, player_id, players.EVERY_GAME)
    records, unread = players.records(db, players.game_ids(db, player_id, players.EVERY_GAME))
    figures = stats.player_stats(player_id, records)
    drawn = timeline([(r.date, r.won, r.rate,
                       f"{r.date}, {stats.variant_name(r.variant)}: {'won' if r.won else 'lost'}, "
                       f"win rate so far {r.rate}%") for r in figures.results])
    rename_form = rename_form or RenameForm(formdata=None, name=player.name, expected=player.name)
    merge_form = merge_form or MergeForm(formdata=None, into=None)
    merge_form.into.choices = [(p.id, p.name) for p in players.everyone(db, players.EVERY_GAME) if p.id != player_id]
    return render_template(
        "player.html", player=player, figures=figures, timeline=drawn, unread=unread,
        rename_form=rename_form, merge_form=merge_form, mine=_mine(), error=error, scope=SCOPE,
        variant_name=stats.variant_name,
    ), status


@bp.route("/players/<int:player_id>")
def show(player_id: int):
    return _player_page(player_id)


@bp.route("/players/<int:player_id>/rename", methods=["POST"])
def rename(player_id: int):
    form = RenameForm()
    players.get(get_db(), player_id, players.EVERY_GAME)  # 404 for no such player
    if not form.validate():
        message = next(iter(e for errors in form.errors.values() for e in errors), "check the name")
        return _player_page(player_id, rename_form=form, error=_sorry("The name was not changed", message),
                            status=422)
    try:
        changed = players.rename(get_db(), player_id, form.name.data, form.expected.data or None,
                                 editable=players.EVERY_GAME)
    except Stale as e:
        return _player_page(player_id, error=_sorry("The name was not changed", e.message), status=409)
    except Refused as e:
        return _player_page(player_id, rename_form=form, error=_sorry("The name was not changed", e.message),
                            status=422)
    name = players.get(get_db(), player_id, players.EVERY_GAME).name
    flash(f"Renamed to {name}" + (f" in {_games(len(changed))}." if changed else "."))
    return redirect(url_for("players.show", player_id=player_id), 303)


@bp.route("/players/<int:player_id>/merge", methods=["POST"])
def merge(player_id: int):
    form = MergeForm()
    db = get_db()
    source = players.get(db, player_id, players.EVERY_GAME)
    into = request.form.get("into", "")
    if not into.isdigit():
        return _player_page(player_id, error=_sorry(
            "Nothing was merged", "choose the player to merge with"), status=422)
    try:
        target = players.get(db, int(into), players.EVERY_GAME)
    except NotFound:
        return _player_page(player_id, error=_sorry(
            "Nothing was merged", "that player is not here any more (merged or renamed meanwhile?)"),
            status=422)
    if target.id != source.id and request.form.get("sure") != "y":
        return _player_page(player_id, merge_form=form, error=_sorry(
            "Nothing was merged", f"a merge cannot be undone, so tick “Yes, {source.name} and "
            f"{target.name} are the same person” to confirm it"), status=422)
    try:
        changed = players.merge(db, player_id, target.id, editable=players.EVERY_GAME)
    except Refused as e:
        return _player_page(player_id, merge_form=form, error=_sorry("Nothing was merged", e.message),
                            status=422)
    flash(f"{source.name} and {target.name} are one player now: {target.name}"
          + (f", in {_games(len(changed))} more." if changed else "."))
    return redirect(url_for("players.show", player_id=target.id), 303)


@bp.route("/players/head-to-head")
def head_to_head():
    db = get_db()
    everyone = [p for p in players.everyone(db, players.EVERY_GAME) if p.games]
    records, unread = players.records(db, players.EVERY_GAME)
    duels = stats.head_to_head([p.id for p in everyone], records)
    return render_template("players_head_to_head.html", everyone=everyone, duels=duels,
                           unread=unread, scope=SCOPE)


@bp.route("/g/<game_key>/sheet")
def sheet(game_id: int):
    """A game's score sheet on one printed page, for every game type; shared by its
    read-only link (never the edit link, whichever link opened it)."""
    db = get_db()
    header = kernel.header(db, game_id)
    try:
        game = games.replayed(db, game_id)
    except Refused:  # a stored log the rules no longer allow
        return render_template("error.html", title="Score sheet",
                               message="This game's score sheet cannot be made yet: open its game "
                                       "page instead."), 409
    record = stats.GameRecord(game_id, header["variant"], header["created"][:10], game)
    counted = [r for _n, r in record.counted()]
    target = game.rules.get("target") or 10**9
    view_url = url_for("players.sheet", game_key=links.make_key(game_id, header["view_token"]),
                       _external=True)
    notes = stats.highlights(stats.facts(record))
    # What the totals hold beyond the rounds' scores: Gin's game and line bonuses.
    bonuses = {p: game.totals[p] - sum(r.scores[p] for r in counted) for p in record.players}
    return render_template(
        "sheet.html", game_id=game_id, header=header, record=record,
        notes=notes, word=header["variant"].round_word.capitalize(), played=len(counted),
        ended=[r.words for r in game.rounds],
        chart=chart(record.players, [r.scores for r in counted], target),
        view_url=view_url, qr=links.qr_svg(view_url, "Read-only link to this score sheet"),
        low_wins=record.low_wins, bonuses=bonuses if any(bonuses.values()) else None,
    )


def _games(n: int) -> str:
    return f"{n} game" + ("" if n == 1 else "s")


def _sorry(what: str, reason: str) -> str:
    return f"{what}: {kernel.sentence(reason)}"
