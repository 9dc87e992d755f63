import { parseRun, parseRunSegment } from '@poolbench/db';
import type { ChildProcess } from 'node:child_process';
import { launchAndEnqueue } from '@poolbench/runs';
import { producerConnection, subscribeRunEvents } from '@poolbench/queue';
import { histogramStatsMs, mergeHistograms } from '@poolbench/stats';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, recordedChildren, settle, stopChild, waitFor, type World } from './harness';
import { canMakeNamespaces, makeHosts, type Hosts } from './netns';
import { readFileSync } from 'node:fs';
import { allowedCpus, formatCpuList } from '@poolbench/k6';
import { planCpuIsolation } from '../src/runs/cpu-isolation';

/** The CPUs a process may run on (its Cpus_allowed_list), or undefined once it is gone. */
const affinityOf = (pid: number) => {
  try {
    return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
};

/**
 * Distributed runs across three simulated hosts: three workers in three network namespaces,
 * joined only by a bridge the test makes, with one managed lab target started by the leader on
 * its advertised bridge address. Needs root (network namespaces), like `make test` has.
 */
describe.skipIf(!canMakeNamespaces())(
  'distributed runs: three workers in three network namespaces',
  () => {
    let w: World;
    let hosts: Hosts;
    let env: (i: number) => Record<string, string>;
    const workers = new Map<string, ChildProcess>();

    beforeAll(async () => {
      w = await createWorld('dist');
      hosts = await makeHosts(3);
      const dbName = (
        await w.db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`
      )[0]!.name;
      const dbUrl = new URL(
        process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
      );
      dbUrl.pathname = `/${dbName}`;
      const labUrl = new URL(dbUrl);
      labUrl.pathname = '/poolbench_lab';
      const urls = {
        DATABASE_URL: await hosts.urlFor(dbUrl.toString()),
        REDIS_URL: await hosts.urlFor(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799'),
        LAB_DATABASE_URL: await hosts.urlFor(process.env.LAB_DATABASE_URL ?? labUrl.toString()),
      };
      env = (i) => ({
        ...urls,
        WORKER_ID: `dist-gen-${i}`,
        WORKER_ADVERTISE_HOST: hosts.addressOf(i),
        RUN_HEARTBEAT_MS: '500',
        SEGMENT_STALE_AFTER_MS: '2000',
        SEGMENT_START_LEAD_MS: '2500',
        SEGMENT_JOIN_TIMEOUT_MS: '60000',
      });
    }, 60_000);
    // Whatever a test started is gone before the next one: its workers (SIGKILL, awaited), the
    // k6 and targets they left, and anything else still running in the namespaces.
    afterEach(async () => {
      workers.clear();
      await settle('distributed test', [
        ['workers', async () => w?.killWorkers()],
        ['namespace processes', async () => hosts?.killAll()],
      ]);
    }, 60_000);
    // Each teardown runs even if the other failed: the namespaces and the bridge never outlive
    // the file because the database or the queue would not let go.
    afterAll(async () => {
      await settle('distributed runs', [
        ['hosts', async () => hosts?.dispose(), 60_000],
        ['world', async () => w?.dispose(), 90_000],
      ]);
    }, 180_000);

    /** Three workers, one per namespace, once all three have registered (this generation's pids). */
    const startWorkers = async () => {
      for (let i = 0; i < 3; i++)
        workers.set(`dist-gen-${i}`, w.startWorker(env(i), { netns: hosts.names[i] }));
      const pids = [...workers.values()].map((c) => c.pid!);
      await waitFor(
        'three workers registered',
        async () =>
          (await w.db.worker.count({
            where: { id: { startsWith: 'dist-gen-' }, stoppedAt: null, pid: { in: pids } },
          })) === 3,
        90_000,
      );
    };
    const launch = async (scenarioId: string, poolConfigId: string) => {
      const { runIds } = await launchAndEnqueue(
        { db: w.db, queue: w.queue },
        {
          teamId: w.ids.teamId,
          targetId: w.ids.targetId,
          poolConfigIds: [poolConfigId],
          scenarioIds: [scenarioId],
          repeats: 1,
          name: 'distributed',
          loadGenerators: 3,
        },
      );
      return runIds[0]!;
    };
    /** Load of the kill tests: long enough that a generator that never stops runs far past STOP_MS. */
    const LOAD_MS = 60_000;
    /** How soon after a kill the survivors must have sent their last request: seconds of
     * heartbeats and staleness (SEGMENT_STALE_AFTER_MS 2 s) on a loaded machine. */
    const STOP_MS = 10_000;
    /**
     * The survivors sent no load later than STOP_MS after the kill (a row's ts is its second's
     * start), and the kill came early enough that their own end of the load could not pass this.
     */
    const expectStoppedSoonAfter = (
      rows: { segment: string; requests: number; ts: Date }[],
      segments: string[],
      killedAt: number,
    ) => {
      const loadStart = Math.min(...rows.map((r) => r.ts.getTime()));
      expect(
        loadStart + LOAD_MS - killedAt,
        'load left at the kill (the check below needs it to exceed STOP_MS)',
      ).toBeGreaterThan(STOP_MS + 5000);
      for (const seg of segments) {
        const last = Math.max(
          ...rows.filter((r) => r.segment === seg && r.requests > 0).map((r) => r.ts.getTime()),
        );
        expect(last - killedAt, seg).toBeLessThan(STOP_MS);
      }
    };
    const leftovers = () =>
      hosts.names.flatMap((ns) =>
        hosts
          .processesIn(ns)
          .filter((p) => p.comm === 'k6' || p.comm.startsWith('lab-target'))
          .map((p) => `${ns}: ${p.comm} ${p.pid}`),
      );

    it('splits one constant-arrival-rate run across three distinct workers and merges the seconds exactly', async () => {
      await startWorkers();
      const pc = await w.poolConfig('dist ok', 'lazy', { maxConns: 4 });
      // 10 s: a generator's seconds reach the database a few seconds late on a loaded machine (k6's
      // output period plus the writer's batch), and the live chart needs later seconds to close them
      const sc = await w.scenario('dist 150 rps', {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 150, durationMs: 10_000, preAllocatedVUs: 15, maxVUs: 45 },
        requests: [{ path: '/health' }],
        readyPath: '/ready',
      });
      const runId = await launch(sc.id, pc.id);
      // The CPUs each k6 and the target may use, read while they run: the processes the workers
      // record as the run's own (not the lab data set-up before it, which runs the target's
      // binary once), each under the namespace it runs in.
      const affinities = new Map<string, Set<string>>();
      const sampling = setInterval(() => {
        const ours = recordedChildren(w.runtimeDir).filter((c) => c.runId === runId);
        for (const ns of hosts.names)
          for (const p of hosts.processesIn(ns)) {
            const kind = ours.find((c) => c.pid === p.pid)?.kind;
            const cpus = kind ? affinityOf(p.pid) : undefined;
            if (kind && cpus)
              affinities.set(`${ns} ${kind}`, new Set(affinities.get(`${ns} ${kind}`)).add(cpus));
          }
      }, 200);
      // the live chart: merged seconds published while the run runs
      const sub = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799', {
        enableOfflineQueue: true,
      });
      const live = new Map<number, number>();
      const unsubscribe = await subscribeRunEvents(sub, runId, (e) => {
        if (e.type === 'second') live.set(e.point.second as number, e.point.requests as number);
      });
      const run = await w
        .waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 120_000)
        .finally(() => clearInterval(sampling));
      await unsubscribe();
      sub.disconnect();
      expect(
        run.status,
        `${run.errorCode}: ${run.errorMessage}\n${w.logs.slice(-40).join('\n')}`,
      ).toBe('succeeded');

      const segments = await w.db.runSegment.findMany({
        where: { runId },
        orderBy: { index: 'asc' },
      });
      expect(new Set(segments.map((s) => s.workerId)).size).toBe(3);

      // The target and three generators share this machine: with CPU isolation every k6 keeps to
      // the generator side of the leader's split, the target to the other side, as a single run.
      const isolation = planCpuIsolation({ setting: 'auto' });
      expect(parseRun(run).environment?.cpuIsolation).toEqual(isolation);
      const seen = Object.fromEntries([...affinities].map(([k, v]) => [k, [...v]]));
      const [k6, targetSide] =
        isolation.mode === 'pinned'
          ? [isolation.generatorCpus, isolation.targetCpus]
          : [formatCpuList(allowedCpus()), formatCpuList(allowedCpus())];
      const leader = hosts.names[Number(segments[0]!.workerId!.replace('dist-gen-', ''))]!;
      const kinds = Object.keys(seen);
      // each generator's k6 in its namespace; the target's processes (instances, blob store …)
      // only in the leader's
      expect(kinds.filter((k) => k.endsWith(' k6')).sort()).toEqual(
        hosts.names.map((ns) => `${ns} k6`).sort(),
      );
      expect(kinds).toContain(`${leader} lab-target`);
      expect(seen).toEqual(
        Object.fromEntries(
          kinds.map((k) => [
            k,
            [
              k.endsWith(' k6')
                ? k6
                : k.startsWith(`${leader} `)
                  ? targetSide
                  : 'not on the leader',
            ],
          ]),
        ),
      );

      // per second: the run's stored counts are the sums of the generators' k6 seconds
      const rows = await w.db.runSecond.findMany({ where: { runId }, orderBy: { second: 'asc' } });
      const all = rows.filter((r) => r.segment === 'all');
      const gens = rows.filter((r) => r.segment.startsWith('gen:'));
      expect(new Set(gens.map((r) => r.segment))).toEqual(new Set(['gen:0', 'gen:1', 'gen:2']));
      expect(new Set(all.map((r) => r.second))).toEqual(new Set(gens.map((r) => r.second)));
      for (const a of all) {
        const parts = gens.filter((g) => g.second === a.second);
        expect(a.requests, `second ${a.second}`).toBe(parts.reduce((n, g) => n + g.requests, 0));
        expect(a.iterations).toBe(parts.reduce((n, g) => n + g.iterations, 0));
      }
      // seconds merged live (every generator had closed them) already had their final counts
      expect(live.size).toBeGreaterThanOrEqual(2);
      for (const [second, requests] of live)
        expect(requests, `live second ${second}`).toBe(
          all.find((a) => a.second === second)?.requests,
        );
      const total = segments.reduce((n, s) => n + s.requests, 0);
      expect(all.reduce((n, r) => n + r.requests, 0)).toBe(total);

      // the run's percentiles are the HDR merge of the three outputs (decoded independently here)
      const summary = parseRun(run).summary!;
      expect(summary.requests).toBe(total);
      const independent = histogramStatsMs(
        mergeHistograms(
          gens
            .filter((g) => g.durationHist)
            .map((g) => Buffer.from(g.durationHist!).toString('base64')),
        ),
      )!;
      for (const k of ['p50', 'p90', 'p95', 'p99', 'max', 'count'] as const)
        expect(summary.latency?.[k], k).toBe(independent[k]);

      // each generator carried a third of the rate (within 2 %)
      for (const s of segments)
        expect(
          Math.abs(s.requests / total - 1 / 3) / (1 / 3),
          `segment ${s.index}: ${s.requests} of ${total}`,
        ).toBeLessThanOrEqual(0.02);
      // start skew measured and stored for every segment; their k6 CPU and memory too
      for (const s of segments) {
        expect(s.startSkewMs).not.toBeNull();
        expect(s.startSkewMs!).toBeLessThan(1000);
        expect(s.rssMaxBytes).not.toBeNull();
      }
      expect(Math.min(...segments.map((s) => s.startSkewMs!))).toBe(0);

      // each generator records what a single run records: its late samples and the CPU beside
      // it; the run sums the late samples and names its most disturbed generator
      const machines = segments.map(parseRunSegment);
      for (const m of machines) {
        expect(m.delivery, `segment ${m.index} delivery`).not.toBeNull();
        expect(m.disturbance, `segment ${m.index} disturbance`).not.toBeNull();
        expect(m.disturbance!.seconds).toBeGreaterThan(5);
        // the three workers share this machine: each counts the other two as the run's own
        expect(m.disturbance!.sharedWith, `segment ${m.index} shares with`).toBe(2);
        expect(m.disturbanceBeforeStart).not.toBeNull();
      }
      expect(summary.delivery).toEqual(
        expect.objectContaining({
          lateSamples: machines.reduce((n, m) => n + m.delivery!.lateSamples, 0),
          lateRequests: machines.reduce((n, m) => n + m.delivery!.lateRequests, 0),
        }),
      );
      const env = parseRun(run).environment!;
      const worst = Math.max(...machines.map((m) => m.disturbance!.outsideCpuPercent));
      expect(env.disturbance?.outsideCpuPercent).toBe(worst);
      expect(env.disturbance?.segment).toBe(
        machines.find((m) => m.disturbance!.outsideCpuPercent === worst)!.index,
      );
      expect(env.disturbanceBeforeStart).toBeDefined();
      await waitFor(
        'no k6 or target left in any namespace',
        async () => leftovers().length === 0,
        10_000,
      ).catch(() => expect(leftovers()).toEqual([]));
    }, 180_000);

    it("kill -9 of one generator's worker: the others stop within 10 s, the run ends aborted_system naming it, every segment's data kept", async () => {
      await startWorkers();
      const pc = await w.poolConfig('dist kill', 'lazy', { maxConns: 4 });
      const sc = await w.scenario('dist 60 s', {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 60, durationMs: LOAD_MS, preAllocatedVUs: 6, maxVUs: 30 },
        requests: [{ path: '/health' }],
        readyPath: '/ready',
      });
      const runId = await launch(sc.id, pc.id);
      await waitFor(
        'every generator stored 2 seconds',
        async () => {
          const counts = await w.db.runSecond.groupBy({
            by: ['segment'],
            where: { runId, segment: { startsWith: 'gen:' } },
            _count: true,
          });
          return counts.length === 3 && counts.every((c) => c._count >= 2);
        },
        90_000,
      );
      const victim = (await w.db.runSegment.findFirstOrThrow({ where: { runId, index: 2 } }))
        .workerId!;
      const child = workers.get(victim)!;
      await stopChild(child, 'SIGKILL');
      const killedAt = Date.now();

      const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 60_000);
      expect(run.errorMessage).toContain('segment 2');
      expect(run.errorMessage).toContain(victim);

      const rows = await w.db.runSecond.findMany({
        where: { runId, segment: { startsWith: 'gen:' } },
      });
      for (const seg of ['gen:0', 'gen:1', 'gen:2'])
        expect(rows.filter((r) => r.segment === seg).length, seg).toBeGreaterThanOrEqual(2);
      expectStoppedSoonAfter(rows, ['gen:0', 'gen:1'], killedAt);
      expect(parseRun(run).summary!.requests).toBe(rows.reduce((n, r) => n + r.requests, 0));
      await waitFor(
        'no k6 or target left in any namespace',
        async () => leftovers().length === 0,
        10_000,
      ).catch(() => expect(leftovers()).toEqual([]));
    }, 180_000);
    it('kill -9 of the leader (segment 0, which started the target): the generators stop, the sweeper ends the run aborted_system naming it, merged from every segment', async () => {
      await startWorkers();
      const pc = await w.poolConfig('dist kill leader', 'lazy', { maxConns: 4 });
      const sc = await w.scenario('dist 60 s leader', {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 60, durationMs: LOAD_MS, preAllocatedVUs: 6, maxVUs: 30 },
        requests: [{ path: '/health' }],
        readyPath: '/ready',
      });
      const runId = await launch(sc.id, pc.id);
      await waitFor(
        'every generator stored 2 seconds',
        async () => {
          const counts = await w.db.runSecond.groupBy({
            by: ['segment'],
            where: { runId, segment: { startsWith: 'gen:' } },
            _count: true,
          });
          return counts.length === 3 && counts.every((c) => c._count >= 2);
        },
        90_000,
      );
      const leader = (await w.db.runSegment.findFirstOrThrow({ where: { runId, index: 0 } }))
        .workerId!;
      const child = workers.get(leader)!;
      await stopChild(child, 'SIGKILL');
      const killedAt = Date.now();

      const run = await w.waitForStatus(runId, [...TERMINAL_RUN_STATUSES], 60_000);
      expect(run).toMatchObject({ status: 'aborted_system', errorCode: 'worker_lost' });
      expect(run.errorMessage).toContain(
        `worker ${leader} (segment 0, the leader of this distributed run)`,
      );
      const rows = await w.db.runSecond.findMany({ where: { runId } });
      const gens = rows.filter((r) => r.segment.startsWith('gen:'));
      expectStoppedSoonAfter(gens, ['gen:1', 'gen:2'], killedAt);
      // the sweeper merged what every generator stored
      expect(parseRun(run).summary!.requests).toBe(gens.reduce((n, r) => n + r.requests, 0));
      expect(rows.filter((r) => r.segment === 'all').reduce((n, r) => n + r.requests, 0)).toBe(
        gens.reduce((n, r) => n + r.requests, 0),
      );
      await waitFor(
        'no k6 or target left in any namespace',
        async () => leftovers().length === 0,
        10_000,
      ).catch(() => expect(leftovers()).toEqual([]));
    }, 180_000);
  },
);
