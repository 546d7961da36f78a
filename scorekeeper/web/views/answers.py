"""What the pages of a round logged as it is played answer a play with (Iceberg's
views/table.py and views/round_end.py, Robber's views/steals.py share it): JSON for a play
the page's script sent in the background (the live regions and what the play did, or why
it was refused), and the refusal that ends a round with cards still picked.
"""
from __future__ import annotations

import json

from flask import Response, render_template, request

from ...games.errors import ScorekeeperError
from ...games.words import Say
from ..live import Payload
from ..words import said
from .helpers import card_parts


def wants_json() -> bool:
    """The page's script sent this play in the background and reads JSON (static/app.js)."""
    accepted = request.accept_mimetypes
    return accepted.best_match(("text/html", "application/json")) == "application/json"


def answer(payload: Payload, *, notices=(), error=None, status: int = 200) -> Response:
    """A background play's answer: the live payload (as ``/live`` sends it) and what the
    play did (``notices``), or why it was refused (``error``), in words (the sentences
    read in the phone's language) and as the page shows them (``said``). The payload's
    JSON, made once for every phone of its kind, is sent as it is, after the words."""
    notices = [said(n) for n in notices]
    error = said(error) if error is not None else None
    shown = render_template("_said.html", notices=notices, error=error)
    words = json.dumps(dict(notices=notices, error=error, said=shown), ensure_ascii=False, separators=(",", ":"))
    return Response(f"{words[:-1]},{payload.json[1:]}", status, mimetype="application/json")


# The buttons a refusal names, by their words on the page.
CONFIRM, WENT_OUT, PASS = Say("Confirm"), Say("Went out"), Say("Pass")


def picked_first(cards, log_button: Say = CONFIRM, button: Say = WENT_OUT) -> Say | None:
    """Ending the round (or the turn: ``button`` PASS) with cards still picked would drop
    them unlogged, or credit them to the next player: the refusal that says so, or None
    when nothing is picked."""
    if not cards:
        return None
    return Say("You picked %(cards)s: log them first (%(log)s), then tap %(end)s. Nothing was saved.",
               cards=shown_cards(cards), log=log_button, end=button)


def shown_cards(cards) -> str:
    """Cards as people read them (K♦ K♣), whatever the form sent."""
    words = []
    for name in cards:
        try:
            parts = card_parts(name)
            words.append(f"{parts['rank']}{parts['symbol']}")
        except ScorekeeperError:  # not a card: shown as sent
            words.append(str(name))
    return " ".join(words)
