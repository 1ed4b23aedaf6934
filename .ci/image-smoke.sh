#!/usr/bin/env bash
# Builds the container image the Dockerfile describes, with no image registry: the base
# (Debian 12 + Node 20, .ci/image-base.sh, mmdebstrap) imported into podman, then `podman build`
# with runc; then starts gateway, scheduler and two crawlers from it against Postgres, ClickHouse
# and Kafka on loopback (test/image/image-smoke.test.ts). Where this machine cannot run containers
# (no podman and no way to install it, no user namespaces or overlay), it says exactly why and exits
# 0 without claiming a pass; every other failure fails the step.
set -euo pipefail
cd "$(dirname "$0")/.."
image=${SVC_IMAGE:-localhost/svc:0.1.0}
base=localhost/svc-node:20-bookworm
skip() { echo "== image smoke NOT RUN: $*"; exit 0; }

if ! command -v podman >/dev/null || ! command -v mmdebstrap >/dev/null || ! command -v runc >/dev/null; then
  [ "$(id -u)" = 0 ] || skip "podman, mmdebstrap and runc are missing and this user cannot install them (apt-get install podman mmdebstrap runc)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman mmdebstrap runc uidmap >/dev/null \
    || skip "apt-get could not install podman, mmdebstrap and runc"
fi
# crun, podman's default here, fails on hybrid cgroups: runc does not.
podman --runtime runc info >/dev/null 2>&1 || skip "podman cannot run here: $(podman --runtime runc info 2>&1 | tail -1)"

started=$(date +%s)
podman image exists "$base" || .ci/image-base.sh "$base"
# A TLS-intercepting proxy's CA (the system bundle here) reaches npm inside the build as a secret.
secret=()
[ -f /etc/ssl/certs/ca-certificates.crt ] && secret=(--secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt)
podman --runtime runc build --quiet --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 "${secret[@]}" \
  --build-arg NODE_IMAGE="$base" -t "$image" . >/dev/null
built=$(date +%s)
echo "== image $image built in $((built - started)) s: $(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"
SVC_IMAGE="$image" npx vitest run --config test/image/vitest.config.ts
echo "== image smoke passed in $(( $(date +%s) - started )) s"
