#!/bin/sh
# Installs what the tests need beyond npm, idempotently: Debian's Chromium (never a downloaded browser),
# ffmpeg (video posters), poppler-utils (printed pages), rclone (online gallery) and a real CUPS
# server with a PDF virtual printer named PDF (output under ~/PDF of the job's user).
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=""
if [ ! -x "${BOOTHDECK_CHROMIUM:-/usr/bin/chromium}" ]; then missing="$missing chromium fonts-dejavu-core"; fi
if [ ! -x /usr/sbin/cupsd ] || [ ! -x /usr/bin/lp ]; then missing="$missing cups cups-client cups-bsd"; fi
if [ ! -e /usr/lib/cups/backend/cups-pdf ]; then missing="$missing printer-driver-cups-pdf"; fi
# Video posters: a frame of each video, as on the booth.
if ! command -v ffmpeg >/dev/null 2>&1; then missing="$missing ffmpeg"; fi
# Printed pages are checked as a person would look at them: their size (pdfinfo) and their edges (pdftoppm).
if ! command -v pdfinfo >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then missing="$missing poppler-utils"; fi
# The online gallery publishes through rclone, to a local folder and to a WebDAV remote it serves itself.
if ! command -v rclone >/dev/null 2>&1; then missing="$missing rclone"; fi
if [ -n "$missing" ]; then
  $SUDO apt-get update
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
fi

# CI machines and containers often have no init system: start the daemon ourselves when it is not answering.
if ! lpstat -r >/dev/null 2>&1 || lpstat -r 2>/dev/null | grep -q "not running"; then
  $SUDO /usr/sbin/cupsd
  i=0
  until lpstat -r 2>/dev/null | grep -q "is running"; do
    i=$((i + 1))
    if [ "$i" -gt 50 ]; then echo "cupsd did not start" >&2; exit 1; fi
    sleep 0.2
  done
fi

if ! lpstat -p PDF >/dev/null 2>&1; then
  $SUDO lpadmin -p PDF -E -v cups-pdf:/ -m lsb/usr/cups-pdf/CUPS-PDF_opt.ppd
fi
$SUDO cupsenable PDF
$SUDO cupsaccept PDF

# Resuming a stopped queue, setting its error policy and the tests' own queues need CUPS's
# administrative rights: the lpadmin group, through CUPS's local socket (root, as on CI, has them).
# The membership counts from the next login.
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx lpadmin; then
  $SUDO usermod -aG lpadmin "$(id -un)"
  echo "Added $(id -un) to the lpadmin group: log in again (or run 'newgrp lpadmin') before running the tests" >&2
fi
echo "Chromium at ${BOOTHDECK_CHROMIUM:-/usr/bin/chromium}; ffmpeg at $(command -v ffmpeg); rclone at $(command -v rclone); CUPS running with printer PDF"
