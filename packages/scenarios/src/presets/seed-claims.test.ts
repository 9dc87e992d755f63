import { describe, expect, it } from 'vitest';
import { HypothesesSchema } from '../hypotheses/hypothesis-schema';
import { resolvePresetHypotheses } from '../hypotheses/resolve-preset-hypotheses';
import { applyScale, listPresets } from './list-presets';
import { seedPlan } from './seed-plan';
import { runtimeProblems } from '../pool/runtime-capabilities';

// Every claim apps/lab-targets/go/bench/summarize.mjs judged (before it was deleted), as
// [preset, base, candidate, metric, expect, band]: the presets must carry each one.
const BENCH_CLAIMS: Array<[string, string, string, string, string, number]> = [
  [
    'seed-004',
    'open/close per request@ab-c100',
    'shared pool (max 20, min 5)@ab-c100',
    'rps',
    'better',
    5,
  ],
  [
    'seed-004',
    'new pool per request@ab-c100',
    'shared pool (max 20, min 5)@ab-c100',
    'rps',
    'better',
    5,
  ],
  [
    'seed-004',
    'open/close per request@ab-c100',
    'shared pool (max 20, min 5)@ab-c100',
    'errorRate',
    'better',
    1,
  ],
  ['seed-000-tc1', 'lazy (default)@tc1', 'prewarm@tc1', 'maxMs', 'better', 5],
  [
    'seed-000-tc1',
    'lazy + 25 ms per connection@tc1',
    'prewarm + 25 ms per connection@tc1',
    'maxMs',
    'better',
    5,
  ],
  ['seed-000-tc2', 'lazy (default)@tc2', 'prewarm@tc2', 'rps', 'equivalent', 5],
  ['seed-000-tc3', 'lazy (default)@tc3', 'prewarm@tc3', 'rps', 'equivalent', 5],
  // RSS growth during the load and idle RSS are not run metrics: nearest ones (see seed-000.ts)
  ['seed-000-tc4', 'prewarm@tc4', 'lazy (default)@tc4', 'rssPeakBytes', 'worse', 5],
  ['seed-000-tc4', 'prewarm@tc4', 'lazy (default)@tc4', 'cpuPeakPercent', 'worse', 5],
  ['seed-000-tc4', 'lazy (default)@tc4', 'prewarm@tc4', 'rssMeanBytes', 'worse', 5],
  ...[1000, 2000].flatMap((r): Array<[string, string, string, string, string, number]> => [
    [
      'seed-002',
      `1 conn x 1 instance@rate-${r}`,
      `5 conns x 1 instance@rate-${r}`,
      'p99Ms',
      'better',
      5,
    ],
    [
      'seed-002',
      `5 conns x 1 instance@rate-${r}`,
      `10 conns x 1 instance@rate-${r}`,
      'p99Ms',
      'better',
      5,
    ],
    [
      'seed-002',
      `1 conn x 3 instances@rate-${r}`,
      `5 conns x 3 instances@rate-${r}`,
      'p99Ms',
      'better',
      5,
    ],
    [
      'seed-002',
      `10 conns x 3 instances@rate-${r}`,
      `5 conns x 3 instances@rate-${r}`,
      'p99Ms',
      'better',
      5,
    ],
  ]),
  ['seed-001', 'pool 5, loopback@s3-1k-rows', 'pool 5, link 50 ms@s3-1k-rows', 'rps', 'worse', 5],
  ['seed-001', 'pool 50, loopback@s3-1k-rows', 'pool 50, link 50 ms@s3-1k-rows', 'rps', 'worse', 5],
  ['seed-003', 'fixed (naive)@burst-5x', 'elastic@burst-5x', 'errorRate', 'better', 1],
  ['seed-003', 'fixed (naive)@burst-5x', 'prewarmed@burst-5x', 'errorRate', 'better', 1],
  ['seed-003', 'fixed (naive)@burst-5x', 'hybrid adaptive@burst-5x', 'errorRate', 'better', 1],
  ['seed-003', 'elastic@burst-5x', 'prewarmed@burst-5x', 'errorRate', 'better', 1],
  ['seed-003', 'prewarmed@burst-5x', 'hybrid adaptive@burst-5x', 'p99Ms', 'better', 5],
];

const presets = listPresets();
/** presets on the Go lab target; the real-stack presets (docs/runtimes.md) carry the same seeds' claims on other runtimes */
const onRuntime = (p: (typeof presets)[number]) =>
  p.poolConfigs.some((c) => c.config.environment?.runtime !== undefined);
const emulations = presets.filter((p) => !onRuntime(p));

describe("seed presets carry the seeds' claims", () => {
  it('every claim the lab bench judged is a hypothesis of its preset, and no other', () => {
    const got = emulations.flatMap((p) =>
      p.hypotheses.map((h) => [
        p.id.slice(0, p.seed === '000' ? 12 : 8),
        `${h.base.poolConfig}@${h.base.scenario}`,
        `${h.candidate.poolConfig}@${h.candidate.scenario}`,
        h.metric,
        h.expect,
        h.band,
      ]),
    );
    expect(got.sort()).toEqual([...BENCH_CLAIMS].sort());
    for (const p of presets)
      for (const h of p.hypotheses)
        expect(h.claim, `${p.id}: a claim quotes the seed's numbers`).toMatch(/seed[^)]*\d/);
  });

  it("each resolves to cells of its preset and validates as an experiment's hypotheses, at any scale", () => {
    for (const p of [
      ...presets,
      ...presets.map((x) => applyScale(x, 1)),
      ...presets.map((x) => applyScale(x, x.seedsScale)),
    ]) {
      const plan = seedPlan(p);
      const ids = (xs: Array<{ name?: string; id?: string }>, k: 'name' | 'id') =>
        new Map(xs.map((x, i) => [x[k]!, `id${i}`]));
      const resolved = resolvePresetHypotheses(
        p.hypotheses,
        ids(plan.poolConfigs, 'name'),
        ids(plan.scenarios, 'id'),
      );
      expect(HypothesesSchema.safeParse(resolved).success, p.id).toBe(true);
    }
  });

  it('seeds 001 and 003 also run on the real stacks: Go vs Bun vs PHP-FPM on MariaDB, HikariCP on Postgres', () => {
    const real = presets.filter(onRuntime);
    expect(real.map((p) => p.id).sort()).toEqual([
      'seed-001-runtimes-mariadb',
      'seed-003-hikaricp',
    ]);
    const s001 = real.find((p) => p.seed === '001')!;
    expect(s001.poolConfigs.map((c) => [c.name, c.config.environment])).toEqual([
      ['Go', { runtime: 'go', database: 'mariadb' }],
      ['Bun', { runtime: 'bun', database: 'mariadb' }],
      ['PHP-FPM', { runtime: 'php-fpm', database: 'mariadb' }],
    ]);
    const s003 = real.find((p) => p.seed === '003')!;
    const emulated = presets.find((p) => p.id === 'seed-003-seven-strategies-burst')!;
    expect(s003.poolConfigs.every((c) => c.config.environment?.runtime === 'java-hikari')).toBe(
      true,
    );
    // the same strategies, sizes, scenario and claims as the Go emulation: only the runtime differs
    // (and lifetimes below HikariCP's minimums, raised to them at small scales)
    const sizes = (p: typeof s003) =>
      p.poolConfigs.map((c) => {
        const params: Record<string, number | undefined> = c.config.params ?? {};
        return [
          c.name,
          c.config.strategy,
          params.maxConns,
          params.minConns,
          params.acquireTimeoutMs,
        ];
      });
    expect(sizes(s003)).toEqual(sizes(emulated));
    for (const scale of [s003.seedsScale, 1]) {
      for (const c of applyScale(s003, scale).poolConfigs)
        expect(runtimeProblems(c.config, c.config.environment!), `${c.name} at ${scale}`).toEqual(
          [],
        );
    }
    expect(s003.hypotheses).toEqual(emulated.hypotheses);
    // every config is one its runtime can honour
    for (const p of real)
      for (const c of p.poolConfigs)
        expect(runtimeProblems(c.config, c.config.environment!), `${p.id} ${c.name}`).toEqual([]);
  });

  it("use the worker's environment instead of hand-set variables", () => {
    const env = (id: string) =>
      presets
        .find((p) => p.id.startsWith(id))!
        .poolConfigs.map((c) => [c.name, c.config.environment ?? null]);
    expect(env('seed-004')).toEqual([
      ['open/close per request', { roleConnectionLimit: 40 }],
      ['new pool per request', { roleConnectionLimit: 40 }],
      ['shared pool (max 20, min 5)', { roleConnectionLimit: 40 }],
    ]);
    expect(env('seed-002').map(([, e]) => e)).toEqual([
      { cpuLimit: 1 },
      { cpuLimit: 1 },
      { cpuLimit: 1 },
      { cpuLimit: 1, balancing: 'nginx' },
      { cpuLimit: 1, balancing: 'nginx' },
      { cpuLimit: 1, balancing: 'nginx' },
    ]);
    expect(env('seed-001').map(([, e]) => e)).toEqual([
      null,
      { dbLinkRttMs: 50 },
      null,
      { dbLinkRttMs: 50 },
    ]);
    expect(env('seed-000-tc1').map(([, e]) => e)).toEqual([
      null,
      null,
      { blobstoreDelayMs: 25 },
      { blobstoreDelayMs: 25 },
    ]);
  });

  it('make seeds at the seeds scale: every seed, 5 counterbalanced repeats of the claimed cells, within ~50 min of estimated load (the seed 004 estimate is its cap; it ran in 2.3 min; seed 003 at 0.05 keeps its pool sizes apart)', () => {
    const plans = presets.map((p) => seedPlan(applyScale(p, p.seedsScale)));
    expect(plans.every((p) => p.preset.repeats === 5)).toBe(true);
    // seed 004's fixed request count ends long before its cap: its estimate is the cap
    const total = plans.reduce((ms, p) => ms + p.estimatedMs, 0);
    expect(total / 60_000).toBeLessThan(50);
  });
});
