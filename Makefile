# Bojovka: every target creates .venv and installs what it needs, so a fresh machine with
# only Python 3.11 needs nothing else.  `make test` runs every check CI runs.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

# Qt tests run offscreen; pyqtgraph must bind to PySide6 even if another binding is installed.
export QT_QPA_PLATFORM ?= offscreen
export PYQTGRAPH_QT_LIB := PySide6
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run test lint typecheck contracts unit bench soak clean

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 is required (python3.11 not found)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
		|| { echo "Python 3.11 is required, found: $$($(PYTHON) --version)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

run: export QT_QPA_PLATFORM :=
run: $(STAMP)
	$(BIN)/python -m app.main

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports --no-cache

unit: $(STAMP)
	$(BIN)/python -m pytest

test: lint typecheck contracts unit

bench: $(STAMP)
	$(BIN)/python -m tests.bench

soak: $(STAMP)
	$(BIN)/python -m pytest -m soak

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache
