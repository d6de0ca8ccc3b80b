#!/bin/sh
# Installs a built AppImage on the booth over ssh: refuses to restart during an event unless
# forced, creates the folders, unit and environment file on a first deploy, switches the
# `current` link atomically, restarts, and keeps the new release only if /healthz reports its
# version; otherwise the previous release is put back. The booth side is deploy/remote.sh.
#
#   scripts/deploy.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage
#
# Environment: BOOTH_HOST, BOOTH_USER, BOOTH_SSH_KEY (private key text), BOOTH_KNOWN_HOSTS;
# BOOTH_FORCE=1 to restart during an event; BOOTH_QUIET_MINUTES (30), BOOTH_HEALTH_ATTEMPTS (45),
# BOOTH_HEALTH_WAIT (2 s between attempts).
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
APPIMAGE="${1:?usage: scripts/deploy.sh path/to/Boothdeck-VERSION-arm64.AppImage}"
: "${BOOTH_HOST:?}" "${BOOTH_USER:?}" "${BOOTH_SSH_KEY:?}" "${BOOTH_KNOWN_HOSTS:?}"
FORCE="${BOOTH_FORCE:-0}"
case "$FORCE" in true | 1) FORCE=1 ;; *) FORCE=0 ;; esac

NAME=$(basename "$APPIMAGE")
VERSION=$(printf '%s\n' "$NAME" | sed -n 's/^Boothdeck-\(.*\)-arm64\.AppImage$/\1/p')
if [ -z "$VERSION" ] || [ ! -f "$APPIMAGE" ]; then
  echo "Not a Boothdeck arm64 AppImage: $APPIMAGE" >&2
  exit 64
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf '%s\n' "$BOOTH_SSH_KEY" >"$WORK/key"
printf '%s\n' "$BOOTH_KNOWN_HOSTS" >"$WORK/known_hosts"
chmod 600 "$WORK/key"
TARGET="$BOOTH_USER@$BOOTH_HOST"
remote() {
  ssh -i "$WORK/key" -o UserKnownHostsFile="$WORK/known_hosts" -o StrictHostKeyChecking=yes -o BatchMode=yes \
    "$TARGET" sh -s -- "$@" <"$HERE/deploy/remote.sh"
}

echo "Deploying Boothdeck $VERSION to $TARGET"
set +e
remote preflight "$FORCE" "${BOOTH_QUIET_MINUTES:-30}"
STATUS=$?
set -e
if [ "$STATUS" -eq 75 ]; then
  if [ "${GITHUB_ACTIONS:-}" = "true" ]; then
    echo "::error title=Deploy refused::An event is under way on the booth with photos in the last ${BOOTH_QUIET_MINUTES:-30} minutes. Run the workflow again later, or by hand with force."
  fi
  exit 75
fi
[ "$STATUS" -eq 0 ] || exit "$STATUS"

scp -i "$WORK/key" -o UserKnownHostsFile="$WORK/known_hosts" -o StrictHostKeyChecking=yes -o BatchMode=yes \
  "$APPIMAGE" "$HERE/deploy/boothdeck.service" "$HERE/deploy/boothdeck.env.example" "$TARGET:boothdeck/incoming/"
remote install "$NAME" "$VERSION" "${BOOTH_HEALTH_ATTEMPTS:-45}" "${BOOTH_HEALTH_WAIT:-2}"
