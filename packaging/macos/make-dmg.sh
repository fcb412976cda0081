#!/usr/bin/env bash
# Pack dist/Bojovka.app into dist/Bojovka-<version>-macos-<arch>.dmg: a window with the app and a link to
# /Applications, so installing is one drag. Runs on macOS (hdiutil); the release workflow calls it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
APP=$ROOT/dist/Bojovka.app
[ -d "$APP" ] || { echo "make-dmg: $APP missing: build it with pyinstaller packaging/bojovka.spec"; exit 1; }
command -v hdiutil >/dev/null || { echo "make-dmg: hdiutil not found (this script runs on macOS)"; exit 1; }

VERSION=$("$PYTHON" "$ROOT/packaging/bundle.py" version)
DMG=$ROOT/dist/Bojovka-$VERSION-macos-$(uname -m).dmg
STAGE=$(mktemp -d -t bojovka-dmg)
trap 'rm -rf "$STAGE"' EXIT

# ditto keeps the bundle's symlinks, extended attributes and signatures intact (cp -R may not).
ditto "$APP" "$STAGE/Bojovka.app"
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "Bojovka $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -imagekey zlib-level=9 \
    -ov "$DMG" >/dev/null
hdiutil verify "$DMG" >/dev/null
echo "dmg: $DMG ($(du -m "$DMG" | cut -f1) MB)"
