import { parsePoolConfig, parseTarget, toJson, type Db, type Prisma } from '@poolbench/db';
import { liveTarget } from '@poolbench/runs';
import { poolConfigProblemsOnTarget, type PoolConfig } from '@poolbench/scenarios';
import { AppError } from '@poolbench/contracts/errors';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';
import { envColumn } from './environment-column';

const SELECT = {
  id: true,
  targetId: true,
  name: true,
  strategy: true,
  params: true,
  instanceCount: true,
  environment: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PoolConfigSelect;

const assertTarget = (db: Db, teamId: string, targetId: string) =>
  liveTarget(db, teamId, targetId, { id: true, kind: true, managed: true });

/**
 * A managed target's runtime must be able to honour the config (docs/runtimes.md): every problem
 * is named by its field at once, so a form shows them all after one save, not one per save.
 */
async function assertRuntimeCanRun(db: Db, teamId: string, targetId: string, config: PoolConfig) {
  const t = await assertTarget(db, teamId, targetId);
  if (t.kind !== 'managed') return;
  const problems = poolConfigProblemsOnTarget(config, parseTarget(t).managed?.environment).map(
    (p) => ({ path: `config.${p.path}`, message: p.message }),
  );
  if (problems.length === 1) throw new InvalidInputError(problems[0]!.path, problems[0]!.message);
  if (problems.length > 1)
    throw new AppError(
      'validation_failed',
      problems.map((p) => `${p.path}: ${p.message}`).join('; '),
      { problems },
    );
}

async function assertNameFree(db: Db, targetId: string, name: string, exceptId?: string) {
  const clash = await db.poolConfig.findFirst({
    where: { targetId, name, archivedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new ConflictError(`this target already has a pool config named "${name}"`);
}

export async function listPoolConfigs(db: Db, teamId: string, targetId?: string) {
  if (targetId) await assertTarget(db, teamId, targetId);
  const rows = await db.poolConfig.findMany({
    where: { teamId, archivedAt: null, ...(targetId ? { targetId } : {}) },
    select: SELECT,
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(parsePoolConfig);
}

export async function getPoolConfig(db: Db, teamId: string, id: string) {
  const pc = await db.poolConfig.findFirst({
    where: { id, teamId, archivedAt: null },
    select: SELECT,
  });
  if (!pc) throw new NotFoundError('pool config');
  return parsePoolConfig(pc);
}

export async function createPoolConfig(
  db: Db,
  teamId: string,
  input: { targetId: string; name: string; config: PoolConfig },
) {
  await assertRuntimeCanRun(db, teamId, input.targetId, input.config);
  await assertNameFree(db, input.targetId, input.name);
  const row = await db.poolConfig.create({
    data: {
      teamId,
      targetId: input.targetId,
      ...configColumns(input.name, input.config),
    },
    select: SELECT,
  });
  return parsePoolConfig(row);
}

/** The columns a saved pool config is written to. */
const configColumns = (name: string, config: PoolConfig) => ({
  name,
  strategy: config.strategy,
  params: toJson.poolParams(config.params),
  instanceCount: config.instanceCount,
  environment: envColumn(config.environment),
});

/** Runs keep snapshots, so editing a config never rewrites history. */
export async function updatePoolConfig(
  db: Db,
  teamId: string,
  input: { id: string; name: string; config: PoolConfig },
) {
  const pc = await getPoolConfig(db, teamId, input.id);
  await assertRuntimeCanRun(db, teamId, pc.targetId, input.config);
  await assertNameFree(db, pc.targetId, input.name, pc.id);
  const row = await db.poolConfig.update({
    where: { id: pc.id },
    data: {
      ...configColumns(input.name, input.config),
    },
    select: SELECT,
  });
  return parsePoolConfig(row);
}

export async function duplicatePoolConfig(db: Db, teamId: string, id: string) {
  const pc = await getPoolConfig(db, teamId, id);
  let name = `${pc.name} (copy)`;
  for (
    let i = 2;
    await db.poolConfig.findFirst({
      where: { targetId: pc.targetId, name, archivedAt: null },
      select: { id: true },
    });
    i++
  )
    name = `${pc.name} (copy ${i})`;
  const row = await db.poolConfig.create({
    data: {
      teamId,
      targetId: pc.targetId,
      name,
      strategy: pc.strategy,
      params: toJson.poolParams(pc.params),
      instanceCount: pc.instanceCount,
      environment: envColumn(pc.environment),
    },
    select: SELECT,
  });
  return parsePoolConfig(row);
}

export async function archivePoolConfig(db: Db, teamId: string, id: string) {
  // keeps its name (unique among live rows only), so the name is free for a new config
  const r = await db.poolConfig.updateMany({
    where: { id, teamId, archivedAt: null },
    data: { archivedAt: new Date() },
  });
  if (r.count === 0) throw new NotFoundError('pool config');
}
