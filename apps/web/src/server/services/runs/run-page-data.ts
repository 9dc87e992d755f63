import { gzipSync } from 'node:zlib';
import type { Db } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { fastSuperjson } from '../../api/fast-transformer';
import { RunDetailSchema, RunSeriesSchema } from '../../api/routers/run.types';
import { keptAnswerMs, onRevocation } from '../auth/auth-cache';
import { fingerprint, LruCache, pageCacheOn, RecentPages } from '../cache/finished-data-cache';
import { processWide } from '../../process-wide';
import type { PageBytes } from '../cache/page-bytes-response';
import { NotFoundError } from '../errors';
import { getRun } from './get-run';
import { getRunSeries } from './run-series';

// a finished 15-minute run's page is ~25 KB compressed: 400 of them stay near 10 MB
const pages = processWide('run-pages', () => new LruCache<PageBytes>(400));

/**
 * Which finished page a team's request for a run got last, for at most `AUTH_CACHE_MAX_MS`:
 * server.mjs's fast path answers from it without the row read below. Any mutation of the team's
 * data through the product (notes, a rename, a deletion) forgets the team's entries at once, in
 * every web process (`forgetAuth({ teamId })` in `teamProcedure`); changes made by workers
 * (retention pruning a run's seconds) show within the bound.
 */
const recent = processWide('run-recent', () => new RecentPages(1000));
onRevocation('run-pages', (r) => {
  if (r.teamId) recent.forget(r.teamId);
});
const recentKey = (teamId: string, runId: string, maxPoints: number) =>
  `${teamId}\u0000${runId}\u0000${maxPoints}`;

/**
 * For server.mjs's fast path: the team's finished page of this run that a request got within the
 * bound, if any (in the bound's last quarter not to a request sent to renew it).
 */
export function recentRunPage(
  teamId: string,
  runId: string,
  maxPoints: number,
): PageBytes | undefined {
  if (!pageCacheOn()) return undefined;
  const r = recent.getOrSendToRenew(recentKey(teamId, runId, maxPoints));
  return r ? pages.get(r.etag) : undefined;
}

/**
 * Everything the run page shows of a run (`getRun` and its chart series) as one compressed
 * payload. A finished run's page is computed once per state of its row and served from memory
 * as the same bytes, under an ETag a browser revalidates for a 304. The team check is the first
 * query of every call, before any cache: another team's run id is NOT_FOUND however warm the
 * cache is. The key holds everything the page reads that can still change after the run ended:
 * the row's update time (notes), retention pruning its seconds, and the experiment's and
 * target's names.
 */
export async function runPageBytes(
  db: Db,
  teamId: string,
  runId: string,
  maxPoints: number,
): Promise<PageBytes> {
  const ticket = recent.ticket();
  const head = await db.run.findFirst({
    where: { id: runId, teamId },
    select: {
      status: true,
      updatedAt: true,
      finishedAt: true,
      secondsPrunedAt: true,
      experiment: { select: { name: true } },
      target: { select: { name: true } },
    },
  });
  if (!head) throw new NotFoundError('run');
  const finished = TERMINAL_RUN_STATUSES.includes(head.status);
  const etag = `"${fingerprint({ runId, maxPoints, head })}"`;
  const cacheable = finished && pageCacheOn();
  const remember = () =>
    recent.remember(
      recentKey(teamId, runId, maxPoints),
      teamId,
      etag,
      ticket,
      ticket.at + keptAnswerMs(),
    );
  const hit = cacheable ? pages.get(etag) : undefined;
  if (hit) {
    remember();
    return hit;
  }
  const [run, series] = await Promise.all([
    getRun(db, teamId, runId),
    getRunSeries(db, teamId, runId, maxPoints),
  ]);
  // what tRPC's run.get and run.series would send: their output schemas shape (and strip) it
  const payload = { run: RunDetailSchema.parse(run), series: RunSeriesSchema.parse(series) };
  const bytes: PageBytes = {
    etag,
    gzip: gzipSync(JSON.stringify(fastSuperjson.serialize(payload))),
    finished,
  };
  if (cacheable) {
    pages.set(etag, bytes);
    remember();
  }
  return bytes;
}
