# parlour: `make demo` plays a match of every game through the gateway; `make test` runs all tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)
PYTEST_WORKERS ?= 2

.PHONY: setup gen demo up test check lint breaking image-check manifests bench bench-engines bench-bots web clean

setup: $(STAMP) gen

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

gen: $(STAMP)
	$(BIN)/python tools/buf.py generate python

demo: setup
	$(BIN)/parlour demo

up: setup
	$(BIN)/parlour up

# buf from the npm registry, installed once before the tests run in parallel
BUF := $(VENV)/buf/node_modules/.bin/buf
$(BUF): $(STAMP)
	$(BIN)/python tools/buf.py --version

test: setup $(BUF)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadgroup

lint: setup
	$(BIN)/ruff check .
	$(BIN)/python tools/buf.py lint

# the contracts against git BREAKING_AGAINST (default: where this branch left main; on main, HEAD^)
breaking: setup
	$(BIN)/python tools/buf.py breaking $(BREAKING_AGAINST)

# render deploy/k8s overlays, validate them offline, check every game is deployed
manifests: setup
	$(BIN)/python tools/k8s.py check

# deploy/Dockerfile's steps without a container engine, then every role from its runtime stage
image-check: setup
	$(BIN)/python tools/dockerfile_check.py

check: lint test

bench: setup
	$(BIN)/python -m bench.run

bench-engines: setup
	$(BIN)/python -m bench.engines

bench-bots: setup
	$(BIN)/python -m bench.bots

# The browser client's bundle (clients/web/dist, committed): protobuf-es code and esbuild.
web: setup
	cd clients/web && npm ci --no-audit --no-fund
	$(BIN)/python clients/web/build.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
	find . -name '*_pb2*.py*' -delete
