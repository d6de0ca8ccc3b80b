# Sourced by deploy/boothdeck-deploy: the booth's line on the fleet page. After every deploy, pull,
# rollback or refusal the booth writes ~/boothdeck/fleet/NAME.json (its name, the version it runs,
# that release's date, the last deploy's outcome and when, whether an event is under way) and
# prints it as a FLEET line for the pipeline's summary. With BOOTHDECK_FLEET_REMOTE set in
# ~/.config/boothdeck/fleet.env (an rclone remote and folder of the booth user's own rclone.conf,
# the company's online-gallery destination), lib/fleet.py uploads it there and rewrites fleet.json
# and index.html from every booth's file.

FLEET_DIR="$ROOT/fleet"
DATES="$ROOT/release-dates"

# VALUE: KEY in fleet.env ('' when unset).
fleet_value() {
  VALUE=''
  [ -f "$FLEET_ENV" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in "$1="*) VALUE=${line#*=} ;; esac
  done <"$FLEET_ENV"
  unquote "$VALUE"
  VALUE=$UNQUOTED
}

# BOOTH_NAME: fleet.env's BOOTHDECK_BOOTH_NAME, else the host name.
booth_name() {
  fleet_value BOOTHDECK_BOOTH_NAME
  BOOTH_NAME=${VALUE:-$(hostname 2>/dev/null || echo booth)}
  valid_token "$BOOTH_NAME" || BOOTH_NAME=booth
}

# Remembers when a release was built (from the pipeline or the published manifest).
release_date() {
  case "$2" in '' | *[!0-9TZ:.-]*) return 0 ;; esac
  mkdir -p "$DATES"
  write_file "$DATES/$1" "$2
"
}

fleet_report() {
  outcome=$1
  booth_name
  link_of current
  version_of "$LINK" || VERSION_OF=''
  fv=${VERSION_OF:--}
  fd=-
  [ -z "$LINK" ] || { read -r fd <"$DATES/${LINK##*/}"; } 2>/dev/null || fd=-
  fe=${EVENT_STATE:-unknown}
  at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  mkdir -p "$FLEET_DIR"
  write_file "$FLEET_DIR/$BOOTH_NAME.json" "{\"booth\":\"$BOOTH_NAME\",\"version\":\"$fv\",\"release_date\":\"$fd\",\"last_outcome\":\"$outcome\",\"last_deploy_at\":\"$at\",\"event\":\"$fe\"}
"
  note "FLEET booth=$BOOTH_NAME version=$fv released=$fd outcome=$outcome event=$fe"
}

# Uploads this booth's line and rewrites the fleet page, when a remote is set. Never fails a deploy.
fleet_publish() {
  booth_name
  fleet_value BOOTHDECK_FLEET_REMOTE
  [ -n "$VALUE" ] || return 0
  if ! command -v rclone >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
    note "WARNING: the fleet page needs rclone and python3 on the booth"
    return 0
  fi
  # The run's own kit folder is gone by now: the installed copy is the one to run.
  py="$ROOT/bin/lib/fleet.py"
  [ -f "$py" ] || py="$HERE/lib/fleet.py"
  if timeout 120 python3 "$py" "$VALUE" "$FLEET_DIR/$BOOTH_NAME.json" >>"$LOG" 2>&1; then
    note "Fleet page updated on $VALUE"
  else
    note "WARNING: the fleet page could not be updated on $VALUE (see deploy.log); the next deploy or pull tries again"
  fi
}
