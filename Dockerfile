# servicedesk-slack: the Slack app for the service-desk platform.
#   docker build -t servicedesk-slack .
#   docker run --rm --env-file .env -p 3000:3000 servicedesk-slack
#   docker run --rm --env-file .env servicedesk-slack node src/ops/doctor-cli.ts
# Configuration comes from the environment at run time (.env.example lists every variable);
# nothing secret is baked into the image.

# Stage 1: production dependencies only, installed exactly as the lock file says.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# Stage 2: the runtime. Node runs the TypeScript sources by type stripping: no build step.
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
# Root owns the files and the app runs as the unprivileged `node` user, so it cannot change them.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json manifest.yml ./
COPY src ./src
USER node
EXPOSE 3000
# Liveness only (/healthz); orchestrators should also probe /readyz before sending traffic.
HEALTHCHECK --interval=15s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The app shuts down gracefully on SIGTERM within 10 s; give `docker stop -t` at least that.
STOPSIGNAL SIGTERM
CMD ["node", "src/main.ts"]
