import { parseRun, type Db } from '@poolbench/db';
import { listPresets, storedVerdict, storedWindow } from '@poolbench/scenarios';
import { median } from '@poolbench/stats';
import {
  environmentInsightInput,
  STORED_INSIGHT_SELECT,
  storedRunInsights,
} from '../insights/insight-input';
import { decideUnstored } from './decide-unstored';
import type { SeedClaimResult } from './seed-claim';

export type { SeedClaimResult };
import { reproductionOf, SEEDS_PREFIX } from './launch-seeds';
import { cellPairPath } from '@poolbench/contracts/links';

export interface SeedExperimentResult {
  /** the reproduction that ran it */
  reproductionId: string;
  presetId: string;
  seed: string;
  title: string;
  experimentId: string;
  experimentName: string;
  status: string;
  createdAt: Date;
  finishedAt: Date | null;
  claims: SeedClaimResult[];
}

export interface SeedReproduction {
  reproductionId: string;
  experiments: SeedExperimentResult[];
}

const EXPERIMENT_SELECT = {
  id: true,
  name: true,
  status: true,
  presetId: true,
  createdAt: true,
  finishedAt: true,
  hypotheses: { orderBy: { position: 'asc' } },
} as const;

/**
 * The product's answers for one reproduction of the seeds (the latest of the team when no id is
 * given): each seed experiment with its hypotheses as the compare service decided them.
 * `fillFromEarlier`: presets this reproduction did not run are added from the latest earlier
 * reproduction that completed them with every claim decided (a subset run then still shows every
 * seed, each row naming its reproduction).
 */
export async function seedResults(
  db: Db,
  teamId: string,
  reproductionId?: string,
  opts: { fillFromEarlier?: boolean } = {},
): Promise<SeedReproduction | null> {
  let id = reproductionId ?? null;
  if (!id) {
    const latest = await db.experiment.findFirst({
      where: { teamId, name: { startsWith: SEEDS_PREFIX } },
      orderBy: { createdAt: 'desc' },
      select: { name: true },
    });
    id = latest ? reproductionOf(latest.name) : null;
  }
  if (!id) return null;
  const own = await db.experiment.findMany({
    where: { teamId, name: { startsWith: `${SEEDS_PREFIX}${id} · ` } },
    orderBy: { createdAt: 'asc' },
    select: EXPERIMENT_SELECT,
  });
  if (own.length === 0) return null;
  const presets = new Map(listPresets().map((p) => [p.id, p]));
  const experiments = [...own];
  if (opts.fillFromEarlier) {
    const ran = own.flatMap((e) => (e.presetId ? [e.presetId] : []));
    const earlier = await db.experiment.findMany({
      where: {
        teamId,
        name: { startsWith: SEEDS_PREFIX },
        status: 'completed',
        presetId: { not: null, notIn: ran },
        createdAt: { lt: own[0]!.createdAt },
      },
      orderBy: { createdAt: 'desc' },
      select: EXPERIMENT_SELECT,
    });
    const taken = new Set<string>();
    for (const e of earlier) {
      if (!e.presetId || taken.has(e.presetId) || !reproductionOf(e.name)) continue;
      if (e.hypotheses.length === 0 || e.hypotheses.some((h) => h.status === 'pending')) continue;
      taken.add(e.presetId);
      experiments.push(e);
    }
    const seedOf = (e: (typeof experiments)[number]) =>
      (e.presetId && presets.get(e.presetId)?.seed) || '?';
    experiments.sort(
      (a, b) => seedOf(a).localeCompare(seedOf(b)) || a.createdAt.getTime() - b.createdAt.getTime(),
    );
  }
  const evidence = await runEvidence(
    db,
    experiments.flatMap((e) => e.hypotheses.flatMap((h) => h.runsUsed)),
  );
  const evidenceOf = (runIds: string[]) => {
    const found = runIds.map((id) => evidence.get(id)).filter((x) => x !== undefined);
    const outside = found.map((x) => x.outside).filter((v): v is number => v !== null);
    const codes = new Map<string, number>();
    for (const x of found) for (const c of x.codes) codes.set(c, (codes.get(c) ?? 0) + 1);
    return {
      runsUsed: runIds.length,
      disturbancePercent: outside.length ? median(outside) : null,
      insights: [...codes].map(([code, runs]) => ({ code, runs })),
    };
  };
  return {
    reproductionId: id,
    experiments: await Promise.all(
      experiments.map(async (e) => {
        const preset = e.presetId ? presets.get(e.presetId) : undefined;
        const ended = ['completed', 'failed', 'canceled'].includes(e.status);
        const unstored =
          e.hypotheses.length === 0 && preset && preset.hypotheses.length > 0 && ended
            ? await decideUnstored(db, e.id, preset)
            : null;
        return {
          reproductionId: reproductionOf(e.name) ?? id,
          presetId: e.presetId ?? '',
          seed: preset?.seed ?? '?',
          title: preset?.title ?? e.name,
          experimentId: e.id,
          experimentName: e.name,
          status: e.status,
          createdAt: e.createdAt,
          finishedAt: e.finishedAt,
          claims:
            unstored ??
            e.hypotheses.map((h) => {
              return {
                claim: h.claim,
                statement: h.statement,
                ...storedVerdict(h),
                comparePath: cellPairPath(
                  e.id,
                  { poolConfigId: h.basePoolConfigId, scenarioId: h.baseScenarioId },
                  { poolConfigId: h.candidatePoolConfigId, scenarioId: h.candidateScenarioId },
                  storedWindow(h),
                ),
                decidedBy: 'stored' as const,
                ...evidenceOf(h.runsUsed),
              };
            }),
        };
      }),
    ),
  };
}

/** Per run: the CPU used outside it and the codes of its warning and critical insights. */
async function runEvidence(db: Db, runIds: string[]) {
  const rows = await db.run.findMany({
    where: { id: { in: [...new Set(runIds)] } },
    select: { id: true, ...STORED_INSIGHT_SELECT },
  });
  return new Map(
    rows.map(parseRun).map((r) => {
      const codes = storedRunInsights(r)
        .filter((i) => i.severity !== 'info')
        .map((i) => i.code);
      const outside = environmentInsightInput(r.environment).outsideCpuPercent;
      return [r.id, { outside, codes }] as const;
    }),
  );
}
