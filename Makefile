# rummykit developer tasks. Needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LINT_PATHS := $(wildcard src tests benchmarks)

.DEFAULT_GOAL := test
.PHONY: venv run test lint bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(STAMP)
	$(BIN)/rummy play

# Browser tests (marker e2e) run in their own pytest process: sync Playwright and asyncio
# tests do not share one. Both runs always run; either failing fails `make test`. With CI
# set, a missing Chromium or a skipped browser test fails (tests/web/conftest.py).
test: $(STAMP)
	@status=0; \
	$(BIN)/python -m pytest -m "not e2e" || status=$$?; \
	$(BIN)/python -m pytest -m e2e tests/web || status=$$?; \
	exit $$status

lint: $(STAMP)
	$(BIN)/python -m ruff check $(LINT_PATHS)
	$(BIN)/python -m ruff format --check $(LINT_PATHS)
	$(BIN)/python -m mypy

bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./.git -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
