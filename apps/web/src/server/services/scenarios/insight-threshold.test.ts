import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { ScenarioSchema } from '@poolbench/scenarios';
import { withTempDatabase } from '~/test/temp-database';
import { AppError } from '../errors';
import { addInsightThreshold, createScenario } from './scenarios';

describe('addInsightThreshold (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_insight_threshold'));
  });
  afterAll(async () => dispose?.());

  it('adds once, refuses a full list at "thresholds", and never reaches another team', async () => {
    const team = await db.team.create({ data: { name: 'T', slug: 'insight-t' } });
    const other = await db.team.create({ data: { name: 'O', slug: 'insight-o' } });
    const base = {
      template: 'sustained',
      params: { vus: 1, durationMs: 1000 },
      requests: [{ path: '/work' }],
    };
    const sc = await createScenario(db, team.id, {
      name: 'one',
      scenario: ScenarioSchema.parse(base),
    });
    const once = await addInsightThreshold(db, team.id, { id: sc.id, code: 'pool-never-waited' });
    const twice = await addInsightThreshold(db, team.id, { id: sc.id, code: 'pool-never-waited' });
    expect(once.scenario.thresholds).toEqual([
      { metric: 'insight:pool-never-waited', expr: 'absent', abortOnFail: false },
    ]);
    expect(twice.scenario.thresholds).toEqual(once.scenario.thresholds);

    // 32 thresholds is the limit: a 33rd is the user's problem, named, not a server error
    const full = await createScenario(db, team.id, {
      name: 'full',
      scenario: ScenarioSchema.parse({
        ...base,
        thresholds: Array.from({ length: 32 }, (_, i) => ({
          metric: 'http_req_duration',
          expr: `p(95)<${1000 + i}`,
        })),
      }),
    });
    const refused = await addInsightThreshold(db, team.id, {
      id: full.id,
      code: 'load-not-offered',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).problems).toEqual([
      { path: 'thresholds', message: 'at most 32 thresholds' },
    ]);

    await expect(
      addInsightThreshold(db, other.id, { id: sc.id, code: 'machine-busy' }),
    ).rejects.toThrow(/scenario/);
    const stored = await db.scenario.findUniqueOrThrow({ where: { id: sc.id } });
    expect(stored.thresholds).toHaveLength(1);
  });
});
