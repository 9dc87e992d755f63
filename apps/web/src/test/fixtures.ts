import { randomBytes } from 'node:crypto';
import { DEMO_EMAIL, type Db, type Role } from '@poolbench/db';
import { scenarioRowData } from '@poolbench/db';
import { launchExperiment } from '@poolbench/runs';
import { createRunQueue, producerConnection, workerConnection } from '@poolbench/queue';
import { createCaller } from '~/server/api/root';
import type { Context } from '~/server/api/context';
import { hashToken } from '~/server/services/teams/invitations';
import { SERVICE_DEFAULTS } from '@poolbench/contracts';

const REDIS_URL = process.env.REDIS_URL ?? SERVICE_DEFAULTS.REDIS_URL;

export const SCENARIO = {
  template: 'cold-start-burst',
  params: { vus: 5, rampUpMs: 1000, holdMs: 5000 },
  requests: [{ method: 'GET', path: '/health' }],
  readyPath: '/ready',
} as const;

export interface TeamFixture {
  teamId: string;
  users: Record<Role, { id: string; email: string; sessionId: string; membershipId: string }>;
  targetId: string;
  poolConfigId: string;
  scenarioId: string;
  experimentId: string;
  runIds: string[];
  invitationId: string;
  allowedHostId: string;
  scheduleId: string;
}

/** A team with one user per role and one of everything, built straight in the database. */
export async function makeTeam(db: Db, label: string): Promise<TeamFixture> {
  const team = await db.team.create({
    data: { name: `Team ${label}`, slug: `${label}-${randomBytes(3).toString('hex')}` },
  });
  const users = {} as TeamFixture['users'];
  for (const role of ['owner', 'admin', 'member', 'viewer'] as Role[]) {
    const id = `${label}-${role}-${randomBytes(3).toString('hex')}`;
    const email = `${id}@example.test`;
    await db.user.create({ data: { id, name: `${label} ${role}`, email } });
    const sessionId = `s-${id}`;
    await db.session.create({
      data: {
        id: sessionId,
        token: `t-${id}`,
        userId: id,
        expiresAt: new Date(Date.now() + 3600_000),
        activeTeamId: team.id,
      },
    });
    const m = await db.membership.create({ data: { teamId: team.id, userId: id, role } });
    users[role] = { id, email, sessionId, membershipId: m.id };
  }
  const target = await db.target.create({
    data: {
      teamId: team.id,
      name: 'Lab',
      kind: 'managed',
      baseUrls: [],
      managed: { program: 'lab-target' },
      requestDefaults: { method: 'GET', path: '/health' },
      secretHeaderNames: [],
      readinessPath: '/ready',
    },
  });
  const pc = await db.poolConfig.create({
    data: {
      teamId: team.id,
      targetId: target.id,
      name: 'lazy',
      strategy: 'lazy',
      params: {},
      instanceCount: 1,
    },
  });
  const sc = await db.scenario.create({
    data: { teamId: team.id, name: 'burst', ...scenarioRowData({ ...SCENARIO, thresholds: [] }) },
  });
  const launched = await launchExperiment(db, {
    teamId: team.id,
    targetId: target.id,
    poolConfigIds: [pc.id],
    scenarioIds: [sc.id],
    repeats: 2,
    name: 'exp',
    createdById: users.owner.id,
  });
  const inv = await db.invitation.create({
    data: {
      teamId: team.id,
      role: 'member',
      tokenHash: hashToken(`tok-${label}-${randomBytes(8).toString('hex')}`),
      expiresAt: new Date(Date.now() + 3600_000),
      createdById: users.owner.id,
    },
  });
  const host = await db.allowedHost.create({
    data: { teamId: team.id, pattern: `${label}.example.test`, createdById: users.owner.id },
  });
  const schedule = await db.schedule.create({
    data: {
      teamId: team.id,
      name: 'nightly',
      sourceExperimentId: launched.experimentId,
      cron: '0 3 * * *',
    },
  });
  return {
    teamId: team.id,
    users,
    targetId: target.id,
    poolConfigId: pc.id,
    scenarioId: sc.id,
    experimentId: launched.experimentId,
    runIds: launched.runIds,
    invitationId: inv.id,
    allowedHostId: host.id,
    scheduleId: schedule.id,
  };
}

/**
 * Opens special-purpose ranges to every team as an installation admin does (Settings →
 * Installation): through tRPC, as the installation's first account. Ranges already open stay.
 */
export async function openRanges(
  db: Db,
  services: ReturnType<typeof makeServices>,
  cidrs: string[],
): Promise<void> {
  const first = await db.user.findFirstOrThrow({
    where: { email: { not: DEMO_EMAIL } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const caller = callerFor(db, services, { id: first.id, email: first.email, sessionId: 'none' });
  const open = new Set((await caller.installation.ranges()).map((r) => r.cidr));
  for (const cidr of cidrs) if (!open.has(cidr)) await caller.installation.open({ cidr });
}

/** Real Redis and a BullMQ queue under a private prefix, so tests never feed the real worker. */
export function makeServices() {
  const prefix = `pbwebtest-${randomBytes(4).toString('hex')}`;
  const redis = producerConnection(REDIS_URL);
  const queueConn = workerConnection(REDIS_URL);
  const queue = createRunQueue(queueConn, prefix);
  const key = randomBytes(32);
  return {
    redis,
    queue,
    key,
    close: async () => {
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
      queueConn.disconnect();
      redis.disconnect();
    },
  };
}

export function callerFor(
  db: Db,
  services: ReturnType<typeof makeServices>,
  user: { id: string; email: string; sessionId: string; emailVerified?: boolean } | null,
  activeTeamId: string | null = null,
  /** a web process's auth cache (`createProcessAuth`), for tests of revocation */
  auth: Pick<Context, 'resolveTeam' | 'forgetAuth'> = {},
) {
  const ctx: Context = {
    db,
    redis: () => services.redis,
    runQueue: () => services.queue,
    secretKey: () => services.key,
    user: user
      ? { id: user.id, name: user.id, email: user.email, emailVerified: user.emailVerified }
      : null,
    sessionId: user?.sessionId ?? null,
    activeTeamId,
    ...auth,
  };
  return createCaller(ctx);
}
