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
phase() { # name, command...: runs one phase and says how long it took and how busy the CPUs were
  local name=$1 t0=$SECONDS c0; shift
  c0=$(cpu_mark)
  say "$name"
  "$@"
  say "$name: $((SECONDS - t0)) s ($(busy_share "$c0"))"
}
# lanes TITLE NAME CMD [NAME CMD ...]: runs each CMD (a shell line) at once, each into its own log
# under .data/logs/test-NAME.log, printed whole when all have ended so no lane's lines are cut into
# another's; says how long each took, and fails naming every lane that failed.
lanes() {
  local title=$1 t0=$SECONDS c0; shift
  local -a names=() pids=()
  c0=$(cpu_mark)
  say "$title"
  while (($#)); do
    local name=$1 cmd=$2; shift 2
    names+=("$name")
    (
      t=$SECONDS
      rc=0
      bash -c "$cmd" || rc=$?
      echo "[lane $name] $((SECONDS - t)) s, exit $rc"
      exit "$rc"
    ) >"$DATA/logs/test-$name.log" 2>&1 &
    pids+=($!)
  done
  local -a failed=()
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
  done
  for name in "${names[@]}"; do cat "$DATA/logs/test-$name.log"; done
  say "$title: $((SECONDS - t0)) s ($(busy_share "$c0"))"
  for name in "${names[@]}"; do say "  $(tail -n 1 "$DATA/logs/test-$name.log")"; done
  ((${#failed[@]} == 0)) || die "failed: ${failed[*]} (logs: .data/logs/test-<lane>.log)"
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
# Two lanes: the worker's files (each a world of its own, mostly waiting on real runs; two at a
# time, see apps/worker/vitest.config.ts) beside every other workspace's, one workspace at a time.
# Tests that judge timing or accuracy are not here: they run last, alone.
lanes "integration tests" \
  integration-worker "npx turbo run test:integration --filter=@poolbench/worker --output-logs=full" \
  integration-rest "npx turbo run test:integration --filter=!@poolbench/worker --concurrency=1 --output-logs=full"
say "starting web and worker for the browser tests"
# no demo experiment on this start: specs measure their own runs (e2e/first-run.spec.ts queues it
# itself); the build above is in turbo's cache, so stack.sh's build replays it
POOLBENCH_FIRST_DEMO=0 scripts/stack.sh start
# The browser tests alone: the advisor's and the hypotheses' specs need their runs to offer their
# load, which the other lanes and a busy machine took from them (measured: docs/testing.md).
phase "browser tests" npm run -s test:e2e -w @poolbench/web
# Then two lanes: the CLI against the stack (mostly waiting on its real runs) and Schemathesis
# against a web server of its own (FUZZ_PORT; it cancels whatever it launched).
lanes "CLI and REST API tests" \
  cli-e2e "npm run -s test:e2e -w @poolbench/cli" \
  fuzz "scripts/fuzz-rest.sh"
# Last and alone, once nothing else runs: the tests that judge timing or accuracy, one file at a
# time (a stack that was running before the suite stays up, idle).
if ((own_stack)); then scripts/stack.sh stop; fi
phase "measurement tests" npx turbo run test:measurement --concurrency=1 --output-logs=full
