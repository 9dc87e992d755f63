import {
  parseExperiment,
  parseRun,
  positionsInRound,
  type Db,
  type HypothesisStatus,
} from '@poolbench/db';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { NotFoundError } from '../errors';
import { readHypotheses } from './hypotheses';

export async function listExperiments(
  db: Db,
  teamId: string,
  input: { cursor?: string | null; limit: number },
) {
  const rows = await db.experiment.findMany({
    where: { teamId, kind: 'run' },
    select: {
      id: true,
      name: true,
      repeats: true,
      status: true,
      createdAt: true,
      presetId: true,
      scheduleId: true,
      commit: true,
      branch: true,
      buildUrl: true,
      target: { select: { id: true, name: true } },
      _count: { select: { poolConfigs: true, scenarios: true } },
      runs: { select: { status: true } },
      hypotheses: { select: { status: true } },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map(({ runs, _count, hypotheses, ...e }) => ({
      ...e,
      hypotheses: countHypotheses(hypotheses.map((h) => h.status)),
      poolConfigCount: _count.poolConfigs,
      scenarioCount: _count.scenarios,
      runCount: runs.length,
      progress: countStatuses(runs.map((r) => r.status)),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** How an experiment's hypotheses came out, for its row in the list (the outcome column). */
export function countHypotheses(statuses: HypothesisStatus[]) {
  const count = (s: HypothesisStatus) => statuses.filter((x) => x === s).length;
  return {
    total: statuses.length,
    holds: count('holds'),
    doesNotHold: count('does_not_hold'),
    unresolved: count('unresolved'),
    pending: count('pending'),
  };
}

export function countStatuses(statuses: RunStatus[]) {
  const by: Partial<Record<RunStatus, number>> = {};
  for (const s of statuses) by[s] = (by[s] ?? 0) + 1;
  const done = statuses.filter((s) => TERMINAL_RUN_STATUSES.includes(s)).length;
  return { byStatus: by, done, total: statuses.length };
}

export async function getExperiment(db: Db, teamId: string, id: string) {
  // Hypotheses first: one decided here means the run that ended the experiment has finished
  // before the runs are read below, so the page never shows a decision beside a running run.
  const exists = await db.experiment.count({ where: { id, teamId } });
  if (!exists) throw new NotFoundError('experiment');
  const hypotheses = await readHypotheses(db, id);
  const e = await db.experiment.findFirst({
    where: { id, teamId },
    select: {
      id: true,
      name: true,
      description: true,
      repeats: true,
      order: true,
      status: true,
      createdAt: true,
      finishedAt: true,
      presetId: true,
      scheduleId: true,
      commit: true,
      branch: true,
      buildUrl: true,
      untilDecidedMaxRepeats: true,
      sequentialMetrics: true,
      sequentialState: true,
      advisor: true,
      advisorState: true,
      target: { select: { id: true, name: true, kind: true } },
      poolConfigs: {
        orderBy: { position: 'asc' },
        select: { poolConfig: { select: { id: true, name: true, strategy: true } } },
      },
      scenarios: {
        orderBy: { position: 'asc' },
        select: { scenario: { select: { id: true, name: true, templateId: true } } },
      },
      runs: {
        orderBy: { sequence: 'asc' },
        select: {
          id: true,
          poolConfigId: true,
          scenarioId: true,
          repeatIndex: true,
          sequence: true,
          status: true,
          queuedAt: true,
          startedAt: true,
          finishedAt: true,
          summary: true,
          errorMessage: true,
        },
      },
    },
  });
  if (!e) throw new NotFoundError('experiment');
  const {
    untilDecidedMaxRepeats,
    sequentialMetrics,
    sequentialState,
    advisor,
    advisorState,
    ...rest
  } = e;
  const parsed = parseExperiment({ advisor, advisorState });
  const positions = positionsInRound(e.runs);
  return {
    ...rest,
    // the pool-size advisor: what it was asked and its last answer (docs/advisor.md)
    advisor: parsed.advisor ? { spec: parsed.advisor, state: parsed.advisorState } : null,
    // "until decided": the budget, the metrics and the sequential rule's last answer
    sequential: untilDecidedMaxRepeats
      ? {
          maxRepeats: untilDecidedMaxRepeats,
          metrics: sequentialMetrics,
          state: parseExperiment({ sequentialState }).sequentialState,
        }
      : null,
    poolConfigs: e.poolConfigs.map((p) => p.poolConfig),
    scenarios: e.scenarios.map((s) => s.scenario),
    // each run's place in its round, for an analysis of order (docs/metrics.md, "Run order")
    runs: e.runs.map((r) => ({ ...parseRun(r), positionInRound: positions.get(r.id) ?? 0 })),
    progress: countStatuses(e.runs.map((r) => r.status)),
    hypotheses,
  };
}
