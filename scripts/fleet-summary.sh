#!/bin/bash
# The run's fleet table in the job summary (.github/workflows/pipeline.yml, job summary): one row
# per booth named, from the rows the booths' jobs upload as artifacts (fleet-<booth>/fleet-row.md,
# as soon as each has one). It waits for a booth that is off at most FLEET_WAIT_MINUTES (15; at
# most 20, the job's own limit being 25), never for one whose job ended without a row, and not at
# all when the build failed (nothing was sent). Every booth named gets a row, in words.
#   env: GH_REPO, RUN_ID, BOOTHS (the JSON array of names), WAIT_MINUTES, BUILD_RESULT, ROLLBACK,
#        GITHUB_STEP_SUMMARY; gh and jq on the path.
set -eu
SUMMARY=${GITHUB_STEP_SUMMARY:-/dev/stdout}
wait=${WAIT_MINUTES:-15}
case "$wait" in '' | *[!0-9]*)
  echo "::warning title=Fleet table::FLEET_WAIT_MINUTES must be a number of minutes, not \"$wait\": 15 are used"
  wait=15 ;;
esac
if [ "$wait" -gt 20 ]; then
  echo "::warning title=Fleet table::FLEET_WAIT_MINUTES is at most 20 (the summary job stops at 25 minutes): 20 are used"
  wait=20
fi
booths=$(jq -r '.[]' <<<"$BOOTHS")
row() { printf '| %s | | | %s | | | %s |\n' "$1" "$2" "$3" >>"$SUMMARY"; }
{
  echo '| Booth | Version | Release date | Last deploy | When | Event | Detail |'
  echo '|---|---|---|---|---|---|---|'
} >>"$SUMMARY"
if [ "${ROLLBACK:-false}" != true ] && [ "${BUILD_RESULT:-}" != success ]; then
  for b in $booths; do row "$b" "not deployed" "the build did not succeed ($BUILD_RESULT): nothing was sent to the booths"; done
  exit 0
fi

echo "Waiting up to $wait min for the booths' rows"
deadline=$(($(date +%s) + wait * 60))
mkdir -p fleet
while :; do
  # The jobs that ended first, then the rows: a job's row is uploaded before it ends.
  gh api "repos/$GH_REPO/actions/runs/$RUN_ID/jobs?per_page=100" \
    --jq '.jobs[] | select(.status == "completed") | "\(.name)\t\(.conclusion)"' >ended.txt || true
  gh api "repos/$GH_REPO/actions/runs/$RUN_ID/artifacts?per_page=100" \
    --jq '.artifacts[] | select(.name | startswith("fleet-")) | "\(.id) \(.name)"' >reported.txt || true
  while read -r id name; do
    [ -d "fleet/$name" ] && continue
    gh api "repos/$GH_REPO/actions/artifacts/$id/zip" >"fleet/$name.zip" && mkdir -p "fleet/$name" && unzip -q -o "fleet/$name.zip" -d "fleet/$name"
  done <reported.txt
  missing='' silent=''
  for b in $booths; do
    [ ! -f "fleet/fleet-$b/fleet-row.md" ] || continue
    ended=$(awk -F'\t' -v a="deploy ($b)" -v r="rollback ($b)" '$1 == a || $1 == r { print $2; exit }' ended.txt)
    if [ -n "$ended" ]; then silent="$silent $b:$ended"; else missing="$missing $b"; fi
  done
  [ -n "$missing" ] && [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 20
done
for b in $booths; do [ ! -f "fleet/fleet-$b/fleet-row.md" ] || cat "fleet/fleet-$b/fleet-row.md" >>"$SUMMARY"; done
for s in $silent; do row "${s%%:*}" "no report" "its job ended (${s#*:}) without a fleet row: see its log"; done
for b in $missing; do
  row "$b" "no report within $wait min" "off, or still installing: its pull installs the release when it is back, and the fleet page says so"
done
