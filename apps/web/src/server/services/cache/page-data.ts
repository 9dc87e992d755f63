import type { Db } from '@poolbench/db';
import { maxPointsParam, type PageBytes } from './page-bytes-response';

/** A request for one page's data: the page's own key and the points drawn per series. */
export interface PageDataAsk<K> {
  key: K;
  maxPoints: number;
}

/**
 * One page's data as every way in reads it: its route handler (`pageDataResponse`) and
 * server.mjs's fast path, which answers from `recent` alone. `ask` reads the request: the page's
 * key and points, a problem with the input (named by its field), or `not-found` for an address
 * that can name no page of any team.
 */
export interface PageData<K> {
  /** the problem detail when the page is not the signed-in team's */
  notFound: string;
  ask(pathId: string | null, q: URLSearchParams): PageDataAsk<K> | { error: string } | 'not-found';
  /** the page's bytes, after the team check that every read starts with */
  read(db: Db, teamId: string, ask: PageDataAsk<K>): Promise<PageBytes>;
  /** the team's finished page this process answered within the bound; nothing is read */
  recent(teamId: string, ask: PageDataAsk<K>): PageBytes | undefined;
}

/** The `maxPoints` of a page-data query, or the problem with it. */
export function pointsOf(
  q: URLSearchParams,
  fallback: number,
  max: number,
): number | { error: string } {
  return (
    maxPointsParam(q.get('maxPoints'), fallback, max) ?? {
      error: `maxPoints: must be a whole number from 20 to ${max}`,
    }
  );
}
