"""`scorekeeper import`, `export` and `backup`: game files in and out of the app's database."""
import json
from pathlib import Path

import pytest

from scorekeeper import create_app, gamefile
from tests.command import run
from tests.conftest import EXAMPLES

SEED = EXAMPLES / "iceberg-seed-example.json"


@pytest.fixture
def database(tmp_path):
    return tmp_path / "scorekeeper.db"


def test_import_then_export_gives_back_the_same_game(database):
    imported = run("import", SEED, "--database", database)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("imported as game 1: /g/1-")
    exported = run("export", "1", "--database", database)
    assert exported.returncode == 0, exported.stderr
    original = json.loads(SEED.read_text())
    back = json.loads(exported.stdout)
    assert back["players"] == original["players"]
    assert [r["events"] for r in back["rounds"]] == [r["events"] for r in original["rounds"]]
    assert gamefile.score_document(back)["totals"] == {"A": 100, "B": -120, "C": -20}
    assert gamefile.score_document(back)["rounds"][0]["scores"] == \
        gamefile.score_document(original)["rounds"][0]["scores"]


def test_import_reads_standard_input(database):
    proc = run("import", "-", "--database", database, stdin=SEED.read_text())
    assert proc.returncode == 0, proc.stderr
    assert run("export", "1", "--database", database).returncode == 0


@pytest.mark.parametrize("document, words", [
    ({"variant": "iceberg", "players": ["A", "B"],
      "rounds": [{"events": [{"type": "meld", "player": "A", "cards": ["S2", "H3"]}]}]},
     "round 1, event 1: S2 H3 is not a meld"),
    ({"variant": "iceberg", "players": ["A", "B"], "rules": {"decks": 3}}, "decks"),
    ({"variant": "gin", "players": ["A", "B"], "rounds": [{"knocker": "A", "hands": {"A": ["S2"]}}]},
     "round 1: A's hand has 1 card; a Gin hand has 10"),
    ("not json", "invalid JSON"),
    # The app's rule for names, as an upload from the pages has it (storage/games.check_names).
    ({"variant": "iceberg", "players": ["Ann", "Ann\u0000x", "Bob"]}, "a name cannot hold an invisible character"),
    ({"variant": "iceberg", "players": ["Ann", " Bob "]}, "is written with spaces around it"),
    ({"variant": "iceberg", "players": ["Ann", "ANN"]}, "look like one name"),
])
def test_a_bad_file_is_refused_in_one_line_and_changes_nothing(database, document, words):
    text = document if isinstance(document, str) else json.dumps(document)
    proc = run("import", "-", "--database", database, stdin=text)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert words.lower() in proc.stderr.lower()
    assert "Traceback" not in proc.stderr
    assert run("export", "1", "--database", database).returncode == 2  # nothing was added


def test_export_of_an_unknown_game_is_one_line_exit_2(database):
    create_app({"DATABASE": str(database), "SECRET_KEY": "x"})  # the database is there, with no game 7
    proc = run("export", "7", "--database", database)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.strip() == "error: there is no game 7"


def test_a_game_of_a_variant_this_version_lacks_is_said_so_in_one_line(database):
    """A database written by another release: its game of a variant this one does not have
    is named in one line, exit 2, by export and by rebuild (which stops there)."""
    import sqlite3

    assert run("import", SEED, "--database", database).returncode == 0
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE games SET variant = 'gone' WHERE id = 1")
    for command in (("export", "1"), ("rebuild",)):
        proc = run(*command, "--database", database)
        assert proc.returncode == 2
        assert proc.stderr == "error: game 1 is a game of 'gone', which this version of the app does not have\n"


def test_backup_is_a_complete_database(database, tmp_path):
    run("import", SEED, "--database", database)
    copy = tmp_path / "copy.db"
    proc = run("backup", copy, "--database", database)
    assert proc.returncode == 0, proc.stderr
    again = run("export", "1", "--database", copy)
    assert json.loads(again.stdout)["rounds"] == json.loads(run("export", "1", "--database", database).stdout)["rounds"]


# ---------------------------------------------------------------------------------------
# The command line's rough edges (issue 16, item 4).


@pytest.mark.parametrize("command", [("games",), ("export", "1"), ("players",), ("backup", "x.db")])
def test_a_command_that_reads_refuses_a_database_that_is_not_there(tmp_path, command):
    typo = tmp_path / "typo.db"
    proc = run(*command, "--database", typo)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"error: there is no database at {typo}")
    assert not typo.exists()


def test_backup_does_not_replace_a_file_unless_forced(database, tmp_path):
    run("import", SEED, "--database", database)
    copy = tmp_path / "copy.db"
    copy.write_text("keep me")
    proc = run("backup", copy, "--database", database)
    assert proc.returncode == 2 and "is there already" in proc.stderr and "--force" in proc.stderr
    assert copy.read_text() == "keep me"
    assert run("backup", copy, "--force", "--database", database).returncode == 0
    assert copy.read_bytes().startswith(b"SQLite format 3")


def test_links_are_printed_whole_with_the_servers_address(database):
    imported = run("import", SEED, "--database", database, "--base-url", "http://192.168.1.20:5000/")
    assert imported.stdout.startswith("imported as game 1: http://192.168.1.20:5000/g/1-")
    listed = run("games", "--database", database, "--base-url", "http://192.168.1.20:5000")
    assert "edit link:      http://192.168.1.20:5000/g/1-" in listed.stdout
    bare = run("games", "--database", database)
    assert "put the server's address before them" in bare.stdout


def test_import_and_score_word_a_refusal_alike(database, tmp_path):
    bad = tmp_path / "bad.json"
    doc = json.loads(Path(SEED).read_text())
    doc["rounds"][0]["events"][1]["cards"] = ["S2", "H9"]
    bad.write_text(json.dumps(doc))
    scored, imported = run("score", bad), run("import", bad, "--database", database)
    assert scored.returncode == imported.returncode == 2
    assert scored.stderr == imported.stderr and scored.stderr.startswith("error: round 1, event 2: ")


@pytest.mark.parametrize("text, says", [
    ("{}", "error: the game file names no variant"),
    ("", "error: not a game file: it is empty"),
    ("   \n", "error: not a game file: it is empty"),
])
def test_score_says_what_is_missing(text, says):
    proc = run("score", "-", stdin=text)
    assert proc.returncode == 2 and proc.stderr.startswith(says), proc.stderr


def test_rebuild_makes_the_kept_round_results_again_from_the_logs(database):
    """`scorekeeper rebuild`: every game's finished rounds' results made again from its log;
    rows that differed (here, one spoiled by hand) are said and put right."""
    import sqlite3

    assert run("import", SEED, "--database", database).returncode == 0
    again = run("rebuild", "--database", database)
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "1 games: 0 changed, 1 as they were"
    conn = sqlite3.connect(database)
    conn.execute("UPDATE round_results SET scores = '{\"A\": 0, \"B\": 0, \"C\": 0}'")
    conn.commit()
    fixed = run("rebuild", "--database", database)
    assert fixed.stdout.splitlines() == ["game 1: 1 rounds' results made again (they differed)",
                                        "1 games: 1 changed, 0 as they were"]
    assert json.loads(conn.execute("SELECT scores FROM round_results").fetchone()[0]) == {
        "A": 100, "B": -120, "C": -20}
    conn.close()
    assert run("rebuild", "--game", "9", "--database", database).stderr.strip() == "error: there is no game 9"
