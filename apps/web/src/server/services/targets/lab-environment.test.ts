import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRPCError } from '@trpc/server';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';

// The managed target's environment is a product setting: stored on the target, overridable per
// pool config, copied into every run's snapshot (the worker applies it from there).
describe('managed target environment (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_labenv'));
    services = makeServices();
    A = await makeTeam(db, 'labenv');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('a target stores it, a pool config overrides it, a launched run carries the override', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const bad = (await admin.target.create({ kind: 'managed', name: 'bad env', requestDefaults: { method: 'GET', path: '/health' }, environment: { cpuLimit: 0 } }).catch((e: unknown) => e)) as TRPCError;
    expect(bad.code).toBe('BAD_REQUEST');
    expect((bad.cause as unknown as { issues: Array<{ path: string[]; message: string }> }).issues).toEqual([expect.objectContaining({ path: ['environment', 'cpuLimit'], message: 'must be at least 1' })]);
    const t = await admin.target.create({ kind: 'managed', name: 'lab with link', requestDefaults: { method: 'GET', path: '/health' }, environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 } });
    expect((await db.target.findUniqueOrThrow({ where: { id: t.id } })).managed).toMatchObject({ program: 'lab-target', environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 } });

    const pc = await admin.poolConfig.create({ targetId: t.id, name: 'nginx x3, 1 core', config: { strategy: 'lazy', params: {}, instanceCount: 3, environment: { balancing: 'nginx', cpuLimit: 1 } } });
    expect(pc.environment).toEqual({ balancing: 'nginx', cpuLimit: 1 });
    const copy = await admin.poolConfig.duplicate({ id: pc.id });
    expect(copy.environment).toEqual({ balancing: 'nginx', cpuLimit: 1 });
    const plain = await admin.poolConfig.create({ targetId: t.id, name: 'plain', config: { strategy: 'lazy', params: {}, instanceCount: 1 } });
    expect(plain.environment).toBeNull();

    const launched = await admin.experiment.launch({ name: 'env', targetId: t.id, poolConfigIds: [pc.id], scenarioIds: [A.scenarioId], repeats: 1 });
    const run = await db.run.findUniqueOrThrow({ where: { id: launched.runIds[0]! } });
    expect(run.poolConfigSnapshot).toMatchObject({ instanceCount: 3, environment: { balancing: 'nginx', cpuLimit: 1 } });
    expect(run.targetSnapshot).toMatchObject({ managed: { environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 } } });
  });
});
