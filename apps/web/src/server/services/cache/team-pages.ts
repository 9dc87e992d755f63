import { gzipSync } from 'node:zlib';
import { fastSuperjson } from '../../api/fast-transformer';
import { processWide } from '../../process-wide';
import { keptAnswerMs, onRevocation } from '../auth/auth-cache';
import { LruCache, pageCacheOn, RecentPages } from './finished-data-cache';
import type { PageBytes } from './page-bytes-response';

/** What a page's reads decided: its version, and how to render it when it is not kept. */
export interface PageVersion {
  /** a quoted ETag naming everything the page shows that can still change */
  etag: string;
  /** whether the page can no longer change but by what changes its ETag: then it is kept */
  finished: boolean;
  /** the page's data as its tRPC procedure would send it (shaped by its output schema) */
  render: () => Promise<unknown>;
}

/**
 * One kind of page kept for the teams that read it (the run page's data, a comparison), the one
 * cache both use: the finished pages by ETag in an LRU of `capacity`, and which page a team's
 * request for a key got last, kept for at most `AUTH_CACHE_MAX_MS`, that server.mjs's fast path
 * answers from without any read. A mutation of a team's data through the product forgets that
 * team's entries at once, in every web process (`forgetAuth({ teamId })` in `teamProcedure`);
 * changes made by workers show within the bound. `POOLBENCH_PAGE_CACHE=off` keeps nothing.
 */
export class TeamPages {
  private readonly pages: LruCache<PageBytes>;
  private readonly recent: RecentPages;

  constructor(name: string, capacity: number) {
    this.pages = processWide(`${name}-pages`, () => new LruCache<PageBytes>(capacity));
    this.recent = processWide(`${name}-recent`, () => new RecentPages(1000));
    onRevocation(`${name}-pages`, (r) => {
      if (r.teamId) this.forget(r.teamId);
    });
  }

  /** Forget what the team's requests got (its data changed). */
  forget(teamId: string): void {
    this.recent.forget(teamId);
  }

  /**
   * For server.mjs's fast path: the team's finished page under this key that a request got within
   * the bound, if any (in the bound's last quarter not to a request sent to renew it).
   */
  recentPage(teamId: string, key: string): PageBytes | undefined {
    if (!pageCacheOn()) return undefined;
    const seen = this.recent.getOrSendToRenew(`${teamId}\u0000${key}`);
    return seen ? this.pages.get(seen.etag) : undefined;
  }

  /**
   * The page as compressed bytes. `read` runs the team's reads first (a row of another team is
   * NOT_FOUND however warm the cache is) and decides the page's version; a finished version is
   * rendered once and kept. With `skipReadsWhenRecent` a page a team's request got within the
   * bound is answered without the reads (a comparison's reads are many).
   */
  async bytes(
    teamId: string,
    key: string,
    read: () => Promise<PageVersion>,
    opts: { skipReadsWhenRecent?: boolean } = {},
  ): Promise<PageBytes> {
    const at = `${teamId}\u0000${key}`;
    const ticket = this.recent.ticket();
    if (opts.skipReadsWhenRecent && pageCacheOn()) {
      const seen = this.recent.get(at, ticket.at);
      const kept = seen ? this.pages.get(seen.etag) : undefined;
      if (kept) return kept;
    }
    const { etag, finished, render } = await read();
    const cacheable = finished && pageCacheOn();
    const remember = () =>
      this.recent.remember(at, teamId, etag, ticket, ticket.at + keptAnswerMs());
    const hit = cacheable ? this.pages.get(etag) : undefined;
    if (hit) {
      remember();
      return hit;
    }
    const bytes: PageBytes = {
      etag,
      gzip: gzipSync(JSON.stringify(fastSuperjson.serialize(await render()))),
      finished,
    };
    if (cacheable) {
      this.pages.set(etag, bytes);
      remember();
    }
    return bytes;
  }
}
