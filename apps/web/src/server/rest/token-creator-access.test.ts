import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import { listApiTokens } from '~/server/services/api-tokens/list-api-tokens';
import type { RestDeps } from './deps';
import { restCaller } from '~/test/rest';

/**
 * A token is only as strong as its creator is today: found by an attack where an admin's token
 * still started experiments (201) after the admin was demoted to viewer and after removal.
 * Through the real REST handler, real Postgres and Redis; demotion and removal through tRPC.
 */
describe("API tokens follow their creator's current membership and role", () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let token: string;
  let n = 0;

  const call = restCaller(
    () => deps,
    () => token,
  );
  const start = () =>
    call('POST', '/experiments', {
      kind: 'inline',
      name: `pr-${++n}`,
      target: 'Lab',
      poolConfigs: ['lazy'],
      repeats: 1,
      scenario: {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
        requests: [{ method: 'GET', path: '/work' }],
      },
    });
  const owner = () => callerFor(db, services, A.users.owner, A.teamId);

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_token_creator'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'a');
    token = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'ci',
        scopes: ['runs:read', 'runs:write'],
        expiresInDays: 30,
      })
    ).token;
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('works while the creator is admin, and the list shows who made it and their role', async () => {
    const res = await start();
    expect(res.status, await res.clone().text()).toBe(201);
    const [listed] = await listApiTokens(db, A.teamId);
    expect(listed).toMatchObject({
      createdBy: 'a admin',
      createdByEmail: A.users.admin.email,
      createdByRole: 'admin',
    });
  });

  it('a creator demoted to viewer: writes are 403 creator_role_insufficient, reads still work', async () => {
    await owner().team.changeRole({ membershipId: A.users.admin.membershipId, role: 'viewer' });
    const res = await start();
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json();
    expect(body.code).toBe('creator_role_insufficient');
    expect(body.detail).toContain('runs:write');
    expect(body.detail).toContain('at least member');
    expect(body.detail).toContain('now viewer');
    expect(
      (await call('POST', '/baselines', { name: 'main', experimentId: A.experimentId })).status,
    ).toBe(403);
    expect((await call('GET', `/experiments/${A.experimentId}`)).status).toBe(200);
    expect((await listApiTokens(db, A.teamId))[0]!.createdByRole).toBe('viewer');
  });

  it('a creator promoted back to member may write again (checked on every use, never cached)', async () => {
    await owner().team.changeRole({ membershipId: A.users.admin.membershipId, role: 'member' });
    expect((await start()).status).toBe(201);
  });

  it('a creator removed from the team: every use is 401 token_creator_removed', async () => {
    await owner().team.removeMember({ membershipId: A.users.admin.membershipId });
    for (const res of [await start(), await call('GET', `/experiments/${A.experimentId}`)]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('invalid_token');
      const body = await res.json();
      expect(body.code).toBe('token_creator_removed');
      expect(body.detail).toContain('no longer a member');
    }
    const [listed] = await listApiTokens(db, A.teamId);
    expect(listed).toMatchObject({ createdBy: 'a admin', createdByRole: null });
  });
});
