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

.PHONY: run test lint typecheck contracts unit bench soak clean system-deps catalogs print-deps package package-deps

# Translations are edited as .po files and compiled here (never committed as binaries).
PO_FILES := $(wildcard resources/locale/*/LC_MESSAGES/bojovka.po)
MO_FILES := $(PO_FILES:.po=.mo)

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.11 is required (python3.11 not found)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
		|| { echo "Python 3.11 is required, found: $$($(PYTHON) --version)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# Qt's X11 platform plugin needs libxcb-cursor0 and friends, which a fresh Linux may lack: install them
# when we can (root with apt-get), otherwise say exactly what to install. Other systems need nothing.
XCB_PACKAGES := libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
	libxcb-render-util0 libxcb-xinerama0 libxcb-shape0 libxcb-randr0 libegl1

$(MO_FILES) &: $(PO_FILES) $(STAMP)
	$(BIN)/python packaging/i18n.py compile

catalogs: $(MO_FILES)

system-deps:
	@packaging/ensure-debian-packages.sh "Opening Bojovka's window" "Qt cannot open a window without them." \
		$(XCB_PACKAGES)

# The printing tests read the PDFs back with poppler's pdftotext/pdfinfo and lay them out in DejaVu Sans (so the
# page count is the same on every machine): install both when we can (root with apt-get, as on CI); otherwise
# those tests skip and say why.
PRINT_PACKAGES := poppler-utils fonts-dejavu-core

print-deps:
	@packaging/ensure-debian-packages.sh "The printing tests" "those tests are skipped without them." \
		$(PRINT_PACKAGES)

# Building the bundle and installers (`make package`): pinned build tools in the same .venv, and on Linux the
# Debian tools and the libraries the bundle links but does not carry (OpenGL, Wayland), installed when we can.
BUILD_STAMP := $(VENV)/.build-stamp
BUILD_REQUIREMENTS := packaging/requirements-build.txt packaging/requirements-lint.txt
PACKAGE_TOOLS := dpkg-dev binutils desktop-file-utils shared-mime-info nsis xvfb xauth shellcheck
BUNDLE_LIBRARIES := libgl1 libegl1 libwayland-client0 libwayland-cursor0 libwayland-egl1

$(BUILD_STAMP): $(STAMP) $(BUILD_REQUIREMENTS)
	$(BIN)/python -m pip install --quiet $(addprefix -r ,$(BUILD_REQUIREMENTS))
	@touch $@

package-deps: system-deps
	@command -v dpkg-query >/dev/null || { echo "make package builds the Linux bundle and .deb on Debian or Ubuntu;" \
		"for Windows and macOS see 'Build it yourself' in README.md"; exit 1; }
	@packaging/ensure-debian-packages.sh "Packaging" "the steps that need them are skipped." \
		$(PACKAGE_TOOLS) $(BUNDLE_LIBRARIES)

package: $(BUILD_STAMP) catalogs package-deps
	PYTHON=$(BIN)/python packaging/linux/package.sh

# Bytecode caches (__pycache__, ignored by git) are kept for the app: compiling every module again on every
# start costs about a fifth of the start-up (the Quality section of the README).
run: export QT_QPA_PLATFORM :=
run: export PYTHONDONTWRITEBYTECODE :=
run: $(STAMP) catalogs system-deps
	$(BIN)/python -m app.main

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports --no-cache

# Two workers per core: many tests wait on processes they start (the crash suite's kills, start-up probes,
# --print-summary runs) or on fsync, and a third and fourth worker use that time (2 cores, side by side:
# 196 s with two workers, 175 s with three, 172 s with four). Work stealing evens out the few long tests.
# Bytecode caches are kept, as for `make run`: the suite starts dozens of Python processes, each of which
# compiled every module of ours again without them.
# The tests' temporary files go to a fresh folder in memory where there is one (/dev/shm on Linux), removed
# afterwards: the suite creates, fsyncs and deletes thousands of files (journals, saves, the crash suite's
# homes), and on a disk mounted with `discard` each of those costs milliseconds (the crash suite alone:
# 36 s on disk, 19 s in memory). A killed process leaves its writes in either, so nothing tested changes.
TEST_TMP_PARENT := $(firstword $(wildcard /dev/shm))
unit: export PYTHONDONTWRITEBYTECODE :=
unit: $(STAMP) catalogs print-deps
	@scratch=$$(mktemp -d $(if $(TEST_TMP_PARENT),"$(TEST_TMP_PARENT)/bojovka-tests.XXXXXX")) \
		&& trap 'rm -rf "$$scratch"' EXIT && echo "temporary files of the tests: $$scratch" \
		&& TMPDIR="$$scratch" $(BIN)/python -m pytest \
			-n $$($(BIN)/python -c "import os; print(2 * (os.cpu_count() or 1))") --dist worksteal

test: lint typecheck contracts unit

bench: export PYTHONDONTWRITEBYTECODE :=
bench: $(STAMP) catalogs
	$(BIN)/python -m tests.bench $(PARTS)

soak: $(STAMP) catalogs
	$(BIN)/python -m pytest -m soak

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache $(MO_FILES)
