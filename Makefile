# The two commands of the README: `make serve` (HOST=, PORT=) and `make test`. Each makes the virtualenv
# it needs; `make test` also checks for (and where it may, installs) the system packages the tests use.
VENV ?= .venv
HOST ?= 127.0.0.1
PORT ?= 8000
BIN := $(VENV)/bin
PYTHON ?= python3

$(BIN)/tavern: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

.PHONY: serve test lint bench
serve: $(BIN)/tavern
	$(BIN)/tavern serve --host $(HOST) --port $(PORT)

# the browser tests inject axe-core (npm, pinned by tests/web/package-lock.json)
tests/web/node_modules/axe-core/axe.min.js: tests/web/package-lock.json
	npm ci --prefix tests/web --no-audit --no-fund
	touch $@

test: $(BIN)/tavern
	tests/system-deps.sh
	$(MAKE) --no-print-directory tests/web/node_modules/axe-core/axe.min.js
	$(BIN)/ruff check .
	$(BIN)/pytest -q -n 2 --dist loadgroup

lint: $(BIN)/tavern
	$(BIN)/ruff check .

bench: $(BIN)/tavern
	$(BIN)/python tests/bench/bench_rules.py
