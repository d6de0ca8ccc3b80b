#!/bin/sh
# After `npm run dist`: fails the build when a native module is missing from the package, was
# not rebuilt for Electron's ABI (it would not load), or needs a newer glibc than the booth's
# Raspberry Pi OS bookworm (2.36).
#   scripts/check-package.sh [release-folder]
set -eu
RELEASE="${1:-release}"
UNPACKED="$RELEASE/linux-arm64-unpacked"
RESOURCES="$UNPACKED/resources"
UNPACKED_MODULES="$RESOURCES/app.asar.unpacked/node_modules"
EXE="${BOOTHDECK_EXE:-$UNPACKED/boothdeck}"
MAX_GLIBC="${MAX_GLIBC:-2.36}"
MODULES="better-sqlite3 sharp i2c-bus rpi-ws281x-native"
FAIL=0
fail() {
  echo "FAIL: $*"
  FAIL=1
}

[ -x "$EXE" ] || { echo "FAIL: no Electron executable at $EXE"; exit 1; }

for m in $MODULES; do
  [ -f "$UNPACKED_MODULES/$m/package.json" ] || fail "$m is missing from the package (app.asar.unpacked)"
done
# The compiled parts: sharp's lives in its platform package.
for p in better-sqlite3 i2c-bus rpi-ws281x-native @img/sharp-linux-arm64; do
  [ -n "$(find -L "$UNPACKED_MODULES/$p" -name '*.node' -type f 2>/dev/null | head -n 1)" ] || fail "no compiled addon (.node) for $p"
done

# No binary may ask for a glibc symbol newer than the booth's.
find -L "$UNPACKED" -type f \( -name '*.node' -o -name '*.so' -o -name '*.so.*' -o -path "$EXE" \) >"${TMPDIR:-/tmp}/boothdeck-binaries.$$"
while read -r f; do
  NEED=$(objdump -T "$f" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -uV | tail -n 1)
  if [ -n "$NEED" ] && [ "$(printf '%s\n%s\n' "$NEED" "$MAX_GLIBC" | sort -V | tail -n 1)" != "$MAX_GLIBC" ]; then
    fail "$f needs glibc $NEED, the booth has $MAX_GLIBC"
  fi
done <"${TMPDIR:-/tmp}/boothdeck-binaries.$$"
rm -f "${TMPDIR:-/tmp}/boothdeck-binaries.$$"

# Loading each module in the packaged Electron (as Node) proves it was built for its ABI. Run as
# a user who is not root, as the booth's unit is (the CI container is root: setpriv drops to
# BOOTHDECK_CHECK_USER, nobody by default). rpi-ws281x-native hands such a user a stub without
# loading its addon, so its .node file is loaded directly as well.
AS_USER=''
if [ "$(id -u)" -eq 0 ]; then
  CHECK_USER="${BOOTHDECK_CHECK_USER:-nobody}"
  AS_USER="setpriv --reuid=$CHECK_USER --regid=$(id -g "$CHECK_USER") --clear-groups --"
fi
WS281X_ADDON=$(find -L "$UNPACKED_MODULES/rpi-ws281x-native" -name '*.node' -type f 2>/dev/null | head -n 1)
# shellcheck disable=SC2086 # AS_USER is a command prefix
BOOTHDECK_APP="$RESOURCES/app.asar" BOOTHDECK_MODULES="$MODULES" BOOTHDECK_ADDON="$WS281X_ADDON" ELECTRON_RUN_AS_NODE=1 $AS_USER "$EXE" -e '
const path = require("node:path");
let failed = false;
console.log(`loading as uid ${process.getuid()}`);
if (process.getuid() === 0) {
  failed = true;
  console.log("FAIL: the modules were loaded as root; the booth loads them as its user");
}
for (const name of process.env.BOOTHDECK_MODULES.split(" ")) {
  try {
    require(path.join(process.env.BOOTHDECK_APP, "node_modules", name));
    console.log(`loads in Electron ${process.versions.electron} (ABI ${process.versions.modules}): ${name}`);
  } catch (err) {
    failed = true;
    console.log(`FAIL: ${name} does not load in Electron: ${err.message}`);
  }
}
try {
  if (process.env.BOOTHDECK_ADDON) require(process.env.BOOTHDECK_ADDON);
} catch (err) {
  failed = true;
  console.log(`FAIL: the rpi-ws281x-native addon does not load in Electron: ${err.message}`);
}
process.exit(failed ? 1 : 0);
' || FAIL=1

if [ "$FAIL" -ne 0 ]; then
  echo "The package is not fit for the booth." >&2
  exit 1
fi
echo "Package check passed: $MODULES"
