import { scaleCount, type PresetDefinition } from './preset-definition';

// Seed 004: open/close per request vs pool per request vs one shared pgxpool, `ab -n 10000 -c 1|100`.

function abScenario(s: number, concurrency: number) {
  const requests = scaleCount(10_000, s, concurrency);
  return {
    template: 'fixed-requests' as const,
    // The slowest strategy did 18 req/s at -c 1 (10 000 requests: ~9 min); the cap keeps a stuck
    // run bounded and scales with the request count.
    params: { requests, concurrency, maxDurationMs: Math.max(30_000, Math.round(900_000 * s)) },
    // ab's default timeout is 30 s.
    requests: [{ path: '/health', timeoutMs: 30_000 }],
    readyPath: '/ready',
  };
}

const PER_REQUEST = 'open/close per request';
const POOL_PER_REQUEST = 'new pool per request';
const SHARED = 'shared pool (max 20, min 5)';
const c100 = (poolConfig: string) => ({ poolConfig, scenario: 'ab-c100' });
// "Too many clients" needs a ceiling the load can hit. A shared Postgres allows ~100-200
// connections for everyone, so every config connects as a per-run role with this CONNECTION
// LIMIT (the worker's role limit; refusals are the same SQLSTATE 53300).
const ROLE_LIMIT = 40;

export const seed004: PresetDefinition = {
  id: 'seed-004-per-request-vs-shared-pool',
  title: 'Seed 004: connection per request vs pool per request vs shared pool',
  seed: '004',
  description:
    'Original: "ab -n 10000 http://localhost:8000/health" (-c 1) and "ab -n 10000 -c 100" against GET /health, which pings Postgres. Open+close per request: 63 % / 71 % failed ("FATAL: sorry, too many clients already", SQLSTATE 53300), 44 / 116 req/s; new pgxpool per request (MaxConns 100, MinConns 5): 0 % / 6.4 % failed, 18 / 20 req/s; one shared pgxpool (MaxConns 20, MinConns 5, MaxConnIdleTime 30 min, MaxConnLifetime 1 h): 0 % failed, 257 / 467 req/s.',
  scaling:
    'The request count is multiplied by scale; concurrency 1 and 100 and the pool settings are kept, because "too many clients" depends on 100 concurrent connections against Postgres\' absolute limit.',
  defaultScale: 0.1,
  seedsScale: 0.05,
  repeats: 5,
  hypotheses: [
    {
      base: c100(PER_REQUEST),
      candidate: c100(SHARED),
      metric: 'rps',
      expect: 'better',
      band: 5,
      claim:
        'One shared pool serves more requests per second than open+close per request (seed: 467 vs 116 req/s, 4×).',
    },
    {
      base: c100(POOL_PER_REQUEST),
      candidate: c100(SHARED),
      metric: 'rps',
      expect: 'better',
      band: 5,
      claim:
        'One shared pool serves more requests per second than a pool per request (seed: 467 vs 20 req/s, 23×).',
    },
    {
      base: c100(PER_REQUEST),
      candidate: c100(SHARED),
      metric: 'errorRate',
      expect: 'better',
      band: 1,
      claim:
        'Open+close per request fails (seed 71 %, SQLSTATE 53300), one shared pool does not (0 %).',
    },
  ],
  build: (s) => ({
    scenarios: [
      {
        id: 'ab-c1',
        label: `${scaleCount(10_000, s, 1)} requests at concurrency 1`,
        original: 'ab -n 10000 -c 1',
        scenario: abScenario(s, 1),
      },
      {
        id: 'ab-c100',
        label: `${scaleCount(10_000, s, 100)} requests at concurrency 100`,
        original: 'ab -n 10000 -c 100',
        scenario: abScenario(s, 100),
      },
    ],
    poolConfigs: [
      {
        name: PER_REQUEST,
        config: { strategy: 'per-request', environment: { roleConnectionLimit: ROLE_LIMIT } },
      },
      {
        name: POOL_PER_REQUEST,
        config: {
          strategy: 'pool-per-request',
          params: { maxConns: 100, minConns: 5 },
          environment: { roleConnectionLimit: ROLE_LIMIT },
        },
      },
      {
        name: SHARED,
        config: {
          strategy: 'elastic',
          params: { maxConns: 20, minConns: 5, idleTimeoutMs: 1_800_000, maxLifetimeMs: 3_600_000 },
          environment: { roleConnectionLimit: ROLE_LIMIT },
        },
      },
    ],
  }),
};
