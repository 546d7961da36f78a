"""Browser tests: the real app served as it is for real on a free port, driven by Chromium.

Like Datasette's ``tests/test_playwright.py``: one server per session (gunicorn with
``scorekeeper/serving.py``'s settings, started as ``benchmarks/server.py`` starts it: two
gevent workers, so the pages hold their streams of live changes and a play taken by one
worker reaches a page whose stream the other holds; polled until it answers, always torn
down), one browser per session, a fresh phone-sized context per test. Debian's Chromium is used,
its headless shell (``/usr/bin/chromium-headless-shell``, the build Playwright itself runs
headless; where only the full browser is installed, ``/usr/bin/chromium``): a Playwright
browser download does not work here. The shell drew the browser tests with half the CPU
of the full browser (209 s against 434 s in one run of them, on two workers: 177 s
against 279 s). Screenshots for review go to ``test-artifacts/screenshots/``
when SCOREKEEPER_SCREENSHOTS is set.
"""
from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_table import PHONE, STREAMS, Routes, seed_round_by_routes

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = next((path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
                "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_ready(url: str, process: subprocess.Popen, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer {url} within {timeout:.0f} s")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app as it is served for real: gunicorn, its own database, a fixed secret key."""
    if not Path(CHROMIUM).exists():
        # `make test` installs it (as root, with apt-get): under CI its absence is a failure;
        # elsewhere the browser tests are skipped with one line that says what to install.
        message = (f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium-headless-shell"
                   " (`make chromium` as root)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from benchmarks import server as served

    port = _free_port()
    data = tmp_path_factory.mktemp("server")
    process = served.start("gunicorn", port, data / "scorekeeper.db", data / "server.log")
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(base_url + "/", process)
        yield base_url
    finally:
        served.stop(process)


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def context(browser, server):
    """A fresh phone for each test: no cookies, no cache, JavaScript on (its streams of
    live changes watched: browser_table.STREAMS)."""
    context = browser.new_context(base_url=server, **PHONE)
    context.set_default_timeout(10_000)
    context.add_init_script(STREAMS)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def no_script_page(browser, server):
    """A phone with JavaScript off, as a fresh one: the pages as plain forms and links."""
    context = browser.new_context(base_url=server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def screenshot():
    """``screenshot(page, name)``: the page in light and in dark, saved for review when
    SCOREKEEPER_SCREENSHOTS is set (they assert nothing, and the suite's forty pairs of
    full pages took about 20 s of the browser's worker)."""
    wanted = bool(os.environ.get("SCOREKEEPER_SCREENSHOTS"))
    if wanted:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> list[Path]:
        paths: list[Path] = []
        if not wanted:
            return paths
        page.evaluate("window.scrollTo(0, 0)")  # the sticky score strip at the top
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            path = SCREENSHOTS / f"{name}-{scheme}.png"
            page.screenshot(path=str(path), full_page=True)
            paths.append(path)
        page.emulate_media(color_scheme="light")
        return paths

    return take


@pytest.fixture(scope="module")
def games(browser, server):
    """Three games set up through the routes: being played, at the round end, counted."""
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        playing, ending, counted = Routes(page), Routes(page), Routes(page)
        for routes in (playing, ending, counted):
            routes.new_game(["A", "B", "C"], dealer=2)
        seed_round_by_routes(playing, out=False)
        seed_round_by_routes(ending)
        seed_round_by_routes(counted)
        counted.confirm_round(1)
        yield {"playing": playing.key, "ending": ending.key, "counted": counted.key}
    finally:
        context.close()
