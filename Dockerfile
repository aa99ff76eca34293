# Stageline in one image (docs/operations.md, "Container"): the built server and web app, the
# server's production dependencies only, run as the unprivileged `node` user with its data in the
# /data volume. Configured by the same environment variables as `npm start` (docs/configuration.md).

# The build: every dependency, then `npm run build` (web app, then server).
FROM docker.io/library/node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
RUN npm ci --no-audit --no-fund
COPY . .
# The web app's source maps (20 MB) stay out of the image; the server's are kept for its stack traces.
RUN npm run build && find packages/web/dist -name '*.map' -delete

# What the server needs at run time: its own dependencies, without dev tools and the web app's.
FROM docker.io/library/node:20-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
RUN npm ci --omit=dev --no-audit --no-fund --workspace @stageline/server --include-workspace-root=false \
  && npm cache clean --force

FROM docker.io/library/node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/server/drizzle packages/server/drizzle
COPY --from=build /app/packages/web/dist packages/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--v8-pool-size=1", "packages/server/dist/main.js"]
