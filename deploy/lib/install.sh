# Sourced by deploy/boothdeck-deploy: the detached install (`run`), under the deploy lock.
# Order: kit files, system packages, the new release's trial start on a spare port (the live one
# keeps serving), the event guard again, then a journalled switch and restart, checked on
# /healthz, with the previous release put back on failure. A run killed at any line leaves the
# old or the new release running; the journal (deploy.state) lets the next run settle the links.

PREFLIGHT_PID=''
TRIAL_DIR=''
FINISHED=0
STEP='start'

run_cmd() {
  RUN_ID=$1
  action=$2
  shift 2
  valid_token "$RUN_ID" || exit 64
  RUN_LOG="$RUNS/$RUN_ID.log"
  BOOTHDECK_RUN_ID=$RUN_ID
  export BOOTHDECK_RUN_ID
  # The connection that started us is not ours: its end must not end the install.
  trap '' HUP PIPE INT
  user_manager
  : >>"$RUN_LOG"
  write_file "$RUNS/$RUN_ID.pid" "$$
"
  trap 'run_exit $?' EXIT
  exec 9>>"$LOCK"
  if ! flock -n 9; then
    lock_holder
    note "REFUSED: another deploy is under way on this booth ($HOLDER); this one changes nothing. Try again once it has finished."
    finish 73
  fi
  # Read only to name who holds the lock: a plain write is enough.
  printf '%s, since %s\n' "$RUN_ID" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$LOCK_OWNER"
  stop_leftover_trial
  recover_interrupted
  case "$action" in
    install) install_release "$@" ;;
    rollback) rollback_release ;;
    recover) finish 0 ;;
    *) fail 64 "Unknown action: $action" ;;
  esac
}

# The result is said by run_exit, once everything of this run is cleaned up and the lock released.
finish() {
  FINISHED=1
  exit "$1"
}

fail() {
  code=$1
  shift
  note "$*"
  finish "$code"
}

# Whatever stops the run (finish, a failed command, a signal), the trial instance and the upload go,
# the lock is released, and only then is the result written: its line is the run's last, which
# `follow` waits for, so that whoever follows finds the booth settled and free for the next deploy.
run_exit() {
  code=$1
  set +e
  trap - EXIT
  stop_trial
  [ -z "$TRIAL_DIR" ] || [ ! -e "$TRIAL_DIR" ] || rm -rf "$TRIAL_DIR"
  [ ! -e "$INCOMING/$RUN_ID" ] || rm -rf "${INCOMING:?}/$RUN_ID"
  if [ "$FINISHED" != 1 ]; then
    note "FAILED: the install stopped unexpectedly (exit $code) during: $STEP"
    recover_interrupted
    code=70
  fi
  exec 9>&-
  note "RESULT $code"
  write_file "$RUNS/$RUN_ID.result" "$code
"
  exit "$code"
}

install_release() {
  name=$1 version=$2 force=$3
  STEP="checking the upload"
  [ -f "$INCOMING/$RUN_ID/$name" ] || fail 1 "FAILED: nothing was received for $name"
  install_kit "$INCOMING/$RUN_ID"
  check_packages
  STEP="storing the release"
  chmod 755 "$INCOMING/$RUN_ID/$name"
  mv -f "$INCOMING/$RUN_ID/$name" "$RELEASES/$name"
  note "Stored releases/$name"
  if ! trial_start "releases/$name" "$version"; then
    note "FAILED: $version did not start beside the running Boothdeck, which was never stopped and keeps serving."
    finish 1
  fi
  STEP="event guard before the restart"
  if ! event_guard "$force"; then
    note "Nothing was restarted; releases/$name stays on the booth for the next deploy."
    finish 75
  fi
  switch_and_restart "releases/$name" "$version"
}

rollback_release() {
  link_of previous
  target=$LINK
  [ -n "$target" ] && [ -f "$ROOT/$target" ] || fail 1 "FAILED: no previous release to roll back to"
  version_of "$target" || fail 1 "FAILED: $target is not a Boothdeck release"
  version=$VERSION_OF
  link_of current
  note "Rolling back from $LINK to $target"
  if ! trial_start "$target" "$version"; then
    note "FAILED: $version did not start beside the running Boothdeck (a database already moved on by the newer release?): nothing was changed."
    finish 1
  fi
  switch_and_restart "$target" "$version"
}

# Copies a kit file into place in one rename, unless it is there already as it is (status 1).
put() {
  ! cmp -s "$1" "$2" || return 1
  cp "$1" "$2.tmp"
  mv -f "$2.tmp" "$2"
}

install_kit() {
  kit=$1
  STEP="installing the unit and the deploy tool"
  [ -d "$UNIT_DIR/$UNIT.d" ] && [ -d "$CONF_DIR" ] && [ -d "$ROOT/bin/lib" ] ||
    mkdir -p "$UNIT_DIR/$UNIT.d" "$CONF_DIR" "$ROOT/bin/lib"
  # The unit is the repo's; local changes live in boothdeck.service.d/*.conf, which no deploy touches.
  if put "$kit/boothdeck.service" "$UNIT_DIR/$UNIT"; then systemctl --user daemon-reload; fi
  put "$kit/boothdeck.env.example" "$CONF_DIR/boothdeck.env.example" || true
  if [ ! -e "$ENV_FILE" ]; then
    (umask 077 && cp "$CONF_DIR/boothdeck.env.example" "$ENV_FILE")
    note "Created $ENV_FILE from the template: set the PIN and capture app there"
  fi
  # The tool is renamed out of the kit (in ~/boothdeck/incoming, the same file system): one rename
  # per file, and this run keeps reading the files it opened.
  [ -x "$kit/boothdeck-deploy" ] || chmod 755 "$kit/boothdeck-deploy"
  mv -f "$kit/boothdeck-deploy" "$ROOT/bin/boothdeck-deploy"
  mv -f "$kit/lib/common.sh" "$kit/lib/install.sh" "$ROOT/bin/lib/"
  [ -L "$ROOT/bin/boothdeck-rollback" ] || ln -sfn boothdeck-deploy "$ROOT/bin/boothdeck-rollback"
  # Lingering starts the user's units at boot and keeps them when nobody is logged in.
  user=$(id -un)
  [ -e "/var/lib/systemd/linger/$user" ] || loginctl enable-linger "$user" ||
    note "WARNING: lingering could not be enabled: Boothdeck will only start once $user logs in"
  [ -L "$UNIT_DIR/default.target.wants/$UNIT" ] || systemctl --user enable "$UNIT" >/dev/null 2>&1 ||
    systemctl --user enable "$UNIT"
  note "Unit, settings template and deploy tool installed (local unit changes: systemctl --user edit boothdeck)"
}

# HAVE: " installed:PACKAGE ..." for ffmpeg and FUSE 2, asked of dpkg once (other states are
# "not-installed:", "config-files:"...).
installed_packages() {
  if command -v dpkg-query >/dev/null 2>&1; then
    HAVE=$(dpkg-query -W -f=' ${db:Status-Status}:${Package} ' ffmpeg libfuse2 libfuse2t64 2>/dev/null) || true
  else
    HAVE=''
    ! command -v ffmpeg >/dev/null 2>&1 || HAVE=' installed:ffmpeg '
    for lib in /lib/*/libfuse.so.2 /usr/lib/*/libfuse.so.2; do
      if [ -e "$lib" ]; then
        HAVE="$HAVE installed:libfuse2 "
        break
      fi
    done
  fi
}

# ffmpeg draws video posters (a placeholder without it); FUSE 2 mounts the AppImage (without it the
# AppImage is extracted at each start). Installed when the user may use sudo without a password,
# otherwise said, and the deploy goes on.
check_packages() {
  STEP="checking ffmpeg and FUSE 2"
  installed_packages
  missing=''
  case "$HAVE" in *" installed:ffmpeg "*) ;; *) missing='ffmpeg' ;; esac
  case "$HAVE" in *" installed:libfuse2 "* | *" installed:libfuse2t64 "*) ;; *) missing="$missing libfuse2" ;; esac
  missing=${missing# }
  if [ -n "$missing" ]; then
    if sudo -n true >/dev/null 2>&1; then
      note "Installing $missing (apt-get, passwordless sudo)"
      # shellcheck disable=SC2086 # a list of package names
      if timeout 900 sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >>"$RUNS/$RUN_ID.out" 2>&1 ||
        { timeout 300 sudo -n apt-get update >>"$RUNS/$RUN_ID.out" 2>&1 &&
          timeout 900 sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >>"$RUNS/$RUN_ID.out" 2>&1; }; then
        note "Installed $missing"
      else
        note "WARNING: apt-get could not install $missing (see $RUNS/$RUN_ID.out); going on without"
      fi
    else
      note "WARNING: $missing not installed, and $(id -un) cannot sudo without a password: run sudo apt install $missing on the booth"
    fi
    installed_packages
  fi
  case "$HAVE" in
    *" installed:ffmpeg "*) note "ffmpeg: present" ;;
    *) note "WARNING: ffmpeg missing: video tiles show a placeholder until it is installed (no restart needed)" ;;
  esac
  case "$HAVE" in
    *" installed:libfuse2 "* | *" installed:libfuse2t64 "*)
      write_file "$DEPLOY_ENV" "# Written by each deploy: FUSE 2 is present, the AppImage mounts itself.
"
      note "FUSE 2: present"
      ;;
    *)
      write_file "$DEPLOY_ENV" "# Written by each deploy: FUSE 2 (libfuse2) is missing, so the AppImage extracts itself at each start.
APPIMAGE_EXTRACT_AND_RUN=1
"
      note "WARNING: FUSE 2 (libfuse2) missing: Boothdeck runs extracted at each start (APPIMAGE_EXTRACT_AND_RUN=1, slower) until it is installed"
      ;;
  esac
  for f in "$HOME/.config/labwc/autostart" /etc/xdg/labwc/autostart; do
    [ -f "$f" ] || continue
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in '#'*) ;; *swayidle*)
        note "Note: $f starts swayidle (screen blanking); the kiosk holds the screen awake, and sudo raspi-config nonint do_blanking 1 turns blanking off for good"
        break
        ;;
      esac
    done <"$f"
  done
}

# SPARE_PORT: a free port beside the live one, for the trial start.
spare_port() {
  live_port
  SPARE_PORT=$((LIVE_PORT + 10000))
  [ "$SPARE_PORT" -le 65535 ] || SPARE_PORT=$((SPARE_PORT - 20000))
  n=0
  while [ "$n" -lt 20 ]; do
    if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$SPARE_PORT/"; then rc=0; else rc=$?; fi
    [ "$rc" -ne 7 ] || break # 7: nothing listens there
    SPARE_PORT=$((SPARE_PORT + 1))
    n=$((n + 1))
  done
}

# A consistent copy of the live database (it is in WAL mode and in use): SQLite's online backup
# through python3, else the files as they are (a torn copy only fails the trial, never the booth).
copy_database() {
  data_dir
  db="$DATA_DIR/boothdeck.sqlite"
  if [ ! -f "$db" ]; then
    note "No database yet at $db: the trial start begins with an empty one"
    return 0
  fi
  if command -v python3 >/dev/null 2>&1 && python3 -c '
import sqlite3, sys
src = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
dst = sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.close()
src.close()' "$db" "$1/boothdeck.sqlite" 2>>"$RUNS/$RUN_ID.out"; then
    note "Copied the database for the trial start (SQLite backup)"
  else
    cp "$db" "$1/boothdeck.sqlite"
    [ ! -f "$db-wal" ] || cp "$db-wal" "$1/boothdeck.sqlite-wal"
    note "Copied the database files for the trial start"
  fi
}

# Starts RELEASE on a spare port with the live settings and a copy of the data, but fake hardware
# (the live one holds the relay and the ring), no printer, no window; 0 when VERSION answers.
trial_start() {
  rel=$1 version=$2
  STEP="trial start of $version"
  TRIAL_DIR="$ROOT/trial-$RUN_ID"
  [ ! -e "$TRIAL_DIR" ] || rm -rf "$TRIAL_DIR"
  mkdir -p "$TRIAL_DIR/data" "$TRIAL_DIR/config"
  copy_database "$TRIAL_DIR/data"
  spare_port
  port=$SPARE_PORT
  note "Trial start of $version on port $port (live settings, copied data, fake hardware, no printer, no window)"
  [ ! -e "$ROOT/trial.pid" ] || rm -f "$ROOT/trial.pid"
  # The trial leads a session of its own (its whole process group is stopped at the end). It
  # writes its process id into trial.pid (for the next run, should this one be killed) before it
  # becomes the release, then hands it here: the substitution ends once its output is the log.
  PREFLIGHT_PID=$(
    (
      load_env_file "$DEPLOY_ENV"
      load_env_file "$ENV_FILE"
      export BOOTHDECK_PORT="$port" BOOTHDECK_HOST=127.0.0.1 BOOTHDECK_DATA_DIR="$TRIAL_DIR/data" \
        BOOTHDECK_HARDWARE=fake XDG_CONFIG_HOME="$TRIAL_DIR/config" CUPS_SERVER="$TRIAL_DIR/no-cups" NODE_ENV=production
      unset WAYLAND_DISPLAY DISPLAY
      # shellcheck disable=SC2016 # expanded by the inner shell
      exec setsid sh -c 'log=$1 && echo "$$" >"$0" && echo "$$" && shift && exec "$@" >"$log" 2>&1' \
        "$ROOT/trial.pid" "$TRIAL_DIR/output.log" \
        "$ROOT/$rel" --boothdeck-trial --ozone-platform=headless </dev/null 9>&-
    ) &
  ) || PREFLIGHT_PID=''
  if ! is_number "$PREFLIGHT_PID"; then
    PREFLIGHT_PID=''
    rc=2
  elif wait_for_version "$port" "$version" "$PREFLIGHT_PID"; then
    rc=0
  else
    rc=$?
  fi
  stop_trial
  if [ "$rc" -eq 0 ]; then
    note "Trial start: $version answered /healthz on port $port: ok"
  else
    if [ "$rc" -eq 2 ]; then note "Trial start: $version exited at start"; else note "Trial start: $version did not answer /healthz on port $port"; fi
    tail -n 5 "$TRIAL_DIR/output.log" 2>/dev/null | while IFS= read -r l; do note "  trial output: $l"; done
  fi
  rm -rf "$TRIAL_DIR"
  TRIAL_DIR=''
  return "$rc"
}

# Stops the trial instance's whole process group (the AppImage runtime and Electron's children).
stop_trial() {
  [ -n "$PREFLIGHT_PID" ] || return 0
  kill -s TERM -- "-$PREFLIGHT_PID" 2>/dev/null || kill -s TERM "$PREFLIGHT_PID" 2>/dev/null || true
  i=0
  while alive "$PREFLIGHT_PID" && [ "$i" -lt 300 ]; do
    sleep 0.05
    i=$((i + 1))
  done
  kill -s KILL -- "-$PREFLIGHT_PID" 2>/dev/null || true
  PREFLIGHT_PID=''
  [ ! -e "$ROOT/trial.pid" ] || rm -f "$ROOT/trial.pid"
}

# A run killed during its trial start leaves that instance running on the spare port: stopped here
# (when that process id still is a trial start, and not a process that took its number since).
stop_leftover_trial() {
  { read -r pid <"$ROOT/trial.pid"; } 2>/dev/null || pid=''
  if is_number "$pid" && alive "$pid" && grep -qsa -e --boothdeck-trial "/proc/$pid/cmdline"; then
    note "Stopping the trial instance an interrupted deploy left running (process $pid)"
    PREFLIGHT_PID=$pid
    stop_trial
  fi
  for f in "$ROOT/trial.pid" "$ROOT"/trial-*; do
    if [ -e "$f" ]; then
      rm -rf "$ROOT/trial.pid" "$ROOT"/trial-*
      break
    fi
  done
}

# The journalled switch: deploy.state says what was being done until the result is known.
switch_and_restart() {
  target=$1 version=$2
  link_of current
  from=$LINK
  version_of "$from" || true
  from_version=$VERSION_OF
  live_port
  port=$LIVE_PORT
  STEP="switching to $version"
  write_file "$STATE" "from=$from
to=$target
"
  point current "$target"
  note "current -> $target (was ${from:-none})"
  STEP="restarting Boothdeck with $version"
  systemctl --user restart "$UNIT" || note "systemctl --user restart $UNIT failed"
  if wait_for_version "$port" "$version"; then
    if [ -n "$from" ] && [ "$from" != "$target" ]; then
      point previous "$from"
      prev=$from
    else
      link_of previous
      prev=$LINK
    fi
    rm -f "$STATE"
    prune_releases 3 "$target" "$prev"
    note "Boothdeck $version is up and answers /healthz (previous: ${prev:-none})"
    finish 0
  fi
  note "FAILED: Boothdeck did not report version $version on /healthz after the restart"
  if [ -z "$from" ] || [ "$from" = "$target" ]; then
    rm -f "$STATE"
    note "No other release to go back to: look at journalctl --user -u boothdeck"
    finish 1
  fi
  STEP="rolling back to $from_version"
  point current "$from"
  systemctl --user restart "$UNIT" || true
  rm -f "$STATE"
  if wait_for_version "$port" "$from_version"; then
    note "ROLLED BACK to $from, which answers /healthz again"
  else
    note "ROLLED BACK to $from, but it does not answer either: look at journalctl --user -u boothdeck"
  fi
  finish 1
}

# After a run that died mid-switch: finds out which release answers and makes the links say so.
recover_interrupted() {
  [ -f "$STATE" ] || return 0
  from='' to=''
  while IFS= read -r line; do
    case "$line" in from=*) from=${line#from=} ;; to=*) to=${line#to=} ;; esac
  done <"$STATE"
  version_of "$to" || true
  to_version=$VERSION_OF
  version_of "$from" || true
  from_version=$VERSION_OF
  note "An earlier deploy stopped halfway (${from:-none} -> $to): finding out which release answers"
  live_port
  port=$LIVE_PORT
  i=0 got=''
  while [ "$i" -lt "$HEALTH_ATTEMPTS" ]; do
    if running_version "$port"; then
      got=$RUNNING
      break
    fi
    i=$((i + 1))
    sleep "$HEALTH_WAIT"
  done
  if [ -n "$got" ] && [ "$got" = "$to_version" ]; then
    point current "$to"
    if [ -n "$from" ] && [ "$from" != "$to" ]; then point previous "$from"; fi
    note "RECOVERED: $to_version runs; current is $to, previous ${from:-none}"
  elif [ -n "$from" ] && [ "$got" = "$from_version" ]; then
    point current "$from"
    note "RECOVERED: the restart never happened and $from_version still runs; current points to it again"
  elif [ -n "$from" ]; then
    point current "$from"
    systemctl --user restart "$UNIT" || true
    if wait_for_version "$port" "$from_version"; then note "RECOVERED: $from_version restarted and answers"; else note "RECOVERED: current points to $from again, but it does not answer: look at journalctl --user -u boothdeck"; fi
  else
    note "Nothing answers and there is no earlier release: look at journalctl --user -u boothdeck"
  fi
  rm -f "$STATE"
}

# COUNT: how many paths a glob matched.
count() {
  COUNT=$#
  [ "$#" -ne 1 ] || [ -e "$1" ] || COUNT=0
}

# Keeps the KEEP newest releases, and always the ones current and previous point to (given, or
# read from the links); keeps the last 20 runs' files. Counted with the shell's own globs: ls is
# asked for the order only when there is something to remove.
prune_releases() {
  keep=$1
  count "$RELEASES"/*.AppImage
  if [ "$COUNT" -gt "$keep" ]; then
    if [ "$#" -ge 3 ]; then
      cur=$2 prev=$3
    else
      link_of current
      cur=$LINK
      link_of previous
      prev=$LINK
    fi
    n=0
    # shellcheck disable=SC2012 # release names are tokens (valid_token): no newline, no space
    ls -1t "$RELEASES" | while IFS= read -r f; do
      case "$f" in *.AppImage) n=$((n + 1)) ;; *) continue ;; esac
      if [ "$n" -gt "$keep" ] && [ "releases/$f" != "$cur" ] && [ "releases/$f" != "$prev" ]; then
        rm -f "$RELEASES/$f"
        note "Removed old release $f"
      fi
    done
  fi
  count "$RUNS"/*.log
  if [ "$COUNT" -gt 20 ]; then
    n=0
    # shellcheck disable=SC2012
    ls -1t "$RUNS" | while IFS= read -r f; do
      case "$f" in *.log) n=$((n + 1)) ;; *) continue ;; esac
      [ "$n" -le 20 ] || rm -f "$RUNS/${f%.log}".*
    done
  fi
}
