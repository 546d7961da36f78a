"""The database's life in the web app: one connection per request, on ``g``.

Flask's tutorial shape: ``get_db`` opens it when a request first asks, ``close_db`` closes
it when the request ends, ``init-db`` creates or upgrades the database by hand, and the
app upgrades it when it starts (sqlite-utils migrations, storage/db.py).
"""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from ..storage import drawn
from ..storage.db import connect, migrate


def get_db() -> Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
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
