import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import type { Context } from '~/server/api/context';
import { handleTrpc } from '~/server/api/handle-trpc';
import { handleRest } from '~/server/rest/handle-rest';
import type { RestDeps } from '~/server/rest/deps';
import { MAX_BODY_BYTES } from './body-limit';

const APP = 'http://pb.test';
const BIG = 5 * 1024 * 1024;

/** A body of `bytes` bytes sent in 64 KiB chunks with no Content-Length (chunked on the wire); counts what was pulled. */
function chunked(bytes: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= bytes) return controller.close();
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

/**
 * Request bodies over 1 MiB are refused with 413 and the limit named, on REST and tRPC, whether
 * Content-Length announces them or they arrive chunked; a chunked one is not read past the limit.
 * Real Postgres and Redis behind both handlers.
 */
describe('request body limit', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let token: string;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_body_limit'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: APP,
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'body');
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

  const rest = (body: BodyInit, headers: Record<string, string> = {}) =>
    handleRest(
      new Request(`${APP}/api/v1/experiments`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...headers,
        },
        body,
        duplex: 'half',
      } as RequestInit),
      deps,
    );
  const ctx = (): Context => ({
    db,
    redis: () => services.redis,
    runQueue: () => services.queue,
    secretKey: () => services.key,
    user: { id: A.users.owner.id, name: 'o', email: A.users.owner.email },
    sessionId: A.users.owner.sessionId,
    activeTeamId: A.teamId,
  });
  const trpc = (body: BodyInit, headers: Record<string, string> = {}) =>
    handleTrpc(
      new Request(`${APP}/api/trpc/team.create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        duplex: 'half',
      } as RequestInit),
      ctx,
    );
  const bigJson = (bytes: number) => JSON.stringify({ name: 'x'.repeat(bytes) });

  it('REST: a body announced over the limit is 413 payload_too_large, naming the limit', async () => {
    const res = await rest(bigJson(BIG));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('payload_too_large');
    expect(body.detail).toBe(
      `the request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB), the most this API accepts`,
    );
  });

  it('REST: a chunked body is refused once it passes the limit, without reading the rest', async () => {
    const { stream, state } = chunked(BIG);
    const res = await rest(stream);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('payload_too_large');
    expect(state.pulled).toBeLessThan(MAX_BODY_BYTES + 256 * 1024);
  });

  it('REST: a body under the limit is read as before', async () => {
    const res = await rest(JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES - 100) }));
    expect(res.status).toBe(422); // parsed and validated: not an experiment
  });

  it('tRPC: a body announced over the limit is 413 PAYLOAD_TOO_LARGE, naming the limit', async () => {
    const before = await db.team.count();
    const res = await trpc(bigJson(BIG), { 'content-length': String(BIG + 11) });
    expect(res.status).toBe(413);
    const body = (await res.json()) as {
      error: { json: { message: string; data: { code: string } } };
    };
    expect(body.error.json.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.error.json.message).toMatch(/larger than 1048576 bytes \(1 MiB\)/);
    expect(await db.team.count()).toBe(before);
  });

  it('tRPC: a chunked body is refused once it passes the limit', async () => {
    const { stream, state } = chunked(BIG);
    const res = await trpc(stream);
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThan(MAX_BODY_BYTES + 256 * 1024);
  });

  it('tRPC: a body under the limit reaches the procedure', async () => {
    const res = await trpc(JSON.stringify({ json: { name: 'Small body' } }), { origin: APP });
    expect(res.status).toBe(200);
  });
});
