"""The whole database as plain data, to check that a refused request changed nothing."""
from __future__ import annotations

import sqlite3


def dump(path: str) -> dict[str, list[tuple]]:
    """Every table's rows (sorted), read through a fresh connection: what is committed."""
    # Not mode=ro: a read-only connection to a WAL database fails when no -shm file exists.
    conn = sqlite3.connect(path)
    try:
        # Not drawn_payloads: what a page drew of the game (a refusal is drawn too), not the game.
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'drawn_payloads' ORDER BY name")]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
    finally:
        conn.close()
