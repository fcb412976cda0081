#!/usr/bin/env bash
# Build dist/bojovka_<version>_<arch>.deb from the onedir bundle in dist/bojovka (`make package` runs this).
#
# Layout: the bundle in /opt/bojovka, /usr/bin/bojovka linking to it, the desktop entry, the icon in the
# hicolor theme (PNG sizes rendered by packaging/icons.py, plus the SVG), the MIME type for .bojovka files.
# No maintainer scripts: Debian's triggers (shared-mime-info, desktop-file-utils, the icon theme) refresh the
# caches on install and removal, and removal deletes only the package's own files — a GM's encounters,
# roster and settings in their home folder stay where they are.
# Depends lists the packages of what the bundle links but does not carry (glibc, OpenGL …): deb_depends.py.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
BUNDLE=$ROOT/dist/bojovka
ICONS=$ROOT/build/icons/png
LINUX=$ROOT/packaging/linux
STAGE=$ROOT/build/deb
NAME=bojovka

[ -x "$BUNDLE/$NAME" ] || { echo "build-deb: $BUNDLE/$NAME missing: build the bundle first (make package)"; exit 1; }
[ -d "$ICONS" ] || { echo "build-deb: $ICONS missing: run packaging/icons.py first"; exit 1; }
VERSION=$("$PYTHON" "$ROOT/packaging/bundle.py" version)
ARCH=$(dpkg --print-architecture)
DEB=$ROOT/dist/${NAME}_${VERSION}_${ARCH}.deb

rm -rf "$STAGE"
mkdir -p "$STAGE/root/DEBIAN" "$STAGE/root/opt" "$STAGE/root/usr/bin" "$STAGE/root/usr/share/applications" \
    "$STAGE/root/usr/share/mime/packages" "$STAGE/root/usr/share/doc/$NAME"
cp -a "$BUNDLE" "$STAGE/root/opt/$NAME"
ln -s "/opt/$NAME/$NAME" "$STAGE/root/usr/bin/$NAME"
install -m 644 "$LINUX/bojovka.desktop" "$STAGE/root/usr/share/applications/$NAME.desktop"
install -m 644 "$LINUX/bojovka-mime.xml" "$STAGE/root/usr/share/mime/packages/$NAME.xml"
for size in 16 24 32 48 64 128 256 512; do
    install -D -m 644 "$ICONS/bojovka-$size.png" "$STAGE/root/usr/share/icons/hicolor/${size}x${size}/apps/$NAME.png"
done
install -D -m 644 "$ROOT/resources/icons/bojovka.svg" "$STAGE/root/usr/share/icons/hicolor/scalable/apps/$NAME.svg"
install -m 644 "$LINUX/copyright" "$STAGE/root/usr/share/doc/$NAME/copyright"

DEPENDS=$("$PYTHON" "$LINUX/deb_depends.py" "$STAGE/root/opt/$NAME")

INSTALLED_SIZE=$(du -sk --exclude=DEBIAN "$STAGE/root" | cut -f1)
cat > "$STAGE/root/DEBIAN/control" <<CONTROL
Package: $NAME
Version: $VERSION
Architecture: $ARCH
Maintainer: Bojovka developers <bojovka@users.noreply.github.com>
Installed-Size: $INSTALLED_SIZE
Depends: $DEPENDS
Section: games
Priority: optional
Description: combat tracker for tabletop game masters
 Bojovka tracks initiative, dice pools, condition monitors and effects at the
 table, resolves attacks with each game's own dice rules and shows the odds
 before the roll. Offline; Shadowrun 3, Walka, Soubojovy system, Institute and
 Clovek. Every change is journaled, so a crash loses nothing.
CONTROL
(cd "$STAGE/root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$STAGE/root/DEBIAN/control" "$STAGE/root/DEBIAN/md5sums"

mkdir -p "$ROOT/dist"
rm -f "$ROOT"/dist/"${NAME}"_*.deb
# zstd: as small as xz within 15 %, 15× faster to build; every dpkg that meets our glibc floor reads it.
dpkg-deb --root-owner-group -Zzstd -z9 --build "$STAGE/root" "$DEB" >/dev/null
echo "deb: $DEB ($(du -m "$DEB" | cut -f1) MB; Depends: $DEPENDS)"
