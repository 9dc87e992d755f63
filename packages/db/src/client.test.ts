import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, IDLE_IN_TRANSACTION_MS } from './client';

describe('createDb sessions (real Postgres)', () => {
  const other = createDb({ max: 1 });
  afterAll(() => other.$disconnect());

  it('bounds how long a session may sit idle inside a transaction', async () => {
    const db = createDb({ max: 1 });
    try {
      const [row] = await db.$queryRaw<
        { t: string }[]
      >`SELECT current_setting('idle_in_transaction_session_timeout') AS t`;
      expect(row!.t).toBe(`${IDLE_IN_TRANSACTION_MS / 1000}s`);
    } finally {
      await db.$disconnect();
    }
  });

  it('a client that stops talking inside a transaction loses its session and its locks', async () => {
    const key = randomInt(1, 2 ** 31);
    const db = createDb({ max: 1, idleInTransactionMs: 500 });
    try {
      // the transaction takes a lock and then goes quiet, as a host that vanished would
      const abandoned = db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${key})) AS l`;
          await new Promise((r) => setTimeout(r, 3000));
          await tx.$queryRaw`SELECT 1`;
        },
        { timeout: 60_000 },
      );
      abandoned.catch(() => {});
      await new Promise((r) => setTimeout(r, 200));
      // another session gets the lock once Postgres has ended the quiet one (no client timeout)
      const got = await other.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${key})) AS l`;
          return true;
        },
        { timeout: 60_000, maxWait: 60_000 },
      );
      expect(got).toBe(true);
      await expect(abandoned).rejects.toThrow();
    } finally {
      await db.$disconnect();
    }
  });
});
