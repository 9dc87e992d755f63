import { describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { launchAdvisor } from '@poolbench/runs';
import { AdvisorInputSchema } from '~/lib/schemas/advisor';
import { StartAdvisorSchema } from './resources/advisor-requests';

/**
 * The advisor is asked three ways: the web app (tRPC), REST and `launchAdvisor` itself (seeds,
 * reruns, the benches). Its rules are stated once, so each bad request below is refused by all
 * three, under the same field, and a good one passes all three.
 */
const good = {
  min: 2,
  max: 16,
  objective: { kind: 'slo' as const, p99Ms: 50, errorRate: 0.001 },
  budgetRuns: 24,
  repeatsPerSetting: 3,
};
const ids = { targetId: 'tgt1', scenarioId: 'scn1', basePoolConfigId: 'pc1' };
const refs = { target: 'lab', poolConfig: 'base', scenarioId: 'scn1' };

/** A database that fails the test when reached: the request passed every check before it. */
const unreachable = {
  $transaction: () => Promise.reject(new Error('reached the database')),
} as unknown as Db;

const BAD: Array<[string, Record<string, unknown>, string]> = [
  ['min below the knob', { min: 0 }, 'min'],
  ['max above the knob', { max: 1001 }, 'max'],
  ['a fractional min', { min: 2.5 }, 'min'],
  ['max not above min', { min: 8, max: 8 }, 'max'],
  ['an unknown knob', { knob: 'minIdle' }, 'knob'],
  ['a budget above the most', { budgetRuns: 201 }, 'budgetRuns'],
  ['a budget for one setting', { budgetRuns: 5, repeatsPerSetting: 3 }, 'budgetRuns'],
  ['one run per setting', { repeatsPerSetting: 1 }, 'repeatsPerSetting'],
  ['a p99 limit of 0', { objective: { kind: 'slo', p99Ms: 0, errorRate: 0 } }, 'objective.p99Ms'],
  [
    'an error rate in percent',
    { objective: { kind: 'slo', p99Ms: 50, errorRate: 5 } },
    'objective.errorRate',
  ],
  [
    'an SLO field the objective does not have',
    { objective: { kind: 'slo', p99Ms: 50, errorRate: 0, p95Ms: 20 } },
    'objective',
  ],
];

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => i.path.join('.'));

describe('the advisor is refused the same way on every way in', () => {
  it('a good request passes tRPC, REST and launchAdvisor', async () => {
    expect(AdvisorInputSchema.safeParse({ ...ids, ...good }).success).toBe(true);
    expect(StartAdvisorSchema.safeParse({ ...refs, ...good }).success).toBe(true);
    await expect(launchAdvisor(unreachable, { teamId: 't', ...ids, ...good })).rejects.toThrow(
      'reached the database',
    );
  });

  it.each(BAD)('%s', async (_what, change, field) => {
    expect(paths(AdvisorInputSchema.safeParse({ ...ids, ...good, ...change }))).toContain(field);
    expect(paths(StartAdvisorSchema.safeParse({ ...refs, ...good, ...change }))).toContain(field);
    const launched = launchAdvisor(unreachable, {
      teamId: 't',
      ...ids,
      ...good,
      ...(change as object),
    } as Parameters<typeof launchAdvisor>[1]);
    await expect(launched).rejects.toMatchObject({ code: 'validation_failed', path: field });
  });
});
