import type { PoolConfigInput } from '../pool/pool-config-schema';
import { scaleCount, scaleMs, type PresetDefinition } from './preset-definition';

// Seed 001: large MySQL result sets (Go vs Bun vs PHP), k6 ramp-up with thresholds.
// PoolBench cannot swap the runtime; the lab target streams JSON like the Go variant. What is
// varied is what the write-up blamed: the link to the database (loopback, or the seed's 20-100 ms
// put back as a 50 ms round trip) and how many connections cross it (pool max 5 or 50).
const LINK_MS = 50;
const POOLS = [5, 50];
const name = (pool: number, link: boolean) =>
  `pool ${pool}, ${link ? `link ${LINK_MS} ms` : 'loopback'}`;
const configs = (): Array<{ name: string; config: PoolConfigInput }> =>
  POOLS.flatMap((maxConns) => [
    { name: name(maxConns, false), config: { strategy: 'lazy', params: { maxConns } } },
    {
      name: name(maxConns, true),
      config: { strategy: 'lazy', params: { maxConns }, environment: { dbLinkRttMs: LINK_MS } },
    },
  ]);

export function rampScenario(
  s: number,
  peakVUs: number,
  totalMs: number,
  rows: number,
  fields: number,
) {
  const rampMs = 120_000;
  const downMs = 60_000;
  return {
    template: 'ramp-up' as const,
    params: {
      startVUs: 0,
      stages: [
        { durationMs: scaleMs(rampMs, s), targetVUs: scaleCount(peakVUs, s) },
        { durationMs: scaleMs(totalMs - rampMs - downMs, s), targetVUs: scaleCount(peakVUs, s) },
        { durationMs: scaleMs(downMs, s), targetVUs: 0 },
      ],
      thinkTimeMs: 1000,
    },
    requests: [
      {
        name: `GET /query ${rows}x${fields}`,
        path: '/query',
        query: { rows, fields },
        // The write-up's failures were responses exceeding k6's 30 s timeout.
        timeoutMs: 30_000,
      },
    ],
    thresholds: [
      { metric: 'http_req_failed' as const, expr: 'rate<0.005' },
      { metric: 'http_req_duration' as const, expr: 'p(95)<30000' },
    ],
    readyPath: '/ready',
  };
}

/** The seed's three result-set sizes, each under its own ramp-up. */
export const seed001Scenarios = (s: number) => [
  {
    id: 's1-10k-rows',
    label: 'S1: 10 000 rows x 40 fields',
    original: '10 000 rows x 40 fields, 250 VUs ramp-up, 7 min',
    scenario: rampScenario(s, 250, 420_000, 10_000, 40),
  },
  {
    id: 's2-5k-rows',
    label: 'S2: 5 000 rows x 40 fields',
    original: '5 000 rows x 40 fields, 250 VUs ramp-up, 7 min',
    scenario: rampScenario(s, 250, 420_000, 5_000, 40),
  },
  {
    id: 's3-1k-rows',
    label: 'S3: 1 000 rows x 50 fields',
    original: '1 000 rows x 50 fields, 300 VUs ramp-up, 6.5 min',
    scenario: rampScenario(s, 300, 390_000, 1_000, 50),
  },
];

export const seed001: PresetDefinition = {
  id: 'seed-001-large-result-sets',
  title: 'Seed 001: large result sets under ramp-up',
  seed: '001',
  description:
    'Original: "10 000 rows x 40 fields, 250 VUs (ramp-up), 7 min; 5 000 x 40, 250 VUs, 7 min; 1 000 x 50, 300 VUs, 6.5 min; k6 thresholds error rate < 0.5 %, P95 < 30 s". Go reached 19.3 req/s (10k rows) with 77 MB peak memory; the authors conclude the database link was the bottleneck. Here the runtime is fixed (the lab target streams JSON like the Go variant); the database link (loopback or a 50 ms round trip through the worker\'s link proxy) and the pool size (5 or 50) vary. Stage split (2 min ramp, hold, 1 min ramp-down) and the 1 s think time are ours.',
  scaling:
    'VUs and stage durations are multiplied by scale; rows, fields, thresholds and the 30 s request timeout are kept.',
  defaultScale: 0.1,
  seedsScale: 0.02,
  repeats: 5,
  hypotheses: POOLS.map((pool) => ({
    base: { poolConfig: name(pool, false), scenario: 's3-1k-rows' },
    candidate: { poolConfig: name(pool, true), scenario: 's3-1k-rows' },
    metric: 'rps' as const,
    expect: 'worse' as const,
    band: 5,
    claim: `With ${pool} connections, the seed's link (${LINK_MS} ms) lowers throughput compared with a local database (seed: the link, not the runtime, is the bottleneck; removing it promised 3–10×; Go 19.3 req/s at 10 000 rows).`,
  })),
  build: (s) => ({
    scenarios: seed001Scenarios(s),
    poolConfigs: configs(),
  }),
};
