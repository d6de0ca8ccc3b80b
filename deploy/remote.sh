#!/bin/sh
# Runs ON THE BOOTH, fed over ssh by scripts/deploy.sh (`ssh booth sh -s -- <phase> ...`).
#   preflight FORCE QUIET_MINUTES      folders for a first deploy, then the event guard
#   install NAME VERSION ATTEMPTS WAIT  unit + env file, switch to releases/NAME, restart,
#                                       check /healthz reports VERSION, else roll back
# Every line it prints also goes to ~/boothdeck/deploy.log on the booth.
set -eu
ROOT="$HOME/boothdeck"
UNIT_DIR="$HOME/.config/systemd/user"
ENV_DIR="$HOME/.config/boothdeck"
ENV_FILE="$ENV_DIR/boothdeck.env"
mkdir -p "$ROOT/releases" "$ROOT/incoming"
cd "$ROOT"

say() {
  printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >>"$ROOT/deploy.log"
  printf '%s\n' "$*"
}

port() {
  P=$(sed -n 's/^BOOTHDECK_PORT=\([0-9][0-9]*\)[[:space:]]*$/\1/p' "$ENV_FILE" 2>/dev/null | tail -n 1)
  printf '%s\n' "${P:-8080}"
}

health() {
  curl -fsS --max-time 3 "http://127.0.0.1:$(port)/healthz" 2>/dev/null || true
}

# Reads one field of /healthz's flat JSON without jq (absent on a stock Raspberry Pi OS).
field() {
  printf '%s' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p"
}

switch_to() {
  ln -sfn "$1" current.new
  mv -T current.new current
}

preflight() {
  FORCE="$1"
  QUIET_MINUTES="$2"
  BODY=$(health)
  if [ -z "$BODY" ]; then
    say "Boothdeck is not answering on this booth (first deploy, or stopped): nothing to guard"
    return 0
  fi
  ACTIVE=$(field "$BODY" event_active)
  AGE=$(field "$BODY" last_photo_age_seconds)
  RUNNING=$(field "$BODY" version)
  if [ "$ACTIVE" = "true" ] && [ -n "$AGE" ] && [ "$AGE" != "null" ] && [ "$AGE" -lt $((QUIET_MINUTES * 60)) ]; then
    if [ "$FORCE" = "1" ]; then
      say "FORCED: an event is under way (last photo $((AGE / 60)) min ago) and Boothdeck $RUNNING will be restarted anyway"
      return 0
    fi
    say "REFUSED: an event is under way on the booth (last photo $((AGE / 60)) min ago, less than $QUIET_MINUTES min): Boothdeck $RUNNING keeps running. Deploy again later, or force it."
    exit 75
  fi
  say "No photo in the last $QUIET_MINUTES min: Boothdeck $RUNNING may be restarted"
}

install_files() {
  mkdir -p "$UNIT_DIR" "$ENV_DIR"
  mv incoming/boothdeck.service "$UNIT_DIR/boothdeck.service"
  mv incoming/boothdeck.env.example "$ENV_DIR/boothdeck.env.example"
  if [ ! -e "$ENV_FILE" ]; then
    (umask 077 && cp "$ENV_DIR/boothdeck.env.example" "$ENV_FILE")
    say "Created $ENV_FILE from the template: set the PIN and capture app there"
  fi
  # Lingering starts the user's units at boot and keeps them when nobody is logged in.
  loginctl enable-linger "$(id -un)"
  systemctl --user daemon-reload
  systemctl --user enable boothdeck.service >/dev/null
}

wait_for() {
  WANT="$1"
  ATTEMPTS="$2"
  WAIT="$3"
  i=0
  while [ "$i" -lt "$ATTEMPTS" ]; do
    BODY=$(health)
    if [ -n "$BODY" ]; then
      GOT=$(field "$BODY" version)
      if [ -z "$WANT" ] || [ "$GOT" = "$WANT" ]; then return 0; fi
    fi
    i=$((i + 1))
    sleep "$WAIT"
  done
  return 1
}

install() {
  NAME="$1"
  VERSION="$2"
  ATTEMPTS="$3"
  WAIT="$4"
  case "$NAME" in */* | .* | '') say "Refusing a release name with a path: $NAME"; exit 64 ;; esac
  install_files
  mv "incoming/$NAME" "releases/$NAME"
  chmod 755 "releases/$NAME"
  PREVIOUS=$(readlink current 2>/dev/null || true)
  if [ "$PREVIOUS" = "releases/$NAME" ]; then PREVIOUS=$(readlink previous 2>/dev/null || true); fi
  switch_to "releases/$NAME"
  say "Switched to $NAME (previous: ${PREVIOUS:-none}); restarting Boothdeck"
  systemctl --user restart boothdeck.service
  if wait_for "$VERSION" "$ATTEMPTS" "$WAIT"; then
    if [ -n "$PREVIOUS" ]; then ln -sfn "$PREVIOUS" previous.new && mv -T previous.new previous; fi
    # Keep the three newest releases, and always the ones current and previous point to.
    KEEP_PREV=$(readlink previous 2>/dev/null || true)
    ls -1t releases/*.AppImage 2>/dev/null | tail -n +4 | while read -r OLD; do
      if [ "$OLD" != "releases/$NAME" ] && [ "$OLD" != "$KEEP_PREV" ]; then rm -f "$OLD"; fi
    done
    say "Boothdeck $VERSION is up and answers /healthz"
    return 0
  fi
  say "FAILED: Boothdeck did not report version $VERSION on /healthz"
  if [ -z "$PREVIOUS" ]; then
    say "No previous release to roll back to (first deploy): look at journalctl --user -u boothdeck"
    exit 1
  fi
  switch_to "$PREVIOUS"
  systemctl --user restart boothdeck.service
  if wait_for "" "$ATTEMPTS" "$WAIT"; then
    say "ROLLED BACK to $PREVIOUS, which answers /healthz again"
  else
    say "ROLLED BACK to $PREVIOUS, but it does not answer either: look at journalctl --user -u boothdeck"
  fi
  exit 1
}

PHASE="${1:-}"
shift || true
case "$PHASE" in
  preflight) preflight "$@" ;;
  install) install "$@" ;;
  *) echo "usage: remote.sh preflight FORCE QUIET_MINUTES | install NAME VERSION ATTEMPTS WAIT" >&2; exit 64 ;;
esac
