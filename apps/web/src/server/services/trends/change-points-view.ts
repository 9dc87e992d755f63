import { NotFoundError, type Db } from '@poolbench/db';
import {
  HISTORY_METRICS,
  type ChangePoint,
  type ChangePointsAnswer,
  type HistoryMetric,
} from '@poolbench/contracts';
import { cellHistory, historyChangePoints, type CellRef } from '@poolbench/runs';
import { InvalidInputError } from '../errors';
import { resolvePoolConfigs, resolveScenario, resolveTarget } from '../ci/resolve-refs';
import { trendCellNames } from './trend-series';

/** The REST answer (`ChangePointsAnswerSchema`) with the firings' times as dates. */
type ChangePointsView = Omit<ChangePointsAnswer, 'changePoints'> & { changePoints: ChangePoint[] };

/**
 * The change points of one target × scenario × pool config's history (every firing's median per
 * metric, as Trends draws it), optionally only counting the regressions whose first changed firing
 * comes after a commit (the newest firing that ran it) or an instant.
 */
export async function changePointsOf(
  db: Db,
  teamId: string,
  cell: CellRef,
  opts: { metrics?: readonly HistoryMetric[]; since?: string | null } = {},
): Promise<ChangePointsView> {
  const { target, scenario, poolConfig } = await trendCellNames(db, teamId, cell);
  const firings = await cellHistory(db, teamId, cell);
  const metrics = opts.metrics?.length ? opts.metrics : HISTORY_METRICS;
  const changePoints = historyChangePoints(firings, metrics);
  let since: ChangePointsView['since'] = null;
  if (opts.since) {
    const at = sinceInstant(opts.since, firings);
    since = {
      commit: at.commit,
      at: at.at.toISOString(),
      regressions: changePoints.filter(
        (c) => c.kind === 'regression' && c.after.createdAt.getTime() > at.at.getTime(),
      ).length,
    };
  }
  return {
    target,
    scenario,
    poolConfig,
    firings: firings.length,
    changePoints,
    since,
  };
}

/** A commit SHA or prefix, a UTC date, or a UTC date and time to the minute or second. */
export const SINCE_PATTERN =
  /^(?:[0-9a-fA-F]{4,40}|\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?Z)?)$/;

/**
 * `since` as an instant: a UTC date or time (a day past the month's end rolls over, as Date.UTC
 * does), else a commit SHA (4 to 40 hex digits, a prefix is enough) of a firing in the history,
 * whose newest firing is the instant; no such firing is NOT_FOUND.
 */
function sinceInstant(
  since: string,
  firings: ReadonlyArray<{ createdAt: Date; commit: string | null }>,
): { at: Date; commit: string | null } {
  if (!SINCE_PATTERN.test(since))
    throw new InvalidInputError(
      'since',
      'give a commit SHA or its prefix (4 to 40 hex digits), a date (2026-11-01) or a UTC time (2026-11-01T03:00Z)',
    );
  const d = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?Z)?$/.exec(since);
  if (d) {
    const [y, mo, day, h, mi, sec] = d.slice(1).map((x) => Number(x ?? 0));
    return { at: new Date(Date.UTC(y!, mo! - 1, day!, h!, mi!, sec!)), commit: null };
  }
  const ran = firings.filter((f) => f.commit?.toLowerCase().startsWith(since.toLowerCase()));
  if (ran.length === 0)
    throw new NotFoundError(
      `a firing of this history that ran commit ${since} (CI firings record it with --commit or the CI's variables)`,
    );
  const newest = ran[ran.length - 1]!;
  return { at: newest.createdAt, commit: newest.commit };
}

/** The same, named as the REST API and the CLI name things (ids or exact names). */
export async function changePointsByRef(
  db: Db,
  teamId: string,
  refs: { target: string; scenario: string; poolConfig: string },
  opts: { metrics?: readonly HistoryMetric[]; since?: string | null } = {},
) {
  const target = await resolveTarget(db, teamId, refs.target);
  const scenario = await resolveScenario(db, teamId, refs.scenario);
  const [poolConfigId] = await resolvePoolConfigs(db, teamId, target.id, [refs.poolConfig]);
  return changePointsOf(
    db,
    teamId,
    { targetId: target.id, scenarioId: scenario.id, poolConfigId: poolConfigId! },
    opts,
  );
}
