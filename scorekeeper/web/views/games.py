"""Games: the history list, a new game, the rules, an import, whose phone it is; the pages
every family of a game's pages shares (each family's own game page is its own:
views/table_game.py, steals.py, counted.py).

A new game and an imported one go to their own pages: the family of pages their
variant's ``screens`` names (views/helpers.py). Each joins a group (web/links.py): the
group whose page it was started or imported from, else this phone's home group, else a
new group of its own. A group's link (``/group/<key>``) opens the group's history, with
its links to share, and under it the new-game form and the import of the group.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ...games import registry
from ...games.variant import LogVariant
from ...games.words import Say
from ...storage import games, kernel, log_changes, nights, record, transfer
from ...storage.kernel import AlreadyHere, Refused, Repeated
from ...storage.players import filter_history
from .. import links
from ..database import get_db
from ..forms import NEW_GAME_FORMS, GroupNameForm, ImportForm, allowed_words, choice_words, default_words, rule_title
from ..table_forms import BringBackForm
from ..words import page_text, said
from . import families, helpers

bp = Blueprint("games", __name__)


def variants() -> list:
    return list(registry.VARIANTS.values())


@bp.route("/")
@bp.route("/games")
@bp.route("/group/<group_key>")
def index():
    """This phone's games (the links it has opened), unfinished first: tap one to resume it.
    On a group's link: the group's games instead, opened with the group's access, and the
    group's links to share."""
    return _games_page()


@bp.route("/group/<group_key>/name", methods=["POST"])
def name_group():
    """The group's name, given on its page (with its edit link: the read-only one changes
    nothing, 403). Refused, the page again with the reason and the name as typed."""
    form = GroupNameForm()
    error = helpers.form_error(form) if not form.validate() else None
    if error is None:
        try:
            name = kernel.name_group(get_db(), g.group_id, form.name.data or "")
        except Refused as e:
            error = e.said
        else:
            flash(page_text("This group is called %(name)s.", name=name) if name
                  else page_text("This group has no name now."))
            return redirect(url_for("games.index"), 303)
    return _games_page(name_error=error, name_typed=form.name.data, status=422)


def _games_page(name_error=None, name_typed=None, status: int = 200):
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
    held = links.held_groups() if share is None else []
    names = kernel.group_names(get_db(), held if group is None else [group])
    return render_template("games.html", games=shown, all_games=len(found), filters=filters,
                           filter_problems=problems, variants=variants(),
                           import_form=ImportForm(), group_share=share,
                           group_name=names.get(group, "") if group is not None else "",
                           name_error=name_error, name_typed=name_typed,
                           group_nights=nights.of_group(get_db(), group) if group is not None else [],
                           abandoned=nights.abandoned(get_db(), [game["id"] for game in shown]), my_groups=[
                               (url_for("games.index", group_key=links.group_key_for(i)), names.get(i, ""))
                               for i in held]), status


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


@bp.app_template_global("group_page")
def group_page(game_id: int) -> tuple[str, str] | None:
    """The page of a game's group and the group's name ("" for none), its share section
    linking it, if this phone holds a link to the group."""
    group_id = kernel.group_of(get_db(), game_id)
    if group_id not in links.held_groups():
        return None
    return (url_for("games.index", group_key=links.group_key_for(group_id)),
            kernel.group_names(get_db(), [group_id]).get(group_id, ""))


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


@bp.route("/g/<game_key>/changes")
def changes(game_id: int):
    """The record of every change to the game's log in words (storage/record.py), the
    latest first: when, from whose phone, what it was and became, what it did to the
    scores. ``?play=N``: one play's history (the dispute view links it)."""
    play, round_no = _shown()
    return _changes_page(game_id, play, round_no)


def _changes_page(game_id: int, play: int | None = None, round_no: int | None = None, *, error=None, status=200):
    header = kernel.header(get_db(), game_id)
    shown, count = record.lines(get_db(), game_id, header["players"], header["variant"].round_word, play, round_no)
    return render_template("changes.html", game_id=game_id, changes=shown, count=count, play=play, round_no=round_no,
                           variant=header["variant"], back=families.page_url(header["variant"], "game", game_id),
                           error=error), status


@bp.route("/g/<game_key>/changes/bring-back", methods=["POST"])
def bring_back(game_id: int):
    """A play a delete or an undo took out, brought back where it was from the game's
    changes (the notice of a delete offers it once; this, for as long as it is out). The
    page's own ``?play=`` or ``?round=`` comes along: the answer is that page again."""
    if not isinstance(kernel.header(get_db(), game_id)["variant"], LogVariant):
        abort(404)
    play, round_no = _shown()
    form = BringBackForm()
    if not form.validate():
        return _changes_page(game_id, play, round_no, error=Say("Which play is to be brought back?"), status=422)
    try:
        row = log_changes.bring_back(get_db(), game_id, form.request_id.key(), form.play.data)
    except Repeated:
        flash(said(helpers.ALREADY_SAVED))
    except Refused as e:
        return _changes_page(game_id, play, round_no, error=e.said, status=helpers.refusal_status(e))
    else:
        flash(page_text("Brought back %(play)s in round %(round)s: every score is recomputed.",
                        play=row.describe(), round=row.round_no))
    return redirect(url_for("games.changes", game_id=game_id, play=play, round=round_no), 303)


def _shown() -> tuple[int | None, int | None]:
    """Which changes a changes page shows: ``?play=`` (one play's history), ``?round=``."""
    play, round_no = (_id_arg(name) for name in ("play", "round"))
    return play, round_no


def _id_arg(name: str) -> int | None:
    """A number the address gives (``?play=12``), None without one; 404 for one that is no number."""
    if name not in request.args:
        return None
    found = links.parse_id(request.args[name])
    if found is None:
        abort(404)
    return found


@bp.app_template_global("changes_in")
def changes_in(game_id: int, round_no: int) -> tuple[int, set[int]]:
    """(How many changes a round of the game has had, its plays that have a history): the
    dispute views link them."""
    return record.in_round(get_db(), game_id, round_no)


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


def rule_values(rows: list[dict]) -> dict[str, str]:
    """Each rule's value in words, as the summary of how a game is scored quotes it: this
    game's, or the default."""
    return {r["option"].name: r["default"] if r["value"] is None else r["value"] for r in rows}


@bp.route("/rules/<variant>")
def rules(variant: str):
    v = _variant(variant)
    rows = rule_rows(v)
    return render_template("rules.html", rows=rows, rule=rule_values(rows), variant=v, variants=variants(),
                           game_id=None, players=None, over=False)


@bp.route("/g/<game_key>/rules")
def game_rules(game_id: int):
    header = kernel.header(get_db(), game_id)
    variant = header["variant"]
    rules = variant.rules.resolve(header["rules"], len(header["players"]))
    rows = rule_rows(variant, rules)
    return render_template("rules.html", rows=rows, rule=rule_values(rows), variant=variant,
                           variants=variants(), game_id=game_id, players=header["players"],
                           first_dealer=header["players"][header["first_dealer"]], over=header["over"],
                           table=families.page_url(variant, "table", game_id),
                           game_page=families.page_url(variant, "game", game_id))


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
        found = kernel.header(get_db(), e.game_id)["variant"]
        return redirect(families.page_url(found, "game", e.game_id), 303)
    except Refused as e:
        return _import_refused(form, e.said_reason)
    header = kernel.header(get_db(), game_id)
    links.remember(game_id, links.make_key(game_id, header["edit_token"]), links.EDIT)
    _join(header["group_id"])
    flash(page_text("Imported: %(players)s — %(status)s. This phone has the game's edit link.",
                    players=", ".join(header["players"]), status=kernel.said_status(header)))
    return redirect(families.page_url(header["variant"], "game", game_id), 303)  # the game's own page


def _import_refused(form, reason: str):
    name = getattr(form.game_file.data, "filename", None)
    return render_template("import.html", form=form, filename=name,
                           error=page_text("The game file was not imported: %(reason)s Nothing was "
                                           "saved.", reason=kernel.sentence(said(reason)))), 422
