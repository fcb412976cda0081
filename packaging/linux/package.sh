#!/usr/bin/env bash
# `make package`: build the Linux bundle and .deb, and prove they work — the Linux half of the release workflow.
#
# Steps: icons → bundle metadata of every OS → PyInstaller onedir bundle → frozen --selftest offscreen and on an
# X server → size (and the bare PySide6 + pyqtgraph bundle built by the same spec, for the size goal) → .deb →
# desktop entry → AppImage recipe (AppDir) → install/remove test of the .deb → NSIS script compiled against a
# stand-in → the workflow file linted. A step whose tool cannot be had here says so and is skipped; anything
# else that fails stops the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
BIN=$(dirname "$PYTHON")
BUNDLE=dist/bojovka
BARE=build/bare/dist/bojovka-bare
STARTED=$(date +%s)

step() { printf '\n== %s\n' "$*"; }
megabytes() { du -sb "$1" | awk '{printf "%.1f", $1 / 1048576}'; }
selftest() {  # selftest PLATFORM COMMAND…: the command must print exactly "ok"
    local platform=$1 output
    shift
    output=$(QT_QPA_PLATFORM=$platform "$@" --selftest 2>build/selftest-errors.txt) || true
    if [ "$output" != ok ]; then
        cat build/selftest-errors.txt
        echo "package: FAILED: $* --selftest ($platform) printed: $output"
        exit 1
    fi
}

step "icons from resources/icons/bojovka.svg"
"$PYTHON" packaging/icons.py

step "bundle metadata (Windows version resource, macOS Info.plist)"
"$PYTHON" packaging/bundle.py check

step "PyInstaller onedir bundle ($BUNDLE)"
"$BIN/pyinstaller" --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/bojovka.spec

step "frozen --selftest"
selftest offscreen "$BUNDLE/bojovka"
echo "offscreen: ok"
if command -v xvfb-run >/dev/null; then
    selftest xcb xvfb-run -a -s "-screen 0 1366x768x24" "$BUNDLE/bojovka"
    echo "X server (xvfb-run, xcb): ok"
else
    echo "X server: SKIPPED: xvfb-run not found (apt-get install xvfb xauth)"
fi

step "bundle size"
BOJOVKA_BARE=1 "$BIN/pyinstaller" --noconfirm --log-level ERROR --distpath build/bare/dist \
    --workpath build/bare/work packaging/bojovka.spec >/dev/null
selftest offscreen "$BARE/bojovka-bare"
SIZE=$(megabytes "$BUNDLE")
BARE_SIZE=$(megabytes "$BARE")
echo "bundle: $SIZE MB; bare PySide6 + pyqtgraph bundle (same spec): $BARE_SIZE MB;" \
    "ratio $(awk -v a="$SIZE" -v b="$BARE_SIZE" 'BEGIN { printf "%.2f", a / b }') (goal: at most 1.30)"

step ".deb"
packaging/linux/build-deb.sh
DEB=$(ls dist/bojovka_*.deb)

step "desktop entry"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate packaging/linux/bojovka.desktop
    echo "desktop-file-validate: ok"
else
    echo "SKIPPED: desktop-file-validate not found (apt-get install desktop-file-utils)"
fi

step "AppImage recipe (AppDir; the release workflow packs it with appimagetool)"
packaging/linux/appimage.sh appdir

step "install and remove the .deb"
packaging/linux/test-deb.sh "$DEB"

step "Windows installer script (makensis, stand-in payload)"
packaging/windows/check-nsis.sh

step "release workflow (yamllint, actionlint)"
# (Each check on its own line: `set -e` does not stop at a failure on the left of `&&`.)
"$BIN/yamllint" --strict -c packaging/yamllint.yml .github/workflows/release.yml
echo "yamllint: ok"
"$BIN/actionlint" .github/workflows/release.yml
if command -v shellcheck >/dev/null; then
    echo "actionlint: ok (with shellcheck on the run: scripts)"
    shellcheck packaging/linux/*.sh packaging/windows/*.sh packaging/macos/*.sh
    echo "shellcheck packaging/*/*.sh: ok"
else
    echo "actionlint: ok (shellcheck not found: run: scripts and packaging/*/*.sh unchecked; apt-get install shellcheck)"
fi

step "done in $(($(date +%s) - STARTED)) s"
echo "bundle $BUNDLE ($SIZE MB), $DEB ($(megabytes "$DEB") MB)"
