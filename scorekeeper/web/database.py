"""The database's life in the web app: one connection per request, on ``g``.

Flask's tutorial shape: ``get_db`` gives one when a request first asks, ``close_db`` puts it
back when the request ends, ``init-db`` creates or upgrades the database by hand, and the
app upgrades it when it starts (sqlite-utils migrations, storage/migrations.py).

A connection put back is kept open for the process's next request (at most
:data:`KEPT_OPEN`, each used by one request at a time, never across a fork, rolled back
if a request left a transaction open): opening one, whose first statement reads the
schema, was a tenth of the server's CPU under the load benchmark's tables
(benchmarks/README.md, "Connections kept open": paired runs with and without).
"""
from __future__ import annotations

import os
import sqlite3

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from ..storage import drawn
from ..storage.db import connect
from ..storage.migrations import migrate

KEPT_OPEN = 8  # connections a server process keeps between requests (a worker's busiest moments)


def _kept() -> list[Database]:
    """This process's connections kept open for this app's database file (a forked worker
    starts with none; a file named anew in the config closes those of the one before)."""
    where = (os.getpid(), current_app.config["DATABASE"])
    found = current_app.extensions.get("scorekeeper.connections")
    if found is None or found[0] != where:
        if found is not None and found[0][0] == where[0]:
            for db in found[1]:
                db.close()
        found = current_app.extensions["scorekeeper.connections"] = (where, [])
    return found[1]


def get_db() -> Database:
    if "db" not in g:
        kept = _kept()
        g.db = kept.pop() if kept else connect(current_app.config["DATABASE"], any_thread=True)
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    kept: list[Database] | None = _kept()
    try:
        if db.conn.in_transaction:  # a request that failed half-way: nothing of it is kept
            db.conn.rollback()
    except sqlite3.Error:  # a connection in doubt is not kept
        kept = None
    if kept is not None and len(kept) < KEPT_OPEN:
        kept.append(db)
    else:
        db.close()


def init_app(app: Flask) -> None:
    """Close the connection after each request, add ``init-db``, migrate at start."""
    app.teardown_appcontext(close_db)

    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create the database, or bring an older one up to date."""
        db = connect(app.config["DATABASE"])
        try:
            applied = migrate(db)
        finally:
            db.close()
        click.echo(
            f"Applied {', '.join(applied)} to {app.config['DATABASE']}." if applied
            else f"{app.config['DATABASE']} is up to date."
        )

    db = connect(app.config["DATABASE"])
    try:
        migrate(db)
        drawn.forget(db)  # drawn by the app as it was before (a release may draw otherwise)
    finally:
        db.close()
