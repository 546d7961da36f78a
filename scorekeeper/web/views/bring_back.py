"""A deleted play (or round) brought back: the page after a delete names it in its URL
(``?deleted=<token>``, signed with the app's key, so it says only what this app wrote),
and the notice that says it was deleted carries the form that puts it back where it was.
Shared by the families of pages that delete plays or rounds (views/table.py,
views/steals.py, views/counted.py); the notice is drawn by templates/base.html.
"""
from __future__ import annotations

import hashlib
import secrets

from flask import current_app, flash, g, request, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from ...games.words import Say
from ...storage import kernel, log_changes
from ...storage.kernel import Refused, Repeated
from ...storage.plays import PlayRow
from .. import links
from ..database import get_db
from ..words import page_text
from . import helpers

BRING_BACK = "scorekeeper.bring-back"
CANNOT_BRING_BACK = Say("That cannot be brought back from here: the notice it came from is not "
                        "this game's, or was cut short. Nothing was changed.")


def _signer() -> URLSafeSerializer:
    key = current_app.secret_key
    assert key is not None  # create_app gives the app one
    return URLSafeSerializer(key, salt=BRING_BACK)


def deleted_token(game_id: int, endpoint: str, what: dict, words: str, nonce: str | None) -> str:
    """What was deleted (``what``, as the family's ``endpoint`` brings it back) and the words
    that say so, signed; ``nonce``: the delete's request id (two deletes, two tokens)."""
    return _signer().dumps({"g": game_id, "e": endpoint, "w": words, "d": what,
                            "n": nonce or secrets.token_urlsafe(8)})


def _deleted(token, game_id: int) -> dict | None:
    try:
        data = _signer().loads(token) if isinstance(token, str) and len(token) < 8000 else None
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("g") != game_id:
        return None
    return data


def bring_back_form(game_id: int, endpoint: str) -> tuple[dict, str] | None:
    """What a "bring it back" form names (its ``deleted`` token), for this game and this
    family's ``endpoint``, and the request id it is acted on under: one per token, so a
    double tap or the notice shown again brings it back once. None: not a token of ours."""
    token = request.form.get("deleted", "")
    data = _deleted(token, game_id)
    if data is None or data.get("e") != endpoint or not isinstance(data.get("d"), dict):
        return None
    return data["d"], "back-" + hashlib.sha256(token.encode()).hexdigest()[:40]


def deleted_row(game_id: int, row: PlayRow) -> dict:
    """A deleted play as its notice keeps it: which play, where it was and what it was, and
    whose it was by seat as well as by name (a player renamed or merged meanwhile keeps the seat)."""
    players = seated(game_id)
    return {"id": row.id, "round": row.round_no, "seq": row.seq, "type": row.type, "player": row.player,
            "seat": players.index(row.player) if row.player in players else None,
            "cards": list(row.cards), "target": row.target}


def seated(game_id: int) -> list[str]:
    """The game's players by seat, as a deleted-notice keeps them: a player renamed or
    merged before the notice is used is found again by the seat (:func:`by_seat`)."""
    return list(kernel.header(get_db(), game_id)["players"])


def by_seat(then, game_id: int):
    """A function from a name the game had when a notice was made (``then``, its players
    by seat) to the name that seat has now (a name not among them is kept as it is)."""
    now = seated(game_id)
    names = dict(zip(then, now)) if isinstance(then, list) and len(then) == len(now) else {}
    return lambda name: names.get(name, name)


def deleted_id(data: dict) -> int | None:
    """The play (or counted round's row) a notice names: brought back, it is that one again,
    its history one (None: a notice made before notices named it)."""
    found = data.get("id")
    return found if isinstance(found, int) else None


def row_deleted(data: dict, players: list[str]) -> PlayRow | None:
    """The play a notice keeps, by the name its seat has now in ``players`` (None if it is
    not one: the notice is signed, but said so)."""
    try:
        seat = data.get("seat")
        player = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(data["player"])
        return PlayRow(deleted_id(data), int(data["round"]), int(data["seq"]), str(data["type"]),
                       player, tuple(str(c) for c in data["cards"]),
                       None if data["target"] is None else int(data["target"]))
    except (KeyError, TypeError, ValueError):
        return None


class NotBroughtBack(Exception):
    """A "bring it back" form that brought nothing back: ``words`` why, for the page."""

    def __init__(self, words, status: int) -> None:
        super().__init__(str(words))
        self.words, self.status = words, status


def restore_deleted(game_id: int, endpoint: str) -> tuple[PlayRow, bool]:
    """Bring back the play a deleted-notice names (this family's ``endpoint``), where it was:
    the play, and whether this form brought it back (False: an earlier tap did, and the
    phone is told so). NotBroughtBack: a notice not of this game, or a play the log no
    longer takes (why, and the status to answer with)."""
    back = bring_back_form(game_id, endpoint)
    row = row_deleted(back[0], seated(game_id)) if back else None
    if back is None or row is None:
        raise NotBroughtBack(CANNOT_BRING_BACK, 422)
    try:
        log_changes.restore_play(get_db(), game_id, back[1], row)
    except Repeated:
        flash(page_text("Already brought back: %(play)s.", play=row.describe()))
        return row, False
    except Refused as e:
        raise NotBroughtBack(page_text("%(play)s was not brought back: %(why)s", play=row.describe(),
                                       why=e.said), helpers.refusal_status(e)) from None
    return row, True


@helpers.bp.app_template_global("bring_back")
def bring_back() -> dict | None:
    """The notice of a play or round this phone has just deleted (the page's ``?deleted=``),
    with the form that brings it back; None on any other page, or for a read-only link."""
    token = request.args.get("deleted")
    game_id = g.get("game_id")
    if not token or game_id is None or not links.can_edit():
        return None
    data = _deleted(token, game_id)
    if data is None:
        return None
    return {"words": data["w"], "token": token, "action": url_for(data["e"], game_id=game_id)}
