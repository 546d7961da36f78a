"""The web app: thin pages over the stores and the rules, one blueprint per concern.

``create_app`` is Flask's tutorial shape: configuration, the database's life per
request (``database``), CSRF protection, the game links (``links``), the security
headers, the blueprints of ``views``. The pages know no rule: they show what the
replayed game says, and hand every change to the stores (scorekeeper/storage).
"""
from __future__ import annotations

import os
import secrets
import sysconfig
from pathlib import Path


def _pages() -> Path:
    """Where the templates and static files are: at the top of the repository, beside the
    package (a checkout, an editable install), or where a wheel put them
    (<prefix>/share/scorekeeper, pyproject.toml's data-files)."""
    checkout = Path(__file__).resolve().parent.parent.parent
    if (checkout / "templates" / "base.html").exists():
        return checkout
    return Path(sysconfig.get_path("data")) / "share" / "scorekeeper"


ROOT = _pages()


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


def instance_folder() -> Path:
    """Where the app keeps its own files (the database, the secret key): Flask's instance
    folder of the package."""
    from flask import Flask

    return Path(Flask("scorekeeper", instance_relative_config=True).instance_path)


def default_database() -> str:
    """The database the app uses unless told: SCOREKEEPER_DATABASE, else the instance folder's."""
    return os.environ.get("SCOREKEEPER_DATABASE") or str(instance_folder() / "scorekeeper.db")


def create_app(test_config: dict | None = None):
    """The web app: configuration, database, CSRF protection, security headers, blueprints."""
    from flask import Flask
    from flask_wtf.csrf import CSRFProtect

    from ..games import registry
    from . import database, languages, links, live, security, words
    from .views import counted, families, games, helpers, nights, players, scoreboard, site, steals, table

    app = Flask(
        "scorekeeper",
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.url_map.converters["id"] = links.IdConverter  # every row id in a URL
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=default_database(),
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
    # Every value a page prints goes through words.show: a sentence of the rules library
    # is read in the phone's language, its cards drawn as on the pages.
    app.jinja_env.finalize = words.show
    languages.init_app(app)
    words.install(app.jinja_env)  # the templates' sentences show their values the same way
    security.init_app(app)  # before the CSRF check: the body is read first
    CSRFProtect(app)
    database.init_app(app)
    links.init_app(app)
    live.init_app(app)  # the live tables: one payload per change, streams, the watcher
    for blueprint in (helpers.bp, site.bp, games.bp, players.bp, scoreboard.bp, nights.bp):  # every family's pages
        app.register_blueprint(blueprint)
    # The families of a game's pages, each declared once in its module (views/families.Family).
    families.register_families(app, (table.FAMILY, steals.FAMILY, counted.FAMILY), registry.VARIANTS.values())
    return app
