"""Web app fixtures, as in Flask's tutorial: an app on a temporary database, a client.

``table`` drives a game through the same routes a phone uses (no JavaScript needed).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from web_table import Table

from scorekeeper import create_app
from scorekeeper.storage.db import connect

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorekeeper.db"),
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
    })
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
