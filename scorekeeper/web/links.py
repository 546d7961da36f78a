"""A game's two links and a group's two links: who may see them, and who may change them.

Every game has an edit link and a read-only link, each carrying its own secret (144
random bits). No game is reachable without one of them: game URLs are
``/g/<key>/…`` where the key is ``<game id>-<secret>``. The id only says which row to
read; the secret is compared in constant time, and a key that matches neither secret
is a plain 404. Anyone holding the edit link can log plays; the read-only link shows
the same live table and every change it attempts is refused (403).

This phone's games — the keys it has opened — are kept in its signed session cookie,
so the history list shows what this phone has played or watched, and no one else's.

Every game belongs to a group (the people who play together), and a group has its own
edit and read-only links: ``/group/<key>/…``, the key ``<group id>-<secret>`` checked as
a game's is. A group's link opens the group's history, its players and their statistics,
and (the edit link) its new-game form, import, renames and merges; the games it lists
open with the group's access. Across games, :func:`seen_games` is the rule of what a
phone may see (the games it holds a link to, and the games of the groups it holds a link
to; on a group's pages that group's games only) and :func:`editable_games` what a rename
or a merge may change (the games of the groups it holds the edit link of). A phone that
starts a game from no group's page starts it in the group whose edit link it opened
last (:func:`home_group`), or in a new group of its own if it holds none.

Views keep taking ``game_id``: :func:`init_app` turns the key in the URL into the id
(and the access level into ``g.access``), and puts the key back when a URL is built.
"""
from __future__ import annotations

import hmac
import secrets
from datetime import timedelta
from functools import lru_cache

from flask import Flask, abort, g, has_request_context, request, session
from werkzeug.routing import BaseConverter, ValidationError

from ..storage import entries, kernel
from .database import get_db
from .words import page_text

EDIT, VIEW = "edit", "view"
# The pages of a group only its edit link opens: a game started or imported into it.
GROUP_EDITS = frozenset({"games.new", "games.create", "games.import_page", "games.import_game"})
QR_KEPT = 768  # QR codes kept drawn: three per game a table has open, in each language
REMEMBERED = 100  # games a phone's history keeps


LARGEST_ID = 2**63 - 1  # SQLite's largest integer: every id of a row is at most this


def parse_id(text: object) -> int | None:
    """An id as a URL or a form gives it: ASCII digits, at most SQLite's largest integer;
    anything else (a superscript digit, a number too long) is None: no such thing."""
    if not isinstance(text, str) or not (0 < len(text) <= 19 and text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if number <= LARGEST_ID else None


class IdConverter(BaseConverter):
    """``<id:play_id>`` in a route: a row's id (:func:`parse_id`), else the URL is a 404."""

    regex = r"[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValidationError()
        return number

    def to_url(self, value) -> str:
        return str(int(value))


def make_key(game_id: int, secret: str) -> str:
    return f"{game_id}-{secret}"


def resolve(key: str) -> tuple[int, str]:
    """(game id, "edit" or "view") for a key, or 404 when it opens nothing."""
    text, _, secret = key.partition("-")
    game_id = parse_id(text)
    if game_id is None or not secret:
        abort(404)
    row = kernel.secrets_by_id(get_db(), [game_id]).get(game_id)
    if row is None:
        abort(404)
    access = _opens(secret, *row)
    if access is None:
        abort(404)
    return game_id, access


def _opens(secret: str, edit_token: str | None, view_token: str | None) -> str | None:
    """EDIT or VIEW: what this secret opens of a game with these tokens (None: nothing)."""
    # Both comparisons always run, each in constant time: the answer's timing says nothing.
    is_edit = hmac.compare_digest(secret.encode(), (edit_token or "").encode())
    is_view = hmac.compare_digest(secret.encode(), (view_token or "").encode())
    if is_edit:
        return EDIT
    if is_view:
        return VIEW
    return None


def remember(game_id: int, key: str, access: str) -> None:
    """Add a game to this phone's list (an edit key is never replaced by a read-only one).

    The session is changed only when the list does: every request through a game's link
    comes here, and a changed session is signed and sent back as a new cookie. (A game
    already listed with this link is not moved to the end: the cookie keeps the list in
    the order of its keys anyway, as Flask's session serializer sorts them.)
    """
    known = session.get("games", {}).get(str(game_id))
    if known == [key, access] and not session.permanent:
        session.permanent = True
    if _noted("games", game_id, key, access):
        g.pop("held", None)


def _noted(listed: str, item_id: int, key: str, access: str) -> bool:
    """Add a link to the session's list ``listed`` ("games", "groups"), its latest
    :data:`REMEMBERED` kept; an edit key is never replaced by a read-only one. Whether
    the list changed."""
    items = dict(session.get(listed, {}))
    known = items.get(str(item_id))
    if known == [key, access] or (known and known[1] == EDIT and access == VIEW):
        return False
    items.pop(str(item_id), None)
    items[str(item_id)] = [key, access]
    session[listed] = dict(list(items.items())[-REMEMBERED:])
    session.permanent = True
    return True


def phone() -> str:
    """This phone's name: random, kept in its session from the first page it opens. The
    forms' keys are this phone's (web/forms.py: another phone sending the same key sends
    another request, never a repeat of this phone's)."""
    name = session.get("phone")
    if not isinstance(name, str) or not name:
        name = session["phone"] = secrets.token_urlsafe(12)
        session.permanent = True
    return name


TABLE_PHONE = -1  # ``whose``: a phone for the whole table, not one player's


def whose(game_id: int) -> int | None:
    """Whose phone this is at a game, as it said: a player's seat, :data:`TABLE_PHONE`,
    or None (not said yet). Kept by seat, so a player renamed keeps their phone."""
    seat = session.get("whose", {}).get(str(game_id))
    return seat if isinstance(seat, int) else None


def whose_phone_at(game_id: int) -> str | None:
    """This phone at a game as the record of changes names it (storage/entries.py BY);
    None outside a request (a thread the app served a request on, writing later)."""
    if not has_request_context():
        return None
    seat = whose(game_id)
    return "phone" if seat is None else "table" if seat == TABLE_PHONE else f"seat:{seat}"


def say_whose(game_id: int, seat: int) -> None:
    """This phone is ``seat``'s at the game (or :data:`TABLE_PHONE`), from now on."""
    kept = {k: v for k, v in session.get("whose", {}).items() if k != str(game_id)}
    kept[str(game_id)] = seat
    session["whose"] = dict(list(kept.items())[-REMEMBERED:])
    session.permanent = True


def remembered() -> dict[int, tuple[str, str]]:
    """This phone's games: id → (key, access), the most recently opened last."""
    return {int(i): (k, a) for i, (k, a) in session.get("games", {}).items()}


def held() -> dict[int, str]:
    """The games this phone holds a link to: id → EDIT or VIEW, the most recently opened
    last (with the groups it holds, :func:`held_groups`, what the players pages may show:
    :func:`seen_games`).

    Each key the session keeps is checked against its game's secrets now, and the
    access is what the key opens today, not what the session noted: a key that opens
    nothing (a session signed for another database, say) gives nothing. Read once per
    request.
    """
    if "held" not in g:
        keys = {game_id: key for game_id, (key, _noted) in remembered().items()}
        g.held = _opened(keys, kernel.secrets_by_id(get_db(), keys))
    return g.held


def _opened(keys: dict[int, str], secrets: dict[int, tuple[str, str]]) -> dict[int, str]:
    """What each key a phone keeps opens today, by id, in the keys' order: EDIT or VIEW,
    its id and secret checked against the stored ``secrets``; one that opens nothing is
    left out."""
    found: dict[int, str] = {}
    for item_id, key in keys.items():
        number, _, secret = key.partition("-")
        if item_id in secrets and parse_id(number) == item_id and secret:
            access = _opens(secret, *secrets[item_id])
            if access is not None:
                found[item_id] = access
    return found


def seen_games() -> frozenset[int]:
    """The games whose players and results this phone may see: on a group's pages that
    group's games; elsewhere those it holds a link to and those of the groups it holds a
    link to."""
    if g.get("group_id") is not None:
        return frozenset(kernel.group_games(get_db(), [g.group_id]))
    return frozenset(held()) | frozenset(kernel.group_games(get_db(), held_groups()))


def editable_games() -> frozenset[int]:
    """The games this phone may change beyond their own pages (a rename, a merge): those
    of the groups it holds the edit link of (on a group's pages, that group's, if so).
    A player's games are all in their group: its edit link is all a rename needs."""
    if g.get("group_id") is not None:
        editable = [g.group_id] if g.group_access == EDIT else []
    else:
        editable = [i for i, access in held_groups().items() if access == EDIT]
    return frozenset(kernel.group_games(get_db(), editable))


def key_for(game_id: int) -> str:
    """The key a URL names a game by: the one this page opened it with, this phone's
    edit key, the key of the group's access this phone holds, or its read-only key."""
    if g.get("game_id") == game_id:
        return g.game_key
    known = remembered().get(game_id)
    if known is not None and known[1] == EDIT:
        return known[0]
    secrets = kernel.secrets_by_id(get_db(), [game_id]).get(game_id)
    through = held_groups().get(kernel.group_of(get_db(), game_id)) if secrets else None
    if through is not None and secrets:
        return make_key(game_id, secrets[0] if through == EDIT else secrets[1])
    if known is None:
        raise LookupError(f"no link to game {game_id} on this phone")
    return known[0]


# ---------------------------------------------------------------------------------------
# Groups' links.


def resolve_group(key: str) -> tuple[int, str]:
    """(group id, "edit" or "view") for a group's key, or 404 when it opens nothing."""
    text, _, secret = key.partition("-")
    group_id = parse_id(text)
    if group_id is None or not secret:
        abort(404)
    row = kernel.secrets_by_id(get_db(), [group_id], groups=True).get(group_id)
    access = _opens(secret, *row) if row else None
    if access is None:
        abort(404)
    return group_id, access


def remember_group(group_id: int, key: str, access: str) -> None:
    """Add a group to this phone's groups (an edit key is never replaced by a read-only
    one); a group opened with its edit link becomes this phone's home group."""
    if access == EDIT and session.get("group") != group_id:
        session["group"] = group_id
        session.permanent = True
    if _noted("groups", group_id, key, access):
        g.pop("held_groups", None)
        g.pop("held", None)


def held_groups() -> dict[int, str]:
    """The groups this phone holds a link to: id → EDIT or VIEW, each key checked against
    its group's secrets now (read once per request)."""
    if "held_groups" not in g:
        kept = {int(i): v[0] for i, v in session.get("groups", {}).items() if isinstance(v, list) and len(v) == 2}
        keys = {group_id: kept[group_id] for group_id in sorted(kept)}  # by id
        g.held_groups = _opened(keys, kernel.secrets_by_id(get_db(), keys, groups=True))
    return g.held_groups


def group_key_for(group_id: int) -> str:
    """The key this phone holds a group by (the page's own on that group's pages)."""
    if g.get("group_id") == group_id:
        return g.group_key
    return session["groups"][str(group_id)][0]


def home_group() -> int | None:
    """The group a game started from no group's page joins: the one whose edit link this
    phone opened last (or made, with its first game), while it still holds it; None: a
    new group of its own."""
    home = session.get("group")
    if g.get("group_id") is not None:
        return g.group_id if g.group_access == EDIT else None
    return home if isinstance(home, int) and held_groups().get(home) == EDIT else None


def group_share(group_id: int, edit_secret: str, view_secret: str) -> list[dict]:
    """A group's links this phone may hand on, each with its QR code: the read-only one
    always, the edit one to those holding it."""
    from flask import url_for

    shown = [(VIEW, view_secret, page_text("The group's read-only link: its games, players and "
                                           "statistics, to watch"))]
    if g.get("group_access") == EDIT:
        shown.insert(0, (EDIT, edit_secret, page_text(
            "The group's edit link: its games, players and statistics, and new games")))
    result = []
    for access, secret, title in shown:
        url = url_for("games.index", group_key=make_key(group_id, secret), _external=True)
        result.append({"access": access, "url": url, "title": title, "qr": qr_svg(url, title),
                       "shown_as": f"group-{access}"})  # the page's mark: not a game's link
    return result




@lru_cache(maxsize=QR_KEPT)
def qr_svg(url: str, title: str) -> str:
    """The link as a QR code, inline SVG drawn on the server (segno), dark on white.

    Drawn once per link and title and kept: drawing one took about four fifths of a game
    page (benchmarks/README.md, "The game page's QR codes"); a link never changes."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                 title=title, svgclass="qr")


BOARD = "board"  # the scoreboard's link (views/scoreboard.py): the read-only key


def share(game_id: int, edit_secret: str, view_secret: str) -> list[dict]:
    """The links this phone may hand on: the read-only one always, the edit one to editors,
    and the scoreboard's for a tablet or a TV (by the read-only key: it changes nothing)."""
    from flask import url_for

    shown = [(VIEW, view_secret, "table.show", page_text("Read-only link: watch the table live")),
             (BOARD, view_secret, "board.show",
              page_text("Scoreboard: the scores in big type for a tablet or a TV in the middle of the table"))]
    if can_edit():
        shown.insert(0, (EDIT, edit_secret, "table.show", page_text("Edit link: log plays from another phone")))
    result = []
    for access, secret, endpoint, title in shown:
        url = url_for(endpoint, game_key=make_key(game_id, secret), _external=True)
        result.append({"access": access, "url": url, "title": title, "qr": qr_svg(url, title)})
    return result


def can_edit() -> bool:
    return g.get("access") == EDIT


def init_app(app: Flask) -> None:
    app.permanent_session_lifetime = timedelta(days=365)

    @app.url_value_preprocessor
    def open_game(_endpoint, values) -> None:
        if values and "game_key" in values:
            key = values.pop("game_key")
            game_id, access = resolve(key)
            values["game_id"] = game_id
            g.game_key, g.game_id, g.access = key, game_id, access
            remember(game_id, key, access)

    @app.url_value_preprocessor
    def open_group(_endpoint, values) -> None:
        if values and "group_key" in values:
            key = values.pop("group_key")
            group_id, access = resolve_group(key)
            g.group_key, g.group_id, g.group_access = key, group_id, access
            remember_group(group_id, key, access)

    @app.url_defaults
    def group_link(endpoint, values) -> None:
        """On a group's pages, a link to a page a group has too stays in the group; on its
        read-only link, the new-game form and the import are this phone's own (a group's
        answer the read-only link 403)."""
        if (g.get("group_id") is not None and "group_key" not in values
                and app.url_map.is_endpoint_expecting(endpoint, "group_key")
                and (g.group_access == EDIT or endpoint not in GROUP_EDITS)):
            values["group_key"] = g.group_key

    @app.url_defaults
    def game_link(endpoint, values) -> None:
        """A game URL names its game by key: ``game_id`` becomes this phone's ``game_key``
        for it (LookupError for a game this phone has no link to)."""
        if "game_id" in values and app.url_map.is_endpoint_expecting(endpoint, "game_key"):
            values["game_key"] = key_for(values.pop("game_id"))

    @app.before_request
    def name_the_phone() -> None:
        """Named by the first page it opens, before it sends any form (a form's answer
        lost on bad wifi, sent again, is then still this phone's)."""
        if request.endpoint != "static":
            phone()

    @app.before_request
    def whose_changes() -> None:
        """The record of changes says from whose phone each came (storage/entries.py BY):
        this phone's, as it said at each game changed (or a phone that has not said)."""
        entries.BY.set(whose_phone_at)

    @app.before_request
    def read_only_refuses_changes() -> None:
        if VIEW in (g.get("access"), g.get("group_access")) and request.method not in ("GET", "HEAD"):
            abort(403)

    @app.context_processor
    def access_in_templates() -> dict:
        return {"can_edit": can_edit(), "access": g.get("access"),
                "group_access": g.get("group_access")}
