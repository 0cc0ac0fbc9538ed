# syntax=docker/dockerfile:1
# docsync: build with the dev dependencies; run the bundle alone (dist/: the CLI and its
# dependencies in one esbuild bundle, decision 45), with no node_modules at all.
# The base is Node.js 24 (LTS), pinned to an exact release and to its multi-arch index digest in
# both stages (the tag names the release for people, the digest makes the build reproducible);
# bump both together (Dependabot proposes it: .github/dependabot.yml). docsync itself also runs on
# Node.js 20.19+.
FROM node:24.11.1-bookworm-slim@sha256:48abc13a19400ca3985071e287bd405a1d99306770eb81d61202fb6b65cf0b57 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/esbuild-options.mjs scripts/build-info.mjs scripts/notices.mjs ./scripts/
COPY src ./src
# The build's warm-up run (a plan of config/ against the emulator seeded from examples/) makes the
# V8 code cache shipped beside the CLI (docs/decisions/0046-code-cache.md).
COPY examples/emulator-seed.yaml ./examples/emulator-seed.yaml
COPY config ./config
# The commit `docsync version` prints (the build context has no .git).
ARG REVISION=unknown
RUN DOCSYNC_BUILD_COMMIT="$REVISION" npm run build

FROM node:24.11.1-bookworm-slim@sha256:48abc13a19400ca3985071e287bd405a1d99306770eb81d61202fb6b65cf0b57 AS runtime
# The release workflow passes these; `docker build` without them still works.
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/docsync/docsync
LABEL org.opencontainers.image.title="docsync" \
      org.opencontainers.image.description="GitOps sync daemon for GitBook organizations" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}"
# git for the --repo source; ssh for SSH remotes; tini reaps git's child processes.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git openssh-client ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The daemon listens on 127.0.0.1 by default; in a container it must listen on every interface
# (probes, the webhook, /metrics). The status page, /status and /api are then refused unless
# DOCSYNC_UI_AUTH_FILE names a file with a token or user:password (README "Security").
ENV NODE_ENV=production \
    DOCSYNC_STATE_DIR=/var/lib/docsync \
    DOCSYNC_PORT=8080 \
    DOCSYNC_HOST=0.0.0.0
# No `npm ci --omit=dev`: the bundle carries its dependencies (test/ci/image.test.ts runs it from
# a folder without node_modules). package.json: how the CLI finds the files below
# (src/package-root.ts); dist/package.json makes its launcher, dist/cli.js, CommonJS.
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY schema ./schema
# `docker run -p 8080:8080 IMAGE demo`: the emulator seeded from the example and the daemon on the
# demo config (the same files the npm package carries).
COPY examples/emulator-seed.yaml ./examples/emulator-seed.yaml
COPY config ./config
RUN mkdir -p /var/lib/docsync && chown -R node:node /var/lib/docsync
# The image's `node` user (uid 1000), never root.
USER 1000:1000
EXPOSE 8080
# The token comes from a mounted secret: DOCSYNC_TOKEN_FILE=/run/secrets/docsync-token
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.DOCSYNC_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/cli.js"]
CMD ["daemon"]
