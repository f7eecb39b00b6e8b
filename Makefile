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

# the browser tests inject axe-core (npm, pinned by tests/web/package-lock.json)
tests/web/node_modules/axe-core/axe.min.js: tests/web/package-lock.json
	npm ci --prefix tests/web --no-audit --no-fund
	touch $@

test: $(BIN)/tavern tests/web/node_modules/axe-core/axe.min.js
	$(BIN)/ruff check .
	$(BIN)/pytest -q -n 2

lint: $(BIN)/tavern
	$(BIN)/ruff check .

bench: $(BIN)/tavern
	$(BIN)/python tests/bench/bench_rules.py
