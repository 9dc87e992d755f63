# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && node packages/db/scripts/generate.mjs \
 && NEXT_TELEMETRY_DISABLED=1 npx turbo run build --filter=@poolbench/web --filter=@poolbench/cli

FROM node:20-bookworm-slim
RUN useradd --system --create-home --uid 10001 poolbench
WORKDIR /app
COPY --from=build --chown=poolbench /app /app
USER poolbench
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
EXPOSE 3000
CMD ["npm", "run", "-s", "start", "-w", "@poolbench/web"]
