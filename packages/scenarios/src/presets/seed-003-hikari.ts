import { burstScenarios, SEED_003_HYPOTHESES, strategies } from './seed-003';
import type { PresetDefinition } from './preset-definition';

/** Scaled lifetimes below HikariCP's own minimums are raised to them (docs/runtimes.md): the pool would do so anyway. */
const HIKARI_MIN: Record<string, number> = {
  idleTimeoutMs: 10_000,
  maxLifetimeMs: 30_000,
  keepaliveMs: 30_000,
};
function hikariFloors(
  params: Record<string, number | undefined>,
): Record<string, number | undefined> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      v !== undefined && v !== 0 && HIKARI_MIN[k] !== undefined ? Math.max(v, HIKARI_MIN[k]) : v,
    ]),
  );
}

// Seed 003 on the real thing: the same seven strategies, burst and claims, served by HikariCP
// (the java-hikari runtime, docs/runtimes.md) on Postgres instead of the Go emulation.
export const seed003Hikari: PresetDefinition = {
  id: 'seed-003-hikaricp',
  title: 'Seed 003 on HikariCP: seven pool strategies under burst load',
  seed: '003',
  description:
    'The seed tuned HikariCP; this preset runs its seven strategies on a Java 17 service with real HikariCP pools (fixed: maximumPoolSize = minimumIdle; elastic: minimumIdle/maximumPoolSize/idleTimeout; prewarmed: minimumIdle = max, keepaliveTime, maxLifetime; partitioned: one HikariDataSource per shard; priority and hybrid adaptive: a priority gate in front of the pool, adaptive resizing the live pool through HikariConfigMXBean). Same burst, 3:1 reads/writes, 10-800 ms queries and claims as the Go emulation preset "Seed 003: seven pool strategies under burst load", so the two can be compared side by side.',
  scaling:
    "As the Go emulation: VUs, phase lengths, pool sizes and lifetimes scale; query times, the 3:1 mix, the acquire timeout and the adaptive thresholds are kept. Scaled idle timeouts, lifetimes and keepalives below HikariCP's minimums (10 s, 30 s, 30 s) are raised to them.",
  defaultScale: 0.1,
  seedsScale: 0.05,
  repeats: 5,
  hypotheses: SEED_003_HYPOTHESES,
  build: (s) => ({
    scenarios: burstScenarios(s),
    poolConfigs: strategies(s).map((c) => ({
      name: c.name,
      config: {
        ...c.config,
        params: hikariFloors(c.config.params ?? {}),
        environment: { runtime: 'java-hikari' },
      },
    })),
  }),
};
