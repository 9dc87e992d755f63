#!/usr/bin/env bash
# The REST API under Schemathesis: every check (server errors, status codes, content types and
# headers, response schemas, negative and positive data, unsupported methods, stateful links)
# against the document at /api/openapi.json, as a member of a new team with an API token of both
# scopes. Runs its own web server of the current build on FUZZ_PORT (default 3101) with the
# per-token rate limit raised, so the fuzzer tests the operations rather than the limit; cancels
# every run the fuzzer launched, revokes the token and stops that server, pass or fail.
# Needs the services, a worker-less stack is enough, and `next build` done (scripts/test.sh runs
# it after the browser tests). Schemathesis comes from setup (.data/schemathesis).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
load_env
ST="$DATA/schemathesis/bin/schemathesis"
[ -x "$ST" ] || die "Schemathesis is not installed: run scripts/setup.sh --for-tests"
PORT=${FUZZ_PORT:-3101}
port_busy "$PORT" && die "port $PORT is in use; set FUZZ_PORT"
fixture() { (cd "$ROOT/apps/web" && npx tsx e2e/fuzz-fixture.ts "$@"); }

# the hooks rewrite generated input; what they hand over must still match the document, or a
# hook's own mistake reads as the API refusing valid data
(cd "$ROOT/scripts" && "$DATA/schemathesis/bin/python" -m unittest -q schemathesis_hooks_test) ||
  die "the Schemathesis hooks' own tests failed"

read -r team token < <(fixture create)
server_pid=""
finish() {
  if [ -n "$server_pid" ]; then kill -TERM -- "-$server_pid" 2>/dev/null || true; fi
  say "fuzz cleanup: $(fixture cleanup "$team")"
}
trap finish EXIT

PORT=$PORT API_RATE_LIMIT_PER_MINUTE=1000000 WEB_SWEEPER=0 \
  setsid bash -c 'cd apps/web && exec node server.mjs' >"$DATA/logs/fuzz-web.log" 2>&1 </dev/null &
server_pid=$!
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/api/openapi.json" >/dev/null 2>&1 && break
  sleep 0.5
done

mkdir -p test-results
# from .data, where Schemathesis keeps its cache (.schemathesis/)
cd "$DATA"
FUZZ_TOKEN=$token PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=schemathesis_hooks \
  "$ST" --config-file "$ROOT/scripts/schemathesis.toml" run "http://127.0.0.1:$PORT/api/openapi.json" \
  --checks all \
  --max-examples "${FUZZ_MAX_EXAMPLES:-25}" \
  --report junit --report-junit-path "$ROOT/test-results/schemathesis-junit.xml" \
  --no-color |
  # Schemathesis closes with a pytest-style rule ("==== 2 warnings in 65.56s ===="); a CI reader
  # takes such a line for a pytest run that ran no test, so it is printed as a plain line
  sed -E 's/^=+ (.* in [0-9.]+s) =+$/Schemathesis finished: \1/'
