"""Club night: a group's evening of several tables and one standings board
(``/group/<key>/nights/…``, docs/nights.md).

The group's edit link opens a night (who came, the game and rules its tables start
with, how the standings rank), starts each table in one tap from the seats the night
suggests (the names editable in place), adds a table late (any game, through the
new-game form), abandons a game, and lets a player leave early; the read-only link
shows the same and changes nothing. The night's screen (for a TV: standings and each
table in big type, live) and its sheet (to print and share) are read by the group's
read-only link. Every page is plain forms and links: without JavaScript it all works.

The pages compute nothing of their own: the standings and the seats are the night's
rules (scorekeeper/nights.py), over the games as the stores keep them
(storage/nights.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import format_decimal

from ... import nights as night_rules
from ...games import registry
from ...storage import kernel, players
from ...storage import nights as store
from ...storage.kernel import AlreadyHere, NotFound, Refused
from .. import links
from ..database import get_db
from ..forms import NEW_GAME_FORMS
from ..night_forms import NIGHT_FORMS, night_places, night_rules_line
from ..words import page_text, said
from . import families
from .games import flat_errors

bp = Blueprint("nights", __name__)
AT = "/group/<group_key>/nights"  # every night's page: on its group's link


@bp.app_template_filter("points")
def points_filter(points: Fraction) -> str:
    """A night's points as the phone's language writes a number (2.5, 2,5; 10, not 10.0;
    −9 with a real minus sign, as every score)."""
    shown = str(abs(points.numerator)) if points.denominator == 1 else format_decimal(abs(float(points)), "#,##0.##")
    return f"−{shown}" if points < 0 else shown


def _edit_only() -> None:
    """On a group's read-only link nothing is opened or changed (403)."""
    if g.get("group_id") is not None and g.group_access != links.EDIT:
        abort(403)


def _night(night_id: int) -> store.Night:
    try:
        return store.get(get_db(), g.group_id, night_id)
    except NotFound:
        abort(404)


def _variant(key: str | None, night: store.Night | None = None):
    variant = registry.get(key) if key else (night.variant if night else next(iter(registry.VARIANTS.values())))
    if variant is None:
        abort(404)
    return variant


# ---------------------------------------------------------------------------------------
# What every page of a night shows


@dataclass
class TableView:
    table: night_rules.Table
    variant: Any
    players: list[str]
    totals: dict[str, int]
    winners: list[str]
    round_no: int  # the round being played, or the last one once over
    page: str | None  # its table page (its game page once over)


EVENING = timedelta(hours=12)  # how long a night may go on from when it was opened


def evening_past(night: store.Night) -> bool:
    return datetime.now(UTC) - datetime.fromisoformat(night.created) >= EVENING


def shown_version(night: store.Night) -> int:
    """What a night's page and screen say they show (``?since=``, static/board.js): the
    night's version, twice, and one more once the evening is past, so that a screen moves
    on from who is ahead to who won with nothing else changed."""
    return 2 * store.version(get_db(), night) + evening_past(night)


@dataclass
class NightView:
    night: store.Night
    standings: list[night_rules.Standing]
    tables: list[TableView]
    rounds: list[int]  # the rounds of tables so far
    unread: list[int]
    seats: list[store.Seat]
    next_round: int
    suggested: list[list[str]]  # the seats of the tables still to start
    waiting: list[str]  # free players too few for a table
    version: int

    @property
    def ahead(self) -> list[night_rules.Standing]:
        """Who is ahead tonight (several: tied), once a game has counted for anyone."""
        first = [s for s in self.standings if s.rank == 1]
        return first if any(s.results for s in first) and len(first) < len(self.standings) else []

    @property
    def over(self) -> bool:
        """The night's result stands: no table plays any more, one has finished, and the
        evening is past (a night is not closed: until then, between rounds of tables, the
        next round may still start, and the page says who is ahead, not who won)."""
        return (self.playing == 0 and any(t.table.over and not t.table.abandoned for t in self.tables)
                and evening_past(self.night))

    @property
    def at_no_table(self) -> set:
        """The night's players who sat at none of its tables."""
        sat = {p for t in self.tables for p in _players_at(t.table)}
        return {s.player for s in self.seats if s.player not in sat}

    @property
    def screen_tables(self) -> list[TableView]:
        """What the night's screen shows: the latest round's tables, and any still playing."""
        latest = max(self.rounds, default=0)
        return [t for t in self.tables if t.table.round == latest
                or (not t.table.abandoned and t.table.record is not None and not t.table.over)]

    @property
    def started(self) -> int:
        """How many tables of the round being seated have started (the suggested ones are numbered on)."""
        return sum(1 for t in self.tables if t.table.round == self.next_round)

    @property
    def playing(self) -> int:
        """How many tables are still playing."""
        return sum(1 for t in self.tables if not t.table.abandoned and t.table.record is not None and not t.table.over)


def scored_tables(night: store.Night) -> tuple[list[night_rules.Table], list[int]]:
    """The night's tables with their games as their kept results have them (no replay),
    and the ids of games that could not be read."""
    rows = store.tables(get_db(), night.id)
    found, unread = players.records(get_db(), [row.game for row in rows])
    by_id = {record.id: record for record in found}
    return [night_rules.Table(row.game, row.round, row.number, by_id.get(row.game), row.abandoned)
            for row in rows], unread


def night_view(night: store.Night, *, seats_next: bool = False) -> NightView:
    """What a night's pages show; ``seats_next``: the next round's seats too (the night's
    own page: the other pages do not show them)."""
    db = get_db()
    tables, unread = scored_tables(night)
    seats = store.seated(db, night.id)
    present = {s.player: (s.name, s.left) for s in seats}
    low = next((t.record.low_wins for t in tables if t.record is not None), False)
    standing = night_rules.standings(tables, night.ranking, night.places, present, low_wins=low)
    names = {s.player: s.name for s in seats}
    shown = [_table_view(t) for t in tables]
    next_round, suggested, waiting = _next_round(night, tables, seats) if seats_next else (0, [], [])
    return NightView(night, standing, shown, sorted({t.round for t in tables}), unread, seats, next_round,
                     [[names[p] for p in t] for t in suggested], [names[p] for p in waiting],
                     shown_version(night))


def _table_view(table: night_rules.Table) -> TableView:
    record = table.record
    if record is None:  # a game that cannot be read: listed, without figures
        return TableView(table, None, [], {}, [], 0, None)
    game = record.game
    over = record.over
    return TableView(table, record.variant, record.players, dict(record.totals), list(record.winners),
                     len(game.rounds) if over else len(game.rounds) + 1,
                     families.page_url(record.variant, "game" if over else "table", table.game_id))


def _players_at(table: night_rules.Table) -> list:
    record = table.record
    return [] if record is None else [record.key(p) for p in record.players]


def _next_round(night: store.Night, tables: list[night_rules.Table],
                seats: list[store.Seat]) -> tuple[int, list[list[int]], list[int]]:
    """(the round of tables to seat, the suggested tables still to start, the free players
    too few for a table): the players who came and did not leave, not at a table whose
    game goes on, and (while the latest round is being seated) not yet at one of its
    tables; else the next round's."""
    busy = {p for t in tables if not t.abandoned and t.record is not None and not t.over for p in _players_at(t)}
    free = [s.player for s in seats if not s.left and s.player not in busy]
    latest = max((t.round for t in tables), default=0)
    of_latest = [t for t in tables if t.round == latest and not t.abandoned]
    seated_now = {p for t in of_latest for p in _players_at(t)}
    round_no, waiting, started = latest + 1, free, []
    not_yet = [p for p in free if p not in seated_now]
    if latest and len(not_yet) >= night.variant.min_players:
        round_no, waiting, started = latest, not_yet, [_players_at(t) for t in of_latest]
    if len(waiting) < night.variant.min_players:
        return round_no, [], waiting
    earlier = [_players_at(t) for t in tables if t.round < round_no]
    variant = night.variant
    suggested = night_rules.suggest(waiting, night.table_size, earlier, started, variant.min_players,
                                    [s.player for s in seats])
    seated = {p for t in suggested for p in t}
    return round_no, suggested, [p for p in waiting if p not in seated]


PLAYER_NIGHTS = 12  # the nights a player's page shows, the latest (each one's standings worked out)


@bp.app_template_global("player_nights")
def player_nights(player_id: int) -> tuple[list[tuple[store.Night, night_rules.Standing, str]], int]:
    """The nights a player came to, as their statistics show them: (night, their line of
    its standings, its page) for the latest :data:`PLAYER_NIGHTS`, and how many more
    there were; only where this phone holds the link of the player's group (a night's
    page opens with it)."""
    db = get_db()
    group = players.group_of(db, player_id)
    if group is None or (g.get("group_id") != group and group not in links.held_groups()):
        return [], 0
    key = links.group_key_for(group)
    found = []
    came = store.of_player(db, player_id)
    for night_id in reversed(came[-PLAYER_NIGHTS:]):
        night = store.get(db, group, night_id)
        line = next((s for s in night_view(night).standings if s.player == player_id), None)
        if line is not None:
            found.append((night, line, url_for("nights.show", group_key=key, night_id=night.id)))
    return found, max(len(came) - PLAYER_NIGHTS, 0)


@bp.app_template_global("night_page")
def night_page(game_id: int) -> str | None:
    """The page of the night a game is a table of, if it is one and this phone holds the
    link of its group (a game's page links it, beside its group's)."""
    night = store.of_game(get_db(), game_id)
    if night is None or night[1] not in links.held_groups():
        return None
    return url_for("nights.show", group_key=links.group_key_for(night[1]), night_id=night[0])


def _night_urls(night: store.Night) -> dict[str, str]:
    """The night's screen and sheet by the group's read-only link, to hand on."""
    _edit, view = kernel.group_secrets(get_db(), night.group)
    key = links.make_key(night.group, view)
    return {part: url_for(f"nights.{part}", group_key=key, night_id=night.id, _external=True)
            for part in ("screen", "sheet")}


# ---------------------------------------------------------------------------------------
# Pages


@bp.route("/nights/new")
@bp.route(f"{AT}/new")
def new():
    """A new night's form: on a group's edit link, for that group; elsewhere, for this
    phone's home group (web/links.py), or a new group of its own if it holds none."""
    _edit_only()
    variant = _variant(request.args.get("variant"))
    home = links.home_group()
    if g.get("group_id") is None and home is not None:
        return redirect(url_for("nights.new", group_key=links.group_key_for(home), variant=variant.key), 303)
    return _render_new(NIGHT_FORMS[variant.key](), [])


def _render_new(form, errors: list[str]):
    return render_template("night_new.html", form=form, errors=errors, variants=list(registry.VARIANTS.values()))


@bp.route("/nights", methods=["POST"])
@bp.route(AT, methods=["POST"])
def create():
    """A night opened in the group whose page sent it, else in this phone's home group,
    else in a new group, whose edit link this phone then holds (as a new game's)."""
    _edit_only()
    variant = _variant(request.form.get("variant"))
    form = NIGHT_FORMS[variant.key]()
    if not form.validate():
        return _render_new(form, flat_errors(form)), 422
    db = get_db()
    try:
        night_id = store.open_night(db, links.home_group(), form.night_name(), variant,
                                    form.rules_sent(), form.table_size.data, form.ranking.data,
                                    night_places(form.places.data), form.names(), form.request_id.key(),
                                    tables={n: form.rules_for(n) for n in range(variant.min_players,
                                                                               form.table_size.data + 1)})
    except AlreadyHere as e:  # sent twice (the form's key is this phone's): the night it opened
        night_id = e.game_id
        flash(page_text("Already saved: that was sent twice, and counts once."))
    except Refused as e:
        return _render_new(form, [said(e.said)]), 422
    else:
        flash(page_text("The night is open: start the first tables below."))
    group = store.group_of(db, night_id)
    if g.get("group_id") is None:
        edit, _view = kernel.group_secrets(db, group)
        links.remember_group(group, links.make_key(group, edit), links.EDIT)
    return redirect(url_for("nights.show", group_key=links.group_key_for(group), night_id=night_id), 303)


@bp.app_template_global("night_title")
def night_title(night: store.Night) -> str:
    """A night's name; one opened without a name is the night of its day, in the
    phone's words."""
    from .helpers import date_filter

    return night.name or page_text("The night of %(day)s", day=date_filter(night.created))


@bp.route(f"{AT}/<id:night_id>")
def show(night_id: int):
    """The night's page: its standings (live: static/board.js asks ``?since=<version>``
    every few seconds, a 204 while nothing changed, and redraws them), its next tables,
    its tables so far, its players, its screen and sheet to hand on."""
    night = _night(night_id)
    if request.args.get("since") == str(shown_version(night)):
        return "", 204
    return _page(night)


def _page(night: store.Night, error: str | None = None, status: int = 200):
    """The night's page; with ``error``, why nothing changed (the screen's link and QR code
    left out: the page is an answer to a form)."""
    urls = _night_urls(night)
    title = page_text("The night's screen: standings and tables for a TV")
    share = [] if error else [{"url": urls["screen"], "title": title, "qr": links.qr_svg(urls["screen"], title)}]
    return render_template("night.html", view=night_view(night, seats_next=True), night=night, error=error,
                           share=share, sheet_url=urls["sheet"], can_change=g.group_access == links.EDIT,
                           rules=night_rules_line(night)), status


@bp.route(f"{AT}/<id:night_id>/screen")
def screen(night_id: int):
    """The night's screen for a TV or a tablet; 204 when asked ``?since=<version>`` while
    nothing changed (static/board.js asks every few seconds)."""
    night = _night(night_id)
    if request.args.get("since") == str(shown_version(night)):
        return "", 204
    return render_template("night_screen.html", view=night_view(night), night=night)


@bp.route(f"{AT}/<id:night_id>/sheet")
def sheet(night_id: int):
    """The night's sheet: the standings, every table, each player's games; to print, and
    shared by the group's read-only link."""
    night = _night(night_id)
    url = _night_urls(night)["sheet"]
    return render_template("night_sheet.html", view=night_view(night), night=night, sheet_url=url,
                           qr=links.qr_svg(url, page_text("Read-only link to this night's sheet")))


@bp.route(f"{AT}/<id:night_id>/tables/new")
def new_table(night_id: int):
    """A table added to the night through the new-game form: any game, its seats and rules
    (the night's, for a table of the night's game)."""
    _edit_only()
    night = _night(night_id)
    variant = _variant(request.args.get("variant"), night)
    form = NEW_GAME_FORMS[variant.key](formdata=None, data=_night_rules(night, variant))
    return _render_table_form(night, form, [], _round_of(request.args.get("round"), night))


def _night_rules(night: store.Night, variant) -> dict[str, str]:
    """The rule fields a table of the night starts with: the night's, for its own game."""
    return {f"rule_{k}": v for k, v in night.rules.items()} if variant.key == night.variant.key else {}


def _round_of(text: str | None, night: store.Night) -> int:
    number = links.parse_id(text or "")
    return number if number is not None else night_view(night, seats_next=True).next_round


def _render_table_form(night: store.Night, form, errors: list[str], round_no: int):
    return render_template("new_game.html", form=form, errors=errors, variants=list(registry.VARIANTS.values()),
                           night=night, night_round=round_no,
                           action=url_for("nights.start", night_id=night.id),
                           variant_url=lambda key: url_for("nights.new_table", night_id=night.id, variant=key,
                                                           round=round_no))


@bp.route(f"{AT}/<id:night_id>/tables", methods=["POST"])
def start(night_id: int):
    """A table of the night started: its game made in the night's group with the seats and
    rules sent (the suggested table's, in one tap; or the new-game form's)."""
    night = _night(night_id)
    variant = _variant(request.form.get("variant"), night)
    form = NEW_GAME_FORMS[variant.key]()
    round_no = links.parse_id(request.form.get("round", ""))
    if round_no is None:
        return _render_table_form(night, form, [page_text("Which round of tables is this? Start it from the "
                                                          "night's page.")], _round_of(None, night)), 422
    if not form.validate():
        return _render_table_form(night, form, flat_errors(form), round_no), 422
    names, rules, dealer = form.game()
    try:
        store.start_table(get_db(), night, round_no, variant, names, rules, dealer, form.teams(),
                          form.request_id.key(), as_sent=form.rules_sent())
    except AlreadyHere:
        flash(page_text("Already saved: that was sent twice, and counts once."))
    except Refused as e:
        return _render_table_form(night, form, [said(e.said)], round_no), 422
    else:
        flash(page_text("Table started: %(players)s. Each of them opens it from this page.",
                        players=", ".join(names)))
    return redirect(url_for("nights.show", night_id=night.id), 303)


@bp.route(f"{AT}/<id:night_id>/tables/<id:table>", methods=["POST"])
def table_state(night_id: int, table: int):
    """A table's game abandoned (it counts for nothing tonight), or counted again."""
    night = _night(night_id)
    abandoned = request.form.get("abandoned")
    if abandoned not in ("1", "0"):
        return _refused(night, page_text("Say whether the game is abandoned."))
    try:
        store.set_abandoned(get_db(), night, table, abandoned == "1")
    except NotFound:
        return _refused(night, page_text("That game is not one of this night's tables."), 404)
    flash(page_text("The game is abandoned: it counts for nothing tonight.") if abandoned == "1"
          else page_text("The game counts again."))
    return redirect(url_for("nights.show", night_id=night.id), 303)


@bp.route(f"{AT}/<id:night_id>/players", methods=["POST"])
def night_players(night_id: int):
    """A player joins the night (``name``), leaves early or comes back (``player`` and
    ``left``), or, added by mistake and at no table yet, is taken off its list (``player``
    and ``remove``)."""
    night = _night(night_id)
    db = get_db()
    if "name" in request.form:
        name = " ".join((request.form.get("name") or "").split())
        try:
            changed = store.add_player(db, night, name)
        except Refused as e:
            return _refused(night, page_text("%(name)s did not join: %(reason)s", name=name or "…",
                                             reason=kernel.sentence(said(e.said))))
        flash(page_text("%(name)s joins the night.", name=name) if changed
              else page_text("%(name)s is at the night already.", name=name))
        return redirect(url_for("nights.show", night_id=night.id), 303)
    player = links.parse_id(request.form.get("player", ""))
    if player is not None and request.form.get("remove") == "1":
        try:
            name = store.remove_player(db, night, player)
        except NotFound:
            return _refused(night, page_text("That player is not at this night."), 404)
        except Refused as e:
            return _refused(night, kernel.sentence(said(e.said)))
        flash(page_text("%(name)s is off tonight's list.", name=name))
        return redirect(url_for("nights.show", night_id=night.id), 303)
    left = request.form.get("left")
    if player is None or left not in ("1", "0"):
        return _refused(night, page_text("Choose a player of the night."))
    try:
        store.set_left(db, night, player, left == "1")
    except NotFound:
        return _refused(night, page_text("That player is not at this night."), 404)
    seat = next(s for s in store.seated(db, night.id) if s.player == player)
    flash(page_text("%(name)s has left: no later table seats them; what they earned stays, and a game "
                    "they are in goes on as its table decides.", name=seat.name)
          if left == "1" else page_text("%(name)s is back.", name=seat.name))
    return redirect(url_for("nights.show", night_id=night.id), 303)


def _refused(night: store.Night, message: str, status: int = 422):
    """The night's page with why nothing changed."""
    return _page(night, message, status)
