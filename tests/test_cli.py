"""The ``scorekeeper`` command (docs/game-file.md): ``score`` and ``rules``.

Every public example is scored from its file and from standard input; a variant the
project does not score yet is refused with exit status 2, and once it is supported the
same example must produce the expected numbers instead. The commands run in the test's
process (tests/command.py); what only a real process shows is run with the installed
console script itself (:func:`script`): it is installed and starts, scores a file and
standard input alike, refuses in one line without a traceback, and prints its help.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.games import iceberg, registry
from tests.command import run

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCOREKEEPER = Path(sys.executable).parent / "scorekeeper"

GAME_FILES = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def script(*args, stdin=None):
    """The installed console script, run as a process of its own."""
    return subprocess.run(
        [str(SCOREKEEPER), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def expected_for(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def compared(result: dict) -> dict:
    """Only what the public examples pin down: rounds[].scores, totals and winners."""
    return {
        "rounds": [{"scores": r["scores"]} for r in result["rounds"]],
        "totals": result["totals"],
        "winners": result["winners"],
    }


def assert_refused(proc, words: str) -> None:
    assert proc.returncode == 2, proc
    assert proc.stdout == ""
    assert proc.stderr.endswith("\n") and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: ")
    assert words in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_the_console_script_is_installed_next_to_python():
    assert SCOREKEEPER.exists(), f"{SCOREKEEPER} is missing: is the package installed?"


def test_the_console_script_scores_a_file_and_standard_input_alike():
    path = EXAMPLES / "iceberg-seed-example.json"
    from_file = script("score", str(path))
    assert from_file.returncode == 0 and from_file.stderr == "", from_file.stderr
    assert compared(json.loads(from_file.stdout)) == expected_for(path)
    from_input = script("score", "-", stdin=path.read_text(encoding="utf-8"))
    assert from_input.returncode == 0 and from_input.stdout == from_file.stdout
    assert from_file.stdout == run("score", str(path)).stdout  # as the other tests run it


def test_the_console_script_refuses_in_one_line(tmp_path):
    assert_refused(script("score", str(tmp_path / "nope.json")), "nope.json")
    assert_refused(script("rules", "canasta"), "unknown variant")


def test_there_are_public_examples_with_expected_scores():
    assert GAME_FILES
    for path in GAME_FILES:
        assert path.with_name(path.stem + ".expected.json").exists(), path


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_score_example_file(path):
    variant = json.loads(path.read_text(encoding="utf-8"))["variant"]
    proc = run("score", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    result = json.loads(proc.stdout)
    assert result["variant"] == variant
    assert compared(result) == expected_for(path)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.stem)
def test_score_example_from_standard_input(path):
    text = path.read_text(encoding="utf-8")
    proc = run("score", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert compared(json.loads(proc.stdout)) == expected_for(path)
    # Reading the file or standard input gives exactly the same output.
    assert proc.stdout == run("score", str(path)).stdout


def test_score_prints_each_round_with_scores_and_detail():
    proc = run("score", str(EXAMPLES / "iceberg-seed-example.json"))
    result = json.loads(proc.stdout)
    assert set(result) >= {"variant", "rounds", "totals", "winners"}
    (round_,) = result["rounds"]
    assert set(round_) >= {"scores", "detail"}
    assert set(round_["detail"]) == {"A", "B", "C"}


def test_score_a_partnership_renege_keeps_the_partnerships_melds():
    # Robber Rummy, A+C against B+D: C melds the sevens, A lays off D7 (no steal), C
    # reneges, A holds H2: melds 20 − 5 − 100 for C's renege = −85 for A and for C.
    doc = {
        "format": "scorekeeper/1", "variant": "robber", "rules": {},
        "players": ["A", "B", "C", "D"], "teams": [["A", "C"], ["B", "D"]],
        "rounds": [{
            "events": [
                {"type": "meld", "player": "C", "cards": ["S7", "H7", "C7"]},
                {"type": "layoff", "player": "A", "meld": 1, "cards": ["D7"]},
                {"type": "out", "player": "B"},
            ],
            "hands": {"A": ["H2"]},
            "renege": ["C"],
        }],
    }
    proc = run("score", "-", stdin=json.dumps(doc))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["rounds"][0]["scores"] == {"A": -85, "B": 0, "C": -85, "D": 0}
    assert result["totals"] == {"A": -85, "B": 0, "C": -85, "D": 0}


def test_score_missing_file_is_one_line_exit_2(tmp_path):
    proc = run("score", str(tmp_path / "nope.json"))
    assert_refused(proc, "nope.json")


def test_score_empty_standard_input_is_refused():
    assert_refused(run("score", "-", stdin=""), "not a game file")


# ---------------------------------------------------------------------------------------
# scorekeeper rules VARIANT


def option_block(output: str, name: str) -> list[str]:
    """The lines describing one option: its own line and the indented lines under it."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"{re.escape(name)}(?![\w])", line):
            block = [line]
            for more in lines[i + 1:]:
                if more[:1].isspace():
                    block.append(more)
                else:
                    break
            return block
    raise AssertionError(f"option {name} is not listed:\n{output}")


@pytest.fixture(scope="module")
def iceberg_rules_output():
    proc = run("rules", "iceberg")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


@pytest.mark.parametrize("option", list(iceberg.RULES), ids=lambda o: o.name)
def test_rules_iceberg_lists_option_with_default(iceberg_rules_output, option):
    first, *rest = option_block(iceberg_rules_output, option.name)
    if option.default_for is None:
        shown = {json.dumps(option.default), str(option.default)}
        assert any(re.search(rf"(?<![\w.]){re.escape(s)}(?![\w.])", first) for s in shown), first
    else:
        # docs/rules/: decks default by player count.
        assert "player" in " ".join([first, *rest]), first


@pytest.mark.parametrize("option", list(iceberg.RULES), ids=lambda o: o.name)
def test_rules_iceberg_marks_house_values(iceberg_rules_output, option):
    first, *_rest = option_block(iceberg_rules_output, option.name)
    assert ("house value" in first.lower()) == option.house_value, first


def test_rules_iceberg_marks_the_house_values_of_rules_md(iceberg_rules_output):
    # docs/rules/iceberg.md, special melds: these three have no source.
    for name in ("special_evens_suit", "special_odds_colour", "special_evens_colour"):
        assert "house value" in option_block(iceberg_rules_output, name)[0].lower()
    assert "house value" not in option_block(iceberg_rules_output, "special_odds_suit")[0].lower()


@pytest.mark.parametrize("variant", ["canasta", "ICEBERG", "", "iceberg2"])
def test_rules_unknown_variant_exits_2(variant):
    assert_refused(run("rules", variant), "unknown variant")


@pytest.mark.parametrize("variant", list(registry.VARIANTS))
def test_rules_every_known_variant_lists_its_options(variant):
    proc = run("rules", variant)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def test_help_names_both_commands():
    proc = script("--help")
    assert proc.returncode == 0
    assert "score" in proc.stdout and "rules" in proc.stdout
