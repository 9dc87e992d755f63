import { createHash } from 'node:crypto';
import { toJson, type Db, type Prisma } from '@poolbench/db';
import { ProblemError, problemBody } from './problem';
import { toProblem } from './to-problem';

export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface IdempotencyOptions {
  /** how long a concurrent duplicate waits for the first request's response */
  waitMs?: number;
  pollMs?: number;
  /** an unfinished key older than this belonged to a request that died; it may be taken over */
  staleMs?: number;
}

export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,200}$/;

/** sha256 of the method, path and body with sorted keys, so key order in JSON does not matter. */
export function requestHash(method: string, path: string, body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(canonical(body) ?? null)}`)
    .digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `run` at most once per (team, key). The key row is inserted first (ON CONFLICT DO NOTHING
 * on the unique (teamId, key)), so of two concurrent requests exactly one inserts it and does the
 * work; the other waits for the stored response and returns it. Responses below 500 are stored
 * (a retried bad request stays bad); on a 5xx or a crash the row is removed so a retry can work.
 */
export async function withIdempotency(
  db: Db,
  input: { teamId: string; key: string; requestHash: string },
  run: () => Promise<StoredResponse>,
  opts: IdempotencyOptions = {},
): Promise<StoredResponse & { replayed: boolean }> {
  const waitMs = opts.waitMs ?? 30_000;
  const pollMs = opts.pollMs ?? 100;
  const staleMs = opts.staleMs ?? 10 * 60_000;
  const where = { teamId_key: { teamId: input.teamId, key: input.key } };
  const deadline = Date.now() + waitMs;

  for (;;) {
    const { count } = await db.idempotencyKey.createMany({
      data: [{ teamId: input.teamId, key: input.key, requestHash: input.requestHash }],
      skipDuplicates: true,
    });
    if (count === 1) return { ...(await runAndStore(db, where, run)), replayed: false };

    const row = await db.idempotencyKey.findUnique({
      where,
      select: {
        id: true,
        requestHash: true,
        statusCode: true,
        responseBody: true,
        createdAt: true,
      },
    });
    if (!row) continue; // the first request failed and released the key: try to take it
    if (row.requestHash !== input.requestHash) {
      throw new ProblemError(
        'idempotency_key_reused',
        'this Idempotency-Key was already used for a different request; use a new key for a new request',
      );
    }
    if (row.statusCode !== null)
      return { status: row.statusCode, body: row.responseBody, replayed: true };
    if (Date.now() - row.createdAt.getTime() > staleMs) {
      await db.idempotencyKey.deleteMany({ where: { id: row.id, statusCode: null } });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new ProblemError(
        'idempotency_in_progress',
        'a request with this Idempotency-Key is still being processed; retry shortly',
        { headers: { 'Retry-After': '2' } },
      );
    }
    await sleep(pollMs);
  }
}

async function runAndStore(
  db: Db,
  where: Prisma.IdempotencyKeyWhereUniqueInput,
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  let result: StoredResponse;
  try {
    result = await run();
  } catch (err) {
    // domain errors (not found, conflict, invalid input) are 4xx problems too: classify them all
    const problem = toProblem(err);
    const body = problemBody(problem);
    if (body.status < 500) result = { status: body.status, body };
    else {
      await db.idempotencyKey.delete({ where }).catch(() => {});
      throw problem;
    }
  }
  if (result.status >= 500) await db.idempotencyKey.delete({ where }).catch(() => {});
  else
    await db.idempotencyKey.update({
      where,
      data: {
        statusCode: result.status,
        responseBody: toJson.responseBody(JSON.parse(JSON.stringify(result.body ?? null))),
      },
    });
  return result;
}
