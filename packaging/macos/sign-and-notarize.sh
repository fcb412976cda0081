#!/usr/bin/env bash
# macOS code signing and notarisation, only when the signing secrets are there.
#
#   sign-and-notarize.sh keychain        before the build: import the Developer ID certificate into a temporary
#                                        keychain and hand MACOS_SIGN_IDENTITY to the next steps (GITHUB_ENV), so
#                                        PyInstaller signs every binary with the hardened runtime and
#                                        packaging/macos/entitlements.plist
#   sign-and-notarize.sh notarize DMG    after make-dmg.sh: sign the DMG, notarise it with Apple, staple the ticket
#
# Secrets (GitHub Actions secrets, passed as environment variables):
#   MACOS_CERTIFICATE (base64 of the .p12), MACOS_CERTIFICATE_PASSWORD, MACOS_SIGN_IDENTITY
#   ("Developer ID Application: Name (TEAMID)"), APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD (app-specific).
# Without them every step says so and exits 0: the DMG is then unsigned, and a GM opens it the first time with
# right-click → Open (the README says how).
set -euo pipefail

STEP=${1:?usage: sign-and-notarize.sh keychain | notarize DMG}
KEYCHAIN=${RUNNER_TEMP:-/tmp}/bojovka-signing.keychain-db

have() { for name in "$@"; do [ -n "${!name:-}" ] || return 1; done; }

case "$STEP" in
keychain)
    if ! have MACOS_CERTIFICATE MACOS_CERTIFICATE_PASSWORD MACOS_SIGN_IDENTITY; then
        echo "sign: no signing certificate in the secrets; the app stays ad-hoc signed"
        exit 0
    fi
    PASSWORD=$(uuidgen)
    security create-keychain -p "$PASSWORD" "$KEYCHAIN"
    security set-keychain-settings -lut 21600 "$KEYCHAIN"
    security unlock-keychain -p "$PASSWORD" "$KEYCHAIN"
    echo "$MACOS_CERTIFICATE" | base64 --decode > "$KEYCHAIN.p12"
    security import "$KEYCHAIN.p12" -k "$KEYCHAIN" -P "$MACOS_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
    rm -f "$KEYCHAIN.p12"
    security set-key-partition-list -S apple-tool:,apple: -s -k "$PASSWORD" "$KEYCHAIN" >/dev/null
    mapfile -t KEYCHAINS < <(security list-keychains -d user | tr -d '" ')
    security list-keychains -d user -s "$KEYCHAIN" "${KEYCHAINS[@]}"
    if [ -n "${GITHUB_ENV:-}" ]; then
        echo "MACOS_SIGN_IDENTITY=$MACOS_SIGN_IDENTITY" >> "$GITHUB_ENV"
    fi
    echo "sign: certificate imported; the build signs with it"
    ;;
notarize)
    DMG=${2:?usage: sign-and-notarize.sh notarize DMG}
    if ! have MACOS_SIGN_IDENTITY APPLE_ID APPLE_TEAM_ID APPLE_APP_PASSWORD; then
        echo "notarize: no Apple notarisation credentials in the secrets; $DMG stays unsigned"
        exit 0
    fi
    codesign --verify --deep --strict --verbose=2 "$(dirname "$DMG")/Bojovka.app"
    codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$DMG"
    xcrun notarytool submit "$DMG" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
        --password "$APPLE_APP_PASSWORD" --wait
    xcrun stapler staple "$DMG"
    spctl --assess --type open --context context:primary-signature --verbose=2 "$DMG"
    echo "notarize: $DMG signed, notarised and stapled"
    ;;
*)
    echo "usage: sign-and-notarize.sh keychain | notarize DMG" >&2
    exit 2
    ;;
esac
