# rummykit developer tasks. Needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps in one venv: `make run` installs what the game needs (the package with the site,
# `rummykit[server]`); `make test` and the other developer tasks add the development tools
# on top (pytest, ruff, mypy, Playwright, matplotlib). The README gives their sizes, and
# tests/web/test_readme_road.py checks the first against a fresh install.
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
LINT_PATHS := $(wildcard src tests benchmarks scripts)

.DEFAULT_GOAL := test
.PHONY: venv run-venv run test lint js-deps bench clean compile pure

venv: $(STAMP)
run-venv: $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[server]'
	touch $@

$(STAMP): $(RUN_STAMP)
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(RUN_STAMP)
	$(BIN)/rummy play

# The compiled engine: scripts/compile_engine.py compiles the hot modules listed in
# pyproject.toml ([tool.rummykit.compiled]) with mypyc, in place beside their sources, where a
# C compiler is (about 25 s on two cores; without one the engine stays pure Python). It is
# rebuilt whenever one of those sources changes; `make pure` removes it, and RUMMYKIT_PURE=1
# runs the sources without removing it. `make test` runs every test on both (below).
COMPILED_STAMP := build/mypyc/.built
ENGINE_SOURCES = $(shell $(PYTHON) scripts/compile_engine.py --list)

compile: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) scripts/compile_engine.py $(ENGINE_SOURCES)
	$(BIN)/python scripts/compile_engine.py
	@mkdir -p $(dir $@) && touch $@

pure:
	$(PYTHON) scripts/compile_engine.py --clean

# Browser tests (marker e2e) run in their own pytest process: sync Playwright and asyncio
# tests do not share one. Every run always runs; any failing fails `make test`. With CI
# set, a missing Chromium or a skipped browser test fails (tests/web/conftest.py).
# The first run spreads its test files over workers (pytest-xdist); a file's tests
# stay together, in order, on one worker, so a module's fixtures are made once; the files
# marked heavy go first (tests/conftest.py orders them; --no-loadscope-reorder keeps that
# order), so that no long file is taken last and ends the run alone. The tests
# marked slow (the benchmarks' smoke tests and the cluster's processes on the real clock) run
# next, on their own, spread test by test over four workers: they mostly wait on the real
# clock (leases, timers, a killed owner), so four overlap their waits on two cores (190 s
# against 265 s on two workers), and they never share the machine with the rest of the suite. The browser tests
# too are spread a file a worker: each test serves its own app on a free port (nginx, Redis
# and PostgreSQL likewise, in its own folder) and each worker drives its own Chromium.
# The runs keep Python's compiled files (`__pycache__`, ignored by git) even where the machine
# sets PYTHONDONTWRITEBYTECODE, as CI's does: without them every test process compiled the
# package again and re-wrote every test module's asserts (collecting took 10.8 s a process
# against 3.4 s), and every server a test starts compiled the site again. Each run ends with
# its fifteen slowest tests: where CI's minutes go, in every CI log.
# A worker that crashes ends its run, named, at once (--max-worker-restart=0): pytest-xdist's
# replacement worker under --dist loadfile can wait forever for work (pytest-xdist #784), and
# a CI run once hung so until its 90 minutes were up.
# Hypothesis draws the same examples on every run of `make test` (its `ci` profile, tests/
# conftest.py), wherever it runs: a stranger's first run must not fail on a random example
# that no CI run met (a random-rules game with a fifty-card hand under whole-hand melding is
# minutes of legal moves, past the five-minute limit a test has). A plain `pytest` draws
# new ones (`dev`); HYPOTHESIS_PROFILE=dev make test does too.
PYTEST := env -u PYTHONDONTWRITEBYTECODE HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-ci} \
	$(BIN)/python -m pytest --durations=15 --max-worker-restart=0
# The first run has one worker more than the cores: its server and process tests wait on
# children and sockets now and then, and a third worker fills those gaps (420 s against 468 s
# on two cores).
# Every run is made twice: on the compiled engine, then on the pure sources (RUMMYKIT_PURE=1,
# which every server and program a test starts inherits), as a platform with no compiled build
# runs them. A compiled module keeps no docstrings, so the engine's doctests run only on the
# pure sources; tests/core/test_builds_agree.py compares the two builds move for move, so it
# runs in the compiled run only.
PURE := RUMMYKIT_PURE=1
PURE_IGNORE := --ignore=tests/core/test_builds_agree.py
QUICK_WORKERS := $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")

test: $(STAMP) $(COMPILED_STAMP) js-deps
	@status=0; \
	for build in compiled pure; do \
		if [ $$build = pure ]; then env="$(PURE)"; skip="$(PURE_IGNORE)"; else env=; skip=; fi; \
		echo "== quick tests, $$build engine"; \
		env $$env $(PYTEST) -m "not e2e and not slow" -n $(QUICK_WORKERS) --dist loadfile \
			--no-loadscope-reorder $$skip || status=$$?; \
	done; \
	for build in compiled pure; do \
		if [ $$build = pure ]; then env="$(PURE)"; else env=; fi; \
		echo "== slow tests, $$build engine"; \
		env $$env $(PYTEST) -m "slow and not e2e" -n 4 --dist load || status=$$?; \
	done; \
	for build in compiled pure; do \
		if [ $$build = pure ]; then env="$(PURE)"; else env=; fi; \
		echo "== browser tests, $$build engine"; \
		env $$env $(PYTEST) -m e2e -n auto --dist loadfile --no-loadscope-reorder tests/web \
			|| status=$$?; \
	done; \
	exit $$status

lint: $(STAMP) js-deps
	$(BIN)/python -m ruff check $(LINT_PATHS)
	$(BIN)/python -m ruff format --check $(LINT_PATHS)
	$(BIN)/python -m mypy
	@if [ -e $(ESLINT_STAMP) ]; then echo "npm run lint  # ESLint"; npm run --silent lint; fi

# ESLint for the browser's modules (src/rummykit/web), from package-lock.json. It needs Node.js
# and npm, which the README's commands do not: without npm the JavaScript lint is left out
# (tests/web/test_javascript.py skips), except with CI set, where a missing npm fails the run.
# npm writes node_modules/.package-lock.json on each install: it is the stamp.
ESLINT_STAMP := node_modules/.package-lock.json
IN_CI := $(filter-out 0 false False FALSE no No NO,$(CI))

js-deps:
	@if command -v npm >/dev/null 2>&1; then \
		$(MAKE) -s --no-print-directory $(ESLINT_STAMP); \
	elif [ -n "$(IN_CI)" ]; then \
		echo "CI: npm is missing; the JavaScript lint needs Node.js 20.19+ and npm." >&2; exit 1; \
	else \
		echo "npm not found: the JavaScript lint is skipped here (CI runs it)."; \
	fi

$(ESLINT_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund

bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/engine.py

clean:
	$(PYTHON) scripts/compile_engine.py --clean
	rm -rf $(VENV) node_modules build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./.git -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
