import { readFileSync } from 'node:fs';
import { parseRun, toJson } from '@poolbench/db';
import { allowedCpus, formatCpuList } from '@poolbench/k6';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWorld,
  pidsAlive,
  recordedChildren,
  stopChild,
  sustained,
  waitFor,
  type World,
} from './harness';
import { planCpuIsolation } from '../src/runs/cpu-isolation';

/** A pool config of the world's team and target with an environment (none when null). */
function poolConfigIn(
  w: World,
  c: {
    name: string;
    strategy: string;
    environment: Record<string, unknown> | null;
    instanceCount: number;
    maxConns: number;
  },
) {
  return w.db.poolConfig.create({
    data: {
      teamId: w.ids.teamId,
      targetId: w.ids.targetId,
      name: c.name,
      strategy: c.strategy,
      params: { maxConns: c.maxConns },
      instanceCount: c.instanceCount,
      ...(c.environment ? { environment: toJson.poolEnvironment(c.environment) } : {}),
    },
  });
}

// The environment travels with the pool config's snapshot through the queue to the worker, and
// shows in what the run measured.
describe('worker: managed target environment through the queue (real Postgres, Redis, k6, lab target, nginx)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('labenv');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  const config = (
    name: string,
    strategy: string,
    environment: Record<string, unknown> | null,
    instanceCount = 1,
  ) => poolConfigIn(w, { name, strategy, environment, instanceCount, maxConns: 4 });

  it('link RTT shows in latency, nginx serves several instances, the role limit yields failed requests', async () => {
    w.startWorker();
    const plain = await config('plain', 'lazy', null);
    const link = await config(
      'link 80 ms, nginx x2, GOMAXPROCS 1',
      'lazy',
      { dbLinkRttMs: 80, balancing: 'nginx', cpuLimit: 1 },
      2,
    );
    const limited = await w.db.poolConfig.create({
      data: {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        name: 'per-request, role limit 2',
        strategy: 'per-request',
        params: {},
        instanceCount: 1,
        environment: { roleConnectionLimit: 2 },
      },
    });
    const sc = await w.scenario('3 s at 8 VUs', sustained(8, 3000));
    const { runIds } = await w.launch([plain.id, link.id, limited.id], [sc.id], 1);
    const runs = [];
    for (const id of runIds)
      runs.push(
        parseRun(
          await w.waitForStatus(
            id,
            ['succeeded', 'failed', 'canceled', 'timed_out', 'aborted_system'],
            120_000,
          ),
        ),
      );
    const byName = new Map(runs.map((r) => [r.poolConfigSnapshot.name, r]));
    const sum = (name: string) => byName.get(name)!.summary!;
    for (const r of runs) expect(r.status, `${r.errorCode}: ${r.errorMessage}`).toBe('succeeded');
    expect(
      byName.get('link 80 ms, nginx x2, GOMAXPROCS 1')!.poolConfigSnapshot.environment,
    ).toEqual({ dbLinkRttMs: 80, balancing: 'nginx', cpuLimit: 1 });
    // the median, judged against the link's 80 ms: a busy machine slows it, never by a round trip
    expect(sum('plain').latency?.p50).toBeLessThan(60);
    expect(sum('link 80 ms, nginx x2, GOMAXPROCS 1').latency?.p50).toBeGreaterThanOrEqual(78);
    expect(sum('per-request, role limit 2').failed).toBeGreaterThan(0);
    // both instances behind nginx were started and sampled
    const inst = await w.db.resourceSample.findMany({
      where: { runId: byName.get('link 80 ms, nginx x2, GOMAXPROCS 1')!.id, instance: { gte: 0 } },
      distinct: ['instance'],
    });
    expect(inst.map((s) => s.instance).sort()).toEqual([0, 1]);
  });
});

describe('worker: environment helpers die with the worker (kill -9)', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('labenvkill');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('link proxy, nginx and the instances are killed with the worker, as the lab target is', async () => {
    const worker = w.startWorker();
    const pc = await w.db.poolConfig.create({
      data: {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        name: 'kill env',
        strategy: 'lazy',
        params: {},
        instanceCount: 2,
        environment: { dbLinkRttMs: 10, balancing: 'nginx' },
      },
    });
    const sc = await w.scenario('30 s', sustained(2, 30_000));
    const { runIds } = await w.launch([pc.id], [sc.id]);
    await w.waitForStatus(runIds[0]!, ['running']);
    const children = await waitFor('helpers recorded', async () => {
      const r = recordedChildren(w.runtimeDir).filter((x) => x.runId === runIds[0]);
      return ['k6', 'nginx', 'linkproxy'].every((k) => r.some((x) => x.kind === k)) ? r : null;
    });
    expect(children.filter((c) => c.kind === 'lab-target')).toHaveLength(2);
    await stopChild(worker, 'SIGKILL');
    // pdeathsig: the kernel kills them with the worker, no second worker needed
    await waitFor(
      'helpers gone',
      async () => pidsAlive(children.map((c) => c.pid)).length === 0,
      10_000,
    );
  });

  it('isolation: k6 on its CPUs, the instances, nginx and the link proxy on the others; off shares them', async () => {
    const expected = planCpuIsolation({ setting: 'auto' });
    w.startWorker();
    const config = (
      name: string,
      strategy: string,
      environment: Record<string, unknown>,
      instanceCount = 1,
    ) => poolConfigIn(w, { name, strategy, environment, instanceCount, maxConns: 2 });
    const isolated = await config(
      'isolated, nginx x2, link 10 ms',
      'lazy',
      { dbLinkRttMs: 10, balancing: 'nginx' },
      2,
    );
    const shared = await config('isolation off', 'lazy', { cpuIsolation: 'off' });
    const sc = await w.scenario('4 s at 2 VUs', sustained(2, 4000));
    const { runIds } = await w.launch([isolated.id, shared.id], [sc.id], 1);
    const affinity = (pid: number) =>
      /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    // every process each run started, read while its k6 sends the load (runs go one at a time)
    const seen = new Map<string, Map<string, string | undefined>>();
    await waitFor(
      'both runs observed under load and ended',
      async () => {
        for (const runId of runIds) {
          if (seen.has(runId)) continue;
          const c = recordedChildren(w.runtimeDir).filter((x) => x.runId === runId);
          if (c.some((x) => x.kind === 'k6'))
            seen.set(runId, new Map(c.map((x) => [x.kind, affinity(x.pid)])));
        }
        const ended = await w.db.run.count({
          where: { id: { in: runIds }, status: { in: ['succeeded', 'failed', 'aborted_system'] } },
        });
        return ended === runIds.length;
      },
      120_000,
    );
    const [isolatedRun, sharedRun] = await Promise.all(
      runIds.map(async (id) => parseRun(await w.db.run.findUniqueOrThrow({ where: { id } }))),
    );
    expect(isolatedRun!.status, isolatedRun!.errorMessage ?? '').toBe('succeeded');
    expect(isolatedRun!.environment?.cpuIsolation).toEqual(expected);
    const all = formatCpuList(allowedCpus());
    const onIsolated = seen.get(isolatedRun!.id)!;
    expect([...onIsolated.keys()]).toEqual(
      expect.arrayContaining(['k6', 'lab-target', 'linkproxy', 'nginx']),
    );
    if (expected.mode === 'pinned') {
      expect(onIsolated.get('k6')).toBe(expected.generatorCpus);
      for (const [kind, cpus] of onIsolated)
        if (kind !== 'k6') expect(cpus, kind).toBe(expected.targetCpus);
    }
    expect(sharedRun!.status).toBe('succeeded');
    expect(sharedRun!.environment?.cpuIsolation).toEqual({
      mode: 'off',
      reason: 'turned off by the target or pool config',
    });
    for (const [kind, cpus] of seen.get(sharedRun!.id)!) expect(cpus, kind).toBe(all);
  });
});
