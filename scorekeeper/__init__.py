"""scorekeeper: the score pad for a rummy table, scored from the cards themselves.

``create_app`` builds the web app (``flask --app scorekeeper run``). Flask is imported
inside it, so ``import scorekeeper.games`` stays light for the command line.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

# The templates and static files live at the top of the repository, beside the package.
ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """SCOREKEEPER_SECRET_KEY, else one made on first start and kept in the instance folder."""
    key = os.environ.get("SCOREKEEPER_SECRET_KEY")
    if key:
        return key
    path = instance / "secret_key"
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key)
        return key


def create_app(test_config: dict | None = None):
    """The web app: configuration, database, CSRF protection, security headers, blueprints."""
    from flask_wtf.csrf import CSRFProtect

    from . import db, fragments, links, security, urls
    from .views import games, helpers, round_end, table

    app = urls.App(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.environ.get("SCOREKEEPER_DATABASE") or str(instance / "scorekeeper.db"),
        # A game lasts hours: a table page's form must not expire while it lies open.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        # The session (this phone's games, its CSRF token) lasts a year from its last
        # change, and is signed and sent again only when it changes: not on every one
        # of the requests a phone at a table makes each second (links.remember).
        SESSION_REFRESH_EACH_REQUEST=False,
        # The largest request: an uploaded game file (a 413 page says so when exceeded).
        MAX_CONTENT_LENGTH=security.MAX_UPLOAD_BYTES,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    app.jinja_env.trim_blocks = True  # lean pages: the table screen must stay small
    app.jinja_env.lstrip_blocks = True
    CSRFProtect(app)
    db.init_app(app)
    links.init_app(app)
    security.init_app(app)
    fragments.init_app(app)
    urls.init_app(app)
    app.register_blueprint(helpers.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(table.bp)
    app.register_blueprint(round_end.bp)
    from .views import counted  # hand-count rummies: their pages (and VARIANT_PAGES)

    counted.init_app(app)
    from .views import robber  # Robber Rummy: its table, hand end and game pages

    robber.init_app(app)
    from .views import players  # people across games: statistics, history, score sheets

    players.init_app(app)
    return app
