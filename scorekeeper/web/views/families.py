"""The families of a game's pages, and which one shows a game.

Which pages show a game is said by its variant's ``screens`` (games/variant.py): each
family of pages (views/table.py with round_end.py and table_game.py for a table of aces and melds,
views/steals.py for melds that change hands, views/counted.py for hands counted at the
end) declares itself once as a :class:`Family`: its blueprints, its pages by the part
they play (the game page, the table, the round end, the game file, the score sheet), how
its pages read a game, its live payload and its scoreboard. ``create_app`` registers them
from one list (:func:`register_families`). A page asked for on a game another family
shows (an old link, a history entry) leads to that family's page for the same part
(views/helpers.py, ``other_family``). Lists of games of every family (the history, a
player's games) link each game's own pages (the templates' ``game_page_of``,
``table_page_of``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, url_for

from ...games import registry
from ...games.variant import Variant
from .. import live as updates

PARTS = ("game", "table", "end", "export", "export_csv")


@dataclass(frozen=True)
class Family:
    """A family of pages, declared once, at the end of its module (``FAMILY``); web/__init__.py
    registers the families from one list (:func:`register_families`). ``screens``: its
    name, which the variants it shows give as theirs; ``blueprints``: its routes; ``pages``:
    its page for each part (PARTS) by endpoint; ``load``: a game as its pages read it;
    ``live``: the parts of its live payload (web/live.py); ``board``: its scoreboard
    (views/scoreboard.py)."""

    screens: str
    blueprints: tuple[Blueprint, ...]
    pages: Mapping[str, str]
    load: Callable[[int], Any]
    live: Callable[[Any], dict]
    board: Callable[[Any], Any]


FAMILIES: dict[str, Family] = {}  # by screens
_PART_OF: dict[str, str] = {}  # endpoint → the part (PARTS) its page plays


def register_families(app, families: Iterable[Family], variants: Iterable) -> None:
    """Register each family's blueprints with ``app``; check that every variant has its
    family and that every page a family names is a route (a game whose family is missing
    would fail at its first page, at a table; this fails at start instead); then make the
    families the ones the pages (and the live payloads) look up."""
    shown = {family.screens: family for family in families}
    for family in shown.values():
        for blueprint in family.blueprints:
            app.register_blueprint(blueprint)
    for variant in variants:
        if variant.screens not in shown:
            raise RuntimeError(f"variant {variant.key!r}: no family of pages {variant.screens!r} shows it")
    for screens, family in shown.items():
        missing = sorted(e for e in family.pages.values() if e not in app.view_functions)
        if missing:
            raise RuntimeError(f"family {screens!r} names pages that are no route: {', '.join(missing)}")
    FAMILIES.update(shown)
    for screens, family in shown.items():
        _PART_OF.update({endpoint: part for part, endpoint in family.pages.items()})
        updates.register(screens, family.load, family.live)
    # For the lists of games of every family (the history, a player's games).
    app.add_template_global(game_page_of)
    app.add_template_global(table_page_of)


def part_of(endpoint: str | None) -> str:
    """The part (PARTS) a family's page plays; "game" for any other page."""
    return _PART_OF.get(endpoint or "", "game")


def page_url(variant, part: str, game_id: int) -> str:
    """The URL of a game's page for ``part``, in the family that shows its variant."""
    endpoints = FAMILIES[variant.screens].pages
    return url_for(endpoints.get(part, endpoints["game"]), game_id=game_id)


def _page_of(variant: Variant | str, part: str, game_id: int) -> str | None:
    """A game's page for ``part`` (:data:`PARTS`) in the family that shows it;
    ``variant``: the game's, or its key. None for a game of a variant this release does
    not have (a database written by another one): the list shows it, without a link."""
    found = registry.get(variant) if isinstance(variant, str) else variant
    return None if found is None else page_url(found, part, game_id)


def game_page_of(variant: Variant | str, game_id: int) -> str | None:
    """A game's page, for a list of games of every family (the history, a player's games)."""
    return _page_of(variant, "game", game_id)


def table_page_of(variant: Variant | str, game_id: int) -> str | None:
    """A game's table (where a game not over is resumed), for a list of games of every family."""
    return _page_of(variant, "table", game_id)
