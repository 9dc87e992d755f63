# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && node packages/db/scripts/generate.mjs \
 && NEXT_TELEMETRY_DISABLED=1 npx turbo run build --filter=@poolbench/web --filter=@poolbench/cli

FROM node:20-bookworm-slim
# bubblewrap: the sandbox of users' own k6 scripts (docs/deploy.md, "Users' own k6 scripts")
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --uid 10001 poolbench
WORKDIR /app
COPY --from=build --chown=poolbench /app /app
USER poolbench
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 POOLBENCH_WEB_HOST=0.0.0.0
EXPOSE 3000
CMD ["npm", "run", "-s", "start", "-w", "@poolbench/web"]
