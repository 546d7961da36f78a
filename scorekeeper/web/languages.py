"""The table's language: Flask-Babel, with the phone's choice or its Accept-Language.

The pages are written in English and translated by Babel's catalogs
(scorekeeper/translations/<language>/LC_MESSAGES/messages.po); a phone's language is the
one it chose on a page (kept in its session), else the best of its browser's
Accept-Language among those the app has, else English. The game file, the JSON of
``scorekeeper score`` and the command line stay English: they are formats and tools.
"""
from __future__ import annotations

from flask import Flask, request, session
from flask_babel import Babel

LANGUAGES = ("en",)  # English first: the language of the code, and the fallback


def chosen_language() -> str:
    """The phone's language: its own choice, else its browser's best, else English."""
    choice = session.get("lang")
    if choice in LANGUAGES:
        return choice
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=chosen_language)
