# Sourced by deploy/boothdeck-deploy: the two ways a release reaches a booth without a shell.
#
# pull (the boothdeck-pull.timer's, every 15 min): reads BOOTHDECK_RELEASES_URL from fleet.env,
# where the pipeline publishes each build of main with boothdeck-release.txt naming the newest
# (version=, file=, size=, sha256=, date=); BOOTHDECK_RELEASES_URL=private reads a private store
# (a private repository's releases, or an HTTPS folder behind a token) through the root-owned
# fetch helper, which alone reads the read-only token (deploy/boothdeck-fetch, installed by
# boothdeck-system). A booth that runs an older release (however many it
# missed) checks the guard and its space first, downloads only then, and installs it through the
# same lock, trial start and checked switch as a pushed deploy. In an event it says "deferred" and
# the next tick tries again; a release that failed on this booth, or that it was rolled back from,
# is not tried again.
#
# inbox (the runner's one command, allowed by deploy/sudoers.boothdeck-runner): the runner's own
# user writes a request and the files into the inbox folder (BOOTHDECK_INBOX in fleet.env,
# /var/lib/boothdeck-inbox by default); this reads the request as data, checks every field, and
# runs check, install or rollback. No word of the request reaches a shell.

PULL_LIMIT=65536
FETCH_HELPER=/usr/local/libexec/boothdeck/boothdeck-fetch

# The store's file NAME on standard output, at most MAX bytes (the rest is cut; a release cut short
# then fails its size and checksum), within TIMEOUT seconds; fails as the download did. A private
# store is asked through the helper: its token never reaches this user, its children or the logs.
fetch() {
  rc_file="$INCOMING/fetch-$$.rc"
  {
    if [ "$url" = private ]; then
      if sudo -n "$FETCH_HELPER" "$1" "$2" 2>>"$LOG"; then rc=0; else rc=$?; fi
    elif curl -fsSL --max-time "$3" --max-filesize "$2" "$url/$1" 2>>"$LOG"; then rc=0; else rc=$?; fi
    echo "$rc" >"$rc_file"
  } | head -c "$2"
  rc=1
  { read -r rc <"$rc_file"; } 2>/dev/null || true
  rm -f "$rc_file"
  return "$rc"
}

# Reads KEY=VALUE lines (at most 40, each short) into MF_* variables; 1 on anything malformed.
read_manifest() {
  MF_action='' MF_id='' MF_version='' MF_file='' MF_size='' MF_sha256='' MF_date='' MF_force=0
  n=0
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    [ "$n" -le 40 ] || return 1
    case "$line" in '' | '#'*) continue ;; esac
    key=${line%%=*} value=${line#*=}
    case "$key" in
      action | id | version | file) valid_token "$value" || return 1 ;;
      size) is_number "$value" || return 1 ;;
      sha256) case "$value" in *[!0-9a-f]* | '') return 1 ;; esac ;;
      date) case "$value" in *[!0-9TZ:.-]* | '') return 1 ;; esac ;;
      force) case "$value" in 0 | 1) ;; *) return 1 ;; esac ;;
      *) continue ;;
    esac
    eval "MF_$key=\$value"
  done <"$1"
}

pull_cmd() {
  fleet_value BOOTHDECK_RELEASES_URL
  url=$VALUE
  if [ -z "$url" ]; then
    note "Pull: no BOOTHDECK_RELEASES_URL in $FLEET_ENV: this booth gets releases only when the pipeline pushes them"
    exit 0
  fi
  if ! lock_is_free; then
    note "Pull: another deploy is under way; the next tick looks again"
    exit 0
  fi
  # A deploy killed halfway (power cut during a switch) is settled by the next tick.
  if [ -f "$STATE" ]; then
    ( start_cmd "$(new_id recover)" recover ) || true
  fi
  tmp="$INCOMING/pull-manifest"
  if ! fetch boothdeck-release.txt "$PULL_LIMIT" 60 >"$tmp"; then
    rm -f "$tmp"
    if [ "$url" = private ] && [ ! -x "$FETCH_HELPER" ]; then
      die 1 "Pull: BOOTHDECK_RELEASES_URL=private, but the private store's fetch helper is not installed: run once on the booth: sudo sh ~/boothdeck/bin/boothdeck-system install, then sudo sh ~/boothdeck/bin/boothdeck-system store github=OWNER/REPO (docs/deployment.md)"
    fi
    where=$url
    [ "$url" != private ] || where='the private release store'
    note "Pull: boothdeck-release.txt could not be read from $where (offline? refused?); the next tick tries again"
    exit 0
  fi
  if ! read_manifest "$tmp" || [ -z "$MF_version" ] || [ -z "$MF_file" ] || [ -z "$MF_size" ] || [ -z "$MF_sha256" ]; then
    rm -f "$tmp"
    die 1 "Pull: boothdeck-release.txt is malformed; nothing was downloaded"
  fi
  rm -f "$tmp"
  version_of "$MF_file" && [ "$VERSION_OF" = "$MF_version" ] || die 1 "Pull: $MF_file is not the release of $MF_version"
  link_of current
  if [ "$LINK" = "releases/$MF_file" ]; then
    EVENT_STATE=''
    event_guard 0 >/dev/null 2>&1 || true
    fleet_report up-to-date
    fleet_publish
    exit 0
  fi
  if [ -e "$ROOT/failed/$MF_file" ] || [ -e "$ROOT/held/$MF_file" ]; then
    note "Pull: $MF_version failed or was rolled back on this booth; waiting for a newer release"
    exit 0
  fi
  id=$(new_id "$MF_version")
  RUN_ID=$id
  note "Pull: $MF_version is published (this booth runs ${LINK:-nothing}); checking before the download"
  mkdir -p "$INCOMING/$id"
  if "$SELF" check "$id" "$MF_size" 0; then :; else
    rc=$?
    [ "$rc" -eq 75 ] || [ "$rc" -eq 73 ] || exit "$rc"
    note "Pull: deferred; the next tick tries again"
    exit 0
  fi
  mkdir -p "$INCOMING/$id"
  if [ -f "$RELEASES/$MF_file" ] && [ "$(sha256sum <"$RELEASES/$MF_file")" = "$MF_sha256  -" ]; then
    cp -p "$RELEASES/$MF_file" "$INCOMING/$id/$MF_file"
    note "Pull: $MF_file is already on the booth (stored before an event): nothing to download"
  else
    fetch "$MF_file" "$MF_size" 1800 |
      "$SELF" receive "$id" "$MF_file" "$MF_size" "$MF_sha256" "$MF_date" || exit $?
  fi
  release_date "$MF_file" "$MF_date"
  start_cmd "$id" install "$MF_file" "$MF_version" 0
}

KIT_FILES='boothdeck-deploy boothdeck-system boothdeck-fetch boothdeck.service boothdeck-pull.service boothdeck-pull.timer boothdeck.env.example lib/common.sh lib/install.sh lib/trial.sh lib/database.sh lib/fleet.sh lib/fleet.py lib/pull.sh'

inbox_cmd() {
  fleet_value BOOTHDECK_INBOX
  inbox=${VALUE:-/var/lib/boothdeck-inbox}
  [ -f "$inbox/request" ] || die 64 "No request in $inbox"
  read_manifest "$inbox/request" || die 64 "Refusing a malformed request in $inbox"
  [ -n "$MF_id" ] || die 64 "Refusing a request without an id"
  case "$MF_action" in
    check)
      is_number "$MF_size" || die 64 "Refusing a check without a size"
      mkdir -p "$INCOMING/$MF_id"
      exec "$SELF" check "$MF_id" "$MF_size" "$MF_force"
      ;;
    install)
      [ -n "$MF_file" ] && [ -n "$MF_version" ] && [ -n "$MF_size" ] && [ -n "$MF_sha256" ] || die 64 "Refusing an incomplete install request"
      version_of "$MF_file" && [ "$VERSION_OF" = "$MF_version" ] || die 64 "Refusing $MF_file: not the release of $MF_version"
      [ -f "$inbox/$MF_file" ] || die 64 "Nothing to install: $inbox/$MF_file is missing"
      dir="$INCOMING/$MF_id"
      mkdir -p "$dir/lib"
      # The kit: only the files it is made of, copied (never run) from the inbox.
      for f in $KIT_FILES; do
        [ ! -f "$inbox/kit/$f" ] || cp "$inbox/kit/$f" "$dir/$f"
      done
      "$SELF" receive "$MF_id" "$MF_file" "$MF_size" "$MF_sha256" "$MF_date" <"$inbox/$MF_file" || exit $?
      exec "$SELF" start "$MF_id" install "$MF_file" "$MF_version" "$MF_force"
      ;;
    rollback) exec "$SELF" start "$MF_id" rollback "$MF_force" ;;
    *) die 64 "Refusing an unknown request: $MF_action" ;;
  esac
}
