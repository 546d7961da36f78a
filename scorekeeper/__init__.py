"""scorekeeper: the score pad for a rummy table, scored from the cards themselves.

The package in layers, each importing only those before it:

- ``games/``: the rules of every game, a pure library, and the registry of games;
- ``gamefile``: the game file read, checked and replayed: the one way a game is scored;
- ``storage/``: games kept in SQLite as their logs; ``stats``: figures over many games;
- ``web/``: the Flask app (``create_app``); ``cli``: the ``scorekeeper`` command.

``create_app`` is imported from ``web`` only when called, so ``scorekeeper score`` and
``import scorekeeper.games`` stay light.
"""
from __future__ import annotations


def create_app(test_config: dict | None = None):
    """The web app (``flask --app scorekeeper run``): see :func:`scorekeeper.web.create_app`."""
    from .web import create_app as make

    return make(test_config)
