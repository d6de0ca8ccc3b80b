#!/bin/sh
# Starts the built AppImage once before it ships: extracted (no FUSE in CI containers), under
# Xvfb, driven by Playwright's Electron driver. Passes when the window shows the admin console
# and the embedded service answers /healthz with the version just built.
#   scripts/smoke-appimage.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage 0.1.0-g1a2b3c4
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
APPIMAGE=$(realpath "$1")
VERSION="$2"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && "$APPIMAGE" --appimage-extract >/dev/null)
[ -x "$WORK/squashfs-root/boothdeck" ] || { echo "FAIL: no boothdeck executable in the AppImage"; exit 1; }
SMOKE_EXE="$WORK/squashfs-root/boothdeck" SMOKE_VERSION="$VERSION" SMOKE_DATA="$WORK/data" \
  xvfb-run -a -s "-screen 0 1280x800x24" node "$HERE/scripts/smoke-electron.mjs"
