"""The table's language: Flask-Babel, with the phone's choice or its Accept-Language.

The pages are written in English and translated by Babel's catalogs
(``scorekeeper/translations/<language>/LC_MESSAGES/messages.po``, compiled when the
package is built or installed). A phone's language is the one it chose with the switch
at the foot of every page (kept in its session, so the phone keeps it), else the best
of its browser's Accept-Language among those the app has, else English. Every phone at
a table may read another language: the scores are the same, only the words differ. The
game file, the JSON of ``scorekeeper score`` and the command line stay English: they
are formats and tools, not the table's screens.

Beside the language, the foot of every page keeps the phone's other way of reading the
cards: the suits in two colours (♠ ♣ black, ♥ ♦ red), or in four (♦ blue, ♣ green), for
colour-blind players and dim rooms. Kept in the session too; the page's ``<html>`` says
it (``four``) and the stylesheet draws it.
"""
from __future__ import annotations

from babel import Locale
from flask import Blueprint, Flask, current_app, redirect, render_template, request, session
from flask_babel import Babel, get_locale
from werkzeug.exceptions import HTTPException

from .words import page_text

LANGUAGES = ("en", "es", "de")  # English first: the language of the code, and the fallback

bp = Blueprint("languages", __name__)


def chosen_language() -> str:
    """The phone's language: its own choice, else its browser's best, else English."""
    choice = session.get("lang")
    if choice in LANGUAGES:
        return choice
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


@bp.app_template_global("languages")
def languages() -> list[dict]:
    """The switch's choices: each language by its own name ("Deutsch"), the one shown marked."""
    now = str(get_locale() or LANGUAGES[0])
    return [{"code": code, "name": _own_name(code), "current": code == now} for code in LANGUAGES]


def _own_name(code: str) -> str:
    name = Locale.parse(code).get_display_name(code)
    assert name is not None  # Babel's data names each of LANGUAGES in its own language
    return name[:1].upper() + name[1:]


@bp.route("/language", methods=["POST"])
def choose():
    """This phone's language from now on; back to the page it was chosen on."""
    code = request.form.get("lang", "")
    if code not in LANGUAGES:
        return _not_changed(page_text("No such language"), page_text(
            "This app speaks %(languages)s: choose one of them at the foot of the page.",
            languages=", ".join(_own_name(c) for c in LANGUAGES)), 422)
    return _kept("lang", code, page_text(
        "The page to go back to is not an address of this app: the language was not changed. "
        "Choose it again at the foot of the page."))


SUIT_COLOURS = ("two", "four")


@bp.app_template_global("four_colours")
def four_colours() -> bool:
    """Whether this phone draws the suits in four colours."""
    return session.get("suits") == "four"


@bp.route("/suits", methods=["POST"])
def choose_suits():
    """This phone's suit colours from now on; back to the page they were chosen on."""
    choice = request.form.get("suits", "")
    if choice not in SUIT_COLOURS:
        return _not_changed(page_text("Not changed"), page_text(
            "The suits are drawn in two colours or in four: choose one at the foot of the page."), 422)
    return _kept("suits", choice, page_text(
        "The page to go back to is not an address of this app: the suit colours were not "
        "changed. Choose them again at the foot of the page."))


def _kept(name: str, value: str, no_page):
    """This phone's choice ``name`` kept in its session, and back to the page the form
    names (``next``); nothing kept if that is no address of a page (``no_page`` says so)."""
    back = request.form.get("next", "")
    if not back.isprintable():  # a line break or a control character: no address of a page
        return _not_changed(page_text("No such page"), no_page, 400)
    session[name] = value
    return redirect(_page_to_show(back), 303)


def _not_changed(title, message, status: int):
    return render_template("error.html", title=title, message=message), status


def _page_to_show(path: str) -> str:
    """The page the switch was on, if it is a page of this app one can go back to: a
    form's answer (a POST's address) goes back to the nearest page above it
    (``/g/<game>/plays`` → ``/g/<game>``), anything else to the games."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    page, _, query = path.partition("?")
    urls = current_app.url_map.bind("localhost")
    while page not in ("", "/"):
        try:
            urls.match(page, method="GET")
            return page + ("?" + query if query else "")
        except HTTPException:
            page, query = page.rsplit("/", 1)[0], ""
    return "/"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=chosen_language)
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    app.register_blueprint(bp)
