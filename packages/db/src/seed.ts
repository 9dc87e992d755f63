import { hashPassword } from 'better-auth/crypto';
import type { Db } from './client';
import { toJson } from './json/to-json';

export const DEMO_EMAIL = 'demo@poolbench.dev';
export const DEMO_PASSWORD = 'poolbench-demo';
export const DEMO_TEAM_SLUG = 'demo';
export const LAB_TARGET_NAME = 'Lab target';

/** Data-set flags for `lab-target setup` (scaled for a laptop; the seeds' sizes are noted in docs). */
export const LAB_SETUP = { rows: 10_000, fields: 50, roles: 50, permissions: 200, shards: 4 };

/**
 * Idempotent: the demo team and its login, and the managed lab target. The seed presets' pool
 * configs and scenarios are added by `seed` in @poolbench/runs, which knows the presets.
 */
export async function seedDemoTeam(
  db: Db,
): Promise<{ teamId: string; userId: string; targetId: string }> {
  const user =
    (await db.user.findUnique({ where: { email: DEMO_EMAIL } })) ??
    (await db.user.create({
      data: { id: 'demo-user', name: 'Demo User', email: DEMO_EMAIL, emailVerified: true },
    }));
  const hasPassword = await db.account.findFirst({
    where: { userId: user.id, providerId: 'credential' },
  });
  if (!hasPassword) {
    await db.account.create({
      data: {
        id: `${user.id}-credential`,
        accountId: user.id,
        providerId: 'credential',
        userId: user.id,
        password: await hashPassword(DEMO_PASSWORD),
      },
    });
  }
  const team = await db.team.upsert({
    where: { slug: DEMO_TEAM_SLUG },
    create: { name: 'Demo team', slug: DEMO_TEAM_SLUG },
    update: {},
  });
  await db.membership.upsert({
    where: { teamId_userId: { teamId: team.id, userId: user.id } },
    create: { teamId: team.id, userId: user.id, role: 'owner' },
    update: {},
  });
  // Names are unique among live rows only (partial indexes), so "upsert" is: the live row, else a new one.
  const target =
    (await db.target.findFirst({
      where: { teamId: team.id, name: LAB_TARGET_NAME, archivedAt: null },
    })) ??
    (await db.target.create({
      data: {
        teamId: team.id,
        name: LAB_TARGET_NAME,
        kind: 'managed',
        baseUrls: [],
        managed: toJson.targetManaged({ program: 'lab-target', setup: LAB_SETUP }),
        requestDefaults: { method: 'GET', path: '/health' },
        secretHeaderNames: [],
        readinessPath: '/ready',
      },
    }));
  return { teamId: team.id, userId: user.id, targetId: target.id };
}
