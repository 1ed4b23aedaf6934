# syntax=docker/dockerfile:1
# Svc's container image: the compiled build (dist/) on Node 20, production dependencies only, run
# as the unprivileged "node" user, nothing written outside /tmp and the data directory (a read-only
# root file system works). `--build-arg CHROMIUM=1` adds Debian's Chromium for crawler nodes that
# render pages (SVC_BROWSER=auto finds it at /usr/bin/chromium). .ci/image-tree.sh assembles the same
# file tree without Docker, and CI starts `svc serve` from it.
#
#   docker build -t svc:0.1.0 .
#   docker build -t svc:0.1.0-chromium --build-arg CHROMIUM=1 .

ARG NODE_IMAGE=node:20.19-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Behind a TLS-intercepting proxy, hand its CA bundle over as a build secret (never kept in a layer):
#   docker build --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt .
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY runtime ./runtime
COPY storage ./storage
COPY gateway ./gateway
COPY scheduler ./scheduler
COPY crawler ./crawler
COPY analyzer ./analyzer
COPY utilities ./utilities
COPY proto ./proto
COPY clients/typescript/src ./clients/typescript/src
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG CHROMIUM=0
# Debian's Chromium for rendering crawler nodes only; the default image has no browser. Not pinned:
# bookworm-security replaces Chromium's version every few weeks and drops the old one.
# hadolint ignore=DL3008
RUN if [ "$CHROMIUM" = "1" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends chromium fonts-liberation \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# MALLOC_ARENA_MAX: glibc reads it once, at start (docs/operations.md, Memory): two malloc arenas
# instead of eight per core keep what a large crawl's threads freed from staying resident for good.
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    SVC_DATA_DIR=/data \
    SVC_HOST=0.0.0.0 \
    SVC_ADMIN_HOST=0.0.0.0
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json package-lock.json ./
COPY bin/svc.js bin/build.js ./bin/
RUN mkdir -p /data && chown 1000:1000 /data
# The node image's "node" user (1000:1000), by number so that runAsNonRoot can verify it.
USER 1000:1000
VOLUME ["/data"]
EXPOSE 8080 9464 7070
# --expose-gc: the full collection after a large crawl (crawler/heap-trim.ts).
ENTRYPOINT ["node", "--expose-gc", "dist/bin/entry.js"]
CMD ["serve"]
