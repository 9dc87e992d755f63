import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolConfigToArgs } from './pool-config-to-args';
import { POOL_STRATEGIES } from './pool-config-schema';
import { listPresets, applyScale } from '../presets/list-presets';
import { generateScenario } from '../generate-scenario';
import { k6Run } from '../testing/k6-binary';
import { labTargetSetup, startLabTarget, waitReady, type LabTarget } from '../testing/lab-target';

// The contract from both sides: the real lab target must accept every flag list we produce,
// and preset requests must be ones it serves.
const started: LabTarget[] = [];
afterAll(async () => {
  await Promise.all(started.map((t) => t.stop()));
});
beforeAll(async () => {
  await labTargetSetup();
});

async function start(args: string[]): Promise<LabTarget> {
  const t = await startLabTarget(args);
  started.push(t);
  return t;
}

describe('the lab target accepts poolConfigToArgs output', () => {
  const configs = [
    ...POOL_STRATEGIES.map((strategy) => ({ name: `${strategy} defaults`, config: { strategy } })),
    ...listPresets().flatMap((p) =>
      p.poolConfigs.map((c) => ({ name: `${p.id}: ${c.name}`, config: c.config })),
    ),
  ];
  it.each(configs)('$name', async ({ config }) => {
    const t = await start(poolConfigToArgs(config));
    await t.stop();
  });

  it('and rejects what our schema rejects (sanity check that the check above can fail)', async () => {
    await expect(start(['--strategy=elastic', '--min-conns=9', '--max-conns=3'])).rejects.toThrow(
      /exited with code 2.*min-conns/s,
    );
  });
});

describe('presets run end to end against the lab target', () => {
  it('seed 004: each strategy answers GET /health for every request', async () => {
    const preset = applyScale('seed-004-per-request-vs-shared-pool', 0.005);
    const scenario = preset.scenarios.find((s) => s.id === 'ab-c1')?.scenario;
    if (!scenario) throw new Error('seed 004 preset lost its ab-c1 scenario');
    for (const { config } of preset.poolConfigs) {
      const t = await start(poolConfigToArgs(config));
      await waitReady(t.url);
      const r = await k6Run(generateScenario(scenario).script, [t.url]);
      await t.stop();
      expect(r.summary?.metrics.iterations?.count, config.strategy).toBe(50);
      expect(r.summary?.metrics.http_req_failed?.passes, `${config.strategy} failed requests`).toBe(
        0,
      );
    }
  });

  it('seed 003: the read/write mix with priority and shard keys is served by partitioned and adaptive pools', async () => {
    const preset = applyScale('seed-003-seven-strategies-burst', 0.1);
    const requests = preset.scenarios[0]?.scenario.requests;
    for (const strategy of ['partitioned', 'adaptive'] as const) {
      const config = preset.poolConfigs.find((c) => c.config.strategy === strategy)?.config;
      if (!config || !requests) throw new Error(`seed 003 preset lost ${strategy}`);
      const [a, b] = [await start(poolConfigToArgs(config)), await start(poolConfigToArgs(config))];
      await Promise.all([waitReady(a.url), waitReady(b.url)]);
      const r = await k6Run(
        generateScenario({
          template: 'fixed-requests',
          params: { requests: 40, concurrency: 10 },
          requests,
          readyPath: '/ready',
        }).script,
        [a.url, b.url],
      );
      await Promise.all([a.stop(), b.stop()]);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(r.summary?.metrics.iterations?.count).toBe(40);
      expect(r.summary?.metrics.http_req_failed?.passes, `${strategy} failed requests`).toBe(0);
    }
  });
});
