import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidInputError, NotFoundError, SecretKeyError } from '@poolbench/db';
import { parseScenario } from '@poolbench/scenarios';
import {
  AppError,
  cliExitFor,
  ERROR_CODES,
  problemType,
  type ErrorCode,
} from '@poolbench/contracts/errors';
import type { Context } from './api/context';
import { publicProcedure, router } from './api/trpc';
import { problemResponse } from './rest/problem';
import { toProblem } from './rest/to-problem';
import { ConflictError, PolicyError } from './services/errors';

// One procedure that throws whatever the test hands it, behind the real middlewares and formatter.
let toThrow: unknown = null;
const testRouter = router({
  boom: publicProcedure.input(z.object({ n: z.number().max(5) }).optional()).query(() => {
    throw toThrow;
  }),
});
const ctx = { user: null, sessionId: null, activeTeamId: null } as unknown as Context;

async function overTrpc(err: unknown, input?: unknown) {
  toThrow = err;
  const q =
    input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req: new Request(`http://localhost/api/trpc/boom${q}`),
    router: testRouter,
    createContext: () => ctx,
    onError: () => {},
  });
  const body = (await res.json()) as {
    error: {
      json: {
        message: string;
        data: {
          code: string;
          appCode: string | null;
          problems: { path: string; message: string }[] | null;
          stack?: string;
        };
      };
    };
  };
  return body.error.json;
}

async function overRest(err: unknown) {
  const res = problemResponse(toProblem(err));
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    body: (await res.json()) as {
      type: string;
      code: string;
      detail: string;
      problems?: { path: string; message: string }[];
    },
  };
}

describe('one error model: every code means the same over tRPC, REST and the CLI', () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    it(`${code}`, async () => {
      const spec = ERROR_CODES[code];
      const problems = [{ path: 'scenario.params.vus', message: 'must be at most 5000' }];
      const err = new AppError(code, `because of ${code}`, { problems });
      const trpc = await overTrpc(err);
      expect(trpc.data.code).toBe(spec.trpc);
      expect(trpc.data.appCode).toBe(code);
      expect(trpc.data.problems).toEqual(problems);
      expect(trpc.data.stack ?? null).toBeNull();
      const rest = await overRest(err);
      expect(rest.status).toBe(spec.http);
      expect(rest.contentType).toBe('application/problem+json');
      expect(rest.body).toMatchObject({
        code,
        type: problemType(code),
        detail: `because of ${code}`,
        problems,
      });
      // what the CLI exits with when the server answers this problem
      expect(cliExitFor(rest.body.code, rest.status)).toBe(spec.cli);
    });
  }

  it('domain errors carry their code and field paths as data (never parsed from the message)', async () => {
    const cases: [unknown, ErrorCode, { path: string; message: string }[] | null][] = [
      [new NotFoundError('run'), 'not_found', null],
      [
        new InvalidInputError('schedule.cron', 'has 61 in the minute field'),
        'validation_failed',
        [{ path: 'schedule.cron', message: 'has 61 in the minute field' }],
      ],
      [new ConflictError('name taken'), 'conflict', null],
      [new PolicyError('host not allowed'), 'policy_denied', null],
      [new SecretKeyError('POOLBENCH_SECRET_KEY is not set'), 'unavailable', null],
    ];
    for (const [err, code, problems] of cases) {
      const trpc = await overTrpc(err);
      expect(trpc.data).toMatchObject({ code: ERROR_CODES[code].trpc, appCode: code, problems });
      const rest = await overRest(err);
      expect(rest.body.code).toBe(code);
      expect(rest.body.problems ?? null).toEqual(problems);
    }
  });

  it('an invalid scenario names full request paths, the same over tRPC and REST', async () => {
    const err = (() => {
      try {
        parseScenario(
          {
            template: 'sustained',
            params: { vus: 0, durationMs: 1000 },
            requests: [{ path: '/x' }],
          },
          'scenario',
        );
      } catch (e) {
        return e;
      }
    })();
    const rest = await overRest(err);
    const trpc = await overTrpc(err);
    expect(rest.body.problems!.map((p) => p.path)).toContain('scenario.params.vus');
    expect(trpc.data.problems).toEqual(rest.body.problems);
  });

  it('input validation by the procedure itself answers validation problems with paths', async () => {
    const trpc = await overTrpc(null, { n: 9 });
    expect(trpc.data).toMatchObject({
      code: 'BAD_REQUEST',
      problems: [{ path: 'n', message: expect.stringContaining('5') }],
    });
  });

  it('anything else is internal over both, without its text', async () => {
    const secret = new Error('connection string postgres://user:pw@db');
    const rest = await overRest(secret);
    expect(rest.status).toBe(500);
    expect(rest.body.detail).not.toContain('postgres://');
  });
});
