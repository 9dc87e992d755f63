import { scaleCount, type PresetDefinition } from './preset-definition';

// Seed 004: open/close per request vs pool per request vs one shared pgxpool, `ab -n 10000 -c 1|100`.

function abScenario(s: number, concurrency: number) {
  const requests = scaleCount(10_000, s, concurrency);
  return {
    template: 'fixed-requests' as const,
    // The slowest strategy did 18 req/s at -c 1; the cap keeps a stuck run bounded.
    params: { requests, concurrency, maxDurationMs: Math.max(120_000, Math.round(900_000 * s)) },
    // ab's default timeout is 30 s.
    requests: [{ path: '/health', timeoutMs: 30_000 }],
    readyPath: '/ready',
  };
}

export const seed004: PresetDefinition = {
  id: 'seed-004-per-request-vs-shared-pool',
  title: 'Seed 004: connection per request vs pool per request vs shared pool',
  seed: '004',
  description:
    'Original: "ab -n 10000 http://localhost:8000/health" (-c 1) and "ab -n 10000 -c 100" against GET /health, which pings Postgres. Open+close per request: 63 % / 71 % failed ("FATAL: sorry, too many clients already", SQLSTATE 53300), 44 / 116 req/s; new pgxpool per request (MaxConns 100, MinConns 5): 0 % / 6.4 % failed, 18 / 20 req/s; one shared pgxpool (MaxConns 20, MinConns 5, MaxConnIdleTime 30 min, MaxConnLifetime 1 h): 0 % failed, 257 / 467 req/s.',
  scaling: 'The request count is multiplied by scale; concurrency 1 and 100 and the pool settings are kept, because "too many clients" depends on 100 concurrent connections against Postgres\' absolute limit.',
  defaultScale: 0.1,
  repeats: 5,
  build: (s) => ({
    scenarios: [
      { id: 'ab-c1', label: `${scaleCount(10_000, s, 1)} requests at concurrency 1`, original: 'ab -n 10000 -c 1', scenario: abScenario(s, 1) },
      { id: 'ab-c100', label: `${scaleCount(10_000, s, 100)} requests at concurrency 100`, original: 'ab -n 10000 -c 100', scenario: abScenario(s, 100) },
    ],
    poolConfigs: [
      { name: 'open/close per request', config: { strategy: 'per-request' } },
      { name: 'new pool per request', config: { strategy: 'pool-per-request', params: { maxConns: 100, minConns: 5 } } },
      { name: 'shared pool (max 20, min 5)', config: { strategy: 'elastic', params: { maxConns: 20, minConns: 5, idleTimeoutMs: 1_800_000, maxLifetimeMs: 3_600_000 } } },
    ],
  }),
};
