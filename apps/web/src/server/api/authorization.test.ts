import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { Db, Role } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, SCENARIO, type TeamFixture } from '~/test/fixtures';
import { appRouter } from './root';

/**
 * Every procedure, with the least role it needs and how to call it with a team's ids. A new
 * procedure without a row here fails the first test, so authorization is never left unchecked.
 *  - other: 'not-found'  another team's ids answer NOT_FOUND
 *  - other: 'empty'      filters by another team's ids just return nothing
 *  - other: { none }     the procedure takes no ids of team data (the reason is stated)
 */
// 'installation': an installation admin (the first account, or a verified POOLBENCH_INSTALLATION_ADMINS address)
type MinRole = Role | 'signed-in' | 'installation';
interface Case {
  min: MinRole;
  input?: (f: TeamFixture) => unknown;
  other: 'not-found' | 'empty' | { none: string };
}

const id = (x: string) => ({ id: x });
const def = (f: TeamFixture) => ({
  name: 'e',
  targetId: f.targetId,
  poolConfigIds: [f.poolConfigId],
  scenarioIds: [f.scenarioId],
  repeats: 1,
});
const managed = {
  kind: 'managed',
  name: 'New lab',
  requestDefaults: { method: 'GET', path: '/health' },
};

const CASES: Record<string, Case> = {
  'team.me': { min: 'signed-in', other: { none: 'reads only the caller' } },
  'team.switch': { min: 'signed-in', input: (f) => ({ teamId: f.teamId }), other: 'not-found' },
  'team.locate': {
    min: 'signed-in',
    input: (f) => ({ kind: 'run', id: f.runIds[0] }),
    other: 'not-found',
  },
  'team.create': {
    min: 'signed-in',
    input: () => ({ name: 'Another team' }),
    other: { none: 'creates a new team' },
  },
  'team.members': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'team.changeRole': {
    min: 'admin',
    input: (f) => ({ membershipId: f.users.member.membershipId, role: 'viewer' }),
    other: 'not-found',
  },
  'team.removeMember': {
    min: 'admin',
    input: (f) => ({ membershipId: f.users.viewer.membershipId }),
    other: 'not-found',
  },
  'team.invitations': { min: 'admin', other: { none: 'scoped to the active team' } },
  'team.invite': {
    min: 'admin',
    input: () => ({ role: 'member' }),
    other: { none: 'creates in the active team' },
  },
  'team.revokeInvitation': { min: 'admin', input: (f) => id(f.invitationId), other: 'not-found' },
  'team.invitation': {
    min: 'signed-in',
    input: () => ({ token: 'x'.repeat(32) }),
    other: { none: 'looked up by secret token, not id' },
  },
  'team.acceptInvitation': {
    min: 'signed-in',
    input: () => ({ token: 'y'.repeat(32) }),
    other: { none: 'looked up by secret token, not id' },
  },
  'team.allowlist': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'team.allow': {
    min: 'admin',
    input: () => ({ pattern: 'db.example.test' }),
    other: { none: 'creates in the active team' },
  },
  'team.retention': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'team.setRetention': {
    min: 'admin',
    input: () => ({ retentionDays: 30 }),
    other: { none: 'changes the active team only' },
  },
  'team.fleetLimits': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'team.setFleetLimits': {
    min: 'admin',
    input: () => ({ maxRunsPerExperiment: 400, maxQueuedLoadMinutes: null }),
    other: { none: 'changes the active team only' },
  },
  'team.scriptPolicy': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'team.setScriptPolicy': {
    min: 'admin',
    input: () => ({ enabled: false }),
    other: { none: 'changes the active team only' },
  },
  'team.disallow': { min: 'admin', input: (f) => id(f.allowedHostId), other: 'not-found' },

  'target.list': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'target.get': { min: 'viewer', input: (f) => id(f.targetId), other: 'not-found' },
  'target.create': {
    min: 'admin',
    input: () => managed,
    other: { none: 'creates in the active team' },
  },
  'target.update': {
    min: 'admin',
    input: (f) => ({ id: f.targetId, target: managed }),
    other: 'not-found',
  },
  'target.archive': { min: 'admin', input: (f) => id(f.targetId), other: 'not-found' },
  'target.testConnection': { min: 'member', input: (f) => id(f.targetId), other: 'not-found' },

  'poolConfig.list': {
    min: 'viewer',
    input: (f) => ({ targetId: f.targetId }),
    other: 'not-found',
  },
  'poolConfig.get': { min: 'viewer', input: (f) => id(f.poolConfigId), other: 'not-found' },
  'poolConfig.create': {
    min: 'member',
    input: (f) => ({
      targetId: f.targetId,
      name: 'prewarm',
      config: { strategy: 'prewarm', params: {} },
    }),
    other: 'not-found',
  },
  'poolConfig.update': {
    min: 'member',
    input: (f) => ({
      id: f.poolConfigId,
      name: 'lazy',
      config: { strategy: 'lazy', params: { maxConns: 5 } },
    }),
    other: 'not-found',
  },
  'poolConfig.duplicate': { min: 'member', input: (f) => id(f.poolConfigId), other: 'not-found' },
  'poolConfig.archive': { min: 'member', input: (f) => id(f.poolConfigId), other: 'not-found' },

  'scenario.list': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'scenario.get': { min: 'viewer', input: (f) => id(f.scenarioId), other: 'not-found' },
  'scenario.create': {
    min: 'member',
    input: () => ({ name: 'another', scenario: SCENARIO }),
    other: { none: 'creates in the active team' },
  },
  'scenario.update': {
    min: 'member',
    input: (f) => ({ id: f.scenarioId, name: 'burst', scenario: SCENARIO }),
    other: 'not-found',
  },
  'scenario.inspectScript': {
    min: 'member',
    input: () => ({ source: 'export default function () {}' }),
    other: { none: 'checks a script, stores nothing' },
  },
  'scenario.saveScript': {
    min: 'member',
    input: () => ({
      name: 'own script',
      script: { template: 'k6-script', source: 'export default function () {}' },
    }),
    other: { none: 'creates in the active team' },
  },
  'scenario.addInsightThreshold': {
    min: 'member',
    input: (f) => ({ id: f.scenarioId, code: 'pool-never-waited' }),
    other: 'not-found',
  },
  'scenario.archive': { min: 'member', input: (f) => id(f.scenarioId), other: 'not-found' },
  'scenario.presets': { min: 'viewer', other: { none: 'static preset catalogue' } },
  'scenario.applyPreset': {
    min: 'member',
    input: (f) => ({
      presetId: 'seed-000-tc1-cold-start-burst',
      scale: 0.125,
      targetId: f.targetId,
    }),
    other: 'not-found',
  },

  'experiment.list': {
    min: 'viewer',
    input: () => ({}),
    other: { none: 'scoped to the active team' },
  },
  'experiment.get': { min: 'viewer', input: (f) => id(f.experimentId), other: 'not-found' },
  'experiment.estimate': {
    min: 'viewer',
    input: (f) => ({ poolConfigIds: [f.poolConfigId], scenarioIds: [f.scenarioId], repeats: 2 }),
    other: 'not-found',
  },
  'experiment.launch': { min: 'member', input: def, other: 'not-found' },
  'experiment.schedule': {
    min: 'member',
    input: (f) => ({ definition: def(f), schedule: { name: 's', cron: '0 3 * * *' } }),
    other: 'not-found',
  },
  'trend.cells': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'trend.series': {
    min: 'viewer',
    input: (f) => ({
      targetId: f.targetId,
      scenarioId: f.scenarioId,
      poolConfigId: f.poolConfigId,
    }),
    other: 'not-found',
  },
  'trend.changePoints': {
    min: 'viewer',
    input: (f) => ({
      targetId: f.targetId,
      scenarioId: f.scenarioId,
      poolConfigId: f.poolConfigId,
    }),
    other: 'not-found',
  },
  'experiment.hypotheses': { min: 'viewer', input: (f) => id(f.experimentId), other: 'not-found' },
  'experiment.setHypotheses': {
    min: 'member',
    input: (f) => ({ id: f.experimentId, hypotheses: [] }),
    other: 'not-found',
  },
  'experiment.cancel': { min: 'member', input: (f) => id(f.experimentId), other: 'not-found' },
  'advisor.start': {
    min: 'member',
    input: (f) => ({
      targetId: f.targetId,
      scenarioId: f.scenarioId,
      basePoolConfigId: f.poolConfigId,
      min: 1,
      max: 4,
      objective: { kind: 'max-throughput' },
      budgetRuns: 8,
    }),
    other: 'not-found',
  },
  'advisor.savePoolConfig': {
    min: 'member',
    input: (f) => ({ experimentId: f.experimentId, setting: 2 }),
    other: 'not-found',
  },
  'calibration.start': {
    min: 'member',
    input: (f) => ({
      targetId: f.targetId,
      poolConfigId: f.poolConfigId,
      scenarioId: f.scenarioId,
      runsPerSide: 5,
    }),
    other: 'not-found',
  },
  'calibration.list': {
    min: 'viewer',
    input: (f) => ({ targetId: f.targetId }),
    other: 'not-found',
  },
  'installation.me': { min: 'signed-in', other: { none: 'reads only the caller' } },
  'installation.ranges': { min: 'installation', other: { none: 'no team data' } },
  'installation.open': {
    min: 'installation',
    input: () => ({ cidr: '10.9.0.0/16' }),
    other: { none: 'no team data' },
  },
  'installation.close': {
    min: 'installation',
    input: () => ({ id: 'no-such-range' }),
    other: { none: 'no team data' },
  },
  'experiment.extend': {
    min: 'member',
    input: (f) => ({ id: f.experimentId, addRepeats: 1 }),
    other: 'not-found',
  },

  'schedule.update': {
    min: 'member',
    input: (f) => ({
      id: f.scheduleId,
      name: 'nightly',
      cron: '0 4 * * *',
      timezone: 'UTC',
      repeats: 5,
    }),
    other: 'not-found',
  },
  'schedule.list': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'schedule.baselineCells': {
    min: 'viewer',
    input: (f) => ({ id: f.scheduleId, baselineName: 'main' }),
    other: 'not-found',
  },
  'schedule.preview': {
    min: 'signed-in',
    input: () => ({ cron: '0 3 * * *' }),
    other: { none: 'pure computation on the input' },
  },
  'schedule.pause': { min: 'member', input: (f) => id(f.scheduleId), other: 'not-found' },
  'schedule.resume': { min: 'member', input: (f) => id(f.scheduleId), other: 'not-found' },
  'schedule.delete': { min: 'member', input: (f) => id(f.scheduleId), other: 'not-found' },
  'schedule.setNotify': {
    min: 'member',
    input: (f) => ({
      id: f.scheduleId,
      baselineName: 'nightly',
      notifyOn: 'regression',
      webhookFormat: 'generic',
      webhookUrl: 'https://hooks.example.com/x',
      webhookSecret: 'a-secret-of-16-chars',
      removeWebhook: false,
    }),
    other: 'not-found',
  },
  'schedule.runNow': { min: 'member', input: (f) => id(f.scheduleId), other: 'not-found' },

  'run.list': { min: 'viewer', input: (f) => ({ experimentId: f.experimentId }), other: 'empty' },
  'run.get': { min: 'viewer', input: (f) => id(f.runIds[0]!), other: 'not-found' },
  'run.series': { min: 'viewer', input: (f) => id(f.runIds[0]!), other: 'not-found' },
  'run.customSeries': { min: 'viewer', input: (f) => id(f.runIds[0]!), other: 'not-found' },
  'run.sweepSteps': { min: 'viewer', input: (f) => id(f.runIds[0]!), other: 'not-found' },
  'run.cancel': { min: 'member', input: (f) => id(f.runIds[1]!), other: 'not-found' },
  'seeds.overview': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'seeds.reproduce': {
    min: 'member',
    input: () => ({ seeds: ['004'] }),
    other: { none: "launches on the active team's own managed target" },
  },
  'seeds.advise': {
    min: 'member',
    input: () => ({ question: 'seed-002-one-instance' }),
    other: { none: "launches on the active team's own managed target" },
  },
  'run.updateNotes': {
    min: 'member',
    input: (f) => ({ id: f.runIds[0]!, notes: 'n' }),
    other: 'not-found',
  },
  'apiToken.list': { min: 'admin', other: { none: 'scoped to the active team' } },
  'apiToken.create': {
    min: 'admin',
    input: () => ({ name: 'ci', scopes: ['runs:read'] }),
    other: { none: 'creates in the active team' },
  },
  'apiToken.revoke': { min: 'admin', input: (f) => id(`tok-${f.teamId}`), other: 'not-found' },

  'compare.get': {
    min: 'viewer',
    input: (f) => ({
      selection: {
        items: [
          { kind: 'run', runId: f.runIds[0]! },
          { kind: 'run', runId: f.runIds[1]! },
        ],
      },
    }),
    other: 'not-found',
  },
  'compare.repeatsNeeded': {
    min: 'viewer',
    input: (f) => ({
      selection: {
        items: [
          { kind: 'run', runId: f.runIds[0]! },
          { kind: 'run', runId: f.runIds[1]! },
        ],
      },
    }),
    other: 'not-found',
  },
  'compare.pivot': {
    min: 'viewer',
    input: (f) => ({ experimentId: f.experimentId }),
    other: 'not-found',
  },
  'compare.candidates': {
    min: 'viewer',
    input: () => ({}),
    other: { none: 'scoped to the active team' },
  },
  'baseline.list': {
    min: 'viewer',
    input: () => ({}),
    other: { none: 'scoped to the active team' },
  },
  'baseline.set': {
    min: 'member',
    input: (f) => ({ name: 'main', item: { kind: 'run', runId: f.runIds[0]! } }),
    other: 'not-found',
  },
  'baseline.remove': { min: 'member', input: (f) => id(`bl-${f.teamId}`), other: 'not-found' },
  'shareLink.list': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'onboarding.get': { min: 'viewer', other: { none: 'scoped to the active team' } },
  'onboarding.addPresets': {
    min: 'member',
    input: (f) => ({ targetId: f.targetId }),
    other: 'not-found',
  },
  'shareLink.create': {
    min: 'member',
    input: (f) => ({ target: { kind: 'run', runId: f.runIds[0]! }, title: 'shared' }),
    other: 'not-found',
  },
  'shareLink.revoke': { min: 'member', input: (f) => id(`sl-${f.teamId}`), other: 'not-found' },
};

const BELOW: Partial<Record<Role, Role>> = { member: 'viewer', admin: 'member', owner: 'admin' };

type Caller = ReturnType<typeof callerFor>;
function call(caller: Caller, path: string, input: unknown): Promise<unknown> {
  const [ns, name] = path.split('.') as [string, string];
  const fn = (
    caller as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>
  )[ns]![name]!;
  return fn(input);
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return e instanceof TRPCError ? e.code : `non-tRPC error: ${String(e)}`;
  }
}

describe('authorization of every procedure (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_authz'));
    services = makeServices();
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    for (const f of [A, B]) {
      await db.apiToken.create({
        data: {
          id: `tok-${f.teamId}`,
          teamId: f.teamId,
          name: 'fixture',
          prefix: 'pb_x',
          tokenHash: `hash-${f.teamId}`,
          last4: 'xxxx',
          scopes: ['runs:read'],
          createdById: f.users.owner.id,
        },
      });
      await db.baseline.create({
        data: {
          id: `bl-${f.teamId}`,
          teamId: f.teamId,
          name: 'fixture',
          targetId: f.targetId,
          scenarioId: f.scenarioId,
          runId: f.runIds[0]!,
        },
      });
      await db.shareLink.create({
        data: {
          id: `sl-${f.teamId}`,
          teamId: f.teamId,
          kind: 'run',
          tokenHash: `share-${f.teamId}`,
          runId: f.runIds[0]!,
          title: 'fixture',
        },
      });
    }
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('has a case for every procedure and no stale cases', () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(Object.keys(CASES).sort()).toEqual(procedures);
  });

  it.each(Object.entries(CASES))('%s: signed out -> UNAUTHORIZED', async (path, c) => {
    expect(await codeOf(call(callerFor(db, services, null), path, c.input?.(A)))).toBe(
      'UNAUTHORIZED',
    );
  });

  it.each(Object.entries(CASES).filter(([, c]) => c.min !== 'signed-in' && BELOW[c.min as Role]))(
    '%s: role below the minimum -> FORBIDDEN',
    async (path, c) => {
      const below = BELOW[c.min as Role]!;
      expect(
        await codeOf(call(callerFor(db, services, A.users[below], A.teamId), path, c.input?.(A))),
      ).toBe('FORBIDDEN');
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => c.other === 'not-found'))(
    "%s: another team's ids -> NOT_FOUND",
    async (path, c) => {
      expect(
        await codeOf(call(callerFor(db, services, A.users.owner, A.teamId), path, c.input!(B))),
      ).toBe('NOT_FOUND');
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => c.other === 'empty'))(
    "%s: another team's ids -> nothing",
    async (path, c) => {
      const res = (await call(
        callerFor(db, services, A.users.owner, A.teamId),
        path,
        c.input!(B),
      )) as { items: unknown[] };
      expect(res.items).toEqual([]);
    },
  );

  it.each(Object.entries(CASES).filter(([, c]) => c.min === 'installation'))(
    '%s: a team owner who is not an installation admin -> FORBIDDEN',
    async (path, c) => {
      // A's owner is the installation's first account; B's owner signed up later
      expect(
        await codeOf(call(callerFor(db, services, B.users.owner, B.teamId), path, c.input?.(B))),
      ).toBe('FORBIDDEN');
    },
  );

  it('a user who is not a member of any team is FORBIDDEN from team procedures', async () => {
    await db.user.create({ data: { id: 'loner', name: 'Loner', email: 'loner@example.test' } });
    const loner = { id: 'loner', email: 'loner@example.test', sessionId: 'none' };
    expect(await codeOf(callerFor(db, services, loner, B.teamId).target.list())).toBe('FORBIDDEN');
  });

  it("a link to another of my teams' objects names that team; teams I am not in stay NOT_FOUND", async () => {
    const both = { id: 'both-teams', email: 'both@example.test', sessionId: 's-both-teams' };
    await db.user.create({ data: { id: both.id, name: 'Both', email: both.email } });
    await db.session.create({
      data: {
        id: both.sessionId,
        token: 't-both-teams',
        userId: both.id,
        expiresAt: new Date(Date.now() + 3600_000),
        activeTeamId: A.teamId,
      },
    });
    await db.membership.create({ data: { teamId: A.teamId, userId: both.id, role: 'member' } });
    await db.membership.create({ data: { teamId: B.teamId, userId: both.id, role: 'viewer' } });
    const inA = callerFor(db, services, both, A.teamId);
    // the page itself stays scoped to the active team ...
    expect(await codeOf(inA.run.get({ id: B.runIds[0]! }))).toBe('NOT_FOUND');
    // ... and says whose it is, so the user can switch
    const teamB = await db.team.findUniqueOrThrow({ where: { id: B.teamId } });
    for (const [kind, id] of [
      ['run', B.runIds[0]!],
      ['experiment', B.experimentId],
      ['target', B.targetId],
      ['scenario', B.scenarioId],
      ['schedule', B.scheduleId],
    ] as const) {
      expect(await inA.team.locate({ kind, id })).toEqual({
        teamId: B.teamId,
        teamName: teamB.name,
      });
    }
    await inA.team.switch({ teamId: B.teamId });
    expect((await callerFor(db, services, both, B.teamId).run.get({ id: B.runIds[0]! })).id).toBe(
      B.runIds[0],
    );
    // A's owner is not in B: no team name, no hint that the run exists
    expect(
      await codeOf(
        callerFor(db, services, A.users.owner, A.teamId).team.locate({
          kind: 'run',
          id: B.runIds[0]!,
        }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        callerFor(db, services, A.users.owner, A.teamId).team.locate({
          kind: 'run',
          id: 'does-not-exist',
        }),
      ),
    ).toBe('NOT_FOUND');
  });

  it('an active team id the user does not belong to is ignored, never trusted', async () => {
    const list = await callerFor(db, services, A.users.viewer, B.teamId).target.list();
    expect(list.map((t) => t.id)).toEqual([A.targetId]);
  });

  it('reads succeed for the least role that may make them', async () => {
    for (const [path, c] of Object.entries(CASES)) {
      if (
        c.min !== 'viewer' ||
        (path.startsWith('run.') === false &&
          ![
            'target.get',
            'poolConfig.list',
            'experiment.get',
            'experiment.estimate',
            'scenario.get',
          ].includes(path))
      )
        continue;
      expect(
        await codeOf(call(callerFor(db, services, A.users.viewer, A.teamId), path, c.input?.(A))),
        path,
      ).toBe('OK');
    }
  });
});
