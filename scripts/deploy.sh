#!/bin/sh
# Installs a built AppImage on a booth, or puts its previous release back. The booth side is
# deploy/boothdeck-deploy (see there): it checks for an event under way and for free space, takes
# the upload, then installs detached from this connection under one lock, tries the new release
# on a spare port before it stops the running one, and logs every step to ~/boothdeck/deploy.log.
#
#   scripts/deploy.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage
#   scripts/deploy.sh --rollback
#
# Where the booth is:
#   - here (the pipeline's self-hosted runner on the booth): BOOTH_HOST unset. BOOTH_USER is the
#     booth's user when the runner has its own (commands then go through `sudo -n -u BOOTH_USER`).
#   - over ssh (by hand, from the booth's network or a VPN): BOOTH_HOST, BOOTH_USER, BOOTH_SSH_KEY
#     (private key text), BOOTH_KNOWN_HOSTS.
# BOOTH_FORCE=1 restarts during an event; BOOTH_QUIET_MINUTES (30), BOOTH_HEALTH_ATTEMPTS (60),
# BOOTH_HEALTH_WAIT (2 s between attempts) tune the guard and the health checks.
set -eu
case "$0" in */*) HERE=${0%/*}/.. ;; *) HERE=.. ;; esac
MODE=install
if [ "${1:-}" = --rollback ]; then
  MODE=rollback
  shift
fi
FORCE="${BOOTH_FORCE:-0}"
case "$FORCE" in true | 1) FORCE=1 ;; *) FORCE=0 ;; esac
number() { case "$2" in '' | *[!0-9.]*) echo "$1 must be a number" >&2 && exit 64 ;; esac; }
QUIET="${BOOTH_QUIET_MINUTES:-30}" ATTEMPTS="${BOOTH_HEALTH_ATTEMPTS:-60}" WAIT="${BOOTH_HEALTH_WAIT:-2}"
number BOOTH_QUIET_MINUTES "$QUIET"
number BOOTH_HEALTH_ATTEMPTS "$ATTEMPTS"
number BOOTH_HEALTH_WAIT "$WAIT"

if [ "$MODE" = install ]; then
  APPIMAGE="${1:?usage: scripts/deploy.sh path/to/Boothdeck-VERSION-arm64.AppImage | --rollback}"
  NAME=${APPIMAGE##*/}
  VERSION=''
  case "$NAME" in Boothdeck-?*-arm64.AppImage) VERSION=${NAME#Boothdeck-} && VERSION=${VERSION%-arm64.AppImage} ;; esac
  case "$VERSION" in *[!A-Za-z0-9._-]*) VERSION='' ;; esac
  if [ -z "$VERSION" ] || [ ! -f "$APPIMAGE" ]; then
    echo "Not a Boothdeck arm64 AppImage: $APPIMAGE" >&2
    exit 64
  fi
  ID="$VERSION-$(date -u +%Y%m%dT%H%M%SZ)-$$"
else
  ID="rollback-$(date -u +%Y%m%dT%H%M%SZ)-$$"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
tar -cf "$WORK/kit.tar" -C "$HERE/deploy" boothdeck-deploy lib/common.sh lib/install.sh boothdeck.service boothdeck.env.example

# Runs one fixed command line (built only from the checked tokens above) as the booth's user.
if [ -n "${BOOTH_HOST:-}" ]; then
  : "${BOOTH_USER:?}" "${BOOTH_SSH_KEY:?}" "${BOOTH_KNOWN_HOSTS:?}"
  printf '%s\n' "$BOOTH_SSH_KEY" >"$WORK/key"
  printf '%s\n' "$BOOTH_KNOWN_HOSTS" >"$WORK/known_hosts"
  chmod 600 "$WORK/key"
  WHERE="$BOOTH_USER@$BOOTH_HOST"
  # A booth that does not answer fails in 15 s; a link that dies is noticed within a minute.
  booth() {
    ssh -i "$WORK/key" -o UserKnownHostsFile="$WORK/known_hosts" -o StrictHostKeyChecking=yes -o BatchMode=yes \
      -o ConnectTimeout=15 -o ServerAliveInterval=15 -o ServerAliveCountMax=4 "$WHERE" "$1"
  }
elif ME=$(id -un) && [ -n "${BOOTH_USER:-}" ] && [ "$BOOTH_USER" != "$ME" ]; then
  WHERE="$BOOTH_USER on this machine"
  booth() { sudo -n -H -u "$BOOTH_USER" -- sh -c "cd && $1"; }
else
  WHERE="$ME on this machine"
  booth() { (cd && eval "$1"); }
fi

TUNING="BOOTHDECK_QUIET_MINUTES=$QUIET BOOTHDECK_HEALTH_ATTEMPTS=$ATTEMPTS BOOTHDECK_HEALTH_WAIT=$WAIT"
KIT="\"\$HOME/boothdeck/incoming/$ID\""
TOOL="$TUNING sh $KIT/boothdeck-deploy"

annotate() {
  [ "${GITHUB_ACTIONS:-}" = true ] || return 0
  case "$1" in
    73) echo "::error title=Deploy refused::Another deploy is under way on the booth. Run the workflow again once it has finished." ;;
    74) echo "::error title=Deploy refused::Not enough free space on the booth (see the lines above)." ;;
    75) echo "::error title=Deploy refused::An event is under way on the booth with photos in the last $QUIET minutes. Run the workflow again later, or by hand with force." ;;
    *) echo "::error title=Deploy failed::See the lines above and ~/boothdeck/deploy.log on the booth." ;;
  esac
}

step() {
  set +e
  "$@"
  STATUS=$?
  set -e
  if [ "$STATUS" -ne 0 ]; then
    annotate "$STATUS"
    exit "$STATUS"
  fi
}

if [ "$MODE" = install ]; then echo "Deploying Boothdeck $VERSION to $WHERE"; else echo "Rolling back Boothdeck on $WHERE"; fi
# The kit goes with the first command: one connection for both.
UNPACK="umask 022 && mkdir -p $KIT && tar -xf - -C $KIT"
if [ "$MODE" = rollback ]; then
  step booth "$UNPACK && $TOOL start $ID rollback" <"$WORK/kit.tar"
  exit 0
fi
step booth "$UNPACK && $TOOL guard $ID $FORCE" <"$WORK/kit.tar"
SIZE=$(($(wc -c <"$APPIMAGE")))
SUM=$(sha256sum "$APPIMAGE")
step booth "$TOOL receive $ID $NAME $SIZE ${SUM%% *}" <"$APPIMAGE"
step booth "$TOOL start $ID install $NAME $VERSION $FORCE"
