#!/bin/sh
# ensure-debian-packages.sh PURPOSE WITHOUT_THEM PACKAGE...
#
# Installs the Debian packages PURPOSE needs that are missing, when run as root with apt-get (as on CI);
# otherwise names them and says what happens without them (WITHOUT_THEM). On other systems there is nothing to do.
# One script for every `make` target that needs a system package, so each says the same things the same way.
set -eu
purpose=$1
without_them=$2
shift 2
[ "$(uname -s)" = Linux ] || exit 0
if ! command -v dpkg-query >/dev/null; then
    echo "$purpose needs these packages (Debian names): $*; $without_them"
    exit 0
fi
missing=""
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing what $purpose needs:$missing"
    apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
else
    echo "$purpose needs:$missing (e.g. sudo apt-get install$missing); $without_them"
fi
