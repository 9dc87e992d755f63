import { readJson, type Db } from '@poolbench/db';
import { SelectionSchema, type Selection } from '~/lib/compare/selection';
import { hashShareToken, SHARE_TOKEN_PATTERN } from './token';
import { onBeforeExit, processWide } from '../../process-wide';

export interface ResolvedShareLink {
  id: string;
  teamId: string;
  kind: 'run' | 'comparison' | 'experiment';
  runId: string | null;
  experimentId: string | null;
  selection: Selection | null;
  title: string;
  expiresAt: Date | null;
}

/** The live link for a token, or null when it is unknown, revoked or expired (all look the same). */
export async function resolveShareLink(
  db: Db,
  token: string,
  opts: { count?: boolean } = {},
): Promise<ResolvedShareLink | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  const link = await db.shareLink.findUnique({
    where: { tokenHash: hashShareToken(token) },
    select: {
      id: true,
      teamId: true,
      kind: true,
      runId: true,
      experimentId: true,
      selection: true,
      title: true,
      expiresAt: true,
      revokedAt: true,
    },
  });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt <= new Date())) return null;
  if (opts.count) await countView(db, link.id);
  return {
    id: link.id,
    teamId: link.teamId,
    kind: link.kind,
    runId: link.runId,
    experimentId: link.experimentId,
    selection: readJson(SelectionSchema, link.selection, {
      model: 'ShareLink',
      column: 'selection',
      id: link.id,
    }),
    title: link.title,
    expiresAt: link.expiresAt,
  };
}

// Views counted while a link's UPDATE is in flight or in the pause after it, added by the next
// one: under a crowd at most one row update per link every COUNT_PAUSE_MS per web process, not
// one per view (each costs a query and a WAL flush), nor one per view queued on the row lock. The
// first view waits for its own write (a single view is counted when its page is answered); later
// ones return at once and are counted within the pause and a write.
const COUNT_PAUSE_MS = 250;
interface Counting {
  /** views not written yet */
  n: number;
  /** the write in flight, if any */
  busy: Promise<unknown>;
  write: (n: number) => Promise<unknown>;
}
const counting = processWide('share-view-counts', () => new Map<string, Counting>());

/** Counts one view of a link (see above). */
export function countView(db: Db, id: string): Promise<unknown> {
  const queued = counting.get(id);
  if (queued) {
    queued.n++;
    return Promise.resolve();
  }
  const write = (n: number) =>
    db.shareLink.update({
      where: { id },
      data: { accessCount: { increment: n }, lastAccessedAt: new Date() },
    });
  const first = write(1);
  const entry: Counting = { n: 0, busy: first, write };
  counting.set(id, entry);
  const drain = async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, COUNT_PAUSE_MS));
      // check and delete in one synchronous step: a view arriving later starts a new entry
      if (entry.n === 0) {
        counting.delete(id);
        return;
      }
      await writeHeld(entry);
    }
  };
  void first.then(drain, drain);
  return first;
}

// a lost count must not fail a page already answered
const writeHeld = (entry: Counting) => {
  const n = entry.n;
  entry.n = 0;
  entry.busy = entry.write(n).catch(() => undefined);
  return entry.busy;
};

/**
 * Writes every view held in a pause now and waits for the writes in flight: the process is about
 * to exit, and a view answered is a view counted.
 */
export async function flushViewCounts(): Promise<void> {
  await Promise.all(
    [...counting.values()].map(async (entry) => {
      await entry.busy.catch(() => undefined);
      if (entry.n > 0) await writeHeld(entry);
    }),
  );
}
onBeforeExit('share-view-counts', flushViewCounts);
