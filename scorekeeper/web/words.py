"""How the pages show what the rules library and the stores say: in the phone's language,
with cards as the pages draw them (9♠, not S9).

The library keeps its sentences as templates with values (games/words.py); here they
are read with Flask-Babel's catalogs: the template translated, then each value shown —
a card as its rank and suit symbol, a sentence within a sentence read the same way,
an ordinal by the language's own pattern (CLDR's ordinal categories choose which of
the catalog's patterns). :func:`show` reads one value; the pages' templates read every
value they print through it (``create_app`` makes it Jinja's ``finalize``), so a
sentence from the library is never printed in the game file's English by mistake. A
sentence printed with its cards drawn as the pages draw them, as coloured chips, is read
as HTML by :class:`HTMLReader`, every word in it escaped (views/helpers.py, ``drawn``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from babel import Locale
from flask import g, has_request_context
from flask_babel import get_locale, get_translations, lazy_gettext
from jinja2 import Environment, Undefined, pass_context
from markupsafe import Markup, escape

from ..games.cards import SYMBOLS, Card
from ..games.words import ENGLISH, Reader, Say

# The ordinal patterns, by CLDR's ordinal category (English: 1st, 2nd, 3rd, 4th; a
# language with one form translates all four the same: "%(n)s.º").
ORDINALS = {
    "one": lazy_gettext("%(n)sst"),
    "two": lazy_gettext("%(n)snd"),
    "few": lazy_gettext("%(n)srd"),
    "other": lazy_gettext("%(n)sth"),
}


def translations():
    """This request's catalog, as Flask-Babel chooses it, asked of Flask-Babel once a
    request: a page reads a hundred sentences or more, and each of Flask-Babel's own
    lookups goes through the app's and the request's contexts (benchmarks/README.md,
    "One catalog a request")."""
    if not has_request_context():
        return get_translations()
    found = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


class PageReader(Reader):
    """The pages' reader: Flask-Babel's translations of the phone's language."""

    def gettext(self, template: str) -> str:
        return translations().ugettext(template)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return translations().ungettext(singular, plural, count)

    def card(self, card) -> str:
        if card.is_joker:
            return self.gettext("joker")
        return f"{card.rank_label}{SYMBOLS[card.suit]}"

    def ordinal(self, n: int) -> str:
        locale = get_locale() or Locale("en")
        category = locale.ordinal_form(n) if locale.ordinal_form else "other"
        return str(ORDINALS.get(category, ORDINALS["other"])) % {"n": n}


PAGES = PageReader()


class HTMLReader(PageReader):
    """The pages' reader, reading a sentence as HTML to print (Markup): its words the
    catalog's in the phone's language, its word order the translation's, and everything in
    it escaped (``escape``) — the translated template, the names the players typed, the
    numbers and words of its values, the separators: a value put into the template or beside
    another is escaped (Markup's ``%`` and ``join``) unless it is Markup itself, a sentence
    read so or a card drawn so (views/helpers.py ChipReader: a card as its coloured chip).
    Nothing here declares text safe."""

    def gettext(self, template: str) -> Markup:
        return escape(super().gettext(template))

    def ngettext(self, singular: str, plural: str, count: int) -> Markup:
        return escape(super().ngettext(singular, plural, count))

    def join(self, separator: str, parts) -> Markup:
        return escape(separator).join(parts)


def show(value: Any) -> Any:
    """A value as a page prints it: a sentence (or cards, points, a place) read by
    :class:`PageReader` (in a request; outside one, as the game file has it), anything
    else as it is. A lone card is left as it is: a template prints it into forms and
    attributes as its canonical name, and draws it for people with its ``card`` macro."""
    if value is None or isinstance(value, (str, int, float, Card, Undefined)):
        return value
    if getattr(value, "shown", None) is None:
        return value
    return value.shown(PAGES) if has_request_context() else str(value)


def said(value: Any) -> str:
    """A value as text in the phone's words (``show``, then ``str``): for a message put
    together in a view, or kept in the session until the next page."""
    shown = show(value)
    return "" if shown is None else str(shown)


@dataclass(frozen=True)
class FirstLetter:
    """A value shown with its first letter made a capital (``upper``) or a small one: a
    sentence put at the start of another, or a choice's words inside one."""

    value: Any
    upper: bool = True

    def shown(self, reader: Reader) -> str:
        text = reader.value(self.value)
        return (text[:1].upper() if self.upper else text[:1].lower()) + text[1:]

    def __str__(self) -> str:
        return self.shown(ENGLISH)


def page_text(template: str, **values: Any) -> str:
    """The web's own sentence (a view's message), read like the library's: translated,
    its values shown (``Say`` so that Babel finds it where views call ``page_text``)."""
    return said(Say(template, **values))


# ---------------------------------------------------------------------------------------
# The templates' own sentences: ``{{ _("Round %(n)s", n=…) }}``, ``ngettext`` and
# ``{% trans %}`` blocks. Jinja's i18n extension (new style, as Flask-Babel installs it)
# puts each value into the translated template as its ``str()``: a sentence of the
# library would be printed in the game file's English, its cards as S9. :func:`install`
# hands Jinja's own functions (which escape each value) the values read by :func:`show`.


def install(env: Environment) -> None:
    """The templates' gettext and ngettext (and ``_``) show the values they are given as
    the pages show them (after Flask-Babel has set up Jinja's i18n extension), read from
    the request's catalog (:func:`translations`)."""
    # Jinja's i18n extension adds install_gettext_callables to the environment (extend()),
    # which Environment's type does not declare.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda string: translations().ugettext(string),
        lambda singular, plural, n: translations().ungettext(singular, plural, n),
        newstyle=True)
    # The functions the extension has just installed: Jinja types its globals as objects.
    jinja_gettext = cast(Callable[..., str], env.globals["gettext"])
    jinja_ngettext = cast(Callable[..., str], env.globals["ngettext"])

    @pass_context
    def gettext(__context, __string: str, **values: Any) -> str:
        return jinja_gettext(__context, __string, **_shown_values(values))

    @pass_context
    def ngettext(__context, __singular: str, __plural: str, __num: int, **values: Any) -> str:
        return jinja_ngettext(__context, __singular, __plural, __num, **_shown_values(values))

    env.globals.update(gettext=gettext, _=gettext, ngettext=ngettext)


def _shown_values(values: dict) -> dict:
    return {name: show(value) for name, value in values.items()}
