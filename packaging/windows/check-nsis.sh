#!/usr/bin/env bash
# Compile the Windows installer script on Linux against a stand-in payload: a syntax and reference check of
# packaging/windows/bojovka.nsi (pages, languages, registry, the uninstaller) without a Windows build.
# The release workflow compiles the same script on Windows against the real bundle.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
WORK=$ROOT/build/nsis-check
ICON=$ROOT/build/icons/bojovka.ico

if ! command -v makensis >/dev/null; then
    echo "check-nsis: SKIPPED: makensis not found (Debian/Ubuntu: apt-get install nsis)"
    exit 0
fi
[ -f "$ICON" ] || { echo "check-nsis: $ICON missing: run packaging/icons.py first"; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK/payload/_internal/resources"
printf 'stand-in for the PyInstaller executable\n' > "$WORK/payload/bojovka.exe"
printf 'stand-in for the bundle\n' > "$WORK/payload/_internal/resources/readme.txt"
VERSION=$("$PYTHON" "$ROOT/packaging/bundle.py" version)
VERSION4=$("$PYTHON" "$ROOT/packaging/bundle.py" version4)
OUT=$WORK/Bojovka-$VERSION-setup.exe

# -WX: a warning is an error, so the script stays clean.
makensis -V2 -WX -DVERSION="$VERSION" -DVERSION4="$VERSION4" -DPAYLOAD="$WORK/payload" -DICON="$ICON" \
    -DOUTFILE="$OUT" "$ROOT/packaging/windows/bojovka.nsi"
[ "$(head -c 2 "$OUT")" = MZ ] || { echo "check-nsis: $OUT is not a Windows executable"; exit 1; }
echo "check-nsis: ok ($(makensis -VERSION), stand-in installer $(du -k "$OUT" | cut -f1) KB)"
