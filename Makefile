# PoolBench: two commands. `make up` sets up and starts everything; `make test` sets up and runs
# every test. Both are idempotent and quick on a second run.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help setup up down test check test-unit test-e2e lint typecheck bench demo seeds

help:
	@echo "make up      install, start Postgres/Redis, migrate, seed, build and start web + worker"
	@echo "make test    the same setup (plus Chromium), then lint, typecheck, unit, integration, browser tests"
	@echo "make check   a fast check of your change: format, lint, typecheck, unit and its workspaces' integration tests"
	@echo "make down    stop web, worker, Postgres and Redis started by make up"
	@echo "make bench   benchmarks, results written to docs/benchmarks.md"
	@echo "make demo    the seed 004 preset end to end through the queue, comparison printed (.data/results)"
	@echo "make seeds   every seed experiment with its claims through the queue (SEEDS=004,002, SCALE=1); .data/results"
	@echo "             (WRITE_DOCS=1: demo and seeds write docs/benchmarks.md and docs/seeds.md instead)"

setup:
	@scripts/setup.sh

up: setup
	@scripts/stack.sh start
	@. scripts/lib.sh && load_env && say "PoolBench is up: http://localhost:3000  (demo login: demo@poolbench.dev / poolbench-demo)"

down:
	@scripts/stack.sh stop
	@infra/services.sh stop

lint:
	@npx turbo run lint --output-logs=errors-only

typecheck:
	@npx turbo run typecheck --output-logs=errors-only

test:
	@scripts/test.sh

# A fast check of the uncommitted change (CHECK_BASE=<commit> for another base): docs/testing.md.
check:
	@scripts/check.sh

# The pure tests only (no services needed), cached by turbo: see docs/testing.md.
test-unit:
	@npx turbo run test:unit --output-logs=errors-only

bench: up
	@scripts/bench.sh

demo: up
	@. scripts/lib.sh && load_env && npx tsx apps/worker/src/cli/demo.ts

# Every seed preset as an experiment with its claims as hypotheses, decided by the product.
seeds: up
	@. scripts/lib.sh && load_env && npx tsx apps/worker/src/cli/seeds.ts
