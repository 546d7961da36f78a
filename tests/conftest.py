"""Shared test setup. Each test file keeps its own small helpers; web fixtures live in tests/web/."""
import os
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"  # the public game files with their expected scores

# Property tests draw the same examples on every run (a run's failure is there on the next,
# and the suite does not pass or fail by chance): ``derandomize``. To look for new
# examples, HYPOTHESIS_PROFILE=explore draws them at random (and keeps what fails in
# .hypothesis/, replayed first next time).
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))
