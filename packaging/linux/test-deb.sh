#!/usr/bin/env bash
# Install the .deb for real, run the installed app, remove it, and check what stays and what goes.
#
#   packaging/linux/test-deb.sh dist/bojovka_<version>_<arch>.deb      (`make package` runs this)
#
# Needs root (dpkg -i). Leaves the machine as it found it: a bojovka package that was already installed is
# never touched (the test is skipped), and the package is removed again even when a check fails.
set -euo pipefail

DEB=${1:?usage: test-deb.sh PACKAGE.deb}
NAME=bojovka
say() { echo "test-deb: $*"; }
fail() { say "FAILED: $*"; exit 1; }

if [ "$(id -u)" != 0 ]; then
    say "SKIPPED: installing a .deb needs root (CI runs as root; here run: sudo make package)"
    exit 0
fi
if dpkg-query -W -f='${Status}' "$NAME" 2>/dev/null | grep -q "install ok installed"; then
    say "SKIPPED: $NAME is already installed on this machine, and this test will not replace it"
    exit 0
fi

WORK=$(mktemp -d -t bojovka-deb-test.XXXXXX)
cleanup() {
    if dpkg-query -W -f='${Status}' "$NAME" 2>/dev/null | grep -q "installed"; then
        dpkg --purge "$NAME" >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# A GM's own files, where the app keeps them (platformdirs on Linux: XDG data and config folders), and a
# portable BOJOVKA_HOME: none of them may be touched by installing or removing the package.
export HOME=$WORK/home
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_STATE_HOME
USER_FILES=("$HOME/.local/share/Bojovka/library.sqlite3" "$HOME/.config/Bojovka/settings.ini"
            "$HOME/.local/state/Bojovka/journal.jsonl" "$WORK/portable/encounters/my fight.bojovka")
for file in "${USER_FILES[@]}"; do
    mkdir -p "$(dirname "$file")"
    echo "a GM's own data: $file" > "$file"
done
(cd "$WORK" && find home portable -type f -exec md5sum {} + | sort > before.md5)

dpkg -i "$DEB" >"$WORK/dpkg-i.log" 2>&1 || { cat "$WORK/dpkg-i.log"; fail "dpkg -i $DEB"; }
say "installed $(dpkg-query -W -f='${Package} ${Version}' "$NAME")"

[ -x "/opt/$NAME/$NAME" ] || fail "/opt/$NAME/$NAME is not there"
[ "$(readlink -f "/usr/bin/$NAME")" = "/opt/$NAME/$NAME" ] || fail "/usr/bin/$NAME does not lead to /opt/$NAME/$NAME"
[ "$(QT_QPA_PLATFORM=offscreen "/opt/$NAME/$NAME" --selftest 2>"$WORK/err")" = ok ] \
    || { cat "$WORK/err"; fail "/opt/$NAME/$NAME --selftest"; }
[ "$(QT_QPA_PLATFORM=offscreen "$NAME" --selftest 2>"$WORK/err")" = ok ] \
    || { cat "$WORK/err"; fail "$NAME --selftest (through /usr/bin)"; }
say "the installed app's --selftest printed ok (/opt/$NAME/$NAME and /usr/bin/$NAME)"
if command -v xvfb-run >/dev/null; then
    [ "$(QT_QPA_PLATFORM=xcb xvfb-run -a "$NAME" --selftest 2>"$WORK/err")" = ok ] \
        || { cat "$WORK/err"; fail "$NAME --selftest on an X server (xvfb-run)"; }
    say "and on a real X server (xvfb-run, xcb)"
fi
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "/usr/share/applications/$NAME.desktop" || fail "the installed desktop entry is invalid"
fi
if command -v update-mime-database >/dev/null; then
    # shared-mime-info's trigger has compiled our type into the database.
    [ -f /usr/share/mime/application/x-bojovka.xml ] || fail "the MIME type application/x-bojovka was not registered"
    say "the desktop entry validates and .bojovka files are application/x-bojovka"
fi

BOJOVKA_HOME=$WORK/portable "/opt/$NAME/$NAME" --selftest >/dev/null 2>&1 || fail "--selftest with BOJOVKA_HOME"

dpkg -r "$NAME" >"$WORK/dpkg-r.log" 2>&1 || { cat "$WORK/dpkg-r.log"; fail "dpkg -r $NAME"; }
[ ! -e "/opt/$NAME" ] || fail "/opt/$NAME is still there after dpkg -r"
if [ -e "/usr/bin/$NAME" ] || [ -L "/usr/bin/$NAME" ]; then fail "/usr/bin/$NAME is still there after dpkg -r"; fi
[ ! -e "/usr/share/applications/$NAME.desktop" ] || fail "the desktop entry is still there after dpkg -r"
if command -v update-mime-database >/dev/null; then
    [ ! -f /usr/share/mime/application/x-bojovka.xml ] || fail "the MIME type is still registered after dpkg -r"
fi
(cd "$WORK" && find home portable -type f -exec md5sum {} + | sort > after.md5)
grep -F -f "$WORK/before.md5" "$WORK/after.md5" | cmp -s - "$WORK/before.md5" \
    || { diff "$WORK/before.md5" "$WORK/after.md5"; fail "the GM's own files changed"; }
say "dpkg -r removed /opt/$NAME, the command, the desktop entry and the MIME type; the GM's ${#USER_FILES[@]} files are untouched"
say "ok"
