#!/bin/sh
# Installs what the browser tests need beyond npm: Debian's Chromium (never a downloaded browser).
set -eu
if [ -x "${BOOTHDECK_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "Chromium found at ${BOOTHDECK_CHROMIUM:-/usr/bin/chromium}"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
