"""The rules of the games: a pure library (no Flask, no database, no I/O).

One module per game reads like that game's rules; ``cards`` and ``options`` are shared.
"""
