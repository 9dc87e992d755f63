import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchAndEnqueue } from '@poolbench/runs';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, settle, waitFor, type World } from './harness';
import { canMakeNamespaces } from './netns';

/**
 * A URL target is checked against the team's allowlist by EVERY generator of a distributed run,
 * on the addresses that generator resolves: the second worker (own /etc/hosts, a mount namespace:
 * root) sees the target's name on an address the team never allowed, so the run fails before any
 * load and names that generator. Loopback only.
 */
describe.skipIf(!canMakeNamespaces())(
  'distributed runs: a URL target is checked by every generator',
  () => {
    let w: World;
    let server: Server;
    const hits: string[] = [];
    beforeAll(async () => {
      w = await createWorld('disturl');
      server = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.end('ok');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      await w.db.allowedHost.create({
        data: { teamId: w.ids.teamId, pattern: '127.0.0.1', createdById: w.ids.userId },
      });
    });
    /** A URL target at `baseUrl`, a pool config of it and a 3 s scenario loading `path`. */
    const urlTarget = async (
      name: string,
      baseUrl: string,
      requestDefaults: { headers?: Record<string, string> },
      path: string,
    ) => {
      const target = await w.db.target.create({
        data: {
          teamId: w.ids.teamId,
          name,
          kind: 'url',
          baseUrls: [baseUrl],
          requestDefaults,
          readinessPath: '/ready',
          secretHeaderNames: [],
        },
      });
      const pc = await w.db.poolConfig.create({
        data: {
          teamId: w.ids.teamId,
          targetId: target.id,
          name: 'pc',
          strategy: 'lazy',
          params: { maxConns: 2 },
        },
      });
      const sc = await w.scenario(`${name} 3 s`, {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 20, durationMs: 3000, preAllocatedVUs: 2 },
        requests: [{ path }],
        readyPath: '/ready',
      });
      return { target, pc, sc };
    };
    afterEach(async () => w?.killWorkers());
    afterAll(async () => {
      await settle('distributed url target', [
        [
          'http stub',
          async () => {
            server?.closeAllConnections();
            server?.close();
          },
        ],
        ['world', async () => w?.dispose(), 90_000],
      ]);
    }, 120_000);

    it('the generator that resolves the name to an address outside the allowlist fails its segment; the run sends no load and names it', async () => {
      const port = (server.address() as { port: number }).port;
      const base = readFileSync('/etc/hosts', 'utf8');
      const good = join(w.runtimeDir, 'hosts-good');
      const bad = join(w.runtimeDir, 'hosts-bad');
      writeFileSync(good, `${base}\n127.0.0.1 api.disturl.test\n`);
      writeFileSync(bad, `${base}\n127.0.0.2 api.disturl.test\n`);
      const { target, pc, sc } = await urlTarget(
        'url',
        `http://api.disturl.test:${port}`,
        {},
        '/load',
      );
      // The leader sees the allowed address; the second generator joins only once the leader holds the run.
      w.startWorker({ WORKER_ID: 'disturl-leader' }, { hostsFile: good });
      const { runIds } = await launchAndEnqueue(
        { db: w.db, queue: w.queue },
        {
          teamId: w.ids.teamId,
          targetId: target.id,
          poolConfigIds: [pc.id],
          scenarioIds: [sc.id],
          repeats: 1,
          name: 'url',
          loadGenerators: 2,
        },
      );
      const runId = runIds[0]!;
      await waitFor(
        'the leader holds the run',
        async () =>
          (await w.db.run.findUniqueOrThrow({ where: { id: runId } })).workerId ===
          'disturl-leader',
        60_000,
      );
      w.startWorker({ WORKER_ID: 'disturl-other' }, { hostsFile: bad });

      const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 90_000);
      expect(run.status).toBe('aborted_system');
      expect(run.errorCode).toBe('segment_failed');
      expect(run.errorMessage).toMatch(
        /^segment 1 \(worker disturl-other\) failed before load started: load to api\.disturl\.test \(127\.0\.0\.2\) is not allowed for this team/,
      );
      expect(run.errorMessage).toContain('no load was sent');
      expect(run.startedAt).toBeNull();
      expect(hits.filter((u) => u.startsWith('/load'))).toEqual([]);
      expect(await w.db.runSecond.count({ where: { runId } })).toBe(0);
      const segs = await w.db.runSegment.findMany({ where: { runId }, orderBy: { index: 'asc' } });
      expect(segs.map((s) => [s.index, s.workerId, s.status, s.errorCode])).toEqual([
        [0, 'disturl-leader', 'canceled', 'canceled'],
        [1, 'disturl-other', 'failed', 'target_not_allowed'],
      ]);
    }, 120_000);

    // the same read for a single run and every generator of a distributed one
    it.each([
      ['two generators', 2],
      ['one generator', 1],
    ])(
      'a stored header that is not a string fails the run before its target starts (%s)',
      async (_on, loadGenerators) => {
        const port = (server.address() as { port: number }).port;
        const { target, pc, sc } = await urlTarget(
          `bad header ${loadGenerators}`,
          `http://127.0.0.1:${port}`,
          { headers: { 'X-Tenant': 'a' } },
          `/load-bad-header-${loadGenerators}`,
        );
        const { runIds } = await launchAndEnqueue(
          { db: w.db, queue: w.queue },
          {
            teamId: w.ids.teamId,
            targetId: target.id,
            poolConfigIds: [pc.id],
            scenarioIds: [sc.id],
            repeats: 1,
            name: `bad header ${loadGenerators}`,
            loadGenerators,
          },
        );
        // The row changes after the launch into what its column's schema refuses: read through that
        // schema, the headers would silently be none; the worker reads the row when the run starts.
        await w.db.target.update({
          where: { id: target.id },
          data: { requestDefaults: { headers: { 'X-Tenant': 42 } } },
        });
        w.startWorker({ WORKER_ID: `disturl-bad-header-${loadGenerators}` });
        const run = await w.waitForStatus(runIds[0]!, [...TERMINAL_RUN_STATUSES], 60_000);
        expect(run.status).toBe('failed');
        expect(run.errorCode).toBe('invalid_snapshot');
        expect(run.errorMessage).toMatch(/^target headers are invalid: headers\.X-Tenant: /);
        expect(run.startedAt).toBeNull();
        expect(hits.filter((u) => u.startsWith(`/load-bad-header-${loadGenerators}`))).toEqual([]);
      },
      90_000,
    );
  },
);
