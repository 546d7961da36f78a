"""Pieces of the table screen rendered once and kept, by exactly what they show.

Every phone at a table asks for the table page after its melds, and every second for
the live regions (``/live``), so the same rows of the round's log, the same melds to
lay off on and the same suits of the card picker are rendered over and over: between
two versions of a game one play changes, and the other forty rows of the log are as
they were. Rendering them was most of what a request cost (the load benchmark,
benchmarks/README.md).

So the templates draw those pieces through the globals here, and each piece's HTML is
kept in a bounded memo keyed by *everything the piece shows*, never by a game's id or
version alone: the play row and what the replay made of it, the meld and who started
it, the suit row of the picker. The engine's values in a key (a ``Play``, a ``Meld``:
frozen) are named by identity and kept alive with the piece (see ``_kept``); the rest
is the data itself. So a kept piece can never be stale, whichever phone or process
changed the game. A piece with
a link that changes the game (a play's Edit link) is keyed by the link's game key and
by ``editable`` too: a read-only viewer's page is drawn from pieces made for
read-only viewers, so nothing meant for the edit link ever reaches them.

Nothing kept holds a CSRF token or a request id: those are per phone and per form
(``_keys.html``), and stay outside these pieces. What is kept is the macro's own output
(autoescaped ``Markup``); the pieces are joined by ``Markup.join``, which would escape
anything that is not.
"""
from __future__ import annotations

import operator
from typing import Callable, Iterable

from flask import Flask, current_app, g
from markupsafe import Markup, escape

from .replay_cache import Memo

PIECES_KEPT = 50_000  # a few hundred bytes each: 10–20 MB at most per process

_pieces = Memo(PIECES_KEPT)
_JOIN = escape("")  # an empty Markup: its join() keeps Markup pieces, escapes the rest


def _macro(template: str, name: str) -> Callable:
    """A macro of a template, callable from Python (its module is made once per template)."""
    return getattr(current_app.jinja_env.get_template(template).module, name)


def _kept(key: tuple, held: tuple, render: Callable[[], Markup]) -> Markup:
    """The piece kept for ``key``, or ``render()`` kept from now on.

    ``held``: engine values (frozen) the piece shows, named in ``key`` by identity, not
    by content: hashing and comparing them whole, card by card, for every row of every
    page cost as much as rendering. The replay memo (replay_cache.py) hands the same
    objects to every request while a round lasts, so a piece is found by them; the
    piece keeps them alive, so their identities are not reused while it is kept, and a
    piece is used only if it was made with these very objects.
    """
    found = _pieces.peek(key)
    if found is not None and all(map(operator.is_, found[0], held)):
        return found[1]
    html = render()
    _pieces.put(key, (held, html))
    return html


def play_items(plays: Iterable, game_id: int, editable: bool = True) -> Markup:
    """``_play.html``'s ``play_item`` for each row of the log, each rendered once.

    The key: the row as stored (id, type, player, cards, target), whom a pass passed to,
    the engine's ``Play`` (frozen: cards, meld number, meld before and after, points),
    and for an editable row the game key its Edit link carries.
    """
    macro = _macro("_play.html", "play_item")
    link = g.get("game_key") if editable and g.get("game_id") == game_id else None
    if editable and link is None:  # an Edit link not made from this request's URL
        return _JOIN.join(macro(tp, game_id, editable) for tp in plays)
    parts = []
    for tp in plays:
        row = tp.row
        key = ("play", game_id, bool(editable), link, row.id, row.type, row.player,
               tuple(row.cards), row.target, tp.passed_to, id(tp.play))
        parts.append(_kept(key, (tp.play,), lambda: macro(tp, game_id, editable)))
    return _JOIN.join(parts)


def meld_choices(melds: Iterable, target: int | None, disable_special: bool = True) -> Markup:
    """One radio button per meld on the table to lay off on (``_meld_choice.html``).

    The key: the meld's play id and number, its cards and shape (the engine's frozen
    ``Meld``), who started it, and whether it is the one chosen.
    """
    macro = _macro("_meld.html", "meld_choice")
    parts = []
    for pid, tm in melds:
        key = ("meld", pid, tm.number, id(tm.meld), tm.started_by, target == pid,
               bool(disable_special))
        parts.append(_kept(key, (tm.meld,), lambda: macro(pid, tm, target, disable_special)))
    return _JOIN.join(parts)


def picker_rows(rows: Iterable, name: str = "cards") -> Markup:
    """The card picker's suits (``_picker.html``), each rendered once per state of that suit.

    A play changes one suit or a few: the others are as they were. A row is made anew
    for every page (picker.grid), so it is kept by content: the suit, its cards, and
    for each how many copies may be picked and how many are (a cell's rank, symbol and
    words follow from its card; comparing whole ``SuitRow`` values cell by cell cost
    more than rendering).
    """
    macro = _macro("_picker.html", "suit_row")
    parts = []
    for row in rows:
        cells = row.cells
        key = ("suit", name, row.suit, tuple([c.card for c in cells]),
               tuple([c.copies for c in cells]), tuple([c.picked for c in cells]))
        parts.append(_kept(key, (), lambda: macro(row, name)))
    return _JOIN.join(parts)


def init_app(app: Flask) -> None:
    app.add_template_global(play_items)
    app.add_template_global(meld_choices)
    app.add_template_global(picker_rows)
