#!/usr/bin/env bash
# Builds the base image the Dockerfile's NODE_IMAGE names, from Debian's packages alone (no image
# registry is needed): Debian 12 (bookworm, minbase) made with mmdebstrap, Node.js and npm as this
# machine has them (Node 20: Debian 12's own nodejs is 18, and Svc needs 20.19 or later), and the
# "node" user (1000:1000) that the node images have. Imported into podman as $1 (default
# localhost/svc-node:20-bookworm). Needs root, mmdebstrap and podman (apt-get install mmdebstrap podman runc).
set -euo pipefail
name=${1:-localhost/svc-node:20-bookworm}
node=$(command -v node)
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
node_major=$("$node" -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || { echo "image-base: this machine's node is $("$node" --version), not 20" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$work/base.tar" \
  --customize-hook="copy-in $node /usr/bin/" \
  --customize-hook='mkdir -p "$1/usr/lib/node_modules/npm"' \
  --customize-hook="sync-in $npm_dir /usr/lib/node_modules/npm" \
  --customize-hook='chroot "$1" ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm' \
  --customize-hook='chroot "$1" ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx' \
  --customize-hook='chroot "$1" sh -c "groupadd -g 1000 node && useradd -u 1000 -g 1000 -m -s /bin/sh node"' \
  --customize-hook='rm -rf "$1/var/cache/apt/archives/"*.deb "$1/var/lib/apt/lists/"*'
podman import --change 'CMD ["node"]' --change 'ENV NODE_VERSION='"$("$node" --version)" "$work/base.tar" "$name" >/dev/null
echo "image-base: $name ($(du -m "$work/base.tar" | cut -f1) MB tar) in $(( $(date +%s) - started )) s"
