#!/bin/sh
# Installs a built AppImage on a booth, or puts its previous release back. The booth side is the
# deploy program (deploy/src, built into the kit dist/deploy by npm run build:deploy): it checks
# for an event under way and for free space, takes the upload, then installs detached from this
# connection under one lock, tries the new release on a spare port before it stops the running
# one, switches through a journal, watches the new release, and logs every step on the booth.
#
#   scripts/deploy.sh release/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage
#   scripts/deploy.sh --check Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage SIZE   guard and space only,
#                                                   before the pipeline downloads the artifact
#   scripts/deploy.sh --rollback                    (the booth's own installed tool)
#
# Where the booth is:
#   - here (the pipeline's self-hosted runner on the booth): BOOTH_HOST unset. BOOTH_USER is the
#     booth's user when the runner has its own: then the request and the files go into the inbox
#     (BOOTH_INBOX, /var/lib/boothdeck-inbox) and the one command sudoers allows runs
#     (`sudo -n -u BOOTH_USER ~BOOTH_USER/boothdeck/bin/boothdeck-deploy inbox`; BOOTH_TOOL overrides).
#   - over ssh (by hand, from the booth's network or a VPN): BOOTH_HOST, BOOTH_USER, BOOTH_SSH_KEY
#     (private key text), BOOTH_KNOWN_HOSTS.
# BOOTH_KIT is the built kit (dist/deploy). BOOTH_FORCE=1 restarts during an event (rollback too);
# BOOTH_QUIET_MINUTES (30), BOOTH_HEALTH_ATTEMPTS (60), BOOTH_HEALTH_WAIT (2 s between attempts),
# BOOTH_WATCH_SECONDS (60: how long the new release must stay up) and BOOTH_GUARD_GAP_SECONDS (30)
# tune the booth's checks; BOOTH_RELEASE_DATE is the build's date for the fleet page. A FLEET line
# ends the output; in a GitHub job it becomes a row of the job summary (and of BOOTH_FLEET_ROW, a file).
set -eu
case "$0" in */*) HERE=${0%/*}/.. ;; *) HERE=.. ;; esac
MODE=install
case "${1:-}" in
  --rollback) MODE=rollback && shift ;;
  --check) MODE=check && shift ;;
esac
FORCE="${BOOTH_FORCE:-0}"
case "$FORCE" in true | 1) FORCE=1 ;; *) FORCE=0 ;; esac
number() { case "$2" in '' | *[!0-9.]*) echo "$1 must be a number" >&2 && exit 64 ;; esac; }
QUIET="${BOOTH_QUIET_MINUTES:-30}" ATTEMPTS="${BOOTH_HEALTH_ATTEMPTS:-60}" WAIT="${BOOTH_HEALTH_WAIT:-2}"
WATCH="${BOOTH_WATCH_SECONDS:-60}" GAP="${BOOTH_GUARD_GAP_SECONDS:-30}"
number BOOTH_QUIET_MINUTES "$QUIET"
number BOOTH_HEALTH_ATTEMPTS "$ATTEMPTS"
number BOOTH_HEALTH_WAIT "$WAIT"
number BOOTH_WATCH_SECONDS "$WATCH"
number BOOTH_GUARD_GAP_SECONDS "$GAP"
KIT_DIR="${BOOTH_KIT:-$HERE/dist/deploy}"

if [ "$MODE" != rollback ]; then
  APPIMAGE="${1:?usage: scripts/deploy.sh path/to/Boothdeck-VERSION-arm64.AppImage | --check NAME SIZE | --rollback}"
  NAME=${APPIMAGE##*/}
  VERSION=''
  case "$NAME" in Boothdeck-?*-arm64.AppImage) VERSION=${NAME#Boothdeck-} && VERSION=${VERSION%-arm64.AppImage} ;; esac
  case "$VERSION" in *[!A-Za-z0-9._-]*) VERSION='' ;; esac
  if [ "$MODE" = check ]; then
    SIZE=${2:-}
    case "$SIZE" in '' | *[!0-9]*) echo "usage: scripts/deploy.sh --check NAME SIZE" >&2 && exit 64 ;; esac
  fi
  if [ -z "$VERSION" ] || { [ "$MODE" = install ] && [ ! -f "$APPIMAGE" ]; }; then
    echo "Not a Boothdeck arm64 AppImage: $APPIMAGE" >&2
    exit 64
  fi
  if [ ! -f "$KIT_DIR/lib/boothdeck-deploy.mjs" ]; then
    echo "No deploy kit in $KIT_DIR: build it first (npm run build:deploy)" >&2
    exit 64
  fi
  ID="$VERSION-$(date -u +%Y%m%dT%H%M%SZ)-$$"
  [ "$MODE" = install ] || ID="check-$ID"
else
  ID="rollback-$(date -u +%Y%m%dT%H%M%SZ)-$$"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[ "$MODE" = rollback ] || tar -cf "$WORK/kit.tar" -C "$KIT_DIR" .
DATE="${BOOTH_RELEASE_DATE:-}"
case "$DATE" in *[!0-9TZ:.-]*) DATE='' ;; esac

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
  INBOX="${BOOTH_INBOX:-/var/lib/boothdeck-inbox}"
  TOOL_PATH="${BOOTH_TOOL:-$(getent passwd "$BOOTH_USER" | cut -d: -f6)/boothdeck/bin/boothdeck-deploy}"
  RUNNER_INBOX=1
else
  WHERE="$ME on this machine"
  booth() { (cd && eval "$1"); }
fi

TUNING="BOOTHDECK_QUIET_MINUTES=$QUIET BOOTHDECK_HEALTH_ATTEMPTS=$ATTEMPTS BOOTHDECK_HEALTH_WAIT=$WAIT BOOTHDECK_WATCH_SECONDS=$WATCH BOOTHDECK_GUARD_GAP_SECONDS=$GAP"
KIT="\"\$HOME/boothdeck/incoming/$ID\""
TOOL="$TUNING sh $KIT/boothdeck-deploy"
INSTALLED="$TUNING sh \"\$HOME/boothdeck/bin/boothdeck-deploy\""

# The runner with a user of its own: the request is data in the inbox, and the one command sudoers
# allows reads it (deploy/sudoers.boothdeck-runner). Nothing else runs as the booth's user.
inbox_request() {
  rm -rf "${INBOX:?}/request" "$INBOX/kit" "$INBOX"/*.AppImage
  mkdir -p "$INBOX/kit"
  [ "$1" = rollback ] || tar -xf "$WORK/kit.tar" -C "$INBOX/kit"
  {
    printf 'action=%s\nid=%s\nforce=%s\n' "$1" "$ID" "$FORCE"
    [ "$1" = rollback ] || printf 'version=%s\nfile=%s\nsize=%s\n' "$VERSION" "$NAME" "$SIZE"
    [ "$1" != install ] || printf 'sha256=%s\n' "$SHA"
    [ -z "$DATE" ] || printf 'date=%s\n' "$DATE"
  } >"$INBOX/request.tmp"
  mv -f "$INBOX/request.tmp" "$INBOX/request"
  if [ "$1" = install ]; then cp "$APPIMAGE" "$INBOX/$NAME"; fi
  chmod -R g+rX,o-rwx "$INBOX"
  sudo -n -u "$BOOTH_USER" "$TOOL_PATH" inbox
}

# The booth's FLEET line is a row of the job's summary (and of BOOTH_FLEET_ROW for the run's table).
summary() {
  row=$(printf '%s\n' "$1" | sed -n 's/^FLEET \(| .* |\)$/\1/p' | tail -n 1)
  [ -n "$row" ] || return 0
  [ -z "${BOOTH_FLEET_ROW:-}" ] || printf '%s\n' "$row" >"$BOOTH_FLEET_ROW"
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || printf '| Booth | Version | Release date | Last deploy | When | Event | Detail |\n|---|---|---|---|---|---|---|\n%s\n' "$row" >>"$GITHUB_STEP_SUMMARY"
}

annotate() {
  [ "${GITHUB_ACTIONS:-}" = true ] || return 0
  case "$1" in
    73) echo "::error title=Deploy refused::Another deploy is under way on the booth. Run the workflow again once it has finished." ;;
    74) echo "::error title=Deploy refused::Not enough free space on the booth (see the lines above)." ;;
    75) echo "::notice title=Deploy deferred::An event is under way on the booth (or the guard could not tell). The booth installs the release by itself once it is over (pull timer), or run the workflow for this booth with force." ;;
    *) echo "::error title=Deploy failed::See the lines above and ~/boothdeck/deploy.log on the booth." ;;
  esac
}

# Runs one step, its output shown as it comes and kept for the summary; stops on a refusal.
step() {
  set +e
  { "$@" 2>&1; echo "$?" >"$WORK/rc"; } | tee "$WORK/out"
  STATUS=$(cat "$WORK/rc" 2>/dev/null) || STATUS=70
  set -e
  summary "$(cat "$WORK/out")"
  if [ "$STATUS" -ne 0 ]; then
    annotate "$STATUS"
    # A deferred deploy is not a failure: the booth takes the release after the event by itself.
    [ "$STATUS" -ne 75 ] || [ "${BOOTH_DEFER_OK:-0}" != 1 ] || exit 0
    exit "$STATUS"
  fi
}

case "$MODE" in
  install) echo "Deploying Boothdeck $VERSION to $WHERE" ;;
  check) echo "Checking that $WHERE can take Boothdeck $VERSION ($((SIZE / 1048576)) MB) before the download" ;;
  *) echo "Rolling back Boothdeck on $WHERE" ;;
esac
if [ -n "${RUNNER_INBOX:-}" ]; then
  case "$MODE" in
    check) step inbox_request check ;;
    rollback) step inbox_request rollback ;;
    install)
      SIZE=$(($(wc -c <"$APPIMAGE")))
      SHA=$(sha256sum "$APPIMAGE")
      SHA=${SHA%% *}
      step inbox_request install
      rm -f "${INBOX:?}/$NAME"
      ;;
  esac
  exit 0
fi
if [ "$MODE" = rollback ]; then
  step booth "$INSTALLED start $ID rollback $FORCE"
  exit 0
fi
# The kit goes with the first command: one connection for both.
UNPACK="umask 022 && mkdir -p $KIT && tar -xf - -C $KIT"
if [ "$MODE" = check ]; then
  step booth "$UNPACK && $TOOL check $ID $SIZE $FORCE" <"$WORK/kit.tar"
  exit 0
fi
SIZE=$(($(wc -c <"$APPIMAGE")))
SUM=$(sha256sum "$APPIMAGE")
step booth "$UNPACK && $TOOL check $ID $SIZE $FORCE" <"$WORK/kit.tar"
step booth "$TOOL receive $ID $NAME $SIZE ${SUM%% *} $DATE" <"$APPIMAGE"
step booth "$TOOL start $ID install $NAME $VERSION $FORCE"
