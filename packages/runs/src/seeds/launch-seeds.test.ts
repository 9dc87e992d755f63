import { createDb, parseExperiment, parsePoolConfig, parseRun, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchSeeds, reproductionOf, seedPresets } from './launch-seeds';
import { adviseSeed } from './advise-seed';
import { seedResults } from './seed-results';
import {
  replaceSeedsResults,
  seedsMarkdown,
  SEEDS_RESULTS_END,
  SEEDS_RESULTS_START,
} from './seeds-markdown';

describe('launchSeeds: the seeds through the product launch path (real Postgres, Redis)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  const redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
  const queue = createRunQueue(redis, `pbt-seeds-${Date.now()}`);
  beforeAll(async () => {
    const t = await withTempDatabase('runs_seeds');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 3 });
    ids = await seed(db);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    redis.disconnect();
    await db?.$disconnect();
    await dispose?.();
  });

  it('launches one experiment per seed preset: claimed cells x 5 counterbalanced repeats, claims stored as hypotheses, jobs enqueued', async () => {
    const { reproductionId, launched } = await launchSeeds(
      { db, queue },
      ids.teamId,
      ids.targetId,
      { seeds: ['004', '001'] },
      new Date('2026-11-24T00:10:00Z'),
    );
    expect(reproductionId).toBe('20261124-001000');
    // seed 001 has two presets: the Go emulation (link RTT) and the real stacks on MariaDB (docs/runtimes.md)
    expect(launched.map((l) => l.plan.preset.id)).toEqual([
      'seed-001-large-result-sets',
      'seed-001-runtimes-mariadb',
      'seed-004-per-request-vs-shared-pool',
    ]);
    const s004 = launched.find((l) => l.plan.preset.seed === '004')!;
    const exp = await db.experiment.findUniqueOrThrow({
      where: { id: s004.launch.experimentId },
      include: {
        hypotheses: { orderBy: { position: 'asc' } },
        runs: { orderBy: { sequence: 'asc' } },
      },
    });
    expect(reproductionOf(exp.name)).toBe(reproductionId);
    expect(exp.repeats).toBe(5);
    // only the c=100 scenario carries claims; three configs, counterbalanced A B C, B C A
    expect(exp.runs).toHaveLength(15);
    expect(
      exp.runs.slice(0, 6).map((r) => parseRun(r).poolConfigSnapshot.name?.split(' · ')[1]),
    ).toEqual([
      'open/close per request',
      'new pool per request',
      'shared pool (max 20, min 5)',
      'new pool per request',
      'shared pool (max 20, min 5)',
      'open/close per request',
    ]);
    expect(exp.order).toBe('counterbalanced');
    expect(exp.runs[0]!.poolConfigSnapshot).toMatchObject({
      environment: { roleConnectionLimit: 40 },
    });
    expect(exp.hypotheses.map((h) => [h.metric, h.expect, h.band, h.status])).toEqual([
      ['rps', 'better', 5, 'pending'],
      ['rps', 'better', 5, 'pending'],
      ['errorRate', 'better', 1, 'pending'],
    ]);
    expect(exp.hypotheses[0]!.claim).toContain('467 vs 116 req/s');
    const jobs = await Promise.all(s004.launch.runIds.map((id) => queue.getJob(id)));
    expect(jobs.every(Boolean)).toBe(true);

    // a second reproduction reuses the rows it made (same preset content), with new experiments
    const again = await launchSeeds(
      { db, queue },
      ids.teamId,
      ids.targetId,
      { seeds: ['004'] },
      new Date('2026-11-24T00:20:00Z'),
    );
    const cfg = await db.poolConfig.count({
      where: { targetId: ids.targetId, name: { contains: ' · seeds ×' } },
    });
    expect(cfg).toBe(3 + 4 + 3); // seed 004, seed 001's emulation, seed 001 on Go/Bun/PHP-FPM
    expect(again.launched[0]!.launch.experimentId).not.toBe(s004.launch.experimentId);

    // the latest reproduction, with compare links of the two cells of each claim
    const latest = await seedResults(db, ids.teamId);
    expect(latest?.reproductionId).toBe('20261124-002000');
    const r = (await seedResults(db, ids.teamId, reproductionId))!;
    expect(r.experiments.map((e) => e.seed)).toEqual(['001', '001', '004']);
    const h = exp.hypotheses[0]!;
    expect(r.experiments[2]!.claims[0]!.comparePath).toBe(
      `/compare?items=c.${exp.id}.${h.basePoolConfigId}.${h.baseScenarioId},c.${exp.id}.${h.candidatePoolConfigId}.${h.candidateScenarioId}&baseline=0`,
    );

    // a subset's results show the other presets from the latest earlier reproduction that decided
    // every claim of theirs: the Go emulation of 001 once decided, never the undecided runtimes one
    const only004 = await seedResults(db, ids.teamId, again.reproductionId, {
      fillFromEarlier: true,
    });
    expect(only004!.experiments.map((e) => e.seed)).toEqual(['004']);
    const emulation = launched.find((l) => l.plan.preset.id === 'seed-001-large-result-sets')!;
    await db.experiment.update({
      where: { id: emulation.launch.experimentId },
      data: { status: 'completed' },
    });
    await db.hypothesis.updateMany({
      where: { experimentId: emulation.launch.experimentId },
      data: { status: 'does_not_hold' },
    });
    const filled = await seedResults(db, ids.teamId, again.reproductionId, {
      fillFromEarlier: true,
    });
    expect(filled!.experiments.map((e) => [e.seed, e.reproductionId])).toEqual([
      ['001', reproductionId],
      ['004', again.reproductionId],
    ]);
    const md = seedsMarkdown(filled!, {
      command: 'make seeds SEEDS=004',
      machine: 'm',
      elapsedS: 60,
      load: '0 / 0',
    });
    expect(md).toContain(`## Latest results per seed: ${again.reproductionId} and earlier`);
    expect(md).toContain(`seed 001 from ${reproductionId}`);
    expect(md).toContain(`\`${emulation.launch.experimentId}\` (completed, ${reproductionId})`);
    // without the option, a reproduction is only itself
    const plain = await seedResults(db, ids.teamId, again.reproductionId);
    expect(plain!.experiments.map((e) => e.seed)).toEqual(['004']);
  });

  it('refuses an unknown seed, naming it', () => {
    expect(() => seedPresets({ seeds: ['004', '007'] })).toThrow(
      'seeds: unknown seed 007 (known: 000, 001, 002, 003, 004)',
    );
    expect(seedPresets({ seeds: ['002'], scale: 1 })[0]!.scale).toBe(1);
  });
  it("answers seed 002's question with the advisor: the preset's rows, its rate, its SLO", async () => {
    const launched = await adviseSeed(
      { db, queue },
      { teamId: ids.teamId, targetId: ids.targetId, questionId: 'seed-002-three-instances' },
    );
    expect(launched.enqueued).toBe(true);
    const e = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        select: { advisor: true, advisorState: true, name: true },
      }),
    );
    expect(e.name).toMatch(/^Seed 002 advisor: Three instances/);
    expect(e.advisor?.basePoolConfigName).toBe('002 · 10 conns x 3 instances · seeds ×0.25');
    // the seed's 1000 req/s at the reproduction's scale, and the seed's three instances behind nginx
    expect(e.advisor?.objective).toEqual({ kind: 'slo', p99Ms: 50, errorRate: 0.001, rate: 250 });
    expect(e.advisor?.base.instanceCount).toBe(3);
    expect(e.advisor?.base.environment).toMatchObject({ balancing: 'nginx', cpuLimit: 1 });
    const first = await db.run.findMany({ where: { experimentId: launched.experimentId } });
    expect(first.length).toBeGreaterThan(0);
    for (const r of first) {
      const snap = parseRun(r).poolConfigSnapshot;
      expect(snap.instanceCount).toBe(3);
      const cfg = parsePoolConfig(
        await db.poolConfig.findUniqueOrThrow({ where: { id: r.poolConfigId! } }),
      );
      expect(cfg.archivedAt).not.toBeNull();
      expect([1, 16]).toContain(cfg.params.maxConns);
    }
    await expect(
      adviseSeed(
        { db, queue },
        { teamId: ids.teamId, targetId: ids.targetId, questionId: 'seed-999' },
      ),
    ).rejects.toMatchObject({ path: 'question' });
  });
});

describe('seedsMarkdown', () => {
  it('writes verdicts, changes and links, and replaces only its block of docs/seeds.md', () => {
    const md = seedsMarkdown(
      {
        reproductionId: '20261124-001000',
        experiments: [
          {
            reproductionId: '20261124-001000',
            presetId: 'p',
            seed: '004',
            title: 't',
            experimentId: 'exp1',
            experimentName: 'n',
            status: 'completed',
            createdAt: new Date(),
            finishedAt: new Date(),
            claims: [
              {
                claim: 'Shared | faster (seed: 467 vs 116 req/s).',
                statement: 's1',
                status: 'holds',
                change: 3206.4,
                low: 2900,
                high: 3500,
                changeUnit: 'percent',
                p: 0.0079,
                reason: 'beyond the band',
                comparePath: '/compare?items=a',
                decidedBy: 'stored',
                runsUsed: 10,
                disturbancePercent: 12.4,
                insights: [{ code: 'machine-busy', runs: 3 }],
              },
              {
                claim: null,
                statement: 's2',
                status: 'unresolved',
                change: -1.83,
                low: -3.1,
                high: 0.2,
                changeUnit: 'units',
                p: 0.2,
                reason: 'p ≥ 0.05',
                comparePath: '/compare?items=b',
                decidedBy: 'stored',
                runsUsed: 30,
                disturbancePercent: null,
                insights: [],
              },
            ],
          },
        ],
      },
      { command: 'make seeds SEEDS=004', machine: '2 × cpu', elapsedS: 300, load: '1.00 / 2.00' },
    );
    expect(md).toContain(
      '| 004 | `exp1` (completed) | Shared \\| faster (seed: 467 vs 116 req/s). | **holds** | +3,206 % (+2,900 … +3,500 %) | 0.008 | 10 | 12 % | machine-busy ×3 | beyond the band | [compare](/compare?items=a) |',
    );
    expect(md).toContain('| **unresolved** | −1.83 (−3.10 … +0.20) | 0.200 | 30 | — | — |');
    expect(md).toContain('Totals: 1 hold, 0 do not hold, 1 unresolved.');
    const doc = `# Seeds\n\nintro\n\n${SEEDS_RESULTS_START}\nold\n${SEEDS_RESULTS_END}\n\ntail\n`;
    const out = replaceSeedsResults(doc, md);
    expect(out.startsWith('# Seeds\n\nintro\n\n')).toBe(true);
    expect(out.endsWith('\n\ntail\n')).toBe(true);
    expect(out).not.toContain('\nold\n');
  });
});
