#!/usr/bin/env bash
# Assembles in $1 the file tree the container image holds (the Dockerfile's runtime stage copies
# exactly these): the compiled build, the `svc` launcher, package.json and the lock file, and the
# production dependencies only (npm ci --omit=dev). Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
test -f dist/.build-stamp || { echo "dist/ is not built: npm run build" >&2; exit 1; }
mkdir -p "$out/bin"
cp -r dist package.json package-lock.json "$out/"
cp bin/svc.js bin/build.js "$out/bin/"
(cd "$out" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
