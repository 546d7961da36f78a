"""A wheel built from the repository runs on its own: pages, static files, the command line.

The wheel is built and installed into a fresh virtualenv with its dependencies, as the
app's lock file (``requirements.txt``) pins them, and nothing else: none of the test
packages; pip then finds every dependency the wheel declares installed (``pip check``,
and an install of the wheel with no index to fetch from).
From there every kind of page answers 200 with its styles and script, ``scorekeeper
score`` scores a game file and ``scorekeeper serve`` serves a page and stops. The checkout
is out of sight (the installed package is run from another folder), so the templates and
static files are those the wheel carries. The packages come from uv's cache, filled by
the install of the suite itself. About 12 s alone.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

from benchmarks import server

ROOT = Path(__file__).resolve().parents[1]
UV = Path(sys.executable).parent / "uv"  # the installer of the Makefile (requirements-uv.txt)

PAGES = textwrap.dedent("""
    import re, sys
    import scorekeeper
    from scorekeeper import create_app
    from scorekeeper.games import registry
    assert "site-packages" in scorekeeper.__file__, scorekeeper.__file__
    app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    paths = ["/", "/games", "/games/import", "/players", "/players/head-to-head", "/gin/knock",
             "/static/app.css", "/static/app.js", "/static/icon.svg", "/manifest.webmanifest"]
    for key in registry.VARIANTS:
        paths += [f"/games/new?variant={key}", f"/rules/{key}"]
        made = client.post("/games", data={"variant": key, "seat_0": "A", "seat_1": "B", "seat_2": "C",
                                           "first_dealer": "0", "partnerships": "none"})
        assert made.status_code == 303, (key, made.status_code)
        game = re.match(r"/g/[^/]+", made.headers["Location"]).group(0)
        paths += [made.headers["Location"], game, game + "/rules", game + "/export", game + "/export.csv"]
    for path in paths:
        answer = client.get(path, follow_redirects=True)
        assert answer.status_code == 200, (path, answer.status_code)
    print(len(paths))
""")


def test_a_wheel_installed_in_a_fresh_virtualenv_serves_every_page(tmp_path):
    # Built with this environment's setuptools and Babel (the lock's), not fetched again.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("scorekeeper-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # The lock (pip itself among its packages) put in as the Makefile puts it in, with uv;
    # then the new environment's own pip installs the wheel.
    installed = subprocess.run([str(UV), "pip", "install", "-q", "--python", str(python), "--compile-bytecode",
                                "--require-hashes", "-r", str(ROOT / "requirements.txt")],
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr[-3000:]
    for install in (["--no-deps", str(wheel)], ["--no-index", str(wheel)]):  # the last: pip finds
        installed = subprocess.run([str(python), "-m", "pip", "install", "-q", *install],  # all it declares
                                   capture_output=True, text=True)
        assert installed.returncode == 0, installed.stderr[-3000:]
    checked = subprocess.run([str(python), "-m", "pip", "check"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
    packages = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"], check=True,
                              capture_output=True, text=True).stdout.lower()
    assert "gevent==" in packages and "packaging==" in packages, packages  # gunicorn[gevent]'s
    for test_package in ("pytest", "playwright", "hypothesis"):
        assert f"{test_package}==" not in packages, packages
    away = tmp_path / "elsewhere"  # no checkout in sight
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SCOREKEEPER_DATABASE")}
    pages = subprocess.run([str(python), "-c", PAGES, str(tmp_path / "pages.db")], cwd=away, env=env,
                           capture_output=True, text=True)
    assert pages.returncode == 0, pages.stderr[-3000:]
    assert int(pages.stdout.strip()) > 40

    scorekeeper = [str(venv / "bin" / "scorekeeper")]
    scored = subprocess.run([*scorekeeper, "score", str(ROOT / "examples" / "iceberg-seed-example.json")],
                            cwd=away, env=env, capture_output=True, text=True)
    assert scored.returncode == 0 and '"totals"' in scored.stdout, scored.stderr

    port = server.free_port()
    serving = subprocess.Popen([*scorekeeper, "serve", "--port", str(port), "--database",
                                str(tmp_path / "served.db")], cwd=away, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://{server.HOST}:{port}/games/new", timeout=2) as answer:
                    assert answer.status == 200 and b"New game" in answer.read()
                    break
            except OSError:
                assert time.monotonic() < deadline and serving.poll() is None, "scorekeeper serve did not answer"
                time.sleep(0.2)
    finally:
        # A graceful stop, as a table's server is stopped: gunicorn gives its workers up to
        # their graceful timeout (30 s) to finish; on a busy machine a stop has taken over 10.
        os.killpg(serving.pid, 15)
        serving.wait(timeout=45)
