"""What every page shares: template filters for cards and scores, error pages, the manifest."""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError

from .. import store
from ..db import get_db
from ..games.cards import parse_card
from ..games.iceberg import signed
from ..games.iceberg_melds import ordinal
from ..picker import SYMBOLS, card_label

bp = Blueprint("app", __name__)

THEME_LIGHT, THEME_DARK = "#0b4f6c", "#0d1b24"


def card_parts(name) -> Mapping[str, str]:
    """A card name (S9) as the pieces a template prints: rank, suit symbol, colour, words."""
    return _card_parts(str(name))


@lru_cache(maxsize=256)  # every card of the decks, each spelling, worked out once (read-only)
def _card_parts(name: str) -> Mapping[str, str]:
    card = parse_card(name)
    if card.is_joker:  # Kalooki's jokers
        return MappingProxyType({"rank": "JK", "symbol": "", "suit": "", "colour": "joker",
                                 "label": "joker"})
    return MappingProxyType({
        "rank": card.rank_label,
        "symbol": SYMBOLS[card.suit],
        "suit": card.suit,
        "colour": card.colour,
        "label": card_label(card),
    })


class OtherVariant(Exception):
    """An Iceberg page asked for on a game of another variant: its own page answers."""

    def __init__(self, variant: str, game_id: int) -> None:
        super().__init__(variant)
        self.variant, self.game_id = variant, game_id


# The pages of the other variants, by the endpoint of the Iceberg page they stand for
# ("table.show", "games.summary", …): each variant's blueprint fills in its own.
VARIANT_PAGES: dict[str, dict[str, str]] = {}


def load_state(game_id: int, with_drafts: bool = False) -> store.GameState:
    """The replayed Iceberg game, or 404 (another variant's game: OtherVariant)."""
    try:
        log = store.load(get_db(), game_id)
    except store.NotFound:
        abort(404)
    if log.variant != store.VARIANT:
        raise OtherVariant(log.variant, game_id)
    return store.replay(log, with_drafts=with_drafts)


@bp.app_errorhandler(OtherVariant)
def other_variant(error: OtherVariant):
    """Send a request for an Iceberg page of another variant's game to that game's page."""
    pages = VARIANT_PAGES.get(error.variant, {})
    endpoint = pages.get(request.endpoint) or pages.get("games.summary")
    if endpoint is None or request.method not in ("GET", "HEAD"):
        return render_template(
            "error.html", title="Not for this game",
            message="This page belongs to another kind of game: go back to the game's page. "
                    "Nothing was saved.",
        ), 404 if endpoint is None else 409
    return redirect(url_for(endpoint, game_id=error.game_id), 303)


@bp.app_template_filter("signed")
def signed_filter(n: int) -> str:
    return signed(n)


@bp.app_template_filter("score")
def score_filter(n: int) -> str:
    """A total as printed on a score sheet: 120, 0, −120 (a real minus sign, as everywhere)."""
    return f"−{-n}" if n < 0 else str(n)


@bp.app_template_filter("sentence")
def sentence_filter(text: str) -> str:
    """A clause as a sentence: capital first letter (names keep theirs), full stop."""
    return store.sentence(str(text))


@bp.app_template_filter("cap")
def cap_filter(text: str) -> str:
    """Capital first letter only (Jinja's capitalize would lower-case the names)."""
    text = str(text)
    return text[:1].upper() + text[1:]


@bp.app_template_filter("ordinal")
def ordinal_filter(n: int) -> str:
    return ordinal(n)


@bp.app_template_global("card_parts")
def card_parts_global(name) -> Mapping[str, str]:
    return card_parts(name)


@bp.app_errorhandler(CSRFError)
def csrf_error(error: CSRFError):
    return render_template(
        "error.html", title="The form could not be sent",
        message="This form's security token is missing or stale. Go back, reload the page "
                "and try again: nothing was saved.",
    ), 400


@bp.app_errorhandler(403)
def forbidden(_error):
    return render_template(
        "error.html", title="Read-only link",
        message="This link shows the game but cannot change it: ask for the edit link "
                "(its QR code is on the game page of a phone that has it). Nothing was saved.",
    ), 403


@bp.app_errorhandler(413)
def too_large(_error):
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    size = f"{limit / 2**20:g} MB" if limit >= 2**20 else f"{max(limit // 1024, 1)} KB"
    return render_template(
        "error.html", title="The file is too big",
        message=f"A game file may be up to {size} (a long game takes a few dozen KB), and "
                "this one is larger: choose the file saved with “Download the game file”. "
                "Nothing was saved.",
    ), 413


@bp.app_errorhandler(500)
def server_error(_error):
    return render_template(
        "error.html", title="Something went wrong",
        message="The server could not answer this request. Go back, reload the page and "
                "try again.",
    ), 500


def unchanged(game_id: int) -> bool:
    """A live poll's ``?since=<version>`` is still the game's version (answer 204). A game
    that is not there raises store.NotFound: the 404 page below."""
    return request.args.get("since", type=int) == store.version_of(get_db(), game_id)


@bp.app_errorhandler(store.NotFound)
@bp.app_errorhandler(404)
def not_found(_error):
    return render_template(
        "error.html", title="Not found", message="There is no such page, game or play here.",
    ), 404


@bp.route("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: installable on a phone's home screen."""
    data = {
        "name": "Scorekeeper: Iceberg Rummy",
        "short_name": "Scorekeeper",
        "description": "The score pad for a rummy table, scored from the cards.",
        "lang": "en",
        "start_url": request.script_root + "/",
        "scope": request.script_root + "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME_DARK,
        "theme_color": THEME_LIGHT,
        "icons": [
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = jsonify(data)
    response.mimetype = "application/manifest+json"
    return response
