import type { PoolConfigInput } from '../pool/pool-config-schema';
import type { RequestSpecInput } from '../request-spec';
import { scaleCount, scaleMs, type PresetDefinition } from './preset-definition';

// Seed 003: seven pool strategies under bursts of 5x baseline, 3:1 reads/writes, 10-800 ms queries.

const query = {
  ms: { randomInt: { min: 10, max: 800 } },
  // Spreads requests over shards for the partitioned strategy (the lab target hashes `key`).
  key: { randomInt: { min: 0, max: 9999 } },
};

const REQUESTS: RequestSpecInput[] = [
  { name: 'read', path: '/work', query, weight: 3, timeoutMs: 30_000 },
  // POST /work also updates a row in the same transaction. Writes stand for checkout/payment,
  // the "critical requests" the priority strategies favour.
  {
    name: 'write',
    method: 'POST',
    path: '/work',
    query,
    weight: 1,
    timeoutMs: 30_000,
    priority: { fraction: 1 },
  },
];

/** Seed 003's HikariCP settings; sizes and lifetimes scaled with the load. */
export function strategies(s: number): Array<{ name: string; config: PoolConfigInput }> {
  const n = (x: number) => scaleCount(x, s);
  const t = (ms: number) => scaleMs(ms, s);
  // The baseline's connectionTimeout; kept for all so only the strategy differs.
  const acquireTimeoutMs = 5000;
  return [
    {
      name: 'fixed (naive)',
      config: { strategy: 'fixed', params: { maxConns: n(50), acquireTimeoutMs } },
    },
    {
      name: 'elastic',
      config: {
        strategy: 'elastic',
        params: {
          minConns: n(20),
          maxConns: n(200),
          idleTimeoutMs: t(60_000),
          maxLifetimeMs: t(1_800_000),
          acquireTimeoutMs,
        },
      },
    },
    {
      name: 'partitioned',
      config: {
        strategy: 'partitioned',
        params: { shards: 16, maxConns: n(25), acquireTimeoutMs },
      },
    },
    {
      name: 'priority queue',
      config: { strategy: 'priority', params: { maxConns: n(50), acquireTimeoutMs } },
    },
    {
      name: 'borrowing',
      config: {
        strategy: 'borrowing',
        params: { maxConns: n(50), secondaryMaxConns: n(25), acquireTimeoutMs },
      },
    },
    {
      name: 'prewarmed',
      config: {
        strategy: 'prewarm',
        params: {
          maxConns: n(80),
          keepaliveMs: t(30_000),
          maxLifetimeMs: t(600_000),
          acquireTimeoutMs,
        },
      },
    },
    {
      name: 'hybrid adaptive',
      config: {
        strategy: 'adaptive',
        params: {
          minConns: n(40),
          maxConns: n(150),
          initialConns: n(40),
          growStep: n(10),
          shrinkStep: n(5),
          growWaitThresholdMs: 100,
          shrinkIdleMs: t(300_000),
          checkIntervalMs: 1000,
          acquireTimeoutMs,
        },
      },
    },
  ];
}

const at = (poolConfig: string) => ({ poolConfig, scenario: 'burst-5x' });
const fewerFailures = (base: string, candidate: string, claim: string) => ({
  base: at(base),
  candidate: at(candidate),
  metric: 'errorRate' as const,
  expect: 'better' as const,
  band: 1,
  claim,
});

export function burstScenarios(s: number) {
  return [
    {
      id: 'burst-5x',
      label: 'Bursts of 5x baseline, 3:1 reads/writes',
      original: '20 % baseline, sudden 500 % spikes, 3:1 read/write, queries 10-800 ms',
      scenario: {
        template: 'spike' as const,
        params: {
          baselineVUs: scaleCount(400, s),
          spikeVUs: scaleCount(2000, s),
          spikes: 3,
          rampToBaselineMs: scaleMs(10_000, s),
          baselineMs: scaleMs(60_000, s),
          spikeRampMs: scaleMs(2000, s, 0),
          spikeHoldMs: scaleMs(30_000, s),
        },
        requests: REQUESTS,
        readyPath: '/ready',
      },
    },
  ];
}

/** The seed's claims, the same on the Go emulation and on real HikariCP. */
export const SEED_003_HYPOTHESES: PresetDefinition['hypotheses'] = [
  fewerFailures(
    'fixed (naive)',
    'elastic',
    'Elastic fails fewer requests than the fixed pool under the burst (seed: 6.2 % vs 18.4 %).',
  ),
  fewerFailures(
    'fixed (naive)',
    'prewarmed',
    'Prewarmed fails fewer requests than the fixed pool under the burst (seed: 0.4 % vs 18.4 %).',
  ),
  fewerFailures(
    'fixed (naive)',
    'hybrid adaptive',
    'Hybrid adaptive fails fewer requests than the fixed pool under the burst (seed: 0.1 % vs 18.4 %).',
  ),
  fewerFailures(
    'elastic',
    'prewarmed',
    'Prewarmed fails fewer requests than elastic (seed: 0.4 % vs 6.2 %; elastic paid ~47 ms per new connection while growing).',
  ),
  {
    base: at('prewarmed'),
    candidate: at('hybrid adaptive'),
    metric: 'p99Ms',
    expect: 'better',
    band: 5,
    claim: 'Hybrid adaptive has a lower p99 than prewarmed (seed: 423 vs 547 ms).',
  },
];

export const seed003: PresetDefinition = {
  id: 'seed-003-seven-strategies-burst',
  title: 'Seed 003: seven pool strategies under burst load',
  seed: '003',
  description:
    'Original: "Burst pattern: 20% baseline, sudden 500% spikes", "3:1 read/write ratio", "Mixed query complexity (10ms to 800ms execution time)", 50 000 concurrent users on a 16 vCPU RDS instance; fixed (max = min idle = 50, timeout 5 s), elastic (min 20 / max 200, idle 60 s), partitioned (25 per shard), priority queue, borrowing, prewarmed (80, keepalive 30 s, max lifetime 10 min), hybrid adaptive (40..150, +10 when wait > 100 ms, -5 after 5 idle minutes). Each configuration ran 11 times, best and worst dropped. Reported: fixed 2 847 req/s, p99 8.7 s, 18.4 % failed; prewarmed 6 843 req/s, p99 547 ms; hybrid 8 884 req/s, p99 423 ms, 0.1 % failed. At scale 1 this preset runs 400 -> 2000 VUs (the VU limit) in three 30 s bursts; sizes above Postgres max_connections (100 by default) need a larger server setting. The 16 shards, the secondary pool of 25 and the write = high-priority mapping are ours.',
  scaling:
    'VUs, phase lengths, pool sizes and pool lifetimes (idle timeout, max lifetime, keepalive, shrink-after-idle) are multiplied by scale; query times, the 3:1 mix, acquire timeout and the adaptive thresholds are kept.',
  defaultScale: 0.1,
  seedsScale: 0.05,
  repeats: 5,
  // Failure rates in percentage points (1 point floor), as the lab bench judged them.
  hypotheses: SEED_003_HYPOTHESES,
  build: (s) => ({
    scenarios: burstScenarios(s),
    poolConfigs: strategies(s),
  }),
};
