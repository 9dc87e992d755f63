import { eachOverdue, type OverdueOptions } from '../overdue';
import {
  InvalidInputError,
  parseNoiseFloor,
  parseRun,
  roundOrder,
  toJson,
  type Db,
  type NoiseFloorMetrics,
} from '@poolbench/db';
import {
  isMeasuredRunStatus,
  TERMINAL_RUN_STATUSES,
  type RunOrderName,
} from '@poolbench/contracts';
import {
  defaultBandUnit,
  measureNoiseFloor,
  type HypothesisRule,
  type NoiseFloors,
  type RunSummary,
} from '@poolbench/stats';
import { launchExperiment, type LaunchExperimentInput } from '../launch-experiment';
import type { LaunchedExperiment } from '../launch-types';

/** Runs per side of an A/A calibration: 5 is the least that can give p < 0.05 at all. */
export const CALIBRATION_RUNS_PER_SIDE = { min: 5, max: 25, default: 8 } as const;

export interface LaunchCalibrationInput extends Pick<
  LaunchExperimentInput,
  'teamId' | 'targetId' | 'createdById' | 'requireOnlineGenerators' | 'loadGenerators'
> {
  poolConfigId: string;
  scenarioId: string;
  runsPerSide?: number;
  name?: string;
}

/**
 * An A/A calibration: one pool config on one scenario, 2 × runsPerSide runs in a row, taken as two
 * sides in counterbalanced pairs (A B, B A, A B, …: `calibrationSides`) exactly as the two configs
 * of a comparison run by default, so an order effect weighs on the floor as it weighs on a
 * comparison. When it ends, its noise floor is stored (recordNoiseFloor) for the target × scenario.
 */
export async function launchCalibration(
  db: Db,
  input: LaunchCalibrationInput,
): Promise<LaunchedExperiment> {
  const n = input.runsPerSide ?? CALIBRATION_RUNS_PER_SIDE.default;
  const { min, max } = CALIBRATION_RUNS_PER_SIDE;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new InvalidInputError(
      'runsPerSide',
      `must be a whole number from ${min} (the least that can show a change at p < 0.05) to ${max}`,
    );
  const names = await Promise.all([
    db.poolConfig.findFirst({
      where: { id: input.poolConfigId, teamId: input.teamId },
      select: { name: true },
    }),
    db.scenario.findFirst({
      where: { id: input.scenarioId, teamId: input.teamId },
      select: { name: true },
    }),
  ]);
  return launchExperiment(db, {
    teamId: input.teamId,
    targetId: input.targetId,
    poolConfigIds: [input.poolConfigId],
    scenarioIds: [input.scenarioId],
    repeats: 2 * n,
    // one config: the order of its runs is the same in every order; stored, it names the sides
    order: 'counterbalanced',
    name:
      input.name ??
      `A/A calibration · ${names[0]?.name ?? 'pool config'} · ${names[1]?.name ?? 'scenario'}`,
    description: `The same config run ${2 * n} times, in pairs of sides A and B taking turns to go first (A B, B A, …), to measure how different identical configs look on this machine.`,
    createdById: input.createdById ?? null,
    requireOnlineGenerators: input.requireOnlineGenerators,
    loadGenerators: input.loadGenerators,
    noiseCalibration: true,
  });
}

/**
 * The two sides of a calibration's runs (measured runs only). Repeats 2i and 2i + 1 are pair i; in
 * a counterbalanced calibration the pairs take turns which side goes first, as two configs' runs
 * do (repeats 0, 3, 4, 7, 8, … are A), in an interleaved one A always goes first (even repeats A).
 */
export function calibrationSides(
  runs: Array<{ repeatIndex: number; status: string; summary: RunSummary | null }>,
  order: RunOrderName,
): { a: (RunSummary | null)[]; b: (RunSummary | null)[] } {
  const sideOf = (repeat: number) =>
    order === 'counterbalanced' ? roundOrder(2, Math.floor(repeat / 2))[repeat % 2]! : repeat % 2;
  const side = (s: number) =>
    runs
      .filter((r) => sideOf(r.repeatIndex) === s && isMeasuredRunStatus(r.status))
      .map((r) => r.summary);
  return { a: side(0), b: side(1) };
}

/**
 * Stores the noise floor of a calibration whose runs have all ended (idempotent: a second call
 * finds it stored). Nothing is stored for an experiment that is not a calibration or still has
 * runs to go; a calibration with no metric that has an interval (too few measured runs) stores an
 * empty floor, which comparisons skip. The answer says which.
 */
export async function recordNoiseFloor(
  db: Db,
  experimentId: string,
): Promise<'recorded' | 'exists' | 'not-calibration' | 'not-finished' | 'too-few-runs'> {
  const e = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      id: true,
      teamId: true,
      targetId: true,
      noiseCalibration: true,
      order: true,
      noiseFloor: { select: { id: true } },
      poolConfigs: { select: { poolConfigId: true } },
      scenarios: { select: { scenarioId: true } },
      runs: { select: { id: true, repeatIndex: true, status: true, summary: true } },
    },
  });
  if (!e?.noiseCalibration) return 'not-calibration';
  if (e.noiseFloor) return 'exists';
  if (e.runs.some((r) => !TERMINAL_RUN_STATUSES.includes(r.status))) return 'not-finished';
  const { a, b } = calibrationSides(e.runs.map(parseRun), e.order);
  const metrics = measureNoiseFloor({ label: 'A', summaries: a }, { label: 'B', summaries: b });
  // stored even when empty (too few measured runs, e.g. canceled): the calibration is then done
  // with, so the sweeper does not look at it again; comparisons skip an empty floor
  await db.noiseFloor
    .create({
      data: {
        experimentId: e.id,
        teamId: e.teamId,
        targetId: e.targetId,
        poolConfigId: e.poolConfigs[0]!.poolConfigId,
        scenarioId: e.scenarios[0]!.scenarioId,
        runsPerSide: Math.min(a.length, b.length),
        metrics: toJson.noiseFloorMetrics(metrics),
      },
    })
    // a concurrent call stored it first: the same floor from the same runs
    .catch((err: { code?: string }) => {
      if (err.code !== 'P2002') throw err;
    });
  return metrics.length ? 'recorded' : 'too-few-runs';
}

/** Calibrations that ended without their floor stored (a crash between the last run and it). */
export async function recordOverdueNoiseFloors(
  db: Db,
  opts: OverdueOptions = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT e.id FROM "Experiment" e
     WHERE e."noiseCalibration" AND e."finishedAt" IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM "NoiseFloor" f WHERE f."experimentId" = e.id)
     ORDER BY random() LIMIT ${opts.limit ?? 20}`;
  return eachOverdue(rows, opts, async (id) => (await recordNoiseFloor(db, id)) === 'recorded');
}

export interface StoredNoiseFloor {
  experimentId: string;
  targetId: string;
  scenarioId: string;
  poolConfigId: string;
  runsPerSide: number;
  createdAt: Date;
  metrics: NoiseFloorMetrics;
  /** the machine and build its runs were measured on (`NOISE_FLOOR_FINGERPRINT`), where recorded */
  fingerprint?: Partial<Record<(typeof NOISE_FLOOR_FINGERPRINT)[number], string>>;
}

/**
 * What a calibration is valid for besides its age: the machine (CPU model and count) and the build
 * (k6, lab target) its runs recorded in their environment. A comparison whose runs recorded
 * another value of one of these does not use it (`noiseFloorFits`).
 */
export const NOISE_FLOOR_FINGERPRINT = [
  'cpuModel',
  'cpuCount',
  'k6Version',
  'labTargetVersion',
] as const;

/** Each fingerprint field the first run with an environment recorded, as text. */
function fingerprintOf(environments: readonly unknown[]): StoredNoiseFloor['fingerprint'] {
  const out: NonNullable<StoredNoiseFloor['fingerprint']> = {};
  for (const env of environments) {
    if (!env || typeof env !== 'object') continue;
    for (const f of NOISE_FLOOR_FINGERPRINT) {
      const v = (env as Record<string, unknown>)[f];
      if (out[f] === undefined && v !== undefined && v !== null) out[f] = String(v);
    }
  }
  return out;
}

/**
 * Whether a calibration applies to runs with these environments: no fingerprint field that both
 * recorded differs. Runs or calibrations that recorded nothing are not refused for it.
 */
export function noiseFloorFits(
  floor: Pick<StoredNoiseFloor, 'fingerprint'>,
  environments: readonly unknown[],
): boolean {
  const runs = environments.map((e) => fingerprintOf([e]) ?? {});
  return NOISE_FLOOR_FINGERPRINT.every((f) => {
    const cal = floor.fingerprint?.[f];
    return cal === undefined || runs.every((r) => r[f] === undefined || r[f] === cal);
  });
}

const cellKey = (targetId: string, scenarioId: string) => `${targetId}\u0000${scenarioId}`;

/**
 * A calibration older than this is not used: the machine, its neighbours and the target's build
 * have had time to change. Calibrate again.
 */
export const NOISE_FLOOR_MAX_AGE_DAYS = 30;

/**
 * The latest stored noise floor of each target × scenario asked about, read in the team only,
 * measured within `NOISE_FLOOR_MAX_AGE_DAYS` of `now`, with the machine and build its runs
 * recorded (`fingerprint`; a comparison checks it with `noiseFloorFits`). Keyed by
 * `noiseFloorKey(targetId, scenarioId)`.
 */
export async function latestNoiseFloors(
  db: Db,
  teamId: string,
  cells: Array<{ targetId: string; scenarioId: string | null }>,
  now: Date = new Date(),
): Promise<Map<string, StoredNoiseFloor>> {
  const wanted = cells.filter((c): c is { targetId: string; scenarioId: string } => !!c.scenarioId);
  const out = new Map<string, StoredNoiseFloor>();
  if (!wanted.length) return out;
  const rows = await db.noiseFloor.findMany({
    where: {
      teamId,
      OR: wanted.map((c) => ({ targetId: c.targetId, scenarioId: c.scenarioId })),
      // a calibration that measured nothing (too few runs) does not hide an earlier one
      NOT: { metrics: { equals: [] } },
      createdAt: { gte: new Date(now.getTime() - NOISE_FLOOR_MAX_AGE_DAYS * 86_400_000) },
    },
    // the newest row of each target × scenario only, however many calibrations there were
    orderBy: { createdAt: 'desc' },
    distinct: ['targetId', 'scenarioId'],
  });
  const environments = await db.run.findMany({
    where: { experimentId: { in: rows.map((r) => r.experimentId) } },
    select: { experimentId: true, environment: true },
  });
  for (const r of rows.map(parseNoiseFloor)) {
    const k = cellKey(r.targetId, r.scenarioId);
    const fingerprint = fingerprintOf(
      environments.filter((e) => e.experimentId === r.experimentId).map((e) => e.environment),
    );
    if (!out.has(k)) out.set(k, { ...r, fingerprint });
  }
  return out;
}
export const noiseFloorKey = cellKey;

/**
 * The floors a comparison of two groups uses: per metric the larger floor and the larger
 * run-to-run spread of what the calibrations of the two groups' target × scenario measured (one
 * side calibrated is enough).
 */
export function comparisonNoiseFloors(
  floors: ReadonlyArray<StoredNoiseFloor | undefined>,
): NoiseFloors {
  const out: NoiseFloors = {};
  for (const f of floors)
    for (const m of f?.metrics ?? []) {
      const seen = out[m.key];
      const spread = typeof m.spread === 'number' ? m.spread : undefined;
      if (!seen) out[m.key] = { unit: m.unit, value: m.value, spread };
      else if (seen.unit === m.unit)
        out[m.key] = {
          unit: m.unit,
          value: Math.max(seen.value, m.value),
          spread: Math.max(seen.spread ?? 0, spread ?? 0) || undefined,
        };
    }
  return out;
}

/**
 * Why an unresolved hypothesis may stay so, when an A/A calibration of its target × scenario says:
 * the noise floor of its metric is wider than the change it claims (or, for equivalence, than the
 * band it must stay inside). '' when no calibration says so. The decision itself never uses the
 * floor: a pre-registered band is not moved after the fact.
 */
export function noiseFloorNote(
  rule: HypothesisRule,
  floors: ReadonlyArray<StoredNoiseFloor | undefined>,
): string {
  const unit = rule.bandUnit ?? defaultBandUnit(rule.metric);
  const wanted = unit === 'percent' ? 'percent' : 'absolute';
  const found = floors
    .flatMap((f) =>
      (f?.metrics ?? [])
        .filter((m) => m.key === rule.metric && m.unit === wanted)
        .map((m) => ({ m, f: f! })),
    )
    .sort((a, b) => b.m.value - a.m.value)[0];
  if (!found || !(found.m.value > rule.band)) return '';
  const fmt = (v: number) =>
    unit === 'percent' ? `${v.toFixed(v < 10 ? 1 : 0)} %` : `${v.toPrecision(2)}`;
  const what = rule.expect === 'equivalent' ? 'equivalence band' : 'claimed change';
  return `; the A/A noise floor of ${rule.metric} on this target and scenario is ±${fmt(found.m.value)} (calibration ${found.f.experimentId}, ${found.f.runsPerSide} vs ${found.f.runsPerSide} runs), wider than the ${fmt(rule.band)} ${what}: identical configs differ this much here`;
}
