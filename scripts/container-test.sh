#!/usr/bin/env bash
# Builds the real Dockerfile with podman and tries the image as an admin would (docs/operations.md,
# "Container"): it starts, turns healthy, signs a user up through the API, and after a restart of
# the container the user's data is still in the volume. Prints the image's size.
#
# No image registry is reachable here, so the official base the Dockerfile names,
# docker.io/library/node:20-bookworm-slim, is stood in for once per machine: Debian bookworm's
# minbase (debootstrap) with this machine's Node binary, tagged with the official name, which podman
# then uses without pulling. Podman runs with runc and cgroupfs (crun fails on this kind of machine).
set -euo pipefail
cd "$(dirname "$0")/.."

base=docker.io/library/node:20-bookworm-slim
image=localhost/stageline:test
name=stageline-container-test
port=${CONTAINER_TEST_PORT:-3897}
conf=$(mktemp)
printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n' >"$conf"
export CONTAINERS_CONF=$conf
pm() { podman --runtime runc "$@"; }
volume="$name-data"
cleanup() {
  pm rm -f "$name" >/dev/null 2>&1 || true
  pm volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -f "$conf"
}
trap cleanup EXIT
started=$SECONDS

if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get install -y -qq podman runc debootstrap >/dev/null
fi

if ! pm image exists "$base"; then
  echo "--- making a stand-in for $base (once per machine)"
  rootfs=$(mktemp -d)
  mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  debootstrap --variant=minbase bookworm "$rootfs" "${mirror:-http://deb.debian.org/debian}" >/dev/null
  install -m 0755 "$(command -v node)" "$rootfs/usr/local/bin/node"
  # npm, as the official image has it: the one that came with this machine's Node.
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  # This machine reaches the npm registry through a proxy with its own certificate authority: the
  # stand-in trusts what the machine trusts, as a studio's base image behind such a proxy would.
  mkdir -p "$rootfs/etc/ssl/certs" "$rootfs/usr/local/etc"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >"$rootfs/usr/local/etc/npmrc"
  chroot "$rootfs" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
  tar -C "$rootfs" -c . | pm import --change 'CMD ["node"]' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$base" >/dev/null
  rm -rf "$rootfs"
fi

echo "--- building the Dockerfile"
# Docker's image format: the OCI one has no HEALTHCHECK.
pm build --format docker --network host -t "$image" . >/tmp/stageline-container-build.log 2>&1 || {
  tail -40 /tmp/stageline-container-build.log
  exit 1
}
size=$(pm image inspect "$image" --format '{{.Size}}')
echo "--- image size: $((size / 1024 / 1024)) MB"

run() {
  # The check is run by hand below: without systemd here, podman cannot time it.
  pm run -d --health-interval disable --name "$name" --network host -e PORT="$port" -e HOST=127.0.0.1 -v "$volume:/data" "$image" >/dev/null
}
healthy() {
  local since=$SECONDS
  for _ in $(seq 1 300); do
    if curl -fsS "http://127.0.0.1:$port/api/health/" >/dev/null 2>&1; then
      echo "--- healthy after $((SECONDS - since)) s"
      return 0
    fi
    sleep 0.2
  done
  pm logs "$name" | tail -30
  return 1
}
api() { curl -fsS -H 'content-type: application/json' "$@"; }

run
healthy
pm healthcheck run "$name" >/dev/null || { echo "the image's HEALTHCHECK failed"; exit 1; }
echo "--- the image's HEALTHCHECK passes"
user="container$RANDOM"
registered=$(api -X POST "http://127.0.0.1:$port/api/users/register/" \
  -d "{\"username\":\"$user\",\"email\":\"$user@example.com\",\"password\":\"container test password\"}")
ephemeral=$(node -e 'console.log(JSON.parse(process.argv[1]).ephemeral_token)' "$registered")
code=$(api "http://127.0.0.1:$port/api/dev/outbox/" |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const m=JSON.parse(s).find((x)=>x.to===process.argv[1]);console.log(/\b\d{6}\b/.exec(m.text)[0])})' "$user@example.com")
api -X POST "http://127.0.0.1:$port/api/otp/check/" -d "{\"code\":\"$code\",\"ephemeral_token\":\"$ephemeral\"}" >/dev/null
echo "--- signed up $user through the API"

pm restart "$name" >/dev/null
healthy
tokens=$(api -X POST "http://127.0.0.1:$port/api/users/login/" \
  -d "{\"username\":\"$user\",\"password\":\"container test password\"}")
node -e 'if (!JSON.parse(process.argv[1]).access) process.exit(1)' "$tokens"
echo "--- after a restart $user signs in: the data is in the volume"
whoami=$(pm exec "$name" id -un)
[ "$whoami" = node ] || { echo "the container runs as $whoami, not node"; exit 1; }
echo "--- runs as $whoami; container test passed in $((SECONDS - started)) s"
