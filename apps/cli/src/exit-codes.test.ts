import { describe, expect, it } from 'vitest';
import { ERROR_CODES, problemType, type ErrorCode } from '@poolbench/contracts/errors';
import { ApiError, createClient } from './client';
import { EXIT, UsageError, exitForError } from './exit-codes';

/** The server's answer for a code, in the shape apps/web's problemResponse builds from the same table. */
const answer = (code: ErrorCode) => async () =>
  new Response(
    JSON.stringify({
      type: problemType(code),
      title: ERROR_CODES[code].title,
      status: ERROR_CODES[code].http,
      detail: `because of ${code}`,
      code,
    }),
    {
      status: ERROR_CODES[code].http,
      headers: { 'Content-Type': 'application/problem+json' },
    },
  );

describe('CLI exit codes follow the shared table of error codes', () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    it(`${code} → exit ${ERROR_CODES[code].cli}`, async () => {
      const client = createClient({
        baseUrl: 'http://127.0.0.1:9',
        token: 'pb_x',
        attempts: 1,
        fetch: answer(code),
      });
      const err = await client.get('/experiments/x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).problem.code).toBe(code);
      expect(exitForError(err)).toBe(EXIT[ERROR_CODES[code].cli]);
    });
  }

  it('codes the server does not send (network, a newer server) fall back on the HTTP status', () => {
    expect(exitForError(new ApiError({ status: 0, code: 'network', detail: 'down' }))).toBe(
      EXIT.infra,
    );
    expect(exitForError(new ApiError({ status: 422, code: 'some_future_code', detail: 'x' }))).toBe(
      EXIT.usage,
    );
    expect(exitForError(new UsageError('bad flag'))).toBe(EXIT.usage);
    expect(exitForError(new Error('boom'))).toBe(EXIT.infra);
  });
});
