#!/usr/bin/env bash
# The whole suite: setup (incl. Chromium), formatting, lint, typecheck, unit tests, integration
# tests on the real services, then browser tests against the running stack, and last Schemathesis
# against the REST API (scripts/fuzz-rest.sh). Every test runner writes a JUnit report; the
# suite closes with the sum of them, "==== N passed, N failed, N skipped in Ts ===="
# (scripts/test-summary.mjs). docs/testing.md says how the suite is organised and cached.
# Whatever it starts (services, web, worker, the background build) it stops again, pass or fail,
# so a CI job ends with no process left behind; what was already running (a `make up` stack)
# stays up.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
# the browser and CLI tests sign up hundreds of accounts within minutes on the stack and web
# servers this suite starts; the limit itself is tested in apps/web (sign-in-limits.test.ts)
export SIGN_UP_LIMIT_PER_MINUTE=100000
own_services=0 own_stack=0 build_pid=""
port_busy "${PG_PORT:-54329}" || port_busy "${REDIS_PORT:-63799}" || own_services=1
port_busy 3000 || own_stack=1
cleanup() {
  local rc=$?
  if [ -n "$build_pid" ]; then kill -TERM -- "-$build_pid" 2>/dev/null || true; fi
  if ((own_stack)); then scripts/stack.sh stop || true; fi
  if ((own_services)); then infra/services.sh stop || true; fi
  # the closing line comes last, after the stop messages; a count of no test fails the suite
  if ((rc == 0)); then
    say "test reports"
    POOLBENCH_SUITE_SECONDS=$SECONDS node scripts/test-summary.mjs "$ROOT" || exit 1
  else
    # a CI log is often read from its tail: end with what failed and why
    say "the suite failed (exit $rc); failed tests:"
    node scripts/test-summary.mjs "$ROOT" --failures || true
  fi
}
trap cleanup EXIT
phase() { # name, command...: runs one phase and says how long it took
  local name=$1 t0=$SECONDS; shift
  say "$name"
  "$@"
  say "$name: $((SECONDS - t0)) s"
}
scripts/setup.sh --for-tests
load_env
# reports of an earlier suite must not be counted in this one (turbo restores the unit reports of
# cached unit tests, which ran on the same inputs)
rm -f apps/*/.cache/junit/*.xml apps/lab-targets/*/.cache/junit/*.xml packages/*/.cache/junit/*.xml \
  infra/.cache/junit/*.xml test-results/*.xml
# prettier's cache (node_modules/.cache/prettier) skips files unchanged since they last passed
phase "format" npx prettier --check . --log-level warn --cache --cache-strategy content
phase "lint" npx turbo run lint --output-logs=errors-only
phase "typecheck" npx turbo run typecheck --output-logs=errors-only
# The production build of web and the CLI bundle runs beside the unit tests (pure, cached) and
# must be done before the integration tests, which are timing-sensitive and must not share the
# two cores with `next build`. It starts after typecheck because tsc reads .next/types, which
# the build writes. Its own process group, so cleanup can stop it with everything it started.
build_log="$DATA/logs/test-build.log"
mkdir -p "$DATA/logs"
build_t0=$SECONDS
setsid npx turbo run build --filter=@poolbench/web --filter=@poolbench/cli --output-logs=errors-only \
  >"$build_log" 2>&1 </dev/null &
build_pid=$!
say "building web and the CLI bundle in the background (log: .data/logs/test-build.log)"
phase "unit tests" npx turbo run test:unit --output-logs=errors-only
say "waiting for the web build"
if ! wait "$build_pid"; then
  build_pid=""
  tail -n 40 "$build_log" >&2
  die "the web build failed (log: .data/logs/test-build.log)"
fi
build_pid=""
say "web build: $((SECONDS - build_t0)) s after it started"
# one workspace at a time: several count requests per second of real k6 runs, which another
# workspace beside them disturbs (apps/worker runs two of its own files at once, see its config)
phase "integration tests" npx turbo run test:integration --concurrency=1 --output-logs=full
say "starting web and worker for the browser tests"
# no demo experiment on this start: specs measure their own runs (e2e/first-run.spec.ts queues it
# itself); the build above is in turbo's cache, so stack.sh's build replays it
POOLBENCH_FIRST_DEMO=0 scripts/stack.sh start
phase "browser tests" npm run -s test:e2e -w @poolbench/web
# Two lanes at once: the CLI against the stack (mostly waiting on its real runs) and Schemathesis
# against a web server of its own (FUZZ_PORT; it cancels whatever it launched). Each writes its
# own log, printed whole when both ended, so neither's lines are cut into the other's.
lanes_t0=$SECONDS
cli_log="$DATA/logs/test-cli-e2e.log" fuzz_log="$DATA/logs/test-fuzz.log"
phase "CLI and every shell example of docs/ci.md against the running stack" \
  npm run -s test:e2e -w @poolbench/cli >"$cli_log" 2>&1 &
cli_pid=$!
phase "REST API under Schemathesis (all checks)" scripts/fuzz-rest.sh >"$fuzz_log" 2>&1 &
fuzz_pid=$!
cli_rc=0 fuzz_rc=0
wait "$cli_pid" || cli_rc=$?
wait "$fuzz_pid" || fuzz_rc=$?
cat "$cli_log" "$fuzz_log"
say "CLI and Schemathesis lanes: $((SECONDS - lanes_t0)) s together"
((cli_rc == 0)) || die "the CLI tests failed (exit $cli_rc; log: .data/logs/test-cli-e2e.log)"
((fuzz_rc == 0)) || die "Schemathesis failed (exit $fuzz_rc; log: .data/logs/test-fuzz.log)"
