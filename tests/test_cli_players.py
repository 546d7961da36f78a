"""`scorekeeper players`, `rename-player` and `merge-players`: the server's owner looks
after the players of every game, from the command line (a phone only with the edit link
of the player's group)."""
import json
import re
import sqlite3

import pytest

from scorekeeper import create_app
from tests.command import run
from tests.conftest import EXAMPLES
from tests.test_cli_store import SEED

GIN = (EXAMPLES / "gin-knock.json").read_text()


def gin(a: str, b: str) -> str:
    return GIN.replace('"A"', json.dumps(a)).replace('"B"', json.dumps(b))


@pytest.fixture
def database(tmp_path):
    path = tmp_path / "scorekeeper.db"
    assert run("import", SEED, "--database", path).returncode == 0  # game 1: A, B, C
    assert run("import", "-", "--group", "1", "--database", path,
               stdin=gin("A", "Annie")).returncode == 0  # game 2, of game 1's group
    return path


def listed(database) -> dict[str, tuple[int, int]]:
    """name → (id, games), from `scorekeeper players`."""
    proc = run("players", "--database", database)
    assert proc.returncode == 0, proc.stderr
    found = {}
    for line in proc.stdout.splitlines():
        m = re.fullmatch(r"player (\d+): (.+) — (\d+) games?, last played \d{4}-\d{2}-\d{2}, group \d+", line)
        assert m, line
        found[m.group(2)] = (int(m.group(1)), int(m.group(3)))
    return found


def dump(database) -> dict[str, list[tuple]]:
    """Every table's rows: what a refused command must leave as it was."""
    conn = sqlite3.connect(database)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


def players_of(database, game: int) -> list[str]:
    return json.loads(run("export", game, "--database", database).stdout)["players"]


def test_players_lists_everyone_with_their_games(database, tmp_path):
    assert listed(database) == {"A": (1, 2), "B": (2, 1), "C": (3, 1), "Annie": (4, 1)}
    create_app({"DATABASE": str(tmp_path / "empty.db"), "SECRET_KEY": "x"})  # made, no game
    empty = run("players", "--database", tmp_path / "empty.db")
    assert (empty.returncode, empty.stdout, empty.stderr) == (0, "", "")


def test_rename_player_by_name_or_id_renames_every_game(database):
    proc = run("rename-player", "A", "Alice", "--database", database)
    assert (proc.returncode, proc.stdout.strip()) == (0, "renamed A to Alice in 2 games"), proc.stderr
    assert players_of(database, 1) == ["Alice", "B", "C"] and players_of(database, 2) == ["Alice", "Annie"]
    proc = run("rename-player", "2", "Bea", "--database", database)  # B, by id
    assert proc.returncode == 0 and proc.stdout.strip() == "renamed B to Bea in 1 game"
    assert players_of(database, 1) == ["Alice", "Bea", "C"]
    assert listed(database)["Bea"] == (2, 1)


def test_merge_players_repoints_every_game(database):
    proc = run("merge-players", "Annie", "C", "--database", database)
    assert (proc.returncode, proc.stdout.strip()) == (0, "merged Annie into C: 1 game changed"), proc.stderr
    assert players_of(database, 2) == ["A", "C"]
    assert listed(database) == {"A": (1, 2), "B": (2, 1), "C": (3, 2)}


@pytest.mark.parametrize("args, says", [
    (("rename-player", "Zed", "Zoe"), "error: there is no player 'Zed': scorekeeper players lists them"),
    (("rename-player", "a", "Zoe"), "error: there is no player 'a' (did you mean 'A', player 1?)"),
    (("rename-player", "99", "Zoe"), "error: there is no player '99'"),
    (("rename-player", "A", "b"), "error: there is already a player called B. If they are the same person, "
                                  "merge A into B instead"),
    (("rename-player", "A", " "), "error: a player needs a name"),
    (("merge-players", "A", "B"), "error: A and B both played in the game of"),
    (("merge-players", "A", "A"), "error: choose two different players to merge"),
    (("merge-players", "Annie", "Nobody"), "error: there is no player 'Nobody'"),
])
def test_a_refusal_is_one_line_exit_2_and_changes_nothing(database, args, says):
    before = dump(database)
    proc = run(*args, "--database", database)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith(says), proc.stderr
    assert "Traceback" not in proc.stderr
    assert dump(database) == before


def test_two_groups_players_of_one_name_are_named_by_id(database):
    """A game imported into a new group (the default) has players of its own: its A is not
    game 1's, and a name two groups use is refused until the id is given."""
    imported = run("import", "-", "--database", database, stdin=gin("A", "Kim"))
    assert imported.returncode == 0 and "\n  in group 2: /group/2-" in imported.stdout
    before = dump(database)
    proc = run("rename-player", "A", "Ada", "--database", database)
    assert proc.returncode == 2 and proc.stderr.startswith(
        "error: several players are called 'A', one per group (players 1, 5): give the id"), proc.stderr
    assert dump(database) == before
    assert run("rename-player", "5", "Ada", "--database", database).returncode == 0
    assert players_of(database, 3) == ["Ada", "Kim"] and players_of(database, 1) == ["A", "B", "C"]
    nowhere = run("import", "-", "--group", "9", "--database", database, stdin=gin("A", "Kim"))
    assert nowhere.returncode == 2 and "there is no group 9" in nowhere.stderr


def test_games_lists_each_games_group_link(database):
    listed = run("games", "--database", database).stdout
    assert listed.count("  group 1:  /group/1-") == 2
