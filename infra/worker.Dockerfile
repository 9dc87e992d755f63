# syntax=docker/dockerfile:1
# The worker image carries PoolBench's k6 build and the lab target, so a compose or cluster
# deployment can run managed targets too.
FROM golang:1.26-bookworm AS go
WORKDIR /src
COPY packages/k6 packages/k6
COPY apps/lab-targets/go apps/lab-targets/go
RUN cd packages/k6 && CGO_ENABLED=0 go build -trimpath -o /out/k6 ./cmd/k6 \
 && cd /src/apps/lab-targets/go && CGO_ENABLED=0 go build -trimpath -o /out/lab-target .

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && node packages/db/scripts/generate.mjs

FROM node:20-bookworm-slim
# bubblewrap: the sandbox of users' own k6 scripts (docs/deploy.md, "Users' own k6 scripts")
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --uid 10001 poolbench
WORKDIR /app
COPY --from=deps --chown=poolbench /app /app
COPY --from=go /out/k6 /app/packages/k6/bin/k6
COPY --from=go /out/lab-target /app/apps/lab-targets/go/bin/lab-target
USER poolbench
ENV NODE_ENV=production POOLBENCH_RUNTIME_DIR=/tmp/poolbench-worker
EXPOSE 9464
CMD ["node", "--import", "tsx", "apps/worker/src/index.ts"]
