# Two commands for a fresh machine: `make run` and `make test` (see README.md).
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run serve test chromium bench translations

# Installed again when a catalog changes: the install compiles them (setup.py).
$(BIN)/.installed: pyproject.toml $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
	python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

# The app on its embedded SQLite database (instance/scorekeeper.db), for this machine.
run: $(BIN)/.installed
	$(BIN)/flask --app scorekeeper run --port $(PORT)

# The same app served for real on the table's wifi (every address of this machine),
# as the load benchmark runs it (benchmarks/README.md).
serve: $(BIN)/.installed
	$(BIN)/scorekeeper serve --host 0.0.0.0 --port $(PORT)

# Browser tests drive Debian's Chromium (a Playwright browser download does not work here).
# Installing it takes root; where it cannot be installed the browser tests are skipped with
# one line saying so (under CI, where CI is set, they fail instead).
chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "chromium could not be installed (apt-get needs root): the browser tests will be skipped"

# Every test, on every core (pytest-xdist; the longest tests are taken first).
test: $(BIN)/.installed chromium
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
