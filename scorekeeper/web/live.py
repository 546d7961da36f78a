"""Live tables: how a game's changes reach every phone that has it open.

**The live payload, drawn once.** What a phone is told of a change (the version, the
screen and its URL, the round, the HTML of the regions that plays change, the cards
left) is drawn by its family's ``live_parts(state)``; each family declares it once
(:func:`register`). Here it is drawn once per game, version, language and link (the
edit link and the read-only link draw different regions; the link is the key in the
URL) and kept for every phone of that kind: the ``/live`` polls and the answer to the
play itself read the same payload (:func:`shared`). A table of five phones whose play
used to be drawn five times (its answer, four polls) is drawn once per server process.
Forms drawn for every phone alike cannot carry one phone's CSRF token or request id:
while a payload is drawn, ``templates/_keys.html`` leaves both empty and the page's
script fills in the phone's own as a form is sent. Only the latest version of each kind
is kept, and at most :data:`KINDS_KEPT` kinds.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Callable

from flask import Blueprint, Flask, Response, current_app, g, request
from flask_babel import get_locale

from ..storage import kernel
from .database import get_db

bp = Blueprint("live", __name__)

KINDS_KEPT = 512  # payloads kept: one per game, link and language (100 tables ≈ 100-300)

# Each family's live payload: screens → (the game read as its pages read it, live_parts).
BUILDERS: dict[str, tuple[Callable[[int], object], Callable[[object], dict]]] = {}


def register(screens: str, state: Callable[[int], object], parts: Callable[[object], dict]) -> None:
    """A family of pages (``screens``) declares its live payload: ``parts(state(game_id))``,
    its ``live_parts`` of the game as its pages read it."""
    BUILDERS[screens] = (state, parts)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


# ---------------------------------------------------------------------------------------
# The payload, drawn once per kind of phone.


class Payload:
    """One version of one kind's payload: the parts (a play's answer adds its words to
    them) and their JSON (``/live``), made once."""

    __slots__ = ("parts", "version", "_json")

    def __init__(self, parts: dict) -> None:
        self.parts, self.version = parts, parts["version"]
        self._json = None

    @property
    def json(self) -> str:
        if self._json is None:  # UTF-8 as it is: a card's ♠ is 3 bytes, 6 as an escape
            self._json = json.dumps(self.parts, ensure_ascii=False, separators=(",", ":"))
        return self._json


class _Kind:
    """The payload kept for one kind of phone on one game, and the lock that lets one
    request draw it while the others wait for it."""

    __slots__ = ("lock", "payload")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.payload: Payload | None = None


def _kind(hub: "Hub", screens: str) -> _Kind:
    # The key in the URL says the game and the link (edit or read-only: URLs in the
    # regions carry it); the language, the words.
    key = (screens, g.game_id, g.game_key, str(get_locale() or ""))
    with hub.lock:
        kind = hub.kinds.get(key)
        if kind is None:
            kind = hub.kinds[key] = _Kind()
            while len(hub.kinds) > KINDS_KEPT:
                hub.kinds.popitem(last=False)
        else:
            hub.kinds.move_to_end(key)
    return kind


def shared(game_id: int, screens: str, state=None, version: int | None = None) -> Payload:
    """The game's live payload for this phone's kind (its link and language), drawn by
    the family ``screens`` unless another phone of its kind had it drawn at this version.
    ``state``: the game as the caller has read it already (a play's answer); ``version``:
    the version wanted, when known (else the game's version now is read)."""
    if version is None:
        version = kernel.version_of(get_db(), game_id)
    kind = _kind(hub(), screens)
    found = kind.payload
    if found is not None and found.version == version:
        return found
    with kind.lock:  # one request draws it; the others of its kind wait and take it
        found = kind.payload
        if found is not None and found.version >= version:
            return found
        load, parts = BUILDERS[screens]
        g.live_shared = True  # the forms' keys left empty (templates/_keys.html)
        try:
            drawn = Payload(parts(state if state is not None else load(game_id)))
        finally:
            g.live_shared = False
        if found is None or drawn.version >= found.version:
            kind.payload = drawn
        return drawn


@bp.app_template_global("shared_render")
def shared_render() -> bool:
    """Whether the regions being drawn are for every phone of a kind (no phone's keys)."""
    return g.get("live_shared", False)


def poll(game_id: int, screens: str) -> Response | tuple[str, int]:
    """``/live?since=<version>``'s answer: 204 while the game is at that version, else the
    payload (shared)."""
    version = kernel.version_of(get_db(), game_id)
    if request.args.get("since", type=int) == version:
        return "", 204
    return Response(shared(game_id, screens, version=version).json, mimetype="application/json")


# ---------------------------------------------------------------------------------------
# The payloads of this process.


def hub() -> "Hub":
    """This app's payloads, made by the first request that needs them: after gunicorn
    forks and gevent patches ``threading``."""
    found = current_app.extensions.get("scorekeeper.live")
    if found is None:
        found = current_app.extensions.setdefault(
            "scorekeeper.live", Hub(current_app.config["DATABASE"]))
    return found


class Hub:
    """One process's payloads, by kind."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.lock = threading.Lock()
        self.kinds: OrderedDict[tuple, _Kind] = OrderedDict()
