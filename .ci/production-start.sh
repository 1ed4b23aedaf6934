#!/usr/bin/env bash
# Proves the production build: the image's file tree (.ci/image-tree.sh: dist/ and `npm ci
# --omit=dev`, no tsx, no TypeScript) starts `svc serve` until /readyz answers 200, then drains on
# SIGTERM and exits 0. Prints the start time and the resident memory once ready.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(mktemp -d)
data=$(mktemp -d)
trap 'rm -rf "$tree" "$data"' EXIT
npm run build
.ci/image-tree.sh "$tree"
test ! -e "$tree/node_modules/tsx" && test ! -e "$tree/node_modules/typescript"
admin=$(node -e 'const s=require("net").createServer().listen(0,()=>{console.log(s.address().port);s.close()})')
started=$(date +%s%N)
(cd "$tree" && SVC_DATA_DIR="$data" SVC_PORT=0 SVC_ADMIN_PORT="$admin" SVC_LOG_LEVEL=warn exec node dist/bin/entry.js serve) &
pid=$!
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$admin/readyz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { echo "svc serve exited before ready" >&2; exit 1; }
  sleep 0.2
done
curl -sf "http://127.0.0.1:$admin/readyz" >/dev/null
echo "svc serve from the image tree: ready in $(( ($(date +%s%N) - started) / 1000000 )) ms, RSS $(( $(ps -o rss= -p "$pid") / 1024 )) MB"
kill -TERM "$pid"
wait "$pid"
echo "drained and exited 0"
