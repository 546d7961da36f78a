"""Games: the history list, a new game, rules, import; and the game page of a table of
aces and melds (its summary, a round's detail, its game file and score sheet).

A new game and an imported one go to their own pages: the family of pages their
variant's ``screens`` names (views/helpers.py). Each joins a group (web/links.py): the
group whose page it was started or imported from, else this phone's home group, else a
new group of its own. A group's link (``/group/<key>``) opens the group's history, with
its links to share, and under it the new-game form and the import of the group.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for

from ...gamefile import RoundRecord
from ...games import iceberg, registry
from ...storage import games, kernel, logs, results, transfer
from ...storage.kernel import AlreadyHere, NotFound, Refused
from ...storage.players import filter_history
from .. import links
from ..chart import chart
from ..database import get_db
from ..forms import NEW_GAME_FORMS, ImportForm, allowed_words, choice_words, default_words, rule_title
from ..words import page_text, said
from . import families, helpers
from .files import export_file, log_sheet

bp = Blueprint("games", __name__)
SCREENS = "table"  # the family of pages this module (with table.py, round_end.py) draws


def load_state(game_id: int, round_no: int | None = None):
    """The game as these pages read it: the round being played, or round ``round_no``."""
    return helpers.load_state(game_id, SCREENS, round_no)


def table_round(state: logs.LogState) -> iceberg.MeldRound[Any]:
    """The round's table as Iceberg's rules keep it (Rummy 500's, with its own melds, is
    one): what each player has earned, who put the last ace face up (the game contract's
    round says none of it: these pages ask the game's own classes)."""
    round_ = state.round
    assert isinstance(round_, iceberg.MeldRound)  # these pages show Iceberg's and Rummy 500's rounds
    return round_


def screen(state: logs.LogState) -> str:
    """Which screen the game is at: play, ending (the last ace's turn), end (count the
    hands) or over. A phone whose page shows another screen moves on (app.js)."""
    if state.over:
        return "over"
    if state.ending:
        return "ending"
    return "end" if state.ended else "play"


def screen_url(state: logs.LogState) -> str:
    game_id = state.log.id
    return {
        "over": url_for("games.summary", game_id=game_id),
        "end": url_for("round_end.show", game_id=game_id),
    }.get(screen(state), url_for("table.show", game_id=game_id))


def variants() -> list:
    return list(registry.VARIANTS.values())


@bp.route("/")
@bp.route("/games")
@bp.route("/group/<group_key>")
def index():
    """This phone's games (the links it has opened), unfinished first: tap one to resume it.
    On a group's link: the group's games instead, opened with the group's access, and the
    group's links to share."""
    mine = links.held()
    group = g.get("group_id")
    if group is not None:
        found = kernel.list_games(get_db(), kernel.group_games(get_db(), [group]))
        for game in found:
            game["access"] = links.EDIT if links.EDIT in (g.group_access, mine.get(game["id"])) \
                else links.VIEW
        share = links.group_share(group, *kernel.group_secrets(get_db(), group))
    else:
        found = kernel.list_games(get_db(), list(mine))
        for game in found:
            game["access"] = mine[game["id"]]
        share = None
    shown, filters, problems = filter_history(found, request.args)
    return render_template("games.html", games=shown, all_games=len(found), filters=filters,
                           filter_problems=problems, variants=variants(),
                           import_form=ImportForm(), group_share=share, my_groups=[
                               url_for("games.index", group_key=links.group_key_for(i))
                               for i in links.held_groups()] if share is None else [])


def _group_may_add() -> None:
    """On a group's read-only link no game is started or imported (403)."""
    if g.get("group_id") is not None and g.group_access != links.EDIT:
        abort(403)


def _join(group_id: int) -> None:
    """This phone holds the edit link of the group its game joined (its home group now)."""
    edit, _view = kernel.group_secrets(get_db(), group_id)
    links.remember_group(group_id, links.make_key(group_id, edit), links.EDIT)


def _variant(key: str | None):
    """The variant a new-game request names (the first of the registry when it names
    none), or 404."""
    variant = registry.get(key) if key else next(iter(registry.VARIANTS.values()))
    if variant is None:
        abort(404)
    return variant


@bp.route("/games/new")
@bp.route("/group/<group_key>/games/new")
def new():
    _group_may_add()
    variant = _variant(request.args.get("variant"))
    return render_new(NEW_GAME_FORMS[variant.key](), [])


def render_new(form, errors: list[str]):
    return render_template("new_game.html", form=form, errors=errors, variants=variants())


@bp.route("/games", methods=["POST"])
@bp.route("/group/<group_key>/games", methods=["POST"])
def create():
    _group_may_add()
    group = links.home_group()
    variant = _variant(request.form.get("variant"))
    form = NEW_GAME_FORMS[variant.key]()
    error = None
    if form.validate():
        players, rules, dealer = form.game()
        try:
            game_id, secret = games.create(get_db(), variant, players, rules, dealer, form.teams(),
                                           form.request_id.key(), group)
        except AlreadyHere as e:  # the form sent twice: the game its first sending made
            edit, _view = kernel.secrets_of(get_db(), e.game_id)
            links.remember(e.game_id, links.make_key(e.game_id, edit), links.EDIT)
            flash(page_text("Already saved: that was sent twice, and counts once."))
            return redirect(families.page_url(variant, "table", e.game_id), 303)
        except Refused as e:
            error = e.said
        else:
            links.remember(game_id, links.make_key(game_id, secret), links.EDIT)
            _join(kernel.group_of(get_db(), game_id))
            flash(page_text("New game. %(dealer)s deals; %(first)s starts.", dealer=players[dealer],
                            first=players[(dealer + 1) % len(players)]))
            return redirect(families.page_url(variant, "table", game_id), 303)
    errors = flat_errors(form) + ([error] if error else [])
    return render_new(form, errors), 422


def flat_errors(form) -> list[str]:
    """The form's errors as sentences; a rule's name goes before its complaint."""
    flat = []

    def walk(value, label):
        if isinstance(value, (list, tuple, dict)):
            for item in value:
                walk(item, label)
        else:
            flat.append(page_text("%(rule)s: %(problem)s", rule=label, problem=value) if label
                        else said(value))

    for name, errors in form.errors.items():
        walk(errors, form[name].label.text if name and name.startswith("rule_") else None)
    return flat


def player_breakdown(state) -> list[dict]:
    """Per player, over the finished rounds (their figures as the kept standing adds them
    up): earned, cards in hand, playable, aces, what the aces did, the total."""
    rows = []
    for player in state.players:
        mine = state.after.figures.get(player, {})
        rows.append({"player": player, "earned": mine.get("earned", 0), "cards": mine.get("card_penalty", 0),
                     "playable": mine.get("playable_penalty", 0), "aces": mine.get("aces", 0),
                     "aces_effect": mine.get("aces_effect", 0), "total": state.result.totals[player]})
    return rows


def rounds_listed(state, finished: list[dict[str, int]]) -> Sequence[tuple[int, object]]:
    """The rounds a game page lists (helpers.rounds_shown: the latest, or all): (number,
    the finished round's kept scores, as a record), then the round being played, its
    result so far, if it has begun. ``finished``: every finished round's scores."""
    playing = state.being_played and bool(state.rows())
    first = helpers.rounds_shown(len(finished) + playing)
    listed = [(n, RoundRecord(scores, "")) for n, scores in enumerate(finished[first - 1:], first)]
    if playing:
        listed.append((state.round_no, state.round_result(state.round_no)))
    return listed


@bp.route("/g/<game_key>")
def summary(game_id: int):
    """A game's page: status, the latest rounds (all on asking), per-player breakdown over
    every round, running totals."""
    state = load_state(game_id)
    finished = results.scores(get_db(), game_id)
    drawn = chart(state.players, finished, state.rules["target"])
    return render_template(
        "summary.html", state=state, game_id=game_id, chart=drawn,
        rounds=rounds_listed(state, finished),
        breakdown=player_breakdown(state),
        share=links.share(game_id, *kernel.secrets_of(get_db(), game_id)),
    )


@bp.app_template_global("group_page")
def group_page(game_id: int) -> str | None:
    """The page of a game's group (its share section links it), if this phone holds a link
    to the group."""
    group_id = kernel.group_of(get_db(), game_id)
    if group_id not in links.held_groups():
        return None
    return url_for("games.index", group_key=links.group_key_for(group_id))


@bp.route("/g/<game_key>/phone", methods=["GET", "POST"])
def whose_phone(game_id: int):
    """Whose phone this is at the game (asked beside "Who plays" until said, changed in one
    tap): a player's, whom every play of this phone is then for unless another player is
    chosen for one play, or the whole table's, where whose turn it is plays. Kept in the
    phone's session (links.whose), by seat. Back to the table once said."""
    game = kernel.header(get_db(), game_id)
    players = game["players"]
    if request.method == "POST":
        said_seat = request.form.get("seat", "")
        seat = links.TABLE_PHONE if said_seat == "table" else links.parse_id(said_seat)
        if seat is None or not (seat == links.TABLE_PHONE or 1 <= seat <= len(players)):
            return render_template("whose.html", game_id=game_id, players=players, me=None, whose=None,
                                   back=families.page_url(game["variant"], "game", game_id),
                                   error=page_text("Choose one of the players, or the whole table.")), 422
        links.say_whose(game_id, seat if seat == links.TABLE_PHONE else seat - 1)
        return redirect(families.page_url(game["variant"], "table", game_id), 303)
    return render_template("whose.html", game_id=game_id, players=players,
                           back=families.page_url(game["variant"], "game", game_id),
                           me=helpers.phone_of(game_id, players), whose=links.whose(game_id))


@bp.route("/g/<game_key>/rounds/<id:round_no>")
def round_detail(game_id: int, round_no: int):
    """One round's plays and each player's score, with the reasons: the dispute view."""
    try:
        state = load_state(game_id, round_no)
    except NotFound:
        state = None
    if state is None or not state.begun:
        return render_template("error.html", title=page_text("Not found"),
                               message=page_text("Round %(n)s has not been played yet.", n=round_no)), 404
    return render_template("round.html", state=state, game_id=game_id, round_no=round_no,
                           result=state.round_result(round_no))


def rule_rows(variant, rules=None) -> list[dict]:
    """The rule options for the rules page, in words, with this game's values when there is one."""
    rows = []
    for option in variant.rules:
        rows.append({
            "option": option,
            "label": rule_title(option),
            "default": default_words(option),
            "allowed": allowed_words(option),
            "value": choice_words(option, rules[option.name]) if rules is not None and option.name in rules else None,
            "changed": rules is not None and not option.default_for
                       and rules.get(option.name, option.default) != option.default,
        })
    return rows


@bp.route("/rules/<variant>")
def rules(variant: str):
    v = _variant(variant)
    return render_template("rules.html", rows=rule_rows(v), variant=v, variants=variants(),
                           game_id=None, players=None, over=False)


@bp.route("/g/<game_key>/rules")
def game_rules(game_id: int):
    header = kernel.header(get_db(), game_id)
    variant = header["variant"]
    rules = variant.rules.resolve(header["rules"], len(header["players"]))
    return render_template("rules.html", rows=rule_rows(variant, rules), variant=variant,
                           variants=variants(), game_id=game_id, players=header["players"],
                           first_dealer=header["players"][header["first_dealer"]], over=header["over"],
                           table=families.page_url(variant, "table", game_id),
                           game_page=families.page_url(variant, "game", game_id))


@bp.route("/g/<game_key>/export")
def export(game_id: int) -> Response:
    load_state(game_id)  # another family's game: its own page
    return export_file(game_id)


@bp.route("/g/<game_key>/export.csv")
def export_csv(game_id: int) -> Response:
    """The score sheet: a row per counted round, a column per player, then the totals."""
    return log_sheet(load_state(game_id))


@bp.route("/games/import")
@bp.route("/group/<group_key>/games/import")
def import_page():
    _group_may_add()
    return render_template("import.html", form=ImportForm(), error=None)


@bp.route("/games/import", methods=["POST"])
@bp.route("/group/<group_key>/games/import", methods=["POST"])
def import_game():
    """A game file uploaded: checked in full, added as a new game of the group (the group's
    page's, else this phone's home group, else a new group), opened with its edit link.

    The same file imported into this group before is that game (this phone holds the
    group's edit link, so it is opened with its edit link); in another group it is another
    game. A file that is not a game file, or one that breaks the rules, is refused with
    the reason (422) and nothing is saved.
    """
    _group_may_add()
    group = links.home_group()
    form = ImportForm()
    if not form.validate():
        reasons = [reason for errors in form.errors.values() for reason in errors]
        return _import_refused(form, reasons[0] if reasons else page_text("choose a game file"))
    try:
        game_id = transfer.import_upload(get_db(), form.game_file.data.read(), group)
    except AlreadyHere as e:  # a game of this phone's group (it holds the group's edit link)
        edit, _view = kernel.secrets_of(get_db(), e.game_id)
        links.remember(e.game_id, links.make_key(e.game_id, edit), links.EDIT)
        flash(page_text("%(reason)s Nothing was added.", reason=e.said))
        return redirect(url_for("games.summary", game_id=e.game_id), 303)
    except Refused as e:
        return _import_refused(form, e.said_reason)
    header = kernel.header(get_db(), game_id)
    links.remember(game_id, links.make_key(game_id, header["edit_token"]), links.EDIT)
    _join(header["group_id"])
    flash(page_text("Imported: %(players)s — %(status)s. This phone has the game's edit link.",
                    players=", ".join(header["players"]), status=kernel.said_status(header)))
    return redirect(url_for("games.summary", game_id=game_id), 303)  # the game's own address


def _import_refused(form, reason: str):
    name = getattr(form.game_file.data, "filename", None)
    return render_template("import.html", form=form, filename=name,
                           error=page_text("The game file was not imported: %(reason)s Nothing was "
                                           "saved.", reason=kernel.sentence(said(reason)))), 422
