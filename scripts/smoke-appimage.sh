#!/bin/sh
# Starts the built AppImage before it ships, as a booth will:
#   1. the deploy's trial start (scripts/smoke-trial.sh): windowless, on the spare port, it must
#      answer /healthz with the version just built, then stop when told;
#   2. the kiosk, extracted (no FUSE in CI containers), under Xvfb, driven by Playwright's Electron
#      driver: the window must show the admin console and /healthz report the version just built.
# Each part has a time limit, so a release that hangs fails the build instead of holding it.
#   scripts/smoke-appimage.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage 0.1.0-g1a2b3c4
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
APPIMAGE=$(realpath "$1")
VERSION="$2"
sh "$HERE/scripts/smoke-trial.sh" "$APPIMAGE" "$VERSION"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && "$APPIMAGE" --appimage-extract >/dev/null)
[ -x "$WORK/squashfs-root/boothdeck" ] || { echo "FAIL: no boothdeck executable in the AppImage"; exit 1; }
if ! SMOKE_EXE="$WORK/squashfs-root/boothdeck" SMOKE_VERSION="$VERSION" SMOKE_DATA="$WORK/data" \
  timeout -k 10 "${SMOKE_KIOSK_TIMEOUT:-300}" xvfb-run -a -s "-screen 0 1280x800x24" node "$HERE/scripts/smoke-electron.mjs"; then
  echo "FAIL: the kiosk did not show the console with /healthz reporting $VERSION (or took over ${SMOKE_KIOSK_TIMEOUT:-300} s)"
  exit 1
fi
