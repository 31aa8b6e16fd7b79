# The service's container image (docs/operations.md). It runs the very commands CI runs for the
# production build and start (.ci/run, "production cluster"): `npm install` from the lock file,
# `npm run build`, then `node dist/start.js` with NODE_ENV=production on production dependencies only.
# One image for every role: ROLE=web | worker | all (default all) chooses what a container does.
# Not built on the development machines (no container engine there); see README "Production".

# Node.js 24, the active LTS line (security review 3, M6: Node 20 reached end of life on 2026-04-30;
# 22 is in maintenance until 2027-04-30). Pin it by digest where you build (docker build --build-arg
# NODE_IMAGE=node:24-bookworm-slim@sha256:...) and rebuild with --pull at least monthly and whenever
# Node.js publishes a security release (PCI DSS v4 6.3.3); docs/operations.md, "Keeping the image patched".
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: all dependencies, the build once
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CI=true
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma ./prisma
COPY prisma.config.ts ./
# The workspace package (its package.json for npm, its schema file, which prisma/schema links to).
COPY packages/inngest-embedded/package.json packages/inngest-embedded/package.json
COPY packages/inngest-embedded/prisma packages/inngest-embedded/prisma
# As CI does: `npm ci` insists on every platform's optional binaries, `npm install` installs the locked versions.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# --- production dependencies only (no tsx, no esbuild, no Prisma CLI)
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/inngest-embedded/package.json packages/inngest-embedded/package.json
# --ignore-scripts: the only install script is `prisma generate`; the build already holds the client.
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 DATA_DIR=/tmp/cps-data
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/next.config.mjs ./
COPY --from=build /app/.next ./.next
COPY --from=build /app/public ./public
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
USER node
EXPOSE 3000
# Readiness: 503 while starting, while draining after SIGTERM, and when the database is unreachable.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains within SHUTDOWN_TIMEOUT_MS (25 s by default): give the container more than that.
STOPSIGNAL SIGTERM
CMD ["node", "dist/start.js"]
