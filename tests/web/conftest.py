"""Web app fixtures, as in Flask's tutorial: an app on a temporary database, a client.

``table`` drives a game through the same routes a phone uses (no JavaScript needed).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from web_table import Table

from scorekeeper import create_app
from scorekeeper.storage.db import connect

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONFIG = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}


@pytest.fixture(scope="session")
def migrated(tmp_path_factory) -> Path:
    """A database as the app creates and migrates it on its first start, made once per
    test process: creating and migrating one took 16 ms of each test's app (a copy, then
    the app's own migration finding nothing to do, takes 1.4 ms). test_web_db.py and
    test_web_migrations.py start apps on fresh and older databases themselves."""
    path = tmp_path_factory.mktemp("migrated") / "scorekeeper.db"
    create_app({**CONFIG, "DATABASE": str(path)})
    assert not path.with_name(path.name + "-wal").exists()  # closed: the file is the whole database
    return path


@pytest.fixture
def app(tmp_path, migrated):
    """The app on a database of its own: a copy of ``migrated``, which the app, starting,
    migrates as it would any database (here: already up to date)."""
    database = tmp_path / "scorekeeper.db"
    shutil.copyfile(migrated, database)
    app = create_app({**CONFIG, "DATABASE": str(database)})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def db(app):
    database = connect(app.config["DATABASE"])
    yield database
    database.close()


@pytest.fixture
def table(client):
    return Table(client)


@pytest.fixture
def seed_example():
    return json.loads((EXAMPLES / "iceberg-seed-example.json").read_text())
