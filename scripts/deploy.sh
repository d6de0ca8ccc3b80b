#!/bin/sh
# Installs a built AppImage on the booth and switches to it only once it answers /healthz;
# otherwise the previous version is put back. Run by the pipeline's deploy job.
set -eu
APPIMAGE="$1"
: "${BOOTH_HOST:?}" "${BOOTH_USER:?}" "${BOOTH_SSH_KEY:?}" "${BOOTH_KNOWN_HOSTS:?}"

KEY=$(mktemp)
HOSTS=$(mktemp)
trap 'rm -f "$KEY" "$HOSTS"' EXIT
printf '%s\n' "$BOOTH_SSH_KEY" > "$KEY"
printf '%s\n' "$BOOTH_KNOWN_HOSTS" > "$HOSTS"
chmod 600 "$KEY"
SSH="ssh -i $KEY -o UserKnownHostsFile=$HOSTS -o StrictHostKeyChecking=yes"
TARGET="$BOOTH_USER@$BOOTH_HOST"
NAME=$(basename "$APPIMAGE")

scp -i "$KEY" -o UserKnownHostsFile="$HOSTS" -o StrictHostKeyChecking=yes "$APPIMAGE" "$TARGET:boothdeck/releases/$NAME.part"
$SSH "$TARGET" sh -s "$NAME" <<'REMOTE'
set -eu
NAME="$1"
cd ~/boothdeck
mv "releases/$NAME.part" "releases/$NAME"
chmod +x "releases/$NAME"
PREVIOUS=$(readlink current || true)
ln -sfn "releases/$NAME" current.new && mv -T current.new current
systemctl --user restart boothdeck
for i in $(seq 1 30); do
  if curl -fsS http://127.0.0.1:8080/healthz >/dev/null 2>&1; then
    echo "Boothdeck $NAME is up"
    ls -1t releases/*.AppImage | tail -n +4 | xargs -r rm -f
    exit 0
  fi
  sleep 2
done
echo "Boothdeck $NAME did not answer: rolling back to $PREVIOUS" >&2
if [ -n "$PREVIOUS" ]; then
  ln -sfn "$PREVIOUS" current.new && mv -T current.new current
  systemctl --user restart boothdeck
fi
exit 1
REMOTE
