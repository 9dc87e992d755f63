import type { PoolConfigInput } from '../pool/pool-config-schema';
import { scaleCount, type PresetDefinition } from './preset-definition';

// Seed 002: pool max connections 1/5/10 x 500/1000/2000 rps x 5 s, 1 or 3 instances (Vegeta).

const RATES = [500, 1000, 2000];
const SIZES = [1, 5, 10];
const INSTANCES = [1, 3];
const configName = (maxConns: number, instanceCount: number) =>
  `${maxConns} conn${maxConns > 1 ? 's' : ''} x ${instanceCount} instance${instanceCount > 1 ? 's' : ''}`;
// The lab bench judged the two upper rates (scaled: 250 and 500 req/s at the default scale);
// at most 10 hypotheses per experiment, so the lowest rate carries none.
const CLAIMED_RATES = [1000, 2000];
const p99 = (rate: number, base: [number, number], candidate: [number, number], claim: string) => ({
  base: { poolConfig: configName(...base), scenario: `rate-${rate}` },
  candidate: { poolConfig: configName(...candidate), scenario: `rate-${rate}` },
  metric: 'p99Ms' as const,
  expect: 'better' as const,
  band: 5,
  claim,
});

export const seed002: PresetDefinition = {
  id: 'seed-002-pool-size-fixed-rate',
  title: 'Seed 002: pool size x request rate x instances',
  seed: '002',
  description:
    'Original: Go roles/permissions service (GET /roles) on Postgres, GOMAXPROCS=1, 128 MB; Vegeta at "500, 1000, and 2000 requests per second" for "5 seconds for each test"; pool max connections 1, 5, 10; one instance, or three behind nginx. Reported p99 (1 instance): 1 conn 204 ms / 7.4 s / 17.7 s, 5 conns 19 ms / 56 ms / 427 ms, 10 conns 4.7 ms / 35 ms / 205 ms; with 3 instances 5 conns per instance was best. Each instance runs with GOMAXPROCS=1 (the worker\'s CPU limit) and the three instances sit behind a real nginx started by the worker. k6 drops iterations (dropped_iterations) when maxVUs are all busy, where Vegeta would keep adding workers.',
  scaling:
    'Request rates and VU counts are multiplied by scale; the 5 s duration, pool sizes and instance counts are kept (they are the experiment).',
  defaultScale: 0.25,
  seedsScale: 0.25,
  repeats: 5,
  hypotheses: CLAIMED_RATES.flatMap((rate) => [
    p99(
      rate,
      [1, 1],
      [5, 1],
      `One instance at the seed's ${rate} req/s (scaled): a pool of one has a worse p99 than a pool of five (seed at 500/s: 204 vs 19 ms; at 1000/s 7.4 s vs 56 ms).`,
    ),
    p99(
      rate,
      [5, 1],
      [10, 1],
      `One instance at the seed's ${rate} req/s (scaled): ten connections beat five (seed at 500/s: 4.7 vs 19 ms; at 1000/s 35 vs 56 ms).`,
    ),
    p99(
      rate,
      [1, 3],
      [5, 3],
      `Three instances at the seed's ${rate} req/s (scaled): five per instance beat one per instance (seed: 5 per instance best, p99 6.2 / 13.3 / 18.5 ms).`,
    ),
    p99(
      rate,
      [10, 3],
      [5, 3],
      `Three instances at the seed's ${rate} req/s (scaled): five per instance beat ten per instance (seed at 500/s: 6.2 ms for 5 per instance, and 5 was best at every rate).`,
    ),
  ]),
  build: (s) => ({
    scenarios: RATES.map((rate) => ({
      id: `rate-${rate}`,
      label: `${scaleCount(rate, s)} req/s for 5 s`,
      original: `${rate} req/s for 5 s (Vegeta)`,
      scenario: {
        template: 'constant-arrival-rate' as const,
        params: {
          ratePerSec: scaleCount(rate, s),
          durationMs: 5000,
          preAllocatedVUs: scaleCount(rate / 10, s),
          // Half a second of queueing before k6 starts dropping iterations.
          maxVUs: Math.min(2000, scaleCount(rate / 2, s)),
        },
        // Vegeta's default request timeout.
        requests: [{ path: '/roles', timeoutMs: 30_000 }],
        readyPath: '/ready',
      },
    })),
    poolConfigs: INSTANCES.flatMap((instanceCount) =>
      SIZES.map((maxConns) => ({
        name: configName(maxConns, instanceCount),
        // GOMAXPROCS=1 per instance as in the seed; three instances behind a real nginx as in the seed.
        config: {
          strategy: 'lazy',
          params: { maxConns },
          instanceCount,
          environment: {
            cpuLimit: 1,
            ...(instanceCount > 1 ? { balancing: 'nginx' as const } : {}),
          },
        } satisfies PoolConfigInput,
      })),
    ),
  }),
};
