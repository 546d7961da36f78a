# Two commands for a fresh machine: `make run` and `make test` (see README.md).
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run serve test chromium bench translations lock

# Every install comes from the lock files, which pin every package with its hashes:
# requirements.txt the app's (and what building it takes), requirements-test.txt those and
# the tests' (the same versions: it is compiled against the first). uv installs them (it
# fetches and installs in parallel: a fresh clone's setup in 14 s, not 32 s with pip;
# README, "Installs"); uv itself comes from requirements-uv.txt, with pip. `make lock`
# refreshes all three. Installed again when a catalog changes: the install compiles them
# (setup.py). Bytecode is compiled at install: where PYTHONDONTWRITEBYTECODE is set, as on
# this project's machine, nothing would keep it otherwise.
CATALOGS := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
UV_INSTALL = $(BIN)/uv pip install -q --python $(BIN)/python
$(BIN)/uv: requirements-uv.txt
	test -x $(BIN)/python || python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --require-hashes -r requirements-uv.txt
	touch $@

$(BIN)/.app: $(BIN)/uv requirements.txt pyproject.toml setup.py $(CATALOGS)
	$(UV_INSTALL) --compile-bytecode --require-hashes -r requirements.txt
	$(UV_INSTALL) --no-deps --no-build-isolation -e .
	touch $@

$(BIN)/.installed: $(BIN)/.app requirements-test.txt
	$(UV_INSTALL) --compile-bytecode --require-hashes -r requirements-test.txt
	touch $@

# The lock files again, from pyproject.toml and requirements-uv.in, each package at its newest
# release that the ranges there allow (pip-tools, in a virtualenv of its own); then run `make test`.
LOCK_PINS := -q --upgrade --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
LOCK_OPTIONS := $(LOCK_PINS) --build-deps-for wheel --build-deps-for editable
lock:
	test -x .venv-lock/bin/pip-compile || { python3 -m venv .venv-lock && .venv-lock/bin/pip install -q pip-tools; }
	.venv-lock/bin/pip-compile $(LOCK_OPTIONS) -o requirements.txt pyproject.toml
	.venv-lock/bin/pip-compile $(LOCK_OPTIONS) --extra test -c requirements.txt -o requirements-test.txt pyproject.toml
	.venv-lock/bin/pip-compile $(LOCK_PINS) -o requirements-uv.txt requirements-uv.in

# The app on its embedded SQLite database (instance/scorekeeper.db), for this machine.
run: $(BIN)/.app
	$(BIN)/flask --app scorekeeper run --port $(PORT)

# The same app served for real on the table's wifi (every address of this machine),
# as the load benchmark runs it (benchmarks/README.md).
serve: $(BIN)/.app
	$(BIN)/scorekeeper serve --host 0.0.0.0 --port $(PORT)

# Browser tests drive Debian's Chromium, its headless shell (a Playwright browser download
# does not work here). Installing it takes root; where it cannot be installed the browser
# tests are skipped with one line saying so (under CI, where CI is set, they fail instead).
chromium:
	@command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; } || \
	  echo "chromium-headless-shell could not be installed (apt-get needs root): the browser tests will be skipped"

# The lint and the types first (pyproject.toml: ruff on every Python file, mypy strict on
# the rules, the game file and the stores; a few seconds), then every test, on every core (pytest-xdist:
# one worker more than the cores, the browser tests spread over them from the start;
# tests/conftest.py says why). The package
# is compiled to bytecode first: where PYTHONDONTWRITEBYTECODE is set (as on this project's
# machine) every command and server the tests start compiled it from source
# again, a third of each one's CPU.
test: $(BIN)/.installed chromium
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy
	$(BIN)/python -m compileall -q scorekeeper
	$(BIN)/python -m pytest -q -n auto --dist worksteal

# Benchmarks print their figures (see benchmarks/README.md); RLCard is the gin baseline.
bench: $(BIN)/.installed
	$(BIN)/pip install -q rlcard
	$(BIN)/python benchmarks/last_turn.py
	$(BIN)/python benchmarks/gin_deadwood.py

# After changing the words of the pages: find them again (babel.cfg says where) and bring
# every language's catalog up to date; then translate what is new (tests/test_translations.py
# fails until every string is translated). README, "Adding a language".
translations: $(BIN)/.installed
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations --no-fuzzy-matching --ignore-obsolete
