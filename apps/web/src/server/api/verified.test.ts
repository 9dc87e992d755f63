import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { VERIFY_FIRST_MESSAGE } from './verified';

/**
 * Every sign-up is the admin of a team of its own: an account whose address nobody has proven
 * cannot spend the installation's load or reach the network on its word (through the real
 * router, on Postgres), and gets one message naming verification.
 */
describe('an unverified account', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let team: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_verified'));
    services = makeServices();
    team = await makeTeam(db, 'unverified');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });
  const as = (emailVerified: boolean) =>
    callerFor(db, services, { ...team.users.owner, emailVerified }, team.teamId);

  it('cannot launch, save or test targets, check scripts or make API tokens', async () => {
    const caller = as(false);
    const [config] = await db.poolConfig.findMany({ where: { teamId: team.teamId }, take: 1 });
    const [scenario] = await db.scenario.findMany({ where: { teamId: team.teamId }, take: 1 });
    const attempts: Array<[string, () => Promise<unknown>]> = [
      [
        'experiment.launch',
        () =>
          caller.experiment.launch({
            targetId: team.targetId,
            poolConfigIds: [config!.id],
            scenarioIds: [scenario!.id],
            repeats: 1,
            name: 'unverified launch',
          }),
      ],
      [
        'target.create',
        () =>
          caller.target.create({
            kind: 'managed',
            name: 'unverified lab',
            requestDefaults: { method: 'GET', path: '/health' },
          }),
      ],
      ['target.testConnection', () => caller.target.testConnection({ id: team.targetId })],
      [
        'scenario.inspectScript',
        () => caller.scenario.inspectScript({ source: 'export default function () {}' }),
      ],
      [
        'apiToken.create',
        () => caller.apiToken.create({ name: 'x', scopes: ['runs:read'], expiresInDays: 1 }),
      ],
    ];
    for (const [name, attempt] of attempts) {
      await expect(attempt(), name).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: VERIFY_FIRST_MESSAGE,
      });
    }
    expect(await db.run.count({ where: { teamId: team.teamId } })).toBe(team.runIds.length);
    expect(await db.apiToken.count({ where: { teamId: team.teamId } })).toBe(0);
  });

  it('still reads its own team, and can do all of it once verified', async () => {
    await expect(as(false).run.list({})).resolves.toBeDefined();
    await expect(
      as(true).apiToken.create({ name: 'verified', scopes: ['runs:read'], expiresInDays: 1 }),
    ).resolves.toMatchObject({ token: expect.stringMatching(/^pb_/) });
  });
});
