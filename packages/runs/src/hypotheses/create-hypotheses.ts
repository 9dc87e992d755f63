import { InvalidInputError, type Prisma, type Tx } from '@poolbench/db';
import {
  bandUnitOf,
  HypothesesSchema,
  hypothesisStatement,
  type Hypothesis,
} from '@poolbench/scenarios';

interface Named {
  id: string;
  name: string;
}

/**
 * Rows for an experiment's hypotheses. Each cell must be one of the experiment's pool configs ×
 * scenarios (InvalidInputError naming e.g. `hypotheses.0.candidate.poolConfigId`); the statement
 * is written now, with today's names, so it still reads right after a config is renamed or deleted.
 */
export function hypothesisRows(
  experimentId: string,
  input: readonly Hypothesis[],
  configs: readonly Named[],
  scenarios: readonly Named[],
): Prisma.HypothesisCreateManyInput[] {
  const parsed = HypothesesSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInputError(['hypotheses', ...issue.path.map(String)].join('.'), issue.message);
  }
  return parsed.data.map((h, position) => {
    const cell = (side: 'base' | 'candidate') => {
      const pc = configs.find((c) => c.id === h[side].poolConfigId);
      if (!pc)
        throw new InvalidInputError(
          `hypotheses.${position}.${side}.poolConfigId`,
          'is not one of the experiment’s pool configs',
        );
      const sc = scenarios.find((s) => s.id === h[side].scenarioId);
      if (!sc)
        throw new InvalidInputError(
          `hypotheses.${position}.${side}.scenarioId`,
          'is not one of the experiment’s scenarios',
        );
      return { poolConfig: pc.name, scenario: sc.name };
    };
    const base = cell('base');
    const candidate = cell('candidate');
    return {
      experimentId,
      position,
      basePoolConfigId: h.base.poolConfigId,
      baseScenarioId: h.base.scenarioId,
      candidatePoolConfigId: h.candidate.poolConfigId,
      candidateScenarioId: h.candidate.scenarioId,
      metric: h.metric,
      expect: h.expect,
      band: h.band,
      bandUnit: bandUnitOf(h),
      windowFrom: h.window?.from ?? null,
      windowTo: h.window?.to ?? null,
      claim: h.claim || null,
      statement: hypothesisStatement(h, base, candidate),
    };
  });
}

/** The experiment's hypotheses as they were written (the input form, for a copy or an edit). */
export function hypothesesOf(
  rows: ReadonlyArray<
    Pick<
      Prisma.HypothesisCreateManyInput,
      | 'basePoolConfigId'
      | 'baseScenarioId'
      | 'candidatePoolConfigId'
      | 'candidateScenarioId'
      | 'metric'
      | 'expect'
      | 'band'
      | 'bandUnit'
      | 'windowFrom'
      | 'windowTo'
      | 'claim'
    >
  >,
): Hypothesis[] {
  return rows.map((r) => ({
    base: { poolConfigId: r.basePoolConfigId, scenarioId: r.baseScenarioId },
    candidate: { poolConfigId: r.candidatePoolConfigId, scenarioId: r.candidateScenarioId },
    metric: r.metric as Hypothesis['metric'],
    expect: r.expect as Hypothesis['expect'],
    band: r.band,
    bandUnit: r.bandUnit as Hypothesis['bandUnit'],
    window:
      r.windowFrom !== null &&
      r.windowFrom !== undefined &&
      r.windowTo !== null &&
      r.windowTo !== undefined
        ? { from: r.windowFrom, to: r.windowTo }
        : null,
    ...(r.claim ? { claim: r.claim } : {}),
  }));
}

/** Writes an experiment's hypotheses inside the transaction that creates (or edits) it. */
export async function createHypotheses(
  tx: Tx,
  experimentId: string,
  input: readonly Hypothesis[] | undefined,
  configs: readonly Named[],
  scenarios: readonly Named[],
): Promise<void> {
  if (!input || input.length === 0) return;
  await tx.hypothesis.createMany({ data: hypothesisRows(experimentId, input, configs, scenarios) });
}
