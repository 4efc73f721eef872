# deckgen: every set-up step lives here, so a fresh machine with Python 3.11 needs
# nothing but `make demo` or `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.deckgen-installed
# pytest workers: all cores; override with `make test WORKERS=1`.
WORKERS ?= auto

.PHONY: demo test fuzz bench lint typecheck sysdeps clean help

help:
	@echo "make demo   - set up .venv and write the demo outputs to output/demo/"
	@echo "make test   - set up .venv and run the whole test suite"
	@echo "make fuzz   - the hostile-input suite with thousands of examples (long)"
	@echo "make bench  - run the benchmarks in bench/ (by hand, not in CI)"
	@echo "make lint   - ruff and mypy"

# pip speaks only on errors (-qq, no version check); a failed install still says why.
PIP := $(BIN)/python -m pip -qq --disable-pip-version-check --no-input

# The engine's hot modules are compiled by the install (setup.py, mypyc): editing one
# installs again, or deckgen runs its plain source. The list is MODULES in
# deckgen/engine/compiled.py, in order (tests/test_packaging.py compares them).
COMPILED := deckgen/engine/turn.py deckgen/engine/layouts.py deckgen/engine/chickenfoot.py deckgen/engine/trains.py deckgen/engine/invariants.py deckgen/engine/endcount.py deckgen/engine/finish.py deckgen/engine/setup.py deckgen/engine/state.py deckgen/engine/backends/lean.py

$(STAMP): pyproject.toml setup.py scripts/sysdeps.sh $(COMPILED)
	@sh scripts/sysdeps.sh
	@echo "setting up $(VENV): deckgen (its engine compiled) and its test tools (once; about a minute)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(PIP) install --upgrade pip
	@$(PIP) install -e '.[test]'
	@$(BIN)/python -m deckgen.engine.backends.warm
	@touch $(STAMP)

sysdeps:
	@sh scripts/sysdeps.sh

demo: $(STAMP)
	$(BIN)/deckgen demo

test: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q

# The property-based hostile-input and fault suite (tests/hostile/, docs/limits.md)
# with thousands of examples per property instead of the few `make test` runs.
fuzz: $(STAMP)
	DECKGEN_FUZZ=1 $(BIN)/python -m pytest -n $(WORKERS) -q tests/hostile

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
	find deckgen -name '*.so' -delete
	rm -f deckgen/engine/compiled.json
