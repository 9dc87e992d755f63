import { parseRun, toJson } from '@poolbench/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from './harness';

// One short run per runtime through the queue and the worker, as a user launches it: the pool
// config names the runtime and database, the worker starts that program, and the run's samples
// show its pool gauges and the connections the database saw move.
describe('worker: one run per runtime (real Postgres, MariaDB, Redis, k6, JVM, Bun, PHP-FPM, nginx)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('runtimes');
    w.startWorker();
  });
  afterAll(async () => w?.dispose());

  const CONFIGS = [
    { name: 'go fixed 4 (postgres)', strategy: 'fixed', environment: { runtime: 'go' } },
    { name: 'java-hikari fixed 4 (postgres)', strategy: 'fixed', environment: { runtime: 'java-hikari' } },
    { name: 'bun fixed 4 (mariadb)', strategy: 'fixed', environment: { runtime: 'bun', database: 'mariadb' } },
    { name: 'php-fpm fixed 4 (mariadb)', strategy: 'fixed', environment: { runtime: 'php-fpm', database: 'mariadb' } },
    { name: 'go lazy 4 (mariadb)', strategy: 'lazy', environment: { runtime: 'go', database: 'mariadb' } },
  ];

  it('every runtime serves its run, and its pool and the database connections move', async () => {
    const configs = [];
    for (const c of CONFIGS) {
      configs.push(await w.db.poolConfig.create({ data: { teamId: w.ids.teamId, targetId: w.ids.targetId, name: c.name, strategy: c.strategy, params: { maxConns: 4 }, instanceCount: 1, environment: toJson.poolEnvironment(c.environment) } }));
    }
    // 8 VUs holding a connection 50 ms each: a pool of 4 is full and has waiters.
    const sc = await w.scenario('3 s at 8 VUs on /work', { template: 'sustained', params: { vus: 8, durationMs: 3000 }, requests: [{ path: '/work', query: { ms: 50 } }], readyPath: '/ready' });
    const { runIds } = await w.launch(configs.map((c) => c.id), [sc.id], 1);
    for (const id of runIds) {
      const run = parseRun(await w.waitForStatus(id, ['succeeded', 'failed', 'canceled', 'timed_out', 'aborted_system'], 180_000));
      const name = run.poolConfigSnapshot.name;
      expect(run.status, `${name}: ${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
      expect(run.summary?.failed, name).toBe(0);
      // 8 VUs over a pool of 4 at 50 ms a request: ~80 req/s whatever the runtime
      expect(run.summary!.requests, name).toBeGreaterThan(150);
      const samples = await w.db.resourceSample.findMany({ where: { runId: id, instance: 0 }, orderBy: { second: 'asc' } });
      // the database side is on the run's total row (instance -1)
      const totals = await w.db.resourceSample.findMany({ where: { runId: id, instance: -1 }, orderBy: { second: 'asc' } });
      const max = (k: 'poolInUse' | 'poolTotal' | 'poolMax') => Math.max(...samples.map((s) => s[k] ?? 0));
      expect(max('poolMax'), name).toBe(4);
      expect(max('poolInUse'), name).toBeGreaterThanOrEqual(3);
      expect(max('poolTotal'), name).toBe(4);
      // what the database saw, counted by application_name (Postgres) or the run's own user (MariaDB)
      expect(Math.max(...totals.map((t) => t.dbTotal ?? 0)), name).toBe(4);
      expect(samples.some((s) => (s.cpuPercent ?? 0) > 0), name).toBe(true);
      expect(samples.some((s) => Number(s.rssBytes ?? 0) > 1e6), name).toBe(true);
    }
  }, 400_000);
});
