import type { PoolConfigInput } from '../pool/pool-config-schema';
import { scaleCount, type PresetDefinition } from './preset-definition';

// Seed 002: pool max connections 1/5/10 x 500/1000/2000 rps x 5 s, 1 or 3 instances (Vegeta).

const RATES = [500, 1000, 2000];
const SIZES = [1, 5, 10];
const INSTANCES = [1, 3];

export const seed002: PresetDefinition = {
  id: 'seed-002-pool-size-fixed-rate',
  title: 'Seed 002: pool size x request rate x instances',
  seed: '002',
  description:
    'Original: Go roles/permissions service (GET /roles) on Postgres, GOMAXPROCS=1, 128 MB; Vegeta at "500, 1000, and 2000 requests per second" for "5 seconds for each test"; pool max connections 1, 5, 10; one instance, or three behind nginx. Reported p99 (1 instance): 1 conn 204 ms / 7.4 s / 17.7 s, 5 conns 19 ms / 56 ms / 427 ms, 10 conns 4.7 ms / 35 ms / 205 ms; with 3 instances 5 conns per instance was best. Here the k6 script round-robins over the instances instead of nginx. k6 drops iterations (dropped_iterations) when maxVUs are all busy, where Vegeta would keep adding workers.',
  scaling: 'Request rates and VU counts are multiplied by scale; the 5 s duration, pool sizes and instance counts are kept (they are the experiment).',
  defaultScale: 0.25,
  repeats: 5,
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
        name: `${maxConns} conn${maxConns > 1 ? 's' : ''} x ${instanceCount} instance${instanceCount > 1 ? 's' : ''}`,
        config: { strategy: 'lazy', params: { maxConns }, instanceCount } satisfies PoolConfigInput,
      })),
    ),
  }),
};
