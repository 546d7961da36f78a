"""A game's two links: who may see it, and who may change it.

Every game has an edit link and a read-only link, each carrying its own secret (144
random bits). No game is reachable without one of them: game URLs are
``/g/<key>/…`` where the key is ``<game id>-<secret>``. The id only says which row to
read; the secret is compared in constant time, and a key that matches neither secret
is a plain 404. Anyone holding the edit link can log plays; the read-only link shows
the same live table and every change it attempts is refused (403).

This phone's games — the keys it has opened — are kept in its signed session cookie,
so the history list shows what this phone has played or watched, and no one else's.
Across games, :func:`held` is the rule of what a phone may see and change: the players
pages cover the games it gives (each key checked against its game today), and a rename
or a merge needs the edit link of every game it changes.

Views keep taking ``game_id``: :func:`init_app` turns the key in the URL into the id
(and the access level into ``g.access``), and puts the key back when a URL is built.
"""
from __future__ import annotations

import hmac
import secrets
from datetime import timedelta
from functools import lru_cache

from flask import Flask, abort, g, request, session
from werkzeug.routing import BaseConverter, ValidationError

from .database import get_db
from .words import page_text

EDIT, VIEW = "edit", "view"
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
    # On the connection itself (no sqlite-utils savepoint): every game request asks it.
    row = get_db().execute(
        "SELECT edit_token, view_token FROM games WHERE id = ?", [game_id]).fetchone()
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
    games = session.get("games", {})
    known = games.get(str(game_id))
    if known == [key, access] and session.permanent:
        return
    games = dict(games)
    if known and known[1] == EDIT and access == VIEW:
        return
    games.pop(str(game_id), None)
    games[str(game_id)] = [key, access]
    session["games"] = dict(list(games.items())[-REMEMBERED:])
    session.permanent = True
    g.pop("held", None)


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
    last. What the players pages may show (these games) and change (those held with
    EDIT) is this and nothing else.

    Each key the session keeps is checked against its game's secrets now, and the
    access is what the key opens today, not what the session noted: a key that opens
    nothing (a session signed for another database, say) gives nothing. Read once per
    request.
    """
    if "held" not in g:
        keys = remembered()
        found: dict[int, str] = {}
        if keys:
            rows = get_db().execute(
                f"SELECT id, edit_token, view_token FROM games WHERE id IN ({', '.join('?' * len(keys))})",
                list(keys)).fetchall()
            tokens = {game_id: (edit, view) for game_id, edit, view in rows}
            for game_id, (key, _noted) in keys.items():
                number, _, secret = key.partition("-")
                if game_id in tokens and parse_id(number) == game_id and secret:
                    access = _opens(secret, *tokens[game_id])
                    if access is not None:
                        found[game_id] = access
        g.held = found
    return g.held


def seen_games() -> frozenset[int]:
    """The games whose players and results this phone may see: those it holds a link to."""
    return frozenset(held())


def editable_games() -> frozenset[int]:
    """The games this phone may change beyond their own pages (a rename, a merge): those
    it holds the edit link of."""
    return frozenset(i for i, access in held().items() if access == EDIT)


def key_for(game_id: int) -> str:
    if g.get("game_id") == game_id:
        return g.game_key
    known = remembered().get(game_id)
    if known is None:
        raise LookupError(f"no link to game {game_id} on this phone")
    return known[0]




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
    def read_only_refuses_changes() -> None:
        if g.get("access") == VIEW and request.method not in ("GET", "HEAD"):
            abort(403)

    @app.context_processor
    def access_in_templates() -> dict:
        return {"can_edit": can_edit(), "access": g.get("access")}
