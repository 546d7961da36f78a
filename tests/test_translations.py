"""The catalogs (issue 17, item 4): each language the pages offer has one, it holds every
word the code has (found as ``make translations`` finds them: babel.cfg), each of them
translated, none fuzzy, none left over from words the code no longer has, and each
translation keeps its placeholders."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.web.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "scorekeeper" / "translations"
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def read(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> set:
    """The words of the code now, extracted as make translations extracts them."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", "--no-location", "-o", str(pot), "."],
                   cwd=ROOT, check=True, capture_output=True)
    return ids(read(pot))


def test_spanish_and_german_are_offered():
    assert set(TRANSLATED) >= {"es", "de"}


def test_the_template_in_the_repository_is_the_codes(found):
    kept = ids(read(CATALOGS / "messages.pot"))
    assert not found - kept, f"run make translations: new words {sorted(map(str, found - kept))[:10]}"
    assert not kept - found, f"run make translations: words gone {sorted(map(str, kept - found))[:10]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_catalog_holds_every_word_of_the_code_and_no_other(code, found):
    catalog = ids(read(CATALOGS / code / "LC_MESSAGES" / "messages.po"))
    assert not found - catalog, (f"{code}: not in the catalog (make translations):"
                                 f" {sorted(map(str, found - catalog))[:10]}")
    assert not catalog - found, f"{code}: no longer in the code: {sorted(map(str, catalog - found))[:10]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_is_translated_and_none_is_fuzzy(code):
    catalog = read(CATALOGS / code / "LC_MESSAGES" / "messages.po")
    empty = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not empty, f"{code}: {len(empty)} not translated, e.g. {empty[:5]}"
    assert not fuzzy, f"{code}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translation_is_written_twice_over(code):
    """A translation filled in again onto its own wrapped lines read "…de nuevola mano de …":
    none is its own words twice."""
    catalog = read(CATALOGS / code / "LC_MESSAGES" / "messages.po")
    texts = [t for m in catalog if m.id for t in (m.string if isinstance(m.string, tuple) else (m.string,))]
    doubled = [t for t in texts if len(t) > 8 and t[:len(t) // 2] == t[len(t) // 2:]]
    assert not doubled, doubled[:3]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_keeps_its_placeholders(code):
    catalog = read(CATALOGS / code / "LC_MESSAGES" / "messages.po")
    problems = [(message.id, [str(e) for e in errors]) for message, errors in catalog.check()]
    assert not problems, problems[:5]


# The calls whose first argument is a message for the catalogs (babel.cfg's keywords), and
# where a message made elsewhere is passed on: the sentences' own machinery (reading a
# template, a sentence read back from the database) and a sentence re-made with other values.
KEYWORDS = {"Say", "SayN", "page_text", "lazy_gettext", "gettext", "ngettext", "_"}
READERS = {"scorekeeper/games/words.py", "scorekeeper/web/words.py"}
PASSED_ON = {("scorekeeper/web/forms.py", "Say")}


def test_every_message_is_written_whole_where_babel_finds_it():
    """A message chosen by an expression ("playable: …" if … else "…") is extracted as
    neither sentence, and stays English in every language: each call writes its own."""
    import ast

    found = []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in KEYWORDS or where in READERS or (where, name) in PASSED_ON:
                continue
            literal = [isinstance(a, ast.Constant) and isinstance(a.value, str)
                       for a in node.args[:2 if name in ("SayN", "ngettext") else 1]]
            if not all(literal):
                found.append(f"{where}:{node.lineno} {name}(…)")
    assert not found, found
