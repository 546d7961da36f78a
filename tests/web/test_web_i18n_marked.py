"""Every text a person reads on the pages goes through Flask-Babel (issue 17, item 1).

Each template of ``TEMPLATES`` is read with Jinja's own lexer and its HTML put back
together without what Jinja prints (each ``{{ … }}`` and ``{% … %}`` is one mark, a
``{% trans %}`` block too): what is left is the text the template writes itself. Its
text nodes and the attributes people read (aria-label, title, alt, placeholder, a
button's shown value) must hold no letter: words are written with ``_()``, ``ngettext``
or a ``{% trans %}`` block. A string literal printed by the template itself (``{{ "Who
played" if … }}``, ``join(" and ")``, a macro's text argument) is English put into the
page too, unless it is the text of an i18n call or a name (a URL's endpoint, a card, an
attribute, a value compared with).

The templates another engineer is changing now are in ``LATER``: move one into
``TEMPLATES`` when its words are marked.
"""
from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment

from scorekeeper.games import registry
from scorekeeper.games.words import Say

ROOT = Path(__file__).resolve().parents[2] / "templates"

TEMPLATES = [
    "base.html", "error.html", "games.html", "_game_line.html", "_history_filter.html",
    "_import_form.html", "import.html", "new_game.html", "_known_players.html",
    "_partnerships.html", "_share.html", "rules.html",
    *sorted(f"how/{p.name}" for p in (ROOT / "how").glob("*.html")),
    "summary.html", "counted_game.html", "robber_game.html", "round.html", "hand_change.html",
    "counted_round_detail.html", "_counted_result.html", "_breakdown.html",
    "_running_totals.html", "_timeline.html", "_chart.html", "_scores.html", "sheet.html",
    "player.html", "players.html", "players_head_to_head.html",
    "edit_play.html", "robber_edit.html", "_edit_parts.html", "_log.html", "_play.html", "_robber_log.html",
    "_bring_back.html", "_said.html", "_aces.html", "_meld.html", "_meld_choice.html", "_turn.html", "_all_rounds.html",
    "_robber_turn.html", "_robber_board.html", "_robber_melds.html", "_robber_sides.html",
    "counted_knock.html", "_cards.html", "_keys.html",
    "table.html", "robber_table.html", "_picker.html", "_preview.html", "_robber_preview.html",
    "_hand_entry.html", "counted_round.html", "robber_hand.html", "robber_end.html",
    "round_end.html", "_robber_taken.html", "_languages.html", "whose.html", "_whose.html", "changes.html",
    "board.html", "_board_last.html", "_rules_choice.html",
    "night_new.html", "night.html", "_night_standings.html", "_night_ahead.html", "night_screen.html",
    "night_sheet.html",
]
LATER: list[str] = []

# Text a template may write as it is: no language has other words for these.
SYMBOLS_ONLY = re.compile(r"[^\W\d_]")  # a letter
ALLOWED_TEXT = {
    "A",  # the ace's rank, drawn on a card (_aces.html: A♠)
    "²",  # a card's second copy, drawn on its cell (_picker.html: 9♠²)
}  # (a joker is drawn in the page's words: helpers.card_parts)
# String literals a template may print: CSS classes put into class="…".
ALLOWED_LITERALS = {" won"}
# Calls whose string arguments are names, not words: the i18n calls themselves, URLs,
# cards, attribute and test names.
NAMES_CALLS = {"_", "gettext", "ngettext", "url_for", "card_parts", "cards", "card",
               "selectattr", "rejectattr", "map", "attr", "get", "equalto", "truncate",
               "startswith", "endswith", "include", "import",
               "drawn_once",  # a template and its macro
               "suit_row"}  # a picker's row and the name of its field
COMPARED = {"==", "!=", "in", "not", "is"}
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "aria-placeholder",
                   "aria-roledescription", "aria-valuetext"}
MARK = "\ue000"  # where Jinja prints something
# Blocks that write a tag's attributes (base.html's <body{% block body_attrs %}…>): no text.
ATTRIBUTE_BLOCKS = {"body_attrs"}


def _env() -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.policies["ext.i18n.trimmed"] = True
    return env


def skeleton(source: str) -> tuple[str, list[str]]:
    """The template's HTML with a mark for each thing Jinja prints, and the string
    literals it prints that hold words."""
    env = _env()
    out: list[str] = []
    literals: list[str] = []
    tokens = [(kind, value) for _line, kind, value in env.lex(source)
              if kind not in ("whitespace",)]
    in_trans = 0
    in_attributes: list[bool] = []  # per open block: does it write attributes?
    i = 0
    while i < len(tokens):
        kind, value = tokens[i]
        if kind == "data":
            out.append(MARK if in_trans or any(in_attributes) else value)
            i += 1
            continue
        if kind == "comment_begin":
            while tokens[i][0] != "comment_end":
                i += 1
            i += 1
            continue
        if kind in ("block_begin", "variable_begin"):
            end = "block_end" if kind == "block_begin" else "variable_end"
            inner = []
            i += 1
            while tokens[i][0] != end:
                inner.append(tokens[i])
                i += 1
            i += 1
            head = inner[0][1] if inner else ""
            if kind == "block_begin" and head == "trans":
                in_trans += 1
            elif kind == "block_begin" and head == "endtrans":
                in_trans -= 1
            elif kind == "block_begin" and head == "block":
                in_attributes.append(len(inner) > 1 and inner[1][1] in ATTRIBUTE_BLOCKS)
            elif kind == "block_begin" and head == "endblock" and in_attributes:
                in_attributes.pop()
            if kind == "variable_begin" or head in ("set", "with", "call", "trans"):
                literals.extend(_worded_literals(inner))
            out.append(MARK)
            continue
        out.append(MARK)  # raw blocks and the like
        i += 1
    return "".join(out), literals


def _worded_literals(tokens: list[tuple[str, str]]) -> list[str]:
    """String literals with letters, but those given to a call of NAMES_CALLS, used as a
    key (x["key"]) or compared with."""
    found = []
    stack: list[str] = []  # one entry per open bracket: the call's name, "[" or "("
    for n, (kind, value) in enumerate(tokens):
        before = tokens[n - 1] if n else ("", "")
        after = tokens[n + 1] if n + 1 < len(tokens) else ("", "")
        if kind == "operator" and value == "(":
            stack.append(before[1] if before[0] == "name" else "(")
        elif kind == "operator" and value == "[":
            stack.append("key" if before[0] == "name" or before[1] in (")", "]") else "[")
        elif kind == "operator" and value == "{":
            stack.append("{")
        elif kind == "operator" and value in ")]}":
            if stack:
                stack.pop()
        elif kind == "string":
            text = ast.literal_eval(value)
            if not SYMBOLS_ONLY.search(text) or text in ALLOWED_LITERALS:
                continue
            if any(s in NAMES_CALLS or s == "key" for s in stack):
                continue
            if before[1] in COMPARED or after[1] in COMPARED or after[1] == ":":
                continue  # compared with, or a dict's key
            if before[1] == "=" and after[1] in (",", ")") and stack:
                continue  # a keyword argument's value given to a macro: checked where printed
            found.append(text)
    return found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        shown = dict(attrs)
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (
                    name == "value" and tag == "input"
                    and (shown.get("type") or "").lower() in ("submit", "button", "reset"))):
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.texts.append(data)


def unmarked(name: str) -> list[str]:
    """The texts of a template that hold words outside the i18n functions."""
    html, literals = skeleton((ROOT / name).read_text(encoding="utf-8"))
    reader = _Reader()
    reader.feed(html)
    reader.close()
    left = []
    for text in reader.texts:
        words = " ".join(text.replace(MARK, " ").split())
        if SYMBOLS_ONLY.search(words) and words not in ALLOWED_TEXT:
            left.append(words)
    return left + [f"printed literal {t!r}" for t in literals]


@pytest.mark.parametrize("name", TEMPLATES)
def test_every_text_of_the_template_is_marked_for_translation(name):
    assert unmarked(name) == []


def test_the_checker_finds_english_left_out():
    sample = ('<p>{{ _("Ready") }} Left out <b title="a title">{{ x }}</b></p>'
              '{% trans n=3 %}Inside {{ n }}{% endtrans %}'
              '<button aria-label="{{ _("Delete") }}">&times;</button>'
              '{{ "Who" if a == "out" else "Me" }}{{ url_for("games.index") }}'
              '{{ names|join(" and ") }}{{ cards(["S7"]) }}{{ x["key"] }}')
    html, literals = skeleton(sample)
    reader = _Reader()
    reader.feed(html)
    texts = [" ".join(t.replace(MARK, " ").split()) for t in reader.texts]
    assert [t for t in texts if SYMBOLS_ONLY.search(t)] == ["Left out", "a title"]
    assert literals == ["Who", "Me", " and "]


def test_every_template_is_listed():
    """A new template is either checked now or waits in LATER, never forgotten."""
    every = {str(p.relative_to(ROOT)) for p in ROOT.rglob("*.html")}
    assert every - set(TEMPLATES) - set(LATER) == set()


@pytest.mark.parametrize("key", list(registry.VARIANTS))
def test_the_rule_options_say_their_words_as_sentences(key):
    """What the new-game form and the rules page print of a rule option is the rules
    library's sentences (words.Say), read in the phone's language; str() of each is what
    ``scorekeeper rules`` prints."""
    variant = registry.VARIANTS[key]
    assert isinstance(variant.defaults_from, Say)
    for option in variant.rules:
        said = [option.help, option.source, option.label, *option.choice_labels]
        said += [option.default_text] if option.default_text else []
        assert all(isinstance(words, Say) for words in said), option.name
