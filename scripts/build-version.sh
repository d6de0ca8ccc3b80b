#!/bin/sh
# Prints this build's version: package.json's version plus the commit, for example
# 0.1.0-g1a2b3c4. Every commit gets its own AppImage name, so a release never overwrites the
# one running on the booth and a rollback always has a real previous file.
set -eu
cd "$(dirname "$0")/.."
BASE=$(node -p "require('./package.json').version")
SHA=${GITHUB_SHA:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
SHA=$(printf '%.7s' "$SHA")
if [ -z "${GITHUB_SHA:-}" ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  # A local build from uncommitted changes must not pass for the commit it started from.
  printf '%s-g%s.dirty\n' "$BASE" "$SHA"
else
  printf '%s-g%s\n' "$BASE" "$SHA"
fi
