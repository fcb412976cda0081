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

.PHONY: run test lint typecheck contracts unit bench soak clean system-deps

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 is required (python3.11 not found)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
		|| { echo "Python 3.11 is required, found: $$($(PYTHON) --version)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# Qt's X11 platform plugin needs libxcb-cursor0 and friends, which a fresh Linux may lack: install them
# when we can (root with apt-get), otherwise say exactly what to install. Other systems need nothing.
XCB_PACKAGES := libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
	libxcb-render-util0 libxcb-xinerama0 libxcb-shape0 libxcb-randr0 libegl1

system-deps:
	@if [ "$$(uname -s)" = Linux ] && ! ldconfig -p 2>/dev/null | grep -q libxcb-cursor.so.0; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "Installing the X11 libraries Qt needs: $(XCB_PACKAGES)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(XCB_PACKAGES); \
		else \
			echo "Qt needs these system libraries to open a window: $(XCB_PACKAGES)"; \
			echo "Install them with your package manager (e.g. sudo apt-get install $(XCB_PACKAGES))."; \
		fi; \
	fi

# Bytecode caches (__pycache__, ignored by git) are kept for the app: compiling every module again on every
# start costs about a fifth of the start-up (the Quality section of the README).
run: export QT_QPA_PLATFORM :=
run: export PYTHONDONTWRITEBYTECODE :=
run: $(STAMP) system-deps
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

bench: export PYTHONDONTWRITEBYTECODE :=
bench: $(STAMP)
	$(BIN)/python -m tests.bench

soak: $(STAMP)
	$(BIN)/python -m pytest -m soak

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache
