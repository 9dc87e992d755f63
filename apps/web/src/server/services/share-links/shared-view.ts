import type { Db } from '@poolbench/db';
import type { Comparison } from '../compare/build-comparison';
import { cachedComparison } from '../compare/cached-comparison';
import { pivotCells, type Pivot } from '../compare/pivot';
import { cachedExperimentPivot } from '../compare/cached-pivot';
import type { CompareItem } from '~/lib/compare/selection';
import type { GuessLimiter } from './rate-limit';
import { resolveShareLink, type ResolvedShareLink } from './resolve-share-link';
import { readHypotheses } from '../experiments/hypotheses';
import type { HypothesisView } from '~/server/api/routers/hypothesis.types';

export type SharedView =
  | { status: 429; budget: 'client' | 'global' }
  | { status: 404 }
  | {
      status: 200;
      link: ResolvedShareLink;
      comparison: Comparison;
      pivot: Pivot | null;
      hypotheses: HypothesisView[] | null;
      subtitle: string;
      version: string;
    };

const MAX_CELLS = 6;

/**
 * What a share token may see, and nothing else: every read below is scoped to the link's team and
 * to the link's own resource (its run, its experiment's cells, or its stored selection), so a
 * token can never be pointed at other data. Unknown, revoked and expired tokens all answer 404,
 * and count towards the guessing limits (`GuessLimiter`); `client` is null when no trusted proxy
 * vouches for the caller's address.
 */
export async function openSharedView(
  deps: { db: Db; limiter: GuessLimiter },
  token: string,
  client: string | null,
  opts: { count?: boolean; maxPoints?: number } = {},
): Promise<SharedView> {
  if (await deps.limiter.blocked(client)) return { status: 429, budget: 'client' };
  const link = await resolveShareLink(deps.db, token, { count: opts.count });
  if (!link) {
    // over the global budget only misses are refused: valid links keep working for everyone
    const exceeded = await deps.limiter.recordFailure(client);
    return exceeded ? { status: 429, budget: exceeded } : { status: 404 };
  }
  let items: CompareItem[];
  let pivot: Pivot | null = null;
  let hypotheses: HypothesisView[] | null = null;
  if (link.kind === 'run' && link.runId) items = [{ kind: 'run', runId: link.runId }];
  else if (link.kind === 'experiment' && link.experimentId) {
    const p = await cachedExperimentPivot(deps.db, link.teamId, link.experimentId, 'p95Ms');
    items = pivotCells(p, link.experimentId).slice(0, MAX_CELLS);
    if (p.rows.length > 1 && p.columns.length > 1) pivot = p;
    hypotheses = (await readHypotheses(deps.db, link.experimentId)).items;
  } else if (link.kind === 'comparison' && link.selection) items = link.selection.items;
  else return { status: 404 };
  if (items.length === 0) return { status: 404 };
  try {
    // the token was checked above on this very request; only the data of finished runs is cached
    const { comparison, version } = await cachedComparison(
      deps.db,
      link.teamId,
      { ...(link.selection ?? {}), items },
      { maxPoints: opts.maxPoints ?? 240 },
    );
    const g = comparison.groups[0]!;
    const runs = comparison.groups.reduce((a, x) => a + x.repeats, 0);
    const subtitle = `${g.targetName} · ${[...new Set(comparison.groups.map((x) => x.scenarioName))].join(', ')} · ${runs} ${runs === 1 ? 'run' : 'runs'}`;
    return { status: 200, link, comparison, pivot, hypotheses, subtitle, version };
  } catch (e) {
    // the shared runs were deleted since: the link shows nothing rather than an error page
    if (e instanceof Error && e.name === 'NotFoundError') return { status: 404 };
    throw e;
  }
}
