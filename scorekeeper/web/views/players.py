"""Players: the people of this phone's games, a player's page and statistics, rename
and merge, head to head, and a finished game's printable score sheet.

What these pages cover (``links.seen_games``): on a group's link (``/group/<key>/players…``)
the group's games; elsewhere the games this phone holds a link to and those of the groups
it holds a link to, nothing else — the links are the only keys this app has. A player
who sat in none of them is a 404, as one who does not exist. A player belongs to one
group, and a rename or a merge changes every game of the player, all of them the
group's: it needs the group's edit link (``links.editable_games``), otherwise it is
refused (403) and nothing changes. A name is taken only within the group. The server's
command line (``scorekeeper rename-player``, ``merge-players``) covers every game.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import lazy_gettext
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import InputRequired, Length

from ... import stats
from ...games.words import Joined, Say, SayN, joined
from ...storage import games, kernel, players
from ...storage.kernel import NotFound, Refused, Repeated, Stale
from .. import links
from ..chart import chart, timeline
from ..database import get_db
from ..forms import WriteForm
from ..words import page_text, said
from .helpers import date_filter

bp = Blueprint("players", __name__)

SCOPE = Say("Only the games this phone holds a link to count here: the games in its history, "
            "played or watched, and those of its groups.")
GROUP_SCOPE = Say("Only this group's games count here.")


def _scope() -> Say:
    return GROUP_SCOPE if g.get("group_id") is not None else SCOPE
NOT_RENAMED, NOT_MERGED = Say("The name was not changed"), Say("Nothing was merged")


class RenameForm(WriteForm):
    name = StringField(lazy_gettext("New name"), [
        InputRequired(lazy_gettext("a player needs a name")),
        Length(max=players.NAME_LENGTH,
               message=lazy_gettext("keep names to %(n)s letters", n=players.NAME_LENGTH))])
    expected = HiddenField()  # the name the page showed: a rename made meanwhile is not overwritten


class MergeForm(WriteForm):
    into = SelectField(lazy_gettext("Same person as"), coerce=int, validate_choice=False)
    # A merge cannot be undone: its box "sure" must be sent ticked ("y"), checked in merge().


@bp.app_template_global("known_players")
def known_players() -> list[str]:
    """The names of the people in this phone's games, for the new-game page."""
    return [p.name for p in players.everyone(get_db(), links.seen_games())]


def _player(player_id: int) -> players.Player:
    """A player of this phone's games, or 404 (no such player, or none of its games)."""
    try:
        return players.get(get_db(), player_id, links.seen_games())
    except NotFound:
        abort(404)


@bp.route("/players")
@bp.route("/group/<group_key>/players")
def index():
    everyone = players.everyone(get_db(), links.seen_games())
    return render_template("players.html", everyone=everyone, scope=_scope())


def _player_page(player_id: int, rename_form=None, merge_form=None, error=None, status=200):
    db = get_db()
    seen = links.seen_games()
    player = _player(player_id)
    records, unread = players.records(db, players.game_ids(db, player_id, seen))
    figures = stats.player_stats(player_id, records)
    drawn = timeline([(r.date, r.won, r.rate, _result_words(r)) for r in figures.results])
    may_change = not players.outside(db, player_id, links.editable_games())
    rename_form = rename_form or RenameForm(formdata=None, name=player.name, expected=player.name)
    merge_form = merge_form or MergeForm(formdata=None, into=None)
    group = players.group_of(db, player_id)
    assert group is not None  # _player found them
    group_seen = seen & set(kernel.group_games(db, [group]))
    merge_form.into.choices = [(p.id, p.name) for p in players.everyone(db, group_seen)
                               if p.id != player_id]  # a merge joins two players of one group
    return render_template(
        "player.html", player=player, figures=figures, timeline=drawn, unread=unread,
        may_change=may_change, rename_form=rename_form, merge_form=merge_form, mine=seen,
        error=error, scope=_scope(), variant_name=stats.variant_name,
    ), status


@bp.route("/players/<id:player_id>")
@bp.route("/group/<group_key>/players/<id:player_id>")
def show(player_id: int):
    return _player_page(player_id)


def _done_already(request_id: str | None, player_id: int):
    """A rename or merge sent twice (a double tap, a resent form): where the first went,
    or None if this form was never acted on."""
    if not kernel.acted_on_anywhere(get_db(), request_id):
        return None
    flash(page_text("Already saved: that was done the first time it was sent."))
    return redirect(url_for("players.show", player_id=player_id), 303)


@bp.route("/players/<id:player_id>/rename", methods=["POST"])
@bp.route("/group/<group_key>/players/<id:player_id>/rename", methods=["POST"])
def rename(player_id: int):
    form = RenameForm()
    repeated = _done_already(form.request_id.key(), player_id)
    if repeated:
        return repeated
    player = _player(player_id)  # 404 for no such player, and for one this phone does not see
    lacking = players.outside(get_db(), player_id, links.editable_games())
    if lacking:
        return _forbidden(player_id, NOT_RENAMED, True, player.name)
    if not form.validate():
        message = next(iter(e for errors in form.errors.values() for e in errors),
                       Say("check the name"))
        return _player_page(player_id, rename_form=form, error=_sorry(NOT_RENAMED, message),
                            status=422)
    try:
        changed = players.rename(get_db(), player_id, form.name.data, form.expected.data or None,
                                 editable=links.editable_games(), request_id=form.request_id.key())
    except Repeated:
        return _done_already(form.request_id.key(), player_id)
    except players.Forbidden:  # a game of theirs started meanwhile, on a phone not this one
        return _forbidden(player_id, NOT_RENAMED, True, player.name)
    except Stale as e:
        return _player_page(player_id, error=_sorry(NOT_RENAMED, e.said_reason), status=409)
    except players.NameTaken as e:  # a player of the same group, whose edit link this phone holds
        return _player_page(player_id, rename_form=form, error=_sorry(NOT_RENAMED, e.said_reason),
                            status=422)
    except Refused as e:
        return _player_page(player_id, rename_form=form, error=_sorry(NOT_RENAMED, e.said_reason),
                            status=422)
    name = _player(player_id).name
    if changed:
        flash(said(SayN("Renamed to %(name)s in %(num)s game.", "Renamed to %(name)s in %(num)s games.",
                        len(changed), name=name)))
    else:
        flash(page_text("Renamed to %(name)s.", name=name))
    return redirect(url_for("players.show", player_id=player_id), 303)


@bp.route("/players/<id:player_id>/merge", methods=["POST"])
@bp.route("/group/<group_key>/players/<id:player_id>/merge", methods=["POST"])
def merge(player_id: int):
    form = MergeForm()
    db = get_db()
    into = links.parse_id(request.form.get("into", ""))
    repeated = _done_already(form.request_id.key(), into if into is not None else player_id)
    if repeated:  # the first merge went through: the player it named is gone
        return repeated
    source = _player(player_id)
    lacking = players.outside(db, player_id, links.editable_games())
    if lacking:
        return _forbidden(player_id, NOT_MERGED, False, source.name)
    if into is None:
        return _player_page(player_id, error=_sorry(
            NOT_MERGED, Say("choose the player to merge with")), status=422)
    try:  # only a player this phone sees: any other is as one that does not exist
        target = players.get(db, into, links.seen_games())
    except NotFound:
        return _player_page(player_id, error=_sorry(
            NOT_MERGED, Say("that player is not here any more (merged or renamed meanwhile?)")),
            status=422)
    if target.id != source.id and request.form.get("sure") != "y":
        return _player_page(player_id, merge_form=form, error=_sorry(NOT_MERGED, Say(
            "a merge cannot be undone, so tick “Yes, %(source)s and %(target)s are the same "
            "person” to confirm it", source=source.name, target=target.name)), status=422)
    try:
        changed = players.merge(db, player_id, target.id, editable=links.editable_games(),
                                request_id=form.request_id.key())
    except Repeated:
        return _done_already(form.request_id.key(), target.id)
    except players.Forbidden:
        return _forbidden(player_id, NOT_MERGED, False, source.name)
    except Refused as e:
        return _player_page(player_id, merge_form=form, error=_sorry(NOT_MERGED, e.said_reason),
                            status=422)
    if changed:
        flash(said(SayN("%(source)s and %(target)s are one player now: %(target)s, in %(num)s game more.",
                        "%(source)s and %(target)s are one player now: %(target)s, in %(num)s games more.",
                        len(changed), source=source.name, target=target.name)))
    else:
        flash(page_text("%(source)s and %(target)s are one player now: %(target)s.",
                        source=source.name, target=target.name))
    return redirect(url_for("players.show", player_id=target.id), 303)


def _forbidden(player_id: int, what: Say, renaming: bool, name: str):
    """The player's page, 403: a rename or a merge (``renaming``: a rename) needs the edit
    link of the player's group, which this phone does not hold. The games it may not
    change are not named: they may be games it cannot see."""
    if renaming:
        reason = Say("renaming %(name)s changes every game %(name)s played in their group, so it "
                     "needs this phone to hold the group's edit link: open the group's edit link "
                     "first (or ask whoever runs the server: its command line can do it)", name=name)
    else:
        reason = Say("merging %(name)s into another player changes every game %(name)s played in "
                     "their group, so it needs this phone to hold the group's edit link: open the "
                     "group's edit link first (or ask whoever runs the server: its command line "
                     "can do it)", name=name)
    return _player_page(player_id, error=_sorry(what, reason), status=403)


@bp.route("/players/head-to-head")
@bp.route("/group/<group_key>/players/head-to-head")
def head_to_head():
    db = get_db()
    seen = links.seen_games()
    everyone = players.everyone(db, seen)
    records, unread = players.records(db, seen)
    duels = stats.head_to_head([p.id for p in everyone], records)
    return render_template("players_head_to_head.html", everyone=everyone, duels=duels,
                           unread=unread, scope=_scope())


@bp.route("/g/<game_key>/sheet")
def sheet(game_id: int):
    """A game's score sheet on one printed page, for every game type; shared by its
    read-only link (never the edit link, whichever link opened it)."""
    db = get_db()
    header = kernel.header(db, game_id)
    try:
        game = games.stored(db, game_id)
    except (Refused, LookupError):  # a stored log the rules no longer allow
        return render_template("error.html", title=page_text("Score sheet"),
                               message=page_text("This game's score sheet cannot be made yet: open "
                                                 "its game page instead.")), 409
    record = stats.GameRecord(game_id, header["variant"], header["created"][:10], game)
    counted = [r for _n, r in record.counted()]
    total, limit = header["variant"].ending_total(game.rules) or (10**9, "target")
    view_url = url_for("players.sheet", game_key=links.make_key(game_id, header["view_token"]),
                       _external=True)
    notes = sheet_notes(stats.facts(record))
    # What the totals hold beyond the rounds' scores: Gin's game and line bonuses.
    bonuses = {p: game.totals[p] - sum(r.scores[p] for r in counted) for p in record.players}
    return render_template(
        "sheet.html", game_id=game_id, header=header, record=record,
        notes=notes, played=len(counted),
        ended=[r.said_words for r in game.rounds],  # the kept records' said, as every kind of round names it
        chart=chart(record.players, [r.scores for r in counted], total, limit=limit,
                    round_word=header["variant"].round_word),
        view_url=view_url, qr=links.qr_svg(view_url, page_text("Read-only link to this score sheet")),
        switch_back=url_for("players.sheet", game_key=links.make_key(game_id, header["view_token"])),
        low_wins=record.low_wins, bonuses=bonuses if any(bonuses.values()) else None,
    )


def sheet_notes(facts_by_name) -> list[tuple[str, Joined]]:
    """One game's card-level records in words, per player who has any (the score sheet):
    stats.highlights, each player's joined in one line."""
    return [(player, joined(bits, ", ")) for player, bits in stats.highlights(facts_by_name)]


def _result_words(r) -> Say:
    """A finished game on a player's timeline: its day, its game, won or lost, the win rate."""
    if r.won:
        return Say("%(day)s, %(game)s: won, win rate so far %(rate)s%%", day=date_filter(r.date),
                   game=stats.variant_name(r.variant), rate=r.rate)
    return Say("%(day)s, %(game)s: lost, win rate so far %(rate)s%%", day=date_filter(r.date),
               game=stats.variant_name(r.variant), rate=r.rate)


def _sorry(what, reason) -> str:
    """Why a rename or merge did nothing: ``what`` was not done, and the reason."""
    return page_text("%(what)s: %(reason)s", what=what, reason=kernel.sentence(said(reason)))
