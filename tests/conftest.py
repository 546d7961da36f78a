"""Shared test setup. Each test file keeps its own small helpers; web fixtures live in tests/web/."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"  # the public game files with their expected scores
