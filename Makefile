# Two commands for a fresh machine: `make run` and `make test` (see README.md).
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench

$(BIN)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/scorekeeper score examples/iceberg-seed-example.json

test: $(BIN)/.installed
	$(BIN)/python -m pytest -q

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/last_turn.py
