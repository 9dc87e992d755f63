import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { authenticateApiToken } from './authenticate-api-token';
import { createApiToken } from './create-api-token';
import { listApiTokens } from './list-api-tokens';
import { generateApiToken, isWellFormedApiToken, TOKEN_LENGTH } from './token-format';

describe('token format', () => {
  it('is pb_ + 32 random base62 characters + a 6-character checksum', () => {
    const t = generateApiToken();
    expect(t).toMatch(/^pb_[0-9A-Za-z]{38}$/);
    expect(t.length).toBe(TOKEN_LENGTH);
    expect(isWellFormedApiToken(t)).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, generateApiToken)).size).toBe(1000);
  });

  it('the checksum catches every single-character typo and truncation', () => {
    const t = generateApiToken();
    for (let i = 3; i < t.length; i++) {
      const c = t[i] === 'a' ? 'b' : 'a';
      expect(isWellFormedApiToken(t.slice(0, i) + c + t.slice(i + 1)), `position ${i}`).toBe(false);
    }
    expect(isWellFormedApiToken(t.slice(0, -1))).toBe(false);
  });
});

describe('API tokens in the database (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_tokens'));
    A = await makeTeam(db, 'a');
  });
  afterAll(async () => dispose?.());

  it('stores only the sha256 hash: the token appears in no column of any ApiToken row', async () => {
    const created = await Promise.all(
      [1, 2, 3].map((i) =>
        createApiToken(db, {
          teamId: A.teamId,
          userId: A.users.admin.id,
          name: `ci-${i}`,
          scopes: ['runs:read'],
          expiresInDays: 30,
        }),
      ),
    );
    const rows = (
      await db.$queryRawUnsafe<{ row: unknown }[]>('SELECT row_to_json(t) AS row FROM "ApiToken" t')
    ).map((r) => JSON.stringify(r.row));
    expect(rows).toHaveLength(3);
    for (const { token } of created) {
      const secret = token.slice(3, 35); // the random part
      for (const row of rows) {
        expect(row).not.toContain(token);
        expect(row).not.toContain(secret);
        // nothing longer than the shown prefix/last4 leaks either
        for (let i = 0; i + 12 <= secret.length; i++)
          expect(row).not.toContain(secret.slice(i, i + 12));
      }
      const hash = createHash('sha256').update(token).digest('hex');
      expect(rows.filter((r) => r.includes(hash))).toHaveLength(1);
    }
    const listed = await listApiTokens(db, A.teamId);
    expect(JSON.stringify(listed)).not.toContain(created[0]!.token);
    expect(listed.find((t) => t.name === 'ci-1')!.last4).toBe(created[0]!.token.slice(-4));
  });

  it('authenticates with the full token and throttles lastUsedAt writes', async () => {
    const { token, id } = await createApiToken(db, {
      teamId: A.teamId,
      userId: A.users.admin.id,
      name: 'auth',
      scopes: ['runs:read', 'runs:write'],
      expiresInDays: null,
    });
    const t0 = new Date('2030-01-01T00:00:00Z');
    const p = await authenticateApiToken(db, token, t0);
    expect(p).toMatchObject({
      tokenId: id,
      teamId: A.teamId,
      scopes: ['runs:read', 'runs:write'],
      createdById: A.users.admin.id,
    });
    await authenticateApiToken(db, token, new Date(t0.getTime() + 30_000));
    expect((await db.apiToken.findUnique({ where: { id } }))!.lastUsedAt).toEqual(t0);
    await authenticateApiToken(db, token, new Date(t0.getTime() + 61_000));
    expect((await db.apiToken.findUnique({ where: { id } }))!.lastUsedAt).toEqual(
      new Date(t0.getTime() + 61_000),
    );
    expect(await authenticateApiToken(db, generateApiToken())).toBe('unknown');
  });
});
