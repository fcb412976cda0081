#!/usr/bin/env bash
# AppImage recipe: one file a GM on any recent Linux downloads, marks executable and double-clicks.
#
#   packaging/linux/appimage.sh appdir    build build/AppDir from dist/bojovka and run its AppRun --selftest
#   packaging/linux/appimage.sh image     … and pack it with appimagetool (APPIMAGETOOL=path, or on PATH)
#
# `make package` runs `appdir` (the recipe is checked on every CI run); the release workflow runs `image` with
# the appimagetool it downloads. The AppImage carries the same onedir bundle as the .deb.
set -euo pipefail

STEP=${1:?usage: appimage.sh appdir | image}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
BUNDLE=$ROOT/dist/bojovka
ICONS=$ROOT/build/icons/png
LINUX=$ROOT/packaging/linux
APPDIR=$ROOT/build/AppDir
NAME=bojovka

[ -x "$BUNDLE/$NAME" ] || { echo "appimage: $BUNDLE/$NAME missing: build the bundle first"; exit 1; }
VERSION=$("$PYTHON" "$ROOT/packaging/bundle.py" version)

rm -rf "$APPDIR"
mkdir -p "$APPDIR/usr/lib" "$APPDIR/usr/share/applications" "$APPDIR/usr/share/mime/packages"
cp -a "$BUNDLE" "$APPDIR/usr/lib/$NAME"
install -m 644 "$LINUX/bojovka.desktop" "$APPDIR/$NAME.desktop"
install -m 644 "$LINUX/bojovka.desktop" "$APPDIR/usr/share/applications/$NAME.desktop"
install -m 644 "$LINUX/bojovka-mime.xml" "$APPDIR/usr/share/mime/packages/$NAME.xml"
for size in 16 32 48 64 128 256 512; do
    install -D -m 644 "$ICONS/bojovka-$size.png" "$APPDIR/usr/share/icons/hicolor/${size}x${size}/apps/$NAME.png"
done
install -m 644 "$ICONS/bojovka-256.png" "$APPDIR/$NAME.png"
ln -s "$NAME.png" "$APPDIR/.DirIcon"
cat > "$APPDIR/AppRun" <<'APPRUN'
#!/bin/sh
# The AppImage runtime mounts the image and sets APPDIR; run the bundled app with the GM's arguments.
HERE=${APPDIR:-$(dirname "$(readlink -f "$0")")}
exec "$HERE/usr/lib/bojovka/bojovka" "$@"
APPRUN
chmod 755 "$APPDIR/AppRun"

if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$APPDIR/$NAME.desktop"
fi
[ "$(QT_QPA_PLATFORM=offscreen "$APPDIR/AppRun" --selftest 2>/dev/null)" = ok ] \
    || { echo "appimage: $APPDIR/AppRun --selftest did not print ok"; exit 1; }
echo "appimage: AppDir ready in $APPDIR (AppRun --selftest: ok)"

if [ "$STEP" = image ]; then
    TOOL=${APPIMAGETOOL:-$(command -v appimagetool || true)}
    [ -n "$TOOL" ] || { echo "appimage: appimagetool not found (set APPIMAGETOOL)"; exit 1; }
    OUT=$ROOT/dist/Bojovka-$VERSION-$(uname -m).AppImage
    ARCH=$(uname -m) "$TOOL" --no-appstream "$APPDIR" "$OUT"
    echo "appimage: $OUT ($(du -m "$OUT" | cut -f1) MB)"
fi
