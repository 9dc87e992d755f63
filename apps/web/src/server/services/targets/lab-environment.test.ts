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
    const bad = (await admin.target
      .create({
        kind: 'managed',
        name: 'bad env',
        requestDefaults: { method: 'GET', path: '/health' },
        environment: { cpuLimit: 0 },
      })
      .catch((e: unknown) => e)) as TRPCError;
    expect(bad.code).toBe('BAD_REQUEST');
    expect(
      (bad.cause as unknown as { issues: Array<{ path: string[]; message: string }> }).issues,
    ).toEqual([
      expect.objectContaining({ path: ['environment', 'cpuLimit'], message: 'must be at least 1' }),
    ]);
    const t = await admin.target.create({
      kind: 'managed',
      name: 'lab with link',
      requestDefaults: { method: 'GET', path: '/health' },
      environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 },
    });
    expect((await db.target.findUniqueOrThrow({ where: { id: t.id } })).managed).toMatchObject({
      program: 'lab-target',
      environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 },
    });

    const pc = await admin.poolConfig.create({
      targetId: t.id,
      name: 'nginx x3, 1 core',
      config: {
        strategy: 'lazy',
        params: {},
        instanceCount: 3,
        environment: { balancing: 'nginx', cpuLimit: 1 },
      },
    });
    expect(pc.environment).toEqual({ balancing: 'nginx', cpuLimit: 1 });
    const copy = await admin.poolConfig.duplicate({ id: pc.id });
    expect(copy.environment).toEqual({ balancing: 'nginx', cpuLimit: 1 });
    const plain = await admin.poolConfig.create({
      targetId: t.id,
      name: 'plain',
      config: { strategy: 'lazy', params: {}, instanceCount: 1 },
    });
    expect(plain.environment).toBeNull();

    const launched = await admin.experiment.launch({
      name: 'env',
      targetId: t.id,
      poolConfigIds: [pc.id],
      scenarioIds: [A.scenarioId],
      repeats: 1,
    });
    const run = await db.run.findUniqueOrThrow({ where: { id: launched.runIds[0]! } });
    expect(run.poolConfigSnapshot).toMatchObject({
      instanceCount: 3,
      environment: { balancing: 'nginx', cpuLimit: 1 },
    });
    expect(run.targetSnapshot).toMatchObject({
      managed: { environment: { dbLinkRttMs: 25, roleConnectionLimit: 40 } },
    });
  });

  it('a runtime refuses, by name and field, a config it cannot honour: at save, and at launch once the target changed runtime', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const t = await admin.target.create({
      kind: 'managed',
      name: 'bun target',
      requestDefaults: { method: 'GET', path: '/health' },
      environment: { runtime: 'bun', database: 'mariadb' },
    });
    expect((await db.target.findUniqueOrThrow({ where: { id: t.id } })).managed).toMatchObject({
      environment: { runtime: 'bun', database: 'mariadb' },
    });
    type Config = Parameters<typeof admin.poolConfig.create>[0]['config'];
    const refuse = async (config: Config) =>
      (await admin.poolConfig.create({ targetId: t.id, name: `x${Math.random()}`, config }).then(
        () => null,
        (e: unknown) => e,
      )) as TRPCError | null;
    const adaptive = await refuse({ strategy: 'adaptive', params: {}, instanceCount: 1 });
    expect(adaptive?.code).toBe('BAD_REQUEST');
    expect(adaptive?.message).toMatch(
      /config\.strategy.*adaptive is not supported by the bun runtime on MariaDB \(supported: per-request, lazy, fixed, prewarm\)/,
    );
    const stmt = await refuse({
      strategy: 'lazy',
      params: { statementTimeoutMs: 500 },
      instanceCount: 1,
    });
    expect(stmt?.message).toMatch(
      /config\.params\.statementTimeoutMs.*bun runtime cannot honour statement timeout/,
    );
    // every field the runtime refuses, at once: a form shows them all after one save
    const hikari2 = await admin.target.create({
      kind: 'managed',
      name: 'hikari target',
      requestDefaults: { method: 'GET', path: '/health' },
      environment: { runtime: 'java-hikari' },
    });
    const both = (await admin.poolConfig
      .create({
        targetId: hikari2.id,
        name: 'two floors',
        config: {
          strategy: 'elastic',
          params: { acquireTimeoutMs: 100, idleTimeoutMs: 1000 },
          instanceCount: 1,
        },
      })
      .then(
        () => null,
        (e: unknown) => e,
      )) as (TRPCError & { cause?: { problems?: { path: string }[] } }) | null;
    expect(both?.code).toBe('BAD_REQUEST');
    expect(both?.cause?.problems?.map((p) => p.path).sort()).toEqual([
      'config.params.acquireTimeoutMs',
      'config.params.idleTimeoutMs',
    ]);
    expect(both?.message).toMatch(/acquireTimeoutMs: must be at least 250 ms/);
    expect(both?.message).toMatch(/idleTimeoutMs: must be at least 10000 ms/);
    // what it can honour is stored; a config may run on another runtime than its target's
    const lazy = await admin.poolConfig.create({
      targetId: t.id,
      name: 'bun lazy',
      config: { strategy: 'lazy', params: { maxConns: 5 }, instanceCount: 1 },
    });
    const hikari = await admin.poolConfig.create({
      targetId: t.id,
      name: 'hikari adaptive',
      config: {
        strategy: 'adaptive',
        params: {},
        instanceCount: 1,
        environment: { runtime: 'java-hikari' },
      },
    });
    await admin.experiment.launch({
      name: 'ok',
      targetId: t.id,
      poolConfigIds: [lazy.id, hikari.id],
      scenarioIds: [A.scenarioId],
      repeats: 1,
    });
    // the target moves to php-fpm: the bun config can no longer run there, and launch says which one and why
    await db.target.update({
      where: { id: t.id },
      data: { managed: { program: 'lab-target', environment: { runtime: 'php-fpm' } } },
    });
    const launch = (await admin.experiment
      .launch({
        name: 'no',
        targetId: t.id,
        poolConfigIds: [hikari.id, lazy.id],
        scenarioIds: [A.scenarioId],
        repeats: 1,
      })
      .then(
        () => null,
        (e: unknown) => e,
      )) as TRPCError | null;
    expect(launch?.code).toBe('BAD_REQUEST');
    expect(launch?.message).toMatch(
      /pool config "bun lazy": strategy: lazy is not supported by the php-fpm runtime/,
    );
    expect(await db.experiment.count({ where: { name: 'no' } })).toBe(0);
  });
});
