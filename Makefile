# The two commands of the README: `make serve` and `make test`. Each makes the virtualenv it needs.
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON ?= python3

$(BIN)/tavern: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

.PHONY: serve test lint bench
serve: $(BIN)/tavern
	$(BIN)/tavern serve

test: $(BIN)/tavern
	$(BIN)/ruff check .
	$(BIN)/pytest -q -n 2

lint: $(BIN)/tavern
	$(BIN)/ruff check .

bench: $(BIN)/tavern
	$(BIN)/python tests/bench/bench_rules.py
