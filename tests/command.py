"""The ``scorekeeper`` command as most tests run it: in the test's own process.

:func:`run` calls the command's click group with click's test runner: the arguments,
standard input, output and error and the exit status are what a process of the console
script would have, and an exception that is not an exit is raised, where the process
would print its traceback (so a test that says "one line, no traceback" still fails on
one). A command takes a few milliseconds this way, against about 0.3 s for a new Python
process on this machine (1 s with the suite's other worker busy), and the suite runs
some three hundred. ``tests/test_cli.py`` runs the installed console script itself, as a
separate process, for what only a real process shows (it is installed, it starts, it
reads a file and standard input alike); ``tests/test_wheel.py`` installs and runs it
from a wheel.
"""
from __future__ import annotations

import subprocess

from click.testing import CliRunner

from scorekeeper.cli import main


def run(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``scorekeeper ARGS`` with ``stdin`` as standard input, as a finished process."""
    words = [str(a) for a in args]
    result = CliRunner().invoke(main, words, input=stdin, catch_exceptions=False)
    return subprocess.CompletedProcess(["scorekeeper", *words], result.exit_code, result.stdout, result.stderr)
