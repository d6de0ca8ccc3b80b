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
    rollback) rollback_release "${1:-0}" ;;
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
  if [ -z "${OUTCOME:-}" ]; then
    case "$code" in 0) OUTCOME=done ;; 73) OUTCOME=busy ;; 75) OUTCOME=deferred ;; *) OUTCOME=failed ;; esac
  fi
  fleet_report "$OUTCOME"
  note "RESULT $code"
  write_file "$RUNS/$RUN_ID.result" "$code
"
  # Whoever followed has its result: the fleet page is updated after, and never holds it.
  fleet_publish
  exit "$code"
}

install_release() {
  name=$1 version=$2 force=$3
  STEP="checking the upload"
  [ -f "$INCOMING/$RUN_ID/$name" ] || fail 1 "FAILED: nothing was received for $name"
  install_kit "$INCOMING/$RUN_ID"
  check_packages
  check_firewall
  STEP="storing the release"
  chmod 755 "$INCOMING/$RUN_ID/$name"
  mv -f "$INCOMING/$RUN_ID/$name" "$RELEASES/$name"
  note "Stored releases/$name"
  DB_PLAN=live
  if ! trial_start "releases/$name" "$version"; then
    note "FAILED: $version did not start beside the running Boothdeck, which was never stopped and keeps serving."
    mark_failed "releases/$name"
    prune_releases 3
    OUTCOME=failed
    finish 1
  fi
  STEP="event guard before the restart"
  if ! event_guard "$force"; then
    note "Nothing was restarted; releases/$name stays on the booth until the event is over."
    OUTCOME=deferred
    finish 75
  fi
  switch_and_restart "releases/$name" "$version"
}

rollback_release() {
  force=$1
  STEP="event guard before the rollback"
  if ! event_guard "$force"; then
    note "Nothing was rolled back."
    OUTCOME=deferred
    finish 75
  fi
  link_of previous
  target=$LINK
  [ -n "$target" ] && [ -f "$ROOT/$target" ] || fail 1 "FAILED: no previous release to roll back to"
  version_of "$target" || fail 1 "FAILED: $target is not a Boothdeck release"
  version=$VERSION_OF
  link_of current
  note "Rolling back from $LINK to $target"
  SWITCH_OUTCOME=rolled-back
  database_plan "$target"
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
  # A pulled release comes without a kit: the tool and units stay as the last deploy left them.
  if [ ! -f "$kit/boothdeck-deploy" ]; then
    note "No deploy kit with this release: the unit and the deploy tool stay as they are"
    return 0
  fi
  [ -d "$UNIT_DIR/$UNIT.d" ] && [ -d "$CONF_DIR" ] && [ -d "$ROOT/bin/lib" ] ||
    mkdir -p "$UNIT_DIR/$UNIT.d" "$CONF_DIR" "$ROOT/bin/lib"
  # The units are the repo's; local changes live in boothdeck.service.d/*.conf, which no deploy touches.
  reload=0
  for u in "$UNIT" boothdeck-pull.service boothdeck-pull.timer; do
    [ ! -f "$kit/$u" ] || ! put "$kit/$u" "$UNIT_DIR/$u" || reload=1
  done
  [ "$reload" = 0 ] || systemctl --user daemon-reload
  put "$kit/boothdeck.env.example" "$CONF_DIR/boothdeck.env.example" || true
  if [ ! -e "$ENV_FILE" ]; then
    (umask 077 && cp "$CONF_DIR/boothdeck.env.example" "$ENV_FILE")
    note "Created $ENV_FILE from the template: set the PIN and capture app there"
  fi
  # The tool is renamed out of the kit (in ~/boothdeck/incoming, the same file system): one rename
  # per file, and this run keeps reading the files it opened.
  [ -x "$kit/boothdeck-deploy" ] || chmod 755 "$kit/boothdeck-deploy"
  mv -f "$kit/boothdeck-deploy" "$ROOT/bin/boothdeck-deploy"
  for f in "$kit"/lib/* "$kit/boothdeck-system" "$kit/boothdeck-fetch"; do
    [ ! -f "$f" ] || mv -f "$f" "$ROOT/bin/${f#"$kit"/}"
  done
  [ -L "$ROOT/bin/boothdeck-rollback" ] || ln -sfn boothdeck-deploy "$ROOT/bin/boothdeck-rollback"
  # Lingering starts the user's units at boot and keeps them when nobody is logged in.
  user=$(id -un)
  [ -e "/var/lib/systemd/linger/$user" ] || loginctl enable-linger "$user" ||
    note "WARNING: lingering could not be enabled: Boothdeck will only start once $user logs in"
  [ -L "$UNIT_DIR/default.target.wants/$UNIT" ] || systemctl --user enable "$UNIT" >/dev/null 2>&1 ||
    systemctl --user enable "$UNIT"
  # The pull timer: the booth installs the newest published release by itself when idle.
  [ ! -f "$UNIT_DIR/boothdeck-pull.timer" ] || [ -L "$UNIT_DIR/timers.target.wants/boothdeck-pull.timer" ] ||
    systemctl --user enable --now boothdeck-pull.timer >/dev/null 2>&1 || note "WARNING: the pull timer could not be enabled"
  note "Unit, settings template and deploy tool installed (local unit changes: systemctl --user edit boothdeck)"
}

# UNIT_DEAD: why the unit is not running its release ('' while it is, or starting): systemd's own
# state, read at once, so a release that dies at start is seen at its first crash (the unit restarts
# it every 3 s: RestartSec) rather than after the whole /healthz wait.
unit_dead() {
  UNIT_DEAD=''
  props=$(systemctl --user show -p ActiveState -p SubState -p NRestarts "$UNIT" 2>/dev/null) || return 0
  active='' sub='' restarts=0
  while IFS='=' read -r key value; do
    case "$key" in ActiveState) active=$value ;; SubState) sub=$value ;; NRestarts) restarts=$value ;; esac
  done <<EOF
$props
EOF
  is_number "$restarts" || restarts=0
  if [ "$active" = failed ] || [ "$sub" = auto-restart ] || [ "$restarts" -gt "${1:-0}" ]; then
    UNIT_DEAD="the unit died at start ($active/$sub, restarted $restarts times)"
  fi
}

# Waits until VERSION answers on the live port under the unit: 0 when it does, 3 as soon as systemd
# says the release died (a crash loop), 1 when the wait runs out.
wait_live() {
  unit_dead 99999
  base=$restarts
  i=0
  while [ "$i" -lt "$HEALTH_ATTEMPTS" ]; do
    if running_version "$1" && [ "$RUNNING" = "$2" ]; then return 0; fi
    unit_dead "$base"
    if [ -n "$UNIT_DEAD" ]; then
      note "Crash loop: $UNIT_DEAD"
      return 3
    fi
    i=$((i + 1))
    sleep "$HEALTH_WAIT"
  done
  return 1
}

# The journalled switch: deploy.state says what was being done until the result is known. The
# release leaving is stopped, its database snapshot taken (database.sh), the database the target
# needs put in place, then the target started and watched.
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
  STEP="stopping Boothdeck for the database snapshot"
  systemctl --user stop "$UNIT" || note "systemctl --user stop $UNIT failed"
  snapshot_database "$from"
  [ "${DB_PLAN:-live}" != snapshot ] || restore_database "$target"
  point current "$target"
  note "current -> $target (was ${from:-none})"
  STEP="restarting Boothdeck with $version"
  systemctl --user restart "$UNIT" || note "systemctl --user restart $UNIT failed"
  if wait_live "$port" "$version"; then
    if [ -n "$from" ] && [ "$from" != "$target" ]; then
      point previous "$from"
      prev=$from
    else
      link_of previous
      prev=$LINK
    fi
    rm -f "$STATE"
    mark_healthy "$target"
    # Rolled back on purpose: the pull must not put that release back at its next tick.
    if [ "${SWITCH_OUTCOME:-}" = rolled-back ] && [ -n "$from" ] && [ "$from" != "$target" ]; then
      mkdir -p "$ROOT/held"
      : >"$ROOT/held/${from##*/}"
      note "The pull will not install ${from##*/} again, only a newer release (boothdeck-rollback again goes forward)"
    fi
    prune_releases 3 "$target" "$prev"
    note "Boothdeck $version is up and answers /healthz (previous: ${prev:-none})"
    OUTCOME=${SWITCH_OUTCOME:-installed}
    finish 0
  else
    live_rc=$?
  fi
  if [ "$live_rc" -eq 1 ]; then note "FAILED: Boothdeck did not report version $version on /healthz after the restart"; fi
  mark_failed "$target"
  if [ -z "$from" ] || [ "$from" = "$target" ]; then
    rm -f "$STATE"
    note "No other release to go back to: look at journalctl --user -u boothdeck"
    OUTCOME=failed
    finish 1
  fi
  STEP="rolling back to $from_version"
  systemctl --user stop "$UNIT" || true
  database_plan "$from"
  [ "$DB_PLAN" != snapshot ] || restore_database "$from"
  point current "$from"
  systemctl --user restart "$UNIT" || true
  rm -f "$STATE"
  prune_releases 3
  OUTCOME=rolled-back
  if wait_live "$port" "$from_version"; then
    note "ROLLED BACK to $from, which answers /healthz again"
  else
    note "ROLLED BACK to $from, but it does not answer either: look at journalctl --user -u boothdeck"
  fi
  finish 1
}

# Releases that ran healthy under the unit, and those that did not (never kept, never pulled again).
mark_healthy() {
  mkdir -p "$ROOT/healthy"
  : >"$ROOT/healthy/${1##*/}"
  [ ! -e "$ROOT/held/${1##*/}" ] || rm -f "$ROOT/held/${1##*/}"
  [ ! -e "$ROOT/failed/${1##*/}" ] || rm -f "$ROOT/failed/${1##*/}"
}

mark_failed() {
  mkdir -p "$ROOT/failed"
  : >"$ROOT/failed/${1##*/}"
  [ ! -e "$ROOT/healthy/${1##*/}" ] || rm -f "$ROOT/healthy/${1##*/}"
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
    # A release that crash-loops under the unit will not answer: no need to wait the whole time.
    unit_dead 99999
    if [ -n "$UNIT_DEAD" ]; then
      note "Nothing answers and $UNIT_DEAD"
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

# Keeps current, previous and the KEEP newest releases that ran healthy, plus the newest one not
# tried yet (stored, then deferred by an event); releases that failed are never kept. Their
# database snapshots go with them. Keeps the last 20 runs' files. Counted with the shell's own
# globs: ls is asked for the order only when there is something to look at.
prune_releases() {
  keep=$1
  count "$RELEASES"/*.AppImage
  if [ "$COUNT" -gt 0 ]; then
    if [ "$#" -ge 3 ]; then
      cur=$2 prev=$3
    else
      link_of current
      cur=$LINK
      link_of previous
      prev=$LINK
    fi
    n=0 untried=0
    # shellcheck disable=SC2012 # release names are tokens (valid_token): no newline, no space
    ls -1t "$RELEASES" | while IFS= read -r f; do
      case "$f" in *.AppImage) ;; *) continue ;; esac
      if [ -e "$ROOT/healthy/$f" ]; then n=$((n + 1)); fi
      [ "releases/$f" != "$cur" ] && [ "releases/$f" != "$prev" ] || continue
      if [ -e "$ROOT/failed/$f" ]; then
        why='it failed'
      elif [ -e "$ROOT/healthy/$f" ]; then
        [ "$n" -gt "$keep" ] || continue
        why="$keep healthy releases are kept"
      else
        untried=$((untried + 1))
        [ "$untried" -gt 1 ] || continue
        why='a newer one waits to be tried'
      fi
      rm -f "$RELEASES/$f" "$ROOT/healthy/$f" "$ROOT/held/$f"
      note "Removed release $f ($why)"
    done
  fi
  prune_snapshots
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
