"""The production server as a child process: start it on a loopback port, wait, stop or kill.

Used by the load benchmark, the crash test and the stalled phones' test. The server runs
in its own process group (``start_new_session``), so stopping or killing it reaches its
workers too and nothing else. Only loopback addresses are used.

What it serves: the app (``scorekeeper:create_app()``) of a checkout (``src``), or the
load benchmark's floor (``benchmarks/floor.py``: the same stack doing no game work),
with gunicorn's settings as that checkout's ``scorekeeper/serving.py`` writes them
(:func:`settings`): whatever it says is what is measured.
"""
from __future__ import annotations

import ast
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from scorekeeper import serving

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"

# The settings the load benchmark chose (benchmarks/README.md says why), as `make serve`
# has them: scorekeeper/serving.py, this checkout's (the defaults of `command`). `start`
# reads them from the checkout it serves (`settings`: --src may be another one) and gives
# them on the command line too, so that a checkout older than serving.py is served the
# same way (one older than serving.py's Worker by gthread).
GUNICORN_CLASS = serving.worker_class
GUNICORN_WORKERS = serving.workers
GUNICORN_THREADS = getattr(serving, "threads", 1)  # a gevent worker has none
WAITRESS_THREADS = 8
# A checkout older than serving.py was served with these.
BEFORE_SERVING = {"worker_class": "gthread", "workers": 2, "threads": 1}
APPS = {"scorekeeper": "scorekeeper:create_app()", "floor": "floor:create_app()"}


def settings(src: Path = ROOT) -> dict:
    """gunicorn's ``worker_class``, ``workers`` and ``threads`` as ``src``'s
    scorekeeper/serving.py sets them (read, not imported: the checkout may be another
    one than this process runs); a checkout without it, as it was served before it."""
    found = dict(BEFORE_SERVING)
    path = Path(src) / "scorekeeper" / "serving.py"
    if not path.exists():
        return found
    for node in ast.parse(path.read_text()).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id in found
                and isinstance(node.value, ast.Constant)):
            found[node.targets[0].id] = node.value.value
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def command(server: str, port: int, *, workers: int = GUNICORN_WORKERS,
            threads: int | None = None, worker_class: str = GUNICORN_CLASS,
            config: bool = True, app: str = "scorekeeper") -> list[str]:
    """The command line that serves ``scorekeeper:create_app`` for real, or the floor
    (``app``; see :data:`APPS`) the same way (``config``: with scorekeeper/serving.py,
    which a checkout older than it does not have)."""
    if server == "waitress":
        return [str(BIN / "waitress-serve"), f"--host={HOST}", f"--port={port}",
                f"--threads={threads or WAITRESS_THREADS}", "--call",
                APPS[app].removesuffix("()")]
    if server == "gunicorn":
        # gthread workers keep connections alive (the sync worker closes each one);
        # --preload creates the app, and so migrates the database, once, before forking.
        # scorekeeper/serving.py: gunicorn's configuration as `make serve` uses it (the
        # garbage collector's settings in each worker); the options here are its own.
        return [str(BIN / "gunicorn"), *(["--config=python:scorekeeper.serving"] if config else []),
                f"--bind={HOST}:{port}", f"--workers={workers}",
                f"--worker-class={worker_class}", f"--threads={threads or GUNICORN_THREADS}",
                "--preload", *([] if config else ["--keep-alive=30"]), "--log-level=warning", APPS[app]]
    raise ValueError(f"unknown server {server!r} (waitress or gunicorn)")


def resolve(server: str = "gunicorn", src: Path = ROOT, *, workers: int | None = None,
            threads: int | None = None, worker_class: str | None = None) -> dict:
    """What :func:`start` serves ``src`` with: ``workers``, ``threads``, ``worker_class``
    as given, else as ``src``'s serving.py says (:func:`settings`)."""
    configured = settings(src)
    if server == "waitress":
        return {"workers": 1, "threads": threads or WAITRESS_THREADS, "worker_class": "waitress"}
    worker_class = worker_class or configured["worker_class"]
    serving_py = Path(src) / "scorekeeper" / "serving.py"
    if worker_class == "scorekeeper.serving.Worker" and "class Worker" not in (
            serving_py.read_text() if serving_py.exists() else ""):
        worker_class = "gthread"  # a checkout older than serving.py's Worker
    return {"workers": workers or configured["workers"],
            "threads": threads or configured["threads"], "worker_class": worker_class}


def start(server: str, port: int, database: Path, log: Path, *, src: Path = ROOT,
          workers: int | None = None, threads: int | None = None,
          worker_class: str | None = None, app: str = "scorekeeper") -> subprocess.Popen:
    """``app`` served on ``HOST:port`` from ``database``; ``src``: the checkout whose app
    (and whose gunicorn settings) are served. ``workers``, ``threads``, ``worker_class``:
    what ``src``'s serving.py says unless given (:func:`resolve`). ``app="floor"``:
    benchmarks/floor.py of this checkout, served as the app would be."""
    chosen = resolve(server, src, workers=workers, threads=threads, worker_class=worker_class)
    paths = [str(src)]  # the checkout served, before the installed package
    if app == "floor":
        paths.append(str(ROOT / "benchmarks"))  # floor.py, as the top-level module `floor`
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE": str(database),
        "SCOREKEEPER_SECRET_KEY": "load-benchmark",
        "PYTHONPATH": os.pathsep.join(paths),
    }
    with open(log, "ab") as out:
        return subprocess.Popen(
            command(server, port, workers=chosen["workers"], threads=chosen["threads"],
                    worker_class=chosen["worker_class"],
                    config=(Path(src) / "scorekeeper" / "serving.py").exists(), app=app),
            cwd=src, env=env,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )


def wait_ready(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    """Poll the home page until it answers 200 (or fail if the server exits)."""
    deadline = time.monotonic() + timeout
    url = f"http://{HOST}:{port}/"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the server did not answer {url} within {timeout:.0f} s")


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)  # its own group: the server and its workers only


def kill(process: subprocess.Popen) -> None:
    """A crash: SIGKILL to the server and its workers, no chance to finish anything."""
    _signal_group(process, signal.SIGKILL)
    process.wait()


def stop(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """A clean stop (SIGTERM), a kill if it does not stop in time."""
    if process.poll() is None:
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill(process)
    _signal_group(process, signal.SIGKILL)  # a worker left behind, if any


def cpu_seconds(process: subprocess.Popen) -> float:
    """User + system CPU time used so far by every live process of the server's group."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == process.pid:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick
