"""Shared test setup. Each test file keeps its own small helpers; web fixtures live in tests/web/."""
import os
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import settings
from jinja2 import FileSystemBytecodeCache

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"  # the public game files with their expected scores

# Property tests draw the same examples on every run (a run's failure is there on the next,
# and the suite does not pass or fail by chance): ``derandomize``. To look for new
# examples, HYPOTHESIS_PROFILE=explore draws them at random (and keeps what fails in
# .hypothesis/, replayed first next time). HYPOTHESIS_PROFILE=thorough draws twice as
# many as the suite, as fixed (``examples``).
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "suite")
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("thorough", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """How many examples a property, fuzz or crash test draws, ``n`` being the count its
    file writes: all of them under HYPOTHESIS_PROFILE=thorough (or explore), half of them
    (at least 10) in the suite."""
    return n if PROFILE != "suite" else max(10, n // 2)


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once(tmp_path_factory):
    """Each test makes its own app, and each app's Jinja environment compiled every page's
    templates again (about 40 ms a test, a minute of the suite): Jinja's own bytecode
    cache keeps them compiled for every app of this test process."""
    cache = FileSystemBytecodeCache(str(tmp_path_factory.mktemp("jinja-bytecode")))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": cache})
        yield


@pytest.fixture(autouse=True, scope="session")
def routes_compiled_once():
    """Each app's URL map compiled a Python function of its own for building each route's
    URLs (Werkzeug's ``Rule._compile_builder``: two a route, about 48 ms of the 67 ms an
    app takes to make). The function depends only on the rule (it reads the rule's
    converters from the rule it is bound to, ``self``), so one made for a rule serves
    that rule in every app of this test process."""
    from werkzeug.routing.rules import Rule

    made = {}
    compile_builder = Rule._compile_builder

    def once(self, append_unknown=True):
        key = (self.rule, tuple(self._trace), repr(sorted((self.defaults or {}).items())), append_unknown)
        if key not in made:
            made[key] = compile_builder(self, append_unknown)
        return made[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", once)
        yield


def pytest_collection_modifyitems(config, items):
    """The browser tests spread over the workers from the start (pytest-xdist).

    A browser test keeps Chromium and the served app busy more than the test's own
    process: collected first, the hundred of them all went to one worker and ran one
    after another for 8 minutes, as long as the rest of the suite took the other.
    pytest-xdist's work stealing hands each worker a contiguous share of the tests and
    lets an idle worker take the far end of another's queue, so here each share begins
    with its own browser files (whole files: a file's fixtures are made once per worker)
    and ends with the other tests, which the workers then take from each other as they
    run out."""
    count = getattr(config, "workerinput", {}).get("workercount", 1)
    if count < 2:
        return
    browser = [item for item in items if "/browser/" in item.nodeid]
    others = [item for item in items if "/browser/" not in item.nodeid]
    files: dict[str, list] = {}
    for item in browser:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    shares: list[list] = [[] for _ in range(count)]
    for tests in sorted(files.values(), key=len, reverse=True):  # the most tests first, to the least loaded
        min(shares, key=len).extend(tests)
    size = -(-len(items) // count)  # each worker's share as xdist cuts the list
    ordered: list = []
    for share in shares:
        room = max(0, size - len(share))
        ordered += share + others[:room]
        others = others[room:]
    items[:] = ordered + others


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (``make test``): one worker more than the cores this process may use.
    The browser tests wait for Chromium and the served app a good part of their time, and
    a third worker keeps both cores of this machine busy meanwhile: three workers against
    two, paired runs taken in turn (farm-bench, 2026-11-29), 0.875 and 0.885 of the wall
    time (277 s against 314 s, medians); four workers were no faster than three."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores + 1
