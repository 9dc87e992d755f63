#!/usr/bin/env bash
# The whole suite: setup (incl. Chromium), lint, typecheck, unit + integration tests on the real
# services, then browser tests against the running stack. Prints one closing line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
scripts/setup.sh --for-tests
load_env
say "lint";       npx turbo run lint --output-logs=errors-only
say "typecheck";  npx turbo run typecheck --output-logs=errors-only
say "unit and integration tests"
npx turbo run test --concurrency=1 --output-logs=full
say "browser tests"
scripts/stack.sh start
npm run -s test:e2e -w @poolbench/web
say "CLI against the running stack"
npm run -s test:e2e -w @poolbench/cli
