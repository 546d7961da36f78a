"""Keep the docs honest (like sqlite-utils' tests/test_docs.py): the README names every
rule option and every command, and its test command is the one CI runs.
"""
import ast
import re
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.games import iceberg

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"


@pytest.fixture(scope="module")
def readme() -> str:
    assert README.exists(), "README.md is missing"
    return README.read_text(encoding="utf-8")


@pytest.mark.parametrize("option", [o.name for o in iceberg.RULES])
def test_readme_mentions_iceberg_rule_option(readme, option):
    # The whole name, not a longer one that contains it (aces / ace_bonus).
    assert re.search(rf"(?<![\w]){re.escape(option)}(?![\w])", readme), f"README.md does not mention {option}"


@pytest.mark.parametrize("command", sorted(cli.main.commands))
def test_readme_mentions_command(readme, command):
    """Every command of `scorekeeper` (cli.py), as it is typed."""
    assert re.search(rf"scorekeeper {re.escape(command)}(?![\w-])", readme), \
        f"README.md does not mention scorekeeper {command}"


def shell_commands(text: str) -> list[str]:
    """The commands of a shell script: no comments, blank lines, `set` or `cd`, and without
    the variables set for one command (``CI=1 make test`` runs ``make test``)."""
    commands = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#") or re.match(r"(set|cd)\b", line):
            continue
        commands.append(re.sub(r"^(\w+=\S*\s+)+", "", line))
    return commands


def readme_test_commands(readme: str) -> list[str]:
    """The README's own way to run the tests: each code line or `code span` that runs make test."""
    found = []
    in_block = False
    for line in readme.splitlines():
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            if "make test" in line:
                found.append(re.sub(r"^\s*\$\s*", "", line.split(" #", 1)[0]).strip())
        else:
            found.extend(span.strip() for span in re.findall(r"`([^`]*make test[^`]*)`", line))
    return found


# docs/rules/'s choices the app has made, in the README's words.
README_SAYS = [
    "of the knocker's\nleast-deadwood arrangements it takes the one that leaves the defender the most deadwood\n"
    "after lay-offs",
    "A flat shutout adds `game_bonus` again",
    "the winner is whoever has the most points after all the bonuses",
    "with penalty scoring, double doubles the others' penalties and plus10 takes 10 off the winner's",
    "an ace keeps the end of the sequence it was placed at",
    "a renege does\nnot throw them away",
    "A Conquian hand never holds more than 10 cards",
]


@pytest.mark.parametrize("words", README_SAYS)
def test_readme_says_what_the_app_does(readme, words):
    assert words in readme


def test_readme_says_how_to_run_the_tests(readme):
    assert readme_test_commands(readme), "README.md has no line that runs `make test`"


def test_readme_test_command_is_what_ci_runs(readme):
    ci = shell_commands(CI_RUN.read_text(encoding="utf-8"))
    for command in readme_test_commands(readme):
        assert command in ci, f"README runs {command!r}, .ci/run runs {ci}"


def test_ci_runs_make_test_and_make_test_runs_pytest():
    assert "make test" in shell_commands(CI_RUN.read_text(encoding="utf-8"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*\n((?:\t.*\n?)+)", makefile, re.M)
    assert recipe and "pytest" in recipe.group(1)


# ---------------------------------------------------------------------------------------
# Every text a person reads says "they", not "he" or "his".

GENDERED = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
PACKAGE = ROOT / "scorekeeper"


def _docstring_nodes(tree: ast.AST) -> set[int]:
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                nodes.add(id(first.value))
    return nodes


def person_texts() -> list[tuple[str, str]]:
    """(where, text): the READMEs, every template, the page script, and every string the
    package can show (messages, labels, rule descriptions; not its docstrings and comments)."""
    pages = [*ROOT.glob("*.md"), *(ROOT / "benchmarks").glob("*.md"), *(ROOT / "examples").glob("*.md"),
             *(ROOT / "docs").rglob("*.md"),
             *(ROOT / "templates").rglob("*.html"), *(ROOT / "static").glob("*.js")]
    texts = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in sorted(pages)]
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                texts.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.value))
    return texts


def test_every_text_a_person_reads_is_gender_neutral():
    found = [f"{where}: {m.group(0)!r} in …{text[max(0, m.start() - 40):m.end() + 20]}…"
             for where, text in person_texts() for m in GENDERED.finditer(text)]
    assert not found, "\n".join(found)


def test_the_readme_gives_every_number_option_its_range():
    """Every rule option that takes a number has a documented range (issue 14): the
    README's tables say the same range as the rules library checks."""
    from scorekeeper.games import registry

    text = README.read_text(encoding="utf-8")
    for variant in registry.VARIANTS.values():
        for option in variant.rules:
            if option.kind != "int":
                continue
            rows = [line for line in text.splitlines()
                    if f"`{option.name}`" in line and (variant.key == "iceberg" or f"`{variant.key}`" in line)]
            assert any(f"{option.minimum} to {option.maximum}" in row for row in rows), (variant.key, option.name)


def test_each_rules_page_lists_its_options_as_the_library_checks_them():
    """docs/rules/VARIANT.md has a row for every rule option, and a number's row gives
    the range the rules library accepts."""
    from scorekeeper.games import registry

    for variant in registry.VARIANTS.values():
        page = (ROOT / "docs" / "rules" / f"{variant.key}.md").read_text(encoding="utf-8")
        table = page.split("## Rule options", 1)[1].split("\n## ", 1)[0]
        for option in variant.rules:
            rows = [line for line in table.splitlines() if line.startswith(f"| `{option.name}` |")]
            assert len(rows) == 1, (variant.key, option.name)
            if option.kind == "int":
                assert f"| {option.minimum} to {option.maximum}" in rows[0], (variant.key, option.name)


def repository_texts():
    """The repository's own text files: docs, code, templates, tests (not the virtualenv)."""
    skip = {".venv", ".git", "build", "instance", "test-artifacts", ".pytest_cache", ".hypothesis"}
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in skip or "egg-info" in rel.parts[0] or "__pycache__" in rel.parts:
            continue
        if path.suffix in {".md", ".py", ".html", ".txt", ".toml", ".cfg", ".js", ".css"} and path.is_file():
            yield rel, path.read_text(encoding="utf-8")


def test_every_link_in_the_docs_leads_to_a_file_the_repository_holds():
    broken = [f"{rel}: {target}" for rel, text in repository_texts() if rel.suffix == ".md"
              for target in re.findall(r"\]\(([^)#\s]+)", text) + re.findall(r'src="([^"]+)"', text)
              if not re.match(r"[a-z]+:", target) and not (ROOT / rel.parent / target).exists()]
    assert not broken, broken


def test_nothing_points_at_files_outside_the_repository():
    """The project documents itself: no page or comment sends a reader to the notes the
    project was started from."""
    outside = re.compile(r"\b(RULES|CONTRACT|STYLE)\.md\b|\.\./shared|\bseeds/\d")
    found = [f"{rel}: {m.group(0)}" for rel, text in repository_texts() for m in outside.finditer(text)
             if rel != Path("tests/test_docs.py")]
    assert not found, found


# ---------------------------------------------------------------------------------------
# docs/game-file.md quotes real refusals: each quoted line is what `scorekeeper score`
# prints for a file that makes it (a line gone stale, e.g. a range widened, fails here).


def _iceberg(*events, players=("Ann", "Bob"), rules=None, hands=None, **top):
    rnd = {"events": [{"type": t, "player": p, **({"cards": c.split()} if c else {}),
                       **({"meld": m} if m else {})} for t, p, c, m in events]}
    if hands is not None:
        rnd["hands"] = hands
    return {"format": "scorekeeper/1", "variant": "iceberg", "rules": rules or {},
            "players": list(players), "teams": None, "rounds": [rnd], **top}


def _counted(variant, players, *rounds, rules=None):
    return {"format": "scorekeeper/1", "variant": variant, "rules": rules or {},
            "players": list(players), "teams": None, "rounds": list(rounds)}


DOCUMENTED_REFUSALS = [
    '{"format": "scorekeeper/1", 1: 2}',
    _iceberg(format="scorekeeper/2"),
    _iceberg(dealer="Ann"),
    _iceberg(variant="canasta"),
    _iceberg(rules={"jokers": 2}),
    _iceberg(rules={"card_penalty": -5}),
    _iceberg(rules={"aces": "triple"}),
    _iceberg(players=("Ann", "Ann")),
    _counted("manipulation", ("Ann", "Bob")),
    _iceberg(teams=[["Ann"], ["Bob"]]),
    _iceberg(("meld", "Ann", "X7", None)),
    _iceberg(("meld", "Ann", "S9 S8 H7", None)),
    _iceberg(("meld", "Ann", "SA S2 S3", None)),
    _iceberg(("meld", "Ann", "S7 S8 S9", None), ("layoff", "Bob", "S5", 1)),
    _iceberg(("meld", "Ann", "S7 S8 S9", None), ("layoff", "Bob", "S5", 3)),
    _iceberg(("meld", "Ann", "S3 S5 S7 S9 SJ SK", None), ("layoff", "Bob", "SQ", 1)),
    _iceberg(("meld", "Dee", "S7 S8 S9", None)),
    _iceberg(("discard", "Ann", "S7", None)),
    _iceberg(("out", "Ann", None, None), ("meld", "Bob", "S7 S8 S9", None)),
    _counted("rummy", ("Ann", "Bob", "Cy"), {"out": "Ann", "hands": {"Bob": "S2 S3 S4 S5 S6 S7 S8 S9".split()}}),
    _counted("gin", ("Ann", "Bob"), {"knocker": "Ann", "hands": {"Ann": "D6 DK C5 CQ S2 S3 S4 H7 H8 H9".split(),
                                                               "Bob": "C2 C3 C4 C6 C7 C8 C9 C10 CJ CK".split()}}),
    _counted("gin", ("Ann", "Bob"), {"out": "Ann", "hands": {}}),
    _counted("conquian", ("Ann", "Bob"), {"out": "Ann", "hands": {"Bob": "S2 S3 S4 S5 S6 S7 SJ SQ SK H2 H3".split()}}),
]


def _documented_lines() -> list[str]:
    page = (ROOT / "docs" / "game-file.md").read_text(encoding="utf-8")
    section = page.split("## Refused files", 1)[1].split("\n## ", 1)[0]
    return [line.removeprefix("error: ") for block in re.findall(r"```text\n(.*?)```", section, re.S)
            for line in block.splitlines() if line.startswith("error: ")]


@pytest.mark.parametrize("doc", DOCUMENTED_REFUSALS, ids=range(len(DOCUMENTED_REFUSALS)))
def test_a_refusal_the_game_file_page_quotes_is_what_the_app_says(doc):
    import json

    from scorekeeper import gamefile
    from scorekeeper.games.errors import ScorekeeperError

    with pytest.raises(ScorekeeperError) as refused:
        gamefile.score_text(doc if isinstance(doc, str) else json.dumps(doc))
    said = str(refused.value)
    assert said in _documented_lines(), f"the app says {said!r}; docs/game-file.md does not quote it"


def test_a_bad_json_file_is_told_in_the_apps_words_not_the_readers():
    from scorekeeper import gamefile
    from scorekeeper.games.errors import ScorekeeperError

    for text in ['{"a": 1, 1: 2}', '{"a" 1}', '{"a": 1 "b"}', "[1,]", "{}x", '"abc', '"a\tb"', '"\\q"', "{'a': 1}"]:
        with pytest.raises(ScorekeeperError) as refused:
            gamefile.parse_json(text)
        said = str(refused.value)
        assert re.fullmatch(r"not a game file: invalid JSON at line \d+, column \d+: [a-z].*", said), said
        assert "Expecting" not in said and "delimiter" not in said, said
