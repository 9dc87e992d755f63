import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { toJson, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import type { Selection } from '~/lib/compare/selection';
import { gateExperiment } from '../ci/gate-experiment';
import { buildComparison } from './build-comparison';
import { cachedComparison, clearComparisonCache } from './cached-comparison';
import {
  createSyntheticRun,
  insertSyntheticRun,
  syntheticExperiment,
} from './testing/synthetic-runs';

/**
 * A measured A/A noise floor as the practical floor of the compare view: a 30 % slower p50 is
 * "worse" under the default 5 % floor; a calibration of the same target × scenario that measured
 * ±60 % raises the floor to its cap, 4 times the default (20 %), under which the change is still
 * worse; the view names the calibration, `noiseFloor: 'default'` turns it off, and a new
 * calibration is never hidden by a cached comparison. A calibration older than 30 days is not
 * used, and one whose runs varied by ±50 % makes the gate's cell incomplete, naming the noise.
 */
describe('compare with a calibrated noise floor (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  let exp: Awaited<ReturnType<typeof syntheticExperiment>>;
  let calibration: Awaited<ReturnType<typeof syntheticExperiment>>;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_noise_floor'));
    services = makeServices();
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    exp = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy', 'fixed'], 6);
    calibration = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy'], 10);
    for (let r = 0; r < 6; r++)
      for (const [i, latencyMs] of [10, 13].entries())
        await insertSyntheticRun(db, {
          teamId: A.teamId,
          experimentId: exp.experimentId,
          targetId: A.targetId,
          scenarioId: A.scenarioId,
          poolConfigId: exp.poolConfigs[i]!.id,
          poolConfigName: i ? 'fixed' : 'lazy',
          scenarioName: 'burst',
          repeatIndex: r,
          seconds: 12,
          rps: 50,
          latencyMs,
          coldStartFactor: 0,
          seed: 100 * i + r,
        });
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  const selection = (noiseFloor?: 'default'): Selection => ({
    items: exp.poolConfigs.map((pc) => ({
      kind: 'cell' as const,
      experimentId: exp.experimentId,
      poolConfigId: pc.id,
      scenarioId: A.scenarioId,
    })),
    baseline: 0,
    ...(noiseFloor ? { noiseFloor } : {}),
  });
  const p50 = (c: Awaited<ReturnType<typeof buildComparison>>) =>
    c.rows.find((r) => r.key === 'p50Ms')!.comparisons[1]!;

  it('uses the measured floor where it is larger, says so, and can be turned off', async () => {
    const before = await cachedComparison(db, A.teamId, selection());
    expect(p50(before.comparison).verdict).toBe('worse');
    expect(p50(before.comparison).noiseFloor).toBeNull();
    expect(before.comparison.noiseFloors).toEqual([null, null]);

    await db.noiseFloor.create({
      data: {
        experimentId: calibration.experimentId,
        teamId: A.teamId,
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        poolConfigId: calibration.poolConfigs[0]!.id,
        runsPerSide: 5,
        metrics: toJson.noiseFloorMetrics([
          { key: 'p50Ms', unit: 'percent', value: 60, estimate: 4, n: 5 },
          // smaller than the default: the default stays
          { key: 'rps', unit: 'percent', value: 2, estimate: 0.5, n: 5 },
        ]),
      },
    });
    // the comparison was cached while every run had ended: the new floor is not hidden by it
    const after = await cachedComparison(db, A.teamId, selection());
    expect(after.version).not.toBe(before.version);
    const cell = p50(after.comparison);
    expect(cell.verdict).toBe('worse');
    expect(cell.noiseFloor).toEqual({ unit: 'percent', value: 20 });
    expect(cell.reason).toContain('20');
    expect(cell.noiseWarning).toBeNull();
    expect(
      after.comparison.rows.find((r) => r.key === 'rps')!.comparisons[1]!.noiseFloor,
    ).toBeNull();
    expect(after.comparison.noiseFloors[1]).toMatchObject({
      experimentId: calibration.experimentId,
      runsPerSide: 5,
    });

    const off = await buildComparison(db, A.teamId, selection('default'));
    expect(p50(off).verdict).toBe('worse');
    expect(off.noiseFloors).toEqual([null, null]);
    clearComparisonCache();
  });

  it('calibration.list shows the floor to the team only; start refuses too few runs at the field', async () => {
    const viewer = callerFor(db, services, A.users.viewer, A.teamId);
    const list = await viewer.calibration.list({ targetId: A.targetId });
    expect(list.floors).toHaveLength(1);
    expect(list.floors[0]).toMatchObject({
      experimentId: calibration.experimentId,
      scenarioName: expect.any(String),
      runsPerSide: 5,
    });
    expect(list.floors[0]!.metrics.map((m) => m.key)).toEqual(['p50Ms', 'rps']);

    const other = callerFor(db, services, B.users.owner, B.teamId);
    await expect(other.calibration.list({ targetId: A.targetId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    const member = callerFor(db, services, A.users.member, A.teamId);
    const err = await member.calibration
      .start({
        targetId: A.targetId,
        poolConfigId: exp.poolConfigs[0]!.id,
        scenarioId: A.scenarioId,
        runsPerSide: 3,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect(JSON.stringify(err)).toContain('runsPerSide');
  });

  it('a calibration older than 30 days is not used; a noisy one makes the gate incomplete, naming the noise', async () => {
    const [lazy, fixed] = exp.poolConfigs;
    const stale = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy'], 10);
    const noisy = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy'], 10);
    const floorRow = (experimentId: string, spread: number, createdAt: Date) => ({
      experimentId,
      teamId: A.teamId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      poolConfigId: lazy!.id,
      runsPerSide: 8,
      createdAt,
      metrics: toJson.noiseFloorMetrics([
        { key: 'p50Ms', unit: 'percent', value: 0, estimate: 1, n: 8, spread },
        { key: 'p95Ms', unit: 'percent', value: 0, estimate: 1, n: 8, spread },
        { key: 'rps', unit: 'percent', value: 0, estimate: 1, n: 8, spread },
      ]),
    });
    // newer than every other calibration, but 31 days old: the earlier one stays in use
    await db.noiseFloor.create({
      data: floorRow(stale.experimentId, 50, new Date(Date.now() - 31 * 86_400_000)),
    });
    const before = await buildComparison(db, A.teamId, selection());
    expect(before.noiseFloors[1]).toMatchObject({ experimentId: calibration.experimentId });

    await db.noiseFloor.create({ data: floorRow(noisy.experimentId, 50, new Date()) });
    const cmp = await buildComparison(db, A.teamId, selection());
    expect(cmp.noiseFloors[1]).toMatchObject({ experimentId: noisy.experimentId });
    const p95 = cmp.rows.find((r) => r.key === 'p95Ms')!.comparisons[1]!;
    expect(p95.noiseWarning).toMatch(
      /^Latency p95 noise on this machine is ±50 % between runs \(A\/A calibration\): at 6 vs 6 runs a change under [\d.]+× can read as no change; use longer runs or more repeats$/,
    );
    // the gate on throughput, unchanged between the configs: no regression, and a primary metric
    // that cannot see a doubling here leaves the cell incomplete instead of a pass
    const gate = await gateExperiment(
      db,
      A.teamId,
      exp.experimentId,
      { base: lazy!.id },
      { metrics: ['rps'] },
    );
    const cell = gate.cells.find((c) => c.poolConfig?.id === fixed!.id)!;
    expect(cell.state).toBe('incomplete');
    expect(cell.incomplete).toMatch(/^Throughput noise on this machine is ±50 %/);
    expect(gate.outcome).toBe('incomplete');
    clearComparisonCache();
  });

  it('a calibration measured on another machine is not used', async () => {
    const other = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy'], 10);
    await createSyntheticRun(db, {
      teamId: A.teamId,
      experimentId: other.experimentId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      poolConfigId: other.poolConfigs[0]!.id,
      poolConfigName: 'lazy',
      scenarioName: 'burst',
      repeatIndex: 0,
      seconds: 12,
      environment: { cpuModel: 'Another CPU', cpuCount: 2, k6Version: 'k6 v1.8.1' },
    });
    await db.noiseFloor.create({
      data: {
        experimentId: other.experimentId,
        teamId: A.teamId,
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        poolConfigId: other.poolConfigs[0]!.id,
        runsPerSide: 8,
        metrics: toJson.noiseFloorMetrics([
          { key: 'p50Ms', unit: 'percent', value: 15, estimate: 1, n: 8, spread: 50 },
        ]),
      },
    });
    // the newest calibration of this target × scenario, but the compared runs recorded
    // "Synthetic CPU": the comparison falls back to the default floors, with no warning
    const cmp = await buildComparison(db, A.teamId, selection());
    expect(cmp.noiseFloors).toEqual([null, null]);
    expect(p50(cmp).noiseFloor).toBeNull();
    expect(p50(cmp).noiseWarning).toBeNull();
    clearComparisonCache();
  });
});
