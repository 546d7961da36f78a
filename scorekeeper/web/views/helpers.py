"""What every page shares: which pages show a game, template filters for cards and scores,
the rounds a page lists, a refusal's status (the error pages and the manifest are
views/site.py's).

Which family of pages shows a game is views/families.py's; here, what a family's page
asks of it: the game as its pages read it (:func:`load_state`), and a page or form of
one family asked for on a game another family shows (an old link, a history entry),
which leads to that family's page for the same part.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from datetime import date
from functools import cache, lru_cache, partial
from types import MappingProxyType

import pyphen
from flask import (
    Blueprint,
    Response,
    abort,
    before_render_template,
    current_app,
    g,
    get_template_attribute,
    has_request_context,
    jsonify,
    redirect,
    render_template,
    request,
    template_rendered,
)
from flask_babel import format_date, format_decimal, get_locale
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

from ...games import registry
from ...games.cards import SUITS, SYMBOLS, Card, CardError, parse_card
from ...games.words import Ordinal, Say, SayN, Sentence, joined
from ...storage import games, kernel, log_asks, rounds
from ...storage.kernel import NotFound, Refused, Stale
from .. import links
from .. import live as updates
from ..database import get_db
from ..picker import card_label
from ..words import PAGES, FirstLetter, HTMLReader, page_text, said
from . import families

bp = Blueprint("app", __name__)

class OtherFamily(Exception):
    """A page asked for on a game that another family of pages shows."""

    def __init__(self, variant, game_id: int) -> None:
        super().__init__(variant.key)
        self.variant, self.game_id = variant, game_id


def load_state(game_id: int, screens: str, round_no: int | None = None):
    """The game as its pages read it (games.state: the round being played, or round
    ``round_no``), for a page of the ``screens`` family: 404 if there is none (NotFound
    for a round asked for that is not played yet: the page says so); OtherFamily (its own
    page answers) if another family shows it; a stored log the rules no longer allow is
    said, never a 500."""
    db = get_db()
    try:
        variant = kernel.header(db, game_id)["variant"]
        if variant.screens != screens:
            raise OtherFamily(variant, game_id)
    except NotFound:
        abort(404)
    try:
        return games.state(db, game_id, round_no)
    except NotFound:
        if round_no is not None:
            raise
        abort(404)
    except Refused as e:
        abort(unreadable(e))


def unreadable(error: Refused) -> Response:
    """The page for a stored log the rules no longer allow (``error``: its refusal, as it
    was read): a 500 that says why in words, not the server's own error page. The tables'
    blueprints answer so any refusal their routes do not catch: only such a read is left."""
    return Response(render_template("error.html", title=page_text("This game cannot be read"),
                                    message=error.said), 500)


def refused_unread(refused, status: int, table: str) -> Response:
    """A play refused before its round was read (its form, as no page sends it): why, and
    the way back to the ``table``; the table is not read to say it (a play reads its round
    once, and this one never got so far)."""
    return Response(render_template("error.html", title=page_text("Nothing was saved"), error=refused,
                                    back=(table, page_text("Back to the table"))), status)


def own_games(screens: str):
    """A blueprint's check (``before_request``) that a form posted on a game's pages is
    for a game the ``screens`` family shows: another family's game is OtherFamily (409,
    nothing saved) before its form is read, as its pages are sent to its own (a form of
    one family's pages acted on another's game was a server error, or a play logged
    through the wrong pages)."""
    def check() -> None:
        game_id = (request.view_args or {}).get("game_id")
        if request.method == "POST" and game_id is not None:
            variant = kernel.header(get_db(), game_id)["variant"]
            if variant.screens != screens:
                raise OtherFamily(variant, game_id)
    return check


@bp.app_errorhandler(OtherFamily)
def other_family(error: OtherFamily):
    """Send a request for another family's page of a game to this game's own page."""
    part = families.part_of(request.endpoint)
    if request.method not in ("GET", "HEAD"):
        return render_template(
            "error.html", title=page_text("Not for this game"),
            message=page_text("This page belongs to another kind of game: go back to the game's "
                              "page. Nothing was saved."),
        ), 409
    return redirect(families.page_url(error.variant, part, error.game_id), 303)


def card_parts(name) -> Mapping[str, str]:
    """A card name (S9) as the pieces a template prints: rank, suit symbol, colour, words.
    Text that is no card (sent back to a page that refuses it) is printed as it came."""
    try:
        card = parse_card(str(name))
    except CardError:
        text = str(name)[:12]
        return MappingProxyType({"rank": text, "symbol": "", "suit": "", "colour": "",
                                 "label": text})
    if card.is_joker:  # Kalooki's jokers: drawn as the sentences say them, in the page's words
        return MappingProxyType({"rank": page_text("joker"), "symbol": "", "suit": "", "colour": "joker",
                                 "label": page_text("joker")})
    return MappingProxyType({
        "rank": card.rank_label,
        "symbol": SYMBOLS[card.suit],
        "suit": card.suit,
        "colour": card.colour,
        "label": card_label(card),
    })


# A card drawn: its colour's letter and its suit's (the stylesheet's two or four colours),
# its name in words for a screen reader, its rank and suit symbol.
CHIP = Markup('<span class="{}" role="img" aria-label="{}">{}{}</span>')


def _chip(parts: Mapping[str, str]) -> Markup:
    kind = " ".join(filter(None, ("k", parts["colour"][:1], parts["suit"].lower())))
    return CHIP.format(kind, parts["label"], parts["rank"], parts["symbol"])


@lru_cache(maxsize=8)
def _chips(_language: str) -> Mapping[str, Markup]:
    """Every card as the pages draw it (``card_chips``) in one language (its name for a
    screen reader is the language's): the most drawn thing of every page (a round's log,
    the melds on the table), drawn once per language. Not the joker: it is drawn in the
    page's words ("joker", "comodín"), by card_parts."""
    return MappingProxyType({str(card): _chip(card_parts(card))
                             for card in [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]})


@bp.app_template_global("card_chips")
def card_chips(names: Iterable) -> Markup:
    """Cards (names, or Card) as people read them, separated by spaces: rank and suit
    symbol, red or black, a joker in words (templates/_cards.html). Text in another
    spelling is read as a card; text that is no card (sent back to a page that refuses
    it) is printed as it came."""
    chips = _chips(_language())
    return Markup(" ").join(chips.get(str(name)) or _chip(card_parts(name)) for name in names)


class ChipReader(HTMLReader):
    """The pages' reader of a sentence as HTML (web/words.py HTMLReader: every word, name
    and number escaped) with each card drawn as its chip (``card_chips``): the only HTML
    in what it reads."""

    def card(self, card) -> Markup:
        return card_chips([card])


CHIP_READER = ChipReader()


@bp.app_template_filter("drawn")
def drawn_filter(value) -> Markup:
    """A sentence of the library (or any value) as HTML, its cards drawn as chips
    (``ChipReader``): a line of the hand's log, "Bob steals meld 1 from Ann with 6♥", its
    hearts red. What is not printed for people to see (an aria-label, a notice kept as
    text) reads the sentence as text (``said``, or as Jinja prints it). A value that is
    text (a name) comes back escaped too: Markup, whatever it is given."""
    return escape(CHIP_READER.value(value))


@bp.app_template_filter("cap_drawn")
def cap_drawn_filter(value) -> Markup:
    """:func:`drawn_filter`, its first letter a capital (a line of the changes page)."""
    return escape(CHIP_READER.value(FirstLetter(value)))


def regions(parts: Mapping[str, str], context: dict) -> dict[str, str]:
    """The regions of a table page (name → template), drawn for a live payload from one
    context: what ``render_template`` does for each (the context processors, then the
    template, then ``template_rendered``), with the processors run once for all of them
    (a sixth of the payload's cost when each region made its own context)."""
    # The app behind the proxy: Flask types current_app as the app itself (its own render_template
    # ignores this the same way).
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    context = dict(context)
    app.update_template_context(context)
    drawn = {}
    for name, path in parts.items():
        template = app.jinja_env.get_template(path)
        before_render_template.send(app, _async_wrapper=app.ensure_sync, template=template, context=context)
        drawn[name] = template.render(context)
        template_rendered.send(app, _async_wrapper=app.ensure_sync, template=template, context=context)
    return drawn


# The screens a table keeps open, kept small (the table page with its style sheet and script
# under 40 KB: tests/web/test_web_table.py): the rules of the other pages (pages.css) and
# the suit colours switch are left off them.
TABLE_SCREENS = ("table.show", "steals.table")


@bp.app_template_global("table_screen")
def table_screen() -> bool:
    """Whether the page being drawn is one of the table screens (:data:`TABLE_SCREENS`)."""
    return request.endpoint in TABLE_SCREENS


# Pieces of pages kept drawn (``drawn_once``): a round's 40–80 log lines and its melds, for
# each link and language of a hundred tables' open games.
PIECES_KEPT = 16384


@bp.app_template_global("drawn_once")
def drawn_once(template: str, macro: str, *args) -> Markup:
    """A piece of a page, ``template``'s ``macro`` called with ``args``, drawn once for the
    phones of one link and language and kept: a change to a round redraws its log and its
    melds for every kind of phone, and the lines and melds it did not change were the
    most of that work (benchmarks/README.md, "Pieces drawn once"). ``args`` are values
    (hashable, compared by what they hold) that, with the link and the language, are
    everything the piece is drawn from: a play's row (its revision moves with every
    change of it) and what the replay made of it, not the round they sit in."""
    return updates.piece(*_piece(_language(), g.get("game_key"), template, macro, args))


def meld_worth(state) -> dict[int | None, Markup]:
    """What cards laid off on each meld of the round would score, by the id of the play
    that made it, as the table page's meld choices carry it for a phone offline
    (games/worth.py): compact JSON, safe between single quotes (data-worth='…'; its
    double quotes are not escaped, which would take five bytes each); none once the game
    is over, nor for a read-only link, whose pages have no meld choices."""
    if state.over or not links.can_edit():
        return {}
    return {pid: htmlsafe_json_dumps(w.as_json(), dumps=partial(json.dumps, separators=(",", ":")))
            for pid, w in state.meld_worth().items()}


def new_meld_worth(state) -> Response:
    """``/worth``, beside each table's ``/live`` (app.js finds it there): what a new meld
    would score, as a phone offline adds it up (games/worth.py); kept by the service
    worker with the table. It changes with the game's rules and players only."""
    worth = state.new_meld_worth()
    return jsonify(worth.as_json() if worth is not None else {})


@bp.app_template_global("play_lines")
def play_lines(plays, game_id: int, editable: bool, history=()) -> Markup:
    """A round's log lines, newest last (``_play.html``'s ``play_list``): each play's line
    drawn once (:func:`drawn_once`, its ``play_item``) with the pass that ends its turn, if
    one does, told on it (the same player's); any other pass on a line of its own.
    The loop is here, not in the template: a round's forty lines, walked by Jinja's loop
    on every change of the round, cost more than drawing the line that changed."""
    language, link = _language(), g.get("game_key")
    lines = []
    after = None  # the play before this one in the round
    for i, tp in enumerate(plays):
        if tp.row.type == "pass":
            if after is None or after.row.type == "pass" or after.row.player != tp.row.player:
                lines.append(get_template_attribute("_play.html", "pass_item")(tp))
        else:
            then = plays[i + 1] if i + 1 < len(plays) and plays[i + 1].row.type == "pass" else None
            if then is not None and then.row.player != tp.row.player:
                then = None  # another player's pass: on a line of its own
            lines.append(updates.piece(*_piece(language, link, "_play.html", "play_item",
                                               (tp, game_id, editable, then, tp.row.id in history))))
        after = tp
    return Markup("\n").join(lines)


def _language() -> str:
    """The page's language, looked up once a request (Flask-Babel's lookup: a round's log
    and its cards ask for it dozens of times); "" outside a request."""
    if not has_request_context():
        return ""
    language = g.get("pieces_language")
    if language is None:
        language = g.pieces_language = str(get_locale() or "")
    return language


_FIRST_TAG = re.compile(r"<[a-zA-Z][^>]*")  # to its ">": an attribute's value has it escaped
KEYED = Markup(' data-k="{}"')  # a piece's key, the last attribute of its first tag


@lru_cache(maxsize=PIECES_KEPT)
def _piece(_language: str, _link: str | None, template: str, macro: str, args: tuple) -> tuple[str, Markup]:
    """(key, HTML) of a piece: a piece is one element, marked with its key (``data-k``: a
    hash of what it shows) so that a live payload can name a piece a phone already shows
    instead of sending it again (web/live.py, :func:`updates.piece`)."""
    html = get_template_attribute(template, macro)(*args)  # Markup: the templates autoescape
    key = hashlib.blake2b(html.encode(), digest_size=5).hexdigest()
    first = _FIRST_TAG.search(html)
    assert first is not None  # a piece is one element
    tag = first.end()
    return key, html[:tag] + KEYED.format(key) + html[tag:]


# Where names may break: English's and Spanish's patterns (pyphen's dictionaries, a fifth of
# a second to read; German's take a second more and break names at no place these miss).
HYPHENATION = ("en", "es")


@cache
def hyphenations() -> tuple[pyphen.Pyphen, ...]:
    """The patterns, read once per process: the served app reads them before its workers
    are forked (scorekeeper/serving.py), so that no phone's first page waits for them."""
    return tuple(pyphen.Pyphen(lang=code) for code in HYPHENATION)


@bp.app_template_filter("hyphenated")
def hyphenated_filter(name) -> str:
    """A name as a column of scores heads with it: soft hyphens where English or Spanish
    would hyphenate it (:data:`HYPHENATION`; a name comes from any language), between two
    letters, so a name too long for a phone's column breaks there, "Chris-topher", never
    anywhere; it reads, and is read aloud, as it is."""
    name = str(name)
    # Each word of the name on its own ("Montgomery-Smythe" is two): the patterns read a
    # hyphen as part of a word, and would break "S-mythe".
    points = sorted({word.start() + int(p) for word in _WORD.finditer(name) for h in hyphenations()
                     for p in h.positions(word.group())})
    return "\u00ad".join(name[i:j] for i, j in zip([0, *points], [*points, len(name)]))


_WORD = re.compile(r"[^\W\d_]+")  # a run of letters


@bp.app_template_filter("signed")
def signed_filter(n: int) -> str:
    """A score as people write it: +50, −120, 0 (the pages' reader, as a sentence's Signed)."""
    return PAGES.signed(n)


@bp.app_template_filter("score")
def score_filter(n: float) -> str:
    """A total as printed on a score sheet: 120, 0, −120 (a real minus sign, as everywhere);
    an average to one place, as the page's language writes it (52.5; 52,5 in German)."""
    shown = str(abs(n)) if isinstance(n, int) else format_decimal(abs(n), "0.0")
    return f"−{shown}" if n < 0 else shown


@bp.app_template_filter("sentence")
def sentence_filter(text) -> str:
    """A clause as a sentence: capital first letter (names keep theirs), full stop. A
    sentence of the library is read in the phone's language first."""
    return kernel.sentence(said(text))


@bp.app_template_filter("cap")
def cap_filter(text) -> str:
    """Capital first letter only (Jinja's capitalize would lower-case the names); a
    sentence of the library read in the phone's language first."""
    text = said(text)
    return text[:1].upper() + text[1:]


@bp.app_template_filter("ordinal")
def ordinal_filter(n: int) -> str:
    """A place in a row (3rd), by the phone's language's own pattern."""
    return said(Ordinal(n))


@bp.app_template_filter("said")
def said_filter(value) -> str:
    """A value as text in the phone's words: for a sentence given to a macro or a filter
    that would print it as it is (the game file's English)."""
    return said(value)


@bp.app_template_global("names_and")
def names_and(names: list[str]) -> Say | str:
    """Names one after another as a sentence: "Ann", "Ann and Bob", "Ann and Bob and Cy"."""
    if len(names) == 1:
        return names[0]
    return Say("%(first)s and %(rest)s", first=names[0], rest=names_and(names[1:]))


@bp.app_template_global("leader")
def leader(variant, game) -> Say | str:
    """Who leads a game, in words ("Ann leads with 120", "Ann and Cy lead with 40", "all
    at 0"): the best total, as the variant says it is (the lowest where the lowest wins)."""
    totals = game.totals
    if not totals:
        return ""
    top = leaders(variant, game)
    if not top:
        return Say("all at %(total)s", total=score_filter(next(iter(totals.values()))))
    return SayN("%(players)s leads with %(total)s", "%(players)s lead with %(total)s", len(top),
                players=names_and(top), total=score_filter(totals[top[0]]))


def leaders(variant, game) -> list[str]:
    """Who has the best total of a game, in seating order, as the variant says it is (the
    lowest where the lowest wins); no one while every player has the same."""
    totals = game.totals
    if not totals:
        return []
    best = (min if variant.lowest_total_wins(game.rules) else max)(totals.values())
    top = [p for p in game.players if totals[p] == best]
    return [] if len(top) == len(totals) else top


@bp.app_template_global("said_bonus_words")
def said_bonus_words(names):
    """The bonuses given, named as the stores list them ("game, shutout, lines"), in words
    (what the stores already say in words, as it is)."""
    if not isinstance(names, str):
        return names
    return joined([rounds.BONUS_WORDS.get(name, name) for name in names.split(", ") if name], ", ")


# A meld on Iceberg's table by its kind (iceberg_melds: pair, set, run, special).
MELD_KINDS = {"pair": Say("pair"), "set": Say("set"), "run": Say("run"), "special": Say("special")}


@bp.app_template_global("meld_kind")
def meld_kind(kind: str):
    return MELD_KINDS.get(kind, kind)


# A player's part in a Gin hand, as the game file's detail names it.
ROLE_WORDS = {"knocker": Say("knocker"), "defender": Say("defender")}


@bp.app_template_global("role_words")
def role_words(role: str):
    return ROLE_WORDS.get(role, role)


@bp.app_template_global("page_language")
def page_language() -> str:
    """The language the page is in, as HTML's ``lang`` names it (pt-BR, not pt_BR)."""
    return str(get_locale() or "en").replace("_", "-")


# What a form sent twice is told (a double tap, a form sent again): nothing more was done.
# A sentence, read in the phone's language where it is shown (``said`` before a flash).
ALREADY_SAVED = Say("Already saved: that was sent twice, and counts once.")


def form_error(form) -> Sentence | Say:
    """What is wrong in a form: its first field refused, by its label, and why."""
    for name, errors in form.errors.items():
        if errors:
            label = getattr(form, name).label.text if hasattr(form, name) else name
            return Sentence(Say("%(field)s: %(error)s", field=label, error=errors[0]))
    return Say("Something in the form is missing.")


@bp.app_template_global("round_word")
def round_word(key: str) -> str:
    """What a round is called in a game of this variant (its key): "round", "hand"."""
    variant = registry.get(key)
    return variant.round_word if variant is not None else "round"


def _word_of(variant) -> str:
    if isinstance(variant, str):
        return round_word(variant)
    return getattr(variant, "round_word", "round")


@bp.app_template_global("round_title")
def round_title(variant, n: int) -> Say:
    """A round by its number as its game calls it: "Round 3", "Hand 3" (``variant``: the
    variant or its key)."""
    return Say("Hand %(n)s", n=n) if _word_of(variant) == "hand" else Say("Round %(n)s", n=n)


@bp.app_template_global("rounds_counted")
def rounds_counted(variant, n: int) -> Say:
    """How many rounds are counted, as the game calls them: "1 round", "3 hands"."""
    if _word_of(variant) == "hand":
        return SayN("%(num)s hand", "%(num)s hands", n)
    return SayN("%(num)s round", "%(num)s rounds", n)


@bp.app_template_filter("date")
def date_filter(iso) -> str:
    """A day people read (from an ISO date or timestamp), written as the phone's language
    writes a day (Babel's format_date; English keeps 2026-03-04); text that is no date, as
    it is. An ISO date that is data (a form's value, an attribute) is printed as it is."""
    try:
        day = date.fromisoformat(str(iso)[:10])
    except ValueError:
        return str(iso)
    # A CLDR date pattern: how this language writes a day (German d.M.yyyy, Spanish d/M/yyyy).
    return format_date(day, page_text("yyyy-MM-dd"))


@bp.app_template_global("card_parts")
def card_parts_global(name) -> Mapping[str, str]:
    return card_parts(name)


def phone_of(game_id: int, players) -> str | None:
    """The player whose phone this is at the game (links.whose), None for a phone for
    the whole table or one that has not said: whose turn it is plays there."""
    seat = links.whose(game_id)
    return players[seat] if seat is not None and 0 <= seat < len(players) else None


ROUNDS_SHOWN = 5  # the rounds a game page lists at first, the latest; the rest one tap away


def rounds_shown(count: int) -> int:
    """The first round a game page lists of ``count`` rounds: the last ROUNDS_SHOWN, or
    every one when the page is asked for them all (``?rounds=all``). The page costs the
    same at round 40 as at round 1; its chart and totals still cover every round."""
    if request.args.get("rounds") == "all":
        return 1
    return max(1, count - ROUNDS_SHOWN + 1)


def refusal_status(refusal: Refused | log_asks.Outcome) -> int:
    """422 for a play the rules refuse; 409 when another phone changed the table first (a
    Stale refusal, or a play's outcome refused so)."""
    stale = refusal.stale if isinstance(refusal, log_asks.Outcome) else isinstance(refusal, Stale)
    return 409 if stale else 422
