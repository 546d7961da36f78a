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
# .hypothesis/, replayed first next time).
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(autouse=True, scope="session")
def templates_compiled_once(tmp_path_factory):
    """Each test makes its own app, and each app's Jinja environment compiled every page's
    templates again (about 40 ms a test, a minute of the suite): Jinja's own bytecode
    cache keeps them compiled for every app of this test process."""
    cache = FileSystemBytecodeCache(str(tmp_path_factory.mktemp("jinja-bytecode")))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": cache})
        yield
