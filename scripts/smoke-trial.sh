#!/bin/sh
# The deploy's trial start (`boothdeck-deploy trial`, deploy/src/booth/trial.ts: the very code a
# booth runs before it stops the release it runs), tried on a built AppImage. Windowless (no
# DISPLAY, no Wayland), on the spare port, with fake hardware and no database yet, the release must
# answer /healthz with the version just built; then it is stopped as a deploy stops it.
#   scripts/smoke-trial.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage 0.1.0-g1a2b3c4
# SMOKE_TRIAL_TIMEOUT (s, default 240) bounds the wait for /healthz; the whole try ends 60 s later
# at most. SMOKE_LIVE_PORT (8080) stands for the booth's port: the trial takes it + 10000.
# SMOKE_KIT is the built deploy kit (dist/deploy, npm run build:deploy).
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
APPIMAGE=$(realpath "$1")
VERSION="$2"
LIMIT="${SMOKE_TRIAL_TIMEOUT:-240}"
KIT="${SMOKE_KIT:-$HERE/dist/deploy}"
BOOTH=$(mktemp -d)
# A try cut short by the timeout leaves the trial instance running: its whole process group goes.
cleanup() {
  pid=$(cat "$BOOTH/boothdeck/trial.pid" 2>/dev/null) || pid=''
  [ -z "$pid" ] || kill -s KILL -- "-$pid" 2>/dev/null || true
  rm -rf "$BOOTH"
}
trap cleanup EXIT

NAME="Boothdeck-$VERSION-arm64.AppImage"
mkdir -p "$BOOTH/boothdeck/releases" "$BOOTH/boothdeck/runs" "$BOOTH/.config/boothdeck"
# CI containers have no FUSE and run as root: the AppImage extracts itself, as on a booth without
# FUSE 2 (deploy.env), and Chromium's sandbox is off (the booth's own user keeps it).
ln -s "$APPIMAGE" "$BOOTH/boothdeck/releases/built.AppImage"
# shellcheck disable=SC2016 # expanded when the release starts
printf '#!/bin/sh\nexec "${0%%/*}/built.AppImage" --no-sandbox "$@"\n' >"$BOOTH/boothdeck/releases/$NAME"
chmod 755 "$BOOTH/boothdeck/releases/$NAME"
printf 'APPIMAGE_EXTRACT_AND_RUN=1\n' >"$BOOTH/.config/boothdeck/deploy.env"
printf 'BOOTHDECK_PORT=%s\n' "${SMOKE_LIVE_PORT:-8080}" >"$BOOTH/.config/boothdeck/boothdeck.env"

if HOME="$BOOTH" BOOTHDECK_HEALTH_ATTEMPTS="$LIMIT" BOOTHDECK_HEALTH_WAIT=1 \
  timeout "$((LIMIT + 60))" node "$KIT/lib/boothdeck-deploy.mjs" trial "releases/$NAME" "$VERSION"; then
  echo "Trial start passed: $VERSION answered /healthz without a window, then stopped"
else
  rc=$?
  if [ "$rc" -eq 124 ]; then echo "FAIL: the trial start did not end within $((LIMIT + 60)) s"; else echo "FAIL: the trial start of $VERSION did not pass (exit $rc)"; fi
  exit 1
fi
