import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { applyScale, getPreset, listPresets } from './list-presets';
import { generateScenario } from '../generate-scenario';
import { k6Inspect } from '../testing/k6-binary';
import type { Preset } from './preset-schema';
import { PresetSchema } from './preset-schema';

const presets = listPresets();
const at1 = presets.map((p) => applyScale(p, 1));
/** A params object of any template, read by key (the templates' params differ). */
const rec = (o: object | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o ?? {}));
const paramsOf = (p: Preset, i = 0) => rec(p.scenarios[i]?.scenario.params);

describe('presets', () => {
  it('cover every seed experiment, each valid against PresetSchema', () => {
    expect(new Set(presets.map((p) => p.seed))).toEqual(
      new Set(['000', '001', '002', '003', '004']),
    );
    expect(presets.filter((p) => p.seed === '000').map((p) => p.id)).toHaveLength(4);
    for (const p of [...presets, ...at1]) expect(PresetSchema.safeParse(p).success).toBe(true);
  });

  it('fit a laptop at the default scale: each timed run 20-60 s (002 keeps its original 5 s)', () => {
    for (const p of presets) {
      for (const s of p.scenarios) {
        if (s.scenario.template === 'fixed-requests') continue;
        const expected = p.seed === '002' ? [5000, 5000] : [20_000, 60_000];
        expect(s.estimatedDurationMs, `${p.id}/${s.id}`).toBeGreaterThanOrEqual(
          expected[0] as number,
        );
        expect(s.estimatedDurationMs, `${p.id}/${s.id}`).toBeLessThanOrEqual(expected[1] as number);
      }
    }
  });

  it('reproduce the original parameters at scale 1', () => {
    const byId = (id: string) => at1.find((p) => p.id.startsWith(id)) as Preset;
    expect(paramsOf(byId('seed-000-tc1'))).toMatchObject({ vus: 100 });
    expect(byId('seed-000-tc1').scenarios[0]?.estimatedDurationMs).toBe(160_000);
    expect(byId('seed-000-tc2').scenarios[0]?.estimatedDurationMs).toBe(510_000);
    expect(byId('seed-000-tc2').scenarios[0]?.scenario.requests[0]?.body).toMatchObject({
      kind: 'bytes',
      sizeBytes: 1024 * 1024,
    });
    expect(paramsOf(byId('seed-000-tc3'))).toMatchObject({ spikeVUs: 250, spikes: 2 });
    expect(byId('seed-000-tc3').scenarios[0]?.estimatedDurationMs).toBe(480_000);
    expect(paramsOf(byId('seed-000-tc4'))).toMatchObject({ vus: 100, durationMs: 900_000 });
    expect(byId('seed-001').scenarios.map((s) => s.scenario.requests[0]?.query)).toEqual([
      { rows: 10_000, fields: 40 },
      { rows: 5_000, fields: 40 },
      { rows: 1_000, fields: 50 },
    ]);
    expect(byId('seed-001').scenarios.map((s) => s.estimatedDurationMs)).toEqual([
      420_000, 420_000, 390_000,
    ]);
    const s002 = byId('seed-002');
    expect(s002.scenarios.map((s) => rec(s.scenario.params).ratePerSec)).toEqual([500, 1000, 2000]);
    expect(
      s002.poolConfigs.map((c) => [c.config.instanceCount, rec(c.config.params).maxConns]),
    ).toEqual([
      [1, 1],
      [1, 5],
      [1, 10],
      [3, 1],
      [3, 5],
      [3, 10],
    ]);
    const s003 = byId('seed-003');
    expect(new Set(s003.poolConfigs.map((c) => c.config.strategy))).toEqual(
      new Set(['fixed', 'elastic', 'partitioned', 'priority', 'borrowing', 'prewarm', 'adaptive']),
    );
    expect(paramsOf(s003)).toMatchObject({ baselineVUs: 400, spikeVUs: 2000 });
    expect(
      s003.poolConfigs.find((c) => c.config.strategy === 'adaptive')?.config.params,
    ).toMatchObject({
      minConns: 40,
      maxConns: 150,
      growStep: 10,
      shrinkStep: 5,
      growWaitThresholdMs: 100,
      shrinkIdleMs: 300_000,
    });
    expect(byId('seed-004').scenarios.map((s) => s.scenario.params)).toMatchObject([
      { requests: 10_000, concurrency: 1 },
      { requests: 10_000, concurrency: 100 },
    ]);
  });

  it('scale shrinks load and time, not the experiment variables', () => {
    const tc1 = getPreset('seed-000-tc1-cold-start-burst', 0.5) as Preset;
    expect(paramsOf(tc1)).toMatchObject({ vus: 50, holdMs: 77_500 });
    const s004 = applyScale('seed-004-per-request-vs-shared-pool', 0.01);
    expect(s004.scenarios.map((s) => s.scenario.params)).toMatchObject([
      { requests: 100, concurrency: 1 },
      { requests: 100, concurrency: 100 },
    ]);
    const s003 = applyScale('seed-003-seven-strategies-burst', 0.1);
    expect(s003.scenarios[0]?.scenario.requests.map((r) => r.weight)).toEqual([3, 1]);
    expect(
      s003.poolConfigs.find((c) => c.config.strategy === 'fixed')?.config.params,
    ).toMatchObject({ maxConns: 5, acquireTimeoutMs: 5000 });
  });

  it('rejects a scale outside (0, 1] naming the field, and unknown presets', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      try {
        applyScale('seed-002-pool-size-fixed-rate', bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ZodError);
        expect((e as ZodError).issues[0]?.path).toEqual(['scale']);
      }
    }
    expect(() => applyScale('nope', 0.5)).toThrow(/unknown preset "nope"/);
    expect(getPreset('nope')).toBeUndefined();
  });
});

describe.concurrent('every preset scenario passes k6 inspect', () => {
  for (const p of [...presets, ...at1]) {
    for (const s of p.scenarios) {
      it(`${p.id} ${s.id} @ scale ${p.scale}`, async () => {
        const r = await k6Inspect(
          generateScenario(s.scenario).script,
          'http://127.0.0.1:9,http://127.0.0.1:10',
        );
        expect(r.stderr).not.toMatch(/level=error/);
        expect(r.code).toBe(0);
      });
    }
  }
});
